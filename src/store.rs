//! The embedded SQLite store under the Action Envelope engine and the Task Envelope lifecycle.
//!
//! Why it exists: both engines need state that survives a crash and two writers at once, and
//! nothing to install. One database file holds both engines' tables; this module owns how that
//! file is opened and how an operation runs in it, so the two engines cannot differ on it.
//!
//! How it works:
//! - `journal_mode = WAL`: readers never block the writer, and a commit is one append to the
//!   write-ahead log.
//! - `synchronous = FULL`: the log is fsynced at every commit, so an operation that reported
//!   success survives a power loss, not only a killed process. (`NORMAL` would survive a
//!   killed process but could lose the last commits on power loss; BENCHMARKS.md shows the
//!   cost of the choice.)
//! - Every operation is one transaction begun with `BEGIN IMMEDIATE`: it takes the write lock
//!   before it reads, so two processes that read the same revision cannot both write; the
//!   second waits (`busy_timeout`) and then reads what the first committed.
//! - A refusal rolls the transaction back: nothing it read or planned is written.
//!
//! Limits: one machine (SQLite's locks do not work over network file systems); a writer that
//! waits longer than [`BUSY_TIMEOUT`] gets a [`StoreError`].

use std::fmt;
use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, TransactionBehavior};

pub use rusqlite::Transaction;

/// How long a writer waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// A failure of the store itself (I/O, a locked or corrupt database), not a verdict on the
/// input: the CLI exits 2 on it.
#[derive(Debug)]
pub struct StoreError(String);

impl StoreError {
    /// A store failure described by `message`.
    pub fn new(message: impl Into<String>) -> Self {
        StoreError(message.into())
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        StoreError(format!("store: {err}"))
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(err: serde_json::Error) -> Self {
        StoreError(format!("store: a stored record does not read back: {err}"))
    }
}

/// What an engine operation ends in when it does not succeed: a refusal with the spec's code
/// (exit 1), or a store failure (exit 2).
#[derive(Debug)]
pub enum Failure<R> {
    /// The operation was refused; nothing was written.
    Refused(R),
    /// The store failed; nothing was written.
    Store(StoreError),
}

impl<R> From<StoreError> for Failure<R> {
    fn from(err: StoreError) -> Self {
        Failure::Store(err)
    }
}

impl<R> From<rusqlite::Error> for Failure<R> {
    fn from(err: rusqlite::Error) -> Self {
        Failure::Store(err.into())
    }
}

impl<R> From<serde_json::Error> for Failure<R> {
    fn from(err: serde_json::Error) -> Self {
        Failure::Store(err.into())
    }
}

/// How a commit reaches the disk (SQLite's `synchronous` in WAL mode).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// The log is fsynced at every commit: a reported commit survives a power loss. The
    /// default.
    #[default]
    Full,
    /// The log is fsynced at checkpoints only: a reported commit survives a killed process,
    /// but the last ones can be lost on power loss. For measuring what `Full` costs.
    Normal,
}

/// Why setting up a store failed: another process held a lock SQLite would not wait for (worth
/// retrying), or anything else.
enum SetUp {
    Busy(rusqlite::Error),
    Failed(StoreError),
}

impl From<rusqlite::Error> for SetUp {
    fn from(err: rusqlite::Error) -> Self {
        if err.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) {
            SetUp::Busy(err)
        } else {
            SetUp::Failed(err.into())
        }
    }
}

/// An open store: one SQLite connection, configured as the module doc says.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and creates `schema`'s tables if
    /// they are missing (`schema` is SQL of `CREATE TABLE IF NOT EXISTS` statements).
    ///
    /// # Errors
    ///
    /// The file cannot be opened or is not a database.
    pub fn open(path: &Path, schema: &str) -> Result<Self, StoreError> {
        Self::open_with(path, schema, Synchronous::Full)
    }

    /// [`Store::open`] with another [`Synchronous`] setting.
    ///
    /// # Errors
    ///
    /// The file cannot be opened or is not a database.
    pub fn open_with(
        path: &Path,
        schema: &str,
        synchronous: Synchronous,
    ) -> Result<Self, StoreError> {
        let conn = Connection::open(path)
            .map_err(|e| StoreError(format!("cannot open store `{}`: {e}", path.display())))?;
        // The timeout first: switching to WAL needs a lock another opener may hold.
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mut store = Store { conn };
        // SQLite does not call the busy handler everywhere: while another process is turning a
        // new file into a WAL database, `journal_mode` and the first transaction can fail with
        // SQLITE_BUSY at once (to rule out a deadlock). Setting up is idempotent, so it is
        // retried until BUSY_TIMEOUT has passed.
        let started = std::time::Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match store.set_up(path, schema, synchronous) {
                Err(SetUp::Busy(_)) if started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(SetUp::Busy(err)) => return Err(err.into()),
                Err(SetUp::Failed(err)) => return Err(err),
                Ok(()) => return Ok(store),
            }
        }
    }

    /// Puts the connection in the mode the module doc describes and creates `schema`'s tables.
    fn set_up(&mut self, path: &Path, schema: &str, synchronous: Synchronous) -> Result<(), SetUp> {
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(SetUp::Failed(StoreError(format!(
                "store `{}` cannot use write-ahead logging (journal_mode is {mode})",
                path.display()
            ))));
        }
        let level = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        self.conn.pragma_update(None, "synchronous", level)?;
        // An outcome row names its package; SQLite checks that only when asked.
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        tx.execute_batch(schema)?;
        tx.commit()?;
        Ok(())
    }

    /// Runs `operation` in one `BEGIN IMMEDIATE` transaction: committed when it returns `Ok`,
    /// rolled back when it returns `Err` (a refusal writes nothing).
    ///
    /// # Errors
    ///
    /// `operation`'s error, or the store's when the transaction cannot begin or commit.
    pub fn write<T, E>(
        &mut self,
        operation: impl FnOnce(&Transaction<'_>) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<StoreError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        // Dropping `tx` on the error path rolls it back.
        let value = operation(&tx)?;
        tx.commit().map_err(StoreError::from)?;
        Ok(value)
    }

    /// Runs `read` on a consistent snapshot (a deferred transaction that writes nothing).
    ///
    /// # Errors
    ///
    /// The store's, when the snapshot cannot be read.
    pub fn read<T>(
        &mut self,
        read: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let tx = self.conn.transaction()?;
        read(&tx)
    }
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// The current time as RFC 3339 UTC with seconds (`2026-08-03T09:15:00Z`).
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    rfc3339_utc(secs)
}

/// `secs` since the Unix epoch as RFC 3339 UTC.
fn rfc3339_utc(secs: u64) -> String {
    let (year, month, day) = civil_from_days(secs / 86_400);
    let rem = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`),
/// for every timestamp specmint writes (the stores and the handoff audit rows).
pub(crate) fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_of_known_instants() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        // 2000-02-29 (a leap day in a century leap year) 12:34:56.
        assert_eq!(rfc3339_utc(951_827_696), "2000-02-29T12:34:56Z");
        assert_eq!(rfc3339_utc(1_785_748_500), "2026-08-03T09:15:00Z");
    }

    #[test]
    fn sha256_of_the_empty_string() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
