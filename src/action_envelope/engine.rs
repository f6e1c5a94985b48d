//! The Action Envelope engine: applies envelopes to packages kept in a [store](crate::database)
//! (SQLite or PostgreSQL, written once over [`Tx`]), one transaction per operation.
//!
//! An apply runs, in this order (spec/action_envelope.md, "Engine"): read the envelope
//! (`INVALID_ENVELOPE`, `INVALID_PAYLOAD`), look the package up, idempotency (an `action_id`
//! already applied to the package with the same content replays its recorded outcome;
//! other content is `ACTION_ID_REUSE`), then [`Manifest::step`] (revision, transition, gate),
//! then the write: the new manifest and the outcome, recorded under the `action_id` with the
//! digest of the envelope's content. A refusal writes nothing and is not recorded.
//!
//! ```
//! use specmint::action_envelope::engine::PackageStore;
//! # let dir = std::env::temp_dir().join(format!("specmint-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let mut store = PackageStore::open(&dir.join("engine-doc.db")).unwrap();
//! store.create("pkg_doc", Some("a guide")).unwrap();
//! let envelope = br#"{"protocol_version":"0.1","action_id":"a-1","package_id":"pkg_doc",
//!   "expected_revision":0,"action":"set_objective","basis":{},"payload":{"statement":"ship"}}"#;
//! let applied = store.apply_json(envelope).unwrap();
//! assert_eq!((applied.revision, applied.replayed), (1, false));
//! // The same envelope again replays the recorded outcome and changes nothing.
//! assert!(store.apply_json(envelope).unwrap().replayed);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use super::manifest::Manifest;
use super::{ActionEnvelope, EnvelopeError, PackageState};
use crate::clock::now_utc;
use crate::database::{
    sha256_hex, DatabaseError, Failure, Location, Lock, Param, Schema, Store, Synchronous, Tx,
};
use crate::runtime::Validate as _;
use crate::{Refusal, Report};

/// What an engine operation that did not succeed ends in.
pub type ApplyError = Failure<Refusal<EnvelopeError>>;

