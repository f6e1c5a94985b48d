//! The tools of `specmint mcp --store DB`: the Action Envelope as typed tool calls and the
//! Task Envelope lifecycle. Thin over `PackageStore` and `TaskStore`, exactly as the `envelope`
//! and `task` commands are: each result is that command's `--format json` object.
//!
//! The server holds its store: one `PackageStore` and one `TaskStore` (one connection each),
//! opened on the first call that needs it and kept. A tool that writes new rows
//! (`task_submit`, the action tools) creates the store when it does not exist; the others
//! answer that it does not exist and create nothing, as the CLI does. When a call fails
//! because the PostgreSQL server went away, the store is dropped; the call is made once more
//! on a new connection when nothing can have been committed (the failure came before the
//! commit), else its error is the answer; the next call connects again. A SQLite file removed
//! or replaced under the server is opened anew.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::ErrorData;
use serde::Serialize;
use serde_json::{json, Value};
use specmint::action_envelope::answer::Applied;
use specmint::action_envelope::engine::{no_package, PackageStore};
use specmint::action_envelope::{Action, EnvelopeError, JSON_SCHEMA as ENVELOPE_SCHEMA};
use specmint::database::{DatabaseError, Failure};
use specmint::task_envelope::answer::{Bound, Listed, Moved, Shown, SubmitRefused};
use specmint::task_envelope::binding::CapabilityLedger;
use specmint::task_envelope::lifecycle::{read_evidence, unknown_task, TaskError, TaskStore};
use specmint::task_envelope::{
    evidence_refusal, parse_state, TaskState, JSON_SCHEMA as TASK_SCHEMA,
};

use specmint::Refusal;

use crate::output::answer_value;

/// The code of a `task_bind` on a server started without `--ledger FILE`. The ledger is the
/// operator's (Task Envelopes: "the sender cannot reach" it), so no caller can supply one.
pub const NO_LEDGER: &str = "ledger_not_configured";

/// The code of task-tool arguments that are not the tool's (a missing or mistyped argument,
/// one the tool does not take). The action tools refuse theirs as the envelope would
/// (`INVALID_ENVELOPE`), since their arguments are the envelope.
pub const INVALID_ARGUMENTS: &str = "invalid_arguments";

/// The task tools, in `tools/list` order.
pub const TASK_TOOLS: [&str; 8] = [
    "task_submit",
    "task_claim",
    "task_move",
    "task_complete",
    "task_reject",
    "task_show",
    "task_list",
    "task_bind",
];

/// The store the tools act on and the operator's ledger.
pub struct StoreTools {
    /// The `--store` database.
    db: PathBuf,
    /// The `--ledger` the operator gave, read when the server started.
    ledger: Option<CapabilityLedger>,
    packages: Mutex<Held<PackageStore>>,
    tasks: Mutex<Held<TaskStore>>,
}

impl Drop for StoreTools {
    fn drop(&mut self) {
        let tasks = (self.tasks.get_mut())
            .unwrap_or_else(PoisonError::into_inner)
            .store
            .take();
        let packages = (self.packages.get_mut())
            .unwrap_or_else(PoisonError::into_inner)
            .store
            .take();
        // Closing a PostgreSQL connection blocks on the client's own runtime, which cannot run
        // on a thread that drives the server's: close them on a thread of their own.
        let _ = std::thread::spawn(move || drop((tasks, packages))).join();
    }
}

/// A store kind the server holds.
trait Component: Sized {
    /// The CLI family that makes it (`specmint FAMILY init`).
    const FAMILY: &'static str;
    /// The tool that makes it.
    const CREATOR: &'static str;
    fn open(db: &Path, create: bool) -> Result<Self, DatabaseError>;
    fn is_closed(&self) -> bool;
}

impl Component for TaskStore {
    const FAMILY: &'static str = "task";
    const CREATOR: &'static str = "task_submit";
    fn open(db: &Path, create: bool) -> Result<Self, DatabaseError> {
        if create {
            TaskStore::open(db)
        } else {
            TaskStore::open_existing(db)
        }
    }
    fn is_closed(&self) -> bool {
        TaskStore::is_closed(self)
    }
}

