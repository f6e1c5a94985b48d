//! Shapes: what a document's JSON must look like before any rule applies (which keys each
//! object has, which are required, what kind of value each holds, which strings an enum
//! allows), and [`check`], one walker that reports every place a value breaks its shape.
//!
//! Why: serde stops at the first problem. A typed parse that fails says what broke first,
//! and a user who fixes it meets the next one on the next run. [`parse_document`] keeps
//! serde's message as the first violation (some specs require it verbatim) and adds every
//! other shape problem of the document after it, each with its path, in one pass, the way
//! pydantic lists them.
//!
//! How: specmint-codegen emits one [`Shapes`] constant per spec (`SHAPES`, beside
//! `DOCUMENT`), with the types of its field, enum and union tables; types refer to each
//! other by index. The slices are [`Cow`], so a shape description can also be built at run
//! time from a model loaded then (owned slices, names borrowed from the model). [`check`]
//! walks a parsed [`Json`] tree (members in document order) against it.
//!
//! Limits: the walker sees the JSON tree, so what only the token stream shows (a duplicate
//! key, which the tree keeps as two members and checks both) and what only a hand-written
//! `Deserialize` knows are left to serde's own message. A problem inside a value whose type
//! is broken (a member of an object given as an array) is not looked for.
//!
//! [`parse_document`]: crate::document::parse_document
//!
//! A shape built at run time (generated code builds the same from `static` slices):
//!
//! ```
//! use std::borrow::Cow;
//! use specmint_runtime::json::Json;
//! use specmint_runtime::shape::{check, FieldShape, Kind, Shapes, TypeShape, ValueShape};
//!
//! let fields = vec![
//!     FieldShape::new("title", ValueShape::new(Kind::Str), true),
//!     FieldShape::new("level", ValueShape::new(Kind::Type(1)), false),
//! ];
//! let note = Shapes {
//!     root: 0,
//!     types: Cow::Owned(vec![
//!         TypeShape::object("note", &fields),
//!         TypeShape::enumeration("level", &["low", "high"]),
//!     ]),
//! };
//! let doc = Json::parse(r#"{"level": "urgent", "colour": "red"}"#).unwrap();
//! let found: Vec<String> = check(&doc, &note, "note", "bad_note")
//!     .iter()
//!     .map(|v| format!("{} {}: {}", v.code, v.path, v.message))
//!     .collect();
//! assert_eq!(found, [
//!     "bad_note level: `level` is `urgent`, expected one of `low`, `high`",
//!     "bad_note colour: `colour` is an unknown key (expected one of `title`, `level`)",
//!     "bad_note title: `title` is required but missing",
//! ]);
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::json::Json;
use crate::path::{push_index, push_key};
use crate::Violation;

/// Every type of one spec, and which of them is the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shapes<'a> {
    /// Index in `types` of the document's (root) object.
    pub root: usize,
    /// The field, enum and union tables; [`Kind::Type`] indexes this.
    pub types: Cow<'a, [TypeShape<'a>]>,
}

impl<'a> Shapes<'a> {
    /// Whether some member has an [`FieldShape::enum_code`].
    pub fn has_enum_codes(&self) -> bool {
        self.types.iter().any(|t| match t {
            TypeShape::Object(o) => o.fields.iter().any(|f| f.enum_code.is_some()),
            TypeShape::Union(u) => u
                .variants
                .iter()
                .any(|v| v.fields.iter().any(|f| f.enum_code.is_some())),
            TypeShape::Enum(_) => false,
        })
    }

    /// The types of a spec, borrowed (for a `const`).
    pub const fn new(root: usize, types: &'a [TypeShape<'a>]) -> Self {
        Shapes {
            root,
            types: Cow::Borrowed(types),
        }
    }
}

