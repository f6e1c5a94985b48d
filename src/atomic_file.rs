//! A file that appears whole or not at all: written to a temporary file beside its target,
//! fsynced, renamed over the target, and the directory fsynced so the rename survives a power
//! loss. Until [`AtomicFile::commit`] the target is untouched; a failure, an early return or a
//! panic drops the temporary file (a killed process leaves only a dot-named `.tmp-` file, never
//! a partial target; a writer under a lock all writers take sweeps those with
//! [`remove_stale_temporaries`]).
//!
//! Used wherever specmint writes a file a reader must never see torn: filed TaskPackets, the
//! passport store's records and the packs `taskpack pack` and `taskpack convert` write.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A target file being written through a temporary file beside it.
pub(crate) struct AtomicFile {
    target: PathBuf,
    temporary: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `target`: creates `.<name>.tmp-<pid>-<n>` in the same directory (mode 0600
    /// on Unix, like every file specmint writes for one user).
    pub(crate) fn create(target: &Path) -> io::Result<AtomicFile> {
        AtomicFile::create_with_mode(target, 0o600)
    }

    #[cfg(feature = "taskpack")]
    /// As [`AtomicFile::create`], for a file made to leave (a pack): mode 0644 less the umask,
    /// as any tool writes a file for others to read. No lock covers such a target (any path
    /// the user names), so the temporary files of earlier writers of it are removed only once
    /// their process is gone ([`remove_abandoned_temporaries`]).
    pub(crate) fn create_for_sharing(target: &Path) -> io::Result<AtomicFile> {
        remove_abandoned_temporaries(target);
        AtomicFile::create_with_mode(target, 0o644)
    }

    /// `mode` is the Unix permission bits asked of `open`, which the umask then narrows.
    fn create_with_mode(target: &Path, mode: u32) -> io::Result<AtomicFile> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::other("the target names no file"))?
            .to_string_lossy()
            .into_owned();
        let temporary = target.with_file_name(format!(
            ".{name}.tmp-{}-{}",
            std::process::id(),
            SERIAL.fetch_add(1, Ordering::Relaxed)
        ));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        #[cfg(not(unix))]
        let _ = mode;
        let file = options.open(&temporary)?;
        Ok(AtomicFile {
            target: target.to_owned(),
            temporary,
            out: Some(BufWriter::with_capacity(256 * 1024, file)),
        })
    }

    /// Where the bytes go until the commit.
    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        self.out
            .as_mut()
            .expect("an uncommitted file has its writer")
    }

    /// Flushes and fsyncs the temporary file, renames it over the target and fsyncs the
    /// directory.
    pub(crate) fn commit(mut self) -> io::Result<()> {
        let out = self.out.take().expect("committed once");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        #[cfg(feature = "test-hooks")]
        if let Some(marker) = test_hooks::pause_marker(&self.target) {
            // A test kills the process here, mid-write (the variable's doc says how).
            File::create(marker)?;
            loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
        fs::rename(&self.temporary, &self.target)?;
        sync_dir(&self.target)
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
    pub(crate) fn pause_marker(target: &Path) -> Option<std::ffi::OsString> {
        let marker = std::env::var_os(PAUSE_BEFORE_RENAME_ENV)?;
        match std::env::var(PAUSE_ONLY_FOR_ENV) {
            Ok(suffix) if !target.to_string_lossy().ends_with(&suffix) => None,
            _ => Some(marker),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() || self.temporary.exists() {
            let _ = fs::remove_file(&self.temporary);
        }
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

/// Removes from `dir` the temporary files killed writers left (`.<name>.tmp-<pid>-<n>`) for
/// the targets whose file name `ours` accepts. Call it only while holding a lock that every
/// writer of those targets takes: then no live writer owns one, and each is stale. Best
/// effort: a file that cannot be removed is left.
pub(crate) fn remove_stale_temporaries(dir: &Path, ours: impl Fn(&str) -> bool) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let target = name
            .to_str()
            .and_then(|n| n.strip_prefix('.'))
            .and_then(|n| n.rsplit_once(".tmp-"))
            .map(|(target, _)| target);
        if target.is_some_and(&ours) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(feature = "taskpack")]
/// Removes the temporary files (`.<name>.tmp-<pid>-<n>`) beside `target` whose writer's
/// process is gone: a writer killed mid-way (kill -9, a power loss) never ran its `Drop`.
/// Those of live processes, this one's included, are left, and so is everything where a
/// process's liveness cannot be read ([`process_is_gone`]). Best effort.
pub(crate) fn remove_abandoned_temporaries(target: &Path) {
    let (Some(name), Some(dir)) = (target.file_name().and_then(|n| n.to_str()), target.parent())
    else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.tmp-");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let pid = file
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, n)| n.parse::<u64>().ok().and(pid.parse::<u32>().ok()));
        if pid.is_some_and(process_is_gone) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(feature = "taskpack")]
/// Whether process `pid` is known to be gone: not this one, and no `/proc/<pid>` where
/// `/proc` tells (Linux). Elsewhere nothing is known to be gone.
pub(crate) fn process_is_gone(pid: u32) -> bool {
    pid != std::process::id()
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Makes a rename in `path`'s directory durable. (A directory cannot be opened for syncing on
/// Windows; there the rename is as durable as the file system makes it.)
fn sync_dir(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("specmint-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_target_appears_only_on_commit() {
        let dir = scratch("commit");
        let target = dir.join("out.json");
        fs::write(&target, "old").unwrap();
        let mut file = AtomicFile::create(&target).unwrap();
        file.writer().write_all(b"new").unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        file.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_abandoned_write_leaves_nothing() {
        let dir = scratch("abandon");
        let target = dir.join("out.taskpack");
        let mut file = AtomicFile::create(&target).unwrap();
        file.writer().write_all(&[0; 1000]).unwrap();
        drop(file);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
