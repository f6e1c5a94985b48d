//! Reading the A2A wire: the JSON-RPC and A2A objects the binding reads (leniently, only the
//! members it uses), and a request body's file parts, whose `raw` strings are decoded from the
//! body as they stream rather than parsed into memory.

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde::Deserialize;
use specmint_runtime::json::{present, Json};

use super::answer::RpcError;
use super::door::{internal, too_big, CONTENT_TYPE_NOT_SUPPORTED, INVALID_PARAMS};
use super::spill::{Spill, Spilled};
use crate::taskpack::encodings::convert::Encoding;
use crate::taskpack::encodings::flat::{self, FlatError};
use crate::taskpack::encodings::skeleton::{self, SkeletonError, Span};
use crate::taskpack::encodings::unpack::PackSource;
use crate::taskpack::lenient::{self, OriginView};

// The A2A wire objects this binding reads, as the SDK's protobuf-JSON writes them: only the
// members read, each optional as A2A leaves it and read leniently (a member of another type
// reads as absent, as before). What is passed through (the pack, a stored state, `data` parts,
// a request's `id`) stays `Json`, as received.

/// A JSON-RPC 2.0 request.
#[derive(Default, Deserialize)]
pub(super) struct Request {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) jsonrpc: Option<String>,
    /// Echoed in the response as received.
    #[serde(default, deserialize_with = "present")]
    pub(super) id: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) method: Option<String>,
    /// Read by the method.
    #[serde(default, deserialize_with = "present")]
    pub(super) params: Option<Json>,
}

/// `SendMessage`'s and `GetTask`'s params.
#[derive(Default, Deserialize)]
pub(super) struct Params {
    #[serde(default, deserialize_with = "present")]
    pub(super) message: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) id: Option<String>,
}

/// A `Message` (its `parts`) or an `Artifact` (its `parts`).
#[derive(Default, Deserialize)]
pub(super) struct WithParts {
    #[serde(default, deserialize_with = "lenient::views")]
    pub(super) parts: Vec<Part>,
}

/// A `Part`: a file part has `raw` (base64) and a `filename`, or a `url`.
#[derive(Default, Deserialize)]
pub(super) struct Part {
    #[serde(default, deserialize_with = "present")]
    pub(super) raw: Option<Json>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) filename: Option<String>,
    #[serde(default, deserialize_with = "present")]
    pub(super) url: Option<Json>,
}

/// A `Task`, as `from-a2a` reads it.
#[derive(Default, Deserialize)]
pub(super) struct Task {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) id: Option<String>,
    /// Keyed by extension URI.
    #[serde(default, deserialize_with = "present")]
    pub(super) metadata: Option<Json>,
    #[serde(default, deserialize_with = "lenient::views")]
    pub(super) artifacts: Vec<WithParts>,
    #[serde(default, deserialize_with = "lenient::items")]
    pub(super) history: Vec<Json>,
}

/// This extension's member of a Task's `metadata`.
#[derive(Default, Deserialize)]
pub(super) struct Carried {
    #[serde(default, deserialize_with = "lenient::or_default")]
    pub(super) spec: Option<String>,
    /// The pack object, passed on as received.
    #[serde(default, deserialize_with = "present")]
    pub(super) pack: Option<Json>,
}

/// What the binding reads of a pack object or a task state: `lineage`, `origin` (a pack's),
/// `version` and `artifacts` (a state's), `passport` (a pack's).
#[derive(Default, Deserialize)]
pub(super) struct Members {
    #[serde(default, deserialize_with = "present")]
    pub(super) lineage: Option<Json>,
    #[serde(default, deserialize_with = "lenient::view_or_default")]
    pub(super) origin: OriginView,
    #[serde(default, deserialize_with = "present")]
    pub(super) version: Option<Json>,
    #[serde(default, deserialize_with = "lenient::items")]
    pub(super) artifacts: Vec<Json>,
    /// A pack's task state.
    #[serde(default, deserialize_with = "present")]
    pub(super) passport: Option<Json>,
}

/// The skeleton of a JSON-RPC body, its file parts' `raw` strings left out (numbered). `None`
/// when the body starts with a byte order mark: JSON text has none (`Json::parse` refuses one).
pub(super) fn read_skeleton<R: Read + Seek>(
    body: &mut R,
) -> Result<Option<skeleton::Skeleton>, SkeletonError> {
    let io = |e: std::io::Error| SkeletonError::Io(e.to_string());
    body.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut head = Vec::with_capacity(3);
    (&mut *body).take(3).read_to_end(&mut head).map_err(io)?;
    if head == b"\xef\xbb\xbf" {
        return Ok(None);
    }
    body.seek(SeekFrom::Start(0)).map_err(io)?;
    skeleton::skeleton_of(
        std::io::BufReader::with_capacity(1 << 16, &mut *body),
        skeleton::PARTS_RAW,
    )
    .map(Some)
}

/// The body a request was read from, and where its file parts' `raw` strings lie in it (the
/// skeleton writes each as its index here).
pub(super) struct Raws<'a, R> {
    pub(super) body: &'a mut R,
    pub(super) spans: &'a [Span],
}