/// One named type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeShape<'a> {
    /// A field table: a JSON object.
    Object(ObjectShape<'a>),
    /// An enum table: one of a closed set of strings.
    Enum(EnumShape<'a>),
    /// A union table: an object tagged by one member.
    Union(UnionShape<'a>),
}

impl<'a> TypeShape<'a> {
    /// A closed object with `fields` (members not listed are refused).
    pub const fn object(name: &'a str, fields: &'a [FieldShape<'a>]) -> Self {
        TypeShape::Object(ObjectShape {
            name,
            fields: Cow::Borrowed(fields),
            open: false,
            selector: None,
        })
    }

    /// An enum whose JSON spellings are `values`.
    pub const fn enumeration(name: &'a str, values: &'a [&'a str]) -> Self {
        TypeShape::Enum(EnumShape {
            name,
            values: Cow::Borrowed(values),
        })
    }

    /// The type's table name.
    pub fn name(&self) -> &'a str {
        match self {
            TypeShape::Object(o) => o.name,
            TypeShape::Enum(e) => e.name,
            TypeShape::Union(u) => u.name,
        }
    }
}

/// A field table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectShape<'a> {
    /// Table name, for messages.
    pub name: &'a str,
    /// Its members, in table order.
    pub fields: Cow<'a, [FieldShape<'a>]>,
    /// Members the table does not list are kept, not refused.
    pub open: bool,
    /// Members whose type a sibling enum member chooses ([`Kind::Selected`]).
    pub selector: Option<SelectorShape<'a>>,
}

/// One member of an object (or of a union variant).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldShape<'a> {
    /// The JSON key.
    pub key: &'a str,
    /// What its value must be.
    pub value: ValueShape,
    /// The key must be present (absent is not read as a default).
    pub required: bool,
    /// For a single enum value: the code a value outside the enum is reported with, the
    /// member then read as absent by every other rule (see [`coded_enums`]). `None`: such a
    /// value is a shape problem, refused with the parse code.
    pub enum_code: Option<&'a str>,
}

impl<'a> FieldShape<'a> {
    /// A member `key` holding `value`.
    pub const fn new(key: &'a str, value: ValueShape, required: bool) -> Self {
        FieldShape {
            key,
            value,
            required,
            enum_code: None,
        }
    }

    /// A value outside the member's enum is reported with `code` (see
    /// [`FieldShape::enum_code`]).
    #[must_use]
    pub const fn with_enum_code(mut self, code: &'a str) -> Self {
        self.enum_code = Some(code);
        self
    }
}

/// What a value must be: a kind, possibly a list of it, possibly `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueShape {
    /// The kind of the value (of each item, for a list).
    pub kind: Kind,
    /// A JSON array of that kind.
    pub array: bool,
    /// `null` is accepted (for the whole value, not for items of a list).
    pub nullable: bool,
}

impl ValueShape {
    /// One value of `kind`, not `null`.
    pub const fn new(kind: Kind) -> Self {
        ValueShape {
            kind,
            array: false,
            nullable: false,
        }
    }

    /// A list of this.
    #[must_use]
    pub const fn array(mut self) -> Self {
        self.array = true;
        self
    }

    /// This, or `null`.
    #[must_use]
    pub const fn nullable(mut self) -> Self {
        self.nullable = true;
        self
    }
}

/// The kind of a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A string. (Not named `String`: a public variant of that name makes rustc spell
    /// `std::string::String` in full in every derive user's error messages.)
    Str,
    /// `true` or `false`.
    Bool,
    /// An integer from 0 to `u32::MAX`.
    U32,
    /// An integer from 0 to `u64::MAX`.
    U64,
    /// An integer from `i32::MIN` to `i32::MAX`.
    I32,
    /// An integer from `i64::MIN` to `i64::MAX`.
    I64,
    /// Any number.
    Number,
    /// Any JSON value.
    Any,
    /// The type at this index of [`Shapes::types`].
    Type(usize),
    /// A member of [`ObjectShape::selector`]: its type is chosen by the selecting member.
    Selected,
}

/// An enum table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumShape<'a> {
    /// Table name, for messages.
    pub name: &'a str,
    /// The JSON spellings, in table order.
    pub values: Cow<'a, [&'a str]>,
}

