//! Name conversions shared by the checker and the emitters.

/// Rust keywords that may be written raw (`r#type`).
const RAW_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be identifiers at all, not even raw.
const NON_RAW_KEYWORDS: &[&str] = &["self", "Self", "super", "crate", "_"];

/// `hint`, led by ``did you mean `X`?`` when one of `candidates` is close enough to `word`
/// to be what was meant (see `specmint_suggest::did_you_mean`).
pub(crate) fn suggest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    hint: impl Into<String>,
) -> String {
    let hint = hint.into();
    match did_you_mean(word, candidates) {
        Some(meant) if hint.is_empty() => format!("did you mean `{meant}`?"),
        Some(meant) => format!("did you mean `{meant}`? {hint}"),
        None => hint,
    }
}

pub(crate) use specmint_suggest::did_you_mean;

/// Whether `s` must be written `r#s`.
pub(crate) fn is_raw_keyword(s: &str) -> bool {
    RAW_KEYWORDS.contains(&s)
}

/// Whether `s` is usable as a Rust identifier (raw if it is a keyword).
pub(crate) fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first == '_' || first.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
        && !NON_RAW_KEYWORDS.contains(&s)
}

/// `lower_snake_case`: `functionCall` → `function_call`, `max-x` → `max_x`.
pub(crate) fn snake_case(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower_or_digit = false;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && prev_lower_or_digit && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower_or_digit = c.is_ascii_lowercase() || c.is_ascii_digit();
            out.push(c.to_ascii_lowercase());
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            prev_lower_or_digit = false;
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// The Rust field name of JSON key `key`: its `snake_case`, with `_` appended to a keyword
/// that cannot be an identifier even raw (`self` → `self_`, `Self` → `self_`, `crate` →
/// `crate_`), so a HAL or JSON:API `self` link can be a field (renamed back by serde).
/// Empty when the key has no ASCII letter or digit.
pub(crate) fn field_name(key: &str) -> String {
    let mut rust = snake_case(key);
    if NON_RAW_KEYWORDS.contains(&rust.as_str()) {
        rust.push('_');
    }
    rust
}

/// `UpperCamelCase`: `mcp_only` → `McpOnly`, `INVALID_ORDER` → `InvalidOrder`.
pub(crate) fn upper_camel(s: &str) -> String {
    let mut out = String::new();
    for part in s.split(|c: char| !c.is_ascii_alphanumeric()) {
        if part.is_empty() {
            continue;
        }
        let all_upper = !part.chars().any(|c| c.is_ascii_lowercase());
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            for c in chars {
                out.push(if all_upper { c.to_ascii_lowercase() } else { c });
            }
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

/// `SCREAMING_SNAKE_CASE` check for constants.
pub(crate) fn is_screaming_snake(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// `lower_snake_case` check for table names.
pub(crate) fn is_lower_snake(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(snake_case("functionCall"), "function_call");
        assert_eq!(snake_case("order_id"), "order_id");
        assert_eq!(snake_case("max-cost USD"), "max_cost_usd");
        assert_eq!(upper_camel("mcp_only"), "McpOnly");
        assert_eq!(upper_camel("INVALID_ORDER"), "InvalidOrder");
        assert_eq!(upper_camel("output_format"), "OutputFormat");
        assert!(is_screaming_snake("ITEMS_MAX"));
        assert!(!is_screaming_snake("Items"));
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("Self"), "self_");
        assert_eq!(field_name("crate"), "crate_");
        assert_eq!(field_name("super"), "super_");
        assert_eq!(field_name("type"), "type");
        assert_eq!(field_name("_"), "");
    }
}
