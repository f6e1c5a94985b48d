//! Opening the files a command reads and writes without being led astray by what was planted
//! where they should be.
//!
//! - A file a command writes is opened without following a link it did not create
//!   (`O_NOFOLLOW` on the file, every directory under the base checked not to be a link), and
//!   refused when it is not a regular file or has other names (a hard link: `nlink > 1`), so
//!   nothing is written outside the directory the command was given.
//! - A file a command reads is opened with `O_NONBLOCK` (a FIFO cannot block the open), checked
//!   to be a regular file (`fstat`, not a FIFO, not `/dev/zero`) and read up to a bound.
//! - A lock is waited for a bounded time, then refused naming the lock file.
//!
//! Each refusal is an [`io::Error`] whose message names the path. Elsewhere than Unix the link
//! and file type checks are what the standard library's metadata tells.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

/// Opens `path` with `options` (which write to it) without following a symbolic link at
/// `path`, and refuses what is not a regular file with one name.
///
/// # Errors
///
/// The open's error; a link at `path` (`` `PATH` is a symbolic link: refused, nothing is
/// written through a link ``); a file that is not regular or is hard-linked.
pub(crate) fn open_for_writing(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC,
    );
    #[cfg(not(unix))]
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(link_refused(path));
    }
    let file = options.open(path).map_err(|e| {
        // O_NOFOLLOW on a link: ELOOP (EMLINK / EFTYPE on some BSDs).
        if is_link(path) {
            link_refused(path)
        } else {
            e
        }
    })?;
    check_writable(&file, path)?;
    Ok(file)
}