/// A union table: `{"<tag>": "<value>", ..members}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnionShape<'a> {
    /// Table name, for messages.
    pub name: &'a str,
    /// The tag key.
    pub tag: &'a str,
    /// A bare tag string (trimmed, any ASCII case) stands for a variant whose members are
    /// all optional.
    pub short_form: bool,
    /// One per tag value, in table order.
    pub variants: Cow<'a, [VariantShape<'a>]>,
}

/// One variant of a union.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantShape<'a> {
    /// The tag value.
    pub tag_value: &'a str,
    /// Its members besides the tag.
    pub fields: Cow<'a, [FieldShape<'a>]>,
}

impl<'a> VariantShape<'a> {
    /// The variant tagged `tag_value` with `fields`.
    pub const fn new(tag_value: &'a str, fields: &'a [FieldShape<'a>]) -> Self {
        VariantShape {
            tag_value,
            fields: Cow::Borrowed(fields),
        }
    }
}

/// Members of an object whose types an enum member of the same object chooses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorShape<'a> {
    /// The choosing member's key (its own shape is in [`ObjectShape::fields`]).
    pub by: &'a str,
    /// The chosen members' keys.
    pub members: Cow<'a, [&'a str]>,
    /// One case per value of the choosing enum.
    pub cases: Cow<'a, [SelectorCaseShape<'a>]>,
}

/// One value of a selector and the type of each chosen member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectorCaseShape<'a> {
    /// The choosing member's value.
    pub value: &'a str,
    /// For each of [`SelectorShape::members`], the index of its object type.
    pub tables: Cow<'a, [usize]>,
}

impl<'a> SelectorCaseShape<'a> {
    /// The case `value` choosing `tables`.
    pub const fn new(value: &'a str, tables: &'a [usize]) -> Self {
        SelectorCaseShape {
            value,
            tables: Cow::Borrowed(tables),
        }
    }
}

/// Every shape problem of `document` against `shapes`, in document order (an object's
/// missing members after its present ones), each a `code` violation with its path.
/// `document_name` names the document in messages about the root value itself.
#[must_use]
pub fn check(
    document: &Json,
    shapes: &Shapes<'_>,
    document_name: &str,
    code: &str,
) -> Vec<Violation> {
    problems(document, shapes, document_name, code)
        .into_iter()
        .map(|p| p.violation)
        .collect()
}

/// A violation and where serde would have put the same problem: the object, for a missing
/// member (serde names the object that lacks it), else the violation's own pointer.
pub(crate) struct Problem {
    pub(crate) violation: Violation,
    pub(crate) serde_pointer: String,
}

/// [`check`], keeping where serde would report each problem (to leave out the one serde
/// reported already).
pub(crate) fn problems(
    document: &Json,
    shapes: &Shapes<'_>,
    document_name: &str,
    code: &str,
) -> Vec<Problem> {
    let mut walk = Walk {
        shapes,
        document_name,
        code,
        at: Vec::new(),
        found: Vec::new(),
    };
    walk.item(document, Kind::Type(shapes.root), false);
    walk.found
}

enum At<'j> {
    Key(&'j str),
    Index(usize),
}

struct Walk<'s, 'a, 'j> {
    shapes: &'s Shapes<'a>,
    document_name: &'s str,
    code: &'s str,
    at: Vec<At<'j>>,
    found: Vec<Problem>,
}

/// What a value is, for "found …" in messages.
fn found(value: &Json) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(_) => "a boolean".to_owned(),
        Json::Number(n) => format!("the number {n}"),
        Json::Str(_) => "a string".to_owned(),
        Json::Array(_) => "an array".to_owned(),
        Json::Object(_) => "an object".to_owned(),
    }
}

fn quoted_list<'x>(items: impl IntoIterator<Item = &'x str>) -> String {
    let mut out = String::new();
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "`{item}`");
    }
    out
}

