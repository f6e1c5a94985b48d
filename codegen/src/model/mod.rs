//! The checked model of one spec (IR). Everything the emitters need, nothing they must check.
//!
//! A `build.rs` needs none of this: [`Config`](crate::Config) is the whole build-script
//! API. The model is for tools that read a spec themselves (a run-time validator, a
//! documentation generator) through [`load`](crate::load).
//!
//! [`crate::load`] builds it; the emitters read it. Its types are `#[non_exhaustive]` (but
//! [`ExampleKind`], whose three kinds the spec format closes), so a new spec-format feature
//! can add a field or a variant without breaking a reader.

pub(crate) mod growth;
pub(crate) mod pattern;

/// One checked spec.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Spec {
    /// Module name, the file stem (`orders`).
    pub name: String,
    /// The Markdown file as displayed (`spec/orders.md`).
    pub md_path: String,
    /// The first level-1 heading.
    pub title: String,
    /// Table name of the root field table.
    pub root: String,
    /// What the document is called in messages (`order`).
    pub document_name: String,
    /// Field, enum and union tables, in spec order.
    pub types: Vec<TypeDef>,
    /// Cap rows, in table order.
    pub caps: Vec<Cap>,
    /// Text rows (`Constant | Value | Meaning`), in table order.
    pub texts: Vec<TextConstant>,
    /// The error table and the rule → code mapping.
    pub errors: Errors,
    /// Cross-field rules from the sidecar, with where they apply.
    pub rules: Vec<Rule>,
    /// Keys refused anywhere in the document.
    pub forbidden_keys: Vec<String>,
    /// Fenced `json` examples, in document order.
    pub examples: Vec<Example>,
    /// How the document is found in the input text.
    pub extract: Extract,
    /// State machines (a states table and its transitions table), in spec order.
    pub machines: Vec<Machine>,
    /// `[spec] max_input_bytes`: the document's input size limit, when the spec sets one.
    pub max_input_bytes: Option<u64>,
    /// `[spec] bom = "tolerate"`: a leading UTF-8 byte order mark is skipped, not refused.
    pub bom_tolerated: bool,
    /// The messages in other languages (`<stem>.<locale>.md` beside the spec), sorted by tag.
    pub messages: Vec<Messages>,
}

/// One locale's messages (`<stem>.<locale>.md`): a template per code, checked (see
/// `specmint_runtime::messages` for the template syntax).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Messages {
    /// The BCP 47 tag, as the file name spells it (`zh-TW`).
    pub tag: String,
    /// The file as displayed (`spec/orders.zh-TW.md`).
    pub path: String,
    /// (code, template), in table order.
    pub templates: Vec<(String, String)>,
}

/// How the document is found in the input text (sidecar `[spec] extract`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Extract {
    /// The whole text is the JSON document.
    #[default]
    Whole,
    /// The whole text first; when it is not JSON, the text from the first `{` to the last `}`.
    OutermostObject,
}

/// A states table with its transitions.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Machine {
    /// Table name of the states table (`package_state`).
    pub name: String,
    /// Rust type name of the states enum.
    pub rust_name: String,
    /// The heading above the states table.
    pub doc: String,
    /// Rows of the states table.
    pub states: Vec<State>,
    /// Legal moves, in table order (a row with several states expands in cell order).
    pub transitions: Vec<Transition>,
    /// Table name of the enum whose values label the moves (sidecar `[machines.<name>] on`).
    pub on: Option<String>,
}

/// One row of a states table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct State {
    /// The state as spelled.
    pub value: String,
    /// Rust variant.
    pub variant: String,
    /// Whether no move leaves it.
    pub terminal: bool,
    /// Meaning cell.
    pub doc: String,
}

/// One legal move.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Transition {
    /// Index into [`Machine::states`].
    pub from: usize,
    /// Index into [`Machine::states`].
    pub to: usize,
    /// The event (a value of the `on` enum, as spelled), when the table has an On column.
    pub on: Option<String>,
}

