//! `specmint task init|submit|claim|move|complete|reject|bind|show|list`: the Task Envelope
//! lifecycle.
//!
//! (Arguments and options: [`crate::args::Task`].)
//! Every command takes `--format json`; exit 0 done, 1 refused (the spec's code), 2 usage or I/O.
//! A store is created by `init` and `submit` only: the others need its tasks, so on a store
//! that does not exist they say so and exit 2, creating nothing.

use specmint::database::{DatabaseError, Failure, Location};
use specmint::task_envelope::answer::{Bound, Counted, Listed, Moved, Shown, SubmitRefused};
use specmint::task_envelope::binding::CapabilityLedger;
use specmint::task_envelope::lifecycle::{
    read_evidence, read_ledger, unknown_task, TaskError, TaskStore, EVIDENCE_DOCUMENT,
};
use specmint::task_envelope::{evidence_refusal, TaskEnvelopeError, TaskState, DOCUMENT};
use specmint::taskpack::land::escaped;
use specmint::Refusal;

use crate::args::{Db, Task};
use crate::output::{
    answer_value, print_verdict, read_document, read_input, store_failure, CliError, Format,
};

/// The largest capability ledger file read.
const MAX_LEDGER_BYTES: usize = 1 << 20;

/// Runs `specmint task ...`.
pub fn run(command: Task) -> Result<u8, CliError> {
    match command {
        Task::Init { store, format } => init(
            &store,
            format.format,
            |db| TaskStore::open_existing(&db.path),
            |db| TaskStore::open(&db.path),
        ),
        Task::Submit {
            file,
            store,
            format,
        } => submit(&file, &store, format.format),
        Task::Claim {
            id,
            next,
            context,
            store,
            format,
        } => claim(
            id.as_deref(),
            next,
            context.as_deref(),
            &store,
            format.format,
        ),
        Task::Move {
            id,
            state,
            reason,
            store,
            format,
        } => {
            let moved = open_existing(&store)?.move_to(&id, state, reason.as_deref());
            verdict(format.format, &id, moved)
        }
        Task::Complete {
            id,
            evidence,
            store,
            format,
        } => complete(&id, &evidence, &store, format.format),
        Task::Reject {
            id,
            reason,
            store,
            format,
        } => {
            // A missing reason is refused like a blank one (reason_required), not a usage
            // error.
            let moved = open_existing(&store)?.reject(&id, reason.as_deref().unwrap_or_default());
            verdict(format.format, &id, moved)
        }
        Task::Bind {
            id,
            ledger,
            store,
            format,
        } => bind(&id, &ledger, &store, format.format),
        Task::Show {
            id,
            history,
            store,
            format,
        } => show(&id, history, &store, format.format),
        Task::List {
            state,
            claimable,
            counts,
            store,
            format,
        } => list(state, claimable, counts, &store, format.format),
    }
}

fn open(store: &Db) -> Result<TaskStore, CliError> {
    TaskStore::open(&store.path).map_err(store_failure)
}

/// The store, if it exists: a missing one is an error that says how to make it.
fn open_existing(store: &Db) -> Result<TaskStore, CliError> {
    TaskStore::open_existing(&store.path).map_err(|err| missing_store(err, "task", "submit"))
}

/// `err` as the CLI says it: a store that does not exist with how to make it (`specmint
/// FAMILY init`, or the command `creator` that writes).
pub fn missing_store(err: DatabaseError, family: &str, creator: &str) -> CliError {
    match err {
        DatabaseError::NoStore { .. } => CliError::Failure(format!(
            "{err}: create it with `specmint {family} init --store DB` or `specmint {family} {creator}`"
        )),
        err => store_failure(err),
    }
}

/// `task init` and `envelope init`: the store and the component's tables, made by `create`
/// when `existing` does not find them; prints `{"ok": true, "store", "created"}`.
pub fn init<S>(
    store: &Db,
    format: Format,
    existing: impl FnOnce(&Db) -> Result<S, DatabaseError>,
    create: impl FnOnce(&Db) -> Result<S, DatabaseError>,
) -> Result<u8, CliError> {
    let created = match existing(store) {
        Ok(_) => false,
        Err(DatabaseError::NoStore { .. }) => {
            create(store).map_err(store_failure)?;
            true
        }
        Err(err) => return Err(store_failure(err)),
    };
    let shown = Location::from(&store.path).display();
    let answer = serde_json::json!({"ok": true, "store": shown, "created": created});
    let human = if created {
        format!("created: {shown}")
    } else {
        format!("exists: {shown}")
    };
    print_verdict(format, &answer, &human)?;
    Ok(0)
}

fn submit(file: &str, store: &Db, format: Format) -> Result<u8, CliError> {
    let mut store = open(store)?;
    let submitted = match read_document(file, &DOCUMENT)? {
        Ok(input) => store.submit(&input),
        Err(report) => Err(Failure::Refused(report)),
    };
    match submitted {
        Ok(task_id) => {
            let state = TaskState::ALL[0];
            let answer = Moved::new(&task_id, state);
            print_verdict(format, &answer, &format!("submitted: {task_id} ({state})"))?;
            Ok(0)
        }
        Err(Failure::Refused(report)) => {
            let answer = SubmitRefused::new(report.as_slice());
            print_verdict(format, &answer, &format!("refused:\n{report}"))?;
            Ok(1)
        }
        Err(Failure::Store(err)) => Err(store_failure(err)),
    }
}