impl<'a, 'j> Walk<'_, 'a, 'j> {
    /// The current location: (dotted, pointer).
    fn render(&self) -> (String, String) {
        let mut dotted = String::new();
        let mut pointer = String::new();
        for seg in &self.at {
            match seg {
                At::Key(k) => push_key(&mut dotted, &mut pointer, k),
                At::Index(i) => push_index(&mut dotted, &mut pointer, *i),
            }
        }
        (dotted, pointer)
    }

    /// Records a problem at the current location; `what` follows the item's name.
    fn report(&mut self, what: &str) {
        self.report_expected(what, String::new());
    }

    /// [`Walk::report`] with the values the item may take ([`Violation::expected`]).
    fn report_expected(&mut self, what: &str, expected: String) {
        let (dotted, pointer) = self.render();
        let message = if dotted.is_empty() {
            format!("the {} {what}", self.document_name)
        } else {
            format!("`{dotted}` {what}")
        };
        self.found.push(Problem {
            violation: Violation::from_parts(
                crate::report::Code::copy_of(self.code),
                dotted,
                pointer.clone(),
                message,
            )
            .with_expected(expected),
            serde_pointer: pointer,
        });
    }

    /// Records that member `key` of the object at the current location is missing.
    fn missing(&mut self, key: &str) {
        let (mut dotted, mut pointer) = self.render();
        let object = pointer.clone();
        push_key(&mut dotted, &mut pointer, key);
        let message = format!("`{dotted}` is required but missing");
        self.found.push(Problem {
            violation: Violation::from_parts(
                crate::report::Code::copy_of(self.code),
                dotted,
                pointer,
                message,
            ),
            serde_pointer: object,
        });
    }

    fn nested(&mut self, seg: At<'j>, check: impl FnOnce(&mut Self)) {
        self.at.push(seg);
        check(self);
        self.at.pop();
    }

    fn value(&mut self, value: &'j Json, shape: ValueShape) {
        if shape.nullable && matches!(value, Json::Null) {
            return;
        }
        if !shape.array {
            return self.item(value, shape.kind, shape.nullable);
        }
        let Json::Array(items) = value else {
            let or_null = if shape.nullable { " or null" } else { "" };
            let expected = self.expected(shape.kind);
            return self.report(&format!(
                "must be an array (each item {expected}){or_null}, found {}",
                found(value)
            ));
        };
        for (i, item) in items.iter().enumerate() {
            self.nested(At::Index(i), |w| w.item(item, shape.kind, false));
        }
    }

    /// What a value of `kind` is, for "must be …".
    fn expected(&self, kind: Kind) -> String {
        match kind {
            Kind::Str => "a string".to_owned(),
            Kind::Bool => "a boolean".to_owned(),
            Kind::U32 => format!("an integer from 0 to {}", u32::MAX),
            Kind::U64 => format!("an integer from 0 to {}", u64::MAX),
            Kind::I32 => format!("an integer from {} to {}", i32::MIN, i32::MAX),
            Kind::I64 => format!("an integer from {} to {}", i64::MIN, i64::MAX),
            Kind::Number => "a number".to_owned(),
            Kind::Any | Kind::Selected => "a JSON value".to_owned(),
            Kind::Type(t) => match self.shapes.types.get(t) {
                Some(TypeShape::Object(o)) => format!("a `{}` object", o.name),
                Some(TypeShape::Enum(e)) => {
                    format!("one of {}", quoted_list(e.values.iter().copied()))
                }
                Some(TypeShape::Union(u)) if u.short_form => format!(
                    "a `{}` object tagged by `{}` or one of {}",
                    u.name,
                    u.tag,
                    quoted_list(
                        u.variants
                            .iter()
                            .filter(|v| all_optional(v))
                            .map(|v| v.tag_value)
                    )
                ),
                Some(TypeShape::Union(u)) => format!("a `{}` object tagged by `{}`", u.name, u.tag),
                None => "a JSON value".to_owned(),
            },
        }
    }

    fn item(&mut self, value: &'j Json, kind: Kind, nullable: bool) {
        let fits = match (kind, value) {
            (Kind::Any | Kind::Selected, _) => true,
            (Kind::Str, Json::Str(_)) | (Kind::Bool, Json::Bool(_)) => true,
            (Kind::Number, Json::Number(_)) => true,
            (Kind::U32, Json::Number(n)) => n.as_u64().is_some_and(|n| n <= u64::from(u32::MAX)),
            (Kind::U64, Json::Number(n)) => n.as_u64().is_some(),
            (Kind::I32, Json::Number(n)) => n.as_i64().is_some_and(|n| i32::try_from(n).is_ok()),
            (Kind::I64, Json::Number(n)) => n.as_i64().is_some(),
            (Kind::Type(t), _) => return self.typed(value, t, nullable),
            _ => false,
        };
        if !fits {
            let or_null = if nullable { " or null" } else { "" };
            let expected = self.expected(kind);
            self.report(&format!(
                "must be {expected}{or_null}, found {}",
                found(value)
            ));
        }
    }

    fn typed(&mut self, value: &'j Json, t: usize, nullable: bool) {
        let shapes = self.shapes;
        let or_null = if nullable { " or null" } else { "" };
        match (shapes.types.get(t), value) {
            (Some(TypeShape::Object(o)), Json::Object(members)) => self.object(members, o),
            (Some(TypeShape::Enum(e)), Json::Str(s)) => {
                if !e.values.iter().any(|v| v == s) {
                    let values = quoted_list(e.values.iter().copied());
                    self.report_expected(
                        &format!("is `{s}`, expected one of {values}{or_null}"),
                        values,
                    );
                }
            }
            (Some(TypeShape::Union(u)), Json::Object(members)) => self.union(members, u),
            (Some(TypeShape::Union(u)), Json::Str(s)) if u.short_form => {
                let token = s.trim();
                let known = u
                    .variants
                    .iter()
                    .any(|v| all_optional(v) && v.tag_value.eq_ignore_ascii_case(token));
                if !known {
                    let expected = self.expected(Kind::Type(t));
                    self.report(&format!("is `{s}`, expected {expected}{or_null}"));
                }
            }
            (None, _) => {}
            _ => {
                let expected = self.expected(Kind::Type(t));
                self.report(&format!(
                    "must be {expected}{or_null}, found {}",
                    found(value)
                ));
            }
        }
    }

    fn object(&mut self, members: &'j [(String, Json)], o: &ObjectShape<'a>) {
        // The selector's case, when its member holds a known value.
        let case = o.selector.as_ref().and_then(|sel| {
            let chosen = members
                .iter()
                .rev()
                .find(|(k, _)| k == sel.by)?
                .1
                .as_str()?;
            sel.cases
                .iter()
                .find(|c| c.value == chosen)
                .map(|c| (sel, c))
        });
        for (key, value) in members {
            if let Some(field) = o.fields.iter().find(|f| f.key == key) {
                let shape = match (field.value.kind, case) {
                    (Kind::Selected, Some((sel, case))) => {
                        let table = sel
                            .members
                            .iter()
                            .position(|m| *m == key)
                            .and_then(|i| case.tables.get(i).copied());
                        match table {
                            Some(t) => ValueShape {
                                kind: Kind::Type(t),
                                ..field.value
                            },
                            None => field.value,
                        }
                    }
                    _ => field.value,
                };
                self.nested(At::Key(key), |w| w.value(value, shape));
            } else if !o.open {
                self.unknown_key(key, o.fields.iter().map(|f| f.key));
            }
        }
        self.missing_members(members, &o.fields);
    }

    /// Records that `key`, a member of the object at the current location, is not one of
    /// `known`.
    fn unknown_key<'k>(&mut self, key: &'j str, known: impl IntoIterator<Item = &'k str>) {
        let expected = quoted_list(known);
        self.nested(At::Key(key), |w| {
            w.report_expected(
                &format!("is an unknown key (expected one of {expected})"),
                expected.clone(),
            );
        });
    }

    /// Records every required member of `fields` that `members` lacks, in table order.
    fn missing_members(&mut self, members: &[(String, Json)], fields: &[FieldShape<'_>]) {
        for field in fields {
            if field.required && !members.iter().any(|(k, _)| k == field.key) {
                self.missing(field.key);
            }
        }
    }

    fn union(&mut self, members: &'j [(String, Json)], u: &UnionShape<'a>) {
        let tag = members
            .iter()
            .rev()
            .find(|(k, _)| k == u.tag)
            .map(|(_, v)| v);
        let Some(tag) = tag else {
            return self.missing(u.tag);
        };
        let values = || quoted_list(u.variants.iter().map(|v| v.tag_value));
        let variant = match tag {
            Json::Str(s) => match u.variants.iter().find(|v| v.tag_value == s) {
                Some(v) => v,
                None => {
                    let values = values();
                    let message = format!("is `{s}`, expected one of {values}");
                    return self.nested(At::Key(members_key(members, u.tag)), |w| {
                        w.report_expected(&message, values)
                    });
                }
            },
            other => {
                let values = values();
                let message = format!("must be one of {values}, found {}", found(other));
                return self.nested(At::Key(members_key(members, u.tag)), |w| {
                    w.report_expected(&message, values)
                });
            }
        };
        for (key, value) in members {
            if key == u.tag {
                continue;
            }
            if let Some(field) = variant.fields.iter().find(|f| f.key == key) {
                self.nested(At::Key(key), |w| w.value(value, field.value));
            } else {
                let known = std::iter::once(u.tag).chain(variant.fields.iter().map(|f| f.key));
                self.unknown_key(key, known);
            }
        }
        self.missing_members(members, &variant.fields);
    }
}