/// The engine's tables: one row per package (its manifest as JSON), one per applied action.
pub const SCHEMA: Schema = Schema {
    component: "action_envelope",
    noun: "packages",
    version: 1,
    sqlite: "
CREATE TABLE IF NOT EXISTS action_packages (
    package_id TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    manifest TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS action_outcomes (
    package_id TEXT NOT NULL REFERENCES action_packages (package_id),
    action_id TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    revision INTEGER NOT NULL,
    manifest_state TEXT NOT NULL,
    PRIMARY KEY (package_id, action_id)
) STRICT;
",
    postgres: "
CREATE TABLE IF NOT EXISTS action_packages (
    package_id TEXT PRIMARY KEY,
    revision BIGINT NOT NULL,
    manifest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS action_outcomes (
    package_id TEXT NOT NULL REFERENCES action_packages (package_id),
    action_id TEXT NOT NULL,
    content_sha256 TEXT NOT NULL,
    revision BIGINT NOT NULL,
    manifest_state TEXT NOT NULL,
    PRIMARY KEY (package_id, action_id)
);
",
    legacy_table: "action_packages",
    // Version 1 is the first; a store made before version rows has exactly its tables.
    migrate: |_, _| Ok(()),
};

/// The outcome of an applied (or replayed) envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// `true` when the envelope had already been applied and its recorded outcome is returned.
    pub replayed: bool,
    /// The package.
    pub package_id: String,
    /// The package's revision right after the action was applied.
    pub revision: u64,
    /// The package's state right after the action was applied.
    pub state: PackageState,
}

/// The packages of one store.
#[derive(Debug)]
pub struct PackageStore {
    store: Store,
}

impl PackageStore {
    /// Opens the store at `location`: a SQLite file's path (created if needed) or a
    /// `postgres://` URL ([`Location`]), creating the engine's tables on first use.
    ///
    /// # Errors
    ///
    /// The location cannot be opened as a store.
    pub fn open(location: impl Into<Location>) -> Result<Self, DatabaseError> {
        Self::open_with(location, Synchronous::Full)
    }

    /// [`PackageStore::open`] with another [`Synchronous`] setting (`Full` is the default).
    ///
    /// # Errors
    ///
    /// The location cannot be opened as a store.
    pub fn open_with(
        location: impl Into<Location>,
        synchronous: Synchronous,
    ) -> Result<Self, DatabaseError> {
        Ok(PackageStore {
            store: Store::open_with(&location.into(), &SCHEMA, synchronous)?,
        })
    }

    /// Opens the store at `location` only if it exists and holds the packages' tables: a
    /// missing file or a database without them is [`DatabaseError::NoStore`], and nothing is
    /// created (for what only reads, or needs packages to exist already).
    ///
    /// # Errors
    ///
    /// The store does not exist or cannot be opened.
    pub fn open_existing(location: impl Into<Location>) -> Result<Self, DatabaseError> {
        Ok(PackageStore {
            store: Store::open_existing(&location.into(), &SCHEMA)?,
        })
    }

    /// Whether the store's connection is gone (a PostgreSQL server that closed it): every
    /// operation would fail; open the store again.
    pub fn is_closed(&self) -> bool {
        self.store.is_closed()
    }

    /// Creates package `package_id` in the initial state at revision 0, with `intent` when
    /// given (no action sets an intent later).
    ///
    /// # Errors
    ///
    /// `INVALID_ENVELOPE` when `package_id` breaks the envelope's `package_id` rule;
    /// `ILLEGAL_TRANSITION` when the package exists.
    pub fn create(
        &mut self,
        package_id: &str,
        intent: Option<&str>,
    ) -> Result<Manifest, ApplyError> {
        check_package_id(package_id).map_err(Failure::Refused)?;
        let manifest = Manifest::new(package_id, intent.map(str::to_owned));
        let text = serde_json::to_string(&manifest)?;
        self.store.write(|tx| {
            // A package that exists (or that a concurrent `new` is creating) keeps its row.
            let inserted = tx.execute(
                "INSERT INTO action_packages (package_id, revision, manifest) VALUES ($1, 0, $2)
                 ON CONFLICT (package_id) DO NOTHING",
                &[Param::Text(package_id), Param::Text(&text)],
            )?;
            if inserted == 0 {
                return Err(Failure::Refused(Refusal::new(
                    EnvelopeError::IllegalTransition,
                    format!("package `{package_id}` exists; a package is created once"),
                )));
            }
            Ok(manifest.clone())
        })
    }

    /// Reads, validates and applies one envelope (the text of a file or a message; prose
    /// around the object is tolerated as the spec says).
    ///
    /// # Errors
    ///
    /// The refusal with the spec's code, or the store's failure.
    pub fn apply_json(&mut self, input: &[u8]) -> Result<Applied, ApplyError> {
        let envelope = ActionEnvelope::from_json_slice(input)
            .map_err(|report| Failure::Refused(refusal_of(&report)))?;
        self.apply_valid(&envelope)
    }

    /// Validates and applies an envelope built in code.
    ///
    /// # Errors
    ///
    /// The refusal with the spec's code, or the store's failure.
    pub fn apply(&mut self, envelope: &ActionEnvelope) -> Result<Applied, ApplyError> {
        envelope
            .validate()
            .map_err(|report| Failure::Refused(refusal_of(&report)))?;
        self.apply_valid(envelope)
    }

    fn apply_valid(&mut self, envelope: &ActionEnvelope) -> Result<Applied, ApplyError> {
        let content_sha256 = content_sha256(envelope);
        let package_id = envelope.package_id.as_str();
        let action_id = envelope.action_id.as_str();
        self.store.write(|tx| {
            // The package row is locked first: a concurrent apply to it waits, then reads
            // what this one committed (its outcome and revision).
            let Some(mut manifest) = load(tx, package_id, Some(Lock::Update))? else {
                return Err(Failure::Refused(no_package(package_id)));
            };
            let recorded = tx
                .query_opt(
                    "SELECT content_sha256, revision, manifest_state FROM action_outcomes
                     WHERE package_id = $1 AND action_id = $2",
                    &[Param::Text(package_id), Param::Text(action_id)],
                )?
                .map(|row| Ok::<_, DatabaseError>((row.text(0)?, row.int(1)?, row.text(2)?)))
                .transpose()?;
            if let Some((recorded_sha256, revision, state)) = recorded {
                if recorded_sha256 != content_sha256 {
                    return Err(Failure::Refused(Refusal::new(
                        EnvelopeError::ActionIdReuse,
                        format!(
                            "action_id `{action_id}` was applied to `{package_id}` with other content"
                        ),
                    )));
                }
                return Ok(Applied {
                    replayed: true,
                    package_id: package_id.to_owned(),
                    revision: from_sql_revision(revision)?,
                    state: serde_json::from_value(serde_json::Value::String(state))?,
                });
            }
            manifest
                .step(envelope, &now_utc())
                .map_err(Failure::Refused)?;
            let revision = to_sql_revision(manifest.revision)?;
            tx.execute(
                "UPDATE action_packages SET revision = $2, manifest = $3 WHERE package_id = $1",
                &[
                    Param::Text(package_id),
                    Param::Int(revision),
                    Param::Text(&serde_json::to_string(&manifest)?),
                ],
            )?;
            tx.execute(
                "INSERT INTO action_outcomes
                 (package_id, action_id, content_sha256, revision, manifest_state)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    Param::Text(package_id),
                    Param::Text(action_id),
                    Param::Text(&content_sha256),
                    Param::Int(revision),
                    Param::Text(manifest.state.as_str()),
                ],
            )?;
            Ok(Applied {
                replayed: false,
                package_id: package_id.to_owned(),
                revision: manifest.revision,
                state: manifest.state,
            })
        })
    }

    /// The manifest of `package_id`, if the package exists.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn manifest(&mut self, package_id: &str) -> Result<Option<Manifest>, DatabaseError> {
        self.store.read(|tx| load(tx, package_id, None))
    }

    /// How many outcomes are recorded for `package_id` (one per applied action).
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn outcome_count(&mut self, package_id: &str) -> Result<u64, DatabaseError> {
        self.store.read(|tx| {
            let count = tx
                .query_opt(
                    "SELECT count(*) FROM action_outcomes WHERE package_id = $1",
                    &[Param::Text(package_id)],
                )?
                .map_or(Ok(0), |row| row.int(0))?;
            from_sql_revision(count)
        })
    }
}