/// `task claim ID`, or `task claim --next [--context ID]`: the oldest claimable task, or
/// `task_id: null` (exit 0) when there is none.
fn claim(
    id: Option<&str>,
    next: bool,
    context: Option<&str>,
    store: &Db,
    format: Format,
) -> Result<u8, CliError> {
    if !next {
        if context.is_some() {
            return Err(CliError::Usage("--context goes with --next".to_owned()));
        }
        let id = id.ok_or_else(|| CliError::Usage("missing ID".to_owned()))?;
        let moved = open_existing(store)?.claim(id);
        return verdict(format, id, moved);
    }
    if id.is_some() {
        return Err(CliError::Usage(
            "`task claim --next` takes no ID: it picks the task".to_owned(),
        ));
    }
    let claimed = open_existing(store)?
        .claim_next(context)
        .map_err(store_failure)?;
    match claimed {
        Some(claimed) => verdict(format, &claimed.task_id, Ok(claimed.state)),
        None => {
            print_verdict(format, &Moved::nothing_to_claim(), "nothing to claim")?;
            Ok(0)
        }
    }
}

fn complete(id: &str, file: &str, store: &Db, format: Format) -> Result<u8, CliError> {
    let mut store = open_existing(store)?;
    let evidence = read_document(file, &EVIDENCE_DOCUMENT)?.and_then(|input| read_evidence(&input));
    let moved = match evidence {
        Ok(evidence) => store.complete(id, &evidence),
        Err(report) => Err(Failure::Refused(evidence_refusal(&report))),
    };
    verdict(format, id, moved)
}

fn bind(id: &str, file: &str, store: &Db, format: Format) -> Result<u8, CliError> {
    let ledger = match load_ledger(file)? {
        Ok(ledger) => ledger,
        Err(refusal) => return verdict(format, id, Err(Failure::Refused(refusal))),
    };
    match open_existing(store)?.bind(id, &ledger) {
        Ok(bound) => {
            let human = format!("bound: {id} may use [{}]", bound.tools().join(", "));
            print_verdict(format, &Bound::new(id, bound.tools()), &human)?;
            Ok(0)
        }
        Err(failure) => verdict(format, id, Err(failure)),
    }
}

fn show(id: &str, history: bool, store: &Db, format: Format) -> Result<u8, CliError> {
    let mut store = open_existing(store)?;
    match store.task(id).map_err(store_failure)? {
        Some(task) => {
            // `--history` adds the task's steps; without it the object is as it always was.
            let history = if history {
                let steps = store.history(id).map_err(store_failure)?;
                Some(steps.unwrap_or_default())
            } else {
                None
            };
            let json = answer_value(&Shown {
                history: history.as_deref(),
                task: &task,
            })?;
            let human = serde_json::to_string_pretty(&json).unwrap_or_default();
            print_verdict(format, &json, &human)?;
            Ok(0)
        }
        None => verdict(format, id, Err(Failure::Refused(unknown_task(id)))),
    }
}

/// Reads the capability ledger `file`: what it holds is the ledger's problem, a refusal with
/// a code (`invalid_ledger`, naming the file), not a usage error; an unreadable file is one.
pub fn load_ledger(
    file: &str,
) -> Result<Result<CapabilityLedger, Refusal<TaskEnvelopeError>>, CliError> {
    let (display, input, total) = read_input(file, MAX_LEDGER_BYTES)?;
    let ledger = if total > input.len() as u64 {
        Err(Refusal::new(
            TaskEnvelopeError::InvalidLedger,
            format!("over {MAX_LEDGER_BYTES} bytes"),
        ))
    } else {
        read_ledger(&input)
    };
    Ok(ledger.map_err(|Refusal { code, message, .. }| {
        Refusal::new(code, format!("ledger `{display}`: {message}"))
    }))
}

fn list(
    state: Option<TaskState>,
    claimable: bool,
    counts: bool,
    store: &Db,
    format: Format,
) -> Result<u8, CliError> {
    if counts {
        if state.is_some() || claimable {
            return Err(CliError::Usage(
                "--counts counts every state; it takes no --state or --claimable".to_owned(),
            ));
        }
        let counts = open_existing(store)?.counts().map_err(store_failure)?;
        let answer = Counted::new(&counts);
        let mut human: Vec<String> = counts
            .iter()
            .map(|(state, n)| format!("{state}: {n}"))
            .collect();
        human.push(format!("total: {}", answer.total));
        print_verdict(format, &answer, &human.join("\n"))?;
        return Ok(0);
    }
    let tasks = open_existing(store)?
        .list(state, claimable)
        .map_err(store_failure)?;
    let human = if tasks.is_empty() {
        "(no tasks)".to_owned()
    } else {
        let lines: Vec<String> = tasks
            .iter()
            .map(|t| {
                format!(
                    "{} ({}): {}",
                    escaped(&t.task_id),
                    t.state,
                    escaped(t.envelope.objective.as_deref().unwrap_or_default())
                )
            })
            .collect();
        lines.join("\n")
    };
    print_verdict(format, &Listed::new(&tasks), &human)?;
    Ok(0)
}

/// Prints the outcome of a move and returns its exit status.
fn verdict(format: Format, id: &str, moved: Result<TaskState, TaskError>) -> Result<u8, CliError> {
    match moved {
        Ok(state) => {
            print_verdict(format, &Moved::new(id, state), &format!("{id}: {state}"))?;
            Ok(0)
        }
        Err(Failure::Refused(refusal)) => {
            print_verdict(format, &refusal, &format!("refused: {refusal}"))?;
            Ok(1)
        }
        Err(Failure::Store(err)) => Err(store_failure(err)),
    }
}
