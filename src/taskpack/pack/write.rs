//! Writing the pack in either encoding, reading each attachment a second time (its digest
//! must not have changed since the first read).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::atomic_file::AtomicFile;
use crate::taskpack::bag::{self, hex, FILES_DIR, PASSPORT_JSON};
use crate::taskpack::convert::Encoding;
use crate::taskpack::flat::{FLAT_VERSION, NOTE_TO_READER};
use specmint_runtime::json::Json;

use super::luggage::read_some;
use super::{Luggage, PackError, Refusal, CHUNK};

/// Writes the pack to a temporary file beside `out` (committed by the caller).
pub(super) fn write_pack(
    out: &Path,
    encoding: Encoding,
    object: &Json,
    luggage: &[Luggage],
) -> Result<AtomicFile, PackError> {
    let io = |e| PackError::Io(out.to_owned(), e);
    let mut file = AtomicFile::create_for_sharing(out).map_err(io)?;
    match encoding {
        Encoding::Flat => write_flat(file.writer(), object, luggage)?,
        Encoding::Zip | Encoding::RetiredTpx => write_zip(file.writer(), object, luggage)?,
    }
    Ok(file)
}

/// Streams one attachment's bytes to `sink` in full reads of [`CHUNK`] (the last one shorter),
/// checking they are still the bytes the first read hashed.
fn second_read(
    luggage: &Luggage,
    mut sink: impl FnMut(&[u8]) -> io::Result<()>,
) -> Result<(), PackError> {
    let io = |e| PackError::Io(luggage.source.clone(), e);
    let mut file = File::open(&luggage.source).map_err(io)?;
    let mut buffer = vec![0u8; CHUNK];
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    loop {
        // Fill the buffer (a short read would break the base64 concatenation).
        let mut filled = 0;
        while filled < buffer.len() {
            let n = read_some(&mut file, &mut buffer[filled..]).map_err(io)?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            break;
        }
        hasher.update(&buffer[..filled]);
        size += filled as u64;
        sink(&buffer[..filled]).map_err(io)?;
        if filled < buffer.len() {
            break;
        }
    }
    let digest: [u8; 32] = hasher.finalize().into();
    if digest != luggage.sha256 || size != luggage.size {
        return Err(PackError::Refused(vec![Refusal {
            code: "luggage_changed",
            message: format!(
                "attachment `{}` (from `{}`) changed while it was being packed",
                luggage.name,
                luggage.source.display()
            ),
        }]));
    }
    Ok(())
}

/// The zip form: the entries `bag::assemble` makes, in its order, the luggage streamed.
pub(super) fn write_zip<W: Write + io::Seek>(
    out: &mut W,
    object: &Json,
    luggage: &[Luggage],
) -> Result<(), PackError> {
    let packed_at = object
        .get("packed_at")
        .and_then(Json::as_str)
        .unwrap_or_default();
    let passport_json = format!("{}\n", object.to_js_pretty()).into_bytes();
    let passport_sha: [u8; 32] = Sha256::digest(&passport_json).into();
    let names: Vec<String> = luggage
        .iter()
        .map(|l| format!("{FILES_DIR}{}", l.name))
        .collect();
    let mut payload: Vec<(&str, u64, [u8; 32])> =
        vec![(PASSPORT_JSON, passport_json.len() as u64, passport_sha)];
    payload.extend(
        luggage
            .iter()
            .zip(&names)
            .map(|(l, name)| (name.as_str(), l.size, l.sha256)),
    );
    let zip_error =
        |e: zip::result::ZipError| PackError::Io(PathBuf::from(PASSPORT_JSON), io::Error::other(e));
    let mut writer = zip::ZipWriter::new(out);
    for entry in bag::tag_files(object, &payload) {
        let bytes = entry.bytes.expect("tag files hold their bytes");
        writer
            .start_file(
                entry.name.as_str(),
                bag::entry_options(packed_at, bytes.len() as u64),
            )
            .map_err(zip_error)?;
        writer
            .write_all(&bytes)
            .map_err(|e| PackError::Io(PathBuf::from(&entry.name), e))?;
    }
    writer
        .start_file(
            PASSPORT_JSON,
            bag::entry_options(packed_at, passport_json.len() as u64),
        )
        .map_err(zip_error)?;
    writer
        .write_all(&passport_json)
        .map_err(|e| PackError::Io(PathBuf::from(PASSPORT_JSON), e))?;
    for (item, name) in luggage.iter().zip(&names) {
        writer
            .start_file(name.as_str(), bag::entry_options(packed_at, item.size))
            .map_err(zip_error)?;
        second_read(item, |bytes| writer.write_all(bytes))?;
    }
    writer.finish().map_err(zip_error)?;
    Ok(())
}

/// The flat form, byte for byte what `flat::write_flat` writes, each attachment's data
/// streamed.
pub(super) fn write_flat<W: Write>(
    out: &mut W,
    object: &Json,
    luggage: &[Luggage],
) -> Result<(), PackError> {
    let io = |e| PackError::Io(PathBuf::from("<pack>"), e);
    let text = |s: &str| Json::Str(s.to_owned());
    let head = Json::Object(vec![
        ("taskpack".to_owned(), text(FLAT_VERSION)),
        ("encoding".to_owned(), text("flat")),
        ("note_to_reader".to_owned(), text(NOTE_TO_READER)),
        ("passport".to_owned(), object.clone()),
        ("attachments".to_owned(), Json::Array(Vec::new())),
    ])
    .to_js_pretty();
    if luggage.is_empty() {
        return writeln!(out, "{head}").map_err(io);
    }
    let prefix = head
        .strip_suffix("[]\n}")
        .expect("the flat form ends with its attachments");
    writeln!(out, "{prefix}[").map_err(io)?;
    for (i, item) in luggage.iter().enumerate() {
        let encoding = if item.readable { "utf8" } else { "base64" };
        write!(
            out,
            "    {{\n      \"name\": {},\n      \"encoding\": \"{encoding}\",\n      \"sha256\": \"{}\",\n      \"bytes\": {},\n      \"data\": \"",
            text(&item.name).to_js_compact(),
            hex(&item.sha256),
            item.size
        )
        .map_err(io)?;
        if item.readable {
            // A read may end inside a UTF-8 sequence: the tail waits for the next read.
            let mut carry: Vec<u8> = Vec::new();
            second_read(item, |bytes| {
                carry.extend_from_slice(bytes);
                let valid = match std::str::from_utf8(&carry) {
                    Ok(_) => carry.len(),
                    Err(e) => e.valid_up_to(),
                };
                let chunk = std::str::from_utf8(&carry[..valid]).expect("checked above");
                let escaped = Json::Str(chunk.to_owned()).to_js_compact();
                out.write_all(&escaped.as_bytes()[1..escaped.len() - 1])?;
                carry.drain(..valid);
                Ok(())
            })?;
        } else {
            let engine = base64::engine::general_purpose::STANDARD;
            second_read(item, |bytes| out.write_all(engine.encode(bytes).as_bytes()))?;
        }
        let comma = if i + 1 < luggage.len() { "," } else { "" };
        write!(out, "\"\n    }}{comma}\n").map_err(io)?;
    }
    out.write_all(b"  ]\n}\n").map_err(io)
}
