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

use core::marker::PhantomData;

use serde::de::{self, DeserializeOwned, DeserializeSeed};

use crate::json::Json;
use crate::path::{push_index, push_key};
use crate::rules::StreamedData;
use crate::shape::Shapes;
use crate::strict::Strict;
use crate::{Path, Report, Validate, Violation};

mod locate;
mod reader;
#[cfg(feature = "in-place")]
mod reuse;
mod scan;

pub use locate::{
    line_col, locate, locate_all, locate_key, serde_line_column, serde_offset,
    split_serde_position, Want,
};
use scan::scan_forbidden_keys;

/// How one kind of document is parsed: its name in messages, its error codes, the keys it
/// refuses anywhere, and its input size limit.
///
/// Built with [`DocumentSpec::new`] and the `with_*` methods, all `const fn`, so a spec is a
/// `const`; the fields are read directly (`#[non_exhaustive]`: fields may be added without
/// breaking callers). Its names and codes are borrowed for `'s`: `'static` in generated
/// code, the life of the loaded spec in specmint-codegen's interpreter (which owns them, so
/// loading a spec keeps nothing once it is dropped).
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
pub struct DocumentSpec<'s> {
    /// What the document is called in messages, e.g. `"packet"`.
    pub name: &'s str,
    /// Code of every violation that means "this input could not be parsed", e.g.
    /// `"invalid_packet"`.
    pub parse_error_code: &'s str,
    /// Object keys refused anywhere in the document, at any depth (exact, case-sensitive).
    pub forbidden_keys: Keys<'s>,
    /// Code of the violation reported for each forbidden key found.
    pub forbidden_key_code: &'s str,
    /// Inputs longer than this many bytes are refused before parsing.
    pub max_input_bytes: usize,
    /// Code of the violation for an input over `max_input_bytes`: a spec's own size code
    /// where it has one (the code of its document byte cap), else `parse_error_code`.
    pub too_large_code: &'s str,
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
    /// (see [`parse_document`] step 5). `None`: serde's message only. A [`Shapes`] (the
    /// generated `SHAPES`) or what builds one when a refusal needs it (see [`ShapeSource`]).
    pub shape: Option<&'s dyn ShapeSource>,
}

/// The keys a [`DocumentSpec`] refuses ([`DocumentSpec::forbidden_keys`]): `&str`s
/// (generated code's `&["transcript"]`) or `String`s (owned by a spec loaded at run time),
/// borrowed either way. Two lists are equal when they hold the same keys in the same order.
///
/// ```
/// use specmint_runtime::document::Keys;
///
/// let owned = vec![String::from("transcript")];
/// assert_eq!(Keys::Strs(&["transcript"]), Keys::Strings(&owned));
/// assert!(Keys::Strings(&owned).contains("transcript"));
/// assert_eq!(Keys::Strs(&["a", "b"]).iter().collect::<Vec<_>>(), ["a", "b"]);
/// ```
#[derive(Clone, Copy)]
pub enum Keys<'s> {
    /// Borrowed strings.
    Strs(&'s [&'s str]),
    /// Owned strings, borrowed.
    Strings(&'s [String]),
}

impl<'s> Keys<'s> {
    /// How many keys.
    pub const fn len(&self) -> usize {
        match self {
            Keys::Strs(keys) => keys.len(),
            Keys::Strings(keys) => keys.len(),
        }
    }

    /// No keys.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'s str> + 's {
        let keys = *self;
        (0..keys.len()).map(move |i| match keys {
            Keys::Strs(k) => k[i],
            Keys::Strings(k) => k[i].as_str(),
        })
    }

    /// Whether `key` is one of the keys.
    pub fn contains(&self, key: &str) -> bool {
        self.iter().any(|k| k == key)
    }
}

impl PartialEq for Keys<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Eq for Keys<'_> {}

