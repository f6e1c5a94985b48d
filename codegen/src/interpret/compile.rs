//! The model turned into what the interpreter walks: names owned, each field's rules in
//! the order the Rust emitter writes them (`emit/rust/object.rs`, `field_rules`), what an absent
//! member reads as and when a member is left out when written (serde's attributes there).

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use specmint_runtime::document::{self, DocumentSpec, Keys, ShapeSource};
use specmint_runtime::rules::{Bounds, Fold, Format, NumberBounds, Pair, Pattern};
use specmint_runtime::shape::Shapes;

use super::node::{EnumValue, Node};
use crate::model::Decimal;
use crate::model::{self, Base, DefaultValue, FieldRules, RuleKind, Spec, TypeDef};

/// A name read from the spec (a key, a code, a message's type name), owned by the compiled
/// form and dropped with it: loading a spec keeps nothing for the process.
pub(super) type Name = Arc<str>;

fn owned(s: &str) -> Name {
    Name::from(s)
}

fn owned_list<'a>(names: impl IntoIterator<Item = &'a str>) -> Box<[Name]> {
    names.into_iter().map(owned).collect()
}

#[derive(Debug)]
pub(super) struct Compiled {
    /// One per [`Spec::types`], same index, then one enum per states table (a field typed
    /// by a states table holds one of its states), in [`Spec::machines`] order.
    pub types: Vec<Type>,
    pub root: usize,
    /// What the `DOCUMENT` constant holds ([`Compiled::document`]).
    document: DocumentParts,
}

/// The parts of the `DOCUMENT` constant `emit/rust/document.rs` emits that are not the spec's own
/// names, worked out once; [`Compiled::document`] borrows the rest from the spec.
#[derive(Debug)]
struct DocumentParts {
    shapes: SpecShapes,
    too_large_code: Option<String>,
    extract: document::Extract,
    max_input_bytes: Option<usize>,
    bom_tolerated: bool,
    free_members: bool,
    canonical_growth: Option<usize>,
}

/// The spec a validator was made from: what its `DOCUMENT` borrows (names, codes, forbidden
/// keys), and the source of its shape description, built from it each time a refused
/// document needs it (the generated constant points at its `SHAPES` static instead).
struct SpecShapes(Spec);

impl fmt::Debug for SpecShapes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut written = Ok(());
        self.with_shapes(&mut |shapes| written = fmt::Debug::fmt(shapes, f));
        written
    }
}

