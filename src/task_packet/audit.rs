//! The home's audit logs: one JSON object per line, appended whole.
//!
//! Several processes file packets into one home at once, so each row is written with a single
//! `write` under an exclusive advisory lock on its log file (waited for at most
//! [`LOCK_WAIT`]): rows never interleave. A row is written whole or not at all: a write that
//! fails part-way (a full disk, a file size limit) is cut back to where the file ended, and a
//! tail torn anyway (a writer killed mid-write) is ended with a newline before the next row,
//! so that row starts on its own line and only the torn one does not parse.
//! A log is opened without following a link ([`specmint_fs`]): a link or a hard-linked file
//! at a log's path is refused, so no row is written outside the home; a log group or others
//! may use is narrowed to 0600.
//! A filing's rows are not best effort: `Log::open` opens a log for appending before the
//! packet is written, so a log that cannot be appended refuses the filing with nothing filed
//! (spec/task_packet.md, "Files and side effects"). A refusal's row in `tool_calls.jsonl` is
//! best effort: the refusal is returned whether or not it could be logged.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::fsguard;

/// How long a filing waits for a lock another process holds (a leg's, a log's) before it is
/// refused: a filing holds one for milliseconds.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// `<home>/artifacts.jsonl`: provenance of what agents produced.
pub const ARTIFACTS_LOG: &str = "artifacts.jsonl";
/// `<home>/security_audit.jsonl`: security-relevant events.
pub const SECURITY_AUDIT_LOG: &str = "security_audit.jsonl";
/// `<home>/tool_calls.jsonl`: tool calls that were refused, with their error class.
pub const TOOL_CALLS_LOG: &str = "tool_calls.jsonl";

/// The longest `params.detail` a `tool_calls.jsonl` row carries, in chars.
pub const DETAIL_MAX_CHARS: usize = 200;

/// Appends `row` as one line to `<home>/<log>` (created 0600 when absent).
pub(crate) fn append(home: &Path, log: &str, row: &serde_json::Value) -> std::io::Result<()> {
    Log::open(home, log)?.append(row)
}

/// One audit log, opened for appending: proof that a row can be added before the act it
/// records is done.
pub(crate) struct Log {
    file: File,
    path: PathBuf,
    /// This open made the file: a filing refused after it takes the empty file away again.
    created: bool,
}

impl Log {
    /// Opens `<home>/<log>` for appending (created 0600 when absent, narrowed to 0600 when
    /// group or others may use it), refusing a link or a hard-linked file at its path.
    pub(crate) fn open(home: &Path, log: &str) -> std::io::Result<Self> {
        let path = home.join(log);
        let (file, created) = match fsguard::open_for_writing(&mut Self::options(true), &path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => (
                fsguard::open_for_writing(&mut Self::options(false), &path)?,
                false,
            ),
            Err(e) => return Err(e),
        };
        fsguard::make_private(&file);
        Ok(Log {
            file,
            path,
            created,
        })
    }

    fn options(new: bool) -> OpenOptions {
        let mut options = OpenOptions::new();
        if new {
            options.create_new(true);
        } else {
            options.create(true);
        }
        // Read too: the last byte tells whether the file ends in a torn row.
        options.read(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options
    }

    /// Appends `row` as one line, with a single write under an exclusive lock on the file.
    /// Should the file have been taken away since it was opened (`discard` of a refused
    /// filing that created it), the row goes to the file now at the path.
    ///
    /// A file that does not end in a newline (a row torn by a writer killed mid-write) gets one
    /// first, in the same write; a write that fails part-way is cut back to the file's length
    /// before it, so no part of this row stays to be glued to the next.
    pub(crate) fn append(self, row: &serde_json::Value) -> std::io::Result<()> {
        let mut line = crate::runtime::json_text::compact(row);
        line.push('\n');
        let mut file = self.file;
        loop {
            fsguard::lock_within(&file, &self.path, LOCK_WAIT)?;
            if same_file(&file, &self.path)? {
                let end = file.metadata()?.len();
                let mut bytes = Vec::with_capacity(line.len() + 1);
                if end > 0 && last_byte(&file, end)?.is_some_and(|b| b != b'\n') {
                    bytes.push(b'\n');
                }
                bytes.extend_from_slice(line.as_bytes());
                return match (&file).write_all(&bytes) {
                    Ok(()) => Ok(()),
                    Err(e) => {
                        // Nothing of this row stays: a shorter file needs no space.
                        let _ = file.set_len(end);
                        Err(e)
                    }
                };
                // Dropping the file closes it, which releases the lock.
            }
            file = fsguard::open_for_writing(&mut Self::options(false), &self.path)?;
        }
    }

    /// Takes back what `open` did for a filing that was refused after it: a log file this
    /// open created is removed while it is still empty (a refusal writes no file).
    pub(crate) fn discard(self) {
        if !self.created || fsguard::lock_within(&self.file, &self.path, LOCK_WAIT).is_err() {
            return;
        }
        if self.file.metadata().is_ok_and(|m| m.len() == 0)
            && same_file(&self.file, &self.path).unwrap_or(false)
        {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The byte before `end` in `file` (`end` > 0 is its length), `None` where it cannot be read
/// without moving the append position (neither Unix nor Windows).
fn last_byte(file: &File, end: u64) -> std::io::Result<Option<u8>> {
    let mut byte = [0u8];
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, &mut byte, end - 1)?;
        Ok(Some(byte[0]))
    }
    #[cfg(windows)]
    {
        let read = std::os::windows::fs::FileExt::seek_read(file, &mut byte, end - 1)?;
        Ok((read == 1).then_some(byte[0]))
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, end, &mut byte);
        Ok(None)
    }
}

/// Whether `file` is still the file at `path`.
fn same_file(file: &File, path: &Path) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let open = file.metadata()?;
        match std::fs::metadata(path) {
            Ok(at_path) => Ok(open.dev() == at_path.dev() && open.ino() == at_path.ino()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        Ok(true)
    }
}

/// `text` cut to its first `max` chars (never inside a char, so CJK text stays valid UTF-8).
#[must_use]
pub fn truncate_chars(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_counts_chars_and_never_splits_one() {
        let cjk = "約".repeat(250);
        let cut = truncate_chars(&cjk, DETAIL_MAX_CHARS);
        assert_eq!(cut.chars().count(), 200);
        assert_eq!(cut.len(), 600);
        assert_eq!(truncate_chars("short", DETAIL_MAX_CHARS), "short");
        assert_eq!(truncate_chars("a約b", 2), "a約");
    }
}
