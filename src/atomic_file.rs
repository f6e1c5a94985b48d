//! A file that appears whole or not at all ([`specmint_fs::AtomicFile`]: a temporary file
//! beside its target, fsynced, renamed over the target, the directory fsynced), with the modes
//! specmint writes its files in and the pause point of test builds.
//!
//! Used wherever specmint writes a file a reader must never see torn: filed TaskPackets, the
//! passport store's records and the packs `taskpack pack` and `taskpack convert` write. A
//! writer under a lock all writers take sweeps what killed writers left with
//! [`remove_stale_temporaries`].

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

pub(crate) use specmint_fs::remove_stale_temporaries;
#[cfg(feature = "taskpack")]
pub(crate) use specmint_fs::{process_is_gone, remove_abandoned_temporaries};

/// A target file being written through a temporary file beside it.
pub(crate) struct AtomicFile(specmint_fs::AtomicFile);

impl AtomicFile {
    /// Starts writing `target`: creates `.<name>.tmp-<pid>-<n>` in the same directory (mode 0600
    /// on Unix, like every file specmint writes for one user).
    pub(crate) fn create(target: &Path) -> io::Result<AtomicFile> {
        specmint_fs::AtomicFile::create(target, 0o600).map(AtomicFile)
    }

    #[cfg(feature = "taskpack")]
    /// As [`AtomicFile::create`], for a file made to leave (a pack): mode 0644 less the umask,
    /// as any tool writes a file for others to read. No lock covers such a target (any path
    /// the user names), so the temporary files of earlier writers of it are removed only once
    /// their process is gone ([`remove_abandoned_temporaries`]).
    pub(crate) fn create_for_sharing(target: &Path) -> io::Result<AtomicFile> {
        remove_abandoned_temporaries(target);
        specmint_fs::AtomicFile::create(target, 0o644).map(AtomicFile)
    }

    /// Where the bytes go until the commit.
    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        self.0.writer()
    }

    /// Flushes and fsyncs the temporary file, renames it over the target and fsyncs the
    /// directory.
    pub(crate) fn commit(self) -> io::Result<()> {
        #[cfg(feature = "test-hooks")]
        let before_rename = test_hooks::pause;
        #[cfg(not(feature = "test-hooks"))]
        let before_rename = |_: &Path| Ok(());
        self.0.commit_with(before_rename)
    }
}

/// The pause points of test builds (the `test-hooks` feature, which the workspace's tests
/// enable and no other build has): a test stops a writer between its fsync and its rename and
/// kills it there.
#[cfg(feature = "test-hooks")]
pub mod test_hooks {
    use std::path::Path;

    /// Set to a file path, a write through `atomic_file` (a filing, a passport, a pack) creates
    /// that file once its temp file is written and fsynced, then stops before the rename until
    /// the process is killed. Tests use it to kill a writer mid-write.
    pub const PAUSE_BEFORE_RENAME_ENV: &str = "SPECMINT_TEST_PAUSE_BEFORE_RENAME";

    /// With [`PAUSE_BEFORE_RENAME_ENV`], pauses only the write whose target's file name ends
    /// with this variable's value (the pack of `taskpack pack`, written after the passport), so
    /// a test can kill a writer between two of its writes.
    pub const PAUSE_ONLY_FOR_ENV: &str = "SPECMINT_TEST_PAUSE_ONLY_FOR";

    /// Where a test asked the write of `target` to pause before its rename.
    fn pause_marker(target: &Path) -> Option<std::ffi::OsString> {
        let marker = std::env::var_os(PAUSE_BEFORE_RENAME_ENV)?;
        match std::env::var(PAUSE_ONLY_FOR_ENV) {
            Ok(suffix) if !target.to_string_lossy().ends_with(&suffix) => None,
            _ => Some(marker),
        }
    }

    /// Before the rename of `target`: when a test asked, creates its marker and waits to be
    /// killed (the variables' docs say how).
    pub(crate) fn pause(target: &Path) -> std::io::Result<()> {
        if let Some(marker) = pause_marker(target) {
            std::fs::File::create(marker)?;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
        Ok(())
    }
}

/// Writes `bytes` to `target` atomically (see the module doc), mode 0600.
pub(crate) fn write_atomically(target: &Path, bytes: &[u8]) -> io::Result<()> {
    write_through(AtomicFile::create(target)?, bytes)
}

#[cfg(feature = "taskpack")]
/// Writes `bytes` to `target` atomically, mode 0644 less the umask: a file made to leave
/// ([`AtomicFile::create_for_sharing`]).
pub(crate) fn write_atomically_for_sharing(target: &Path, bytes: &[u8]) -> io::Result<()> {
    write_through(AtomicFile::create_for_sharing(target)?, bytes)
}

fn write_through(mut file: AtomicFile, bytes: &[u8]) -> io::Result<()> {
    file.writer().write_all(bytes)?;
    file.commit()
}
