//! Rules on one text value.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::path::Path;
use crate::report::{Report, Violation};

use super::dfa::Dfa;
use super::{n, quoted, shown, TextField};

/// `true` when `s` is empty after trimming Unicode whitespace (U+3000 alone is blank).
pub fn is_blank(s: &str) -> bool {
    // What `s.trim().is_empty()` says, stopping at the first char that is not whitespace
    // (almost always the first) instead of trimming from both ends.
    s.chars().all(char::is_whitespace)
}

/// Number of Unicode scalar values, on the untrimmed value.
pub fn char_count(s: &str) -> usize {
    s.chars().count()
}

/// `blank_field`-style rule: the text must not be blank. `None` passes.
///
/// Message: `` `audience[1]` must not be blank ``.
#[inline]
pub fn non_blank<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    non_blank_text(value.text(), path, code, report);
}

// The generic rules are thin shells over non-generic cores, so a crate deriving `Validate` on
// many structs compiles each rule's body once, here, not once per field type.
fn non_blank_text(text: Option<&str>, path: &Path<'_>, code: &str, report: &mut Report) {
    if let Some(s) = text {
        if is_blank(s) {
            report.push_with(|| {
                Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                    message!(at, "`{at}` must not be blank")
                })
            });
        }
    }
}

/// The text must have at most `max` chars (Unicode scalar values, untrimmed). `None` passes.
///
/// Message: `` `constraints[3].text` is 240 chars (max 200) ``.
#[inline]
pub fn max_chars<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) {
    max_chars_text(value.text(), path, max, code, report);
}

fn max_chars_text(
    text: Option<&str>,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = text else { return };
    // At most 4 bytes per char: a short string cannot be too long.
    if s.len() <= max {
        return;
    }
    let count = char_count(s);
    if count > max {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` is {count} chars (max {max})")
            })
            .with_numbers(n(count), n(max))
        });
    }
}

/// The text must have at least `min` chars (Unicode scalar values, untrimmed). `None`
/// passes.
///
/// Message: `` `name` is 2 chars (min 3) ``.
#[inline]
pub fn min_chars<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    min: usize,
    code: &str,
    report: &mut Report,
) {
    min_chars_text(value.text(), path, min, code, report);
}

fn min_chars_text(
    text: Option<&str>,
    path: &Path<'_>,
    min: usize,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = text else { return };
    // At least one byte per char: a string of `min` bytes or fewer may be short.
    if s.len() >= min.saturating_mul(4) {
        return;
    }
    let count = char_count(s);
    if count < min {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` is {count} chars (min {min})")
            })
            .with_numbers(n(count), n(min))
        });
    }
}