impl<R: Read + Seek> Raws<'_, R> {
    /// The span a part's `raw` member names: `None` when it is not a string (read as empty).
    pub(super) fn span(&self, raw: &Json) -> Result<Option<Span>, RpcError> {
        let Some(index) = raw.as_str() else {
            return Ok(None);
        };
        index
            .parse::<usize>()
            .ok()
            .and_then(|i| self.spans.get(i))
            .map(|span| Some(*span))
            .ok_or_else(|| internal(format!("`raw` names no string of the body: {index:?}")))
    }

    /// Decodes the base64 at `span` into `sink`: the decoded length, or `Ok(None)` when it is not
    /// standard base64.
    pub(super) fn decode(
        &mut self,
        span: Option<Span>,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
    ) -> Result<Option<u64>, RpcError> {
        let Some(span) = span else {
            return Ok(Some(0));
        };
        let mut len = 0u64;
        let decoded = flat::decode_span(self.body, span, true, "", &mut |bytes| {
            len += bytes.len() as u64;
            sink(bytes)
        });
        match decoded {
            Ok(()) => Ok(Some(len)),
            Err(FlatError::Attachment { reason, .. }) if reason.starts_with(flat::NOT_BASE64) => {
                Ok(None)
            }
            Err(FlatError::Attachment { reason, .. }) => {
                Err(internal(format!("the pack's `raw` {reason}")))
            }
            Err(other) => Err(internal(other)),
        }
    }
}

/// The one file part of `message` that holds a pack: its name, its decoded bytes, and their
/// size. Every pack part is checked in order, as a whole read would: the first is decoded, any
/// other only counted (the answer then refuses them all).
pub(super) fn pack_part<R: Read + Seek>(
    message: &Json,
    max: usize,
    mut raws: Raws<'_, R>,
) -> Result<(String, DecodedPack, u64), RpcError> {
    let mut found = Vec::new();
    let message: WithParts = lenient::view(message);
    for (i, part) in message.parts.iter().enumerate() {
        let at = format!("message.parts[{i}]");
        let name = part.filename.as_deref().unwrap_or_default();
        if part.url.is_some() {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!(
                    "`{at}` refers to a file by `url`: the door fetches nothing, send the \
                     pack's bytes inline (`raw`)"
                ),
            ));
        }
        let Some(raw) = &part.raw else {
            continue;
        };
        let encoding = match Encoding::of(Path::new(name)) {
            Some(e @ (Encoding::Zip | Encoding::Flat)) => e,
            _ => {
                return Err(RpcError::new(
                    CONTENT_TYPE_NOT_SUPPORTED,
                    format!(
                        "`{at}` is {}, not a .taskpack or .taskpack.json",
                        if name.is_empty() {
                            "a file with no `filename`".to_owned()
                        } else {
                            format!("`{name}`")
                        }
                    ),
                ))
            }
        };
        let span = raws.span(raw)?;
        let raw_len = span.map_or(0, |s| usize::try_from(s.unescaped).unwrap_or(usize::MAX));
        // base64 is 4 characters per 3 bytes: refuse before decoding what could not fit.
        if raw_len / 4 * 3 > max.saturating_add(3) {
            return Err(too_big(&at, raw_len / 4 * 3, max));
        }
        let decoded = if found.is_empty() {
            let mut pack = DecodedPack::new(encoding);
            raws.decode(span, &mut |bytes| pack.bytes.write_all(bytes))?
                .map(|len| (len, Some(pack)))
        } else {
            raws.decode(span, &mut |_| Ok(()))?.map(|len| (len, None))
        };
        let Some((len, file)) = decoded else {
            return Err(RpcError::new(
                INVALID_PARAMS,
                format!("`{at}.raw` is not standard base64"),
            ));
        };
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        if len > max {
            return Err(too_big(&at, len, max));
        }
        found.push((at, name.to_owned(), file, len));
    }
    match found.len() {
        0 => Err(RpcError::new(
            INVALID_PARAMS,
            "no part of the message is a file part (`raw` and a `filename` ending .taskpack or \
             .taskpack.json) holding a pack",
        )),
        1 => {
            let (_, name, pack, len) = found.remove(0);
            let pack = pack.expect("the first pack part is decoded");
            Ok((name, pack, len as u64))
        }
        n => Err(RpcError::new(
            INVALID_PARAMS,
            format!(
                "the message holds {n} packs ({} and {}): send one per message",
                found[0].0, found[1].0
            ),
        )),
    }
}

/// The most bytes of a pack held in memory as it is decoded: a larger one goes on into a
/// temporary file, so that what an answer holds stays bounded whatever the pack's size.
pub const PACK_IN_MEMORY_BYTES: usize = 1 << 20;

/// A pack decoded from a request: in memory up to [`PACK_IN_MEMORY_BYTES`] (a small landing
/// touches no file but the store's), past that in a temporary file named for its encoding.
pub(super) struct DecodedPack {
    pub(super) bytes: Spill,
    pub(super) encoding: Encoding,
}

impl DecodedPack {
    pub(super) fn new(encoding: Encoding) -> Self {
        let suffix = match encoding {
            Encoding::Flat => ".taskpack.json",
            _ => ".taskpack",
        };
        DecodedPack {
            bytes: Spill::new(PACK_IN_MEMORY_BYTES, "specmint-a2a-", suffix),
            encoding,
        }
    }

    /// Where the landing reads it.
    pub(super) fn source(&self) -> PackSource<'_> {
        match self.bytes.spilled() {
            Spilled::Memory(held) => PackSource::Bytes(held, self.encoding),
            Spilled::File(path) => PackSource::File(path),
        }
    }
}
