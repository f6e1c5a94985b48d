//! Document entry point: bytes in, a validated value or a [`Report`] out.
//!
//! Generated code for each spec calls [`parse_document`] (or [`parse_document_str`]) with its
//! own [`DocumentSpec`] constant. Every refusal is a [`Report`] whose violations carry the
//! same `code` / `path` / `pointer` / `message` fields as the validation rules, so callers
//! handle "not JSON", "wrong shape", "forbidden key" and "rule broken" uniformly.
//!
//! [`locate`] and [`locate_key`] turn a violation's RFC 6901 pointer back into a 1-based
//! line and column of the input, for editors and error listings. Their columns count chars;
//! the `line L column C` that `serde_json` puts in parse-error messages counts bytes.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::json::Json;
use crate::shape::Shapes;
use crate::strict::Strict;
use crate::{Path, Report, Validate, Violation};

/// How one kind of document is parsed: its name in messages, its error codes, the keys it
/// refuses anywhere, and its input size limit.
///
/// Built with [`DocumentSpec::new`] and the `with_*` methods, all `const fn`, so a spec is a
/// `const`; the fields are read directly (`#[non_exhaustive]`: fields may be added without
/// breaking callers).
///
/// ```
/// use specmint_runtime::document::{DocumentSpec, Extract, DEFAULT_MAX_INPUT_BYTES};
///
/// const REPLY: DocumentSpec = DocumentSpec::new("reply", "invalid_reply")
///     .with_forbidden_keys(&["transcript"], "forbidden_key")
///     .with_extract(Extract::OutermostObject);
/// assert_eq!(REPLY.max_input_bytes, DEFAULT_MAX_INPUT_BYTES);
/// assert_eq!(REPLY.too_large_code, "invalid_reply");
/// assert_eq!(REPLY.with_too_large_code("reply_too_large").too_large_code, "reply_too_large");
/// assert_eq!(REPLY.with_max_input_bytes(100).max_input_bytes, 100);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DocumentSpec {
    /// What the document is called in messages, e.g. `"packet"`.
    pub name: &'static str,
    /// Code of every violation that means "this input could not be parsed", e.g.
    /// `"invalid_packet"`.
    pub parse_error_code: &'static str,
    /// Object keys refused anywhere in the document, at any depth (exact, case-sensitive).
    pub forbidden_keys: &'static [&'static str],
    /// Code of the violation reported for each forbidden key found.
    pub forbidden_key_code: &'static str,
    /// Inputs longer than this many bytes are refused before parsing.
    pub max_input_bytes: usize,
    /// Code of the violation for an input over `max_input_bytes`: a spec's own size code
    /// where it has one (the code of its document byte cap), else `parse_error_code`.
    pub too_large_code: &'static str,
    /// Which part of the input is the document: all of it, or (for text that wraps a JSON
    /// object in prose) the outermost object.
    pub extract: Extract,
    /// How many bytes longer the compact JSON of a document can be than the text it was
    /// read from, when that is known (specmint-codegen works it out from the spec: a
    /// union's bare token is written as its tagged object, for instance). With it, a
    /// document read from `N` bytes is known to be at most `N + growth` bytes as compact
    /// JSON, and `max_json_bytes` rules with a larger cap pass without measuring (see
    /// [`Report::assume_json_bytes_at_most`](crate::Report::assume_json_bytes_at_most)).
    /// `None`: always measure. A bound that is too small lets oversized documents through.
    pub canonical_growth: Option<usize>,
    /// Whether a leading UTF-8 byte order mark is skipped (`true`) or refused (`false`, the
    /// default: JSON does not allow one).
    pub bom_tolerated: bool,
    /// Whether the document can hold members no table lists (open objects, `any` values).
    /// The typed parse accepts those, so forbidden keys are then looked for on every read,
    /// not only when the typed parse fails.
    pub free_members: bool,
    /// The document's shape (specmint-codegen emits it as `SHAPES`): when the typed parse
    /// fails, every other shape problem of the document is reported after serde's message
    /// (see [`parse_document`] step 5). `None`: serde's message only.
    pub shape: Option<&'static Shapes<'static>>,
}

