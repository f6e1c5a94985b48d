//! The Task Envelope lifecycle: tasks kept in the SQLite [store](crate::store), moved only
//! along the generated transition table ([`TaskState::can_transition`]), one transaction per
//! operation.
//!
//! The rules the table cannot say (spec/task_envelope.md, "Lifecycle store"):
//! - a move from `submitted` to `working` is a claim, legal only when every `dependsOn` task
//!   is `completed` in the store (`dependency_unresolved`, naming each one that is not);
//! - entering `completed` needs recorded evidence that the acceptance check passed
//!   (`completion_without_evidence`), see [`acceptance_passed`];
//! - entering `rejected` needs a non-blank reason (`reason_required`);
//! - a refusal writes nothing.
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
use std::path::Path;

use rusqlite::{params, OptionalExtension as _};
use serde::Serialize;

use super::binding::{bind, BoundTaskEnvelope, CapabilityLedger};
use super::{Evidence, TaskEnvelope, TaskEnvelopeError, TaskState};
use crate::runtime::document::{parse_document, DocumentSpec};
use crate::runtime::{Path as FieldPath, Report, Violation};
use crate::store::{Failure, Store, StoreError, Transaction};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tasks (
    seq INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    envelope TEXT NOT NULL,
    evidence TEXT,
    reason TEXT,
    tools TEXT
) STRICT;
";

/// How a recorded evidence document is read (`task complete --evidence`): as the envelope's
/// `evidence` member, with the envelope's codes.
pub const EVIDENCE_DOCUMENT: DocumentSpec =
    DocumentSpec::new("evidence", super::DOCUMENT.parse_error_code)
        .with_forbidden_keys(
            super::DOCUMENT.forbidden_keys,
            super::DOCUMENT.forbidden_key_code,
        )
        .with_max_input_bytes(super::DOCUMENT.max_input_bytes);

/// Why a lifecycle operation was refused: the spec's code and a message naming the cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskRefusal {
    /// The spec's error code.
    pub code: TaskEnvelopeError,
    /// What exactly was wrong.
    pub message: String,
}

impl TaskRefusal {
    fn new(code: TaskEnvelopeError, message: impl Into<String>) -> Self {
        TaskRefusal {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for TaskRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

/// What a lifecycle operation that did not succeed ends in.
pub type TaskError = Failure<TaskRefusal>;

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

/// The tasks of one store file.
#[derive(Debug)]
pub struct TaskStore {
    store: Store,
}

impl TaskStore {
    /// Opens (creating if needed) the store at `path`.
    ///
    /// # Errors
    ///
    /// The file cannot be opened as a store.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Ok(TaskStore {
            store: Store::open(path, SCHEMA)?,
        })
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
        self.store.write(|tx| {
            let task_id = match &envelope.task_id {
                Some(id) => {
                    if load(tx, id)?.is_some() {
                        let violation = Violation::with_message(
                            TaskEnvelopeError::DuplicateTask.code(),
                            &FieldPath::ROOT.field("taskID"),
                            |at| format!("`{at}`: task `{id}` is already in the store"),
                        );
                        return Err(Failure::Refused(Report::from_violations(vec![violation])));
                    }
                    id.clone()
                }
                None => mint_id(tx, &envelope.depends_on)?,
            };
            envelope.task_id = Some(task_id.clone());
            let evidence = envelope
                .evidence
                .as_ref()
                .map(serde_json::to_string)
                .transpose()?;
            tx.execute(
                "INSERT INTO tasks (task_id, state, envelope, evidence) VALUES (?1, ?2, ?3, ?4)",
                params![
                    task_id,
                    TaskState::ALL[0].as_str(),
                    serde_json::to_string(&envelope)?,
                    evidence
                ],
            )?;
            Ok(task_id)
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
                return Err(Failure::Refused(TaskRefusal::new(
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
            .read(|tx| load(tx, task_id))?
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
                "UPDATE tasks SET tools = ?2 WHERE task_id = ?1",
                params![task_id, tools],
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
    pub fn task(&mut self, task_id: &str) -> Result<Option<TaskRecord>, StoreError> {
        self.store.read(|tx| load(tx, task_id))
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
    ) -> Result<Vec<TaskRecord>, StoreError> {
        self.store.read(|tx| {
            let mut statement = tx.prepare(&format!("{SELECT_TASK} ORDER BY seq"))?;
            let rows = statement.query_map([], task_row)?;
            let mut tasks = Vec::new();
            for row in rows {
                tasks.push(decode(row?)?);
            }
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
pub fn read_ledger(input: &[u8]) -> Result<CapabilityLedger, TaskRefusal> {
    let invalid = |why: String| TaskRefusal::new(TaskEnvelopeError::InvalidLedger, why);
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
pub fn unknown_task(task_id: &str) -> TaskRefusal {
    TaskRefusal::new(
        TaskEnvelopeError::UnknownTask,
        format!("no task `{task_id}` in the store"),
    )
}

fn refused<T>(code: TaskEnvelopeError, message: String) -> Result<T, TaskError> {
    Err(Failure::Refused(TaskRefusal::new(code, message)))
}

/// The one move rule: the table, then what entering `to` needs, then the write.
fn move_task(
    tx: &Transaction<'_>,
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
                format!("`{task_id}` has no recorded evidence (use `task complete --evidence`)"),
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
        "UPDATE tasks SET state = ?2, reason = coalesce(?3, reason), evidence = coalesce(?4, evidence)
         WHERE task_id = ?1",
        params![task_id, to.as_str(), reason, evidence],
    )?;
    Ok(to)
}

/// A claim needs every `dependsOn` task `completed`; the refusal names each one that is not.
fn check_dependencies(tx: &Transaction<'_>, envelope: &TaskEnvelope) -> Result<(), TaskError> {
    let mut unresolved = Vec::new();
    for dependency in &envelope.depends_on {
        match load(tx, dependency)? {
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
fn mint_id(tx: &Transaction<'_>, depends_on: &[String]) -> Result<String, StoreError> {
    let mut n: i64 = tx.query_row("SELECT coalesce(max(seq), 0) + 1 FROM tasks", [], |row| {
        row.get(0)
    })?;
    loop {
        let id = format!("task-{n}");
        if !depends_on.contains(&id) && load(tx, &id)?.is_none() {
            return Ok(id);
        }
        n += 1;
    }
}

fn load_known(tx: &Transaction<'_>, task_id: &str) -> Result<TaskRecord, TaskError> {
    load(tx, task_id)?.ok_or_else(|| Failure::Refused(unknown_task(task_id)))
}

/// The columns [`task_row`] reads, in its order.
const SELECT_TASK: &str = "SELECT task_id, state, envelope, evidence, reason, tools FROM tasks";

/// One row of [`SELECT_TASK`], as stored.
type TaskRow = (
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn task_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<TaskRow> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
    ))
}

fn decode(row: TaskRow) -> Result<TaskRecord, StoreError> {
    let (task_id, state, envelope, evidence, reason, tools) = row;
    Ok(TaskRecord {
        task_id,
        state: serde_json::from_value(serde_json::Value::String(state))?,
        envelope: serde_json::from_str(&envelope)?,
        evidence: evidence.map(|e| serde_json::from_str(&e)).transpose()?,
        reason,
        tools: tools.map(|t| serde_json::from_str(&t)).transpose()?,
    })
}

fn load(tx: &Transaction<'_>, task_id: &str) -> Result<Option<TaskRecord>, StoreError> {
    tx.query_row(
        &format!("{SELECT_TASK} WHERE task_id = ?1"),
        params![task_id],
        task_row,
    )
    .optional()?
    .map(decode)
    .transpose()
}