/// Refuses `file` (opened at `path`) unless it is a regular file with one name: a hard link
/// would write into a file that also lives elsewhere.
pub(crate) fn check_writable(file: &File, path: &Path) -> io::Result<()> {
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::other(format!(
            "`{}` is {}, not a regular file: refused",
            path.display(),
            kind(&metadata)
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if metadata.nlink() > 1 {
            return Err(io::Error::other(format!(
                "`{}` has {} hard links: refused, nothing is written into a file that also lives elsewhere",
                path.display(),
                metadata.nlink()
            )));
        }
    }
    Ok(())
}

/// Narrows `file` to owner read and write (0600) when its group or others may use it.
/// Best effort: a file this user does not own keeps its mode.
pub(crate) fn make_private(file: &File) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(metadata) = file.metadata() {
            if metadata.permissions().mode() & 0o077 != 0 {
                let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = file;
}

/// `base/relative`, each directory of `relative` created when missing and refused when it is a
/// symbolic link or not a directory: the directories a command writes in are the ones under
/// `base` (which the caller named, and may itself be a link).
///
/// # Errors
///
/// A component that is a link (`` `PATH` is a symbolic link: refused, nothing is written
/// through a link ``) or not a directory; a directory that cannot be made.
pub(crate) fn real_dirs(base: &Path, relative: &Path) -> io::Result<PathBuf> {
    let mut dir = base.to_owned();
    for component in relative.components() {
        let Component::Normal(name) = component else {
            return Err(io::Error::other(format!(
                "`{}` is not a plain relative path",
                relative.display()
            )));
        };
        dir.push(name);
        if !existing_dir(&dir)? {
            match std::fs::create_dir(&dir) {
                Ok(()) => {}
                // Made by another process meanwhile: judged as found.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if !existing_dir(&dir)? {
                        return Err(e);
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
    Ok(dir)
}

/// Reads the regular file at `path`, at most `max` bytes of it. The open cannot block (a FIFO),
/// and what is not a regular file (a FIFO, a device such as `/dev/zero`, a directory) is
/// refused before a byte is read. A link is followed: reading through one writes nothing.
///
/// # Errors
///
/// The open's error (`NotFound` when nothing is there); `` `PATH` is a FIFO, not a regular
/// file: refused ``; `FileTooLarge` for a file over `max` bytes.
pub(crate) fn read_regular(path: &Path, max: usize) -> io::Result<Vec<u8>> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_CLOEXEC,
    );
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::other(format!(
            "`{}` is {}, not a regular file: refused",
            path.display(),
            kind(&metadata)
        )));
    }
    let too_large = || {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "`{}` is over the {max}-byte limit of what is read from it",
                path.display()
            ),
        )
    };
    let len = usize::try_from(metadata.len()).unwrap_or(usize::MAX);
    if len > max {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(len);
    // One byte more than the bound: a file that grew past it since the fstat is refused too.
    file.take(max as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Takes an exclusive advisory lock on `file` (the file at `path`), waiting at most `wait`.
///
/// # Errors
///
/// `TimedOut` when another process still holds it (`` the lock `PATH` is held by another
/// process: gave up after N s ``); the lock's own error.
#[cfg(feature = "handoff")]
pub(crate) fn lock_within(file: &File, path: &Path, wait: Duration) -> io::Result<()> {
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(1);
    loop {
        match fs4::FileExt::try_lock(file) {
            Ok(()) => return Ok(()),
            Err(fs4::TryLockError::Error(e)) => return Err(e),
            Err(fs4::TryLockError::WouldBlock) => {}
        }
        let now = Instant::now();
        if now >= deadline {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the lock `{}` is held by another process: gave up after {} s",
                    path.display(),
                    wait.as_secs()
                ),
            ));
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// Whether a directory (not a link to one) is at `path`: `false` when nothing is there, an
/// error naming the path when something else is.
fn existing_dir(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(path)),
        Ok(m) if m.is_dir() => Ok(true),
        Ok(m) => Err(io::Error::other(format!(
            "`{}` is {}, not a directory: refused",
            path.display(),
            kind(&m)
        ))),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

fn link_refused(path: &Path) -> io::Error {
    io::Error::other(format!(
        "`{}` is a symbolic link: refused, nothing is written through a link",
        path.display()
    ))
}

/// What a file that is not regular is, for a refusal.
fn kind(metadata: &std::fs::Metadata) -> &'static str {
    let file_type = metadata.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("specmint-fsguard-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn append() -> OpenOptions {
        let mut options = OpenOptions::new();
        options.append(true).create(true);
        options
    }

    #[test]
    fn writing_refuses_links_and_other_names() {
        let dir = scratch("write");
        let outside = dir.join("outside");
        std::fs::write(&outside, "").unwrap();
        let link = dir.join("link");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let dangling = dir.join("dangling");
        std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
        let hard = dir.join("hard");
        std::fs::hard_link(&outside, &hard).unwrap();
        for (path, why) in [
            (&link, "is a symbolic link: refused"),
            (&dangling, "is a symbolic link: refused"),
            (&hard, "has 2 hard links: refused"),
        ] {
            let e = open_for_writing(&mut append(), path).unwrap_err();
            assert!(
                e.to_string()
                    .starts_with(&format!("`{}` {why}", path.display())),
                "{e}"
            );
        }
        assert!(!dir.join("nowhere").exists());
        assert_eq!(std::fs::read(&outside).unwrap(), b"");
        open_for_writing(&mut append(), &dir.join("plain")).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn directories_under_the_base_are_real() {
        let dir = scratch("dirs");
        std::fs::create_dir(dir.join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.join("elsewhere"), dir.join("linked")).unwrap();
        let e = real_dirs(&dir, Path::new("linked/a")).unwrap_err();
        assert!(e.to_string().contains("linked` is a symbolic link"), "{e}");
        assert!(!dir.join("elsewhere/a").exists());
        assert_eq!(
            real_dirs(&dir, Path::new("a/b")).unwrap(),
            dir.join("a").join("b")
        );
        assert!(dir.join("a/b").is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reading_refuses_what_is_not_a_regular_file_and_bounds_the_rest() {
        let dir = scratch("read");
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_regular(&fifo, 10).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "`{}` is a FIFO, not a regular file: refused",
                fifo.display()
            )
        );
        let e = read_regular(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(e.to_string().contains("is a character device"), "{e}");
        std::fs::write(dir.join("f"), "12345").unwrap();
        assert_eq!(read_regular(&dir.join("f"), 5).unwrap(), b"12345");
        assert_eq!(
            read_regular(&dir.join("f"), 4).unwrap_err().kind(),
            io::ErrorKind::FileTooLarge
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