impl DocumentSpec {
    /// A document called `name` in messages, refused with `parse_error_code` when it cannot
    /// be parsed: no forbidden keys, inputs up to [`DEFAULT_MAX_INPUT_BYTES`], the whole
    /// input parsed ([`Extract::Whole`]), byte caps always measured, an input over the size
    /// limit refused with `parse_error_code`.
    pub const fn new(name: &'static str, parse_error_code: &'static str) -> Self {
        DocumentSpec {
            name,
            parse_error_code,
            forbidden_keys: &[],
            forbidden_key_code: parse_error_code,
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            too_large_code: parse_error_code,
            extract: Extract::Whole,
            canonical_growth: None,
            bom_tolerated: false,
            free_members: false,
            shape: None,
        }
    }

    /// Refuses `keys` anywhere in the document, one `code` violation per occurrence.
    #[must_use]
    pub const fn with_forbidden_keys(
        mut self,
        keys: &'static [&'static str],
        code: &'static str,
    ) -> Self {
        self.forbidden_keys = keys;
        self.forbidden_key_code = code;
        self
    }

    /// Refuses inputs longer than `bytes` before parsing.
    #[must_use]
    pub const fn with_max_input_bytes(mut self, bytes: usize) -> Self {
        self.max_input_bytes = bytes;
        self
    }

    /// Refuses an input over the size limit with `code` (a spec's own size code) instead of
    /// `parse_error_code`.
    #[must_use]
    pub const fn with_too_large_code(mut self, code: &'static str) -> Self {
        self.too_large_code = code;
        self
    }

    /// Skips a leading UTF-8 byte order mark instead of refusing it (files written by
    /// Windows tools carry one).
    #[must_use]
    pub const fn with_bom_tolerated(mut self) -> Self {
        self.bom_tolerated = true;
        self
    }

    /// The document holds members no table lists (open objects, `any` values): forbidden
    /// keys are looked for on every read (see [`DocumentSpec::free_members`]).
    #[must_use]
    pub const fn with_free_members(mut self) -> Self {
        self.free_members = true;
        self
    }

    /// When the typed parse fails, reports every shape problem `shape` finds after serde's
    /// message (see [`DocumentSpec::shape`]).
    #[must_use]
    pub const fn with_shape(mut self, shape: &'static Shapes<'static>) -> Self {
        self.shape = Some(shape);
        self
    }

    /// Which part of the input is the document.
    #[must_use]
    pub const fn with_extract(mut self, extract: Extract) -> Self {
        self.extract = extract;
        self
    }

    /// The document's compact JSON is at most `growth` bytes longer than the text it was
    /// read from (see [`DocumentSpec::canonical_growth`]).
    #[must_use]
    pub const fn with_canonical_growth(mut self, growth: usize) -> Self {
        self.canonical_growth = Some(growth);
        self
    }
}

/// Which part of the input [`parse_document`] parses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Extract {
    /// The whole input is the document.
    #[default]
    Whole,
    /// The whole input, or, when it fails the typed parse and is not syntactically valid
    /// JSON at all (prose around an object, e.g. a model's reply), the text from its first
    /// `{` to its last `}`, run through the same pipeline. See [`extracted_range`].
    OutermostObject,
}

/// The byte range of `input` that [`parse_document`] parses instead of the whole input, if
/// any: with [`Extract::OutermostObject`], when `input` is not syntactically valid JSON and
/// holds a `{` followed somewhere by a `}`, the range from the first `{` to the last `}`
/// (inclusive). `None` means the whole input is parsed.
///
/// Violations from an extracted document describe the slice: their paths and pointers are
/// the same as for the slice on its own, and `serde_json`'s `line L column C` and
/// [`locate`] / [`locate_key`] positions count within the slice. To point into the whole
/// input, locate in `&input[range.clone()]` and add the slice's start (its line and column
/// via the text before `range.start`).
///
/// ```
/// use specmint_runtime::document::{extracted_range, DocumentSpec, Extract};
///
/// let spec = DocumentSpec::new("reply", "invalid_reply")
///     .with_max_input_bytes(1024)
///     .with_extract(Extract::OutermostObject);
/// assert_eq!(extracted_range("Sure: {\"a\": 1}. Done.", &spec), Some(6..14));
/// assert_eq!(extracted_range("{\"a\": 1}", &spec), None); // valid JSON: parsed whole
/// assert_eq!(extracted_range("no object here", &spec), None);
/// ```
#[must_use]
pub fn extracted_range(input: &str, spec: &DocumentSpec) -> Option<core::ops::Range<usize>> {
    if spec.extract != Extract::OutermostObject || is_json(input) {
        return None;
    }
    let start = input.find('{')?;
    let end = input.rfind('}')?;
    (start < end).then_some(start..end + 1)
}