impl core::fmt::Debug for Keys<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Where a [`DocumentSpec`] finds its document's [`Shapes`]: a [`Shapes`] value itself
/// (generated code's `SHAPES`), or what describes the shape only when a refused document
/// needs it (specmint-codegen's interpreter builds it from the spec it loaded, borrowing
/// the spec's names, so nothing of it outlives the spec).
///
/// Two sources are equal when the descriptions they give are.
///
/// ```
/// use specmint_runtime::document::{DocumentSpec, ShapeSource};
/// use specmint_runtime::shape::{FieldShape, Kind, Shapes, TypeShape, ValueShape};
///
/// static FIELDS: [FieldShape<'static>; 1] =
///     [FieldShape::new("title", ValueShape::new(Kind::Str), true)];
/// static TYPES: [TypeShape<'static>; 1] = [TypeShape::object("note", &FIELDS)];
/// static SHAPES: Shapes<'static> = Shapes::new(0, &TYPES);
///
/// /// The same description, built each time it is asked for.
/// #[derive(Debug)]
/// struct Built;
///
/// impl ShapeSource for Built {
///     fn with_shapes(&self, use_them: &mut dyn FnMut(&Shapes<'_>)) {
///         let fields = [FieldShape::new("title", ValueShape::new(Kind::Str), true)];
///         let types = [TypeShape::object("note", &fields)];
///         use_them(&Shapes::new(0, &types));
///     }
/// }
///
/// const NOTE: DocumentSpec = DocumentSpec::new("note", "bad_note").with_shape(&SHAPES);
/// assert_eq!(NOTE, DocumentSpec::new("note", "bad_note").with_shape(&Built));
/// ```
pub trait ShapeSource: core::fmt::Debug + Sync {
    /// Calls `use_them` with the description.
    fn with_shapes(&self, use_them: &mut dyn FnMut(&Shapes<'_>));
}

impl ShapeSource for Shapes<'_> {
    fn with_shapes(&self, use_them: &mut dyn FnMut(&Shapes<'_>)) {
        use_them(self);
    }
}

impl PartialEq for dyn ShapeSource + '_ {
    fn eq(&self, other: &Self) -> bool {
        let mut equal = false;
        // Compared as their `Debug` forms, which are equal exactly when the descriptions
        // are (a `Cow` shows what it holds, borrowed or owned): `Shapes<'a>` is invariant in
        // `'a`, so two descriptions borrowed for unrelated lifetimes cannot meet in `==`.
        self.with_shapes(&mut |a| {
            let a = format!("{a:?}");
            other.with_shapes(&mut |b| equal = a == format!("{b:?}"));
        });
        equal
    }
}

impl Eq for dyn ShapeSource + '_ {}

impl<'s> DocumentSpec<'s> {
    /// A document called `name` in messages, refused with `parse_error_code` when it cannot
    /// be parsed: no forbidden keys, inputs up to [`DEFAULT_MAX_INPUT_BYTES`], the whole
    /// input parsed ([`Extract::Whole`]), byte caps always measured, an input over the size
    /// limit refused with `parse_error_code`.
    pub const fn new(name: &'s str, parse_error_code: &'s str) -> Self {
        DocumentSpec {
            name,
            parse_error_code,
            forbidden_keys: Keys::Strs(&[]),
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
    pub const fn with_forbidden_keys(self, keys: &'s [&'s str], code: &'s str) -> Self {
        self.with_forbidden_key_list(Keys::Strs(keys), code)
    }

    /// [`DocumentSpec::with_forbidden_keys`] of keys held either way (see [`Keys`]): another
    /// spec's `forbidden_keys`, or the names a spec loaded at run time owns.
    #[must_use]
    pub const fn with_forbidden_key_list(mut self, keys: Keys<'s>, code: &'s str) -> Self {
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
    pub const fn with_too_large_code(mut self, code: &'s str) -> Self {
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
    /// message (see [`DocumentSpec::shape`]): a [`Shapes`], or any [`ShapeSource`].
    #[must_use]
    pub const fn with_shape(mut self, shape: &'s dyn ShapeSource) -> Self {
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

/// `true` when `text` starts with `{` and ends with `}` between JSON whitespace: its first `{`
/// and last `}` (what [`extracted_range`] cuts out) hold everything but that whitespace, which
/// a JSON parse skips, so the cut text parses exactly as `text` does.
fn is_braced(text: &str) -> bool {
    let json_space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    let inner = text.trim_matches(json_space);
    inner.starts_with('{') && inner.ends_with('}')
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
///    If deserialization failed and `spec.shape` gives some enum members a code of their
///    own ([`FieldShape::enum_code`](crate::shape::FieldShape::enum_code)), each string
///    outside such a member's enum is a violation with that code at the member's path, in
///    document order; the document without those members is deserialized and, when that
///    succeeds, validated, and the report is those violations followed by the rules' (less
///    any at a removed member's path: its requirement, it was present). When it fails too,
///    steps 4 and 5 run on the whole document, each such value still reported with its code;
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
    parse_document_streamed(input, spec, StreamedData::new())
}

/// [`parse_document`] of a document some of whose data strings were left out and decoded
/// elsewhere as they streamed: the digest rule reads each such struct's facts from `streamed`
/// (see [`StreamedData`]) instead of decoding its data field. With no facts it is
/// [`parse_document`].
///
/// # Errors
///
/// A [`Report`] with at least one violation whenever the document is refused.
pub fn parse_document_streamed<T>(
    input: &[u8],
    spec: &DocumentSpec,
    streamed: StreamedData,
) -> Result<T, Report>
where
    T: DeserializeOwned + Validate,
{
    parse_document_seed(input, spec, streamed, PhantomData::<T>)
}

/// [`parse_document_streamed`] of a value read by `seed` rather than by a type's
/// `Deserialize`: for a reader that carries state, as specmint-codegen's interpreter reads a
/// document under the spec it loaded at run time (the seed holds the compiled spec). The
/// seed is used for each of the parses the steps make (hence `Clone`); every step, message
/// and path is [`parse_document`]'s.
///
/// ```
/// use std::marker::PhantomData;
/// use serde::Deserialize;
/// use specmint_runtime::document::{parse_document_seed, DocumentSpec};
/// use specmint_runtime::rules::StreamedData;
/// use specmint_runtime::Validate;
///
/// #[derive(Debug, Deserialize, Validate)]
/// struct Note {
///     #[validate(non_blank(code = "blank"))]
///     title: String,
/// }
///
/// const NOTE: DocumentSpec = DocumentSpec::new("note", "bad_note");
/// // `PhantomData<T>` is the seed that reads a `T` as `T::deserialize` does.
/// let seed = PhantomData::<Note>;
/// let read = parse_document_seed(br#"{"title": "t"}"#, &NOTE, StreamedData::new(), seed);
/// assert_eq!(read.unwrap().title, "t");
/// let refused = parse_document_seed(br#"{"title": " "}"#, &NOTE, StreamedData::new(), seed);
/// assert_eq!(refused.unwrap_err().to_string(), "blank: `title` must not be blank");
/// ```
///
/// # Errors
///
/// A [`Report`] with at least one violation whenever the document is refused.
pub fn parse_document_seed<S, T>(
    input: &[u8],
    spec: &DocumentSpec,
    streamed: StreamedData,
    seed: S,
) -> Result<T, Report>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
    T: Validate,
{
    check_size(input.len(), spec)?;
    let input = check_bom(input, spec)?;
    // SIMD validation (several times faster than `std` on text that is not ASCII); `std`
    // says where the first bad byte is, for the message, only when there is one.
    let text = match simdutf8::basic::from_utf8(input) {
        Ok(text) => text,
        Err(_) => std::str::from_utf8(input).map_err(|err| utf8_error(input, &err, spec))?,
    };
    parse_text(text, spec, streamed, seed)
}

/// The value [`parse_document_streamed`] would return, or `None` where it would refuse the
/// document: the same verdict, reached without diagnosing a refusal. A document whose plain
/// typed parse fails is refused there, without the path-tracking parse, the shape walk and
/// the messages that say where and why (a caller that only needs the verdict, like a
/// binding's `valid`, and builds the report only when asked).
pub fn accepted_document<T>(input: &[u8], spec: &DocumentSpec, streamed: StreamedData) -> Option<T>
where
    T: DeserializeOwned + Validate,
{
    accepted_document_seed(input, spec, streamed, PhantomData::<T>)
}

/// [`accepted_document`] of a value read by `seed` (see [`parse_document_seed`]).
pub fn accepted_document_seed<S, T>(
    input: &[u8],
    spec: &DocumentSpec,
    streamed: StreamedData,
    seed: S,
) -> Option<T>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
    T: Validate,
{
    let (value, text) = verdict_read(input, spec, |text| parse_strict(text, seed.clone()))?;
    accepted_read(value, text, spec, streamed)
}

/// The first steps of every verdict: the size limit, the byte-order mark, UTF-8, then `read`
/// of the whole text, else of the object cut out of surrounding prose (parse_text's steps,
/// keeping only the verdict: any other failed read is a refusal). The value read and the
/// text it was read from.
fn verdict_read<'a, R>(
    input: &'a [u8],
    spec: &DocumentSpec,
    mut read: impl FnMut(&'a str) -> Result<R, serde_json::Error>,
) -> Option<(R, &'a str)> {
    if input.len() > spec.max_input_bytes {
        return None;
    }
    let input = match input.strip_prefix(UTF8_BOM) {
        Some(rest) if spec.bom_tolerated => rest,
        Some(_) => return None,
        None => input,
    };
    let text = simdutf8::basic::from_utf8(input).ok()?;
    let text = match read(text) {
        Ok(value) => return Some((value, text)),
        // A text that is one object between JSON whitespace is its own outermost object: the
        // retry would parse the same text again (and `extracted_range` first reads it whole
        // to see whether it is JSON), so it is refused here.
        Err(_) if is_braced(text) => return None,
        Err(_) => &text[extracted_range(text, spec)?],
    };
    read(text).ok().map(|value| (value, text))
}

/// The verdict of [`accepted_document`]: whether `input` is accepted as a `T` under `spec`,
/// every rule applied, nothing rendered, for a caller that keeps no value. With the runtime's
/// `in-place` feature the document is read into a value this thread keeps for `T` (serde's
/// `deserialize_in_place`: a stream of documents of one type allocates little); without it,
/// into a value of its own. The same verdicts either way.
pub fn accepts<T>(input: &[u8], spec: &DocumentSpec) -> bool
where
    T: DeserializeOwned + Validate + 'static,
{
    accepts_then::<T>(input, spec, |_| true)
}

/// [`accepts`], then `then` on the accepted value (checks of the caller's own beyond the
/// document's rules): `false` when the document is refused or `then` says so.
pub fn accepts_then<T>(input: &[u8], spec: &DocumentSpec, then: impl FnOnce(&T) -> bool) -> bool
where
    T: DeserializeOwned + Validate + 'static,
{
    #[cfg(feature = "in-place")]
    return reuse::accepts_then(input, spec, then);
    #[cfg(not(feature = "in-place"))]
    return accepted_document::<T>(input, spec, StreamedData::new())
        .is_some_and(|value| then(&value));
}

/// `value`, read from `text`, when it passes every rule (parse_text's checks after a parse).
fn accepted_read<T: Validate>(
    value: T,
    text: &str,
    spec: &DocumentSpec,
    streamed: StreamedData,
) -> Option<T> {
    passes(&value, text, spec, streamed).then_some(value)
}

/// Whether `value`, read from `text`, passes every rule (parse_text's checks after a parse),
/// with nothing rendered.
fn passes<T: Validate>(value: &T, text: &str, spec: &DocumentSpec, streamed: StreamedData) -> bool {
    if forbidden_in_free_members(text, spec).is_err() {
        return false;
    }
    let mut report = Report::verdict_only(streamed);
    value.validate_at(&Path::ROOT, with_growth_bound(&mut report, text, spec));
    report.is_empty()
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
    parse_text(&input[skip..], spec, StreamedData::new(), PhantomData::<T>)
}

/// Checks one example of a spec against the verdict its fence states: `expected` empty for
/// a ```` ```json valid ```` example (it must be accepted), else the exact `(code, path)`
/// violations of a ```` ```json invalid code@path.. ```` example, in order. `at` is where the
/// example is (`spec/orders.md:47`) and starts the message of `Err`, which names what was
/// expected and what was found (see [`example_mismatch`]). What the `spec_examples` tests
/// emitted into every generated module call; not public API.
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
    match example_mismatch(&report, expected) {
        None => Ok(()),
        Some(message) => Err(format!("{at}: {message}")),
    }
}

/// How the `report` of an example differs from the verdict its fence states: `expected`
/// empty for a ```` ```json valid ```` example, else the exact `(code, path)` violations of
/// a ```` ```json invalid code@path.. ```` example, in order. `None` when it is that
/// verdict, else what was stated and what was found,
/// `` the `json valid` example is refused: code@path (message) ``. One wording for the
/// generated `spec_examples` tests and for specmint-codegen, which judges every example
/// when it loads a spec.
///
/// ```
/// use specmint_runtime::document::example_mismatch;
/// use specmint_runtime::{Path, Report, Violation};
///
/// let report = Report::from_violations(vec![Violation::new(
///     "blank",
///     &Path::ROOT.field("title"),
///     "`title` must not be blank".into(),
/// )]);
/// assert_eq!(example_mismatch(&report, &[("blank", "title")]), None);
/// assert_eq!(
///     example_mismatch(&report, &[]).unwrap(),
///     "the `json valid` example is refused: blank@title (`title` must not be blank)"
/// );
/// ```
pub fn example_mismatch(report: &Report, expected: &[(&str, &str)]) -> Option<String> {
    let got: Vec<(&str, &str)> = report.iter().map(|v| (&*v.code, v.path.as_str())).collect();
    if got == expected {
        return None;
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
    Some(if expected.is_empty() {
        format!("the `json valid` example is refused: {found}")
    } else if report.is_empty() {
        format!("the `json invalid {stated}` example is valid")
    } else {
        format!("the `json invalid {stated}` example fails with {found}")
    })
}

/// The names serde's `unknown variant` / `unknown field` refusal expects, as the shape walk
/// quotes them ([`Violation::expected`]): `` unknown variant `x`, expected one of `a`, `b` at
/// line 1 column 9 `` gives `` `a`, `b` ``, `` expected `a` or `b` `` too; `""` for any other
/// message.
fn serde_expected(message: &str) -> String {
    if !(message.starts_with("unknown variant `") || message.starts_with("unknown field `")) {
        return String::new();
    }
    let Some((_, after)) = message.split_once("`, expected ") else {
        return String::new();
    };
    let names = after.split(" at line ").next().unwrap_or_default();
    let names = names.strip_prefix("one of ").unwrap_or(names);
    if !names.starts_with('`') {
        return String::new();
    }
    names.replacen("` or `", "`, `", 1)
}

fn single(violation: Violation) -> Report {
    Report::from_violations(vec![violation])
}

fn document_violation(code: &str, message: String) -> Violation {
    Violation::new(crate::report::Code::copy_of(code), &Path::ROOT, message)
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
    too_large(len, false, spec)
}

/// How many bytes past its size limit a stream's length is counted, for the size violation's
/// `measured`; a stream longer than that (endless input such as `/dev/zero`) is answered as
/// "at least" what was counted ([`check_size_at_least`]) rather than read for ever.
pub const COUNTED_PAST_LIMIT: u64 = 64 << 20;

/// As [`check_size`], for an input of which `len` bytes were counted before counting stopped
/// ([`COUNTED_PAST_LIMIT`]): the message says it is *at least* `len` bytes; `measured` is
/// `len`.
///
/// # Errors
///
/// The one-violation [`Report`] when `len` is over the limit.
pub fn check_size_at_least(len: usize, spec: &DocumentSpec) -> Result<(), Report> {
    too_large(len, true, spec)
}

fn too_large(len: usize, at_least: bool, spec: &DocumentSpec) -> Result<(), Report> {
    if len <= spec.max_input_bytes {
        return Ok(());
    }
    let at_least = if at_least { "at least " } else { "" };
    let violation = document_violation(
        spec.too_large_code,
        format!(
            "the {} is {at_least}{len} bytes (max {}) and was not parsed",
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
fn locate_failure<S>(text: &str, seed: S) -> (String, String, serde_json::Error)
where
    S: for<'de> DeserializeSeed<'de>,
{
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let tracked = serde_path_to_error::Deserializer::new(Strict::new(&mut de), &mut track);
    let read = seed
        .deserialize(tracked)
        .map_err(|err| serde_path_to_error::Error::new(track.path(), err));
    match read {
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

/// `serde_json::from_str` through [`Strict`]: structs only from JSON objects. The fast
/// [`reader`] reads first; what it leaves to `serde_json` (it defers) `serde_json` answers
/// (see the `reader` module).
fn parse_strict<S, T>(text: &str, seed: S) -> Result<T, serde_json::Error>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
{
    if reader::usable() {
        let read = reader::read(text, seed.clone());
        // Tests and debug builds hold the reader to its contract on every document they
        // read: serde_json gives the same verdict.
        #[cfg(debug_assertions)]
        if read
            .as_ref()
            .map_or_else(|e| !reader::deferred(e), |_| true)
        {
            let json = json_parse_strict(text, seed.clone());
            assert_eq!(
                read.is_ok(),
                json.is_ok(),
                "the fast reader and serde_json differ on {text:?}: {:?}",
                json.err()
            );
        }
        match read {
            Err(err) if reader::deferred(&err) => {}
            answer => return answer,
        }
    }
    json_parse_strict(text, seed)
}

/// [`parse_strict`] by `serde_json` alone.
fn json_parse_strict<S, T>(text: &str, seed: S) -> Result<T, serde_json::Error>
where
    S: for<'de> DeserializeSeed<'de, Value = T>,
{
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(Strict::new(&mut de))?;
    de.end()?;
    Ok(value)
}

fn parse_text<S, T>(
    text: &str,
    spec: &DocumentSpec,
    streamed: StreamedData,
    seed: S,
) -> Result<T, Report>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
    T: Validate,
{
    // Fast path: plain serde_json, no path tracking. Only a refused document pays for the
    // second, path-tracking parse that says where it went wrong.
    if let Ok(value) = parse_strict(text, seed.clone()) {
        forbidden_in_free_members(text, spec)?;
        validate_read(&value, text, spec, streamed)?;
        return Ok(value);
    }
    match extracted_range(text, spec) {
        Some(range) => parse_failed(&text[range], spec, true, streamed, seed),
        None => parse_failed(text, spec, false, streamed, seed),
    }
}

/// Every rule on `value`, read from `text`: with the spec's `canonical_growth`, the
/// value is known to be at most `text.len() + growth` bytes as compact JSON, and byte caps
/// at least that large pass without measuring.
fn validate_read<T: Validate>(
    value: &T,
    text: &str,
    spec: &DocumentSpec,
    streamed: StreamedData,
) -> Result<(), Report> {
    let mut report = Report::with_streamed(streamed);
    value.validate_at(&Path::ROOT, with_growth_bound(&mut report, text, spec));
    if report.is_empty() {
        Ok(())
    } else {
        Err(Report::from_violations(report.into_vec()))
    }
}

/// `report`, told the bound the spec's `canonical_growth` proves on the compact JSON of a
/// value read from `text` (byte caps at least that large then pass without measuring).
fn with_growth_bound<'r>(
    report: &'r mut Report,
    text: &str,
    spec: &DocumentSpec,
) -> &'r mut Report {
    if let Some(growth) = spec.canonical_growth {
        let bound = u64::try_from(text.len().saturating_add(growth)).unwrap_or(u64::MAX);
        report.assume_json_bytes_at_most(bound);
    }
    report
}

/// Steps 3 to 5 for `text` whose plain typed parse failed (`retry`: it has not been tried
/// yet, as for an extracted object).
fn parse_failed<S, T>(
    text: &str,
    spec: &DocumentSpec,
    retry: bool,
    streamed: StreamedData,
    seed: S,
) -> Result<T, Report>
where
    S: for<'de> DeserializeSeed<'de, Value = T> + Clone,
    T: Validate,
{
    if retry {
        if let Ok(value) = parse_strict(text, seed.clone()) {
            forbidden_in_free_members(text, spec)?;
            validate_read(&value, text, spec, streamed)?;
            return Ok(value);
        }
    }
    // Values outside an enum that has a code of its own (step 3a): reported with that code,
    // the members read as absent by every other rule.
    let coded = coded_enums(text, spec);
    if let Some((coded, cleaned)) = &coded {
        if let Ok(value) = parse_strict(cleaned, seed.clone()) {
            forbidden_in_free_members(text, spec)?;
            let mut report = Report::with_streamed(streamed);
            value.validate_at(&Path::ROOT, with_growth_bound(&mut report, text, spec));
            // A member read as absent was present: its requirement is not reported.
            let rest = report
                .into_vec()
                .into_iter()
                .filter(|v| !coded.iter().any(|c| c.path == v.path));
            return Err(Report::from_violations(
                coded.iter().cloned().chain(rest).collect(),
            ));
        }
    }
    let failure = locate_failure(text, seed);
    forbidden_found(text, spec)?;

    let (path, pointer, err) = failure;
    let (path, pointer) = unknown_key_at_its_path(text, path, pointer, &err.to_string());
    let message = err.to_string();
    let expected = serde_expected(&message);
    let first = Violation::from_parts(
        crate::report::Code::copy_of(spec.parse_error_code),
        path,
        pointer,
        message,
    )
    .with_expected(expected);
    let mut violations = vec![first];
    if let (Some(shape), Ok(document)) = (spec.shape, Json::parse(text)) {
        let mut others = Vec::new();
        shape.with_shapes(&mut |shape| {
            others = other_shape_problems(&document, shape, spec, &violations[0].pointer);
        });
        violations.extend(others);
    }
    // Not the shape for another reason too: a value outside an enum with a code of its own
    // is still reported with that code.
    if let Some((coded, _)) = &coded {
        for v in &mut violations {
            if let Some(c) = coded.iter().find(|c| c.pointer == v.pointer) {
                *v = c.clone();
            }
        }
    }
    Err(Report::from_violations(violations))
}

/// The values of `text` outside an enum that has a code of its own ([`FieldShape::enum_code`]),
/// as violations in document order, and the document without them as JSON text; `None`
/// when there is none (or no shape, or the text is no JSON).
///
/// [`FieldShape::enum_code`]: crate::shape::FieldShape::enum_code
fn coded_enums(text: &str, spec: &DocumentSpec) -> Option<(Vec<Violation>, String)> {
    let shape = spec.shape?;
    let mut coded = false;
    shape.with_shapes(&mut |shapes| coded = shapes.has_enum_codes());
    if !coded {
        return None;
    }
    let document = Json::parse(text).ok()?;
    let mut found = None;
    shape.with_shapes(&mut |shapes| found = crate::shape::coded_enums(&document, shapes));
    let (violations, cleaned) = found?;
    let cleaned = serde_json::to_string(&cleaned).ok()?;
    Some((violations, cleaned))
}

/// An unknown key is reported at its own path (`area.bogus`), as the shape walk reports it.
/// The path tracker names the key itself when serde reads it inside the tracked key read (a
/// field table's struct); a union's members are read outside it (after the tag, or buffered
/// before it), and the error names the union: the key is appended then, when the object at
/// `pointer` has it as a member (a union named like its unknown member, `{"x": {"x": 1, ..}}`
/// with the tag last, stays at the union).
fn unknown_key_at_its_path(
    text: &str,
    mut path: String,
    mut pointer: String,
    message: &str,
) -> (String, String) {
    let Some((key, _)) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
    else {
        return (path, pointer);
    };
    let (mut at_key, mut key_pointer) = (path.clone(), pointer.clone());
    push_key(&mut at_key, &mut key_pointer, key);
    let named = path == key || path.ends_with(&format!(".{key}"));
    if !named && locate_key(text, &key_pointer).is_some() {
        (path, pointer) = (at_key, key_pointer);
    }
    (path, pointer)
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
            Violation::from_parts(
                crate::report::Code::copy_of(spec.forbidden_key_code),
                hit.path,
                hit.pointer,
                message,
            )
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
