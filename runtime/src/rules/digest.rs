//! Content checked against its declared SHA-256 and byte count.

use core::fmt::Display;

use crate::path::{Path, Seg};
use crate::report::{Report, Violation};

use super::{n, shown, Shown};

/// A declared byte count, for [`digest`]'s `length`: any integer, or an `Option` of one
/// (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a byte count",
    label = "`length` must name an integer field (or an `Option` of one)"
)]
pub trait ByteCount {
    /// The declared count, `None` when nothing is declared.
    fn byte_count(&self) -> Option<i128>;
}

macro_rules! byte_count {
    ($($t:ty),*) => {$(
        impl ByteCount for $t {
            fn byte_count(&self) -> Option<i128> {
                Some(i128::from(*self))
            }
        }
    )*};
}
byte_count!(u8, u16, u32, u64, i8, i16, i32, i64);

impl ByteCount for usize {
    fn byte_count(&self) -> Option<i128> {
        Some(i128::try_from(*self).unwrap_or(i128::MAX))
    }
}

impl ByteCount for isize {
    fn byte_count(&self) -> Option<i128> {
        Some(i128::try_from(*self).unwrap_or(i128::MAX))
    }
}

impl<T: ByteCount> ByteCount for Option<T> {
    fn byte_count(&self) -> Option<i128> {
        self.as_ref().and_then(ByteCount::byte_count)
    }
}

impl<T: ByteCount + ?Sized> ByteCount for &T {
    fn byte_count(&self) -> Option<i128> {
        (**self).byte_count()
    }
}

/// The fields [`digest`] reads, already taken out of the struct (the derive fills this in
/// with [`TextField::text`](super::TextField::text) and [`ByteCount::byte_count`]). Names are the fields' names in
/// paths.
#[derive(Clone, Copy)]
pub struct DigestFields<'a> {
    /// The declared SHA-256, hex (either case); `None`: the digest is not checked.
    pub sha256: Option<&'a str>,
    /// Name of the `sha256` field.
    pub sha256_name: &'a str,
    /// The content; `None`: nothing is checked.
    pub data: Option<&'a str>,
    /// Name of the `data` field.
    pub data_name: &'a str,
    /// How `data` is encoded, by its `Display`: `utf8` (its UTF-8 bytes) or `base64`
    /// (standard alphabet, padded). Any other encoding: nothing is checked.
    pub encoding: &'a dyn Display,
    /// A name for the content in messages (e.g. a file name), if any.
    pub label: Option<&'a str>,
    /// The declared byte count, if any.
    pub length: Option<i128>,
    /// Name of the `length` field (`""` when the rule has none).
    pub length_name: &'a str,
}

impl core::fmt::Debug for DigestFields<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DigestFields")
            .field("sha256", &self.sha256)
            .field("data", &self.data.map(shown))
            .field("encoding", &format_args!("{}", self.encoding))
            .field("label", &self.label)
            .field("length", &self.length)
            .finish_non_exhaustive()
    }
}

/// `true` when `value`'s `Display` is exactly `expected`, without allocating.
fn display_eq(value: &dyn Display, expected: &str) -> bool {
    struct Eq<'e> {
        rest: &'e str,
        ok: bool,
    }
    impl core::fmt::Write for Eq<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            match self.rest.strip_prefix(s) {
                Some(rest) if self.ok => self.rest = rest,
                _ => self.ok = false,
            }
            Ok(())
        }
    }
    let mut w = Eq {
        rest: expected,
        ok: true,
    };
    core::fmt::write(&mut w, format_args!("{value}")).is_ok() && w.ok && w.rest.is_empty()
}

/// Feeds the bytes `data` encodes into `sink`, chunk by chunk on the stack; `None` when the
/// encoding is unknown, `Some(Err(()))` when base64 does not decode.
/// What a digest rule reads of data that was decoded elsewhere, as it streamed: whether it
/// decoded, its SHA-256 and its length. See [`StreamedData`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streamed {
    /// Whether the data decoded (base64 that does not decode is reported as such).
    pub decoded: bool,
    /// The decoded bytes' SHA-256.
    pub sha256: [u8; 32],
    /// Their length.
    pub length: u64,
}

