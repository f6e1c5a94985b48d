//! Reading a pack from a file in either encoding, and converting between them (`specmint
//! taskpack convert IN OUT`), chosen by extension: `.taskpack` is the zip, `.taskpack.json` the
//! flat form, `.tpx` / `.tpx.json` a retired file that is read and never written.
//!
//! A conversion is faithful: the pack object and the luggage go across untouched (nothing is
//! sealed or refused, which is packing's job), so flat → zip → flat and zip → flat → zip give
//! back the same bytes. The output is written atomically (`atomic_file`), so a failed conversion
//! leaves nothing behind. [`convert`] holds no attachment whole, whatever the encodings: each is
//! read twice from the input (once to check and describe it, once into the output), a buffer at
//! a time. [`read_pack`] and [`encode`] are the plain forms, for packs held in memory.

use std::fs::{self, File};
use std::io::{BufReader, Read as _};
use std::path::{Path, PathBuf};

use crate::atomic_file::AtomicFile;
use crate::taskpack::encodings::bag::{self, BagError, Limits};
use crate::taskpack::encodings::encode;
/// The encoding a file name says (declared beside the writer, which needs it too).
pub use crate::taskpack::encodings::encode::Encoding;
use crate::taskpack::encodings::flat::{self, FlatError, Listed, LuggageFile};
use sha2::{Digest, Sha256};
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
    #[error("{}", crate::taskpack::joined(.0))]
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
            let members: crate::taskpack::lenient::PackMembers =
                crate::taskpack::lenient::view(passport);
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
    match Encoding::of(input) {
        None => Err(ConvertError::UnknownExtension(input.to_owned())),
        Some(Encoding::Zip) => convert_zip(input, output, target, limits, max_inline),
        Some(Encoding::Flat | Encoding::RetiredTpx) => {
            convert_flat(input, output, target, max_inline)
        }
    }
}

/// Refuses, by name, the first attachment over `max_inline` when the target is the flat form
/// (§2.2), before anything is written.
fn refuse_inline(
    target: Encoding,
    luggage: &[Listed],
    max_inline: Option<u64>,
) -> Result<(), ConvertError> {
    if target != Encoding::Flat {
        return Ok(());
    }
    let limit = max_inline.unwrap_or(u64::MAX);
    match luggage.iter().find(|l| l.size > limit) {
        Some(big) => Err(ConvertError::Flat(FlatError::TooLargeToInline {
            name: big.name.clone(),
            bytes: big.size,
            limit,
        })),
        None => Ok(()),
    }
}

/// Converts a zip in bounded memory. It is read once as [`read_pack`] reads it (hostile
/// archives refused, every entry inflated through the caps and hashed, both manifests
/// verified), keeping the tag files and the pack object but not the luggage: of each
/// attachment only its size, digest and whether it is readable text (which decides `utf8` or
/// `base64` in the flat form, and which the flat form states before the data). Then each
/// attachment is inflated a second time straight into the output, hashed again on its way: bytes
/// that no longer match the first read (the file changed in between) fail the conversion, and
/// the output is never put in place.
fn convert_zip(
    input: &Path,
    output: &Path,
    target: Encoding,
    limits: Limits,
    max_inline: Option<u64>,
) -> Result<(), ConvertError> {
    let open = || File::open(input).map_err(|e| ConvertError::Io(input.to_owned(), e));
    let mut texts = TextKinds::default();
    let read = bag::read_zip(BufReader::new(open()?), limits, false, &mut texts)
        .map_err(|e| ConvertError::Bag(vec![e]))?;
    let problems = bag::verify(&read);
    if !problems.is_empty() {
        return Err(ConvertError::Bag(problems));
    }
    let passport = flat::passport_of(&read).map_err(ConvertError::Flat)?;
    let entries: Vec<&bag::Entry> = read
        .entries
        .iter()
        .filter(|e| e.luggage_name().is_some())
        .collect();
    let luggage: Vec<Listed> = entries
        .iter()
        .zip(texts.readable)
        .map(|(entry, readable)| Listed {
            name: entry.luggage_name().unwrap_or_default().to_owned(),
            size: entry.size,
            sha256: entry.sha256,
            readable,
        })
        .collect();
    refuse_inline(target, &luggage, max_inline)?;
    let mut again = Reread::open(BufReader::new(open()?))?;
    let io_error = |_: &str, e| ConvertError::Io(output.to_owned(), e);
    let mut out = AtomicFile::create_for_sharing(output).map_err(|e| io_error("", e))?;
    let mut stream = |index: usize, sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>| {
        again.stream(index, entries[index], sink, output)
    };
    encode::write(
        target,
        out.writer(),
        &passport,
        &luggage,
        &mut stream,
        &io_error,
    )?;
    out.commit().map_err(|e| io_error("", e))
}

/// Notes, attachment by attachment, whether its bytes are readable text
/// ([`flat::is_readable_text`], streamed).
#[derive(Default)]
struct TextKinds {
    current: flat::TextTest,
    readable: Vec<bool>,
}

impl bag::Observer for TextKinds {
    fn start(&mut self, _: &str) {
        self.current = flat::TextTest::default();
    }
    fn chunk(&mut self, bytes: &[u8]) {
        self.current.feed(bytes);
    }
    fn finish(&mut self) {
        let done = std::mem::take(&mut self.current);
        self.readable.push(done.finish());
    }
}