impl Spec {
    /// The type definition named `name` (a table name).
    pub fn type_def(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name() == name)
    }

    /// The spellings of the values of [`Base::Enum`] `name`: an enum table's values, or a
    /// states table's states (a field typed by a states table holds one of its states).
    pub fn enum_spellings(&self, name: &str) -> Vec<&str> {
        match self.type_def(name) {
            Some(TypeDef::Enum(e)) => e.values.iter().map(|v| v.value.as_str()).collect(),
            _ => self
                .machines
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.states.iter().map(|s| s.value.as_str()).collect())
                .unwrap_or_default(),
        }
    }

    /// Whether values of enum (or states) table `name` are compared as text: some list of
    /// them must hold unique items (`[[unique]]`), so its Rust enum implements the runtime's
    /// `TextField` (its spelling).
    pub fn enum_compared_as_text(&self, name: &str) -> bool {
        self.types.iter().any(|t| match t {
            TypeDef::Object(o) => o.fields.iter().any(|f| {
                f.ty.array && f.rules.unique.is_some() && f.ty.base == Base::Enum(name.to_owned())
            }),
            _ => false,
        })
    }

    /// Whether enum (or states) table `name` types a member of a compound unique key
    /// ([`UniqueBy::compound`]), so its Rust enum implements the runtime's `KeyMember`.
    pub fn enum_is_key_member(&self, name: &str) -> bool {
        self.key_member_fields()
            .any(|f| f.ty.base == Base::Enum(name.to_owned()))
    }

    /// The item fields that compound unique keys read.
    pub fn key_member_fields(&self) -> impl Iterator<Item = &Field> {
        self.types
            .iter()
            .filter_map(|t| match t {
                TypeDef::Object(o) => Some(o),
                _ => None,
            })
            .flat_map(|o| &o.fields)
            .flat_map(move |f| {
                let elem = match &f.ty.base {
                    Base::Object(n) => match self.type_def(n) {
                        Some(TypeDef::Object(e)) => Some(e),
                        _ => None,
                    },
                    _ => None,
                };
                f.rules
                    .unique_by
                    .iter()
                    .filter(|u| u.compound)
                    .flat_map(move |u| &u.keys)
                    .filter_map(move |k| elem?.fields.iter().find(|m| m.key == k.key))
            })
    }

    /// The Rust type name of table `name`: a field, enum or union table, or a states table.
    pub fn rust_name_of(&self, name: &str) -> Option<&str> {
        self.type_def(name).map(TypeDef::rust_name).or_else(|| {
            self.machines
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.rust_name.as_str())
        })
    }

    /// The error codes every producer of which the schema itself states (structure, types,
    /// `maxLength`, `maxItems`, non-blank `pattern`, `additionalProperties: false` for
    /// forbidden keys), sorted: a document refused only with these codes is refused by any
    /// 2020-12 validator too. A code that any cross-field or `x-` rule also produces is left
    /// out.
    pub fn expressible_codes(&self) -> Vec<&str> {
        let x_only = |code: &str| {
            self.rules.iter().any(|r| r.code == code)
                || self
                    .errors
                    .rule_codes
                    .iter()
                    .any(|(kind, c)| c == code && X_ONLY_RULE_KINDS.contains(&kind.as_str()))
        };
        let mut codes: Vec<&str> = self
            .errors
            .codes
            .iter()
            .map(|c| c.code.as_str())
            .filter(|c| !x_only(c))
            .collect();
        codes.sort_unstable();
        codes
    }

    /// Whether a document can hold members no table lists: an open object or an `any`
    /// field anywhere in the spec.
    pub fn has_free_members(&self) -> bool {
        self.types.iter().any(|t| match t {
            TypeDef::Object(o) => o.open || o.fields.iter().any(|f| f.ty.base == Base::Any),
            TypeDef::Union(u) => u
                .variants
                .iter()
                .any(|v| v.members.iter().any(|m| m.ty.base == Base::Any)),
            TypeDef::Enum(_) => false,
        })
    }

    /// Whether some object of the spec has a row of a rules table
    /// ([`GuardedRule::Expression`]).
    pub fn has_rules_tables(&self) -> bool {
        self.types.iter().any(|t| match t {
            TypeDef::Object(o) => o
                .guarded
                .iter()
                .any(|g| matches!(g.rule, GuardedRule::Expression { .. })),
            _ => false,
        })
    }

    /// Whether some field of the spec is a `decimal` (read from its number's text).
    pub fn has_decimals(&self) -> bool {
        self.types.iter().any(|t| match t {
            TypeDef::Object(o) => o
                .fields
                .iter()
                .any(|f| matches!(f.ty.base, Base::Decimal { .. })),
            _ => false,
        })
    }

    /// The root object.
    pub fn root_object(&self) -> &Object {
        match self.type_def(&self.root) {
            Some(TypeDef::Object(o)) => o,
            _ => unreachable!("checked: the root is a field table"),
        }
    }
}

/// A named type: one field, enum or union table.
#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // built once per spec; unboxed keeps matching simple
#[non_exhaustive]
pub enum TypeDef {
    /// A field table: a JSON object.
    Object(Object),
    /// An enum table: a closed set of strings.
    Enum(Enum),
    /// A union table: a tagged object.
    Union(Union),
}

impl TypeDef {
    /// The table name.
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Object(o) => &o.name,
            TypeDef::Enum(e) => &e.name,
            TypeDef::Union(u) => &u.name,
        }
    }

    /// The Rust type name.
    pub fn rust_name(&self) -> &str {
        match self {
            TypeDef::Object(o) => &o.rust_name,
            TypeDef::Enum(e) => &e.rust_name,
            TypeDef::Union(u) => &u.rust_name,
        }
    }
}

/// A field table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Object {
    /// Table name (`line_item`).
    pub name: String,
    /// Rust type name (`LineItem`).
    pub rust_name: String,
    /// The heading above the table, as Markdown.
    pub doc: String,
    /// Rows, in table order.
    pub fields: Vec<Field>,
    /// `a` ≠ `b` rules on this object's fields.
    pub not_equal: Vec<NotEqual>,
    /// `a` before `b` rules on this object's fields.
    pub order: Vec<Order>,
    /// Compact-JSON byte cap on the whole object (the root's document cap).
    pub max_json_bytes: Option<CapUse>,
    /// A list field must not contain a text field's value.
    pub not_contains: Vec<NotContains>,
    /// The object's content must match its declared digest.
    pub digest: Vec<Digest>,
    /// Members whose shape an enum field of this object chooses (`object by `field``).
    pub selector: Option<Selector>,
    /// Whether the object can be read from an absent key as `{}`: every member optional in
    /// Rust and at least one with a coded `required`, or the table of an optional (`—`)
    /// field without `?` (every member plain optional). Such objects implement `Default`.
    pub defaultable: bool,
    /// Whether the table was synthesized (an empty object for a selector case without a table).
    pub synthesized: bool,
    /// Whether the object is open (`[open] objects`): members its table does not list are
    /// kept verbatim, in order, in [`OPEN_MEMBERS_FIELD`], instead of being refused.
    pub open: bool,
    /// The sidecar's rules on this object that may hold under a condition
    /// (`[[required_if]]`, `[[any_of]]`, `[[one_of]]`, `[[value_if]]`), in sidecar order.
    pub guarded: Vec<Guarded>,
    /// The table this one copies and the path of its first use, when it was made for a use
    /// of a shared table whose path-specific codes or caps differ from its other uses' (its
    /// name is that use's path: `buyer_address` for `("address", "buyer.address")`); `None`
    /// for a table of the Markdown.
    pub copy_of: Option<(String, String)>,
}

