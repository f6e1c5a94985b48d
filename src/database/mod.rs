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
//! or `postgresql:///db?host=/run/postgresql` for a Unix socket), and so is libpq's keyword
//! form (`host=db port=5432 dbname=tasks`); a value that starts `key=` but is not that form,
//! or `postgres:` without `//`, is refused ([`Location::Unreadable`]); anything else is the
//! path of a SQLite file. A password in any form (and `PGPASSWORD`) never reaches a message
//! ([`redacted`]).
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
//! - Schemas ([`Schema`]) are created by [`Store::open`], one version row per component in
//!   `specmint_schema`, so a later version can migrate a store it finds older, and refuses one
//!   it finds newer. [`Store::open_existing`] creates nothing: no file, or no tables of the
//!   component, is [`DatabaseError::NoStore`] (for what only reads).
//!
//! Limits: SQLite is one machine (its locks do not work over network file systems); a SQLite
//! writer that waits longer than [`BUSY_TIMEOUT`] gets a [`DatabaseError`]. The PostgreSQL
//! client speaks TLS over TCP as the address's `sslmode` says ([`SslMode`]; `prefer`, libpq's
//! default, when absent; `verify-full` with `sslrootcert` across a network you do not trust;
//! guide/src/operating.md, "Stores"); no client certificates. A connection that is lost is not reopened by
//! the store: [`Store::is_closed`] and [`DatabaseError::is_connection_lost`] tell its holder
//! to open a new one.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

mod address;
#[cfg(feature = "postgres")]
pub mod postgres;

