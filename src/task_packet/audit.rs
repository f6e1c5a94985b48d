//! The home's audit logs: one JSON object per line, appended whole.
//!
//! Several processes file packets into one home at once, so each row is written with a single
//! `write` under an exclusive advisory lock on its log file: rows never interleave or tear.
//! A filing's rows are not best effort: `Log::open` opens a log for appending before the
//! packet is written, so a log that cannot be appended refuses the filing with nothing filed
//! (spec/task_packet.md, "Files and side effects"). A refusal's row in `tool_calls.jsonl` is
//! best effort: the refusal is returned whether or not it could be logged.

use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use fs4::FileExt;

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
    /// Opens `<home>/<log>` for appending (created 0600 when absent).
    pub(crate) fn open(home: &Path, log: &str) -> std::io::Result<Self> {
        let path = home.join(log);
        let (file, created) = match Self::options(true).open(&path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                (Self::options(false).open(&path)?, false)
            }
            Err(e) => return Err(e),
        };
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
        options.append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        options
    }

    /// Appends `row` as one line, with a single write under an exclusive lock on the file.
    /// Should the file have been taken away since it was opened (`discard` of a refused
    /// filing that created it), the row goes to the file now at the path.
    pub(crate) fn append(self, row: &serde_json::Value) -> std::io::Result<()> {
        let mut line = row.to_string();
        line.push('\n');
        let mut file = self.file;
        loop {
            FileExt::lock(&file)?;
            if same_file(&file, &self.path)? {
                return file.write_all(line.as_bytes());
                // Dropping the file closes it, which releases the lock.
            }
            file = Self::options(false).open(&self.path)?;
        }
    }

    /// Takes back what `open` did for a filing that was refused after it: a log file this
    /// open created is removed while it is still empty (a refusal writes no file).
    pub(crate) fn discard(self) {
        if !self.created || FileExt::lock(&self.file).is_err() {
            return;
        }
        if self.file.metadata().is_ok_and(|m| m.len() == 0)
            && same_file(&self.file, &self.path).unwrap_or(false)
        {
            let _ = std::fs::remove_file(&self.path);
        }
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