/// A sidecar rule on an object, checked while its condition holds (always, without one):
/// after the field rules, in sidecar order, by the struct's own check.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Guarded {
    /// What must be true.
    pub rule: GuardedRule,
    /// When (`if = "..."` / `unless = "..."`, read from the object); `None`: always.
    pub condition: Option<Condition>,
    /// The error code.
    pub code: String,
}

/// What a [`Guarded`] rule requires.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum GuardedRule {
    /// `[[required_if]]`: the field at a path from the object (through member tables, no
    /// list) is given, as a coded requirement says.
    Required {
        /// The path as written (`seller.vat_id`).
        path: String,
        /// Its members.
        steps: Vec<ConditionStep>,
    },
    /// `[[any_of]]`: at least one of the members is given.
    AnyOf(Vec<Member>),
    /// `[[one_of]]`: exactly one of the members is given.
    OneOf(Vec<Member>),
    /// `[[value_if]]` with `must = "> 0"` (and `>=`, `<`, `<=`, `=`): a present number
    /// compares so with the bound.
    Compare {
        /// The number field.
        field: Member,
        /// The comparison.
        op: CompareOp,
        /// The bound as written (`0`, `-1.5`), a JSON number.
        bound: serde_json::Number,
    },
    /// `[[value_if]]` with `must = "absent"`: the `T?` field is absent or `null`.
    Absent(Member),
    /// A row of a rules table: an expression of `specmint_runtime::expr` that holds.
    Expression {
        /// The expression's canonical text (`total = sum(lines[].net)`), which the runtime
        /// parses back to `expr`.
        text: String,
        /// The expression.
        expr: specmint_runtime::expr::Expr,
    },
}

/// A comparison of a [`GuardedRule::Compare`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CompareOp {
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `=`.
    Eq,
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
}

impl CompareOp {
    /// As written: `>=`.
    pub fn as_str(self) -> &'static str {
        match self {
            CompareOp::Lt => "<",
            CompareOp::Le => "<=",
            CompareOp::Eq => "=",
            CompareOp::Ge => ">=",
            CompareOp::Gt => ">",
        }
    }
}

impl Guarded {
    /// The sidecar table that states it (`required_if`, `any_of`, `one_of`, `value_if`).
    pub fn kind(&self) -> &'static str {
        self.rule_kind().as_str()
    }

    /// Its [`RuleKind`].
    pub fn rule_kind(&self) -> RuleKind {
        match self.rule {
            GuardedRule::Required { .. } => RuleKind::RequiredIf,
            GuardedRule::AnyOf(_) => RuleKind::AnyOf,
            GuardedRule::OneOf(_) => RuleKind::OneOf,
            GuardedRule::Compare { .. } | GuardedRule::Absent(_) => RuleKind::ValueIf,
            GuardedRule::Expression { .. } => RuleKind::Expression,
        }
    }

    /// What it requires, in words: `` `seller.vat_id` given ``, `` `a` or `b` given ``,
    /// `` exactly one of `a` or `b` ``, `` `rate` > 0 ``, `` `rate` absent ``.
    pub fn what(&self) -> String {
        let names = |ms: &[Member]| list_with_or(ms.iter().map(|m| format!("`{}`", m.key)));
        match &self.rule {
            GuardedRule::Required { path, .. } => format!("`{path}` given"),
            GuardedRule::AnyOf(ms) => format!("{} given", names(ms)),
            GuardedRule::OneOf(ms) => format!("exactly one of {}", names(ms)),
            GuardedRule::Compare { field, op, bound } => {
                format!("`{}` {} {bound}", field.key, op.as_str())
            }
            GuardedRule::Absent(field) => format!("`{}` absent", field.key),
            GuardedRule::Expression { text, .. } => format!("`{text}`"),
        }
    }

    /// What the condition says in a message: ` when `category` is `E`` (empty without one;
    /// `unless` reads `is not`).
    pub fn when(&self) -> String {
        self.condition
            .as_ref()
            .map_or_else(String::new, |c| format!(" when {}", c.describe()))
    }
}

impl Object {
    /// Whether the conditional requirement of `f` is checked by the struct's own check,
    /// after every field rule, rather than by the derive's `required_if` on the field: every
    /// condition but the plain `` `field` is `value` `` on a sibling that is always present
    /// in Rust (an `Option` sibling, a path, a set of values, `unless`, `any` and `every`
    /// need code of their own). The interpreter checks them in the same order.
    pub fn condition_in_struct_check(&self, f: &Field) -> bool {
        let Some(ri) = &f.rules.required_if else {
            return false;
        };
        // The fields a selector chooses live in its body enum, not on the struct.
        let chosen = |key: &str| {
            self.selector
                .as_ref()
                .is_some_and(|s| s.by.key == key || s.members.iter().any(|m| m == key))
        };
        if chosen(&f.key) {
            return false;
        }
        let Some((sibling, _, _)) = ri.condition.sibling_value() else {
            return true;
        };
        if chosen(&sibling.key) {
            return false;
        }
        self.fields
            .iter()
            .find(|s| s.key == sibling.key)
            .is_some_and(|s| s.read_optional() || s.ty.nullable || s.is_optional_any())
    }
}

/// The Rust field of an open object that carries the members its table does not list.
pub const OPEN_MEMBERS_FIELD: &str = "unlisted_members";