/// `true` when `text` is one syntactically valid JSON value (any type), surrounded by
/// whitespace only.
fn is_json(text: &str) -> bool {
    use serde::Deserialize as _;
    let mut de = serde_json::Deserializer::from_str(text);
    de::IgnoredAny::deserialize(&mut de).is_ok() && de.end().is_ok()
}

/// The input size limit generated documents use unless the caller sets another (1 MiB).
/// Larger inputs are refused before any parsing, so memory stays bounded by the limit.
pub const DEFAULT_MAX_INPUT_BYTES: usize = 1 << 20;

/// The canonical form of a document: compact JSON of the value as its type serializes it
/// (generated types write unions tagged and omit optional members holding their default).
///
/// Serialization of types whose map keys are strings cannot fail; if a hand-written type's
/// `Serialize` impl reports an error anyway, its message is returned as a JSON string so the
/// caller still gets JSON.
#[must_use]
pub fn to_canonical_json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value)
        .unwrap_or_else(|err| serde_json::Value::String(err.to_string()).to_string())
}

/// Deepest nesting the forbidden-key scanner descends into. `serde_json`'s own recursion
/// limit (128) normally stops the walk first; this guard holds even if it is disabled.
const MAX_SCAN_DEPTH: usize = 128;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses `input` as a JSON document of type `T` and validates it.
///
/// In order:
/// 1. more than `spec.max_input_bytes` bytes: refused unparsed (`too_large_code`, measured
///    and limit set);
/// 2. a leading UTF-8 byte order mark (unless `spec.bom_tolerated`: then it is skipped), or
///    bytes that are not UTF-8: refused (`parse_error_code`, the message names the byte
///    offset);
/// 3. `T` is deserialized; on success [`Validate::validate`] runs and its report is returned
///    on failure, its violations in document order (see [`Report`]: the order of `T`'s
///    fields, whatever the order of the input's keys);
/// 4. if deserialization failed and the input is well-formed JSON containing any of
///    `spec.forbidden_keys` as an object key, one `forbidden_key_code` violation per
///    occurrence, in document order;
/// 5. otherwise a `parse_error_code` violation with serde's message verbatim (with
///    `serde_json`'s `at line L column C`), at the path of the value that failed; then, when
///    `spec.shape` is set and the input is well-formed JSON, one more `parse_error_code`
///    violation for every other shape problem of the document (unknown key, wrong type,
///    missing member, value outside its enum), in document order, each at its own path (a
///    missing member at the member's path; see [`crate::shape`]). The shape problem serde
///    reported is not repeated.
///
/// With [`Extract::OutermostObject`], an input that fails step 3 and is not syntactically
/// valid JSON goes through steps 3 to 5 again as the text from its first `{` to its last
/// `}` (see [`extracted_range`]).
///
/// Forbidden keys are looked for only when the typed parse fails, so `T` must refuse them
/// itself: `#[serde(deny_unknown_fields)]` and no free-form JSON (`serde_json::Value`, maps,
/// `#[serde(flatten)]`) where such a key could be accepted, unless `spec.free_members` is
/// set: then they are looked for after a typed parse succeeds too, and refuse the document.
///
/// ```
/// use serde::Deserialize;
/// use specmint_runtime::document::{parse_document, DocumentSpec};
/// use specmint_runtime::Validate;
///
/// #[derive(Debug, Deserialize, Validate)]
/// #[serde(deny_unknown_fields)]
/// struct Note {
///     #[validate(non_blank(code = "blank"))]
///     title: String,
///     #[validate(each(non_blank(code = "blank")))]
///     tags: Vec<String>,
/// }
///
/// const NOTE: DocumentSpec = DocumentSpec::new("note", "bad_note");
///
/// let note: Note = parse_document(br#"{"title": "t", "tags": ["a"]}"#, &NOTE).unwrap();
/// assert_eq!(note.tags, ["a"]);
///
/// // Rule violations in the order of the fields, whatever the order of the keys.
/// let report = parse_document::<Note>(br#"{"tags": [" "], "title": ""}"#, &NOTE).unwrap_err();
/// assert_eq!(report.to_string(), "blank: `title` must not be blank\nblank: `tags[0]` must not be blank");
///
/// // Not the shape: serde's message, at the path of the value that failed.
/// let report = parse_document::<Note>(br#"{"title": 1, "tags": []}"#, &NOTE).unwrap_err();
/// assert_eq!(
///     report.to_string(),
///     "bad_note: invalid type: integer `1`, expected a string at line 1 column 11"
/// );
/// assert_eq!(report.as_slice()[0].path, "title");
/// ```
///
/// # Errors
///
/// A [`Report`] with at least one violation whenever the document is refused.
pub fn parse_document<T>(input: &[u8], spec: &DocumentSpec) -> Result<T, Report>
where
    T: DeserializeOwned + Validate,
{
    check_size(input.len(), spec)?;
    let input = check_bom(input, spec)?;
    // SIMD validation (several times faster than `std` on text that is not ASCII); `std`
    // says where the first bad byte is, for the message, only when there is one.
    let text = match simdutf8::basic::from_utf8(input) {
        Ok(text) => text,
        Err(_) => std::str::from_utf8(input).map_err(|err| utf8_error(input, &err, spec))?,
    };
    parse_text(text, spec)
}

