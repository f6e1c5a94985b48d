//! The store under the Action Envelope engine and the Task Envelope lifecycle: one small
//! trait, [`Tx`], that both engines are written over, and two backends behind it.
//!
//! Why it exists: both engines need state that survives a crash and two writers at once. An
//! agent on one machine wants nothing to install (SQLite, embedded); agents of a team on
//! several machines need one store they all reach (PostgreSQL). The engines must not differ
//! between the two, so each operation is written once, as SQL over [`Tx`], and this module owns
//! how a store is opened and how an operation runs in it.
//!
//! Which backend: the `--store` value ([`Location`]). `postgres://...` or `postgresql://...`
//! is a PostgreSQL server (the URL form of libpq: `postgresql://user:password@host:port/db`,
//! or `postgresql:///db?host=/run/postgresql` for a Unix socket); anything else is the path
//! of a SQLite file.
//!
//! How it works:
//! - Every operation is one transaction ([`Store::write`]); a refusal rolls it back, so
//!   nothing it read or planned is written.
//! - SQLite (`sqlite`): `journal_mode = WAL`, `synchronous = FULL` (the log is fsynced at
//!   every commit, so a reported operation survives a power loss), and `BEGIN IMMEDIATE`: the
//!   write lock is taken before the first read, so every writer of the file runs alone.
//! - PostgreSQL (`postgres`): `READ COMMITTED` transactions, with the row an operation
//!   changes read `FOR UPDATE` ([`Lock::Update`]): two operations on one task or one package
//!   run one after the other, and the second reads what the first committed; operations on
//!   different rows run at once. `task claim --next` reads its candidates `FOR UPDATE SKIP
//!   LOCKED` ([`Lock::SkipLocked`]), so concurrent claimers each take a different task. A
//!   commit waits for the server's WAL flush (`synchronous_commit = on`).
//! - Inserts that could collide use `ON CONFLICT DO NOTHING` and look at the count, so a
//!   collision is a refusal on both backends, never a store error.
//! - SQL is written once with PostgreSQL's `$1` placeholders; the SQLite backend reads them as
//!   `?1`. A lock clause is appended on PostgreSQL only (SQLite's write lock covers the whole
//!   file already).
//! - Schemas ([`Schema`]) are created on first use, one version row per component in
//!   `specmint_schema`, so a later version can migrate a store it finds older, and refuses one
//!   it finds newer.
//!
//! Limits: SQLite is one machine (its locks do not work over network file systems); a SQLite
//! writer that waits longer than [`BUSY_TIMEOUT`] gets a [`DatabaseError`]. The PostgreSQL
//! client speaks without TLS: reach the server over a Unix socket, loopback, or a network you
//! trust (README, "Stores").

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[cfg(feature = "postgres")]
pub mod postgres;
#[cfg(feature = "sqlite")]
pub mod sqlite;

/// How long a SQLite writer waits for another process's write lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// The table holding one schema version row per component.
pub const SCHEMA_TABLE: &str = "specmint_schema";

/// A failure of an engine's database itself (I/O, a locked or corrupt database, an unreachable
/// server), not a verdict on the input: the CLI exits 2 on it.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The SQLite database file cannot be opened.
    #[cfg(feature = "sqlite")]
    #[error("cannot open store `{}`: {source}", path.display())]
    OpenSqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        #[source]
        source: rusqlite::Error,
    },
    /// The PostgreSQL server cannot be reached or refused the connection.
    #[cfg(feature = "postgres")]
    #[error("cannot open store `{url}`: {}", postgres::describe(source))]
    Connect {
        /// The server's URL, without its password.
        url: String,
        /// The client's error.
        #[source]
        source: ::postgres::Error,
    },
    /// A statement or transaction failed in SQLite.
    #[cfg(feature = "sqlite")]
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A statement or transaction failed in PostgreSQL: the server's own words when it sent an
    /// error.
    #[cfg(feature = "postgres")]
    #[error("store: {}", postgres::describe(.0))]
    Postgres(#[from] ::postgres::Error),
    /// A stored record (a manifest, an envelope) does not read back.
    #[error("store: a stored record does not read back: {0}")]
    Record(#[from] serde_json::Error),
    /// The database holds or answers something this build cannot use (a NULL where a value
    /// belongs, a schema newer than this build, no write-ahead logging): the message says what.
    #[error("{0}")]
    Invalid(String),
}

impl DatabaseError {
    /// [`DatabaseError::Invalid`], saying `message`.
    pub fn invalid(message: impl Into<String>) -> Self {
        DatabaseError::Invalid(message.into())
    }
}

/// What an engine operation ends in when it does not succeed: a refusal with the spec's code
/// (exit 1), or a store failure (exit 2).
#[derive(Debug)]
pub enum Failure<R> {
    /// The operation was refused; nothing was written.
    Refused(R),
    /// The store failed; nothing was written.
    Store(DatabaseError),
}

impl<R> From<DatabaseError> for Failure<R> {
    fn from(err: DatabaseError) -> Self {
        Failure::Store(err)
    }
}

impl<R> From<serde_json::Error> for Failure<R> {
    fn from(err: serde_json::Error) -> Self {
        Failure::Store(err.into())
    }
}

/// How a commit reaches the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// A reported commit survives a power loss: SQLite fsyncs its log at every commit
    /// (`synchronous = FULL`), PostgreSQL waits for its WAL flush (`synchronous_commit = on`).
    /// The default.
    #[default]
    Full,
    /// A reported commit survives a killed client, but the last ones can be lost when the
    /// machine (SQLite) or the server (PostgreSQL) loses power: `synchronous = NORMAL`,
    /// `synchronous_commit = off`. For measuring what `Full` costs.
    Normal,
}

