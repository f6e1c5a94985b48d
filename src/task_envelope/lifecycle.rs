//! The Task Envelope lifecycle: tasks kept in a [store](crate::database) (SQLite or PostgreSQL,
//! written once over [`Tx`]), moved only along the generated transition table
//! ([`TaskState::can_transition`]), one transaction per operation, each move recorded in the
//! task's history.
//!
//! The rules the table cannot say (spec/task_envelope.md, "Lifecycle store"):
//! - a move from `submitted` to `working` is a claim, legal only when every `dependsOn` task
//!   is `completed` in the store (`dependency_unresolved`, naming each one that is not);
//! - entering `completed` needs recorded evidence that the acceptance check passed
//!   (`completion_without_evidence`), see [`acceptance_passed`];
//! - entering `rejected` needs a non-blank reason (`reason_required`);
//! - a refusal writes nothing;
//! - [`TaskStore::claim_next`] claims the oldest claimable task (submitted, every dependency
//!   completed), skipping tasks another claimer holds, so concurrent claimers never take one
//!   task twice.
//!
//! ```
//! use specmint::task_envelope::lifecycle::TaskStore;
//! use specmint::task_envelope::TaskState;
//! # let dir = std::env::temp_dir().join(format!("specmint-doc-task-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! let mut tasks = TaskStore::open(&dir.join("tasks.db")).unwrap();
//! let id = tasks.submit(br#"{"taskID":"t-1","objective":"o","outputFormat":"f",
//!   "toolAndSourceGuidance":"g","boundaries":["b"],"filesAndInterfaces":["a.rs"],
//!   "acceptanceCheck":{"passFailCommand":"cargo test","endToEndVerification":"run it"},
//!   "contextID":"c"}"#).unwrap();
//! assert_eq!(tasks.claim(&id).unwrap(), TaskState::Working);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::collections::HashSet;

use serde::Serialize;

use super::binding::{bind, BoundTaskEnvelope, CapabilityLedger};
use super::{Evidence, TaskEnvelope, TaskEnvelopeError, TaskState};
use crate::clock::now_utc;
use crate::database::{DatabaseError, Failure, Location, Lock, Param, Row, Schema, Store, Tx};
use crate::runtime::document::{parse_document, DocumentSpec};
use crate::runtime::{Path as FieldPath, Report, Violation};
use crate::Refusal;