/// The digest facts of data strings that were decoded elsewhere, as they streamed, by the path
/// of the struct whose data field each one is (`attachments[2]` as
/// `Path::ROOT.field("attachments").index(2)`): for a document validated with those strings
/// left out because they are too large to hold (TaskPack's flat form, whose reader streams
/// them). A validation reads them from its report ([`Report::with_streamed`],
/// [`parse_document_streamed`](crate::document::parse_document_streamed)); the digest rule then
/// takes a struct's facts from here instead of decoding its data field. Everything else the
/// rule does, and every other rule, is unchanged.
///
/// ```
/// use specmint_runtime::rules::{Streamed, StreamedData};
/// use specmint_runtime::Path;
///
/// let list = Path::ROOT.field("attachments");
/// let mut found = StreamedData::new();
/// found.insert(&list.index(2), Streamed { decoded: true, sha256: [0; 32], length: 0 });
/// assert!(found.get(&list.index(2)).is_some());
/// assert!(found.get(&list.index(1)).is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamedData {
    by_path: std::collections::BTreeMap<Vec<OwnedSeg>, Streamed>,
}

/// A [`Seg`] that owns its field name (a path's names live only as long as the path).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum OwnedSeg {
    Field(Box<str>),
    Index(usize),
}

/// The segments of `path`, owned.
fn owned_segments(path: &Path<'_>) -> Vec<OwnedSeg> {
    path.segments()
        .into_iter()
        .map(|seg| match seg {
            Seg::Field(name) => OwnedSeg::Field(name.into()),
            Seg::Index(i) => OwnedSeg::Index(i),
        })
        .collect()
}

impl StreamedData {
    /// No facts.
    pub fn new() -> Self {
        StreamedData::default()
    }

    /// The facts of the data of the struct at `path`.
    pub fn insert(&mut self, path: &Path<'_>, facts: Streamed) {
        self.by_path.insert(owned_segments(path), facts);
    }

    /// The facts given for the struct at `path`, if any.
    pub fn get(&self, path: &Path<'_>) -> Option<Streamed> {
        if self.by_path.is_empty() {
            return None;
        }
        self.by_path.get(&owned_segments(path)).copied()
    }

    /// Whether no facts were given.
    pub fn is_empty(&self) -> bool {
        self.by_path.is_empty()
    }
}

fn decode_into(
    data: &str,
    encoding: &dyn Display,
    mut sink: impl FnMut(&[u8]),
) -> Option<Result<(), ()>> {
    use base64::Engine as _;
    if display_eq(encoding, "utf8") {
        sink(data.as_bytes());
        return Some(Ok(()));
    }
    if !display_eq(encoding, "base64") {
        return None;
    }
    // Standard alphabet with canonical padding: cutting the input at multiples of 4 chars
    // gives the same bytes (and the same verdict) as decoding it whole.
    const CHUNK: usize = 1024;
    let mut buf = [0u8; CHUNK / 4 * 3];
    let bytes = data.as_bytes();
    // Decoded a chunk at a time, as the whole text decodes: its length a multiple of four and
    // padding only in its last quad (a chunk ending in `==` is no end when more follows).
    let last_quad = bytes.len().saturating_sub(4);
    if bytes.len() % 4 != 0 || bytes[..last_quad].contains(&b'=') {
        return Some(Err(()));
    }
    for chunk in bytes.chunks(CHUNK) {
        match base64::engine::general_purpose::STANDARD.decode_slice(chunk, &mut buf) {
            Ok(n) => sink(&buf[..n]),
            Err(_) => return Some(Err(())),
        }
    }
    Some(Ok(()))
}

fn hex_lower(bytes: &[u8; 32]) -> [u8; 64] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 64];
    for (i, b) in bytes.iter().enumerate() {
        out[2 * i] = HEX[usize::from(b >> 4)];
        out[2 * i + 1] = HEX[usize::from(b & 15)];
    }
    out
}

/// Cuts `s` to 8 chars, then `…`, for digests in messages.
fn short_hex(s: &str) -> Shown<'_> {
    Shown(s, 8)
}

