//! The SQLite backend (embedded, one file, one machine): `journal_mode = WAL`, `synchronous =
//! FULL` by default, and every write a `BEGIN IMMEDIATE` transaction, which takes the file's
//! write lock before it reads, so two processes that read the same revision cannot both
//! write; the second waits (`busy_timeout`) and then reads what the first committed.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::types::ValueRef;
use rusqlite::TransactionBehavior;

use super::{
    require_schema, set_up_schema, Create, DatabaseError, Dialect, Param, Row, Schema, Synchronous,
    Tx, Value, BUSY_TIMEOUT,
};

/// Why setting up a store failed: another process held a lock SQLite would not wait for
/// (worth retrying), or anything else.
enum SetUp {
    Busy(rusqlite::Error),
    Failed(DatabaseError),
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

impl From<DatabaseError> for SetUp {
    fn from(err: DatabaseError) -> Self {
        SetUp::Failed(err)
    }
}

/// Creates the store's file, empty, readable by its owner alone (SQLite would make it 0644, and
/// gives its `-wal` and `-shm` files the database file's permissions): the tasks and envelopes
/// it keeps are as private as the passports (0600). A file already there is left as it is (an
/// empty file is an empty database).
fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// An open SQLite store.
pub struct Connection {
    conn: rusqlite::Connection,
}

impl Connection {
    /// Opens the database at `path` (creating it if needed and `create` says so) and sets up
    /// `schema`.
    pub(super) fn open(
        path: &Path,
        schema: &Schema,
        synchronous: Synchronous,
        create: Create,
    ) -> Result<Self, DatabaseError> {
        let no_store = || DatabaseError::NoStore {
            store: path.display().to_string(),
            component: schema.noun,
        };
        let mut flags = rusqlite::OpenFlags::default();
        if create == Create::No {
            if !path.exists() {
                return Err(no_store());
            }
            flags.remove(rusqlite::OpenFlags::SQLITE_OPEN_CREATE);
        } else {
            // A file that cannot be made here (no such folder, no permission) is SQLite's to
            // refuse next, in its own words.
            let _ = create_private(path);
        }
        let conn = rusqlite::Connection::open_with_flags(path, flags).map_err(|source| {
            // Gone between the check and the open: still no store.
            if create == Create::No && !path.exists() {
                return no_store();
            }
            DatabaseError::OpenSqlite {
                path: path.to_owned(),
                source,
            }
        })?;
        // The timeout first: switching to WAL needs a lock another opener may hold.
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let mut store = Connection { conn };
        // SQLite does not call the busy handler everywhere: while another process is turning a
        // new file into a WAL database, `journal_mode` and the first transaction can fail with
        // SQLITE_BUSY at once (to rule out a deadlock). Setting up is idempotent, so it is
        // retried until BUSY_TIMEOUT has passed.
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            match store.set_up(path, schema, synchronous, create) {
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

    fn set_up(
        &mut self,
        path: &Path,
        schema: &Schema,
        synchronous: Synchronous,
        create: Create,
    ) -> Result<(), SetUp> {
        if create == Create::No {
            // Before anything is written, WAL mode included: a file that holds no store (an
            // empty one, another program's database) is left exactly as it was.
            let tx = self.conn.transaction()?;
            require_schema(&mut SqliteTx { tx: &tx }, schema, &|| {
                path.display().to_string()
            })?;
        }
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(SetUp::Failed(DatabaseError::invalid(format!(
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
        // The write lock is held from here on, so the schema's statements do not meet SQLITE_BUSY.
        let mut sqlite_tx = SqliteTx { tx: &tx };
        set_up_schema(&mut sqlite_tx, schema, create, &|| {
            path.display().to_string()
        })?;
        tx.commit()?;
        Ok(())
    }

    pub(super) fn write<T, E>(
        &mut self,
        operation: impl FnOnce(&mut dyn Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DatabaseError>,
    {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(DatabaseError::from)?;
        // Dropping `tx` on the error path rolls it back.
        let value = operation(&mut SqliteTx { tx: &tx })?;
        tx.commit().map_err(DatabaseError::from)?;
        Ok(value)
    }

    pub(super) fn read<T>(
        &mut self,
        read: impl FnOnce(&mut dyn Tx) -> Result<T, DatabaseError>,
    ) -> Result<T, DatabaseError> {
        let tx = self.conn.transaction()?;
        read(&mut SqliteTx { tx: &tx })
    }
}

struct SqliteTx<'a, 'c> {
    tx: &'a rusqlite::Transaction<'c>,
}

/// `sql` with PostgreSQL's `$N` placeholders written as SQLite's `?N` (SQLite would read
/// `$N` as a named parameter, numbered by first appearance rather than by `N`).
fn placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('?');
        } else {
            out.push(c);
        }
    }
    out
}

fn bind(params: &[Param<'_>]) -> Vec<rusqlite::types::Value> {
    use rusqlite::types::Value as V;
    params
        .iter()
        .map(|p| match *p {
            Param::Text(t) => V::Text(t.to_owned()),
            Param::OptText(Some(t)) => V::Text(t.to_owned()),
            Param::OptText(None) => V::Null,
            Param::Int(n) => V::Integer(n),
        })
        .collect()
}

impl Tx for SqliteTx<'_, '_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DatabaseError> {
        let mut statement = self.tx.prepare_cached(&placeholders(sql))?;
        let width = statement.column_count();
        let mut rows = statement.query(rusqlite::params_from_iter(bind(params)))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut values = Vec::with_capacity(width);
            for i in 0..width {
                values.push(match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(n) => Value::Int(n),
                    ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
                    ValueRef::Real(_) | ValueRef::Blob(_) => {
                        return Err(DatabaseError::invalid(format!(
                            "store: column {i} holds neither text nor an integer"
                        )))
                    }
                });
            }
            out.push(Row(values));
        }
        Ok(out)
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DatabaseError> {
        let mut statement = self.tx.prepare_cached(&placeholders(sql))?;
        let changed = statement.execute(rusqlite::params_from_iter(bind(params)))?;
        Ok(changed as u64)
    }

    fn execute_batch(&mut self, sql: &str) -> Result<(), DatabaseError> {
        Ok(self.tx.execute_batch(sql)?)
    }

    fn table_exists(&mut self, name: &str) -> Result<bool, DatabaseError> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
                &[Param::Text(name)],
            )?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_are_numbered_as_written() {
        assert_eq!(
            super::placeholders("UPDATE t SET a = $2 WHERE b = $1 AND c = '$'"),
            "UPDATE t SET a = ?2 WHERE b = ?1 AND c = '$'"
        );
    }
}
