//! Violations and the report that collects them.

use core::fmt;

mod code;
pub use code::Code;

use crate::path::Path;
use crate::rules::{Streamed, StreamedData};

/// One broken rule.
///
/// Its fields are read directly; it is built through [`Violation::new`],
/// [`Violation::with_message`] or [`Violation::from_parts`] (`#[non_exhaustive]`: fields may
/// be added without breaking callers).
///
/// It serializes as one member of the `errors` array of `specmint validate --format json`
/// (which adds `line` and `column`, found in the input file): `code`, `path`, `pointer`,
/// `message`, and `measured` and `limit` where the rule has numbers. Its `Display` is
/// `code: message`.
///
/// Two more fields, [`expected`](Violation::expected) and [`other`](Violation::other), carry
/// a rule's detail for message templates in other languages (`{expected}`, `{other}`, see
/// the module `messages` under the feature `messages`); they are not serialized, so
/// the JSON above is unchanged, and equality ignores them (they are derived from the same
/// rule as the message).
///
/// ```
/// use specmint_runtime::{Path, Violation};
///
/// let v = Violation::new("too_long", &Path::ROOT.field("title"), "`title` is 9 chars (max 8)".into())
///     .with_numbers(9, 8);
/// assert_eq!(
///     serde_json::to_string(&v).unwrap(),
///     r#"{"code":"too_long","path":"title","pointer":"/title","message":"`title` is 9 chars (max 8)","measured":9,"limit":8}"#
/// );
/// assert_eq!(v.to_string(), "too_long: `title` is 9 chars (max 8)");
/// ```
#[derive(Clone, Debug, serde::Serialize)]
#[non_exhaustive]
pub struct Violation {
    /// Stable machine-readable code, e.g. `field_too_long`: borrowed where it is a
    /// `&'static str` (generated code, `#[derive(Validate)]`), a copy where it was read at run
    /// time (a spec loaded by specmint-codegen's interpreter), inline when short. It reads as
    /// a `&str` and serializes as the string ([`Code`]).
    pub code: Code,
    /// Dotted/indexed path (`constraints[3].text`); `""` for the document.
    pub path: String,
    /// RFC 6901 pointer (`/constraints/3/text`); `""` for the document.
    pub pointer: String,
    /// Human-readable message naming the item.
    pub message: String,
    /// The measured quantity (chars, items, bytes) where the rule has numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured: Option<u64>,
    /// The limit where the rule has numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The expected value(s) as the English message writes them: an enum's or a value set's
    /// values (`` `a`, `b`, `c` ``), a constant (`` `0.1` ``), a pattern (`` `^[a-z]+$` ``), a
    /// format's name, a bound (`0`), the value of [`other`](Violation::other) a rule depends
    /// on; `""` when the rule has none. Not serialized.
    #[serde(skip)]
    pub expected: String,
    /// The other field(s) of a cross-field rule, as dotted paths (`from_role`,
    /// `lines[2].net`), several joined by `, ` (a group of `any_of` / `one_of`); `""` when
    /// the rule has none. Not serialized.
    #[serde(skip)]
    pub other: String,
}

impl PartialEq for Violation {
    /// Equal when what they report is: code, path, pointer, message and numbers (the
    /// template detail `expected` and `other` follows from the same rule).
    fn eq(&self, o: &Self) -> bool {
        self.code == o.code
            && self.path == o.path
            && self.pointer == o.pointer
            && self.message == o.message
            && self.measured == o.measured
            && self.limit == o.limit
    }
}

impl Eq for Violation {}

impl Violation {
    /// A violation at `path`, rendering the path in both notations. `code` is a
    /// `&'static str`, an owned `String` or a [`Code`].
    pub fn new(code: impl Into<Code>, path: &Path<'_>, message: String) -> Self {
        Self::with_message(code, path, |_| message)
    }

    /// A violation at `path` whose message is written from the dotted path, which is
    /// rendered once for both: `Violation::with_message(code, path, |at| format!("`{at}` …"))`.
    pub fn with_message(
        code: impl Into<Code>,
        path: &Path<'_>,
        message: impl FnOnce(&str) -> String,
    ) -> Self {
        let (dotted, pointer) = path.render();
        Violation {
            code: code.into(),
            message: message(&dotted),
            path: dotted,
            pointer,
            measured: None,
            limit: None,
            expected: String::new(),
            other: String::new(),
        }
    }

