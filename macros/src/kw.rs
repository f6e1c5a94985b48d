//! Attribute key names and default violation codes, in one place.

/// The attribute this derive reads.
pub const VALIDATE: &str = "validate";

/// The field setting: the field's name in paths.
pub const RENAME: &str = "rename";

/// Declares an enum of rule names with its spellings, in the order "unknown rule" messages
/// list them. The parser's `match` on the enum is exhaustive: a rule added here and not
/// handled there does not compile. (Field rules are the entries of the parser's table.)
macro_rules! rule_names {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $text:expr,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $($variant,)*
        }

        impl $name {
            /// Every name, in table order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The name as written in `#[validate(..)]`.
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The rule written `name`, if it is one of these.
            pub fn from_name(name: &str) -> Option<Self> {
                Self::ALL.iter().copied().find(|rule| rule.name() == name)
            }

            /// Every name as "`a`, `b`, `c`", for "unknown rule" messages.
            pub fn list() -> String {
                list(&Self::ALL.iter().map(|rule| rule.name()).collect::<Vec<_>>())
            }

            /// "did you mean `x`? " for the name closest to a misspelt `name`, else "".
            pub fn did_you_mean(name: &str) -> String {
                did_you_mean(name, &Self::ALL.iter().map(|rule| rule.name()).collect::<Vec<_>>())
            }
        }
    };
}

rule_names! {
    /// The rules and settings on the struct.
    StructRuleName {
        NotEqual = "not_equal",
        Order = "order",
        MaxJsonBytes = "max_json_bytes",
        NotContains = "not_contains",
        Digest = "digest",
        Custom = "custom",
        Crate = "crate",
    }
}

// Rule arguments.
/// `nested(flatten)`: the inner value is validated at the struct's own path.
pub const FLATTEN: &str = "flatten";
pub const MAX: &str = "max";
/// `range`'s lower bound.
pub const MIN: &str = "min";
pub const CODE: &str = "code";
/// `scale`'s total digits (SQL's `NUMERIC(P, S)`).
pub const PRECISION: &str = "precision";
/// `decimal_range`'s excluded lower bound.
pub const ABOVE: &str = "above";
/// `decimal_range`'s excluded upper bound.
pub const BELOW: &str = "below";
pub const BY: &str = "by";
pub const KEY: &str = "key";
pub const VALUE: &str = "value";
/// `required_if`'s sibling value.
pub const EQUALS: &str = "equals";
pub const A: &str = "a";
pub const B: &str = "b";
pub const TRIM: &str = "trim";
pub const IGNORE_CASE: &str = "ignore_case";
/// `order`'s flag: `a < b` rather than `a <= b`.
pub const STRICT: &str = "strict";
pub const PAIR: &str = "pair";
pub const REGEX: &str = "regex";
/// `format`'s format name.
pub const KIND: &str = "kind";
/// The formats `format(kind = "..")` knows, with the runtime's `Format` variant of each.
pub const FORMATS: &[(&str, &str)] = &[
    ("date-time", "DateTime"),
    ("date", "Date"),
    ("uri", "Uri"),
    ("email", "Email"),
];
pub const FIELD: &str = "field";
pub const LIST: &str = "list";
pub const SHA256: &str = "sha256";
pub const DATA: &str = "data";
pub const ENCODING: &str = "encoding";
pub const LABEL: &str = "label";
pub const LENGTH: &str = "length";

// Default violation codes.
pub const CODE_BLANK: &str = "blank_field";
pub const CODE_TOO_LONG: &str = "field_too_long";
pub const CODE_TOO_MANY: &str = "too_many_items";
pub const CODE_DUPLICATE: &str = "duplicate_key";
pub const CODE_CONTRADICTORY: &str = "contradictory_values";
pub const CODE_EQUAL: &str = "fields_equal";
pub const CODE_OUT_OF_ORDER: &str = "out_of_order";
pub const CODE_TOO_LARGE: &str = "document_too_large";
pub const CODE_UNEXPECTED: &str = "unexpected_value";
pub const CODE_PATTERN: &str = "pattern_mismatch";
pub const CODE_PATH: &str = "invalid_path";
pub const CODE_REQUIRED: &str = "required";
pub const CODE_DUPLICATE_ITEM: &str = "duplicate_item";
pub const CODE_CONTAINS_SELF: &str = "contains_self";
pub const CODE_DIGEST: &str = "digest_mismatch";
pub const CODE_RANGE: &str = "out_of_range";
pub const CODE_TOO_SHORT: &str = "field_too_short";
pub const CODE_TOO_FEW: &str = "too_few_items";
pub const CODE_FORMAT: &str = "bad_format";
pub const CODE_SCALE: &str = "bad_scale";

/// `a`, `b` and `c` as "`a`, `b`, `c`".
pub fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "did you mean `x`? " for the one of `names` closest to a misspelt `name`, else "" (the
/// same suggestion as the spec checker's, from `specmint-suggest`).
pub fn did_you_mean(name: &str, names: &[&str]) -> String {
    specmint_suggest::did_you_mean(name, names.iter().copied())
        .map(|meant| format!("did you mean `{meant}`? "))
        .unwrap_or_default()
}
