//! The disk, bounded and without following planted links: every spec file is read as a regular
//! file of at most [`MAX_SPEC_FILE_BYTES`] ([`read_regular_file`]), every generated file is
//! written whole or not at all and never through a link ([`write_atomically`]). The guards are
//! `specmint-fs`'s, shared with the library; what is a spec file's (its bound, its messages)
//! is here.
//!
//! The loaders of the CLI, the bindings, the LSP and `build.rs` ([`crate::read_spec_dir`],
//! [`crate::write_if_changed`], [`crate::check_dir`]) all come through here.

mod generated;
mod specs;

use std::io;
use std::path::Path;

pub(crate) use specmint_fs::Links;

pub use generated::{check_dir, write_if_changed};
pub use specs::{read_spec_dir, spec_sources};

/// The largest spec file (Markdown or sidecar) read: 16 MiB, over a hundred times the largest
/// spec written by hand. A bigger file is refused with an error naming it, unread.
pub const MAX_SPEC_FILE_BYTES: u64 = 16 << 20;

/// Reads `path`, a regular file (or, with [`Links::Follow`], a link to one) of at most `limit`
/// bytes: `Ok(None)` when it holds more. Every error names the file as `shown_as`
/// ([`specmint_fs::open_regular`]'s refusals already do).
pub(crate) fn read_at_most(
    path: &Path,
    shown_as: &str,
    links: Links,
    limit: u64,
) -> io::Result<Option<Vec<u8>>> {
    let named = |e: io::Error| {
        if e.raw_os_error().is_some() {
            io::Error::new(e.kind(), format!("`{shown_as}`: {e}"))
        } else {
            e
        }
    };
    let file = specmint_fs::open_regular(path, shown_as, links).map_err(named)?;
    specmint_fs::read_at_most(file, limit).map_err(named)
}

/// Reads `path`, a regular file (or a link to one) of at most `limit` bytes
/// ([`MAX_SPEC_FILE_BYTES`] for a spec file). A FIFO, a device, a directory, or a file over
/// `limit` is refused unread (a FIFO is not waited on) with an error naming it as `shown_as`;
/// so is every other error (its kind kept: a missing file is [`io::ErrorKind::NotFound`]).
pub fn read_regular_file(path: &Path, shown_as: &str, limit: u64) -> io::Result<Vec<u8>> {
    read_at_most(path, shown_as, Links::Follow, limit)?.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("`{shown_as}` is over the {limit} bytes a spec file may hold"),
        )
    })
}

/// Writes `contents` to `path` whole or not at all: into a new temporary file beside it
/// (`.<name>.tmp-<pid>-<n>`, created exclusively, so no link planted there is followed),
/// fsynced, then renamed over `path` (a link at `path` is replaced, not followed) and the
/// directory fsynced ([`specmint_fs::write_atomically`]). On an error (a full disk) the
/// temporary file is removed and `path` is left as it was. New files get mode 0666 less the
/// umask, as `std::fs::write` gives them.
pub fn write_atomically(path: &Path, contents: &[u8]) -> io::Result<()> {
    specmint_fs::write_atomically(path, contents, 0o666)
}
