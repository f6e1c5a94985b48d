//! `matching` patterns: one meaning for the Rust check (regex-lite) and for the schema's
//! consumers (Python `re` under jsonschema, ECMAScript under ajv, Rust `regex` under
//! Pydantic).
//!
//! The engines agree on literal characters, explicit classes (`[0-9]`, `[A-Za-z_-]`),
//! groups, alternation, repetition and `^`. They disagree on `\d \D \w \W \s \S \b \B`
//! (Unicode in Python; `\s \S` Unicode in ECMAScript too, the others ASCII there; all
//! ASCII in regex-lite), on `.` (ECMAScript also stops
//! at `\r`, U+2028 and U+2029), on inline flags (ECMAScript has none), and on `$` (Python's
//! also matches before a final line feed). So a spec pattern may not use the first three:
//! [`vet`] refuses them with a hint; and a pattern may not match a line feed, so that
//! "`$` is the end of the text" can be stated to every consumer as the extra schema rule
//! "does not end in a line feed" ([`NO_FINAL_LF`]), which the regex-lite check already
//! implies.

/// The schema rule added next to a pattern that has an end anchor: Python's `$` matches
/// before a final line feed, regex-lite's and ECMAScript's do not.
pub(crate) const NO_FINAL_LF: &str = "\n$";

/// A pattern the spec format refuses: the char offset of the construct in the pattern (none:
/// the whole pattern), the message, the hint.
pub(crate) struct Refusal {
    pub offset: Option<usize>,
    pub message: String,
    pub hint: String,
}

impl Refusal {
    fn new(offset: Option<usize>, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Refusal {
            offset,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

/// Checks a `matching` pattern: it compiles with regex-lite and uses only constructs every
/// schema consumer reads the same way.
pub(crate) fn vet(p: &str) -> Result<(), Refusal> {
    if let Err(e) = regex_lite::Regex::new(p) {
        let first = e.to_string();
        let first = first.lines().last().unwrap_or_default().trim().to_owned();
        return Err(Refusal::new(
            None,
            format!("the regex `{p}` does not compile: {first}"),
            "write a regex-lite regex (https://docs.rs/regex-lite), e.g. `^[a-z][a-z0-9-]*$`",
        ));
    }
    let chars: Vec<char> = p.chars().collect();
    let (mut in_class, mut negated) = (false, false);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                let Some(&e) = chars.get(i + 1) else { break };
                match e {
                    'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' => {
                        let ascii = match e {
                            'd' => "[0-9]",
                            'D' => "[^0-9\\n]",
                            'w' => "[A-Za-z0-9_]",
                            'W' => "[^A-Za-z0-9_\\n]",
                            's' => "[ \\t\\r]",
                            'S' => "[^ \\t\\r\\n]",
                            _ => "an explicit class on each side",
                        };
                        // JavaScript's `\s` is Unicode; its `\d \w \b` are ASCII, even
                        // under ajv's `u` flag. Python's and Rust `regex`'s are all Unicode.
                        let readers = if matches!(e, 's' | 'S') {
                            "is Unicode in Python and JavaScript but ASCII in the Rust check"
                        } else {
                            "is Unicode in Python (and in Rust's `regex`, under Pydantic) but ASCII in JavaScript and the Rust check"
                        };
                        return Err(Refusal::new(
                            Some(i),
                            format!("`\\{e}` in the regex `{p}` {readers}"),
                            format!("write the ASCII class you mean: {ascii}"),
                        ));
                    }
                    'n' if negated => {}
                    'n' | 'x' | 'u' | 'U' => {
                        return Err(Refusal::new(
                            Some(i),
                            format!("`\\{e}` in the regex `{p}`: a pattern names its characters literally"),
                            "write the characters themselves in a class, e.g. `[a-z]`; a line feed may not be matched",
                        ));
                    }
                    _ => {}
                }
                i += 2;
                continue;
            }
            '[' if !in_class => {
                in_class = true;
                negated = chars.get(i + 1) == Some(&'^');
                if negated && !class_has_lf(&chars[i + 2..]) {
                    return Err(Refusal::new(
                        Some(i),
                        format!("the negated class in the regex `{p}` also matches a line feed"),
                        "list what the class allows instead, or exclude the line feed too: `[^/\\n]`",
                    ));
                }
                i += 1;
                // A `]` first in a class is a literal.
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
                continue;
            }
            ']' if in_class => (in_class, negated) = (false, false),
            '.' if !in_class => {
                return Err(Refusal::new(
                    Some(i),
                    format!("`.` in the regex `{p}` stops at different characters in Rust, Python and JavaScript"),
                    "write the characters you mean as a class, e.g. `[a-z0-9]`, or `\\.` for a dot",
                ));
            }
            '(' if !in_class
                && chars.get(i + 1) == Some(&'?')
                && chars.get(i + 2) != Some(&':') =>
            {
                return Err(Refusal::new(
                    Some(i),
                    format!("inline flags in the regex `{p}` are not JavaScript"),
                    "spell the cases out, e.g. `[Aa]`, and use `(?:..)` for a group",
                ));
            }
            '\n' => {
                return Err(Refusal::new(
                    Some(i),
                    format!("the regex `{p}` holds a line feed"),
                    "a pattern may not match a line feed",
                ));
            }
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Whether the class body starting at `rest` (after `[^`) lists `\n` (itself, or within
/// `\s`, which every engine reads as including it).
fn class_has_lf(rest: &[char]) -> bool {
    let mut i = usize::from(rest.first() == Some(&']'));
    while i < rest.len() && rest[i] != ']' {
        if rest[i] == '\\' {
            if matches!(rest.get(i + 1), Some(&'n' | &'s')) {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// Whether the pattern has an end anchor `$` (outside a class, not escaped).
pub(crate) fn end_anchored(p: &str) -> bool {
    let mut in_class = false;
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => in_class = true,
            ']' => in_class = false,
            '$' if !in_class => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn end_anchor_is_a_bare_dollar_only() {
        assert!(end_anchored("^[a-z]+$"));
        assert!(end_anchored("^(?:a|b$)"));
        assert!(!end_anchored("^[$]+"));
        assert!(!end_anchored("^\\$[0-9]+"));
        assert!(!end_anchored("^[a-z]+"));
    }

    #[test]
    fn what_may_match_a_line_feed_is_refused() {
        let at = |p: &str| vet(p).err().map(|r| (r.offset, r.message));
        assert!(vet("^[^/\\n]+$").is_ok());
        assert!(vet("^[\\^a]+$").is_ok());
        assert!(vet("^\\.[a-z]+$").is_ok());
        assert_eq!(at("^a\\nb$").unwrap().0, Some(2));
        assert_eq!(at("^\\x0a$").unwrap().0, Some(1));
        // regex-lite has no Unicode classes: `\p{..}` does not compile.
        assert_eq!(at("^\\p{L}+$").unwrap().0, None);
        assert_eq!(at("^[^a]$").unwrap().0, Some(1));
        assert_eq!(at("^[^a]\n$").unwrap().0, Some(1));
        assert_eq!(at("^a\nb$").unwrap().0, Some(2));
        assert_eq!(at("^[a-z+$").unwrap().0, None);
        // `\s` excludes the line feed from a negated class: what is refused is `\s` itself
        // (issue 23, item 3), not "may match a line feed".
        assert_eq!(
            at("^[^\\s/?#]+$").unwrap(),
            (
                Some(3),
                "`\\s` in the regex `^[^\\s/?#]+$` is Unicode in Python and JavaScript but ASCII in the Rust check".to_owned()
            )
        );
    }
}
