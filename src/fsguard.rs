//! Opening the files a command reads and writes without being led astray by what was planted
//! where they should be: the guards of `specmint-fs` (a file written is never reached through
//! a link nor has other names, a file read is a regular file read to a bound), and here, with
//! `fs4`, a lock waited for a bounded time, then refused naming the lock file.

use std::fs::File;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

pub(crate) use specmint_fs::{make_private, open_for_writing, read_regular, real_dirs};

/// Takes an exclusive advisory lock on `file` (the file at `path`), waiting at most `wait`.
///
/// # Errors
///
/// `TimedOut` when another process still holds it (`` the lock `PATH` is held by another
/// process: gave up after N s ``); the lock's own error.
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