/// `object by `field``: the members chosen by an enum field of the same object.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Selector {
    /// The choosing enum field.
    pub by: Member,
    /// Table name of its enum.
    pub enum_name: String,
    /// Rust name of its enum.
    pub enum_rust: String,
    /// Rust name of the generated body enum (`<Enum>Body`).
    pub body_rust: String,
    /// JSON keys of the chosen members, in table order.
    pub members: Vec<String>,
    /// One case per enum value, in enum order.
    pub cases: Vec<SelectorCase>,
}

/// One enum value of a selector and the object table of each chosen member.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SelectorCase {
    /// JSON spelling of the enum value.
    pub value: String,
    /// Rust variant.
    pub variant: String,
    /// For each member (in [`Selector::members`] order), the table name of its shape.
    pub tables: Vec<String>,
}

/// A name as the JSON spells it and its Rust name: a member's key and Rust field, or an
/// enum value and its variant.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Member {
    /// As spelled in JSON.
    pub key: String,
    /// The Rust identifier (field or variant, without `r#`).
    pub rust: String,
}

/// A list must not contain the value of another field of the same object.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NotContains {
    /// The list field.
    pub list: Member,
    /// The value field.
    pub value: Member,
    /// The error code.
    pub code: String,
}

/// Declared digest (and length) of content held in the object.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Digest {
    /// The hex SHA-256 member.
    pub sha256: Member,
    /// The content member.
    pub data: Member,
    /// The encoding member (`utf8` / `base64`).
    pub encoding: Member,
    /// The byte-count member.
    pub length: Option<Member>,
    /// The member naming the content in messages.
    pub label: Option<Member>,
    /// The error code.
    pub code: String,
}

/// One row of a field table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Field {
    /// The JSON key.
    pub key: String,
    /// The Rust field name (snake_case of the key; no `r#`).
    pub rust_name: String,
    /// The parsed Type cell.
    pub ty: TypeRef,
    /// Whether the key must be present.
    pub required: bool,
    /// The value an absent optional key means.
    pub default: Option<DefaultValue>,
    /// The Meaning cell, as Markdown.
    pub doc: String,
    /// Field rules.
    pub rules: FieldRules,
    /// An absent key reads as the empty object (`{}`): a plain `✔` field whose table is
    /// [`Object::defaultable`] (always written), or an optional (`—`) field typed as a field
    /// table without `?` (left out when written while it holds that default).
    pub absent_is_empty: bool,
    /// Written even while it holds its default (the sidecar's `[canonical] always_written`):
    /// an absent key is written as that default.
    pub always_written: bool,
}

impl Field {
    /// The field's JSON key and Rust name.
    pub fn member(&self) -> Member {
        Member {
            key: self.key.clone(),
            rust: self.rust_name.clone(),
        }
    }

    /// Whether the Rust field is `Option<T>` although the type has no `?` (a coded or
    /// conditional requirement: presence is checked by a rule, not by the parser).
    pub fn read_optional(&self) -> bool {
        self.rules.required.is_some() || self.rules.required_if.is_some()
    }

    /// An optional (`—`) single `any`: absent stays absent, and a present `null` is a value.
    pub fn is_optional_any(&self) -> bool {
        self.ty.base == Base::Any && !self.ty.array && !self.required
    }

    /// Whether an absent key is written anyway: an always-written field (as its default), or
    /// a required object read as `{}`.
    pub fn written_when_absent(&self) -> bool {
        self.always_written || (self.absent_is_empty && self.required)
    }

    /// The JSON value an absent key means: the stated default, `null` (`T?`), `{}` (an
    /// object read as `{}`) or `[]` (arrays); `None` for a key that must be present, and for
    /// an optional `any` (absent is not a value: it stays absent).
    pub fn default_json(&self) -> Option<serde_json::Value> {
        use serde_json::{json, Value};
        Some(match &self.default {
            Some(DefaultValue::Bool(b)) => json!(b),
            Some(DefaultValue::UInt(n)) => json!(n),
            Some(DefaultValue::Int(n)) => json!(n),
            Some(DefaultValue::Number(n)) => json!(n),
            Some(DefaultValue::String(s)) => json!(s),
            Some(DefaultValue::Enum { value, .. }) => json!(value),
            None if self.absent_is_empty => json!({}),
            None if self.required && !self.read_optional() => return None,
            None if self.is_optional_any() => return None,
            None if self.ty.nullable || self.read_optional() => Value::Null,
            None => json!([]),
        })
    }
}

/// Rules on one field. String rules apply to each element when the field is an array.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct FieldRules {
    /// Not blank, with its code.
    pub non_blank: Option<String>,
    /// Char cap.
    pub max_chars: Option<CapUse>,
    /// Item cap.
    pub max_items: Option<CapUse>,
    /// Minimum length in chars (a cap row `at least N chars`).
    pub min_chars: Option<CapUse>,
    /// Minimum item count (a cap row `at least N items`).
    pub min_items: Option<CapUse>,
    /// Per-group item caps.
    pub max_items_per_group: Vec<GroupCap>,
    /// Unique keys among the items.
    pub unique_by: Vec<UniqueBy>,
    /// Contradictory pairs among the items.
    pub contradiction: Vec<Contradiction>,
    /// Must equal the literal of the Type cell, with its code.
    pub equals: Option<String>,
    /// Must match the Type cell's regex, with its code.
    pub pattern: Option<String>,
    /// Must be a relative path without `..`, with its code.
    pub relative_path: Option<String>,
    /// Must lie within the Type cell's integer bounds, with its code.
    pub range: Option<String>,
    /// A decimal's scale (and precision), with its code.
    pub scale: Option<String>,
    /// Must be in the Type cell's format, with its code.
    pub format: Option<String>,
    /// Must be present and not blank/empty (`✔ `code``), with its code.
    pub required: Option<String>,
    /// Required while a condition holds.
    pub required_if: Option<RequiredIf>,
    /// The items (text) are unique.
    pub unique: Option<UniqueItems>,
    /// The code of a value outside the field's enum (`[errors.rules]` `enum`): the member
    /// is then read as absent by every other rule. `None`: the parse code.
    pub enum_code: Option<String>,
}

