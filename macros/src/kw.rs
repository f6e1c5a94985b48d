//! Attribute key names and default violation codes, in one place.

/// The attribute this derive reads.
pub const VALIDATE: &str = "validate";

// Field rules.
pub const NON_BLANK: &str = "non_blank";
pub const MAX_CHARS: &str = "max_chars";
pub const MAX_ITEMS: &str = "max_items";
pub const EACH: &str = "each";
pub const NESTED: &str = "nested";
pub const MAX_ITEMS_PER_GROUP: &str = "max_items_per_group";
pub const UNIQUE_BY: &str = "unique_by";
pub const CONTRADICTION: &str = "contradiction";

// Struct rules and settings.
pub const NOT_EQUAL: &str = "not_equal";
pub const MAX_JSON_BYTES: &str = "max_json_bytes";
pub const CRATE: &str = "crate";

// Rule arguments.
pub const MAX: &str = "max";
pub const CODE: &str = "code";
pub const BY: &str = "by";
pub const KEY: &str = "key";
pub const VALUE: &str = "value";
pub const A: &str = "a";
pub const B: &str = "b";
pub const TRIM: &str = "trim";
pub const IGNORE_CASE: &str = "ignore_case";
pub const PAIR: &str = "pair";

/// Every field rule, for "unknown rule" messages.
pub const FIELD_RULES: &[&str] = &[
    NON_BLANK,
    MAX_CHARS,
    MAX_ITEMS,
    EACH,
    NESTED,
    MAX_ITEMS_PER_GROUP,
    UNIQUE_BY,
    CONTRADICTION,
];

/// Every struct-level key, for "unknown rule" messages.
pub const STRUCT_RULES: &[&str] = &[NOT_EQUAL, MAX_JSON_BYTES, CRATE];

/// Rules allowed inside `each(..)`.
pub const EACH_RULES: &[&str] = &[NON_BLANK, MAX_CHARS];

// Default violation codes.
pub const CODE_BLANK: &str = "blank_field";
pub const CODE_TOO_LONG: &str = "field_too_long";
pub const CODE_TOO_MANY: &str = "too_many_items";
pub const CODE_DUPLICATE: &str = "duplicate_key";
pub const CODE_CONTRADICTORY: &str = "contradictory_values";
pub const CODE_EQUAL: &str = "fields_equal";
pub const CODE_TOO_LARGE: &str = "document_too_large";

/// `a`, `b` and `c` as "`a`, `b`, `c`".
pub fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