/// The lifecycle's tables: one row per task (`seq` is the submission order the queue takes
/// tasks in; `context_id` is the envelope's `contextID`, kept in a column for
/// `claim --next --context`), and one row per step of a task's history.
///
/// Version 1 (stores made before version rows) had `tasks` without `context_id` and no
/// history; `migrate_tasks` brings it to version 2.
pub const SCHEMA: Schema = Schema {
    component: "task_envelope",
    noun: "tasks",
    version: 2,
    sqlite: "
CREATE TABLE IF NOT EXISTS tasks (
    seq INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    envelope TEXT NOT NULL,
    evidence TEXT,
    reason TEXT,
    tools TEXT,
    context_id TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS tasks_queue ON tasks (state, seq);
CREATE TABLE IF NOT EXISTS task_transitions (
    task_id TEXT NOT NULL REFERENCES tasks (task_id),
    step INTEGER NOT NULL,
    from_state TEXT,
    to_state TEXT NOT NULL,
    at TEXT NOT NULL,
    reason TEXT,
    PRIMARY KEY (task_id, step)
) STRICT;
",
    postgres: "
CREATE TABLE IF NOT EXISTS tasks (
    seq BIGINT PRIMARY KEY,
    task_id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    envelope TEXT NOT NULL,
    evidence TEXT,
    reason TEXT,
    tools TEXT,
    context_id TEXT
);
CREATE INDEX IF NOT EXISTS tasks_queue ON tasks (state, seq);
CREATE TABLE IF NOT EXISTS task_transitions (
    task_id TEXT NOT NULL REFERENCES tasks (task_id),
    step BIGINT NOT NULL,
    from_state TEXT,
    to_state TEXT NOT NULL,
    at TEXT NOT NULL,
    reason TEXT,
    PRIMARY KEY (task_id, step)
);
",
    legacy_table: "tasks",
    migrate: migrate_tasks,
};

/// Version 1 to 2: the `context_id` column, filled from each stored envelope. The history
/// table is created by the definitions; tasks of a version 1 store have no history before
/// the migration (it was never recorded).
fn migrate_tasks(tx: &mut dyn Tx, from: i64) -> Result<(), DatabaseError> {
    if from < 2 {
        tx.execute_batch("ALTER TABLE tasks ADD COLUMN context_id TEXT")?;
        for row in tx.query("SELECT task_id, envelope FROM tasks", &[])? {
            let envelope: TaskEnvelope = serde_json::from_str(&row.text(1)?)?;
            tx.execute(
                "UPDATE tasks SET context_id = $2 WHERE task_id = $1",
                &[
                    Param::Text(&row.text(0)?),
                    Param::OptText(envelope.context_id.as_deref()),
                ],
            )?;
        }
    }
    Ok(())
}

/// How a recorded evidence document is read (`task complete --evidence`): as the envelope's
/// `evidence` member, with the envelope's codes.
pub const EVIDENCE_DOCUMENT: DocumentSpec =
    DocumentSpec::new("evidence", super::DOCUMENT.parse_error_code)
        .with_forbidden_key_list(
            super::DOCUMENT.forbidden_keys,
            super::DOCUMENT.forbidden_key_code,
        )
        .with_max_input_bytes(super::DOCUMENT.max_input_bytes);

/// What a lifecycle operation that did not succeed ends in.
pub type TaskError = Failure<Refusal<TaskEnvelopeError>>;

/// One task as the store holds it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TaskRecord {
    /// The task's id: the envelope's `taskID`, minted at submit when it had none.
    pub task_id: String,
    /// Where the task is in its lifecycle.
    pub state: TaskState,
    /// The envelope as submitted (with `taskID` filled in).
    pub envelope: TaskEnvelope,
    /// The recorded evidence: the envelope's own, or what `complete` recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Evidence>,
    /// The reason given with the last move that had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The tools granted by the last binding, when the task was bound (`task show` prints
    /// them as `tools`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
}

/// One step of a task's history: its submission (`from` is `None`) or a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Transition {
    /// The state the task left; `None` for the submission.
    pub from: Option<TaskState>,
    /// The state the task entered.
    pub to: TaskState,
    /// When, RFC 3339 UTC with seconds.
    pub at: String,
    /// The reason given with the move, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A task claimed by [`TaskStore::claim_next`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    /// The task's id.
    pub task_id: String,
    /// Its state now: `working`.
    pub state: TaskState,
}

/// Whether `evidence` shows that `envelope`'s acceptance check passed: the command that ran
/// is the envelope's `passFailCommand`, it exited 0, and the end-to-end verification that
/// ran is stated. The verdict's source and a second opinion are recorded, not judged.
///
/// # Errors
///
/// What the evidence does not show, for the `completion_without_evidence` message.
pub fn acceptance_passed(envelope: &TaskEnvelope, evidence: &Evidence) -> Result<(), String> {
    let command = envelope.acceptance_check.pass_fail_command.as_deref();
    if command != Some(evidence.acceptance_command.as_str()) {
        return Err(format!(
            "the evidence ran `{}`, not the acceptance check's passFailCommand `{}`",
            evidence.acceptance_command,
            command.unwrap_or_default()
        ));
    }
    if evidence.exit_status != 0 {
        return Err(format!(
            "the acceptance command exited {}, not 0",
            evidence.exit_status
        ));
    }
    if evidence
        .end_to_end_verification
        .as_deref()
        .is_none_or(|v| v.trim().is_empty())
    {
        return Err("the evidence states no end-to-end verification".to_owned());
    }
    Ok(())
}

/// The tasks of one store.
#[derive(Debug)]
pub struct TaskStore {
    store: Store,
}

impl TaskStore {
    /// Opens the store at `location`: a SQLite file's path (created if needed) or a
    /// `postgres://` URL ([`Location`]), creating or migrating the lifecycle's tables.
    ///
    /// # Errors
    ///
    /// The location cannot be opened as a store.
    pub fn open(location: impl Into<Location>) -> Result<Self, DatabaseError> {
        Self::open_with(location, crate::database::Synchronous::Full)
    }