/// [`parse_document`] for input that is already a `str` (the UTF-8 check is skipped; the
/// size limit and the byte-order-mark check still apply).
///
/// # Errors
///
/// A [`Report`] with at least one violation whenever the document is refused.
pub fn parse_document_str<T>(input: &str, spec: &DocumentSpec) -> Result<T, Report>
where
    T: DeserializeOwned + Validate,
{
    check_size(input.len(), spec)?;
    let skip = input.len() - check_bom(input.as_bytes(), spec)?.len();
    parse_text(&input[skip..], spec)
}

/// Checks one example of a spec against the verdict its fence states: `expected` empty for
/// a ```` ```json valid ```` example (it must be accepted), else the exact `(code, path)`
/// violations of a ```` ```json invalid code@path.. ```` example, in order. `at` is where the
/// example is (`spec/orders.md:47`) and starts the message of `Err`, which names what was
/// expected and what was found. What the `spec_examples` tests emitted into every generated
/// module call; not public API.
#[doc(hidden)]
pub fn check_example<T>(
    input: &str,
    spec: &DocumentSpec,
    expected: &[(&str, &str)],
    at: &str,
) -> Result<(), String>
where
    T: DeserializeOwned + Validate,
{
    let report = parse_document_str::<T>(input, spec)
        .err()
        .unwrap_or_default();
    let got: Vec<(&str, &str)> = report.iter().map(|v| (v.code, v.path.as_str())).collect();
    if got == expected {
        return Ok(());
    }
    let found = report
        .iter()
        .map(|v| format!("{}@{} ({})", v.code, v.path, v.message))
        .collect::<Vec<_>>()
        .join("; ");
    let stated = expected
        .iter()
        .map(|(code, path)| format!("{code}@{path}"))
        .collect::<Vec<_>>()
        .join(" ");
    Err(if expected.is_empty() {
        format!("{at}: the `json valid` example is refused: {found}")
    } else if report.is_empty() {
        format!("{at}: the `json invalid {stated}` example is valid")
    } else {
        format!("{at}: the `json invalid {stated}` example fails with {found}")
    })
}

fn single(violation: Violation) -> Report {
    Report::from_violations(vec![violation])
}

fn document_violation(code: &'static str, message: String) -> Violation {
    Violation::new(code, &Path::ROOT, message)
}

