//! Reading a pack from a file in either encoding, and converting between them (`specmint
//! taskpack convert IN OUT`), chosen by extension: `.taskpack` is the zip, `.taskpack.json` the
//! flat form, `.tpx` / `.tpx.json` a retired file that is read and never written.
//!
//! A conversion is faithful: the pack object and the luggage go across untouched (nothing is
//! sealed or refused, which is packing's job), so flat → zip → flat and zip → flat → zip give
//! back the same bytes. The output is written atomically (`atomic_file`), so a failed conversion
//! leaves nothing behind.

use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use super::bag::{self, BagError, Limits};
use super::encode;
/// The encoding a file name says (declared beside the writer, which needs it too).
pub use super::encode::Encoding;
use super::flat::{self, FlatError, LuggageFile};
use crate::atomic_file::{write_atomically_for_sharing, AtomicFile};
use specmint_runtime::json::Json;

/// Why a conversion did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ConvertError {
    /// A name with none of the known extensions.
    #[error(
        "`{}`: the name says no encoding (.taskpack, .taskpack.json, or .tpx to read)",
        .0.display()
    )]
    UnknownExtension(PathBuf),
    /// `.tpx` asked for as output: retired files are never produced (§8).
    #[error("`{}`: .tpx is a retired encoding, read but never written", .0.display())]
    NeverWritten(PathBuf),
    /// Reading or writing a file.
    #[error("`{}`: {}", .0.display(), .1)]
    Io(PathBuf, #[source] std::io::Error),
    /// The zip could not be read, or disagrees with its manifests (every problem).
    #[error("{}", super::joined(.0))]
    Bag(Vec<BagError>),
    /// The flat file could not be read or written.
    #[error(transparent)]
    Flat(FlatError),
}

/// Reads a pack for use: its object and its luggage. A zip must agree with both manifests; a
/// flat file's declared digests must match (§2.1, §2.2).
pub fn read_pack(path: &Path, limits: Limits) -> Result<(Json, Vec<LuggageFile>), ConvertError> {
    let encoding =
        Encoding::of(path).ok_or_else(|| ConvertError::UnknownExtension(path.to_owned()))?;
    let io = |e| ConvertError::Io(path.to_owned(), e);
    match encoding {
        Encoding::Zip => {
            let file = File::open(path).map_err(io)?;
            let read = bag::read_zip(BufReader::new(file), limits, true, &mut bag::Ignore)
                .map_err(|e| ConvertError::Bag(vec![e]))?;
            let problems = bag::verify(&read);
            if !problems.is_empty() {
                return Err(ConvertError::Bag(problems));
            }
            flat::from_bag(&read).map_err(ConvertError::Flat)
        }
        Encoding::Flat | Encoding::RetiredTpx => {
            let bytes = fs::read(path).map_err(io)?;
            let pack = flat::read_flat(&bytes).map_err(ConvertError::Flat)?;
            Ok((pack.passport, pack.attachments))
        }
    }
}

/// The bytes of a pack in `encoding`. `max_inline` caps each attachment of the flat form.
pub fn encode(
    encoding: Encoding,
    passport: &Json,
    attachments: &[LuggageFile],
    max_inline: Option<u64>,
) -> Result<Vec<u8>, FlatError> {
    match encoding {
        Encoding::Flat => {
            flat::write_flat(passport, attachments, max_inline).map(String::into_bytes)
        }
        Encoding::Zip | Encoding::RetiredTpx => {
            let luggage = attachments
                .iter()
                .map(|a| (a.name.clone(), a.bytes.clone()))
                .collect();
            let bag = bag::assemble(passport, luggage);
            let members: super::lenient::PackMembers = super::lenient::view(passport);
            let packed_at = members
                .packed_at
                .as_ref()
                .and_then(Json::as_str)
                .unwrap_or_default();
            let cursor = bag::write_zip(std::io::Cursor::new(Vec::new()), &bag, packed_at)
                .expect("writing a zip into memory cannot fail");
            Ok(cursor.into_inner())
        }
    }
}

/// Converts `input` into `output`, each encoding taken from its extension.
pub fn convert(
    input: &Path,
    output: &Path,
    limits: Limits,
    max_inline: Option<u64>,
) -> Result<(), ConvertError> {
    let target = match Encoding::of(output) {
        None => return Err(ConvertError::UnknownExtension(output.to_owned())),
        Some(Encoding::RetiredTpx) => return Err(ConvertError::NeverWritten(output.to_owned())),
        Some(encoding) => encoding,
    };
    if matches!(
        Encoding::of(input),
        Some(Encoding::Flat | Encoding::RetiredTpx)
    ) {
        return convert_flat(input, output, target, max_inline);
    }
    let (passport, attachments) = read_pack(input, limits)?;
    let bytes = encode(target, &passport, &attachments, max_inline).map_err(ConvertError::Flat)?;
    write_atomically_for_sharing(output, &bytes).map_err(|e| ConvertError::Io(output.to_owned(), e))
}

/// Converts a flat (or `.tpx`) file in bounded memory: read once for its structure and once
/// for its digests ([`flat::read_flat_from`]), then each attachment is decoded from it a third
/// time straight into the output.
fn convert_flat(
    input: &Path,
    output: &Path,
    target: Encoding,
    max_inline: Option<u64>,
) -> Result<(), ConvertError> {
    let mut file = File::open(input).map_err(|e| ConvertError::Io(input.to_owned(), e))?;
    let read = flat::read_flat_from(&mut file, &mut bag::Ignore).map_err(ConvertError::Flat)?;
    if target == Encoding::Flat {
        let limit = max_inline.unwrap_or(u64::MAX);
        if let Some(big) = read.luggage.iter().find(|l| l.size > limit) {
            return Err(ConvertError::Flat(FlatError::TooLargeToInline {
                name: big.name.clone(),
                bytes: big.size,
                limit,
            }));
        }
    }
    let io_error = |_: &str, e| ConvertError::Io(output.to_owned(), e);
    let mut out = AtomicFile::create_for_sharing(output).map_err(|e| io_error("", e))?;
    let mut stream = |index: usize, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>| {
        read.stream(&mut file, index, sink)
            .map_err(ConvertError::Flat)
    };
    encode::write(
        target,
        out.writer(),
        &read.passport,
        &read.luggage,
        &mut stream,
        &io_error,
    )?;
    out.commit().map_err(|e| io_error("", e))
}
