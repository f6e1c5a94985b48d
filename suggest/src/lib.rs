//! "Did you mean" for spec and attribute mistakes: the known word closest to a misspelt one.
//!
//! Used at build time by `specmint-codegen` (types, tables, units, sidecar keys) and by
//! `#[derive(Validate)]` (rule names). It is a crate of its own because a proc-macro crate
//! exports only macros and the runtime re-exports the derive, so neither the derive nor the
//! runtime can depend on the other for it. For the same reason it also holds [`words`], the
//! one way a type's name reads in a message, which the derive and codegen's interpreter must
//! spell alike.

/// The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
/// swaps of two neighbours, counted on chars, ASCII case ignored), if it is close enough to be
/// a likely misspelling: at most one edit for words of up to three chars, else at most a
/// third of the word's length. The first of equally close candidates wins; `word` itself
/// (and anything for an empty word) is never suggested.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = |s: &str| -> Vec<char> { s.chars().map(|c| c.to_ascii_lowercase()).collect() };
    let folded = lower(word);
    if folded.is_empty() {
        return None;
    }
    let most = (folded.len() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word {
            continue;
        }
        let d = distance(&folded, &lower(candidate));
        if d <= most && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Optimal string alignment distance between `a` and `b`.
fn distance(a: &[char], b: &[char]) -> usize {
    // Three rows: the one before the previous (for swaps), the previous and the current.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// A Rust type name as words in a message: `TaskEnvelope` → `task envelope`, `HTTPServer` →
/// `http server`, `task_packet` → `task packet`.
#[must_use]
pub fn words(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
            continue;
        }
        if c.is_uppercase() && i > 0 && !out.is_empty() && !out.ends_with(' ') {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(' ');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_name_as_words() {
        for (name, expected) in [
            ("TaskEnvelope", "task envelope"),
            ("HTTPServer", "http server"),
            ("task_packet", "task packet"),
            ("Doc", "doc"),
            ("V2Payload", "v2 payload"),
            ("Payload2Body", "payload2 body"),
            ("__Lead", "lead"),
            ("ÉtatFinal", "état final"),
        ] {
            assert_eq!(words(name), expected, "{name}");
        }
    }

    #[test]
    fn the_closest_known_word_within_a_third_of_the_length() {
        let units = ["chars", "bytes", "items"];
        assert_eq!(did_you_mean("chrs", units), Some("chars"));
        assert_eq!(did_you_mean("char", units), Some("chars"));
        assert_eq!(did_you_mean("itmes", units), Some("items"));
        assert_eq!(did_you_mean("Bytes", units), Some("bytes"));
        assert_eq!(did_you_mean("glyphs", units), None);
        assert_eq!(did_you_mean("chars", units), None);
        // Three edits in nine chars: a third.
        assert_eq!(did_you_mean("strng", ["string", "stringy"]), Some("string"));
        assert_eq!(
            did_you_mean("max_chrs", ["max_chars", "max_items"]),
            Some("max_chars")
        );
        assert_eq!(did_you_mean("abcdefxyz", ["abcdef"]), Some("abcdef"));
        assert_eq!(did_you_mean("abcdefwxyz", ["abcdef"]), None);
        assert_eq!(did_you_mean("x", ["y", "xy"]), Some("y"));
        assert_eq!(did_you_mean("", ["a"]), None);
    }

    #[test]
    fn distance_counts_a_swap_as_one_edit() {
        let d = |a: &str, b: &str| {
            distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("ab", "ba"), 1);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("字元", "字"), 1);
    }
}
