//! The disk, bounded and without following planted links: every spec file is read as a regular
//! file of at most [`MAX_SPEC_FILE_BYTES`] ([`read_regular_file`]), every generated file is
//! written whole or not at all and never through a link ([`write_atomically`]).
//!
//! The loaders of the CLI, the bindings, the LSP and `build.rs` ([`crate::read_spec_dir`],
//! [`crate::write_if_changed`], [`crate::check_dir`]) all come through here.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::Path;

/// The largest spec file (Markdown or sidecar) read: 16 MiB, over a hundred times the largest
/// spec written by hand. A bigger file is refused with an error naming it, unread.
pub const MAX_SPEC_FILE_BYTES: u64 = 16 << 20;

/// How links at `path` itself are treated when opening it to read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Links {
    /// A link to a regular file is read (a spec file may be one, as git stores it).
    Follow,
    /// A link is refused (`ELOOP`): a generated file compared must be the file itself.
    Refuse,
}

/// Opens `path` to read and checks, on the open file, that it is a regular file. The open does
/// not block on a FIFO (`O_NONBLOCK`), and the check is on the descriptor (`fstat`), so the
/// file cannot be swapped between the check and the read.
pub(crate) fn open_regular(path: &Path, shown_as: &str, links: Links) -> io::Result<File> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("`{shown_as}`: {e}"));
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let nofollow = match links {
            Links::Follow => 0,
            Links::Refuse => libc::O_NOFOLLOW,
        };
        options.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    #[cfg(not(unix))]
    if links == Links::Refuse && std::fs::symlink_metadata(path).map_err(named)?.is_symlink() {
        return Err(not_regular(shown_as, "a symbolic link"));
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if links == Links::Refuse && e.raw_os_error() == Some(libc::ELOOP) {
            return not_regular(shown_as, "a symbolic link");
        }
        named(e)
    })?;
    let kind = file.metadata().map_err(named)?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(not_regular(shown_as, kind_of(kind)))
}

fn not_regular(shown_as: &str, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("`{shown_as}` is not a regular file ({what})"),
    )
}

/// What a file that is not a regular one is, in words.
fn kind_of(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

/// Reads at most `limit` bytes of `file` (opened as [`open_regular`] opens it): `Ok(None)`
/// when it holds more.
pub(crate) fn read_at_most(file: File, shown_as: &str, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("`{shown_as}`: {e}")))?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads `path`, a regular file (or a link to one) of at most `limit` bytes
/// ([`MAX_SPEC_FILE_BYTES`] for a spec file). A FIFO, a device, a directory, or a file over
/// `limit` is refused unread (a FIFO is not waited on) with an error naming it as `shown_as`;
/// so is every other error (its kind kept: a missing file is [`io::ErrorKind::NotFound`]).
pub fn read_regular_file(path: &Path, shown_as: &str, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path, shown_as, Links::Follow)?;
    read_at_most(file, shown_as, limit)?.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("`{shown_as}` is over the {limit} bytes a spec file may hold"),
        )
    })
}

/// Writes `contents` to `path` whole or not at all: into a new temporary file beside it
/// (`.<name>.tmp-<pid>-<n>`, created exclusively, so no link planted there is followed),
/// fsynced, then renamed over `path` (a link at `path` is replaced, not followed) and the
/// directory fsynced. On an error (a full disk) the temporary file is removed and `path` is
/// left as it was. New files get mode 0666 less the umask, as `std::fs::write` gives them.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::other(format!("`{}` names no file", path.display())))?
        .to_string_lossy()
        .into_owned();
    let temporary = path.with_file_name(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    ));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
    let mut file = options.open(&temporary)?;
    let written = file
        .write_all(contents)
        .and_then(|()| file.sync_all())
        .and_then(|()| {
            drop(file);
            std::fs::rename(&temporary, path)
        });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(e);
    }
    // The rename is durable once the directory is synced (a directory cannot be opened to
    // sync on every platform: best effort there).
    #[cfg(unix)]
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}