/// The tag key as written in `members` (borrowed from the document, so it lives as long
/// as the walk's other keys).
fn members_key<'j>(members: &'j [(String, Json)], key: &str) -> &'j str {
    members
        .iter()
        .find(|(k, _)| k == key)
        .map_or("", |(k, _)| k.as_str())
}

/// Whether a bare tag can stand for `variant`: every member optional.
fn all_optional(variant: &VariantShape<'_>) -> bool {
    variant.fields.iter().all(|f| !f.required)
}

/// Every member of `document` holding a string outside its enum whose field has an
/// [`FieldShape::enum_code`]: one violation each (that code, at the member's path, the
/// message naming the value and the enum's values), in document order, and the document
/// without those members (so every other rule reads them as absent). `None` when there is
/// none. Objects are followed through lists, chosen members and union variants.
///
/// ```
/// use std::borrow::Cow;
/// use specmint_runtime::json::Json;
/// use specmint_runtime::shape::{coded_enums, FieldShape, Kind, Shapes, TypeShape, ValueShape};
///
/// let fields = vec![
///     FieldShape::new("type_code", ValueShape::new(Kind::Type(1)).nullable(), false)
///         .with_enum_code("BR-CL-01"),
///     FieldShape::new("note", ValueShape::new(Kind::Str), true),
/// ];
/// let shapes = Shapes {
///     root: 0,
///     types: Cow::Owned(vec![
///         TypeShape::object("invoice", &fields),
///         TypeShape::enumeration("type_code", &["380", "381"]),
///     ]),
/// };
/// let doc = Json::parse(r#"{"type_code": "999", "note": "n"}"#).unwrap();
/// let (found, rest) = coded_enums(&doc, &shapes).unwrap();
/// assert_eq!(found[0].code, "BR-CL-01");
/// assert_eq!(found[0].path, "type_code");
/// assert_eq!(found[0].message, "`type_code` is `999`, expected one of `380`, `381`");
/// assert_eq!(rest, Json::parse(r#"{"note": "n"}"#).unwrap());
/// // A listed value, or no code: nothing.
/// assert!(coded_enums(&Json::parse(r#"{"type_code": "380", "note": "n"}"#).unwrap(), &shapes).is_none());
/// ```
pub fn coded_enums(document: &Json, shapes: &Shapes<'_>) -> Option<(Vec<Violation>, Json)> {
    if !shapes.has_enum_codes() {
        return None;
    }
    let mut doc = document.clone();
    let mut strip = Strip {
        shapes,
        dotted: String::new(),
        pointer: String::new(),
        found: Vec::new(),
    };
    strip.value(&mut doc, Kind::Type(shapes.root), false);
    (!strip.found.is_empty()).then_some((strip.found, doc))
}

