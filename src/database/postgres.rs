//! The PostgreSQL backend (a server that agents on several machines share): the sync
//! `postgres` client without TLS, `READ COMMITTED` transactions with row locks
//! ([`super::Lock`]), and a commit that waits for the server's WAL flush unless
//! [`Synchronous::Normal`] says otherwise (`synchronous_commit = off` for the session).
//!
//! Schema set-up takes a transaction-scoped advisory lock first, so many processes opening a
//! new database at once do not race on `CREATE TABLE` (PostgreSQL's `IF NOT EXISTS` is not
//! safe against a concurrent creator).

use postgres::types::{ToSql, Type};
use postgres::NoTls;

use super::{
    redacted, set_up_schema, DatabaseError, Dialect, Param, Row, Schema, Synchronous, Tx, Value,
};

/// The advisory lock key that serializes schema set-up (ASCII "specmint").
const SET_UP_LOCK: i64 = 0x7370_6563_6d69_6e74;

/// The server's own words when it sent an error (`postgres::Error`'s `Display` says only "db
/// error"), else the client's.
pub(super) fn describe(err: &postgres::Error) -> String {
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

/// An open PostgreSQL store.
pub struct Connection {
    client: postgres::Client,
}

impl Connection {
    /// Connects to the server at `url` and sets up `schema`.
    pub(super) fn open(
        url: &str,
        schema: &Schema,
        synchronous: Synchronous,
    ) -> Result<Self, DatabaseError> {
        let mut client =
            postgres::Client::connect(url, NoTls).map_err(|source| DatabaseError::Connect {
                url: redacted(url),
                source,
            })?;
        if synchronous == Synchronous::Normal {
            client.batch_execute("SET synchronous_commit = off")?;
        }
        let mut conn = Connection { client };
        conn.write(|tx| {
            tx.execute(
                "SELECT pg_advisory_xact_lock($1)",
                &[Param::Int(SET_UP_LOCK)],
            )?;
            set_up_schema(tx, schema)
        })?;
        Ok(conn)
    }

    pub(super) fn write<T, E>(
        &mut self,
        operation: impl FnOnce(&mut dyn Tx) -> Result<T, E>,
    ) -> Result<T, E>
    where
        E: From<DatabaseError>,
    {
        let mut tx = self.client.transaction().map_err(DatabaseError::from)?;
        // Dropping `tx` on the error path rolls it back.
        let value = operation(&mut PostgresTx { tx: &mut tx })?;
        tx.commit().map_err(DatabaseError::from)?;
        Ok(value)
    }

    pub(super) fn read<T>(
        &mut self,
        read: impl FnOnce(&mut dyn Tx) -> Result<T, DatabaseError>,
    ) -> Result<T, DatabaseError> {
        // One snapshot for every statement of the read.
        let mut tx = self
            .client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let value = read(&mut PostgresTx { tx: &mut tx })?;
        tx.commit()?;
        Ok(value)
    }
}

struct PostgresTx<'a, 'c> {
    tx: &'a mut postgres::Transaction<'c>,
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

fn read_row(row: &postgres::Row) -> Result<Row, DatabaseError> {
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
        let rows = self.tx.query(sql, &bind(params))?;
        rows.iter().map(read_row).collect()
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DatabaseError> {
        Ok(self.tx.execute(sql, &bind(params))?)
    }

    fn execute_batch(&mut self, sql: &str) -> Result<(), DatabaseError> {
        Ok(self.tx.batch_execute(sql)?)
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