/// A conditional requirement (`if `field` is `value``, `unless ...`, `if any ...`): the
/// field must be given (as [`FieldRules::required`] says) while its [`Condition`] holds.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RequiredIf {
    /// When the field is required.
    pub condition: Condition,
    /// The error code.
    pub code: String,
}

/// A condition on the values of an object: `` `category` is `E` ``,
/// `` `category` is `E`, `AE` or `K` ``, `` unless `category` is `O` ``,
/// `` any `lines[].category` is `S` or `AE` ``, `` every `tags[]` is `draft` ``.
///
/// Its [`path`](Self::path) is read from the object the rule sits on (the table whose row
/// states it). The value read is a plain or `?` enum, a `bool` or text field (or the items of
/// a list of them). An absent or `null` value is none of the values.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Condition {
    /// How the values reached through lists count.
    pub quantifier: Quantifier,
    /// The path read, relative to the object the rule sits on (`category`,
    /// `lines[].category`, `delivery.country`), as written.
    pub path: String,
    /// Each member of the path, in order.
    pub steps: Vec<ConditionStep>,
    /// `unless` (or `is not`): the condition holds when the values are *not* matched.
    pub negated: bool,
    /// The values compared with (as spelled and their Rust variant; the variant is empty
    /// for a `bool` or text value), in the order written.
    pub values: Vec<Member>,
    /// The values as JSON (`"E"`, `true`), in the order written.
    pub when: Vec<serde_json::Value>,
    /// Rust name of the enum read; empty for a `bool` or text value.
    pub enum_rust: String,
}

/// One member on a [`Condition`]'s path.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConditionStep {
    /// The member's key and Rust name.
    pub member: Member,
    /// The table holding the member.
    pub table: String,
    /// Whether the path steps into its items (`lines[]`).
    pub items: bool,
}

/// How a [`Condition`]'s values reached through lists count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Quantifier {
    /// No list on the path: the one value.
    One,
    /// `any`: at least one value reached matches.
    Any,
    /// `every`: at least one value is reached and every value reached matches (a value
    /// that is absent does not match).
    Every,
}

impl Condition {
    /// The condition as written, normalized: `` `category` is `E` or `AE` ``,
    /// `` any `lines[].category` is `S` ``; with `not` for a negated one
    /// (`` `category` is not `O` ``).
    pub fn describe(&self) -> String {
        let quantifier = match self.quantifier {
            Quantifier::One => "",
            Quantifier::Any => "any ",
            Quantifier::Every => "every ",
        };
        let not = if self.negated { "not " } else { "" };
        let values = list_with_or(self.values.iter().map(|v| format!("`{}`", v.key)));
        format!("{quantifier}`{}` is {not}{values}", self.path)
    }

    /// Whether this is the plain form `` `field` is `value` ``: one sibling, one value,
    /// not negated. Returns the sibling and the value.
    pub fn sibling_value(&self) -> Option<(&Member, &Member, &serde_json::Value)> {
        match (
            self.quantifier,
            self.negated,
            self.steps.as_slice(),
            self.values.as_slice(),
            self.when.as_slice(),
        ) {
            (Quantifier::One, false, [step], [value], [when]) if !step.items => {
                Some((&step.member, value, when))
            }
            _ => None,
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
pub(crate) fn list_with_or(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// No two items of a list of text are equal.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct UniqueItems {
    /// Compare ignoring case.
    pub ignore_case: bool,
    /// Compare trimmed.
    pub trim: bool,
    /// The error code.
    pub code: String,
}

/// A cap as used by a rule.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CapUse {
    /// The Rust constant.
    pub constant: String,
    /// The number.
    pub value: u64,
    /// The error code.
    pub code: String,
}

/// At most `cap` items share one value of `by`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GroupCap {
    /// The grouping member.
    pub by: Member,
    /// The cap.
    pub cap: CapUse,
}

/// No two items share a key: one text member (`key = "id"`), or a compound key whose
/// members are all equal (`key = ["category", "rate"]`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct UniqueBy {
    /// The key member (the first of [`UniqueBy::keys`]).
    pub key: Member,
    /// Every key member, in the order written (one for `key = "id"`).
    pub keys: Vec<Member>,
    /// The compound form: several members, or one member that is not text. Items are then
    /// compared whole (text members under the folds, enum values as spelled, numbers as
    /// `f64`), an item with an absent member compared with none, and a duplicate reported at
    /// the item (`list[j]`) rather than at its key (`list[j].id`).
    pub compound: bool,
    /// Compare ignoring case.
    pub ignore_case: bool,
    /// Compare trimmed.
    pub trim: bool,
    /// The error code.
    pub code: String,
}

/// A value under both sides of a pair is refused.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Contradiction {
    /// The enum member.
    pub by: Member,
    /// The value member.
    pub value: Member,
    /// Rust name of the enum of `by`.
    pub enum_rust: String,
    /// The pairs.
    pub pairs: Vec<Pair>,
    /// The error code.
    pub code: String,
}