impl Component for PackageStore {
    const FAMILY: &'static str = "envelope";
    const CREATOR: &'static str = "an action tool (create_package)";
    fn open(db: &Path, create: bool) -> Result<Self, DatabaseError> {
        if create {
            PackageStore::open(db)
        } else {
            PackageStore::open_existing(db)
        }
    }
    fn is_closed(&self) -> bool {
        PackageStore::is_closed(self)
    }
}

/// A held store and, for a SQLite file, which file it opened.
struct Held<S> {
    store: Option<S>,
    file: Option<FileId>,
}

impl<S> Default for Held<S> {
    fn default() -> Self {
        Held {
            store: None,
            file: None,
        }
    }
}

/// Which file a path names now (device and inode), to see a file replaced under the server.
type FileId = (u64, u64);

fn file_id(path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        std::fs::metadata(path).ok().map(|_| (0, 0))
    }
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(object) => Arc::new(object),
        _ => Arc::new(JsonObject::new()),
    }
}

/// One tool per action, named as the action: `{action_id, package_id, expected_revision,
/// basis, payload}`, the first three as the envelope's fields and `basis`/`payload` as that
/// action's branch of the generated schema (its closed allowlist), then `package_show` and
/// the task tools.
pub fn tools() -> Vec<Tool> {
    let schema: Value = serde_json::from_str(ENVELOPE_SCHEMA).unwrap_or_default();
    let envelope = &schema["$defs"]["envelope"];
    let mut tools = Vec::new();
    for action in Action::ALL {
        let name = action.as_str();
        let branch = envelope["oneOf"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|b| b["properties"]["action"]["const"] == name)
            .map(|b| b["properties"].clone())
            .unwrap_or_default();
        let fields = &envelope["properties"];
        let input = json!({
            "type": "object",
            "properties": {
                "action_id": fields["action_id"],
                "package_id": fields["package_id"],
                "expected_revision": fields["expected_revision"],
                "basis": branch["basis"],
                "payload": branch["payload"],
            },
            "required": ["action_id", "package_id", "expected_revision", "basis", "payload"],
            "additionalProperties": false,
            "$defs": schema["$defs"],
        });
        let description = format!(
            "Action Envelope v0.1: propose `{name}` for a package. Becomes the envelope {{\"protocol_version\":\"0.1\",\"action\":\"{name}\",...}} and is applied as `specmint envelope apply` applies it; returns {{\"ok\":true,\"replayed\",\"package_id\",\"revision\",\"state\"}}; a refusal starts with the spec's code (STALE_ACTION, ...)."
        );
        tools.push(Tool::new(name.to_owned(), description, object(input)));
    }
    let string = json!({"type": "string"});
    let task_id = json!({"task_id": {"type": "string", "description": "The task's id."}});
    let task_schema: Value = serde_json::from_str(TASK_SCHEMA).unwrap_or_default();
    let states: Vec<&str> = TaskState::ALL.iter().map(|s| s.as_str()).collect();
    let closed = |properties: Value, required: &[&str]| json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false});
    let with = |extra: Value| {
        let mut properties = task_id.clone();
        if let (Some(p), Value::Object(extra)) = (properties.as_object_mut(), extra) {
            p.extend(extra);
        }
        properties
    };
    let mut submit = closed(
        json!({"envelope": {"$ref": task_schema["$ref"]}}),
        &["envelope"],
    );
    submit["$defs"] = task_schema["$defs"].clone();
    let mut complete = closed(
        with(json!({"evidence": {"$ref": "#/$defs/evidence"}})),
        &["task_id", "evidence"],
    );
    complete["$defs"] = task_schema["$defs"].clone();
    let list: [(&str, &str, Value); 9] = [
        ("package_show", "The package: state, revision, the canonical summary and its canonical_sha256 (`specmint envelope show`'s object).",
            closed(json!({"package_id": string}), &["package_id"])),
        ("task_submit", "Submit a Task Envelope; returns {\"ok\":true,\"task_id\",\"state\"} or every violation.", submit),
        ("task_claim", "Claim a submitted task whose every dependsOn task is completed (moves it to working).",
            closed(task_id.clone(), &["task_id"])),
        ("task_move", "Move a task along the lifecycle table, with an optional reason.",
            closed(with(json!({"state": {"enum": states}, "reason": string})), &["task_id", "state"])),
        ("task_complete", "Record evidence that the acceptance check passed and complete the task.", complete),
        ("task_reject", "Reject a task with a stated reason.",
            closed(with(json!({"reason": string})), &["task_id", "reason"])),
        ("task_show", "The task as stored (`specmint task show`'s object).", closed(task_id.clone(), &["task_id"])),
        ("task_list", "The queue: tasks in submission order, of one state, or only those claimable now (submitted, every dependency completed).",
            closed(json!({"state": {"enum": states}, "claimable": {"type": "boolean"}}), &[])),
        ("task_bind", "Bind the task to the capability ledger this server's operator gave (--ledger); the caller cannot give one.",
            closed(task_id, &["task_id"])),
    ];
    for (name, description, input) in list {
        tools.push(Tool::new(name, description, object(input)));
    }
    tools
}

