//! Writing the pack in either encoding, reading each attachment a second time (its digest
//! must not have changed since the first read).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::atomic_file::AtomicFile;
use crate::taskpack::encodings::convert::Encoding;
use crate::taskpack::encodings::encode;
use crate::taskpack::encodings::flat::Listed;
use specmint_runtime::json::Json;

use super::luggage::read_some;
use super::{Luggage, PackError, CHUNK};
use crate::taskpack::TaskPackError;
use crate::Refusal;

/// Writes the pack to a temporary file beside `out` (committed by the caller).
pub(super) fn write_pack(
    out: &Path,
    encoding: Encoding,
    object: &Json,
    luggage: &[Luggage],
) -> Result<AtomicFile, PackError> {
    let io = |e| PackError::Io(out.to_owned(), e);
    let mut file = AtomicFile::create_for_sharing(out).map_err(io)?;
    encode::write(
        encoding,
        file.writer(),
        object,
        &listed(luggage),
        &mut |index, sink| second_read(&luggage[index], sink),
        &io_error,
    )?;
    Ok(file)
}

/// Streams one attachment's bytes to `sink` in full reads of [`CHUNK`] (the last one shorter),
/// checking they are still the bytes the first read hashed.
fn second_read(
    luggage: &Luggage,
    sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
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
        return Err(PackError::Refused(vec![Refusal::new(
            TaskPackError::LuggageChanged,
            format!(
                "attachment `{}` (from `{}`) changed while it was being packed",
                luggage.name,
                luggage.source.display()
            ),
        )]));
    }
    Ok(())
}

/// The luggage as the encoders list it, each read a second time when it is written.
fn listed(luggage: &[Luggage]) -> Vec<Listed> {
    luggage
        .iter()
        .map(|l| Listed {
            name: l.name.clone(),
            size: l.size,
            sha256: l.sha256,
            readable: l.readable,
        })
        .collect()
}

fn io_error(entry: &str, e: io::Error) -> PackError {
    PackError::Io(PathBuf::from(entry), e)
}

/// The zip form, the luggage streamed ([`encode::write_zip`]).
#[cfg(test)]
pub(super) fn write_zip<W: io::Write + io::Seek>(
    out: &mut W,
    object: &Json,
    luggage: &[Luggage],
) -> Result<(), PackError> {
    encode::write_zip(
        out,
        object,
        &listed(luggage),
        &mut |index, sink| second_read(&luggage[index], sink),
        &io_error,
    )
}

/// The flat form, the luggage streamed ([`encode::write_flat`]).
#[cfg(test)]
pub(super) fn write_flat<W: io::Write>(
    out: &mut W,
    object: &Json,
    luggage: &[Luggage],
) -> Result<(), PackError> {
    encode::write_flat(
        out,
        object,
        &listed(luggage),
        &mut |index, sink| second_read(&luggage[index], sink),
        &io_error,
    )
}