/// One contradictory pair of enum values.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Pair {
    /// One side (JSON spelling and Rust variant).
    pub a: Member,
    /// The other side.
    pub b: Member,
    /// Values compare ignoring case.
    pub ignore_case: bool,
}

/// Two fields of one object must differ.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct NotEqual {
    /// The first field.
    pub a: Member,
    /// The second field.
    pub b: Member,
    /// The error code.
    pub code: String,
}

/// One field of an object comes before another: `a < b` (`strict`) or `a <= b`. Both are
/// integers, both numbers, both dates or both date-times (compared as instants); the rule
/// holds when either is absent.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Order {
    /// The field that comes first.
    pub a: Member,
    /// The field that comes after; violations are reported at its path.
    pub b: Member,
    /// `a < b`; otherwise `a <= b`.
    pub strict: bool,
    /// The error code.
    pub code: String,
}

/// A parsed Type cell.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeRef {
    /// The element type.
    pub base: Base,
    /// `[]`.
    pub array: bool,
    /// `?`.
    pub nullable: bool,
    /// `non-blank`.
    pub non_blank: bool,
    /// A quoted literal (`"0.1"`): the string must equal it.
    pub literal: Option<String>,
    /// `string matching `REGEX``: the string must match it.
    pub pattern: Option<String>,
    /// `relative-path`: a relative path without `..`.
    pub relative_path: bool,
    /// `int32 1..=10`: inclusive bounds on an integer (each element of an array).
    pub range: Option<IntRange>,
    /// `number -90..=90`, `number 0..=359.5`: inclusive decimal bounds on a `number` (each
    /// element of an array).
    pub number_range: Option<NumberRange>,
    /// `date-time`, `date`, `uri`, `email`: a string in that format.
    pub format: Option<Format>,
    /// `decimal(2) 0..=999.99`, `decimal(2) 0<..<100`: exact bounds on a decimal (each
    /// element of an array), either end maybe excluded.
    pub decimal_range: Option<DecimalRange>,
}

pub use specmint_runtime::decimal::Decimal;

/// Exact bounds on a `decimal` (`0..=999.99`, `0<..`, `..<100`, `0<..<1`): at least one is
/// given, `min <= max` (`min < max` when either is excluded).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecimalRange {
    /// The least value, unless open.
    pub min: Option<DecimalBound>,
    /// The greatest value, unless open.
    pub max: Option<DecimalBound>,
}

/// One end of a [`DecimalRange`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecimalBound {
    /// The bound (`-0` read as `0`).
    pub value: Decimal,
    /// The bound itself is not allowed (`0<..`, `..<100`).
    pub excluded: bool,
}

/// One unit of a decimal's last fraction digit: `0.01` for scale 2.
pub(crate) fn decimal_unit(scale: u32) -> Decimal {
    Decimal::from(rust_decimal::Decimal::new(1, scale))
}

/// `a + b` (`None` past what a decimal holds).
pub(crate) fn decimal_add(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.to_rust_decimal()
        .checked_add(b.to_rust_decimal())
        .map(Decimal::from)
}

/// `a − b` (`None` past what a decimal holds).
pub(crate) fn decimal_sub(a: Decimal, b: Decimal) -> Option<Decimal> {
    a.to_rust_decimal()
        .checked_sub(b.to_rust_decimal())
        .map(Decimal::from)
}

impl Field {
    /// What decimal `d` at `at` in this field is reported with (the corpus's expectation):
    /// its scale's code, then its range's, each where `d` breaks that rule.
    pub(crate) fn decimal_errors(&self, d: Decimal, at: &str) -> Vec<(String, String)> {
        let (scale, range) = decimal_breaks(&self.ty, d);
        let mut errors = Vec::new();
        if let (Some(code), true) = (&self.rules.scale, scale) {
            errors.push((code.clone(), at.to_owned()));
        }
        if let (Some(code), true) = (&self.rules.range, range) {
            errors.push((code.clone(), at.to_owned()));
        }
        errors
    }
}

/// The violations a decimal type finds in `d`: its scale (and precision), its bounds.
pub(crate) fn decimal_breaks(ty: &TypeRef, d: Decimal) -> (bool, bool) {
    let Base::Decimal { scale, precision } = ty.base else {
        return (false, false);
    };
    let scale_broken =
        d.fraction_digits() > scale || precision.is_some_and(|p| d.integer_digits() > p - scale);
    let range_broken = ty.decimal_range.as_ref().is_some_and(|r| !r.contains(d));
    (scale_broken, range_broken)
}

/// A value of decimal type `ty` that breaks none of its rules, near `i` when it can be.
pub(crate) fn decimal_sample(ty: &TypeRef, i: usize) -> Decimal {
    let Base::Decimal { scale, .. } = ty.base else {
        return Decimal::ZERO;
    };
    let unit = decimal_unit(scale);
    let mut candidates = vec![
        Decimal::from(rust_decimal::Decimal::from(i as u64)),
        Decimal::ZERO,
    ];
    if let Some(r) = &ty.decimal_range {
        for (b, step) in [(r.min, decimal_add as fn(_, _) -> _), (r.max, decimal_sub)] {
            if let Some(b) = b {
                candidates.push(b.value);
                candidates.extend(step(b.value, unit));
            }
        }
    }
    candidates
        .into_iter()
        .find(|d| decimal_breaks(ty, *d) == (false, false))
        .unwrap_or(Decimal::ZERO)
}

/// A decimal as a JSON value: exact while its text survives a double (every value the
/// corpus and the diff synthesize does), else the nearest double.
pub(crate) fn decimal_json(d: Decimal) -> serde_json::Value {
    serde_json::from_str(&d.to_string()).unwrap_or(serde_json::Value::Null)
}