/// Step 1 of [`parse_document`] on its own: refuses an input of `len` bytes when it is over
/// `spec.max_input_bytes` (`too_large_code`, empty path, `measured` = `len`, `limit` set).
/// For callers that learn an input's length without holding it (a file, a stream read up to
/// the limit), so an oversized input is refused without being read into memory.
///
/// # Errors
///
/// The one-violation [`Report`] when `len` is over the limit.
pub fn check_size(len: usize, spec: &DocumentSpec) -> Result<(), Report> {
    if len <= spec.max_input_bytes {
        return Ok(());
    }
    let violation = document_violation(
        spec.too_large_code,
        format!(
            "the {} is {len} bytes (max {}) and was not parsed",
            spec.name, spec.max_input_bytes
        ),
    );
    Err(single(
        violation.with_numbers(len as u64, spec.max_input_bytes as u64),
    ))
}

/// The input after a tolerated byte order mark; a refused one is an error.
fn check_bom<'a>(input: &'a [u8], spec: &DocumentSpec) -> Result<&'a [u8], Report> {
    if !input.starts_with(UTF8_BOM) {
        return Ok(input);
    }
    if spec.bom_tolerated {
        return Ok(&input[UTF8_BOM.len()..]);
    }
    Err(single(document_violation(
        spec.parse_error_code,
        format!(
            "the {} starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow; \
             remove the first 3 bytes",
            spec.name
        ),
    )))
}

fn utf8_error(input: &[u8], err: &std::str::Utf8Error, spec: &DocumentSpec) -> Report {
    let offset = err.valid_up_to();
    let detail = match (err.error_len(), input.get(offset)) {
        (Some(_), Some(byte)) => format!("invalid byte 0x{byte:02X} at byte offset {offset}"),
        _ => format!("truncated UTF-8 sequence at byte offset {offset} (end of input)"),
    };
    single(document_violation(
        spec.parse_error_code,
        format!("the {} is not valid UTF-8: {detail}", spec.name),
    ))
}

/// Re-parses a refused document with path tracking: (path, pointer, serde's error).
fn locate_failure<T: DeserializeOwned>(text: &str) -> (String, String, serde_json::Error) {
    let mut de = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(Strict::new(&mut de)) {
        // Trailing characters after the value: the document, not a field, is at fault.
        Ok(_) => match de.end() {
            Err(err) => (String::new(), String::new(), err),
            // Only a `Deserialize` impl that answers differently on a second run gets here.
            Ok(()) => (
                String::new(),
                String::new(),
                de::Error::custom("the document parsed on a second attempt only"),
            ),
        },
        Err(err) => {
            let (path, pointer) = convert_path(err.path());
            (path, pointer, err.into_inner())
        }
    }
}

/// `serde_json::from_str` through [`Strict`]: structs only from JSON objects.
fn parse_strict<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strict::new(&mut de))?;
    de.end()?;
    Ok(value)
}

fn parse_text<T>(text: &str, spec: &DocumentSpec) -> Result<T, Report>
where
    T: DeserializeOwned + Validate,
{
    // Fast path: plain serde_json, no path tracking. Only a refused document pays for the
    // second, path-tracking parse that says where it went wrong.
    if let Ok(value) = parse_strict::<T>(text) {
        forbidden_in_free_members(text, spec)?;
        validate_read(&value, text, spec)?;
        return Ok(value);
    }
    match extracted_range(text, spec) {
        Some(range) => parse_failed::<T>(&text[range], spec, true),
        None => parse_failed::<T>(text, spec, false),
    }
}

/// Every rule on `value`, read from `text`: with the spec's `canonical_growth`, the
/// value is known to be at most `text.len() + growth` bytes as compact JSON, and byte caps
/// at least that large pass without measuring.
fn validate_read<T: Validate>(value: &T, text: &str, spec: &DocumentSpec) -> Result<(), Report> {
    let mut report = Report::new();
    if let Some(growth) = spec.canonical_growth {
        let bound = u64::try_from(text.len().saturating_add(growth)).unwrap_or(u64::MAX);
        report.assume_json_bytes_at_most(bound);
    }
    value.validate_at(&Path::ROOT, &mut report);
    if report.is_empty() {
        Ok(())
    } else {
        Err(Report::from_violations(report.into_vec()))
    }
}