    /// [`TaskStore::open`] with another [`Synchronous`](crate::database::Synchronous) setting
    /// (`Full` is the default).
    ///
    /// # Errors
    ///
    /// The location cannot be opened as a store.
    pub fn open_with(
        location: impl Into<Location>,
        synchronous: crate::database::Synchronous,
    ) -> Result<Self, DatabaseError> {
        Ok(TaskStore {
            store: Store::open_with(&location.into(), &SCHEMA, synchronous)?,
        })
    }

    /// Opens the store at `location` only if it exists and holds the tasks' tables: a
    /// missing file or a database without them is [`DatabaseError::NoStore`], and nothing is
    /// created (for what only reads, or needs tasks to exist already).
    ///
    /// # Errors
    ///
    /// The store does not exist or cannot be opened.
    pub fn open_existing(location: impl Into<Location>) -> Result<Self, DatabaseError> {
        Ok(TaskStore {
            store: Store::open_existing(&location.into(), &SCHEMA)?,
        })
    }

    /// Whether the store's connection is gone (a PostgreSQL server that closed it): every
    /// operation would fail; open the store again.
    pub fn is_closed(&self) -> bool {
        self.store.is_closed()
    }

    /// Reads and validates an envelope and stores it as a `submitted` task. Returns its id:
    /// the envelope's `taskID`, or `task-N` when it has none (`N` one past the tasks stored,
    /// skipping an id an envelope's own `taskID` took or this envelope's `dependsOn` names).
    ///
    /// # Errors
    ///
    /// Every violation of the envelope (each missing field its own named error), or
    /// `duplicate_task` when the `taskID` is taken; or the store's failure.
    pub fn submit(&mut self, input: &[u8]) -> Result<String, Failure<Report>> {
        let mut envelope: TaskEnvelope =
            TaskEnvelope::from_json_slice(input).map_err(Failure::Refused)?;
        let evidence = envelope
            .evidence
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?;
        self.store.write(|tx| {
            let own_id = envelope.task_id.clone();
            if let Some(id) = &own_id {
                if load(tx, id, None)?.is_some() {
                    return Err(Failure::Refused(duplicate_task(id)));
                }
            }
            // The insert skips a row whose `seq` or `task_id` a concurrent submit (on
            // PostgreSQL) took first; then the next `seq` is tried, or the own id is a
            // duplicate after all.
            loop {
                let seq = next_seq(tx)?;
                let task_id = match &own_id {
                    Some(id) => id.clone(),
                    None => mint_id(tx, seq, &envelope.depends_on)?,
                };
                envelope.task_id = Some(task_id.clone());
                let inserted = tx.execute(
                    "INSERT INTO tasks (seq, task_id, state, envelope, evidence, context_id)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                    &[
                        Param::Int(seq),
                        Param::Text(&task_id),
                        Param::Text(TaskState::ALL[0].as_str()),
                        Param::Text(&serde_json::to_string(&envelope)?),
                        Param::OptText(evidence.as_deref()),
                        Param::OptText(envelope.context_id.as_deref()),
                    ],
                )?;
                if inserted == 1 {
                    record_transition(tx, &task_id, None, TaskState::ALL[0], None)?;
                    return Ok(task_id);
                }
                if own_id.is_some() && load(tx, &task_id, None)?.is_some() {
                    return Err(Failure::Refused(duplicate_task(&task_id)));
                }
            }
        })
    }

    /// Claims a `submitted` task: the move to `working`, with the dependency rule.
    ///
    /// # Errors
    ///
    /// `unknown_task`, `illegal_transition` (the task is not `submitted`),
    /// `dependency_unresolved`; or the store's failure.
    pub fn claim(&mut self, task_id: &str) -> Result<TaskState, TaskError> {
        self.store.write(|tx| {
            let task = load_known(tx, task_id)?;
            if task.state != TaskState::Submitted {
                return Err(Failure::Refused(Refusal::new(
                    TaskEnvelopeError::IllegalTransition,
                    format!(
                        "a claim takes a submitted task; `{task_id}` is {} (use `task move`)",
                        task.state
                    ),
                )));
            }
            move_task(tx, task, TaskState::Working, None, None)
        })
    }

    /// Claims the oldest claimable task (in submission order: `submitted`, every `dependsOn`
    /// task `completed`), of context `context` when given, in one transaction. A task another
    /// claimer is taking at the same moment is skipped (`FOR UPDATE SKIP LOCKED` on
    /// PostgreSQL; SQLite's claimers take turns), so each claimer gets a different task.
    /// `None` when no task is claimable.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn claim_next(&mut self, context: Option<&str>) -> Result<Option<Claimed>, DatabaseError> {
        let claimed = self.store.write(|tx| -> Result<_, TaskError> {
            let mut after = 0;
            loop {
                let sql = if context.is_some() {
                    "SELECT seq, task_id FROM tasks WHERE state = $1 AND seq > $2 AND context_id = $3
                     ORDER BY seq LIMIT 1"
                } else {
                    "SELECT seq, task_id FROM tasks WHERE state = $1 AND seq > $2
                     ORDER BY seq LIMIT 1"
                };
                let mut params = vec![
                    Param::Text(TaskState::Submitted.as_str()),
                    Param::Int(after),
                ];
                if let Some(context) = context {
                    params.push(Param::Text(context));
                }
                let Some(row) = tx
                    .query_locked(sql, &params, Lock::SkipLocked)?
                    .into_iter()
                    .next()
                else {
                    return Ok(None);
                };
                after = row.int(0)?;
                let task_id = row.text(1)?;
                let task = load_known(tx, &task_id)?;
                // A task whose dependencies are not all completed is not claimable: the next.
                match move_task(tx, task, TaskState::Working, None, None) {
                    Ok(state) => return Ok(Some(Claimed { task_id, state })),
                    Err(Failure::Refused(_)) => {}
                    Err(Failure::Store(err)) => return Err(Failure::Store(err)),
                }
            }
        });
        match claimed {
            Ok(claimed) => Ok(claimed),
            Err(Failure::Store(err)) => Err(err),
            Err(Failure::Refused(refusal)) => Err(DatabaseError::invalid(format!(
                "store: claiming the next task was refused: {refusal}"
            ))),
        }
    }

    /// How many tasks are in each state, every state of the table listed (zero included), in
    /// the table's order.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn counts(&mut self) -> Result<Vec<(TaskState, u64)>, DatabaseError> {
        let rows = self
            .store
            .read(|tx| tx.query("SELECT state, count(*) FROM tasks GROUP BY state", &[]))?;
        let mut counts: Vec<(TaskState, u64)> = TaskState::ALL.iter().map(|s| (*s, 0)).collect();
        for row in rows {
            let state = parse_state(&row.text(0)?)?;
            let count = u64::try_from(row.int(1)?)
                .map_err(|_| DatabaseError::invalid("store: a negative count"))?;
            if let Some(entry) = counts.iter_mut().find(|(s, _)| *s == state) {
                entry.1 = count;
            }
        }
        Ok(counts)
    }

    /// The history of task `task_id`, oldest first: its submission, then each move.
    /// `None` when the task is not in the store.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn history(&mut self, task_id: &str) -> Result<Option<Vec<Transition>>, DatabaseError> {
        self.store.read(|tx| {
            if load(tx, task_id, None)?.is_none() {
                return Ok(None);
            }
            let rows = tx.query(
                "SELECT from_state, to_state, at, reason FROM task_transitions
                 WHERE task_id = $1 ORDER BY step",
                &[Param::Text(task_id)],
            )?;
            rows.iter()
                .map(|row| {
                    Ok(Transition {
                        from: row.opt_text(0)?.as_deref().map(parse_state).transpose()?,
                        to: parse_state(&row.text(1)?)?,
                        at: row.text(2)?,
                        reason: row.opt_text(3)?,
                    })
                })
                .collect::<Result<Vec<_>, DatabaseError>>()
                .map(Some)
        })
    }

    /// Moves a task to `to`, with `reason` recorded when given.
    ///
    /// # Errors
    ///
    /// `unknown_task`, `illegal_transition`, `dependency_unresolved` (a claim),
    /// `completion_without_evidence`, `reason_required`; or the store's failure.
    pub fn move_to(
        &mut self,
        task_id: &str,
        to: TaskState,
        reason: Option<&str>,
    ) -> Result<TaskState, TaskError> {
        self.store.write(|tx| {
            let task = load_known(tx, task_id)?;
            move_task(tx, task, to, reason, None)
        })
    }

    /// Records `evidence` and completes the task, when the evidence shows the acceptance check
    /// passed ([`acceptance_passed`]); otherwise nothing is recorded and nothing moves.
    ///
    /// # Errors
    ///
    /// `unknown_task`, `illegal_transition`, `completion_without_evidence`; or the store's
    /// failure.
    pub fn complete(&mut self, task_id: &str, evidence: &Evidence) -> Result<TaskState, TaskError> {
        self.store.write(|tx| {
            let task = load_known(tx, task_id)?;
            move_task(tx, task, TaskState::Completed, None, Some(evidence))
        })
    }

    /// Rejects a task with a stated reason.
    ///
    /// # Errors
    ///
    /// `unknown_task`, `illegal_transition`, `reason_required`; or the store's failure.
    pub fn reject(&mut self, task_id: &str, reason: &str) -> Result<TaskState, TaskError> {
        self.move_to(task_id, TaskState::Rejected, Some(reason))
    }

    /// Binds a task's envelope to `ledger` ([`bind`]) and records the grant.
    ///
    /// # Errors
    ///
    /// `unknown_task`; or the store's failure.
    pub fn bind(
        &mut self,
        task_id: &str,
        ledger: &CapabilityLedger,
    ) -> Result<BoundTaskEnvelope, TaskError> {
        let task = self
            .store
            .read(|tx| load(tx, task_id, None))?
            .ok_or_else(|| Failure::Refused(unknown_task(task_id)))?;
        let bound = bind(&task.envelope, ledger);
        self.record_binding(&bound)?;
        Ok(bound)
    }

    /// Records the tools of a bound envelope as its task's grant. Only a
    /// [`BoundTaskEnvelope`] is accepted: an unbound envelope has granted nothing.
    ///
    /// # Errors
    ///
    /// `unknown_task` (the envelope's task is not in this store); or the store's failure.
    pub fn record_binding(&mut self, bound: &BoundTaskEnvelope) -> Result<(), TaskError> {
        let task_id = bound.envelope().task_id.clone().unwrap_or_default();
        self.store.write(|tx| {
            let tools = serde_json::to_string(bound.tools())?;
            let changed = tx.execute(
                "UPDATE tasks SET tools = $2 WHERE task_id = $1",
                &[Param::Text(&task_id), Param::Text(&tools)],
            )?;
            if changed == 0 {
                return Err(Failure::Refused(unknown_task(&task_id)));
            }
            Ok(())
        })
    }

    /// The task `task_id`, if it is in the store.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn task(&mut self, task_id: &str) -> Result<Option<TaskRecord>, DatabaseError> {
        self.store.read(|tx| load(tx, task_id, None))
    }

    /// The queue: the tasks in `state` (every state when `None`), and with `claimable` only
    /// those a claim would take now (`submitted`, every `dependsOn` task `completed`), in the
    /// order they were submitted, read from one snapshot.
    ///
    /// # Errors
    ///
    /// The store's failure.
    pub fn list(
        &mut self,
        state: Option<TaskState>,
        claimable: bool,
    ) -> Result<Vec<TaskRecord>, DatabaseError> {
        self.store.read(|tx| {
            let mut tasks = tx
                .query(&format!("{SELECT_TASK} ORDER BY seq"), &[])?
                .iter()
                .map(record)
                .collect::<Result<Vec<_>, DatabaseError>>()?;
            let completed: HashSet<String> = tasks
                .iter()
                .filter(|t| t.state == TaskState::Completed)
                .map(|t| t.task_id.clone())
                .collect();
            tasks.retain(|task| {
                state.is_none_or(|s| task.state == s)
                    && (!claimable
                        || task.state == TaskState::Submitted
                            && task
                                .envelope
                                .depends_on
                                .iter()
                                .all(|d| completed.contains(d)))
            });
            Ok(tasks)
        })
    }
}

