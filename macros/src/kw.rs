//! Attribute key names and default violation codes, in one place.

/// The attribute this derive reads.
pub const VALIDATE: &str = "validate";

// Field rules.
pub const NON_BLANK: &str = "non_blank";
pub const MAX_CHARS: &str = "max_chars";
pub const MAX_ITEMS: &str = "max_items";
pub const EACH: &str = "each";
pub const NESTED: &str = "nested";
/// `nested(flatten)`: the inner value is validated at the struct's own path.
pub const FLATTEN: &str = "flatten";
pub const MAX_ITEMS_PER_GROUP: &str = "max_items_per_group";
pub const UNIQUE_BY: &str = "unique_by";
pub const CONTRADICTION: &str = "contradiction";
pub const EQUALS: &str = "equals";
pub const PATTERN: &str = "pattern";
pub const RELATIVE_PATH: &str = "relative_path";
pub const REQUIRED: &str = "required";
pub const REQUIRED_IF: &str = "required_if";
pub const UNIQUE: &str = "unique";

// Field settings.
pub const RENAME: &str = "rename";

// Struct rules and settings.
pub const NOT_EQUAL: &str = "not_equal";
pub const MAX_JSON_BYTES: &str = "max_json_bytes";
pub const NOT_CONTAINS: &str = "not_contains";
pub const DIGEST: &str = "digest";
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
pub const REGEX: &str = "regex";
pub const FIELD: &str = "field";
pub const LIST: &str = "list";
pub const SHA256: &str = "sha256";
pub const DATA: &str = "data";
pub const ENCODING: &str = "encoding";
pub const LABEL: &str = "label";
pub const LENGTH: &str = "length";

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
    EQUALS,
    PATTERN,
    RELATIVE_PATH,
    REQUIRED,
    REQUIRED_IF,
    UNIQUE,
];

/// Every struct-level key, for "unknown rule" messages.
pub const STRUCT_RULES: &[&str] = &[NOT_EQUAL, MAX_JSON_BYTES, NOT_CONTAINS, DIGEST, CRATE];

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
pub const CODE_UNEXPECTED: &str = "unexpected_value";
pub const CODE_PATTERN: &str = "pattern_mismatch";
pub const CODE_PATH: &str = "invalid_path";
pub const CODE_REQUIRED: &str = "required";
pub const CODE_DUPLICATE_ITEM: &str = "duplicate_item";
pub const CODE_CONTAINS_SELF: &str = "contains_self";
pub const CODE_DIGEST: &str = "digest_mismatch";

/// `a`, `b` and `c` as "`a`, `b`, `c`".
pub fn list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