/// Where a store lives: the `--store` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite database file.
    Sqlite(PathBuf),
    /// A PostgreSQL server: a `postgres://` or `postgresql://` URL.
    Postgres(String),
}

impl Location {
    /// The store a `--store` value names: a `postgres://` or `postgresql://` URL is a
    /// PostgreSQL server, anything else a SQLite file's path.
    pub fn parse(value: &str) -> Location {
        if is_postgres_url(value) {
            Location::Postgres(value.to_owned())
        } else {
            Location::Sqlite(PathBuf::from(value))
        }
    }

    /// The backend's name: `SQLite` or `PostgreSQL`.
    fn dialect_name(&self) -> &'static str {
        match self {
            Location::Sqlite(_) => "SQLite",
            Location::Postgres(_) => "PostgreSQL",
        }
    }

    /// How the location is named in a message: a URL without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => redacted(url),
        }
    }
}

/// `url` with its password, if any, written as `***`, for messages.
pub fn redacted(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_owned();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => format!(
            "{}{}:***{}",
            &url[..scheme_end],
            &authority[..colon],
            &rest[at..]
        ),
        _ => url.to_owned(),
    }
}

fn is_postgres_url(value: &str) -> bool {
    ["postgres://", "postgresql://"].iter().any(|scheme| {
        value
            .get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
    })
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        match path.to_str() {
            Some(text) if is_postgres_url(text) => Location::Postgres(text.to_owned()),
            _ => Location::Sqlite(path.to_owned()),
        }
    }
}

impl From<&PathBuf> for Location {
    fn from(path: &PathBuf) -> Self {
        Location::from(path.as_path())
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::from(path.as_path())
    }
}

impl From<&str> for Location {
    fn from(value: &str) -> Self {
        Location::parse(value)
    }
}

impl From<&Location> for Location {
    fn from(location: &Location) -> Self {
        location.clone()
    }
}

/// Which SQL a backend speaks, for the few statements that differ (table definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQLite 3.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// A statement parameter.
#[derive(Debug, Clone, Copy)]
pub enum Param<'a> {
    /// Text.
    Text(&'a str),
    /// Text or NULL.
    OptText(Option<&'a str>),
    /// A 64-bit integer.
    Int(i64),
}

/// A value read from a row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// An integer.
    Int(i64),
    /// Text.
    Text(String),
}

/// One row of a query's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn at(&self, i: usize) -> Result<&Value, DatabaseError> {
        self.0
            .get(i)
            .ok_or_else(|| DatabaseError::invalid(format!("store: a row has no column {i}")))
    }

    /// Column `i` as text.
    ///
    /// # Errors
    ///
    /// The column is missing, NULL or not text.
    pub fn text(&self, i: usize) -> Result<String, DatabaseError> {
        self.opt_text(i)?
            .ok_or_else(|| DatabaseError::invalid(format!("store: column {i} is NULL")))
    }

    /// Column `i` as text or NULL.
    ///
    /// # Errors
    ///
    /// The column is missing or not text.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, DatabaseError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(text) => Ok(Some(text.clone())),
            Value::Int(_) => Err(DatabaseError::invalid(format!(
                "store: column {i} is an integer, not text"
            ))),
        }
    }

    /// Column `i` as an integer.
    ///
    /// # Errors
    ///
    /// The column is missing, NULL or not an integer.
    pub fn int(&self, i: usize) -> Result<i64, DatabaseError> {
        match self.at(i)? {
            Value::Int(n) => Ok(*n),
            _ => Err(DatabaseError::invalid(format!(
                "store: column {i} is not an integer"
            ))),
        }
    }
}