/// Steps 3 to 5 for `text` whose plain typed parse failed (`retry`: it has not been tried
/// yet, as for an extracted object).
fn parse_failed<T>(text: &str, spec: &DocumentSpec, retry: bool) -> Result<T, Report>
where
    T: DeserializeOwned + Validate,
{
    if retry {
        if let Ok(value) = parse_strict::<T>(text) {
            forbidden_in_free_members(text, spec)?;
            validate_read(&value, text, spec)?;
            return Ok(value);
        }
    }
    let failure = locate_failure::<T>(text);
    forbidden_found(text, spec)?;

    let (path, pointer, err) = failure;
    let first = Violation::from_parts(spec.parse_error_code, path, pointer, err.to_string());
    let mut violations = vec![first];
    if let (Some(shape), Ok(document)) = (spec.shape, Json::parse(text)) {
        violations.extend(other_shape_problems(
            &document,
            shape,
            spec,
            &violations[0].pointer,
        ));
    }
    Err(Report::from_violations(violations))
}

/// Every shape problem of `document` but the first one serde would have reported at
/// `serde_pointer` (serde names the value that failed, or an ancestor of it when its path
/// stops early, as inside a tagged union).
fn other_shape_problems(
    document: &Json,
    shape: &Shapes<'_>,
    spec: &DocumentSpec,
    serde_pointer: &str,
) -> Vec<Violation> {
    let mut problems = crate::shape::problems(document, shape, spec.name, spec.parse_error_code);
    let same = problems
        .iter()
        .position(|p| p.serde_pointer == serde_pointer)
        .or_else(|| {
            problems.iter().position(|p| {
                p.serde_pointer
                    .strip_prefix(serde_pointer)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
        });
    if let Some(at) = same {
        problems.remove(at);
    }
    problems.into_iter().map(|p| p.violation).collect()
}

/// Step 4: one `forbidden_key_code` violation per forbidden key in `text`, if any.
fn forbidden_found(text: &str, spec: &DocumentSpec) -> Result<(), Report> {
    let Some(found) = scan_forbidden_keys(text, spec.forbidden_keys) else {
        return Ok(());
    };
    if found.is_empty() {
        return Ok(());
    }
    let violations = found
        .into_iter()
        .map(|hit| {
            let message = format!(
                "`{}` is a forbidden key (`{}` may not appear anywhere in the {})",
                hit.path, hit.key, spec.name
            );
            Violation::from_parts(spec.forbidden_key_code, hit.path, hit.pointer, message)
        })
        .collect();
    Err(Report::from_violations(violations))
}

/// A document read whole whose open members may hold a forbidden key the typed parse kept.
fn forbidden_in_free_members(text: &str, spec: &DocumentSpec) -> Result<(), Report> {
    if spec.free_members && !spec.forbidden_keys.is_empty() {
        forbidden_found(text, spec)?;
    }
    Ok(())
}

/// `serde_path_to_error`'s segments as our dotted path and RFC 6901 pointer. A segment it could
/// not name (a non-string map key) ends the path at its nearest known ancestor.
fn convert_path(path: &serde_path_to_error::Path) -> (String, String) {
    use serde_path_to_error::Segment;
    let mut dotted = String::new();
    let mut pointer = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => push_index(&mut dotted, &mut pointer, *index),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                push_key(&mut dotted, &mut pointer, key);
            }
            Segment::Unknown => break,
        }
    }
    (dotted, pointer)
}

pub(crate) fn push_index(dotted: &mut String, pointer: &mut String, index: usize) {
    // Writing to a String cannot fail.
    let _ = write!(dotted, "[{index}]");
    let _ = write!(pointer, "/{index}");
}

pub(crate) fn push_key(dotted: &mut String, pointer: &mut String, key: &str) {
    if !dotted.is_empty() {
        dotted.push('.');
    }
    dotted.push_str(key);
    pointer.push('/');
    for c in key.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forbidden-key scanner: one streaming pass over the raw JSON, no value tree.

struct ForbiddenHit {
    key: String,
    path: String,
    pointer: String,
}

enum ScanSeg<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

struct ScanState<'s, 'de> {
    forbidden: &'s [&'static str],
    stack: Vec<ScanSeg<'de>>,
    found: Vec<ForbiddenHit>,
}