    /// A violation whose path is already rendered: `path` in dotted notation, `pointer` as
    /// RFC 6901 (both `""` for the document), e.g. for a location found while scanning
    /// input rather than walking a value.
    pub fn from_parts(
        code: impl Into<Code>,
        path: String,
        pointer: String,
        message: String,
    ) -> Self {
        Violation {
            code: code.into(),
            path,
            pointer,
            message,
            measured: None,
            limit: None,
            expected: String::new(),
            other: String::new(),
        }
    }

    /// Adds the measured value and the limit.
    pub fn with_numbers(mut self, measured: u64, limit: u64) -> Self {
        self.measured = Some(measured);
        self.limit = Some(limit);
        self
    }

    /// Adds the expected value(s) ([`Violation::expected`]).
    pub fn with_expected(mut self, expected: impl Into<String>) -> Self {
        self.expected = expected.into();
        self
    }

    /// Adds the other field(s) ([`Violation::other`]).
    pub fn with_other(mut self, other: impl Into<String>) -> Self {
        self.other = other.into();
        self
    }
}

impl fmt::Display for Violation {
    /// `code: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// Every violation found, in document order: the order of the spec's field tables, which is
/// the order of the type's fields, whatever order the input's keys came in. Within a field:
/// its presence, its list's counts, each item's rules (item by item), then the rules that
/// compare its items; a struct's own rules (two fields that must differ, a digest, a byte
/// cap) after all its fields, so the document's byte cap comes last. The same input always
/// gives the same list. Its `Display` prints one violation per line, `code: message`.
///
/// Two reports are equal when their violations are. The violations are read through
/// [`Report::iter`], [`Report::as_slice`] or [`Report::into_vec`] (or by iterating the report).
///
/// It serializes as `specmint validate --format json` prints a verdict, without the `type`
/// member (the CLI's, naming the document type) and the `line` / `column` of each error
/// (found in the input file): `{"valid": bool, "errors": [..]}`, each error a [`Violation`].
///
/// ```
/// use specmint_runtime::{rules, Path, Report, Validate};
///
/// struct Note { title: String, tags: Vec<String> }
///
/// impl Validate for Note {
///     fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
///         rules::non_blank(&self.title, &path.field("title"), "blank", report);
///         rules::max_items(&self.tags, &path.field("tags"), 1, "too_many", report);
///     }
/// }
///
/// let report = Note { title: " ".into(), tags: vec!["a".into(), "b".into()] }
///     .validate()
///     .unwrap_err();
/// assert_eq!(
///     report.to_string(),
///     "blank: `title` must not be blank\ntoo_many: `tags` has 2 items (max 1)"
/// );
/// assert_eq!(report.codes().collect::<Vec<_>>(), ["blank", "too_many"]);
/// assert_eq!(
///     serde_json::to_value(&report).unwrap(),
///     serde_json::json!({"valid": false, "errors": [
///         {"code": "blank", "path": "title", "pointer": "/title",
///          "message": "`title` must not be blank"},
///         {"code": "too_many", "path": "tags", "pointer": "/tags",
///          "message": "`tags` has 2 items (max 1)", "measured": 2, "limit": 1},
///     ]})
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The violations, in the order they were found.
    violations: Vec<Violation>,
    /// A proven upper bound on the compact JSON length of the value being validated.
    json_bytes_at_most: Option<u64>,
    /// Digest facts of data decoded elsewhere, for the digest rule.
    streamed: Option<Box<StreamedData>>,
    /// Keep only whether anything was violated ([`Report::verdict_only`]).
    verdict_only: bool,
    /// A violation was recorded in a verdict-only report.
    refused: bool,
}

impl PartialEq for Report {
    fn eq(&self, other: &Self) -> bool {
        self.violations == other.violations
    }
}

impl Eq for Report {}

impl Report {
    /// An empty report (does not allocate).
    pub const fn new() -> Self {
        Report {
            violations: Vec::new(),
            json_bytes_at_most: None,
            streamed: None,
            verdict_only: false,
            refused: false,
        }
    }

    /// A report holding `violations`.
    pub const fn from_violations(violations: Vec<Violation>) -> Self {
        Report {
            violations,
            json_bytes_at_most: None,
            streamed: None,
            verdict_only: false,
            refused: false,
        }
    }