/// The content of a struct must match its declared SHA-256 (and byte count). `path` is the
/// struct's. Nothing is checked when `data` is `None` or the encoding is neither `utf8` nor
/// `base64`; otherwise, when `sha256` or `length` is declared, the content is decoded
/// (without allocating) and hashed, and in this order:
///
/// - base64 that does not decode: `` `attachments[1].data` is not valid base64 `` (with a
///   label: `` `attachments[1].data` (`brief.txt`) is not valid base64 ``), path the data
///   field's; nothing else is checked;
/// - a declared digest that differs (hex compared ignoring ASCII case):
///   `` `attachments[1]` (`brief.txt`): declared sha256 `abcdef01…` does not match its bytes (`e3b0c442…`) ``
///   (without a label: `` `attachments[1]`: declared ... ``; at the root: `the document: ...`;
///   both digests cut to 8 chars), path the `sha256` field's;
/// - a declared byte count that differs:
///   `` `attachments[1].bytes` is 10 but `brief.txt` has 12 bytes `` (without a label, the
///   data field's path in backticks instead of the label), path the `length` field's.
pub fn digest(fields: &DigestFields<'_>, path: &Path<'_>, code: &str, report: &mut Report) {
    use sha2::Digest as _;
    let Some(data) = fields.data else { return };
    if fields.sha256.is_none() && fields.length.is_none() {
        return;
    }
    let (decoded, actual, len) = match report.streamed(path) {
        Some(found) => (
            Some(found.decoded.then_some(()).ok_or(())),
            found.sha256,
            found.length,
        ),
        None => {
            let mut hasher = sha2::Sha256::new();
            let mut len: u64 = 0;
            let decoded = decode_into(data, fields.encoding, |bytes| {
                hasher.update(bytes);
                len += n(bytes.len());
            });
            (decoded, hasher.finalize().into(), len)
        }
    };
    let label = fields.label.map(shown);
    match decoded {
        None => return,
        Some(Ok(())) => {}
        Some(Err(())) => {
            let at = path.field(fields.data_name);
            report.push_with(|| {
                Violation::with_message(crate::report::Code::copy_of(code), &at, |at| match label {
                    Some(label) => message!(at, "`{at}` (`{label}`) is not valid base64"),
                    None => message!(at, "`{at}` is not valid base64"),
                })
            });
            return;
        }
    }
    let actual = hex_lower(&actual);
    if let Some(declared) = fields.sha256 {
        if !declared.as_bytes().eq_ignore_ascii_case(&actual) {
            let at = path.field(fields.sha256_name);
            let subject = if path.is_root() {
                "the document".to_owned()
            } else {
                format!("`{path}`")
            };
            let actual = core::str::from_utf8(&actual).unwrap_or_default();
            let message = match label {
                Some(label) => format!(
                    "{subject} (`{label}`): declared sha256 `{}` does not match its bytes (`{}`)",
                    short_hex(declared),
                    short_hex(actual)
                ),
                None => format!(
                    "{subject}: declared sha256 `{}` does not match its bytes (`{}`)",
                    short_hex(declared),
                    short_hex(actual)
                ),
            };
            let expected = super::quoted(short_hex(actual));
            let data = path.field(fields.data_name);
            report.push_with(|| {
                Violation::new(crate::report::Code::copy_of(code), &at, message)
                    .with_expected(expected)
                    .with_other(data.dotted())
            });
        }
    }
    if let Some(declared) = fields.length {
        if declared != i128::from(len) {
            let at = path.field(fields.length_name);
            let data = path.field(fields.data_name);
            report.push_with(|| {
                let mut v =
                    Violation::with_message(crate::report::Code::copy_of(code), &at, |at| {
                        match label {
                            Some(label) => {
                                message!(at, "`{at}` is {declared} but `{label}` has {len} bytes")
                            }
                            None => {
                                message!(at, "`{at}` is {declared} but `{data}` has {len} bytes")
                            }
                        }
                    });
                v.measured = Some(len);
                v.limit = u64::try_from(declared).ok();
                v.with_expected(len.to_string()).with_other(data.dotted())
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_into, display_eq};

    /// Chunked decoding accepts and refuses what decoding the whole text at once does, pads
    /// at a chunk's end included.
    #[test]
    fn base64_is_decoded_as_the_whole_text_decodes() {
        use base64::Engine as _;
        let engine = base64::engine::general_purpose::STANDARD;
        let long = "QUJD".repeat(255);
        for text in [
            format!("{long}QQ=="),
            format!("{long}QQ==QUJD"),
            format!("{long}QUJD{long}QUI="),
            format!("{long}QUI=QUI="),
            "QQ=".to_owned(),
            "Q===".to_owned(),
            String::new(),
        ] {
            let mut streamed = Vec::new();
            let result = decode_into(&text, &"base64", |b| streamed.extend_from_slice(b));
            let mut whole = [0u8; 4096];
            match engine.decode_slice(&text, &mut whole) {
                Ok(n) => {
                    assert_eq!(result, Some(Ok(())), "{text}");
                    assert_eq!(streamed, &whole[..n], "{text}");
                }
                Err(_) => assert_eq!(result, Some(Err(())), "{text}"),
            }
        }
    }

    #[test]
    fn display_eq_compares_without_building_a_string() {
        assert!(display_eq(&"utf8", "utf8"));
        assert!(display_eq(&format_args!("{}{}", "ut", "f8"), "utf8"));
        assert!(!display_eq(&"utf8x", "utf8"));
        assert!(!display_eq(&"utf", "utf8"));
        assert!(!display_eq(&"", "utf8"));
    }
}
