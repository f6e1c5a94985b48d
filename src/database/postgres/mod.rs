//! The PostgreSQL backend (a server that agents on several machines share): `tokio-postgres`
//! driven from a current-thread runtime of the connection's own (the library stays synchronous,
//! as the `postgres` crate would keep it), over TLS as the address's `sslmode` says
//! (`postgres/tls.rs`), `READ COMMITTED`
//! transactions with row locks ([`super::Lock`]), and a commit that waits for the server's WAL
//! flush unless [`Synchronous::Normal`] says otherwise (`synchronous_commit = off` for the
//! session).
//!
//! The address is a URL or libpq's keyword form; `PGPASSWORD` is the password when the address
//! gives none (as in libpq). No message quotes a password: the address is shown redacted and
//! the client's and server's words are scrubbed of every password the address or
//! `PGPASSWORD` holds.
//!
//! Every wait on the network is bounded (issue 48: a server that accepts TCP and never answers
//! held every command for ever). Connecting, the startup exchange and TLS included, takes at
//! most `connect_timeout` (libpq's meaning: the whole attempt; `PGCONNECT_TIMEOUT` when the
//! address sets none, else [`DEFAULT_CONNECT_TIMEOUT`]); each statement's answer is waited for at
//! most [`reply_timeout`]. A wait that runs out is [`DatabaseError::NoReply`]: the connection is
//! then closed, as one the server dropped.
//!
//! Schema set-up takes a transaction-scoped advisory lock first, so many processes opening a
//! new database at once do not race on `CREATE TABLE` (PostgreSQL's `IF NOT EXISTS` is not
//! safe against a concurrent creator).

use std::future::Future;
use std::time::Duration;

use tokio_postgres::config::{Host, SslMode as ClientSslMode};
use tokio_postgres::types::{ToSql, Type};

use super::address::{scrubbed, secrets, split_tls, SslMode};
use super::{
    redacted, set_up_schema, Create, DatabaseError, Dialect, Param, Row, Schema, Synchronous, Tx,
    Value,
};

mod tls;

/// The advisory lock key that serializes schema set-up (ASCII "specmint").
const SET_UP_LOCK: i64 = 0x7370_6563_6d69_6e74;

/// The server's own words when it sent an error (`postgres::Error`'s `Display` says only "db
/// error"), else the client's.
pub(super) fn describe(err: &tokio_postgres::Error) -> String {
    match err.as_db_error() {
        Some(db) => format!("{}: {} ({})", db.severity(), db.message(), db.code().code()),
        None => {
            let mut text = err.to_string();
            let mut source = std::error::Error::source(err);
            while let Some(cause) = source {
                text.push_str(": ");
                text.push_str(&cause.to_string());
                source = cause.source();
            }
            text
        }
    }
}

/// Whether `err` is the server gone rather than its verdict: the connection closed, an I/O
/// failure, or the server's `08` (connection exception) and `57P01`-`57P03` (shutting down,
/// cannot connect now) codes.
pub(super) fn is_connection_lost(err: &tokio_postgres::Error) -> bool {
    if err.is_closed() {
        return true;
    }
    match err.as_db_error() {
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03")
        }
        None => std::error::Error::source(err)
            .is_some_and(|source| source.downcast_ref::<std::io::Error>().is_some()),
    }
}

/// How long a connection attempt may take when neither the address nor `PGCONNECT_TIMEOUT`
/// sets `connect_timeout`: a server that never answers (a dropped route, a firewall that
/// discards, a process that accepts and stalls) is an error after this, not a command that
/// hangs.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// How long a statement's answer is waited for when `SPECMINT_PG_REPLY_TIMEOUT` (seconds) does
/// not say: the store's transactions are one operation each, so a server silent this long is
/// frozen or cut off, not busy.
pub const DEFAULT_REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// The bound on each statement's answer: `SPECMINT_PG_REPLY_TIMEOUT` in whole seconds (at
/// least 1) when it is set and reads as such, else [`DEFAULT_REPLY_TIMEOUT`].
pub fn reply_timeout() -> Duration {
    seconds_from_env("SPECMINT_PG_REPLY_TIMEOUT").unwrap_or(DEFAULT_REPLY_TIMEOUT)
}

/// A whole number of seconds (at least 1) from the environment variable `name`.
fn seconds_from_env(name: &str) -> Option<Duration> {
    let secs: u64 = std::env::var(name).ok()?.trim().parse().ok()?;
    (secs > 0).then(|| Duration::from_secs(secs))
}

