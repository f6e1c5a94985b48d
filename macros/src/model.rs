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
    pub rules: Vec<FieldRule>,
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

/// A rule on one value, alone or as each element of a list (`each(..)`).
pub enum ElementRule {
    NonBlank {
        code: Code,
        span: Span,
    },
    MaxChars {
        max: Limit,
        code: Code,
        span: Span,
    },
    MinChars {
        min: Limit,
        code: Code,
        span: Span,
    },
    /// `pattern(regex = "..")`: the text matches the regex (checked at compile time).
    Pattern {
        regex: LitStr,
        code: Code,
        span: Span,
    },
    /// `format(kind = "date-time")`: the text is in that format; `variant` is the runtime's
    /// `Format` variant.
    Format {
        variant: &'static str,
        code: Code,
        span: Span,
    },
    /// `custom = path::to_fn`: a hand-written check, `fn(&T, &Path<'_>, &mut Report)`.
    Custom {
        func: syn::Path,
        span: Span,
    },
    /// `range(min = A, max = B)`: inclusive integer bounds, at least one given.
    Range {
        min: Option<Expr>,
        max: Option<Expr>,
        code: Code,
        span: Span,
    },
}

/// `pair(A, B)` / `pair(A, B, ignore_case)` of `contradiction`.
pub struct Pair {
    pub a: Expr,
    pub b: Expr,
    pub ignore_case: bool,
}

/// A rule on one field.
pub enum FieldRule {
    Element(ElementRule),
    MaxItems {
        max: Limit,
        code: Code,
        span: Span,
    },
    MinItems {
        min: Limit,
        code: Code,
        span: Span,
    },
    Each {
        rules: Vec<ElementRule>,
        span: Span,
    },
    Nested {
        /// `nested(flatten)`: the inner value's members sit beside this struct's own (its
        /// serialization is flattened), so its paths start at the struct's path, not the field's.
        flatten: bool,
        span: Span,
    },
    MaxItemsPerGroup {
        by: Ident,
        max: Limit,
        code: Code,
        span: Span,
    },
    UniqueBy {
        key: Ident,
        key_name: String,
        trim: bool,
        ignore_case: bool,
        code: Code,
        span: Span,
    },
    Contradiction {
        by: Ident,
        value: Ident,
        value_name: String,
        pairs: Vec<Pair>,
        code: Code,
        span: Span,
    },
    Equals {
        value: Expr,
        code: Code,
        span: Span,
    },
    RelativePath {
        code: Code,
        span: Span,
    },
    Required {
        code: Code,
        span: Span,
    },
    RequiredIf {
        field: Ident,
        equals: Expr,
        code: Code,
        span: Span,
    },
    Unique {
        trim: bool,
        ignore_case: bool,
        code: Code,
        span: Span,
    },
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

impl ElementRule {
    /// Span of the rule's name, where type errors about it point.
    pub fn span(&self) -> Span {
        match self {
            ElementRule::NonBlank { span, .. }
            | ElementRule::MaxChars { span, .. }
            | ElementRule::MinChars { span, .. }
            | ElementRule::Pattern { span, .. }
            | ElementRule::Custom { span, .. }
            | ElementRule::Format { span, .. }
            | ElementRule::Range { span, .. } => *span,
        }
    }
}

impl FieldRule {
    /// Span of the rule's name, where type errors about it point.
    pub fn span(&self) -> Span {
        match self {
            FieldRule::Element(rule) => rule.span(),
            FieldRule::MaxItems { span, .. }
            | FieldRule::MinItems { span, .. }
            | FieldRule::Each { span, .. }
            | FieldRule::Nested { span, .. }
            | FieldRule::MaxItemsPerGroup { span, .. }
            | FieldRule::UniqueBy { span, .. }
            | FieldRule::Contradiction { span, .. }
            | FieldRule::Equals { span, .. }
            | FieldRule::RelativePath { span, .. }
            | FieldRule::Required { span, .. }
            | FieldRule::RequiredIf { span, .. }
            | FieldRule::Unique { span, .. } => *span,
        }
    }
}