/// [`coded_enums`]' walk: the location as it goes, and what it found.
struct Strip<'s, 'a> {
    shapes: &'s Shapes<'a>,
    dotted: String,
    pointer: String,
    found: Vec<Violation>,
}

impl Strip<'_, '_> {
    fn value(&mut self, value: &mut Json, kind: Kind, array: bool) {
        let Kind::Type(t) = kind else { return };
        if array {
            if let Json::Array(items) = value {
                for (i, item) in items.iter_mut().enumerate() {
                    let (d, p) = (self.dotted.len(), self.pointer.len());
                    push_index(&mut self.dotted, &mut self.pointer, i);
                    self.value(item, kind, false);
                    self.dotted.truncate(d);
                    self.pointer.truncate(p);
                }
            }
            return;
        }
        let shapes = self.shapes;
        match (shapes.types.get(t), value) {
            (Some(TypeShape::Object(o)), Json::Object(members)) => {
                let case = o.selector.as_ref().and_then(|sel| {
                    let chosen = members
                        .iter()
                        .rev()
                        .find(|(k, _)| k == sel.by)?
                        .1
                        .as_str()?;
                    let case = sel.cases.iter().find(|c| c.value == chosen)?;
                    Some((sel, case))
                });
                let kinds: Vec<Option<(Kind, bool, Option<&str>)>> = members
                    .iter()
                    .map(|(key, _)| {
                        let f = o.fields.iter().find(|f| f.key == key)?;
                        let kind = match (f.value.kind, case) {
                            (Kind::Selected, Some((sel, case))) => sel
                                .members
                                .iter()
                                .position(|m| m == key)
                                .and_then(|i| case.tables.get(i))
                                .map_or(Kind::Selected, |&t| Kind::Type(t)),
                            (k, _) => k,
                        };
                        Some((kind, f.value.array, f.enum_code))
                    })
                    .collect();
                self.members(members, &kinds);
            }
            (Some(TypeShape::Union(u)), Json::Object(members)) => {
                let tag = members.iter().rev().find(|(k, _)| k == u.tag);
                let Some(v) = tag
                    .and_then(|(_, v)| v.as_str())
                    .and_then(|tag| u.variants.iter().find(|v| v.tag_value == tag))
                else {
                    return;
                };
                let kinds: Vec<Option<(Kind, bool, Option<&str>)>> = members
                    .iter()
                    .map(|(key, _)| {
                        let f = v.fields.iter().find(|f| f.key == key)?;
                        Some((f.value.kind, f.value.array, f.enum_code))
                    })
                    .collect();
                self.members(members, &kinds);
            }
            _ => {}
        }
    }