/// A result: the answer (the CLI's object) as text and as structured content.
pub fn done<T: Serialize + ?Sized>(answer: &T) -> CallToolResult {
    let value = answer_value(answer).unwrap_or_default();
    let mut result = CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
    result.structured_content = Some(value);
    result
}

/// A refusal: `isError`, text starting with the code, the answer (the CLI's object) as
/// structured content.
fn refused<T: Serialize + ?Sized>(text: String, answer: &T) -> CallToolResult {
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    result.structured_content = Some(answer_value(answer).unwrap_or_default());
    result
}

/// A refusal of the spec (or, with a `&str` code, of the tool): text `code: message`.
fn refusal<C: std::fmt::Display>(refusal: &Refusal<C>) -> CallToolResult {
    refused(refusal.to_string(), refusal)
}

fn store_error(err: DatabaseError) -> ErrorData {
    ErrorData::internal_error(err.to_string(), None)
}

/// A store failure as a tool call's error; a store that does not exist says how to make it.
fn held_error<S: Component>(err: DatabaseError) -> ErrorData {
    match err {
        DatabaseError::NoStore { .. } => ErrorData::internal_error(
            format!(
                "{err}: create it with {} or `specmint {} init --store DB`",
                S::CREATOR,
                S::FAMILY
            ),
            None,
        ),
        err => store_error(err),
    }
}

/// What a call on a held store ends in: its result (answers and refusals alike), or the
/// store's failure.
type Call = Result<CallToolResult, DatabaseError>;

/// `Failure::Store` as the store's failure, anything else through `answer`.
fn answered<T, R>(
    outcome: Result<T, Failure<R>>,
    answer: impl FnOnce(Result<T, R>) -> CallToolResult,
) -> Call {
    match outcome {
        Ok(value) => Ok(answer(Ok(value))),
        Err(Failure::Refused(r)) => Ok(answer(Err(r))),
        Err(Failure::Store(err)) => Err(err),
    }
}

/// What a call's arguments are, checked against the tool's names and kinds: `Err` is the
/// refusal's message.
fn check_arguments(
    arguments: &JsonObject,
    required: &[&str],
    optional: &[&str],
) -> Result<(), String> {
    if let Some(unknown) = arguments
        .keys()
        .find(|k| !required.contains(&k.as_str()) && !optional.contains(&k.as_str()))
    {
        return Err(format!("this tool takes no argument `{unknown}`"));
    }
    if let Some(missing) = required.iter().find(|k| !arguments.contains_key(**k)) {
        return Err(format!("missing argument `{missing}`"));
    }
    Ok(())
}

fn string_argument<'a>(arguments: &'a JsonObject, key: &str) -> Result<Option<&'a str>, String> {
    match arguments.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("`{key}` must be a string, not {other}")),
    }
}