impl ScanState<'_, '_> {
    fn record(&mut self, key: &str) {
        let mut path = String::new();
        let mut pointer = String::new();
        for seg in &self.stack {
            match seg {
                ScanSeg::Key(k) => push_key(&mut path, &mut pointer, k),
                ScanSeg::Index(i) => push_index(&mut path, &mut pointer, *i),
            }
        }
        push_key(&mut path, &mut pointer, key);
        self.found.push(ForbiddenHit {
            key: key.to_owned(),
            path,
            pointer,
        });
    }
}

/// Every occurrence of a forbidden key, in document order; `None` if the input is not one
/// well-formed JSON value (or nests deeper than the scanner's limit).
fn scan_forbidden_keys(text: &str, forbidden: &[&'static str]) -> Option<Vec<ForbiddenHit>> {
    if forbidden.is_empty() {
        return None;
    }
    let mut state = ScanState {
        forbidden,
        stack: Vec::new(),
        found: Vec::new(),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    ScanValue {
        state: &mut state,
        depth: 0,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(state.found)
}

struct ScanValue<'a, 's, 'de> {
    state: &'a mut ScanState<'s, 'de>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ScanValue<'_, '_, 'de> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl ScanValue<'_, '_, '_> {
    fn enter<E: de::Error>(&self) -> Result<usize, E> {
        if self.depth >= MAX_SCAN_DEPTH {
            return Err(E::custom("nesting too deep"));
        }
        Ok(self.depth + 1)
    }
}

impl<'de> Visitor<'de> for ScanValue<'_, '_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        let state = self.state;
        let mut index = 0;
        loop {
            state.stack.push(ScanSeg::Index(index));
            let more = seq.next_element_seed(ScanValue {
                state: &mut *state,
                depth,
            })?;
            state.stack.pop();
            if more.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        let state = self.state;
        while let Some(key) = map.next_key_seed(ScanKey)? {
            if state.forbidden.iter().any(|f| *f == key) {
                state.record(&key);
            }
            state.stack.push(ScanSeg::Key(key));
            map.next_value_seed(ScanValue {
                state: &mut *state,
                depth,
            })?;
            state.stack.pop();
        }
        Ok(())
    }
}

/// An object key, borrowed from the input unless it contains escapes.
struct ScanKey;

impl<'de> DeserializeSeed<'de> for ScanKey {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for ScanKey {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}

// ---------------------------------------------------------------------------------------
// locate / locate_key: a small iterative JSON walker over bytes, no dependencies.

/// Where the value at the RFC 6901 `pointer` starts in `input`, as a 1-based
/// `(line, column)`; the column counts chars (Unicode scalar values), not bytes, and lines
/// are separated by `\n`.
///
/// The empty pointer is the whole document (its first non-whitespace character). Object
/// members are matched by their unescaped key (the first member if a key repeats); array
/// elements by a decimal index without leading zeros. `None` if the pointer does not
/// resolve, is not a valid pointer, or the input is malformed along the way. Only the part
/// of the input on the way to the target is examined; this never panics and never
/// recurses.
#[must_use]
pub fn locate(input: &str, pointer: &str) -> Option<(usize, usize)> {
    let offset = find(input.as_bytes(), pointer, false)?;
    line_col(input, offset)
}

/// Where the key of the object member at `pointer` starts in `input` (its opening quote),
/// as a 1-based `(line, column)` like [`locate`]: `"/findings/0/reasoning"` gives the
/// position of `"reasoning"` inside `findings[0]`. Use it for problems with a key itself
/// (an unknown or forbidden key). `None` for the empty pointer, for an array element, or
/// when [`locate`] would give `None`.
#[must_use]
pub fn locate_key(input: &str, pointer: &str) -> Option<(usize, usize)> {
    let offset = find(input.as_bytes(), pointer, true)?;
    line_col(input, offset)
}

fn line_col(input: &str, offset: usize) -> Option<(usize, usize)> {
    let before = input.get(..offset)?;
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = before.get(line_start..)?.chars().count() + 1;
    Some((line, column))
}

/// RFC 6901 reference tokens, unescaped (`~1` → `/`, `~0` → `~`).
fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
            let mut token = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next()? {
                        '0' => token.push('~'),
                        '1' => token.push('/'),
                        _ => return None,
                    }
                } else {
                    token.push(c);
                }
            }
            Some(token)
        })
        .collect()
}

