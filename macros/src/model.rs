//! What the attributes mean, independent of how they were written.

use proc_macro2::Span;
use syn::{Expr, Generics, Ident, LitStr};

/// The whole derive input.
pub struct Model {
    pub ident: Ident,
    pub generics: Generics,
    /// Path of the runtime crate (`::specmint_runtime` unless `crate = ".."`).
    pub krate: syn::Path,
    /// `false` when the input is not a struct with named fields (already an error).
    pub named_fields: bool,
    pub fields: Vec<Field>,
    pub struct_rules: Vec<StructRule>,
}

/// One named field and its rules, in attribute order.
pub struct Field {
    pub ident: Ident,
    /// The field's name as it appears in paths: `#[validate(rename)]`, else serde's
    /// (deserialize) name from `rename` / the struct's `rename_all`, else the identifier
    /// (raw identifiers unprefixed).
    pub name: String,
    pub rules: Vec<Rule>,
}

/// A violation code: the user's, or the rule's default.
pub struct Code {
    pub custom: Option<LitStr>,
    pub default: &'static str,
}

/// A numeric limit: a `usize` expression.
pub struct Limit {
    pub expr: Expr,
}

/// A rule on a field, or (inside `each(..)`) on each of its elements: the runtime function
/// of the same name, what it was given, and where it was written.
pub struct Rule {
    /// The rule's name, which is also the runtime function it calls (`rules::max_chars`).
    pub name: &'static str,
    pub kind: RuleKind,
    /// The violation code; `None` for rules that report through other code (`custom`,
    /// `nested`, `each`).
    pub code: Option<Code>,
    /// Span of the rule's name, where type errors about it point.
    pub span: Span,
}

/// What a rule was given, by the shape of its call (`Plain` and `Limit` serve several rules).
pub enum RuleKind {
    /// Only the value: `non_blank`, `relative_path`, `required`.
    Plain,
    /// A `usize` limit on the value: `max_chars`, `min_chars`.
    Limit(Limit),
    /// A `usize` limit on the list's length: `max_items`, `min_items`.
    ListLimit(Limit),
    /// `pattern(regex = "..")`: the text matches the regex (checked at compile time).
    Pattern(LitStr),
    /// `format(kind = "date-time")`: the text is in that format; the runtime's `Format`
    /// variant.
    Format(&'static str),
    /// `custom = path::to_fn`: a hand-written check, `fn(&T, &Path<'_>, &mut Report)`.
    Custom(syn::Path),
    /// `range(min = A, max = B)`: inclusive bounds, at least one given; integer bounds on an
    /// integer field, or decimal ones (`rules::number_range`) when a bound is a decimal literal.
    Range {
        min: Option<Expr>,
        max: Option<Expr>,
    },
    /// `scale(max = S, precision = P)`: at most S fraction digits (and P − S integer digits)
    /// on a `Decimal`.
    Scale {
        max: Limit,
        precision: Option<Limit>,
    },
    /// `decimal_range(min = "0", below = "100")`: exact bounds on a `Decimal`, each a string
    /// literal holding a JSON number, `above`/`below` excluding their end.
    DecimalRange {
        min: Option<(syn::LitStr, bool)>,
        max: Option<(syn::LitStr, bool)>,
    },
    /// `each(..)`: element rules (only `Plain`, `Limit`, `Pattern`, `Format`, `Custom`,
    /// `Range`) on every element.
    Each(Vec<Rule>),
    /// `nested(flatten)`: the inner value's members sit beside this struct's own (its
    /// serialization is flattened), so its paths start at the struct's path, not the field's.
    Nested {
        flatten: bool,
    },
    MaxItemsPerGroup {
        by: Ident,
        max: Limit,
    },
    UniqueBy {
        key: Ident,
        fold: Fold,
    },
    /// `unique_by(key = (a, b, ..))`: a compound key.
    UniqueKeys {
        keys: Vec<Ident>,
        fold: Fold,
    },
    Contradiction {
        by: Ident,
        value: Ident,
        pairs: Vec<Pair>,
    },
    Equals(Expr),
    RequiredIf {
        field: Ident,
        equals: Expr,
    },
    Unique(Fold),
}

/// How text is compared by `unique` and `unique_by`.
#[derive(Clone, Copy)]
pub struct Fold {
    pub trim: bool,
    pub ignore_case: bool,
}

/// `pair(A, B)` / `pair(A, B, ignore_case)` of `contradiction`.
pub struct Pair {
    pub a: Expr,
    pub b: Expr,
    pub ignore_case: bool,
}

/// A rule on the whole struct.
pub enum StructRule {
    /// `custom = path::to_fn`: a hand-written check of the struct,
    /// `fn(&Self, &Path<'_>, &mut Report)`.
    Custom {
        func: syn::Path,
        span: Span,
    },
    NotEqual {
        a: Ident,
        b: Ident,
        code: Code,
        span: Span,
    },
    /// `a` before `b`: `a < b` when `strict`, else `a <= b`.
    Order {
        a: Ident,
        b: Ident,
        strict: bool,
        code: Code,
        span: Span,
    },
    MaxJsonBytes {
        max: Limit,
        code: Code,
        span: Span,
    },
    NotContains {
        list: Ident,
        value: Ident,
        code: Code,
        span: Span,
    },
    Digest {
        sha256: Ident,
        data: Ident,
        encoding: Ident,
        label: Option<Ident>,
        length: Option<Ident>,
        code: Code,
        span: Span,
    },
}