/// Reads an evidence document (the envelope's `evidence` shape).
///
/// # Errors
///
/// Every violation, with the envelope's codes.
pub fn read_evidence(input: &[u8]) -> Result<Evidence, Report> {
    parse_document(input, &EVIDENCE_DOCUMENT)
}

/// Reads a capability ledger: a JSON array of non-blank tool names.
///
/// # Errors
///
/// `invalid_ledger`, saying what is wrong (not an array of strings, or which name is blank).
pub fn read_ledger(input: &[u8]) -> Result<CapabilityLedger, Refusal<TaskEnvelopeError>> {
    let invalid = |why: String| Refusal::new(TaskEnvelopeError::InvalidLedger, why);
    let tools: Vec<String> = serde_json::from_slice(input).map_err(|e| {
        invalid(format!(
            "not a capability ledger (a JSON array of tool names): {e}"
        ))
    })?;
    if let Some(blank) = tools.iter().position(|t| t.trim().is_empty()) {
        return Err(invalid(format!(
            "tool name {blank} (counting from 0) is blank"
        )));
    }
    Ok(CapabilityLedger::new(tools))
}

/// The refusal for an id that is not in the store (`unknown_task`).
pub fn unknown_task(task_id: &str) -> Refusal<TaskEnvelopeError> {
    Refusal::new(
        TaskEnvelopeError::UnknownTask,
        format!("no task `{task_id}` in the store"),
    )
}