impl DecimalRange {
    /// Whether `d` is within the bounds.
    pub fn contains(&self, d: Decimal) -> bool {
        self.min.is_none_or(|b| {
            if b.excluded {
                d > b.value
            } else {
                d >= b.value
            }
        }) && self.max.is_none_or(|b| {
            if b.excluded {
                d < b.value
            } else {
                d <= b.value
            }
        })
    }

    /// The range as the Type cell writes it (`0<..=999.99`).
    pub fn word(&self) -> String {
        let lo = self.min.map_or(String::new(), |b| {
            format!("{}{}", b.value, if b.excluded { "<" } else { "" })
        });
        let hi = self.max.map_or(String::new(), |b| {
            format!("{}{}", if b.excluded { "<" } else { "=" }, b.value)
        });
        format!("{lo}..{hi}")
    }
}

pub use specmint_runtime::rules::Format;

/// Inclusive bounds on an integer (`1..=10`, `0..`, `..=100`): at least one is given, both
/// within the type's width, `min <= max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct IntRange {
    /// The least value allowed.
    pub min: Option<i128>,
    /// The greatest value allowed.
    pub max: Option<i128>,
}

impl IntRange {
    /// Whether `n` is within the bounds.
    pub fn contains(&self, n: i128) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

/// Inclusive decimal bounds on a `number` (`0..=359.5`, `-90..`, `..=1e3`): at least one is
/// given, both finite (`-0` read as `0`), `min <= max`. Written as an integer range is
/// (`A..=B`, `A..`, `..=B`; `A..B` is refused).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct NumberRange {
    /// The least value allowed.
    pub min: Option<f64>,
    /// The greatest value allowed.
    pub max: Option<f64>,
}

// The bounds are finite, so `==` is an equivalence.
impl Eq for NumberRange {}

impl NumberRange {
    /// Whether `n` is within the bounds (as IEEE 754 compares: `-0.0` is within `0..`).
    pub fn contains(&self, n: f64) -> bool {
        self.min.is_none_or(|m| n >= m) && self.max.is_none_or(|m| n <= m)
    }
}

/// A base type.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Base {
    /// `string`.
    String,
    /// `bool`.
    Bool,
    /// `uint32`.
    U32,
    /// `uint64`.
    U64,
    /// `int32`.
    I32,
    /// `int64`.
    I64,
    /// `number` (f64).
    Number,
    /// `decimal(S)` / `decimal(P, S)`: an exact decimal read from the number's text, at most
    /// `scale` fraction digits and, with a precision, at most `precision − scale` integer
    /// digits.
    Decimal {
        /// The most fraction digits (0..=28).
        scale: u32,
        /// The most digits in all (`scale..=28`, at least 1), when stated.
        precision: Option<u32>,
    },
    /// A field table (by table name).
    Object(String),
    /// An enum table.
    Enum(String),
    /// A union table.
    Union(String),
    /// `object by `field``: an object whose members the sibling enum field (JSON key here)
    /// chooses; see [`Object::selector`].
    Selected(String),
    /// `any`: any JSON value, kept verbatim (objects in document order).
    Any,
}

impl Base {
    /// The least and greatest value of an integer type (`uint32`, `uint64`, `int32`,
    /// `int64`); `None` for every other type.
    pub fn integer_width(&self) -> Option<(i128, i128)> {
        Some(match self {
            Base::U32 => (0, u32::MAX.into()),
            Base::U64 => (0, u64::MAX.into()),
            Base::I32 => (i32::MIN.into(), i32::MAX.into()),
            Base::I64 => (i64::MIN.into(), i64::MAX.into()),
            _ => return None,
        })
    }
}

/// A stated default.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DefaultValue {
    /// A boolean.
    Bool(bool),
    /// An unsigned integer.
    UInt(u64),
    /// A signed integer.
    Int(i64),
    /// A number.
    Number(f64),
    /// A string.
    String(String),
    /// An enum value: JSON spelling and Rust variant.
    Enum {
        /// JSON spelling.
        value: String,
        /// Rust variant.
        variant: String,
    },
}

/// An enum table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Enum {
    /// Table name.
    pub name: String,
    /// Rust type name.
    pub rust_name: String,
    /// The heading above the table.
    pub doc: String,
    /// Rows.
    pub values: Vec<EnumValue>,
}

/// One row of an enum table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EnumValue {
    /// JSON spelling.
    pub value: String,
    /// Rust variant.
    pub variant: String,
    /// Meaning cell.
    pub doc: String,
}

/// A union table: a tagged object.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Union {
    /// Table name.
    pub name: String,
    /// Rust type name.
    pub rust_name: String,
    /// The heading above the table.
    pub doc: String,
    /// The tag key (`kind`).
    pub tag: String,
    /// Whether a bare tag value is accepted for all-optional variants.
    pub short_form: bool,
    /// Rows.
    pub variants: Vec<Variant>,
}

/// One row of a union table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Variant {
    /// The tag value.
    pub tag_value: String,
    /// Rust variant.
    pub rust_name: String,
    /// Meaning cell.
    pub doc: String,
    /// Extra members.
    pub members: Vec<Field>,
}