    /// Tells the rules that the value about to be validated is at most `bytes` long as
    /// compact JSON, and so is every part of it (a part's JSON is a slice of the whole's).
    /// A `max_json_bytes` rule whose cap is at least `bytes` then passes without measuring.
    /// [`parse_document`](crate::document::parse_document) sets this from the input's
    /// length and the document's
    /// [`canonical_growth`](crate::document::DocumentSpec::canonical_growth). A bound that
    /// is too small lets oversized values through.
    pub fn assume_json_bytes_at_most(&mut self, bytes: u64) {
        self.json_bytes_at_most = Some(bytes);
    }

    /// An empty report whose validation reads the digest facts of `streamed` for the structs
    /// it names, instead of decoding their data fields (see [`StreamedData`]).
    pub fn with_streamed(streamed: StreamedData) -> Self {
        Report {
            streamed: (!streamed.is_empty()).then(|| Box::new(streamed)),
            ..Report::new()
        }
    }

    /// The digest facts given for the struct at `path` ([`Report::with_streamed`]).
    pub(crate) fn streamed(&self, path: &Path<'_>) -> Option<Streamed> {
        self.streamed.as_ref()?.get(path)
    }

    /// Whether the value being validated is known to be at most `max` bytes as compact JSON
    /// (a byte cap of `max` needs no measuring).
    pub(crate) fn json_bytes_within(&self, max: usize) -> bool {
        self.json_bytes_at_most
            .is_some_and(|bound| bound <= u64::try_from(max).unwrap_or(u64::MAX))
    }

    /// An empty report that keeps only whether anything was violated: the rules' violations
    /// are never built (no path rendered, no message written), and it holds none. For a
    /// caller that needs only the verdict
    /// ([`accepted_document`](crate::document::accepted_document)); every rule still runs.
    pub(crate) fn verdict_only(streamed: StreamedData) -> Self {
        Report {
            verdict_only: true,
            ..Report::with_streamed(streamed)
        }
    }

    /// Records a violation.
    pub fn push(&mut self, violation: Violation) {
        self.push_with(|| violation);
    }

    /// Records the violation `build` makes, built only where the report keeps violations
    /// (the rules' way to push: a verdict-only report renders nothing).
    pub(crate) fn push_with(&mut self, build: impl FnOnce() -> Violation) {
        if self.verdict_only {
            self.refused = true;
        } else {
            self.violations.push(build());
        }
    }

    /// `true` when nothing was violated.
    pub fn is_empty(&self) -> bool {
        !self.refused && self.violations.is_empty()
    }

    /// Number of violations kept (none in the verdict-only report of
    /// [`accepted_document`](crate::document::accepted_document), which keeps only
    /// [`Report::is_empty`]).
    pub fn len(&self) -> usize {
        self.violations.len()
    }

    /// The violations, in document order.
    pub fn iter(&self) -> core::slice::Iter<'_, Violation> {
        self.violations.iter()
    }

    /// The violations, in document order, as a slice.
    pub fn as_slice(&self) -> &[Violation] {
        &self.violations
    }

    /// The violations, in document order, taken out of the report.
    pub fn into_vec(self) -> Vec<Violation> {
        self.violations
    }

    /// The codes of the violations, in document order (each a copy of [`Violation::code`],
    /// which allocates nothing for a short or `&'static str` code, so the list can outlive
    /// the report).
    pub fn codes(&self) -> impl Iterator<Item = Code> + '_ {
        self.violations.iter().map(|v| v.code.clone())
    }
}

impl fmt::Display for Report {
    /// One violation per line, `code: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for Report {
    /// `{"valid": bool, "errors": [..]}`: the CLI's JSON verdict without `type`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut verdict = serializer.serialize_struct("Report", 2)?;
        verdict.serialize_field("valid", &self.is_empty())?;
        verdict.serialize_field("errors", &self.violations)?;
        verdict.end()
    }
}

impl std::error::Error for Report {}

impl<'r> IntoIterator for &'r Report {
    type Item = &'r Violation;
    type IntoIter = core::slice::Iter<'r, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.violations.iter()
    }
}

impl IntoIterator for Report {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.violations.into_iter()
    }
}
