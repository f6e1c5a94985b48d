//! Writing a pack in either encoding with its luggage streamed: the one writer behind `pack`
//! (luggage read from the attached files) and `convert` of a flat pack (luggage decoded from the
//! file again), so neither holds an attachment whole. Byte for byte what [`bag::write_zip`] of
//! [`bag::assemble`] and [`flat::write_flat`] write.

use std::io::{self, Write};
use std::path::Path;

use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::taskpack::encodings::bag::{self, hex, FILES_DIR, PASSPORT_JSON};
use crate::taskpack::encodings::flat::{Listed, FLAT_VERSION, NOTE_TO_READER};
use specmint_runtime::json::Json;

/// The encoding a file name says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// `.taskpack`: BagIt in a zip.
    Zip,
    /// `.taskpack.json`: the flat form.
    Flat,
    /// `.tpx`, `.tpx.json`: the retired form, read only.
    RetiredTpx,
}

impl Encoding {
    /// By extension; `None` for any other name.
    pub fn of(path: &Path) -> Option<Encoding> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        if name.ends_with(".taskpack") {
            Some(Encoding::Zip)
        } else if name.ends_with(".taskpack.json") {
            Some(Encoding::Flat)
        } else if name.ends_with(".tpx") || name.ends_with(".tpx.json") {
            Some(Encoding::RetiredTpx)
        } else {
            None
        }
    }
}

/// Where luggage `index`'s bytes come from: it hands them to the sink in chunks of any size.
pub(crate) type Stream<'a, E> =
    dyn FnMut(usize, &mut dyn FnMut(&[u8]) -> io::Result<()>) -> Result<(), E> + 'a;

/// How a write error becomes the caller's error: the entry (or `<pack>`) and the error.
pub(crate) type IoError<'a, E> = dyn Fn(&str, io::Error) -> E + 'a;

/// The pack in `encoding` (a retired `.tpx` is written as the zip; callers refuse it first).
pub(crate) fn write<W: Write + io::Seek, E>(
    encoding: Encoding,
    out: &mut W,
    object: &Json,
    luggage: &[Listed],
    stream: &mut Stream<'_, E>,
    io_error: &IoError<'_, E>,
) -> Result<(), E> {
    match encoding {
        Encoding::Flat => write_flat(out, object, luggage, stream, io_error),
        Encoding::Zip | Encoding::RetiredTpx => write_zip(out, object, luggage, stream, io_error),
    }
}

/// The zip form: the entries `bag::assemble` makes, in its order, the luggage streamed.
pub(crate) fn write_zip<W: Write + io::Seek, E>(
    out: &mut W,
    object: &Json,
    luggage: &[Listed],
    stream: &mut Stream<'_, E>,
    io_error: &IoError<'_, E>,
) -> Result<(), E> {
    let members: crate::taskpack::lenient::PackMembers = crate::taskpack::lenient::view(object);
    let packed_at = members
        .packed_at
        .as_ref()
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
    let zip_error = |e: zip::result::ZipError| io_error(PASSPORT_JSON, io::Error::other(e));
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
            .map_err(|e| io_error(&entry.name, e))?;
    }
    writer
        .start_file(
            PASSPORT_JSON,
            bag::entry_options(packed_at, passport_json.len() as u64),
        )
        .map_err(zip_error)?;
    writer
        .write_all(&passport_json)
        .map_err(|e| io_error(PASSPORT_JSON, e))?;
    for (index, (item, name)) in luggage.iter().zip(&names).enumerate() {
        writer
            .start_file(name.as_str(), bag::entry_options(packed_at, item.size))
            .map_err(zip_error)?;
        stream(index, &mut |bytes| writer.write_all(bytes))?;
    }
    writer.finish().map_err(zip_error)?;
    Ok(())
}

/// The flat form, byte for byte what `flat::write_flat` writes, each attachment's data
/// streamed.
pub(crate) fn write_flat<W: Write, E>(
    out: &mut W,
    object: &Json,
    luggage: &[Listed],
    stream: &mut Stream<'_, E>,
    io_error: &IoError<'_, E>,
) -> Result<(), E> {
    let io = |e| io_error("<pack>", e);
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
        // A chunk may end inside a UTF-8 sequence, or inside a group of three bytes that
        // base64 writes as one: the tail waits for the next chunk.
        let mut carry: Vec<u8> = Vec::new();
        if item.readable {
            stream(i, &mut |bytes| {
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
            stream(i, &mut |bytes| {
                carry.extend_from_slice(bytes);
                let whole = carry.len() / 3 * 3;
                out.write_all(engine.encode(&carry[..whole]).as_bytes())?;
                carry.drain(..whole);
                Ok(())
            })?;
            out.write_all(engine.encode(&carry).as_bytes())
                .map_err(io)?;
        }
        let comma = if i + 1 < luggage.len() { "," } else { "" };
        write!(out, "\"\n    }}{comma}\n").map_err(io)?;
    }
    out.write_all(b"  ]\n}\n").map_err(io)
}