impl ShapeSource for SpecShapes {
    fn with_shapes(&self, use_them: &mut dyn FnMut(&Shapes<'_>)) {
        use_them(&crate::emit::rust::shapes(&self.0));
    }
}

#[derive(Debug)]
pub(super) enum Type {
    Object(Object),
    Enum(Enum),
    Union(Union),
}

#[derive(Debug)]
pub(super) struct Enum {
    /// `enum Role` in serde's messages.
    pub expecting: Name,
    pub values: Box<[Name]>,
}

#[derive(Debug)]
pub(super) struct Object {
    /// `struct Packet` in serde's messages.
    pub expecting: Name,
    /// Every key, in table order (serde's `FIELDS`).
    pub keys: Box<[Name]>,
    pub fields: Vec<Field>,
    pub open: bool,
    pub selector: Option<Selector>,
    pub struct_rules: Vec<StructRule>,
}

#[derive(Debug)]
pub(super) struct Selector {
    /// Index of the choosing enum field.
    pub by: usize,
    pub by_enum: usize,
    /// Field indexes of the chosen members, in the selector's member order.
    pub members: Vec<usize>,
    /// Per enum value (by index): the type of each member, in member order.
    pub cases: Vec<Vec<usize>>,
}

#[derive(Debug)]
pub(super) struct Union {
    /// `a tagged `x` object or one of ...` / `a `x` object tagged by `kind``.
    pub expecting: Name,
    /// The short form's refusal, `{}` standing for the value.
    pub unknown: String,
    pub tag: Name,
    pub short_form: bool,
    pub tag_values: Box<[Name]>,
    pub variants: Vec<Variant>,
}

#[derive(Debug)]
pub(super) struct Variant {
    pub all_optional: bool,
    pub keys: Box<[Name]>,
    pub members: Vec<Field>,
}

/// How a member's value is read and what it checks.
#[derive(Debug)]
pub(super) struct Field {
    pub key: Name,
    pub ty: Ty,
    /// The Rust field is an `Option` (read with serde's `Option`: `null` is absent).
    pub option: bool,
    /// An optional `any` read with `json::present`: a present `null` is a value.
    pub present_any: bool,
    /// What an absent key reads as; `None`: refused (`missing field`).
    pub absent: Option<Node>,
    /// When the member is left out when written.
    pub skip: Skip,
    pub rules: Vec<Rule>,
}

#[derive(Clone, Debug)]
pub(super) struct Ty {
    pub base: BaseTy,
    pub array: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum BaseTy {
    String,
    Bool,
    U32,
    U64,
    I32,
    I64,
    Number,
    Decimal,
    Object(usize),
    Enum(usize),
    Union(usize),
    /// A chosen member: read by its owner's selector.
    Selected,
    Any,
}

#[derive(Debug)]
pub(super) enum Skip {
    Never,
    IfAbsent,
    IfEmpty,
    IfEqual(Node),
}

#[derive(Debug)]
pub(super) enum Rule {
    Required(Name),
    /// The sibling's value that makes the field required: an enum value, a `bool` or text.
    RequiredIf {
        sibling: usize,
        sibling_name: Name,
        value: Node,
        code: Name,
    },
    MaxItems(usize, Name),
    MinItems(usize, Name),
    MaxItemsPerGroup {
        by: usize,
        by_name: Name,
        max: usize,
        code: Name,
    },
    Value(Vec<ElementRule>),
    Each(Vec<ElementRule>),
    Nested,
    Unique(Fold, Name),
    UniqueBy {
        key: usize,
        key_name: Name,
        fold: Fold,
        code: Name,
    },
    /// A compound key ([`model::UniqueBy::compound`]): the members and their names.
    UniqueKeys {
        keys: Vec<usize>,
        names: Vec<Name>,
        fold: Fold,
        code: Name,
    },
    Contradiction {
        by: usize,
        value: usize,
        value_name: Name,
        pairs: Vec<Pair<EnumValue>>,
        code: Name,
    },
}

/// A check of one value: the field's own (`Rule::Value`) or each item's (`Rule::Each`), in
/// the order of `field_rules`' `each(..)` list.
#[derive(Debug)]
pub(super) enum ElementRule {
    NonBlank(Name),
    MaxChars(usize, Name),
    MinChars(usize, Name),
    Equals(Name, Name),
    Pattern(Box<Pattern>, Name),
    RelativePath(Name),
    Format(Format, Name),
    Range(Bounds, Name),
    NumberRange(NumberBounds, Name),
    Scale(u32, Option<u32>, Name),
    DecimalRange(model::DecimalRange, Name),
}

#[derive(Debug)]
pub(super) enum StructRule {
    NotEqual {
        a: usize,
        a_name: Name,
        b: usize,
        b_name: Name,
        code: Name,
    },
    Order {
        a: usize,
        a_name: Name,
        b: usize,
        b_name: Name,
        strict: bool,
        code: Name,
    },
    NotContains {
        list: usize,
        list_name: Name,
        value: usize,
        value_name: Name,
        owner: Name,
        code: Name,
    },
    Digest {
        sha256: (usize, Name),
        data: (usize, Name),
        encoding: usize,
        label: Option<usize>,
        length: Option<(usize, Name)>,
        code: Name,
    },
    MaxJsonBytes(usize, Name),
    /// A conditional requirement the generated struct checks in its own function
    /// ([`model::Object::condition_in_struct_check`]): field `field` (JSON key `key`) must
    /// be given while `condition` holds.
    RequiredWhen {
        field: usize,
        key: Name,
        condition: Cond,
        code: Name,
    },
    /// A [`model::Guarded`] rule, checked while `condition` holds (always without one).
    Guarded {
        rule: GuardedRule,
        condition: Option<Cond>,
        code: Name,
    },
}

/// What a [`StructRule::Guarded`] requires, with members as positions.
#[derive(Debug)]
pub(super) enum GuardedRule {
    Required {
        steps: Vec<(usize, bool)>,
        path: Name,
    },
    AnyOf(Vec<(usize, Name)>),
    OneOf(Vec<(usize, Name)>),
    Compare {
        field: (usize, Name),
        op: specmint_runtime::rules::Compare,
        bound: specmint_runtime::rules::Num,
    },
    Absent((usize, Name)),
    /// A rules table's row, computed by the runtime over the object ([`super::node::View`]).
    Expression(specmint_runtime::expr::Expr),
}

/// A [`model::Condition`], with each member of its path as its position in its object.
#[derive(Debug)]
pub(super) struct Cond {
    /// Each member's position and whether the path steps into its items.
    pub steps: Vec<(usize, bool)>,
    pub quantifier: model::Quantifier,
    pub negated: bool,
    /// The values, as the document's values are read.
    pub values: Vec<Node>,
    /// The path as written.
    pub path: Name,
    /// [`model::Condition::describe`].
    pub text: Name,
}

/// Where a field is read: what serde attributes the emitter gives it there.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    /// A derived struct (`emit/rust/object.rs`, `default_args`).
    Struct,
    /// An object with a selector (`emit/rust/selector.rs`, read and written by hand).
    Selector,
    /// A union variant's member (`emit/rust/union.rs`).
    Variant,
}

struct Builder<'s> {
    spec: &'s Spec,
    index: BTreeMap<&'s str, usize>,
    defaults: BTreeMap<usize, Node>,
}