fn refused<T>(code: TaskEnvelopeError, message: String) -> Result<T, TaskError> {
    Err(Failure::Refused(Refusal::new(code, message)))
}

/// The one move rule: the table, then what entering `to` needs, then the write.
fn move_task(
    tx: &mut dyn Tx,
    task: TaskRecord,
    to: TaskState,
    reason: Option<&str>,
    new_evidence: Option<&Evidence>,
) -> Result<TaskState, TaskError> {
    let TaskRecord { task_id, state, .. } = &task;
    if !state.can_transition(to) {
        let why = if state.is_terminal() {
            format!("`{task_id}` is {state}, a final state")
        } else {
            format!("`{task_id}` cannot move from {state} to {to}")
        };
        return refused(TaskEnvelopeError::IllegalTransition, why);
    }
    if *state == TaskState::Submitted && to == TaskState::Working {
        check_dependencies(tx, &task.envelope)?;
    }
    if to == TaskState::Completed {
        let Some(evidence) = new_evidence.or(task.evidence.as_ref()) else {
            return refused(
                TaskEnvelopeError::CompletionWithoutEvidence,
                format!("`{task_id}` has no recorded evidence (give it with the completion)"),
            );
        };
        if let Err(why) = acceptance_passed(&task.envelope, evidence) {
            return refused(
                TaskEnvelopeError::CompletionWithoutEvidence,
                format!("`{task_id}`: {why}"),
            );
        }
    }
    if to == TaskState::Rejected && reason.is_none_or(|r| r.trim().is_empty()) {
        return refused(
            TaskEnvelopeError::ReasonRequired,
            format!("rejecting `{task_id}` needs a stated reason"),
        );
    }
    let evidence = new_evidence.map(serde_json::to_string).transpose()?;
    tx.execute(
        "UPDATE tasks SET state = $2, reason = coalesce($3, reason), evidence = coalesce($4, evidence)
         WHERE task_id = $1",
        &[
            Param::Text(task_id),
            Param::Text(to.as_str()),
            Param::OptText(reason),
            Param::OptText(evidence.as_deref()),
        ],
    )?;
    record_transition(tx, task_id, Some(*state), to, reason)?;
    Ok(to)
}