/// The text must equal `expected` exactly (no trimming, case-sensitive). `None` passes.
///
/// Message: `` `protocol_version` is `0.2`, expected `0.1` `` (the actual value cut to
/// [`SHOWN_CHARS`](super::SHOWN_CHARS) chars).
pub fn equals<V: TextField + ?Sized>(
    value: &V,
    expected: &str,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    if s != expected {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` is `{}`, expected `{expected}`", shown(s))
            })
            .with_expected(quoted(expected))
        });
    }
}

/// A regular expression for [`pattern`], compiled on first use and kept for the life of
/// the program. Declare one per call site as a `static`:
///
/// ```
/// use specmint_runtime::rules::{self, Pattern};
/// use specmint_runtime::{Path, Report};
///
/// static ID: Pattern = Pattern::new("^pkg_[a-z]+$");
/// let mut report = Report::new();
/// rules::pattern("pkg_", &ID, &Path::ROOT.field("id"), "pattern_mismatch", &mut report);
/// assert_eq!(report.to_string(), "pattern_mismatch: `id` `pkg_` does not match `^pkg_[a-z]+$`");
/// ```
///
/// The syntax is `regex-lite`'s (Perl-like, Unicode-aware, no look-around); the regex is
/// anchored only by its own `^` and `$`. `#[derive(Validate)]` checks it at compile time.
#[derive(Debug)]
pub struct Pattern {
    source: Cow<'static, str>,
    compiled: OnceLock<Option<Matcher>>,
}

/// A compiled [`Pattern`]: a DFA where the pattern is in [`dfa`]'s subset (anchored, ASCII
/// literals and classes), else `regex-lite`'s matcher. The same language either way.
#[derive(Debug)]
enum Matcher {
    Dfa(Dfa),
    Regex(regex_lite::Regex),
}

impl Pattern {
    /// A pattern that is compiled the first time it is used.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source: Cow::Borrowed(source),
            compiled: OnceLock::new(),
        }
    }

    /// [`Pattern::new`] of a regular expression read at run time (a spec loaded by
    /// specmint-codegen's interpreter), which the pattern owns.
    pub fn from_string(source: String) -> Self {
        Pattern {
            source: Cow::Owned(source),
            compiled: OnceLock::new(),
        }
    }

    /// The regular expression as written.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// `Some(true)` when `s` matches, `None` when the pattern is not a valid regex.
    pub fn is_match(&self, s: &str) -> Option<bool> {
        // `regex-lite` decides what is a valid pattern, and so what is refused as one.
        let compile = || {
            let re = regex_lite::Regex::new(&self.source).ok()?;
            Some(Dfa::compile(&self.source).map_or(Matcher::Regex(re), Matcher::Dfa))
        };
        self.compiled
            .get_or_init(compile)
            .as_ref()
            .map(|m| match m {
                Matcher::Dfa(dfa) => dfa.is_match(s),
                Matcher::Regex(re) => re.is_match(s),
            })
    }
}

/// The text must match `pattern` (anchored only by the pattern's own `^`/`$`). `None`
/// passes. After the first call through a given [`Pattern`], checking allocates nothing.
///
/// Message: `` `package_id` `pkg_` does not match `^pkg_[A-Za-z0-9_-]{1,63}$` `` (the value
/// cut to [`SHOWN_CHARS`](super::SHOWN_CHARS) chars). A pattern that does not compile (the derive refuses those
/// at compile time) gives `` `package_id` cannot be checked: `(` is not a valid regex ``.
pub fn pattern<V: TextField + ?Sized>(
    value: &V,
    pattern: &Pattern,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    let matched = pattern.is_match(s);
    if matched == Some(true) {
        return;
    }
    let source = pattern.source();
    report.push_with(|| {
        Violation::with_message(
            crate::report::Code::copy_of(code),
            path,
            |at| match matched {
                Some(_) => message!(at, "`{at}` `{}` does not match `{source}`", shown(s)),
                None => message!(
                    at,
                    "`{at}` cannot be checked: `{source}` is not a valid regex"
                ),
            },
        )
        .with_expected(quoted(source))
    });
}

/// Why `s` is not a safe relative path, if it is not: `"is empty"`, `"is absolute"` (starts
/// with `/` or `\`, or with a drive letter and `:` as in `C:\x`, `C:/x`, `C:x`), or
/// `` "contains `..`" `` (a segment, split on `/` and `\`, equal to `..`).
pub fn relative_path_problem(s: &str) -> Option<&'static str> {
    let b = s.as_bytes();
    if b.is_empty() {
        Some("is empty")
    } else if b[0] == b'/'
        || b[0] == b'\\'
        || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
    {
        Some("is absolute")
    } else if s.split(['/', '\\']).any(|seg| seg == "..") {
        Some("contains `..`")
    } else {
        None
    }
}

/// The text must be a relative path that cannot leave its base: not empty, not absolute,
/// no `..` segment (see [`relative_path_problem`]). `None` passes.
///
/// Message: `` `payload.logical_path` `../x` must be a relative path without `..` (it contains `..`) ``,
/// likewise `(it is absolute)` and `(it is empty)`; the value cut to [`SHOWN_CHARS`](super::SHOWN_CHARS) chars.
pub fn relative_path<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    if let Some(problem) = relative_path_problem(s) {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(
                    at,
                    "`{at}` `{}` must be a relative path without `..` (it {problem})",
                    shown(s)
                )
            })
        });
    }
}