impl StoreTools {
    /// The tools of the store `db`, with the operator's `ledger`; nothing is opened yet.
    pub fn new(db: PathBuf, ledger: Option<CapabilityLedger>) -> Self {
        StoreTools {
            db,
            ledger,
            packages: Mutex::default(),
            tasks: Mutex::default(),
        }
    }

    /// Runs `call` on the held store of `slot`, opening it first when there is none (creating
    /// it when `create`), or when the file it opened is no longer the one at the path. A
    /// failure of a lost connection drops the store; the call is made once more on a new
    /// one unless it may have committed or the server stopped answering
    /// ([`DatabaseError::worth_retrying_at_once`]).
    fn with_store<S: Component>(
        &self,
        slot: &Mutex<Held<S>>,
        create: bool,
        mut call: impl FnMut(&mut S) -> Call,
    ) -> Result<CallToolResult, ErrorData> {
        let mut held = slot.lock().unwrap_or_else(PoisonError::into_inner);
        let mut retried = false;
        loop {
            let now = file_id(&self.db);
            if held.store.as_ref().is_some_and(S::is_closed)
                || (held.file.is_some() && held.file != now)
            {
                held.store = None;
            }
            let store = match held.store {
                Some(ref mut store) => store,
                None => {
                    let opened = S::open(&self.db, create).map_err(held_error::<S>)?;
                    // A PostgreSQL address names no file: `file_id` is None for it.
                    held.file = file_id(&self.db);
                    held.store.insert(opened)
                }
            };
            match call(store) {
                Ok(result) => return Ok(result),
                Err(err) if err.is_connection_lost() => {
                    held.store = None;
                    if retried || !err.worth_retrying_at_once() {
                        return Err(held_error::<S>(err));
                    }
                    retried = true;
                }
                Err(err) => return Err(held_error::<S>(err)),
            }
        }
    }

    /// Calls tool `name`, or `None` when it is not one of these tools.
    pub fn call(
        &self,
        name: &str,
        arguments: &JsonObject,
    ) -> Option<Result<CallToolResult, ErrorData>> {
        if let Some(action) = Action::ALL.iter().find(|a| a.as_str() == name) {
            return Some(self.apply(action.as_str(), arguments));
        }
        if name == "package_show" {
            return Some(self.package_show(arguments));
        }
        if TASK_TOOLS.contains(&name) {
            return Some(self.task(name, arguments));
        }
        None
    }

    /// The call as an envelope, through `apply_json` as `envelope apply` reads a file: the
    /// arguments are written as they came (nothing coerced) beside the tool's
    /// `protocol_version` and `action`.
    fn apply(&self, action: &str, arguments: &JsonObject) -> Result<CallToolResult, ErrorData> {
        if let Some(fixed) = ["protocol_version", "action"]
            .into_iter()
            .find(|k| arguments.contains_key(*k))
        {
            return Ok(refusal(&Refusal::new(
                EnvelopeError::InvalidEnvelope,
                format!("`{fixed}` is the tool's (`{action}`, 0.1), not an argument"),
            )));
        }
        let mut envelope = JsonObject::new();
        envelope.insert("protocol_version".into(), Value::from("0.1"));
        envelope.insert("action".into(), Value::from(action));
        envelope.extend(arguments.iter().map(|(k, v)| (k.clone(), v.clone())));
        let input = serde_json::to_vec(&envelope).unwrap_or_default();
        self.with_store(&self.packages, true, |store| {
            answered(store.apply_json(&input), |outcome| match outcome {
                Ok(applied) => done(&Applied::from(&applied)),
                Err(r) => refusal(&r),
            })
        })
    }

