//! The file-system guards of specmint: files read and written without being led astray by
//! what was planted where they should be.
//!
//! It is a crate of its own because both the library (`specmint`: team handoff, the passport
//! store, packs) and the spec loader (`specmint-codegen`: spec files, generated files) need the
//! same guards, and neither may depend on the other for them (the library depends on codegen
//! only with its `interpret` feature, codegen never on the library). One implementation here
//! keeps the two from drifting apart, as `cargo-util` holds cargo's `paths`.
//!
//! - **Reading** ([`open_regular`], [`read_at_most`], [`read_regular`]): a file is opened with
//!   `O_NONBLOCK` (a FIFO cannot block the open), optionally `O_NOFOLLOW` ([`Links`]), then
//!   checked on the descriptor (`fstat`) to be a regular file, so it cannot be swapped between
//!   the check and the read; a FIFO, a device such as `/dev/zero` or a directory is refused
//!   before a byte is read. It is read up to a bound and one byte over, so a file that grew
//!   past the bound since the `fstat` is refused too.
//! - **Writing in place** ([`open_for_writing`], [`check_writable`], [`real_dirs`]): a file is
//!   opened with `O_NOFOLLOW` and refused unless it is a regular file with one name (a hard
//!   link, `nlink > 1`, would write into a file that also lives elsewhere); every directory
//!   under the base the caller names is checked not to be a link.
//! - **Writing whole** ([`AtomicFile`], [`write_atomically`]): a file appears whole or not at
//!   all. It is written to a temporary file beside its target (`.<name>.tmp-<pid>-<n>`,
//!   created exclusively, so no link planted there is followed), fsynced, renamed over the
//!   target (a link at the target is replaced, not followed) and the directory fsynced so the
//!   rename survives a power loss. A failure, an early return or a panic before the commit
//!   drops the temporary file; one a killed writer left is swept by
//!   [`remove_stale_temporaries`] (under a lock every writer takes) or
//!   [`remove_abandoned_temporaries`] (once its process is gone).
//!
//! Each refusal is an [`io::Error`](std::io::Error) whose message names the file: `` `PATH`
//! is a FIFO, not a regular file: refused ``, `` `PATH` is a symbolic link: refused, nothing is
//! written through a link ``, `` `PATH` has 2 hard links: refused, ... ``. The errors of the
//! system calls themselves are returned as they come (their `raw_os_error()` is set), for the
//! caller to name the file as it shows it.
//!
//! # Limitations
//!
//! * Elsewhere than Unix there is no `O_NOFOLLOW` nor `O_NONBLOCK`: a link is looked for with
//!   `symlink_metadata` before the open (a link planted between the look and the open is
//!   followed), the hard-link count is not checked, and a directory cannot be fsynced, so a
//!   rename is as durable as the file system makes it.
//! * Only the last component of a path opened for reading or writing is guarded against links;
//!   the directories above it are checked by [`real_dirs`] (from the base the caller names,
//!   which may itself be a link) when the caller goes through it, not on every open.
//! * [`process_is_gone`] knows a process is gone only where `/proc` tells (Linux); elsewhere
//!   [`remove_abandoned_temporaries`] removes nothing.

mod atomic;
mod guard;

pub use atomic::{
    process_is_gone, remove_abandoned_temporaries, remove_stale_temporaries, write_atomically,
    AtomicFile,
};
pub use guard::{
    check_writable, kind_of, make_private, open_for_writing, open_regular, read_at_most,
    read_regular, real_dirs, Links,
};