impl Compiled {
    pub fn new(spec: &Spec) -> Compiled {
        let index = spec
            .types
            .iter()
            .map(TypeDef::name)
            .chain(spec.machines.iter().map(|m| m.name.as_str()))
            .enumerate()
            .map(|(i, name)| (name, i))
            .collect();
        let mut b = Builder {
            spec,
            index,
            defaults: BTreeMap::new(),
        };
        for rule in &spec.rules {
            // Where each declared rule kind runs; a kind added to the model is a compile
            // error here until the interpreter runs it too.
            match rule.kind {
                RuleKind::Unique => {}           // Rule::Unique, Rule::UniqueBy
                RuleKind::NotEqual => {}         // StructRule::NotEqual
                RuleKind::Order => {}            // StructRule::Order
                RuleKind::Contradiction => {}    // Rule::Contradiction
                RuleKind::NotContains => {}      // StructRule::NotContains
                RuleKind::Digest => {}           // StructRule::Digest
                RuleKind::MaxItemsPerGroup => {} // Rule::MaxItemsPerGroup
                RuleKind::DocumentBytes => {}    // StructRule::MaxJsonBytes
                // StructRule::Guarded
                RuleKind::RequiredIf
                | RuleKind::AnyOf
                | RuleKind::OneOf
                | RuleKind::ValueIf
                | RuleKind::Expression => {}
            }
        }
        let mut types: Vec<Type> = spec.types.iter().map(|t| b.type_def(t)).collect();
        types.extend(spec.machines.iter().map(|m| {
            Type::Enum(Enum {
                expecting: owned(&format!("enum {}", m.rust_name)),
                values: owned_list(m.states.iter().map(|s| s.value.as_str())),
            })
        }));
        Compiled {
            types,
            root: b.index[spec.root.as_str()],
            document: document_parts(spec),
        }
    }

    /// The `DOCUMENT` constant the generated Rust would hold, borrowing the spec's names.
    pub fn document(&self) -> DocumentSpec<'_> {
        let parts = &self.document;
        let spec = &parts.shapes.0;
        let mut d = DocumentSpec::new(&spec.document_name, &spec.errors.parse)
            .with_forbidden_key_list(
                Keys::Strings(&spec.forbidden_keys),
                &spec.errors.forbidden_key,
            );
        if let Some(code) = &parts.too_large_code {
            d = d.with_too_large_code(code);
        }
        d = d.with_extract(parts.extract);
        if let Some(m) = parts.max_input_bytes {
            d = d.with_max_input_bytes(m);
        }
        if parts.bom_tolerated {
            d = d.with_bom_tolerated();
        }
        if parts.free_members {
            d = d.with_free_members();
        }
        if let Some(g) = parts.canonical_growth {
            d = d.with_canonical_growth(g);
        }
        d.with_shape(&parts.shapes)
    }

    pub fn enum_def(&self, t: usize) -> &Enum {
        match &self.types[t] {
            Type::Enum(e) => e,
            _ => unreachable!("checked: an enum type"),
        }
    }

    pub fn object(&self, t: usize) -> &Object {
        match &self.types[t] {
            Type::Object(o) => o,
            _ => unreachable!("checked: a field table"),
        }
    }

    pub fn union(&self, t: usize) -> &Union {
        match &self.types[t] {
            Type::Union(u) => u,
            _ => unreachable!("checked: a union table"),
        }
    }
}

/// What the `DOCUMENT` constant `emit/rust/document.rs` emits holds besides the spec's names.
fn document_parts(spec: &Spec) -> DocumentParts {
    DocumentParts {
        too_large_code: spec
            .root_object()
            .max_json_bytes
            .as_ref()
            .map(|cap| cap.code.clone()),
        extract: match spec.extract {
            model::Extract::Whole => document::Extract::Whole,
            model::Extract::OutermostObject => document::Extract::OutermostObject,
        },
        max_input_bytes: spec
            .max_input_bytes
            .map(|m| usize::try_from(m).unwrap_or(usize::MAX)),
        bom_tolerated: spec.bom_tolerated,
        free_members: spec.has_free_members(),
        canonical_growth: crate::model::growth::canonical_growth(spec)
            .map(|g| usize::try_from(g).unwrap_or(usize::MAX)),
        shapes: SpecShapes(spec.clone()),
    }
}

