//! The luggage's first read: every attachment once, whole, for its digest, its size, whether
//! it travels as text, and the credential and transcript patterns (§4.1, C7/C8).

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::taskpack::encodings::bag::{self, FILES_DIR};
use crate::taskpack::judge::patterns::{AttachmentScan, Finding};

use super::object::pattern_words;
use super::{Luggage, PackError, CHUNK};
use crate::taskpack::TaskPackError;
use crate::Refusal;

/// Reads every `--attach` path once (see [`Luggage`]): a directory is walked in name order and
/// keeps its shape under its own name (task-passport's `readLuggage`); each name is made a
/// luggage name as a writer keeps it ([`bag::luggage_path`]), so that it round-trips (C9).
pub(super) fn read_luggage(
    paths: &[PathBuf],
    refusals: &mut Vec<Refusal<TaskPackError>>,
) -> Result<Vec<Luggage>, PackError> {
    let mut files = Vec::new();
    for path in paths {
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        walk(path, base, &mut files)?;
    }
    let mut luggage: Vec<Luggage> = Vec::new();
    for (source, relative) in files {
        let name = bag::luggage_path(&relative);
        if name.is_empty() {
            refusals.push(Refusal::new(
                TaskPackError::LuggageName,
                format!(
                    "attachment `{}` has no usable name (nothing of `{relative}` is a luggage name)",
                    source.display()
                ),
            ));
            continue;
        }
        if let Some(first) = luggage.iter().find(|l| l.name == name) {
            refusals.push(Refusal::new(
                TaskPackError::LuggageName,
                format!(
                    "attachments `{}` and `{}` would both travel as `{FILES_DIR}{name}`",
                    first.source.display(),
                    source.display()
                ),
            ));
            continue;
        }
        let (size, sha256, readable, findings) = first_read(&source)?;
        for finding in findings {
            refusals.push(Refusal::new(
                finding.code(),
                format!(
                    "attachment `{name}` (from `{}`) carries {} ({})",
                    source.display(),
                    finding.describe(),
                    pattern_words(finding)
                ),
            ));
        }
        luggage.push(Luggage {
            source,
            given: relative,
            name,
            size,
            sha256,
            readable,
        });
    }
    if let Some((file, inside)) = bag::file_used_as_folder(luggage.iter().map(|l| l.name.as_str()))
    {
        let from = |name: &str| {
            luggage
                .iter()
                .find(|l| l.name == name)
                .map(|l| l.source.display().to_string())
                .unwrap_or_default()
        };
        refusals.push(Refusal::new(
            TaskPackError::LuggageName,
            format!(
                "attachment `{file}` (from `{}`) would be both a file and a folder: `{inside}` (from `{}`) travels inside it",
                from(file),
                from(inside)
            ),
        ));
    }
    Ok(luggage)
}

/// Collects the files under `path`. A path given on the command line is followed wherever it
/// points; inside a folder, a link to a folder is refused (it could loop back), and anything
/// that is neither a file nor a folder (a device, a FIFO) is refused wherever it is.
pub(super) fn walk(
    path: &Path,
    relative: String,
    files: &mut Vec<(PathBuf, String)>,
) -> Result<(), PackError> {
    let io = |e| PackError::Io(path.to_owned(), e);
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_file() {
        files.push((path.to_owned(), relative));
    } else if meta.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map_err(io)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        entries.sort();
        for name in entries {
            let child = path.join(&name);
            let linked = std::fs::symlink_metadata(&child)
                .map_err(|e| PackError::Io(child.clone(), e))?
                .file_type()
                .is_symlink();
            if linked && child.is_dir() {
                return Err(PackError::Io(
                    child,
                    io::Error::other(
                        "a link to a folder inside an attached folder is not followed",
                    ),
                ));
            }
            walk(
                &child,
                format!("{relative}/{}", name.to_string_lossy()),
                files,
            )?;
        }
    } else {
        return Err(io(io::Error::other("neither a file nor a folder")));
    }
    Ok(())
}

/// The first read of an attachment: its size, digest, whether it travels as `utf8` in the flat
/// form ([`super::flat::is_readable_text`], decided as it streams), and what the patterns find.
fn first_read(path: &Path) -> Result<(u64, [u8; 32], bool, Vec<Finding>), PackError> {
    let io = |e| PackError::Io(path.to_owned(), e);
    let mut file = File::open(path).map_err(io)?;
    let mut buffer = vec![0u8; CHUNK];
    let mut hasher = Sha256::new();
    let mut scan = AttachmentScan::default();
    let mut text = crate::taskpack::encodings::flat::TextTest::default();
    let mut size = 0u64;
    loop {
        let n = read_some(&mut file, &mut buffer).map_err(io)?;
        if n == 0 {
            break;
        }
        let bytes = &buffer[..n];
        hasher.update(bytes);
        scan.feed(bytes);
        text.feed(bytes);
        size += n as u64;
    }
    Ok((size, hasher.finalize().into(), text.finish(), scan.finish()))
}

pub(super) fn read_some(file: &mut File, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_streamed_text_test_is_the_flat_writers() {
        for sample in [
            "plain\ttext\r\n".as_bytes(),
            "中文说明 😀".as_bytes(),
            b"\x00binary",
            b"\xff\xfe",
            b"ends inside \xe4\xb8",
            b"bell\x07",
        ] {
            for split in 1..sample.len() {
                let mut test = crate::taskpack::encodings::flat::TextTest::default();
                test.feed(&sample[..split]);
                test.feed(&sample[split..]);
                assert_eq!(
                    test.finish(),
                    crate::taskpack::encodings::flat::is_readable_text(sample),
                    "{sample:?} split at {split}"
                );
            }
        }
    }
}