/// The address's `connect_timeout`, else `PGCONNECT_TIMEOUT` (as libpq reads it), else
/// [`DEFAULT_CONNECT_TIMEOUT`]; libpq treats 0 as no limit, which is not offered here.
fn with_default_connect_timeout(config: &mut tokio_postgres::Config) {
    if config.get_connect_timeout().is_none_or(|t| t.is_zero()) {
        config.connect_timeout(
            seconds_from_env("PGCONNECT_TIMEOUT").unwrap_or(DEFAULT_CONNECT_TIMEOUT),
        );
    }
}

/// An open PostgreSQL store.
pub struct Connection {
    client: tokio_postgres::Client,
    /// The task that carries the connection's messages (run whenever the runtime is).
    carrier: tokio::task::JoinHandle<()>,
    waiter: Waiter,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.carrier.abort();
    }
}

/// What every wait on the server goes through: the connection's runtime, the bound on an
/// answer, and whether a wait has run out (the connection is then given up).
struct Waiter {
    runtime: tokio::runtime::Runtime,
    wait: Duration,
    broken: bool,
}

impl Waiter {
    /// `future`'s output, waited for at most the bound; when it runs out, the connection is
    /// broken and the answer is [`DatabaseError::NoReply`] (`committing`: the statement waited
    /// for was a write's commit).
    fn within<F: Future>(
        &mut self,
        committing: bool,
        future: F,
    ) -> Result<F::Output, DatabaseError> {
        let wait = self.wait;
        self.runtime
            // The timer is made inside the runtime, whose clock it needs.
            .block_on(async { tokio::time::timeout(wait, future).await })
            .map_err(|_| {
                self.broken = true;
                DatabaseError::NoReply {
                    secs: wait.as_secs(),
                    committing,
                }
            })
    }

    /// Runs `body` in `tx`, then commits it, or when `body` fails rolls it back before
    /// answering. (A dropped tokio-postgres transaction only queues its `ROLLBACK`, which the
    /// connection's task sends the next time the runtime runs: until the store's next call,
    /// which may be long in a server such as `specmint mcp`, its locks would stay held.)
    /// `writes`: a commit cut off may have applied the write ([`DatabaseError::CommitUnknown`]).
    fn finish<T, E: From<DatabaseError>>(
        &mut self,
        mut tx: tokio_postgres::Transaction<'_>,
        writes: bool,
        body: impl FnOnce(&mut dyn Tx) -> Result<T, E>,
    ) -> Result<T, E> {
        let done = body(&mut PostgresTx {
            tx: &mut tx,
            waiter: self,
        });
        let value = match done {
            Ok(value) => value,
            Err(e) => {
                // A rollback that fails leaves the connection as the failure left it (a
                // closed or broken one is reopened).
                let _ = self.within(false, tx.rollback());
                return Err(e);
            }
        };
        self.within(writes, tx.commit())?.map_err(|err| {
            // Whether the server committed before the connection went is unknown.
            if writes && is_connection_lost(&err) {
                DatabaseError::CommitUnknown(err)
            } else {
                DatabaseError::from(err)
            }
        })?;
        Ok(value)
    }
}