    fn package_show(&self, arguments: &JsonObject) -> Result<CallToolResult, ErrorData> {
        let package_id = match check_arguments(arguments, &["package_id"], &[])
            .and_then(|()| string_argument(arguments, "package_id"))
        {
            Ok(id) => id.unwrap_or_default(),
            Err(why) => return Ok(refusal(&Refusal::new(EnvelopeError::InvalidEnvelope, why))),
        };
        self.with_store(&self.packages, false, |store| {
            Ok(match store.manifest(package_id)? {
                Some(manifest) => done(&manifest),
                None => refusal(&no_package(package_id)),
            })
        })
    }

    fn task(&self, name: &str, arguments: &JsonObject) -> Result<CallToolResult, ErrorData> {
        let (required, optional): (&[&str], &[&str]) = match name {
            "task_submit" => (&["envelope"], &[]),
            "task_move" => (&["task_id", "state"], &["reason"]),
            "task_complete" => (&["task_id", "evidence"], &[]),
            "task_reject" => (&["task_id", "reason"], &[]),
            "task_list" => (&[], &["state", "claimable"]),
            _ => (&["task_id"], &[]),
        };
        let checked = check_arguments(arguments, required, optional).and_then(|()| {
            let id = string_argument(arguments, "task_id")?.unwrap_or_default();
            let state = string_argument(arguments, "state")?
                .map(|s| parse_state("state", s))
                .transpose()?;
            let reason = string_argument(arguments, "reason")?;
            let claimable = match arguments.get("claimable") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(other) => return Err(format!("`claimable` must be a boolean, not {other}")),
            };
            Ok((id, state, reason, claimable))
        });
        let (id, state, reason, claimable) = match checked {
            Ok(checked) => checked,
            Err(why) => return Ok(refusal(&Refusal::new(INVALID_ARGUMENTS, why))),
        };
        let no_ledger = || {
            refusal(&Refusal::new(
                NO_LEDGER,
                "this server was started without --ledger FILE; the capability ledger is the operator's, never a caller's",
            ))
        };
        if name == "task_bind" && self.ledger.is_none() {
            return Ok(no_ledger());
        }
        let create = name == "task_submit";
        self.with_store(&self.tasks, create, |store| match name {
            "task_submit" => {
                let input = serde_json::to_vec(&arguments["envelope"]).unwrap_or_default();
                answered(store.submit(&input), |outcome| match outcome {
                    Ok(task_id) => done(&Moved::new(&task_id, TaskState::ALL[0])),
                    Err(report) => {
                        let first = report.iter().next().map_or("", |v| &*v.code);
                        let messages: Vec<&str> =
                            report.iter().map(|v| v.message.as_str()).collect();
                        refused(
                            format!("{first}: {}", messages.join("; ")),
                            &SubmitRefused::new(report.as_slice()),
                        )
                    }
                })
            }
            "task_show" => Ok(match store.task(id)? {
                Some(task) => done(&Shown {
                    history: None,
                    task: &task,
                }),
                None => refusal(&unknown_task(id)),
            }),
            "task_list" => Ok(done(&Listed::new(&store.list(state, claimable)?))),
            "task_bind" => match &self.ledger {
                Some(ledger) => answered(store.bind(id, ledger), |outcome| match outcome {
                    Ok(bound) => done(&Bound::new(id, bound.tools())),
                    Err(r) => refusal(&r),
                }),
                None => Ok(no_ledger()),
            },
            "task_claim" => moved_result(id, store.claim(id)),
            "task_move" => moved_result(
                id,
                store.move_to(id, state.unwrap_or(TaskState::ALL[0]), reason),
            ),
            "task_reject" => moved_result(id, store.reject(id, reason.unwrap_or_default())),
            _ => {
                let input = serde_json::to_vec(&arguments["evidence"]).unwrap_or_default();
                let moved = match read_evidence(&input) {
                    Ok(evidence) => store.complete(id, &evidence),
                    Err(report) => Err(Failure::Refused(evidence_refusal(&report))),
                };
                moved_result(id, moved)
            }
        })
    }
}

fn moved_result(id: &str, moved: Result<TaskState, TaskError>) -> Call {
    answered(moved, |outcome| match outcome {
        Ok(state) => done(&Moved::new(id, state)),
        Err(r) => refusal(&r),
    })
}