/// Byte offset of the target value (or, with `want_key`, of the target member's key).
fn find(b: &[u8], pointer: &str, want_key: bool) -> Option<usize> {
    let tokens = pointer_tokens(pointer)?;
    let mut pos = skip_ws(b, 0);
    if !is_value_start(*b.get(pos)?) {
        return None;
    }
    if tokens.is_empty() {
        return if want_key { None } else { Some(pos) };
    }
    let last = tokens.len() - 1;
    for (n, token) in tokens.iter().enumerate() {
        match *b.get(pos)? {
            b'{' => {
                let (key_pos, value_pos) = find_member(b, pos, token)?;
                if want_key && n == last {
                    return Some(key_pos);
                }
                pos = value_pos;
            }
            b'[' => {
                if want_key && n == last {
                    return None;
                }
                pos = find_element(b, pos, array_index(token)?)?;
            }
            _ => return None,
        }
    }
    Some(pos)
}

fn array_index(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    let well_formed = !bytes.is_empty()
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes.len() == 1 || bytes[0] != b'0');
    if well_formed {
        token.parse().ok()
    } else {
        None
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

fn is_value_start(c: u8) -> bool {
    matches!(
        c,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    )
}

/// In the object opening at `open`, the member whose key equals `key`: (key offset, value
/// offset).
fn find_member(b: &[u8], open: usize, key: &str) -> Option<(usize, usize)> {
    let mut i = skip_ws(b, open + 1);
    if *b.get(i)? == b'}' {
        return None;
    }
    loop {
        if *b.get(i)? != b'"' {
            return None;
        }
        let key_pos = i;
        let (after_key, matches) = string_equals(b, i, key)?;
        i = skip_ws(b, after_key);
        if *b.get(i)? != b':' {
            return None;
        }
        i = skip_ws(b, i + 1);
        if !is_value_start(*b.get(i)?) {
            return None;
        }
        if matches {
            return Some((key_pos, i));
        }
        i = skip_ws(b, skip_value(b, i)?);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            _ => return None,
        }
    }
}

/// In the array opening at `open`, the offset of element `index`.
fn find_element(b: &[u8], open: usize, index: usize) -> Option<usize> {
    let mut i = skip_ws(b, open + 1);
    let mut n = 0;
    loop {
        if !is_value_start(*b.get(i)?) {
            return None;
        }
        if n == index {
            return Some(i);
        }
        i = skip_ws(b, skip_value(b, i)?);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            _ => return None,
        }
        n += 1;
    }
}

/// Offset just past the value starting at `i`. Containers are skipped by counting brackets
/// (iteratively; strings are skipped whole), scalars up to the next delimiter.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        c if is_value_start(c) => {
            let mut j = i + 1;
            while let Some(&c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            Some(j)
        }
        _ => None,
    }
}

/// Offset just past the string whose opening quote is at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

/// Offset just past the string whose opening quote is at `i`, and whether its unescaped
/// content equals `want`.
fn string_equals(b: &[u8], i: usize, want: &str) -> Option<(usize, bool)> {
    let end = skip_string(b, i)?;
    let raw = b.get(i + 1..end - 1)?;
    if !raw.contains(&b'\\') {
        return Some((end, raw == want.as_bytes()));
    }
    // A key that does not unescape (bad escape, lone surrogate) matches nothing.
    let matches = unescape(raw).is_some_and(|s| s == want);
    Some((end, matches))
}

fn unescape(raw: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let escaped = match *raw.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = hex4(raw.get(i + 2..i + 6)?)?;
                i += 6;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if raw.get(i..i + 2)? != b"\\u" {
                        return None;
                    }
                    let low = hex4(raw.get(i + 2..i + 6)?)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    i += 6;
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                let mut buf = [0; 4];
                out.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ => return None,
        };
        let mut buf = [0; 4];
        out.extend_from_slice(escaped.encode_utf8(&mut buf).as_bytes());
        i += 2;
    }
    String::from_utf8(out).ok()
}

fn hex4(digits: &[u8]) -> Option<u32> {
    std::str::from_utf8(digits)
        .ok()
        .and_then(|s| u32::from_str_radix(s, 16).ok())
        .filter(|_| digits.iter().all(u8::is_ascii_hexdigit))
}