/// Appends a step to `task_id`'s history.
fn record_transition(
    tx: &mut dyn Tx,
    task_id: &str,
    from: Option<TaskState>,
    to: TaskState,
    reason: Option<&str>,
) -> Result<(), DatabaseError> {
    tx.execute(
        "INSERT INTO task_transitions (task_id, step, from_state, to_state, at, reason)
         VALUES ($1, (SELECT coalesce(max(step), 0) + 1 FROM task_transitions WHERE task_id = $1),
                 $2, $3, $4, $5)",
        &[
            Param::Text(task_id),
            Param::OptText(from.map(TaskState::as_str)),
            Param::Text(to.as_str()),
            Param::Text(&now_utc()),
            Param::OptText(reason),
        ],
    )?;
    Ok(())
}

fn parse_state(text: &str) -> Result<TaskState, DatabaseError> {
    Ok(serde_json::from_value(serde_json::Value::String(
        text.to_owned(),
    ))?)
}

fn duplicate_task(id: &str) -> Report {
    let violation = Violation::with_message(
        TaskEnvelopeError::DuplicateTask.code(),
        &FieldPath::ROOT.field("taskID"),
        |at| format!("`{at}`: task `{id}` is already in the store"),
    );
    Report::from_violations(vec![violation])
}

/// One past the largest `seq` stored: the next task's place in the queue.
fn next_seq(tx: &mut dyn Tx) -> Result<i64, DatabaseError> {
    tx.query_opt("SELECT coalesce(max(seq), 0) + 1 FROM tasks", &[])?
        .map_or(Ok(1), |row| row.int(0))
}