    /// The members of one object, each with its field's kind, list flag and enum code.
    fn members(
        &mut self,
        members: &mut Vec<(String, Json)>,
        kinds: &[Option<(Kind, bool, Option<&str>)>],
    ) {
        let shapes = self.shapes;
        let mut drop = vec![false; members.len()];
        for (i, (key, value)) in members.iter_mut().enumerate() {
            let Some((kind, array, code)) = kinds[i] else {
                continue;
            };
            let (d, p) = (self.dotted.len(), self.pointer.len());
            push_key(&mut self.dotted, &mut self.pointer, key);
            match (code, kind, &*value) {
                (Some(code), Kind::Type(t), Json::Str(s)) if !array => {
                    if let Some(TypeShape::Enum(e)) = shapes.types.get(t) {
                        if !e.values.iter().any(|v| v == s) {
                            let values = quoted_list(e.values.iter().copied());
                            let message =
                                format!("`{}` is `{s}`, expected one of {values}", self.dotted);
                            self.found.push(
                                Violation::from_parts(
                                    crate::report::Code::copy_of(code),
                                    self.dotted.clone(),
                                    self.pointer.clone(),
                                    message,
                                )
                                .with_expected(values),
                            );
                            drop[i] = true;
                        }
                    }
                }
                _ => self.value(value, kind, array),
            }
            self.dotted.truncate(d);
            self.pointer.truncate(p);
        }
        let mut i = 0;
        members.retain(|_| {
            i += 1;
            !drop[i - 1]
        });
    }
}
