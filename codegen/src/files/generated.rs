//! The generated files on disk: written only where they changed ([`write_if_changed`]) and
//! compared without following links ([`check_dir`]).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use super::{read_at_most, write_atomically, Links};

/// Writes `files` under `root`, creating directories, touching only files whose contents
/// differ (so cargo and editors see no spurious changes). Each file is written with
/// [`write_atomically`]: a reader (or a full disk) never sees it torn, and a link planted at
/// its path is replaced, not written through. A directory below `root` that is a link is
/// refused, naming it (`root` itself may be one: it is the caller's choice).
pub fn write_if_changed(root: &Path, files: &BTreeMap<String, String>) -> io::Result<()> {
    for (rel, contents) in files {
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            real_dirs_below(root, parent)?;
        }
        if holds(&path, contents) {
            continue;
        }
        write_atomically(&path, contents.as_bytes())
            .map_err(|e| io::Error::new(e.kind(), format!("`{}`: {e}", path.display())))?;
    }
    Ok(())
}

/// Creates `dir` (below `root`) and the directories between, refusing any of them that is a
/// link (or not a directory).
fn real_dirs_below(root: &Path, dir: &Path) -> io::Result<()> {
    let Ok(below) = dir.strip_prefix(root) else {
        return Ok(());
    };
    std::fs::create_dir_all(root)?;
    let mut at = root.to_path_buf();
    for part in below.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "`{}` is a symbolic link: generated files are not written through links",
                        at.display()
                    ),
                ))
            }
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("`{}` is in the way of a generated directory", at.display()),
                ))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir(&at)?,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether `path` (below `root`) is already `contents`: a regular file, not a link, read
/// without blocking and no further than `contents`' length (one byte over says it differs).
fn holds(path: &Path, contents: &str) -> bool {
    let shown_as = path.display().to_string();
    read_at_most(path, &shown_as, Links::Refuse, contents.len() as u64)
        .is_ok_and(|read| read.as_deref() == Some(contents.as_bytes()))
}

/// Whether a directory on the way from `root` to `rel` is a link.
fn through_a_link(root: &Path, rel: &str) -> bool {
    let mut at = root.to_path_buf();
    let mut parts = rel.split('/').peekable();
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            return false;
        }
        at.push(part);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return true;
        }
    }
    false
}

/// Compares `files` with what is under `root`: returns the relative paths that differ, are
/// missing, or are extra (files in the same top-level directories that `files` does not
/// have), sorted. Nothing is followed: a link where a file or directory is expected is drift
/// (`write_if_changed` would replace or refuse it), a link met in the walk an extra entry, and
/// files are read no further than the expected contents.
pub fn check_dir(root: &Path, files: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, contents) in files {
        if through_a_link(root, rel) || !holds(&root.join(rel), contents) {
            out.push(rel.clone());
        }
    }
    let dirs: std::collections::BTreeSet<&str> = files
        .keys()
        .filter_map(|k| k.split_once('/').map(|(d, _)| d))
        .collect();
    for d in dirs {
        let top = root.join(d);
        match std::fs::symlink_metadata(&top) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                out.push(d.to_owned());
                continue;
            }
            Err(_) => continue,
        }
        let mut stack = vec![top];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if e.file_type().is_ok_and(|t| t.is_dir()) {
                    stack.push(p);
                } else if let Ok(rel) = p.strip_prefix(root) {
                    let rel = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/");
                    if !files.contains_key(&rel) {
                        out.push(rel);
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}
