//! One function per rule. `#[derive(Validate)]` only wires fields to these functions.
//!
//! Every function takes the value (and, for list rules, accessors for the item fields it
//! compares; where a message names a field, the value or accessor comes [`Named`]), the
//! [`Path`](crate::Path) of the value, the limit where the rule has one, the violation
//! code and the [`Report`](crate::Report) to push to. None of them allocates unless it records a violation
//! (or, for [`unique_by`] and [`contradiction`], the list has more than
//! [`SMALL_LIST`] items).
//!
//! Field shapes are abstracted by [`TextField`] (`String`, `&str`, `Option<String>`, ...),
//! [`IntegerField`] (`u32`, `i64`, `Option<i32>`, ...) and [`ListField`] (`Vec<T>`, slices, `Option<Vec<T>>`, ...); a `None` is never checked.
//!
//! The rules come in families, one file each: text (`non_blank`, `max_chars`, `min_chars`, `equals`,
//! `pattern`, `relative_path`, `format`), integers (`range`), lists (`max_items`, `min_items`, `max_items_per_group`, `unique_by`,
//! `unique`, `contradiction`), presence (`required`, `required_if`), fields of one struct
//! compared (`not_equal`, `not_contains`), their order (`order`), content digests (`digest`) and the compact-JSON
//! byte cap (`max_json_bytes`). All are re-exported here.

use core::fmt::Display;

/// A violation message that starts with the dotted path `at`, written into a string sized
/// for it up front (`format!` would start small and grow).
macro_rules! message {
    ($at:expr, $($fmt:tt)*) => {{
        use core::fmt::Write as _;
        let at: &str = $at;
        let mut out = String::with_capacity(at.len() * 2 + 64);
        // Writing to a String cannot fail.
        let _ = write!(out, $($fmt)*);
        out
    }};
}

mod cross;
mod decimal;
mod dfa;
mod digest;
mod fields;
mod format;
mod guarded;
mod json;
pub(crate) mod list;
mod number;
mod order;
mod required;
mod text;

pub use cross::{not_contains, not_equal};
pub use decimal::{decimal_range, scale, DecimalBounds, DecimalField};
pub use digest::{digest, ByteCount, DigestFields, Streamed, StreamedData};
pub use fields::{IntegerField, ListField, NumberField, TextField};
pub use format::{format, Format};
pub(crate) use guarded::When;
pub use guarded::{absent, any_of, compare, given_count, one_of, Compare, Num};
pub use json::{json_bytes, max_json_bytes};
pub use list::{
    contradiction, fold_eq, max_items, max_items_per_group, max_items_per_group_named, min_items,
    unique, unique_by, Fold, KeyMember, KeyValue, Pair, TextOf, UniqueKeys,
};
pub use number::{number_range, number_text, range, Bounds, NumberBounds};
pub use order::{order, OrderField, Ordered};
pub use required::{required, required_if, required_when, Filled};
pub use text::{
    char_count, equals, is_blank, max_chars, min_chars, non_blank, pattern, relative_path,
    relative_path_problem, Pattern,
};

/// A rule's operand paired with the bare name of the field it was read from, for the rules
/// whose messages or paths name a field (`not_equal`'s two sides, `not_contains`'s list and
/// value, `required_if`'s sibling, `contradiction`'s value accessor).
///
/// ```
/// use specmint_runtime::rules::{self, Named};
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::default();
/// let (from, to) = ("planner", "planner");
/// rules::not_equal(
///     Named { name: "from_role", value: from },
///     Named { name: "to_role", value: to },
///     &Path::ROOT,
///     "same_role",
///     &mut report,
/// );
/// assert_eq!(report.as_slice()[0].message, "`to_role` must differ from `from_role` (both `planner`)");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Named<'n, T> {
    /// The field's bare name (`from_role`), as paths and messages show it.
    pub name: &'n str,
    /// The field's value, or for a list rule the accessor that reads it from an item.
    pub value: T,
}

/// A value as a message quotes it, for [`Violation::expected`](crate::Violation::expected):
/// `` `v` ``.
pub(crate) fn quoted(v: impl Display) -> String {
    format!("`{v}`")
}

/// The template detail of a rule under a condition (`` `category` is `E` ``,
/// `` any `lines[].category` is `S` or `AE` ``, as the condition's text says it).
pub(crate) trait Detail {
    /// `{other}` is the condition's path (its first code span); with `values`, `{expected}`
    /// is the values it names (the other code spans), unless it is negated (`is not`).
    fn with_condition(self, when: Option<&dyn Display>, values: bool) -> Self;
}

impl Detail for crate::Violation {
    fn with_condition(mut self, when: Option<&dyn Display>, values: bool) -> Self {
        let Some(when) = when else { return self };
        let text = when.to_string();
        let mut spans = text.split('`').skip(1).step_by(2);
        if let Some(path) = spans.next() {
            self.other = path.to_owned();
        }
        // Negated by the condition's own words, not by a value that holds them.
        let negated = text
            .split('`')
            .step_by(2)
            .any(|words| words.contains(" is not "));
        if values && !negated {
            let rest: Vec<String> = spans.map(quoted).collect();
            self.expected = rest.join(", ");
        }
        self
    }
}

/// Lists longer than this are checked by [`unique_by`] and [`contradiction`] with a hash
/// map (which allocates); shorter ones pairwise, without allocating.
pub const SMALL_LIST: usize = 64;

/// A count as a violation's `measured` / `limit`.
pub(crate) fn n(x: usize) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// Longest prefix of a value (in chars) that messages quote; longer values end in `…`.
pub const SHOWN_CHARS: usize = 64;

/// `s` as messages quote it: at most [`SHOWN_CHARS`] chars, then `…` if it was longer.
pub(crate) fn shown(s: &str) -> Shown<'_> {
    Shown(s, SHOWN_CHARS)
}

/// A value quoted in a message, cut to a number of chars (see [`shown`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shown<'a>(pub(crate) &'a str, pub(crate) usize);

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.char_indices().nth(self.1) {
            Some((cut, _)) => {
                f.write_str(&self.0[..cut])?;
                f.write_str("…")
            }
            None => f.write_str(self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{shown, Detail};
    use crate::{Path, Violation};

    #[test]
    fn shown_cuts_at_64_chars() {
        assert_eq!(shown("abc").to_string(), "abc");
        assert_eq!(shown(&"a".repeat(64)).to_string(), "a".repeat(64));
        assert_eq!(
            shown(&"😀".repeat(65)).to_string(),
            format!("{}…", "😀".repeat(64))
        );
    }

    fn detail(when: &str) -> (String, String) {
        let v = Violation::new("c", &Path::ROOT, String::new())
            .with_condition(Some(&when as &dyn core::fmt::Display), true);
        (v.other, v.expected)
    }

    /// `{other}` is the condition's path, `{expected}` its values; a negated condition names
    /// none, and only the condition's words negate it, not a value that holds them.
    #[test]
    fn a_condition_gives_its_path_and_values_unless_its_words_negate_it() {
        assert_eq!(
            detail("`category` is `E` or `AE`"),
            ("category".to_owned(), "`E`, `AE`".to_owned())
        );
        assert_eq!(
            detail("`category` is not `E`"),
            ("category".to_owned(), String::new())
        );
        assert_eq!(
            detail("`note` is `it is not here`"),
            ("note".to_owned(), "`it is not here`".to_owned())
        );
    }
}