impl Connection {
    /// Connects to the server at `url` and sets up `schema` (with [`Create::No`], only finds
    /// it).
    pub(super) fn open(
        url: &str,
        schema: &Schema,
        synchronous: Synchronous,
        create: Create,
    ) -> Result<Self, DatabaseError> {
        let mut hidden = secrets(url);
        let env_password = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty());
        hidden.extend(env_password.clone());
        let failed = |detail: String| DatabaseError::Connect {
            url: redacted(url),
            detail: scrubbed(&detail, &hidden),
        };
        let (rest, settings) = split_tls(url).map_err(&failed)?;
        let mut config: tokio_postgres::Config = rest
            .parse()
            .map_err(|e: tokio_postgres::Error| failed(describe(&e)))?;
        with_default_connect_timeout(&mut config);
        if config.get_password().is_none() {
            if let Some(password) = &env_password {
                config.password(password);
            }
        }
        // libpq asks for no TLS over a Unix socket (the server offers none there).
        let unix_only = !config.get_hosts().is_empty()
            && config
                .get_hosts()
                .iter()
                .all(|host| matches!(host, Host::Unix(_)));
        config.ssl_mode(match settings.mode {
            _ if unix_only => ClientSslMode::Disable,
            SslMode::Disable => ClientSslMode::Disable,
            SslMode::Prefer => ClientSslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => ClientSslMode::Require,
        });
        let connector = tls::connector(&settings).map_err(&failed)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| failed(format!("cannot start the client: {e}")))?;
        // The whole attempt, TCP, TLS and the startup exchange, within `connect_timeout`
        // (tokio-postgres bounds only each socket's connect with it).
        let limit = config
            .get_connect_timeout()
            .copied()
            .unwrap_or(DEFAULT_CONNECT_TIMEOUT);
        let (client, connection) = runtime
            .block_on(async { tokio::time::timeout(limit, config.connect(connector)).await })
            .map_err(|_| {
                failed(format!(
                    "the server did not complete the connection within {} s (connect_timeout)",
                    limit.as_secs()
                ))
            })?
            .map_err(|e| failed(describe(&e)))?;
        let carrier = runtime.spawn(async move {
            // Its end (an error included) shows as the client's `is_closed`.
            let _ = connection.await;
        });
        let mut conn = Connection {
            client,
            carrier,
            waiter: Waiter {
                runtime,
                wait: reply_timeout(),
                broken: false,
            },
        };
        if synchronous == Synchronous::Normal {
            let setting = conn.client.batch_execute("SET synchronous_commit = off");
            conn.waiter.within(false, setting)??;
        }
        let store = || redacted(url);
        conn.write(|tx| {
            tx.execute(
                "SELECT pg_advisory_xact_lock($1)",
                &[Param::Int(SET_UP_LOCK)],
            )?;
            set_up_schema(tx, schema, create, &store)
        })?;
        Ok(conn)
    }

    pub(super) fn is_closed(&self) -> bool {
        self.waiter.broken || self.client.is_closed()
    }

    pub(super) fn write<T, E>(
        &mut self,
        operation: impl FnOnce(&mut dyn Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DatabaseError>,
    {
        let tx = self
            .waiter
            .within(false, self.client.transaction())?
            .map_err(DatabaseError::from)?;
        self.waiter.finish(tx, true, operation)
    }

    pub(super) fn read<T>(
        &mut self,
        read: impl FnOnce(&mut dyn Tx) -> Result<T, DatabaseError>,
    ) -> Result<T, DatabaseError> {
        // One snapshot for every statement of the read.
        let start = self
            .client
            .build_transaction()
            .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start();
        let tx = self.waiter.within(false, start)??;
        self.waiter.finish(tx, false, read)
    }
}

struct PostgresTx<'a, 'c> {
    tx: &'a mut tokio_postgres::Transaction<'c>,
    waiter: &'a mut Waiter,
}

fn bind<'p>(params: &'p [Param<'p>]) -> Vec<&'p (dyn ToSql + Sync)> {
    params
        .iter()
        .map(|p| -> &(dyn ToSql + Sync) {
            match p {
                Param::Text(t) => t,
                Param::OptText(t) => t,
                Param::Int(n) => n,
            }
        })
        .collect()
}

fn read_row(row: &tokio_postgres::Row) -> Result<Row, DatabaseError> {
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)?
                .map(|n| Value::Int(n.into()))
        } else if *ty == Type::TEXT || *ty == Type::VARCHAR || *ty == Type::NAME {
            row.try_get::<_, Option<String>>(i)?.map(Value::Text)
        } else {
            return Err(DatabaseError::invalid(format!(
                "store: column `{}` is of type {ty}, neither text nor an integer",
                column.name()
            )));
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

impl Tx for PostgresTx<'_, '_> {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DatabaseError> {
        let params = bind(params);
        let rows = self.waiter.within(false, self.tx.query(sql, &params))??;
        rows.iter().map(read_row).collect()
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DatabaseError> {
        let params = bind(params);
        Ok(self.waiter.within(false, self.tx.execute(sql, &params))??)
    }

    fn execute_batch(&mut self, sql: &str) -> Result<(), DatabaseError> {
        Ok(self.waiter.within(false, self.tx.batch_execute(sql))??)
    }

    fn table_exists(&mut self, name: &str) -> Result<bool, DatabaseError> {
        Ok(self
            .query_opt(
                "SELECT 1::bigint FROM information_schema.tables
                 WHERE table_schema = current_schema() AND table_name = $1",
                &[Param::Text(name)],
            )?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_attempt_is_bounded_unless_the_address_bounds_it_itself() {
        let timeout = |address: &str| {
            let mut config: tokio_postgres::Config = address.parse().unwrap();
            with_default_connect_timeout(&mut config);
            config.get_connect_timeout().copied()
        };
        assert_eq!(
            timeout("postgresql://agent@db.example/tasks"),
            Some(DEFAULT_CONNECT_TIMEOUT)
        );
        assert_eq!(
            timeout("host=db.example user=agent dbname=tasks"),
            Some(DEFAULT_CONNECT_TIMEOUT)
        );
        assert_eq!(
            timeout("postgresql://agent@db.example/tasks?connect_timeout=3"),
            Some(Duration::from_secs(3))
        );
    }
}
