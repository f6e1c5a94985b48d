//! The Task Envelope lifecycle's answers (see [`crate::answer`]): what `specmint task ...` prints
//! with `--format json` and the `task_*` tools of `specmint mcp --store` return. A refusal is
//! answered by the [`Refusal`](crate::Refusal) itself.

use std::collections::BTreeMap;

use serde::Serialize;

use super::lifecycle::{TaskRecord, Transition};
use super::TaskState;
use crate::Violation;

/// A stored or moved task (`task submit`, `claim`, `move`, `complete`, `reject`): `{"ok": true,
/// "state", "task_id"}`; both `null` when `task claim --next` finds nothing to claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Moved<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The task's state now.
    pub state: Option<TaskState>,
    /// The task.
    pub task_id: Option<&'a str>,
}

impl<'a> Moved<'a> {
    /// Task `task_id` is now in `state`.
    pub fn new(task_id: &'a str, state: TaskState) -> Self {
        Moved {
            ok: true,
            state: Some(state),
            task_id: Some(task_id),
        }
    }

    /// `task claim --next`: no task is claimable.
    pub fn nothing_to_claim() -> Self {
        Moved {
            ok: true,
            state: None,
            task_id: None,
        }
    }
}

/// A Task Envelope `task submit` refused: `{"errors", "ok": false}`, each error as `specmint
/// validate --format json` writes it (the [`Violation`]'s own serialization).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SubmitRefused<'a> {
    /// Every violation.
    pub errors: &'a [Violation],
    /// Always `false`.
    pub ok: bool,
}

impl<'a> SubmitRefused<'a> {
    /// The envelope broke the spec with `errors`.
    pub fn new(errors: &'a [Violation]) -> Self {
        SubmitRefused { errors, ok: false }
    }
}

/// `task bind`: `{"ok": true, "task_id", "tools"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bound<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The task.
    pub task_id: &'a str,
    /// The tools granted, in the request's order.
    pub tools: &'a [String],
}

impl<'a> Bound<'a> {
    /// Task `task_id` may use `tools`.
    pub fn new(task_id: &'a str, tools: &'a [String]) -> Self {
        Bound {
            ok: true,
            task_id,
            tools,
        }
    }
}

/// `task list`: `{"ok": true, "tasks"}`, each task as [`Shown`] writes it without its history.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Listed<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The tasks, in submission order.
    pub tasks: &'a [TaskRecord],
}

impl<'a> Listed<'a> {
    /// The queue `tasks`.
    pub fn new(tasks: &'a [TaskRecord]) -> Self {
        Listed { ok: true, tasks }
    }
}

/// `task list --counts`: `{"counts": {STATE: N, ...}, "ok": true, "total"}`, every state
/// counted, zero included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counted {
    /// Each state's count, by the state's name.
    pub counts: BTreeMap<&'static str, u64>,
    /// Always `true`.
    pub ok: bool,
    /// The number of tasks.
    pub total: u64,
}

impl Counted {
    /// The counts `TaskStore::counts` found.
    pub fn new(counts: &[(TaskState, u64)]) -> Self {
        Counted {
            counts: counts.iter().map(|(s, n)| (s.as_str(), *n)).collect(),
            ok: true,
            total: counts.iter().map(|(_, n)| n).sum(),
        }
    }
}

/// `task show` and the `task_show` tool: the task as stored (the [`TaskRecord`]'s own members),
/// with `history`, its steps, only when asked for (`--history`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Shown<'a> {
    /// Its steps, submission first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<&'a [Transition]>,
    /// The task.
    #[serde(flatten)]
    pub task: &'a TaskRecord,
}
