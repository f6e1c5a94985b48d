//! Files written whole or not at all (see the crate doc).

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A target file being written through a temporary file beside it: untouched until
/// [`AtomicFile::commit`]; dropping an uncommitted one removes the temporary file.
pub struct AtomicFile {
    target: PathBuf,
    temporary: PathBuf,
    out: Option<BufWriter<File>>,
}

impl AtomicFile {
    /// Starts writing `target`: creates `.<name>.tmp-<pid>-<n>` in the same directory,
    /// exclusively (`create_new`: nothing planted there is followed), asking `mode` of the
    /// open on Unix (the umask then narrows it; elsewhere `mode` is unused).
    ///
    /// # Errors
    ///
    /// A `target` that names no file (`` `PATH` names no file ``); the open's error.
    pub fn create(target: &Path, mode: u32) -> io::Result<AtomicFile> {
        AtomicFile::with_buffer(target, mode, 256 * 1024)
    }

    fn with_buffer(target: &Path, mode: u32, capacity: usize) -> io::Result<AtomicFile> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::other(format!("`{}` names no file", target.display())))?
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
            out: Some(BufWriter::with_capacity(capacity, file)),
        })
    }

    /// Where the bytes go until the commit.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        self.out
            .as_mut()
            .expect("an uncommitted file has its writer")
    }

    /// Flushes and fsyncs the temporary file, renames it over the target (a link there is
    /// replaced, not followed) and fsyncs the directory.
    ///
    /// # Errors
    ///
    /// The flush's, fsync's or rename's error: the temporary file is then removed and the
    /// target left as it was.
    pub fn commit(self) -> io::Result<()> {
        self.commit_with(|_| Ok(()))
    }

    /// As [`AtomicFile::commit`], calling `before_rename` with the target once the temporary
    /// file is written and fsynced, before the rename (a test's pause point); its error stops
    /// the commit.
    ///
    /// # Errors
    ///
    /// Those of [`AtomicFile::commit`] and of `before_rename`.
    pub fn commit_with(
        mut self,
        before_rename: impl FnOnce(&Path) -> io::Result<()>,
    ) -> io::Result<()> {
        let out = self.out.take().expect("committed once");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        before_rename(&self.target)?;
        fs::rename(&self.temporary, &self.target)?;
        sync_dir(&self.target)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.out.take().is_some() || self.temporary.exists() {
            let _ = fs::remove_file(&self.temporary);
        }
    }
}

/// Writes `bytes` to `target` whole or not at all (an [`AtomicFile`] of `mode`, committed).
///
/// # Errors
///
/// Those of [`AtomicFile::create`], the write and [`AtomicFile::commit`]; `target` is then
/// left as it was.
pub fn write_atomically(target: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    // One write of the whole: no buffer of its own.
    let mut file = AtomicFile::with_buffer(target, mode, 0)?;
    file.writer().write_all(bytes)?;
    file.commit()
}

/// Removes from `dir` the temporary files killed writers left (`.<name>.tmp-<pid>-<n>`) for
/// the targets whose file name `ours` accepts. Call it only while holding a lock that every
/// writer of those targets takes: then no live writer owns one, and each is stale. Best
/// effort: a file that cannot be removed is left.
pub fn remove_stale_temporaries(dir: &Path, ours: impl Fn(&str) -> bool) {
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

/// Removes the temporary files (`.<name>.tmp-<pid>-<n>`) beside `target` whose writer's
/// process is gone: a writer killed mid-way (kill -9, a power loss) never ran its `Drop`.
/// Those of live processes, this one's included, are left, and so is everything where a
/// process's liveness cannot be read ([`process_is_gone`]). For a target no lock covers.
/// Best effort.
pub fn remove_abandoned_temporaries(target: &Path) {
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

/// Whether process `pid` is known to be gone: not this one, and no `/proc/<pid>` where
/// `/proc` tells (Linux). Elsewhere nothing is known to be gone.
pub fn process_is_gone(pid: u32) -> bool {
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
            std::env::temp_dir().join(format!("specmint-fs-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_target_appears_only_on_commit() {
        let dir = scratch("commit");
        let target = dir.join("out.json");
        fs::write(&target, "old").unwrap();
        let mut file = AtomicFile::create(&target, 0o600).unwrap();
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
        let mut file = AtomicFile::create(&target, 0o600).unwrap();
        file.writer().write_all(&[0; 1000]).unwrap();
        drop(file);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_refused_commit_leaves_the_target_as_it_was() {
        let dir = scratch("refused");
        let target = dir.join("out.json");
        fs::write(&target, "old").unwrap();
        let mut file = AtomicFile::create(&target, 0o600).unwrap();
        file.writer().write_all(b"new").unwrap();
        let e = file
            .commit_with(|_| Err(io::Error::other("stopped")))
            .unwrap_err();
        assert_eq!(e.to_string(), "stopped");
        assert_eq!(fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_at_the_target_is_replaced_not_followed() {
        let dir = scratch("link");
        fs::write(dir.join("outside"), "kept").unwrap();
        std::os::unix::fs::symlink(dir.join("outside"), dir.join("out")).unwrap();
        write_atomically(&dir.join("out"), b"new", 0o644).unwrap();
        assert_eq!(fs::read_to_string(dir.join("outside")).unwrap(), "kept");
        assert!(!fs::symlink_metadata(dir.join("out"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(dir.join("out")).unwrap(), "new");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn stale_temporaries_of_our_targets_are_swept() {
        let dir = scratch("stale");
        for name in [".a.1.tmp-1-0", ".b.tmp-1-0", "a.1"] {
            fs::write(dir.join(name), "").unwrap();
        }
        remove_stale_temporaries(&dir, |target| target.starts_with("a."));
        let mut left: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [".b.tmp-1-0", "a.1"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