impl Union {
    /// What its reader says it expects (serde's `expecting`), and the refusal of a bare
    /// token that names no all-optional variant, `{}` standing for the token. Only the tags of
    /// all-optional variants are offered as bare tokens: a tag whose variant has a required
    /// member is refused too, told to write the tagged object rather than called unknown.
    pub(crate) fn reader_texts(&self) -> (String, String) {
        let bare: Vec<String> = self
            .variants
            .iter()
            .filter(|v| v.all_optional())
            .map(|v| format!("`{}`", v.tag_value))
            .collect();
        let bare = bare.join(", ");
        let expecting = if self.short_form {
            format!("a tagged `{}` object or one of {bare}", self.name)
        } else {
            format!("a `{}` object tagged by `{}`", self.name, self.tag)
        };
        let unknown = if self.variants.iter().all(Variant::all_optional) {
            format!("unknown {} `{{}}`, expected one of {bare}", self.name)
        } else {
            format!(
                "`{{}}` is not a {} that can be written bare, expected one of {bare} (the other kinds are written as a tagged `{}` object)",
                self.name, self.name
            )
        };
        (expecting, unknown)
    }
}

impl Variant {
    /// Whether the bare tag can stand for this variant (every member optional).
    pub fn all_optional(&self) -> bool {
        self.members.iter().all(|m| m.ty.nullable)
    }
}

/// Unit of a cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unit {
    /// Unicode scalar values.
    Chars,
    /// Compact JSON bytes.
    Bytes,
    /// Array items.
    Items,
}

/// One text row: an exact string the spec names, emitted as a `&str` constant.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct TextConstant {
    /// The Rust constant.
    pub constant: String,
    /// The exact text (the Value cell's code span).
    pub value: String,
    /// The Meaning cell, as plain text.
    pub meaning: String,
}

/// One cap row.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Cap {
    /// The Cap cell, as Markdown.
    pub label: String,
    /// The Value cell.
    pub value_text: String,
    /// The number.
    pub value: u64,
    /// The unit.
    pub unit: Unit,
    /// Whether the row is a minimum (`at least N chars`) rather than a cap.
    pub at_least: bool,
    /// The Rust constant.
    pub constant: String,
    /// What the row binds to, in words (`items[].name`, `document bytes`).
    pub binding: String,
}

/// The error table and the mapping from rule kinds to codes.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Errors {
    /// Rust name of the error enum.
    pub enum_name: String,
    /// Rows.
    pub codes: Vec<ErrorCode>,
    /// Code for a document that is not JSON or not the shape.
    pub parse: String,
    /// Code for a forbidden key (the parse code when the sidecar names none).
    pub forbidden_key: String,
    /// `[errors]` rule kind → code, as written in the sidecar (sorted by rule kind).
    pub rule_codes: Vec<(String, String)>,
    /// Codes raised by hand-written behaviour (`[errors] engine`), not by a rule.
    pub engine: Vec<String>,
}

/// Rule kinds of the sidecar's `[errors]` whose codes only an `x-` keyword states: a JSON
/// Schema cannot say them.
pub(crate) const X_ONLY_RULE_KINDS: &[&str] = &["max_items_per_group", "max_bytes", "scale"];

/// One row of the error table.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ErrorCode {
    /// The code as spelled.
    pub code: String,
    /// Rust variant.
    pub variant: String,
    /// When cell.
    pub doc: String,
}

/// A cross-field rule, as declared (for reports and schemas).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Rule {
    /// Rule kind.
    pub kind: RuleKind,
    /// Where it applies (spec path; empty for the document).
    pub path: String,
    /// Its code.
    pub code: String,
}

/// The kind of a cross-field rule: the sidecar table or cap rule that declared it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum RuleKind {
    /// `[[unique]]`: unique items, or unique by a key member.
    Unique,
    /// `[[not_equal]]`: two fields of one object differ.
    NotEqual,
    /// `[[order]]`: one field of an object before another.
    Order,
    /// `[[contradiction]]`: contradictory pairs among the items.
    Contradiction,
    /// `[[not_contains]]`: a list does not contain a sibling's value.
    NotContains,
    /// `[[digest]]`: content matches its declared digest.
    Digest,
    /// A cap with `rule = "max_items_per_group"`.
    MaxItemsPerGroup,
    /// A cap with `rule = "document_bytes"`.
    DocumentBytes,
    /// `[[required_if]]` ([`Object::guarded`]).
    RequiredIf,
    /// `[[any_of]]` ([`Object::guarded`]).
    AnyOf,
    /// `[[one_of]]` ([`Object::guarded`]).
    OneOf,
    /// `[[value_if]]` ([`Object::guarded`]).
    ValueIf,
    /// A row of a rules table ([`Object::guarded`]).
    Expression,
}

impl RuleKind {
    /// The kind as the sidecar spells it (`not_equal`).
    pub fn as_str(self) -> &'static str {
        match self {
            RuleKind::Unique => "unique",
            RuleKind::NotEqual => "not_equal",
            RuleKind::Order => "order",
            RuleKind::Contradiction => "contradiction",
            RuleKind::NotContains => "not_contains",
            RuleKind::Digest => "digest",
            RuleKind::MaxItemsPerGroup => "max_items_per_group",
            RuleKind::DocumentBytes => "document_bytes",
            RuleKind::RequiredIf => "required_if",
            RuleKind::AnyOf => "any_of",
            RuleKind::OneOf => "one_of",
            RuleKind::ValueIf => "value_if",
            RuleKind::Expression => "rule",
        }
    }
}

/// A fenced `json` example.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Example {
    /// What the example claims.
    pub kind: ExampleKind,
    /// `const=NAME`, if any.
    pub const_name: Option<String>,
    /// The exact fenced text, without the final newline.
    pub text: String,
    /// Line of the opening fence in the Markdown.
    pub line: usize,
}

/// What an example claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExampleKind {
    /// Must parse and validate.
    Valid,
    /// Must fail with exactly these `(code, path)` violations.
    Invalid(Vec<(String, String)>),
    /// An illustration; not tested.
    Fragment,
}