/// How a query's rows are locked until the transaction ends (PostgreSQL; on SQLite the
/// transaction holds the file's write lock already, and the clause is left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// `FOR UPDATE`: another transaction that wants the rows waits for this one to end.
    Update,
    /// `FOR UPDATE SKIP LOCKED`: rows another transaction holds are left out, not waited for.
    SkipLocked,
}

impl Lock {
    fn clause(self) -> &'static str {
        match self {
            Lock::Update => " FOR UPDATE",
            Lock::SkipLocked => " FOR UPDATE SKIP LOCKED",
        }
    }
}

/// One transaction of a store: what the engines are written over. SQL uses `$1`, `$2`, ...
/// placeholders.
pub trait Tx {
    /// Which SQL this backend speaks.
    fn dialect(&self) -> Dialect;

    /// The rows `sql` returns.
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DatabaseError>;

    /// Runs `sql`; returns how many rows it changed.
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DatabaseError>;

    /// Runs statements without parameters, `;`-separated (table definitions).
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn execute_batch(&mut self, sql: &str) -> Result<(), DatabaseError>;

    /// Whether table `name` exists.
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn table_exists(&mut self, name: &str) -> Result<bool, DatabaseError>;

    /// The rows `sql` returns, locked as `lock` says (the clause is appended to `sql`).
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn query_locked(
        &mut self,
        sql: &str,
        params: &[Param<'_>],
        lock: Lock,
    ) -> Result<Vec<Row>, DatabaseError> {
        match self.dialect() {
            Dialect::Sqlite => self.query(sql, params),
            Dialect::Postgres => self.query(&format!("{sql}{}", lock.clause()), params),
        }
    }

    /// The first row `sql` returns, if any.
    ///
    /// # Errors
    ///
    /// The store's failure.
    fn query_opt(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Option<Row>, DatabaseError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// The tables of one component (the engine's packages, the lifecycle's tasks) and their
/// version, created on first use.
#[derive(Debug, Clone, Copy)]
pub struct Schema {
    /// The component's name in `specmint_schema`.
    pub component: &'static str,
    /// The version these definitions are.
    pub version: i64,
    /// `CREATE TABLE IF NOT EXISTS` statements for SQLite.
    pub sqlite: &'static str,
    /// The same for PostgreSQL.
    pub postgres: &'static str,
    /// A table whose presence, in a store without a version row, says the store was made
    /// before version rows existed: it is at version 1.
    pub legacy_table: &'static str,
    /// Brings a store at version `from` (older than [`Schema::version`]) up to date, before
    /// the definitions run (they then add only what is missing).
    pub migrate: fn(&mut dyn Tx, from: i64) -> Result<(), DatabaseError>,
}

impl Schema {
    fn definitions(&self, dialect: Dialect) -> &'static str {
        match dialect {
            Dialect::Sqlite => self.sqlite,
            Dialect::Postgres => self.postgres,
        }
    }
}

/// Creates or migrates `schema`'s tables in `tx` (the caller holds the store's set-up lock).
fn set_up_schema(tx: &mut dyn Tx, schema: &Schema) -> Result<(), DatabaseError> {
    tx.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (component TEXT PRIMARY KEY, version BIGINT NOT NULL)"
    ))?;
    let found = tx
        .query_opt(
            &format!("SELECT version FROM {SCHEMA_TABLE} WHERE component = $1"),
            &[Param::Text(schema.component)],
        )?
        .map(|row| row.int(0))
        .transpose()?;
    let found = match found {
        Some(version) => Some(version),
        None if tx.table_exists(schema.legacy_table)? => Some(1),
        None => None,
    };
    match found {
        Some(version) if version == schema.version => return Ok(()),
        Some(version) if version > schema.version => {
            return Err(DatabaseError::invalid(format!(
                "store: its {} tables are at schema version {version}, newer than this specmint's {}; use a newer specmint",
                schema.component, schema.version
            )));
        }
        Some(version) => (schema.migrate)(tx, version)?,
        None => {}
    }
    tx.execute_batch(schema.definitions(tx.dialect()))?;
    tx.execute(
        &format!(
            "INSERT INTO {SCHEMA_TABLE} (component, version) VALUES ($1, $2)
             ON CONFLICT (component) DO UPDATE SET version = excluded.version"
        ),
        &[Param::Text(schema.component), Param::Int(schema.version)],
    )?;
    Ok(())
}