/// A zip that [`bag::read_zip`] read and [`bag::verify`] vouched for, opened again to stream
/// its luggage: the archive, and the index of each luggage entry in the bag's order.
struct Reread<R> {
    archive: zip::ZipArchive<R>,
    luggage: Vec<usize>,
    buffer: Vec<u8>,
}

/// What a second read of a zip says when the bytes are not the ones the first read checked.
const CHANGED: &str = "changed while it was read: not the bytes its manifest vouched for";

impl<R: std::io::Read + std::io::Seek> Reread<R> {
    fn open(reader: R) -> Result<Self, ConvertError> {
        let not_zip =
            |e: zip::result::ZipError| ConvertError::Bag(vec![BagError::NotZip(e.to_string())]);
        let mut archive = zip::ZipArchive::new(reader).map_err(not_zip)?;
        let mut luggage = Vec::new();
        for index in 0..archive.len() {
            let name = archive
                .by_index_raw(index)
                .map_err(not_zip)?
                .name_raw()
                .to_owned();
            if name.starts_with(bag::FILES_DIR.as_bytes()) && !name.ends_with(b"/") {
                luggage.push(index);
            }
        }
        Ok(Reread {
            archive,
            luggage,
            buffer: vec![0u8; 64 * 1024],
        })
    }

    /// Inflates luggage `index` again into `sink`, checking it is `expected` byte for byte.
    fn stream(
        &mut self,
        index: usize,
        expected: &bag::Entry,
        sink: &mut dyn FnMut(&[u8]) -> std::io::Result<()>,
        output: &Path,
    ) -> Result<(), ConvertError> {
        let failed = |reason: String| {
            ConvertError::Bag(vec![BagError::Read {
                entry: expected.name.clone(),
                reason,
            }])
        };
        let changed = || failed(CHANGED.to_owned());
        let at = *self.luggage.get(index).ok_or_else(changed)?;
        let mut file = self
            .archive
            .by_index(at)
            .map_err(|e| failed(e.to_string()))?;
        if file.name_raw() != expected.name.as_bytes() {
            return Err(changed());
        }
        let mut hasher = Sha256::new();
        let mut size = 0u64;
        loop {
            let n = match file.read(&mut self.buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(failed(e.to_string())),
            };
            size += n as u64;
            if size > expected.size {
                return Err(changed());
            }
            hasher.update(&self.buffer[..n]);
            sink(&self.buffer[..n]).map_err(|e| ConvertError::Io(output.to_owned(), e))?;
        }
        if size != expected.size || <[u8; 32]>::from(hasher.finalize()) != expected.sha256 {
            return Err(changed());
        }
        Ok(())
    }
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
    refuse_inline(target, &read.luggage, max_inline)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn zip_of(luggage: &[(&str, &[u8])]) -> Vec<u8> {
        let object =
            Json::parse(r#"{"spec":"task-passport-bag/0.1","packed_at":"2026-12-02T00:00:00Z"}"#)
                .unwrap();
        let luggage = luggage
            .iter()
            .map(|(name, bytes)| (name.to_string(), bytes.to_vec()))
            .collect();
        let bag = bag::assemble(&object, luggage);
        bag::write_zip(Cursor::new(Vec::new()), &bag, "2026-12-02T00:00:00Z")
            .unwrap()
            .into_inner()
    }

    /// The second read of a zip refuses bytes other than the ones the first read hashed (a
    /// file replaced between the two): a changed byte, a longer or shorter entry, another name.
    #[test]
    fn a_zip_that_changed_between_the_two_reads_is_refused_by_entry() {
        let first = zip_of(&[("a.txt", b"the bytes vouched for")]);
        let read = bag::read_zip(
            Cursor::new(&first),
            Limits::default(),
            false,
            &mut bag::Ignore,
        )
        .unwrap();
        let entry = read.get("data/files/a.txt").unwrap();
        let output = Path::new("out.taskpack.json");
        let again = |zip: Vec<u8>| {
            let mut streamed = Vec::new();
            let result = Reread::open(Cursor::new(zip)).and_then(|mut reread| {
                reread.stream(
                    0,
                    entry,
                    &mut |b| {
                        streamed.extend_from_slice(b);
                        Ok(())
                    },
                    output,
                )
            });
            (result.map_err(|e| e.to_string()), streamed)
        };
        assert_eq!(
            again(first.clone()),
            (Ok(()), b"the bytes vouched for".to_vec())
        );
        let changed = Err(format!("`data/files/a.txt` cannot be read: {CHANGED}"));
        for zip in [
            zip_of(&[("a.txt", b"the bytes vouched FOR")]),
            zip_of(&[("a.txt", b"the bytes vouched for, and more")]),
            zip_of(&[("a.txt", b"the bytes")]),
            zip_of(&[("b.txt", b"the bytes vouched for")]),
            zip_of(&[]),
        ] {
            assert_eq!(again(zip).0, changed);
        }
        let refused = Reread::open(Cursor::new(b"not a zip".to_vec())).map(|_| ());
        assert!(
            matches!(&refused, Err(ConvertError::Bag(e)) if matches!(e[..], [BagError::NotZip(_)])),
            "{refused:?}"
        );
    }
}
