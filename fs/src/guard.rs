//! Opening, reading and checking files and directories (see the crate doc).

use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// How a link at the path itself is treated by [`open_regular`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// A link to a regular file is read through (a spec file may be one, as git stores it;
    /// reading through a link writes nothing).
    Follow,
    /// A link is refused (`O_NOFOLLOW`): the file compared or read must be the file itself.
    Refuse,
}

/// Opens `path` to read and checks, on the open file, that it is a regular file. The open does
/// not block on a FIFO (`O_NONBLOCK`), and the check is on the descriptor (`fstat`), so the
/// file cannot be swapped between the check and the read.
///
/// # Errors
///
/// The open's or the `fstat`'s own error (`NotFound` when nothing is there); what is not a
/// regular file, named as `shown_as` (`` `PATH` is a FIFO, not a regular file: refused ``,
/// [`io::ErrorKind::InvalidInput`]), a link too with [`Links::Refuse`].
pub fn open_regular(path: &Path, shown_as: &str, links: Links) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        let nofollow = match links {
            Links::Follow => 0,
            Links::Refuse => libc::O_NOFOLLOW,
        };
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut options,
            libc::O_NONBLOCK | libc::O_CLOEXEC | nofollow,
        );
    }
    #[cfg(not(unix))]
    if links == Links::Refuse && is_link(path) {
        return Err(not_regular(shown_as, "a symbolic link"));
    }
    let file = options.open(path).map_err(|e| {
        // O_NOFOLLOW on a link: ELOOP (EMLINK / EFTYPE on some BSDs).
        if links == Links::Refuse && is_link(path) {
            not_regular(shown_as, "a symbolic link")
        } else {
            e
        }
    })?;
    let file_type = file.metadata()?.file_type();
    if !file_type.is_file() {
        return Err(not_regular(shown_as, kind_of(file_type)));
    }
    Ok(file)
}

/// Reads at most `limit` bytes of `file` (opened as [`open_regular`] opens it): `Ok(None)`
/// when it holds more. A file whose `fstat` says it is longer is not read at all; one byte
/// over the bound is read, so a file that grew past it since is refused too.
///
/// # Errors
///
/// The `fstat`'s or the read's own error.
pub fn read_at_most(file: File, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let len = file.metadata()?.len();
    if len > limit {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads the regular file at `path`, at most `limit` bytes of it: [`open_regular`] (a link is
/// followed: reading through one writes nothing) and [`read_at_most`].
///
/// # Errors
///
/// Those of [`open_regular`] (`` `PATH` is a FIFO, not a regular file: refused ``);
/// [`io::ErrorKind::FileTooLarge`] for a file over `limit` bytes (`` `PATH` is over the
/// N-byte limit of what is read from it ``).
pub fn read_regular(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path, &path.display().to_string(), Links::Follow)?;
    read_at_most(file, limit)?.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!(
                "`{}` is over the {limit}-byte limit of what is read from it",
                path.display()
            ),
        )
    })
}

/// Opens `path` with `options` (which write to it) without following a symbolic link at
/// `path` (`O_NOFOLLOW`, and `O_NONBLOCK`: a FIFO cannot block the open), and refuses what is
/// not a regular file with one name ([`check_writable`]).
///
/// # Errors
///
/// The open's error; a link at `path` (`` `PATH` is a symbolic link: refused, nothing is
/// written through a link ``); a file that is not regular or is hard-linked.
pub fn open_for_writing(options: &mut OpenOptions, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        options,
        libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC,
    );
    #[cfg(not(unix))]
    if is_link(path) {
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
///
/// # Errors
///
/// The `fstat`'s error; `` `PATH` is a FIFO, not a regular file: refused ``; `` `PATH` has 2
/// hard links: refused, nothing is written into a file that also lives elsewhere ``.
pub fn check_writable(file: &File, path: &Path) -> io::Result<()> {
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(not_regular(
            &path.display().to_string(),
            kind_of(metadata.file_type()),
        ));
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
/// Best effort: a file this user does not own keeps its mode (and elsewhere than Unix every
/// file does).
pub fn make_private(file: &File) {
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
/// symbolic link or not a directory: the directories a caller writes in are the ones under
/// `base` (which the caller named, and may itself be a link).
///
/// # Errors
///
/// A component that is a link (`` `PATH` is a symbolic link: refused, nothing is written
/// through a link ``) or not a directory; a `relative` that is not plain (`..`, absolute); a
/// directory that cannot be made.
pub fn real_dirs(base: &Path, relative: &Path) -> io::Result<PathBuf> {
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

/// What a file is, in words, for a refusal: "a FIFO", "a character device", "a block device",
/// "a socket", "a directory", "a symbolic link", "a regular file", else "a special file".
pub fn kind_of(file_type: FileType) -> &'static str {
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

/// Whether a directory (not a link to one) is at `path`: `false` when nothing is there, an
/// error naming the path when something else is.
fn existing_dir(path: &Path) -> io::Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(link_refused(path)),
        Ok(m) if m.is_dir() => Ok(true),
        Ok(m) => Err(io::Error::other(format!(
            "`{}` is {}, not a directory: refused",
            path.display(),
            kind_of(m.file_type())
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

/// The refusal of what is not a regular file (`what`: [`kind_of`]), naming it as `shown_as`.
fn not_regular(shown_as: &str, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("`{shown_as}` is {what}, not a regular file: refused"),
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("specmint-fs-guard-{name}-{}", std::process::id()));
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

    #[test]
    fn a_link_is_followed_or_refused_as_asked() {
        let dir = scratch("links");
        std::fs::write(dir.join("f"), "x").unwrap();
        let link = dir.join("link");
        std::os::unix::fs::symlink(dir.join("f"), &link).unwrap();
        let read = |links| open_regular(&link, "link", links).and_then(|f| read_at_most(f, 1));
        assert_eq!(read(Links::Follow).unwrap().unwrap(), b"x");
        assert_eq!(
            read(Links::Refuse).unwrap_err().to_string(),
            "`link` is a symbolic link, not a regular file: refused"
        );
        assert_eq!(
            open_regular(&dir.join("missing"), "missing", Links::Follow)
                .unwrap_err()
                .kind(),
            io::ErrorKind::NotFound
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