enum Backend {
    #[cfg(feature = "sqlite")]
    Sqlite(sqlite::Connection),
    #[cfg(feature = "postgres")]
    Postgres(postgres::Connection),
}

/// An open store: one connection, configured as the module doc says.
pub struct Store {
    backend: Backend,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Store")
            .field("dialect", &self.dialect())
            .finish()
    }
}

impl Store {
    /// Opens the store at `location` (creating a SQLite file if needed) and creates or
    /// migrates `schema`'s tables.
    ///
    /// # Errors
    ///
    /// The store cannot be opened (no such server, not a database, a newer schema).
    pub fn open(location: &Location, schema: &Schema) -> Result<Self, DatabaseError> {
        Self::open_with(location, schema, Synchronous::Full)
    }

    /// [`Store::open`] with another [`Synchronous`] setting.
    ///
    /// # Errors
    ///
    /// The store cannot be opened.
    pub fn open_with(
        location: &Location,
        schema: &Schema,
        synchronous: Synchronous,
    ) -> Result<Self, DatabaseError> {
        let backend = match location {
            #[cfg(feature = "sqlite")]
            Location::Sqlite(path) => {
                Backend::Sqlite(sqlite::Connection::open(path, schema, synchronous)?)
            }
            #[cfg(feature = "postgres")]
            Location::Postgres(url) => {
                Backend::Postgres(postgres::Connection::open(url, schema, synchronous)?)
            }
            #[allow(unreachable_patterns)]
            other => {
                return Err(DatabaseError::invalid(format!(
                "cannot open store `{}`: this build of specmint has no {} store (the `{}` feature)",
                other.display(),
                other.dialect_name(),
                other.dialect_name().to_ascii_lowercase(),
            )))
            }
        };
        Ok(Store { backend })
    }

    /// Which SQL the store speaks.
    pub fn dialect(&self) -> Dialect {
        match self.backend {
            #[cfg(feature = "sqlite")]
            Backend::Sqlite(_) => Dialect::Sqlite,
            #[cfg(feature = "postgres")]
            Backend::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs `operation` in one transaction: committed when it returns `Ok`, rolled back when
    /// it returns `Err` (a refusal writes nothing).
    ///
    /// # Errors
    ///
    /// `operation`'s error, or the store's when the transaction cannot begin or commit.
    pub fn write<T, E>(
        &mut self,
        operation: impl FnOnce(&mut dyn Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DatabaseError>,
    {
        match self.backend {
            #[cfg(feature = "sqlite")]
            Backend::Sqlite(ref mut conn) => conn.write(operation),
            #[cfg(feature = "postgres")]
            Backend::Postgres(ref mut conn) => conn.write(operation),
        }
    }

    /// Runs `read` on a consistent snapshot (a transaction that writes nothing).
    ///
    /// # Errors
    ///
    /// The store's, when the snapshot cannot be read.
    pub fn read<T>(
        &mut self,
        read: impl FnOnce(&mut dyn Tx) -> Result<T, DatabaseError>,
    ) -> Result<T, DatabaseError> {
        match self.backend {
            #[cfg(feature = "sqlite")]
            Backend::Sqlite(ref mut conn) => conn.read(read),
            #[cfg(feature = "postgres")]
            Backend::Postgres(ref mut conn) => conn.read(read),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_never_reaches_a_message() {
        assert_eq!(
            redacted("postgresql://agent:s3cret@db.example:5432/tasks"),
            "postgresql://agent:***@db.example:5432/tasks"
        );
        assert_eq!(
            redacted("postgres://agent@db/tasks"),
            "postgres://agent@db/tasks"
        );
        assert_eq!(
            redacted("postgresql:///tasks?host=/run/postgresql"),
            "postgresql:///tasks?host=/run/postgresql"
        );
    }

    #[test]
    fn sha256_of_the_empty_string() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