pub use address::{redacted, SslMode, TlsSettings};
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
    /// The PostgreSQL server cannot be reached or refused the connection, or its address
    /// does not read.
    #[cfg(feature = "postgres")]
    #[error("cannot open store `{url}`: {detail}")]
    Connect {
        /// The server's address, without its password.
        url: String,
        /// What went wrong, without the password (the client's and the server's words).
        detail: String,
    },
    /// The store does not exist: no file there (SQLite), or no tables of this component in
    /// the database (PostgreSQL). Nothing was created: a command that only reads opens a store
    /// with [`Store::open_existing`].
    #[error("store `{store}` does not exist (no {component} tables there); nothing was created")]
    NoStore {
        /// The store, as [`Location::display`] names it.
        store: String,
        /// The component whose tables were looked for (`tasks`, `packages`).
        component: &'static str,
    },
    /// The connection to the PostgreSQL server was lost while a transaction committed: it may
    /// or may not have been applied.
    #[cfg(feature = "postgres")]
    #[error("store: the connection to the server was lost while committing; the operation may or may not have been applied: {}", postgres::describe(.0))]
    CommitUnknown(::tokio_postgres::Error),
    /// The PostgreSQL server did not answer a statement within the bound on an answer
    /// (`postgres::reply_timeout`): frozen, or cut off without the connection closing. The
    /// connection is given up; if the statement was the commit, the operation may or may not
    /// have been applied.
    #[cfg(feature = "postgres")]
    #[error("store: the server did not answer within {secs} s (SPECMINT_PG_REPLY_TIMEOUT){}", if *.committing { "; the operation may or may not have been applied" } else { "; nothing was applied" })]
    NoReply {
        /// The bound, in seconds.
        secs: u64,
        /// Whether the statement waited for was the commit.
        committing: bool,
    },
    /// A statement or transaction failed in SQLite.
    #[cfg(feature = "sqlite")]
    #[error("store: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A statement or transaction failed in PostgreSQL: the server's own words when it sent an
    /// error.
    #[cfg(feature = "postgres")]
    #[error("store: {}", postgres::describe(.0))]
    Postgres(#[from] ::tokio_postgres::Error),
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

    /// Whether the error is the PostgreSQL server gone (unreachable, shut down, the connection
    /// closed), not a verdict of a working server: a new connection may succeed.
    pub fn is_connection_lost(&self) -> bool {
        match self {
            #[cfg(feature = "postgres")]
            DatabaseError::Connect { .. }
            | DatabaseError::CommitUnknown(_)
            | DatabaseError::NoReply { .. } => true,
            #[cfg(feature = "postgres")]
            DatabaseError::Postgres(err) => postgres::is_connection_lost(err),
            _ => false,
        }
    }

    /// Whether a write that failed with this error may have been committed (the connection
    /// was lost during its commit): such a write must not be retried blindly.
    pub fn may_have_committed(&self) -> bool {
        match self {
            #[cfg(feature = "postgres")]
            DatabaseError::CommitUnknown(_) => true,
            #[cfg(feature = "postgres")]
            DatabaseError::NoReply { committing, .. } => *committing,
            _ => false,
        }
    }

    /// Whether an operation that failed with this error is worth trying once more at once, on
    /// a new connection: the connection was lost (a restart, a dropped link) and nothing may
    /// have been committed. A server that stopped answering (`NoReply`, with the `postgres`
    /// feature) is not: a new connection would wait on it as long again.
    pub fn worth_retrying_at_once(&self) -> bool {
        #[cfg(feature = "postgres")]
        if matches!(self, DatabaseError::NoReply { .. }) {
            return false;
        }
        self.is_connection_lost() && !self.may_have_committed()
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
    /// A PostgreSQL server: a `postgres://` or `postgresql://` URL, or libpq's keyword form
    /// (`host=db port=5432 user=u dbname=tasks`).
    Postgres(String),
    /// A value that is neither: it starts `key=` but is not libpq's keyword form, or it starts
    /// `postgres:` without `//`. Never read as a path (it may hold a password); opening it is
    /// refused with this message.
    Unreadable(String),
}

impl Location {
    /// The store a `--store` value names: a `postgres://` or `postgresql://` URL is a
    /// PostgreSQL server, and so is a value in libpq's keyword form (`host=db user=u`, every
    /// key a libpq keyword); a value that starts `key=` otherwise, or `postgres:` without
    /// `//`, is [`Location::Unreadable`]; anything else is a SQLite file's path (write a file
    /// whose name starts `key=` as `./key=...`).
    pub fn parse(value: &str) -> Location {
        if address::is_postgres_url(value) {
            return Location::Postgres(value.to_owned());
        }
        if address::is_mistyped_url(value) {
            return Location::Unreadable(format!(
                "the store address starts `postgres:` but is not a URL (`postgres://` or `postgresql://`); write it as {}",
                address::URL_FORM
            ));
        }
        if address::is_keyword_form(value) {
            return match address::keyword_form_problem(value) {
                None => Location::Postgres(value.to_owned()),
                Some(problem) => Location::Unreadable(format!(
                    "the store address looks like libpq's keyword form (key=value ...) but {problem}; write a PostgreSQL server as a URL, {}, and a SQLite file whose name starts `key=` as ./key=...",
                    address::URL_FORM
                )),
            };
        }
        Location::Sqlite(PathBuf::from(value))
    }

    /// The backend's name: `SQLite` or `PostgreSQL`.
    fn dialect_name(&self) -> &'static str {
        match self {
            Location::Sqlite(_) => "SQLite",
            Location::Postgres(_) | Location::Unreadable(_) => "PostgreSQL",
        }
    }

    /// How the location is named in a message: an address without its password.
    pub fn display(&self) -> String {
        match self {
            Location::Sqlite(path) => path.display().to_string(),
            Location::Postgres(url) => redacted(url),
            Location::Unreadable(_) => "(an unreadable store address, not shown)".to_owned(),
        }
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        match path.to_str() {
            Some(text) => Location::parse(text),
            None => Location::Sqlite(path.to_owned()),
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
    /// What its rows are, for messages (`tasks`, `packages`).
    pub noun: &'static str,
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

/// Whether opening a store may create it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Create {
    /// Create the file (SQLite) and the component's tables when missing.
    Yes,
    /// A store without the component's tables is [`DatabaseError::NoStore`]; nothing is
    /// created (an existing store of an older version is still migrated).
    No,
}

/// Whether `schema`'s tables exist in `tx` (a version row, or its legacy table).
fn schema_exists(tx: &mut dyn Tx, schema: &Schema) -> Result<bool, DatabaseError> {
    if tx.table_exists(SCHEMA_TABLE)?
        && tx
            .query_opt(
                &format!("SELECT version FROM {SCHEMA_TABLE} WHERE component = $1"),
                &[Param::Text(schema.component)],
            )?
            .is_some()
    {
        return Ok(true);
    }
    tx.table_exists(schema.legacy_table)
}

/// [`DatabaseError::NoStore`] (naming `store()`) unless `schema`'s tables are in the store.
fn require_schema(
    tx: &mut dyn Tx,
    schema: &Schema,
    store: &dyn Fn() -> String,
) -> Result<(), DatabaseError> {
    if schema_exists(tx, schema)? {
        Ok(())
    } else {
        Err(DatabaseError::NoStore {
            store: store(),
            component: schema.noun,
        })
    }
}

/// Creates or migrates `schema`'s tables in `tx` (the caller holds the store's set-up lock);
/// with [`Create::No`], a store without them is [`DatabaseError::NoStore`].
fn set_up_schema(
    tx: &mut dyn Tx,
    schema: &Schema,
    create: Create,
    store: &dyn Fn() -> String,
) -> Result<(), DatabaseError> {
    if create == Create::No {
        require_schema(tx, schema, store)?;
    }
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
        Self::open_as(location, schema, synchronous, Create::Yes)
    }

    /// Opens the store at `location` only if it exists with `schema`'s tables (migrating an
    /// older version): a SQLite path with no file, or a database without the tables, is
    /// [`DatabaseError::NoStore`], and nothing is created.
    ///
    /// # Errors
    ///
    /// The store does not exist or cannot be opened.
    pub fn open_existing(location: &Location, schema: &Schema) -> Result<Self, DatabaseError> {
        Self::open_as(location, schema, Synchronous::Full, Create::No)
    }

    fn open_as(
        location: &Location,
        schema: &Schema,
        synchronous: Synchronous,
        create: Create,
    ) -> Result<Self, DatabaseError> {
        let backend = match location {
            Location::Unreadable(message) => return Err(DatabaseError::invalid(message.clone())),
            #[cfg(feature = "sqlite")]
            Location::Sqlite(path) => {
                Backend::Sqlite(sqlite::Connection::open(path, schema, synchronous, create)?)
            }
            #[cfg(feature = "postgres")]
            Location::Postgres(url) => Backend::Postgres(postgres::Connection::open(
                url,
                schema,
                synchronous,
                create,
            )?),
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

    /// Whether the store's connection is gone (a PostgreSQL server that closed it or went
    /// away): every operation would fail, and a new [`Store`] is needed. Never on SQLite.
    pub fn is_closed(&self) -> bool {
        match self.backend {
            #[cfg(feature = "sqlite")]
            Backend::Sqlite(_) => false,
            #[cfg(feature = "postgres")]
            Backend::Postgres(ref conn) => conn.is_closed(),
        }
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

    /// A statement the server did not answer is never tried again at once (a new connection
    /// would wait as long); one whose commit went unanswered may have been applied.
    #[cfg(feature = "postgres")]
    #[test]
    fn an_unanswered_statement_is_not_retried_and_an_unanswered_commit_may_have_applied() {
        let statement = DatabaseError::NoReply {
            secs: 2,
            committing: false,
        };
        let commit = DatabaseError::NoReply {
            secs: 2,
            committing: true,
        };
        assert!(statement.is_connection_lost() && commit.is_connection_lost());
        assert!(!statement.may_have_committed() && commit.may_have_committed());
        assert!(!statement.worth_retrying_at_once() && !commit.worth_retrying_at_once());
        assert_eq!(
            commit.to_string(),
            "store: the server did not answer within 2 s (SPECMINT_PG_REPLY_TIMEOUT); the operation may or may not have been applied"
        );
        let lost = DatabaseError::Connect {
            url: "postgresql://db".to_owned(),
            detail: "closed".to_owned(),
        };
        assert!(lost.worth_retrying_at_once());
    }

    /// A schema for opening stores in these tests.
    #[cfg(feature = "postgres")]
    const PROBE: Schema = Schema {
        component: "probe",
        noun: "probe",
        version: 1,
        sqlite: "CREATE TABLE IF NOT EXISTS probe (id TEXT)",
        postgres: "CREATE TABLE IF NOT EXISTS probe (id TEXT)",
        legacy_table: "probe",
        migrate: |_, _| Ok(()),
    };

    /// `value` with every byte but ASCII letters and digits percent-encoded.
    #[cfg(feature = "postgres")]
    fn encoded(value: &str) -> String {
        value
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect()
    }

    /// Property: a password, whatever characters it holds, never appears in an error message,
    /// in any of the forms an address can carry it (URL user info, `password=` parameter,
    /// keyword form quoted or not, `PGPASSWORD`), whether the connection fails (no server on
    /// the port), the address does not read (a bad port, a bad sslmode), or the address is
    /// refused (a keyword form with a stray key). Seeded, so a failure is repeatable.
    #[cfg(feature = "postgres")]
    #[test]
    fn no_password_appears_in_any_error() {
        let mut seed: u64 = 0x005e_ed34;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let awkward = [
            "@", ":", "%40", "'", "\"", " ", "\\", "/", "?", "&", "=", "#", "é", "%",
        ];
        let letters: Vec<char> = ('a'..='z').chain('0'..='9').collect();
        for round in 0..40 {
            let mut password = String::new();
            for _ in 0..12 {
                if next(3) == 0 {
                    password.push_str(awkward[next(awkward.len())]);
                } else {
                    password.push(letters[next(letters.len())]);
                }
            }
            let quoted = password.replace('\\', "\\\\").replace('\'', "\\'");
            let tail = ["", "&sslmode=disable", "&sslmode=bogus", "&port=notaport"][round % 4];
            let key_tail = ["", " sslmode=disable", " sslmode=bogus", " port=notaport"][round % 4];
            let addresses = [
                format!(
                    "postgresql://agent:{}@127.0.0.1:1/db?connect_timeout=5{tail}",
                    encoded(&password)
                ),
                format!(
                    "postgres://agent@127.0.0.1:1/db?password={}{tail}",
                    encoded(&password)
                ),
                format!("host=127.0.0.1 port=1 user=agent password='{quoted}' dbname=db{key_tail}"),
                format!("host=127.0.0.1 port=1 user=agent password='{quoted}' stray=1"),
                format!("postgres:agent:{}@127.0.0.1:1/db", encoded(&password)),
            ];
            for address in &addresses {
                let location = Location::parse(address);
                let err = Store::open_existing(&location, &PROBE).unwrap_err();
                let mut text = format!("{err} / {err:?} / {}", location.display());
                let mut source = std::error::Error::source(&err);
                while let Some(cause) = source {
                    text.push_str(&format!(" / {cause}"));
                    source = cause.source();
                }
                for form in [password.clone(), encoded(&password), quoted.clone()] {
                    assert!(!text.contains(&form), "{address}: {text}");
                }
            }
            // PGPASSWORD: the password when the address gives none.
            std::env::set_var("PGPASSWORD", &password);
            let location = Location::parse("postgresql://agent@127.0.0.1:1/db");
            let err = Store::open_existing(&location, &PROBE).unwrap_err();
            std::env::remove_var("PGPASSWORD");
            let text = format!("{err} / {err:?}");
            assert!(!text.contains(&password), "PGPASSWORD: {text}");
        }
    }

    #[test]
    fn sha256_of_the_empty_string() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