fn usize_of(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

impl<'s> Builder<'s> {
    fn type_index(&self, name: &str) -> usize {
        self.index[name]
    }

    fn type_def(&mut self, t: &'s TypeDef) -> Type {
        match t {
            TypeDef::Object(o) => Type::Object(self.object(o)),
            TypeDef::Enum(e) => Type::Enum(Enum {
                expecting: owned(&format!("enum {}", e.rust_name)),
                values: owned_list(e.values.iter().map(|v| v.value.as_str())),
            }),
            TypeDef::Union(u) => Type::Union(self.union(u)),
        }
    }

    /// Value `value` of enum (or states) table `enum_name`.
    /// Each member of a path as its position in its object, and whether the path steps
    /// into its items.
    fn steps(&self, steps: &[model::ConditionStep]) -> Vec<(usize, bool)> {
        steps
            .iter()
            .map(|step| {
                let i = match self.spec.type_def(&step.table) {
                    Some(model::TypeDef::Object(o)) => {
                        o.fields.iter().position(|f| f.key == step.member.key)
                    }
                    _ => None,
                };
                (i.unwrap_or(usize::MAX), step.items)
            })
            .collect()
    }

    /// A condition, its path as positions and its values as the document's are read.
    fn cond(&self, c: &model::Condition) -> Cond {
        let leaf_base = c
            .steps
            .last()
            .and_then(|step| match self.spec.type_def(&step.table) {
                Some(model::TypeDef::Object(o)) => o
                    .fields
                    .iter()
                    .find(|f| f.key == step.member.key)
                    .map(|f| &f.ty.base),
                _ => None,
            });
        let steps = self.steps(&c.steps);
        let values = c
            .values
            .iter()
            .zip(&c.when)
            .map(|(v, when)| match (when, leaf_base) {
                (serde_json::Value::Bool(b), _) => Node::Bool(*b),
                (_, Some(Base::Enum(n))) => Node::Enum(self.enum_value(n, &v.key)),
                _ => Node::Text(v.key.clone()),
            })
            .collect();
        Cond {
            steps,
            quantifier: c.quantifier,
            negated: c.negated,
            values,
            path: owned(&c.path),
            text: owned(&c.describe()),
        }
    }

    fn enum_value(&self, enum_name: &str, value: &str) -> EnumValue {
        let index = self
            .spec
            .enum_spellings(enum_name)
            .iter()
            .position(|v| *v == value)
            .unwrap_or(usize::MAX);
        EnumValue {
            index,
            spelled: owned(value),
        }
    }

    /// The shape of a Type cell. Every part of [`model::TypeRef`] is named: one a new
    /// spec-format feature adds is a compile error here until the interpreter reads it (the
    /// checks of `non_blank`, `literal`, `pattern`, `relative_path`, `format` and a `range`
    /// or `number_range` arrive as field rules).
    fn ty(&self, ty: &model::TypeRef) -> Ty {
        let model::TypeRef {
            base,
            array,
            nullable: _,
            non_blank: _,
            literal: _,
            pattern: _,
            relative_path: _,
            range: _,
            number_range: _,
            format: _,
            decimal_range: _,
        } = ty;
        let base = match base {
            Base::String => BaseTy::String,
            Base::Bool => BaseTy::Bool,
            Base::U32 => BaseTy::U32,
            Base::U64 => BaseTy::U64,
            Base::I32 => BaseTy::I32,
            Base::I64 => BaseTy::I64,
            Base::Number => BaseTy::Number,
            Base::Decimal { .. } => BaseTy::Decimal,
            Base::Object(n) => BaseTy::Object(self.type_index(n)),
            Base::Enum(n) => BaseTy::Enum(self.type_index(n)),
            Base::Union(n) => BaseTy::Union(self.type_index(n)),
            Base::Selected(_) => BaseTy::Selected,
            Base::Any => BaseTy::Any,
        };
        Ty {
            base,
            array: *array,
        }
    }

    /// The value of a stated default.
    fn default_node(&self, f: &model::Field, v: &DefaultValue) -> Node {
        match v {
            DefaultValue::Bool(b) => Node::Bool(*b),
            DefaultValue::UInt(n) => Node::UInt(*n),
            DefaultValue::Int(n) => Node::Int(*n),
            DefaultValue::Number(n) => Node::Float(*n),
            DefaultValue::String(s) => Node::Text(s.clone()),
            DefaultValue::Enum { value, .. } => match &f.ty.base {
                Base::Enum(n) => Node::Enum(self.enum_value(n, value)),
                _ => unreachable!("checked: an enum default on an enum field"),
            },
        }
    }

    /// The object's `Default` (an object read as `{}` when absent): each field's stated
    /// default, else its type's `Default`.
    fn object_default(&mut self, t: usize) -> Node {
        if let Some(done) = self.defaults.get(&t) {
            return done.clone();
        }
        let TypeDef::Object(o) = &self.spec.types[t] else {
            return Node::Absent;
        };
        let fields = o
            .fields
            .iter()
            .map(|f| match &f.default {
                Some(v) => self.default_node(f, v),
                None if rust_option(f, Place::Struct) => Node::Absent,
                None if f.ty.array => Node::List(Vec::new()),
                None => match &f.ty.base {
                    Base::String => Node::Text(String::new()),
                    Base::Bool => Node::Bool(false),
                    Base::U32 | Base::U64 => Node::UInt(0),
                    Base::I32 | Base::I64 => Node::Int(0),
                    Base::Number => Node::Float(0.0),
                    Base::Decimal { .. } => Node::Decimal(Decimal::ZERO),
                    Base::Object(n) => {
                        let n = self.type_index(n);
                        self.object_default(n)
                    }
                    Base::Enum(_) | Base::Union(_) | Base::Selected(_) | Base::Any => Node::Absent,
                },
            })
            .collect();
        let node = Node::Object(t, fields, Vec::new());
        self.defaults.insert(t, node.clone());
        node
    }

    /// An object with its struct rules. Every part of [`model::Object`] is named: a new
    /// object-level rule is a compile error here until the interpreter runs it.
    fn object(&mut self, o: &'s model::Object) -> Object {
        let model::Object {
            name: _,
            rust_name: _,
            doc: _,
            fields: _,
            not_equal: _,
            order: _,
            max_json_bytes: _,
            not_contains: _,
            digest: _,
            selector: _,
            defaultable: _,
            synthesized: _,
            open: _,
            // Struct rules, read below.
            guarded: _,
            copy_of: _,
        } = o;
        let place = if o.selector.is_some() {
            Place::Selector
        } else {
            Place::Struct
        };
        let fields = o
            .fields
            .iter()
            .map(|f| self.field(f, place, Some(o)))
            .collect();
        let position = |m: &model::Member| {
            o.fields
                .iter()
                .position(|f| f.key == m.key)
                .unwrap_or(usize::MAX)
        };
        let selector = o.selector.as_ref().map(|s| Selector {
            by: position(&s.by),
            by_enum: self.type_index(&s.enum_name),
            members: s
                .members
                .iter()
                .map(|m| {
                    o.fields
                        .iter()
                        .position(|f| &f.key == m)
                        .unwrap_or(usize::MAX)
                })
                .collect(),
            cases: s
                .cases
                .iter()
                .map(|c| c.tables.iter().map(|t| self.type_index(t)).collect())
                .collect(),
        });
        let mut struct_rules = Vec::new();
        let named = |m: &model::Member| (position(m), owned(&m.key));
        for n in &o.not_equal {
            let ((a, a_name), (b, b_name)) = (named(&n.a), named(&n.b));
            struct_rules.push(StructRule::NotEqual {
                a,
                a_name,
                b,
                b_name,
                code: owned(&n.code),
            });
        }
        for n in &o.order {
            let ((a, a_name), (b, b_name)) = (named(&n.a), named(&n.b));
            struct_rules.push(StructRule::Order {
                a,
                a_name,
                b,
                b_name,
                strict: n.strict,
                code: owned(&n.code),
            });
        }
        for n in &o.not_contains {
            let ((list, list_name), (value, value_name)) = (named(&n.list), named(&n.value));
            struct_rules.push(StructRule::NotContains {
                list,
                list_name,
                value,
                value_name,
                owner: owned(&specmint_suggest::words(&o.rust_name)),
                code: owned(&n.code),
            });
        }
        for g in &o.digest {
            struct_rules.push(StructRule::Digest {
                sha256: named(&g.sha256),
                data: named(&g.data),
                encoding: position(&g.encoding),
                label: g.label.as_ref().map(position),
                length: g.length.as_ref().map(named),
                code: owned(&g.code),
            });
        }
        if let Some(cap) = &o.max_json_bytes {
            struct_rules.push(StructRule::MaxJsonBytes(
                usize_of(cap.value),
                owned(&cap.code),
            ));
        }
        for (field, f) in o.fields.iter().enumerate() {
            if let Some(ri) = f
                .rules
                .required_if
                .as_ref()
                .filter(|_| o.condition_in_struct_check(f))
            {
                struct_rules.push(StructRule::RequiredWhen {
                    field,
                    key: owned(&f.key),
                    condition: self.cond(&ri.condition),
                    code: owned(&ri.code),
                });
            }
        }
        for g in &o.guarded {
            let members = |ms: &[model::Member]| ms.iter().map(named).collect();
            let rule = match &g.rule {
                model::GuardedRule::Required { path, steps } => GuardedRule::Required {
                    steps: self.steps(steps),
                    path: owned(path),
                },
                model::GuardedRule::AnyOf(ms) => GuardedRule::AnyOf(members(ms)),
                model::GuardedRule::OneOf(ms) => GuardedRule::OneOf(members(ms)),
                model::GuardedRule::Compare { field, op, bound } => GuardedRule::Compare {
                    field: named(field),
                    op: compare_op(*op),
                    bound: num(bound),
                },
                model::GuardedRule::Absent(field) => GuardedRule::Absent(named(field)),
                model::GuardedRule::Expression { expr, .. } => {
                    GuardedRule::Expression(expr.clone())
                }
            };
            struct_rules.push(StructRule::Guarded {
                rule,
                condition: g.condition.as_ref().map(|c| self.cond(c)),
                code: owned(&g.code),
            });
        }
        Object {
            expecting: owned(&format!("struct {}", o.rust_name)),
            keys: owned_list(o.fields.iter().map(|f| f.key.as_str())),
            fields,
            open: o.open,
            selector,
            struct_rules,
        }
    }

    fn union(&mut self, u: &'s model::Union) -> Union {
        let (expecting, unknown) = u.reader_texts();
        let variants = u
            .variants
            .iter()
            .map(|v| Variant {
                all_optional: v.all_optional(),
                keys: owned_list(v.members.iter().map(|m| m.key.as_str())),
                members: v
                    .members
                    .iter()
                    .map(|m| self.field(m, Place::Variant, None))
                    .collect(),
            })
            .collect();
        Union {
            expecting: owned(&expecting),
            unknown,
            tag: owned(&u.tag),
            short_form: u.short_form,
            tag_values: owned_list(u.variants.iter().map(|v| v.tag_value.as_str())),
            variants,
        }
    }

    /// A member. Every part of [`model::Field`] is named: a new one is a compile error here
    /// until the interpreter reads it.
    fn field(&mut self, f: &'s model::Field, place: Place, owner: Option<&model::Object>) -> Field {
        let model::Field {
            key: _,
            rust_name: _,
            ty: _,
            required: _,
            default: _,
            doc: _,
            rules: _,
            absent_is_empty: _,
            always_written: _,
        } = f;
        let absent = self.absent(f, place);
        let skip = self.skip(f, place);
        let rules = match owner {
            Some(o) => self.rules(o, f),
            None => self.variant_member_rules(f),
        };
        Field {
            key: owned(&f.key),
            ty: self.ty(&f.ty),
            option: rust_option(f, place),
            present_any: place == Place::Struct && f.is_optional_any(),
            absent,
            skip,
            rules,
        }
    }

    /// What an absent key reads as (serde's `default` attributes; an `Option` without one
    /// reads as `None` too), `None` when it is refused.
    fn absent(&mut self, f: &model::Field, place: Place) -> Option<Node> {
        let object_default = |b: &mut Self| match &f.ty.base {
            Base::Object(n) if !f.ty.array => {
                let n = b.type_index(n);
                b.object_default(n)
            }
            _ => Node::Absent,
        };
        match place {
            Place::Variant => f.ty.nullable.then_some(Node::Absent),
            Place::Struct => Some(match &f.default {
                Some(v) => self.default_node(f, v),
                None if rust_option(f, place) => Node::Absent,
                None if !f.required && f.ty.array => Node::List(Vec::new()),
                None if f.absent_is_empty => object_default(self),
                None => return None,
            }),
            Place::Selector => Some(match &f.default {
                Some(v) => self.default_node(f, v),
                None if f.ty.nullable || f.read_optional() => Node::Absent,
                None if f.absent_is_empty => object_default(self),
                None if !f.required && f.ty.array => Node::List(Vec::new()),
                None => return None,
            }),
        }
    }

    /// When the member is left out when written (`skip_serializing_if`).
    fn skip(&mut self, f: &model::Field, place: Place) -> Skip {
        if f.always_written {
            return Skip::Never;
        }
        let equal_default = |b: &mut Self| match &f.default {
            Some(v) => Skip::IfEqual(b.default_node(f, v)),
            None => match b.absent(f, Place::Struct) {
                Some(node) => Skip::IfEqual(node),
                None => Skip::Never,
            },
        };
        match place {
            Place::Variant => Skip::Never,
            Place::Struct => {
                if f.default.is_some() {
                    equal_default(self)
                } else if f.is_optional_any() || (!f.required && f.ty.nullable) || f.read_optional()
                {
                    Skip::IfAbsent
                } else if !f.required && f.ty.array {
                    Skip::IfEmpty
                } else if f.absent_is_empty && !f.required {
                    equal_default(self)
                } else {
                    Skip::Never
                }
            }
            Place::Selector => {
                if f.required && !f.read_optional() {
                    Skip::Never
                } else if f.default.is_some() || f.absent_is_empty {
                    equal_default(self)
                } else if f.ty.nullable || f.read_optional() {
                    Skip::IfAbsent
                } else if f.ty.array {
                    Skip::IfEmpty
                } else {
                    Skip::Never
                }
            }
        }
    }

    /// The field's item type's member named `m`, by index.
    fn item_member(&self, f: &model::Field, m: &model::Member) -> usize {
        match &f.ty.base {
            Base::Object(n) => match &self.spec.types[self.type_index(n)] {
                TypeDef::Object(o) => o.fields.iter().position(|x| x.key == m.key),
                _ => None,
            },
            _ => None,
        }
        .unwrap_or(usize::MAX)
    }

    /// A field's rules, in the order `emit/rust/object.rs` (`field_rules`) lists them in its
    /// `#[validate(..)]`. Every rule of [`FieldRules`] is named here: a new one is a compile
    /// error until the interpreter runs it too.
    fn rules(&self, o: &model::Object, f: &model::Field) -> Vec<Rule> {
        let FieldRules {
            // The rules on each value: `element_rules`.
            non_blank: _,
            max_chars: _,
            max_items,
            min_chars: _,
            min_items,
            max_items_per_group,
            unique_by,
            contradiction,
            equals: _,
            pattern: _,
            relative_path: _,
            range: _,
            scale: _,
            format: _,
            required,
            required_if,
            unique,
            // Read by the document reader (the shape's `enum_code`), not a rule.
            enum_code: _,
        } = &f.rules;
        let mut rules = Vec::new();
        if let Some(code) = required {
            rules.push(Rule::Required(owned(code)));
        }
        if let Some(ri) = required_if
            .as_ref()
            .filter(|_| !o.condition_in_struct_check(f))
        {
            if let Some((field, value, when)) = ri.condition.sibling_value() {
                let sibling = o.fields.iter().position(|s| s.key == field.key);
                // As `emit/rust/object.rs` writes `equals`: a `bool`, an enum value or text.
                let value = match (when, sibling.map(|i| &o.fields[i].ty.base)) {
                    (serde_json::Value::Bool(b), _) => Node::Bool(*b),
                    (_, Some(Base::Enum(n))) if !ri.condition.enum_rust.is_empty() => {
                        Node::Enum(self.enum_value(n, &value.key))
                    }
                    _ => Node::Text(value.key.clone()),
                };
                rules.push(Rule::RequiredIf {
                    sibling: sibling.unwrap_or(usize::MAX),
                    sibling_name: owned(&field.key),
                    value,
                    code: owned(&ri.code),
                });
            }
        }
        if let Some(cap) = max_items {
            rules.push(Rule::MaxItems(usize_of(cap.value), owned(&cap.code)));
        }
        if let Some(cap) = min_items {
            rules.push(Rule::MinItems(usize_of(cap.value), owned(&cap.code)));
        }
        for g in max_items_per_group {
            rules.push(Rule::MaxItemsPerGroup {
                by: self.item_member(f, &g.by),
                by_name: owned(&g.by.rust),
                max: usize_of(g.cap.value),
                code: owned(&g.cap.code),
            });
        }
        let text = element_rules(f);
        if !text.is_empty() {
            rules.push(if f.ty.array {
                Rule::Each(text)
            } else {
                Rule::Value(text)
            });
        }
        if matches!(f.ty.base, Base::Object(_) | Base::Union(_)) {
            rules.push(Rule::Nested);
        }
        if let Some(u) = unique {
            let fold = Fold {
                trim: u.trim,
                ignore_case: u.ignore_case,
            };
            rules.push(Rule::Unique(fold, owned(&u.code)));
        }
        for u in unique_by {
            if u.compound {
                rules.push(Rule::UniqueKeys {
                    keys: u.keys.iter().map(|k| self.item_member(f, k)).collect(),
                    names: u.keys.iter().map(|k| owned(&k.rust)).collect(),
                    fold: Fold {
                        trim: u.trim,
                        ignore_case: u.ignore_case,
                    },
                    code: owned(&u.code),
                });
                continue;
            }
            rules.push(Rule::UniqueBy {
                key: self.item_member(f, &u.key),
                key_name: owned(&u.key.rust),
                fold: Fold {
                    trim: u.trim,
                    ignore_case: u.ignore_case,
                },
                code: owned(&u.code),
            });
        }
        for c in contradiction {
            let en = &c.enum_rust;
            let enum_name = self
                .spec
                .types
                .iter()
                .find(|t| matches!(t, TypeDef::Enum(e) if &e.rust_name == en))
                .map_or("", TypeDef::name);
            rules.push(Rule::Contradiction {
                by: self.item_member(f, &c.by),
                value: self.item_member(f, &c.value),
                value_name: owned(&c.value.rust),
                pairs: c
                    .pairs
                    .iter()
                    .map(|p| Pair {
                        a: self.enum_value(enum_name, &p.a.key),
                        b: self.enum_value(enum_name, &p.b.key),
                        ignore_case: p.ignore_case,
                    })
                    .collect(),
                code: owned(&c.code),
            });
        }
        rules
    }

    /// A union member's checks (`emit/rust/union.rs`, `union_validate`): item caps and
    /// minimums, the rules on each value, then nested.
    fn variant_member_rules(&self, m: &model::Field) -> Vec<Rule> {
        let mut rules = Vec::new();
        if let Some(cap) = &m.rules.max_items {
            rules.push(Rule::MaxItems(usize_of(cap.value), owned(&cap.code)));
        }
        if let Some(cap) = &m.rules.min_items {
            rules.push(Rule::MinItems(usize_of(cap.value), owned(&cap.code)));
        }
        let text = element_rules(m);
        if !text.is_empty() {
            rules.push(if m.ty.array {
                Rule::Each(text)
            } else {
                Rule::Value(text)
            });
        }
        if matches!(m.ty.base, Base::Object(_) | Base::Union(_)) {
            rules.push(Rule::Nested);
        }
        rules
    }
}

/// The rules on each value of a field or union member (each element of a list), in the order
/// `emit/rust/object.rs` lists them in `each(..)` and `emit/rust/union.rs` calls them: not blank, char
/// cap and minimum, literal, pattern, relative path, format, range.
fn element_rules(f: &model::Field) -> Vec<ElementRule> {
    let FieldRules {
        non_blank,
        max_chars,
        min_chars,
        equals,
        pattern,
        relative_path,
        range,
        format,
        scale,
        ..
    } = &f.rules;
    let mut text = Vec::new();
    if let Some(code) = non_blank {
        text.push(ElementRule::NonBlank(owned(code)));
    }
    if let Some(cap) = max_chars {
        text.push(ElementRule::MaxChars(usize_of(cap.value), owned(&cap.code)));
    }
    if let Some(cap) = min_chars {
        text.push(ElementRule::MinChars(usize_of(cap.value), owned(&cap.code)));
    }
    if let (Some(code), Some(lit)) = (equals, &f.ty.literal) {
        text.push(ElementRule::Equals(owned(lit), owned(code)));
    }
    if let (Some(code), Some(re)) = (pattern, &f.ty.pattern) {
        text.push(ElementRule::Pattern(
            Box::new(Pattern::from_string(re.clone())),
            owned(code),
        ));
    }
    if let Some(code) = relative_path {
        text.push(ElementRule::RelativePath(owned(code)));
    }
    if let (Some(code), Some(kind)) = (format, f.ty.format) {
        text.push(ElementRule::Format(kind, owned(code)));
    }
    if let (Some(code), Some(r)) = (range, f.ty.range) {
        let bounds = Bounds {
            min: r.min,
            max: r.max,
        };
        text.push(ElementRule::Range(bounds, owned(code)));
    }
    if let (Some(code), Some(r)) = (range, f.ty.number_range) {
        let bounds = NumberBounds {
            min: r.min,
            max: r.max,
        };
        text.push(ElementRule::NumberRange(bounds, owned(code)));
    }
    if let (Some(code), Base::Decimal { scale, precision }) = (scale, &f.ty.base) {
        text.push(ElementRule::Scale(*scale, *precision, owned(code)));
    }
    if let (Some(code), Some(r)) = (range, &f.ty.decimal_range) {
        text.push(ElementRule::DecimalRange(r.clone(), owned(code)));
    }
    text
}

/// Whether the Rust field is an `Option` (`emit/rust/mod.rs`, `field_type`; a union member's
/// type is its `rust_type`).
fn rust_option(f: &model::Field, place: Place) -> bool {
    match place {
        Place::Variant => f.ty.nullable,
        Place::Struct | Place::Selector => {
            f.ty.nullable || f.read_optional() || f.is_optional_any()
        }
    }
}

/// The runtime's comparison for a model's.
fn compare_op(op: model::CompareOp) -> specmint_runtime::rules::Compare {
    use specmint_runtime::rules::Compare;
    match op {
        model::CompareOp::Lt => Compare::Lt,
        model::CompareOp::Le => Compare::Le,
        model::CompareOp::Eq => Compare::Eq,
        model::CompareOp::Ge => Compare::Ge,
        _ => Compare::Gt,
    }
}

/// A bound as the runtime compares it: an integer exactly, else a double.
pub(crate) fn num(n: &serde_json::Number) -> specmint_runtime::rules::Num {
    use specmint_runtime::rules::Num;
    match (n.as_i64(), n.as_u64()) {
        (Some(i), _) => Num::Int(i.into()),
        (_, Some(u)) => Num::Int(u.into()),
        _ => Num::Float(n.as_f64().unwrap_or(f64::NAN)),
    }
}