/// A claim needs every `dependsOn` task `completed`; the refusal names each one that is not.
fn check_dependencies(tx: &mut dyn Tx, envelope: &TaskEnvelope) -> Result<(), TaskError> {
    let mut unresolved = Vec::new();
    for dependency in &envelope.depends_on {
        match load(tx, dependency, None)? {
            None => unresolved.push(format!("`{dependency}` is not in the store")),
            Some(d) if d.state == TaskState::Completed => {}
            Some(d) if d.state.is_terminal() => unresolved.push(format!(
                "`{dependency}` is {} and will never complete",
                d.state
            )),
            Some(d) => unresolved.push(format!("`{dependency}` is {}", d.state)),
        }
    }
    if unresolved.is_empty() {
        return Ok(());
    }
    refused(
        TaskEnvelopeError::DependencyUnresolved,
        format!(
            "`{}` depends on tasks that are not completed: {}",
            envelope.task_id.as_deref().unwrap_or_default(),
            unresolved.join("; ")
        ),
    )
}

/// `task-N` for an envelope without a `taskID`: `N` one past the last stored row's sequence
/// number (so a minted id is never reused), then the next `N` whose id an envelope's own
/// `taskID` has not taken and the envelope's own `dependsOn` does not name (a task that
/// depends on itself could never be claimed; the validator's `self_dependency` check cannot
/// see an id that does not exist yet).
fn mint_id(tx: &mut dyn Tx, seq: i64, depends_on: &[String]) -> Result<String, DatabaseError> {
    let mut n = seq;
    loop {
        let id = format!("task-{n}");
        if !depends_on.contains(&id) && load(tx, &id, None)?.is_none() {
            return Ok(id);
        }
        n += 1;
    }
}

/// The task `task_id`, locked for the rest of the transaction: a move reads it this way, so
/// two moves of one task take turns.
fn load_known(tx: &mut dyn Tx, task_id: &str) -> Result<TaskRecord, TaskError> {
    load(tx, task_id, Some(Lock::Update))?.ok_or_else(|| Failure::Refused(unknown_task(task_id)))
}

fn load(
    tx: &mut dyn Tx,
    task_id: &str,
    lock: Option<Lock>,
) -> Result<Option<TaskRecord>, DatabaseError> {
    let sql = format!("{SELECT_TASK} WHERE task_id = $1");
    let params = [Param::Text(task_id)];
    let rows = match lock {
        Some(lock) => tx.query_locked(&sql, &params, lock)?,
        None => tx.query(&sql, &params)?,
    };
    rows.first().map(record).transpose()
}

/// The columns [`record`] reads, in its order.
const SELECT_TASK: &str = "SELECT task_id, state, envelope, evidence, reason, tools FROM tasks";

/// One row of [`SELECT_TASK`].
fn record(row: &Row) -> Result<TaskRecord, DatabaseError> {
    Ok(TaskRecord {
        task_id: row.text(0)?,
        state: parse_state(&row.text(1)?)?,
        envelope: serde_json::from_str(&row.text(2)?)?,
        evidence: row
            .opt_text(3)?
            .map(|e| serde_json::from_str(&e))
            .transpose()?,
        reason: row.opt_text(4)?,
        tools: row
            .opt_text(5)?
            .map(|t| serde_json::from_str(&t))
            .transpose()?,
    })
}