fn load(
    tx: &mut dyn Tx,
    package_id: &str,
    lock: Option<Lock>,
) -> Result<Option<Manifest>, DatabaseError> {
    let sql = "SELECT manifest FROM action_packages WHERE package_id = $1";
    let params = [Param::Text(package_id)];
    let rows = match lock {
        Some(lock) => tx.query_locked(sql, &params, lock)?,
        None => tx.query(sql, &params)?,
    };
    rows.first()
        .map(|row| Ok(serde_json::from_str(&row.text(0)?)?))
        .transpose()
}

/// The refusal for a package that is not in the store: `ILLEGAL_TRANSITION`, since no
/// action of the vocabulary creates a package (spec/action_envelope.md, "Engine").
pub fn no_package(package_id: &str) -> Refusal<EnvelopeError> {
    Refusal::new(
        EnvelopeError::IllegalTransition,
        format!("no package `{package_id}`: no action is legal before the package is created"),
    )
}

fn to_sql_revision(revision: u64) -> Result<i64, DatabaseError> {
    i64::try_from(revision).map_err(|_| DatabaseError::invalid("store: revision overflows"))
}

fn from_sql_revision(revision: i64) -> Result<u64, DatabaseError> {
    u64::try_from(revision)
        .map_err(|_| DatabaseError::invalid("store: a negative revision is stored"))
}

/// The digest that decides "identical content": SHA-256 of the envelope's canonical JSON with
/// `expected_revision` written as 0, so a retry sent with a fresher revision still replays.
pub fn content_sha256(envelope: &ActionEnvelope) -> String {
    let unrevised = ActionEnvelope {
        expected_revision: 0,
        ..envelope.clone()
    };
    sha256_hex(unrevised.to_canonical_json().as_bytes())
}

/// The refusal for an envelope that does not read: `INVALID_ENVELOPE` when any violation is a
/// shape violation (the envelope as a whole is not one), else the first violation's code
/// (`INVALID_PAYLOAD`); the message holds every violation, `; `-separated.
pub fn refusal_of(report: &Report) -> Refusal<EnvelopeError> {
    let codes: Vec<EnvelopeError> = report
        .iter()
        .filter_map(|v| EnvelopeError::from_code(&v.code))
        .collect();
    let code = if codes.contains(&EnvelopeError::InvalidEnvelope) {
        EnvelopeError::InvalidEnvelope
    } else {
        codes
            .first()
            .copied()
            .unwrap_or(EnvelopeError::InvalidEnvelope)
    };
    let messages: Vec<&str> = report.iter().map(|v| v.message.as_str()).collect();
    Refusal::new(code, messages.join("; "))
}

/// Checks `package_id` with the envelope's own `package_id` rule (the generated validator
/// holds the pattern; it is not repeated here).
fn check_package_id(package_id: &str) -> Result<(), Refusal<EnvelopeError>> {
    let probe = ActionEnvelope {
        protocol_version: "0.1".to_owned(),
        action_id: "create".to_owned(),
        package_id: package_id.to_owned(),
        expected_revision: 0,
        body: super::ActionBody::ReviseIntake {
            basis: super::ReviseIntakeBasis {},
            payload: super::ReviseIntakePayload {},
        },
    };
    match probe.validate() {
        Ok(()) => Ok(()),
        Err(report) => Err(refusal_of(&report)),
    }
}
