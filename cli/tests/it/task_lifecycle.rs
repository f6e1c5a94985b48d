//! The Task Envelope lifecycle: submit with every named error, every (from, to) pair of the
//! generated table, claims and `dependsOn`, evidence-bearing completion, rejection, binding,
//! and two processes completing one task.

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use specmint::database::{Failure, Location};
use specmint::task_envelope::binding::{bind, CapabilityLedger};
use specmint::task_envelope::lifecycle::{TaskError, TaskStore};
use specmint::task_envelope::{TaskEnvelope, TaskEnvelopeError, TaskState};

fn fresh_db(name: &str) -> PathBuf {
    common::fresh_db("task_lifecycle", name)
}

/// A complete envelope with `extra` members merged in (a `null` removes one).
fn task(extra: Value) -> String {
    let mut envelope = json!({
        "objective": "Add a --json flag",
        "outputFormat": "a commit",
        "toolAndSourceGuidance": "cargo",
        "boundaries": ["no schema changes"],
        "filesAndInterfaces": ["src/report.rs"],
        "acceptanceCheck": {"passFailCommand": "cargo test report", "endToEndVerification": "run it on the sample"},
        "contextID": "ctx-7"
    });
    for (key, value) in extra.as_object().unwrap() {
        if value.is_null() {
            envelope.as_object_mut().unwrap().remove(key);
        } else {
            envelope[key] = value.clone();
        }
    }
    envelope.to_string()
}

fn passing_evidence() -> Value {
    json!({
        "acceptanceCommand": "cargo test report",
        "output": "test result: ok. 12 passed",
        "exitStatus": 0,
        "endToEndVerification": "ran `app report --json` on the sample and parsed it",
        "verdictSource": "script",
        "secondOpinion": {"verdict": "pass", "notes": "fresh context"}
    })
}

/// `specmint task ARGS --store DB --format json` with `stdin`: (exit code, JSON).
fn cli(db: &Path, args: &[&str], stdin: &str) -> (i32, Value) {
    let mut all = vec!["task"];
    all.extend(args);
    all.extend(["--store", db.to_str().unwrap()]);
    common::specmint_json(&all, stdin)
}

fn moved(id: &str, state: &str) -> (i32, Value) {
    (0, json!({"ok": true, "task_id": id, "state": state}))
}

/// Asserts a refusal with `code`; returns its message.
fn assert_refused(outcome: (i32, Value), code: &str) -> String {
    let (status, json) = outcome;
    assert_eq!(
        (status, json["ok"].clone(), json["code"].as_str()),
        (1, json!(false), Some(code)),
        "{json}"
    );
    json["message"].as_str().unwrap().to_owned()
}

fn state_of(db: &Path, id: &str) -> Value {
    cli(db, &["show", id], "").1["state"].clone()
}

#[test]
fn submit_stores_a_valid_envelope_and_names_every_missing_field() {
    let db = fresh_db("submit");
    let ok = cli(&db, &["submit", "-"], &task(json!({"taskID": "t-42"})));
    assert_eq!(
        ok,
        (
            0,
            json!({"ok": true, "task_id": "t-42", "state": "submitted"})
        )
    );
    // No taskID: a minted one, written into the stored envelope.
    let minted = cli(&db, &["submit", "-"], &task(json!({})));
    assert_eq!(
        minted,
        (
            0,
            json!({"ok": true, "task_id": "task-2", "state": "submitted"})
        )
    );
    assert_eq!(
        cli(&db, &["show", "task-2"], "").1["envelope"]["taskID"],
        json!("task-2")
    );

    let (code, json) = cli(&db, &["submit", "-"], "{}");
    assert_eq!(code, 1);
    let errors: Vec<(&str, &str)> = json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["code"].as_str().unwrap(), e["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        errors,
        [
            ("objective_required", "objective"),
            ("output_format_required", "outputFormat"),
            ("tool_and_source_guidance_required", "toolAndSourceGuidance"),
            ("boundaries_required", "boundaries"),
            ("files_and_interfaces_required", "filesAndInterfaces"),
            (
                "acceptance_check_command_required",
                "acceptanceCheck.passFailCommand"
            ),
            (
                "acceptance_check_verification_required",
                "acceptanceCheck.endToEndVerification"
            ),
            ("context_id_required", "contextID"),
        ]
    );
    assert_eq!(json["ok"], json!(false));
    // Self-dependency and a repeated dependency are refused at submit.
    let (code, json) = cli(
        &db,
        &["submit", "-"],
        &task(json!({"taskID": "t-9", "dependsOn": ["t-1", "t-9", "t-1"]})),
    );
    let codes: Vec<&str> = json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        (code, codes),
        (1, vec!["duplicate_dependency", "self_dependency"])
    );
    // A taken taskID.
    let (code, json) = cli(&db, &["submit", "-"], &task(json!({"taskID": "t-42"})));
    assert_eq!(
        (
            code,
            json["errors"][0]["code"].clone(),
            json["errors"][0]["path"].clone()
        ),
        (1, json!("duplicate_task"), json!("taskID"))
    );
    // Not JSON, and empty input.
    for text in ["", "not json"] {
        let (code, json) = cli(&db, &["submit", "-"], text);
        assert_eq!(
            (code, json["errors"][0]["code"].clone()),
            (1, json!("invalid_task_envelope")),
            "{text:?}"
        );
    }
    // A minted id skips every id the envelope's own dependsOn names (task-3 and task-4 here):
    // minting task-3 would make the task depend on itself, so it could never be claimed.
    let minted = cli(
        &db,
        &["submit", "-"],
        &task(json!({"dependsOn": ["task-4", "task-3"]})),
    );
    assert_eq!(
        minted,
        (
            0,
            json!({"ok": true, "task_id": "task-5", "state": "submitted"})
        )
    );
    assert_eq!(
        cli(&db, &["show", "task-5"], "").1["envelope"]["dependsOn"],
        json!(["task-4", "task-3"])
    );
    assert_eq!(state_of(&db, "t-42"), json!("submitted"));
    assert_eq!(
        cli(&db, &["show", "t-9"], "").1["code"],
        json!("unknown_task")
    );
}

/// The shortest list of states that leads from the table's first state to `target`.
fn path_to(target: TaskState) -> Vec<TaskState> {
    let edges: Vec<_> = TaskState::TRANSITIONS
        .iter()
        .map(|&(from, to)| (from, to, to))
        .collect();
    common::shortest_path(&edges, TaskState::ALL[0], target)
}

#[test]
fn every_from_to_pair_follows_the_generated_table() {
    let db = fresh_db("table");
    let mut store = TaskStore::open(&db).unwrap();
    for (f, &from) in TaskState::ALL.iter().enumerate() {
        for (t, &to) in TaskState::ALL.iter().enumerate() {
            // Evidence that passes and a reason on every move: only the table decides.
            let id = format!("t-{f}-{t}");
            let text = task(json!({"taskID": id, "evidence": passing_evidence()}));
            store.submit(text.as_bytes()).unwrap();
            for step in path_to(from) {
                store
                    .move_to(&id, step, Some("why"))
                    .unwrap_or_else(|e| panic!("{id} -> {step}: {e:?}"));
            }
            let before = store.task(&id).unwrap().unwrap();
            assert_eq!(before.state, from);
            match (from.can_transition(to), store.move_to(&id, to, Some("why"))) {
                (true, Ok(state)) => assert_eq!(state, to),
                (false, Err(Failure::Refused(refusal))) => {
                    assert_eq!(
                        refusal.code,
                        TaskEnvelopeError::IllegalTransition,
                        "{from} -> {to}"
                    );
                    assert_eq!(store.task(&id).unwrap().unwrap(), before, "nothing changes");
                    if from.is_terminal() {
                        assert!(
                            refusal.message.contains("a final state"),
                            "{}",
                            refusal.message
                        );
                    }
                }
                (legal, outcome) => panic!("{from} -> {to}: legal {legal}, got {outcome:?}"),
            }
        }
    }
}

#[test]
fn every_from_to_pair_through_the_cli_move_command() {
    // The CLI makes the same moves as the library: one task per pair, reached and probed
    // with `task move`.
    let db = fresh_db("table_cli");
    for (f, &from) in TaskState::ALL.iter().enumerate() {
        for (t, &to) in TaskState::ALL.iter().enumerate() {
            let id = format!("c-{f}-{t}");
            let text = task(json!({"taskID": id, "evidence": passing_evidence()}));
            assert_eq!(cli(&db, &["submit", "-"], &text).0, 0);
            for step in path_to(from) {
                assert_eq!(
                    cli(&db, &["move", &id, step.as_str(), "--reason", "why"], ""),
                    moved(&id, step.as_str())
                );
            }
            let outcome = cli(&db, &["move", &id, to.as_str(), "--reason", "why"], "");
            if from.can_transition(to) {
                assert_eq!(outcome, moved(&id, to.as_str()));
            } else {
                assert_refused(outcome, "illegal_transition");
                assert_eq!(state_of(&db, &id), json!(from.as_str()));
            }
        }
    }
}

#[test]
fn claim_waits_for_every_dependency_to_complete_and_says_which() {
    let db = fresh_db("claim");
    for id in ["d-done", "d-failed", "d-open"] {
        cli(&db, &["submit", "-"], &task(json!({"taskID": id})));
    }
    cli(&db, &["claim", "d-done"], "");
    let evidence = passing_evidence().to_string();
    assert_eq!(
        cli(&db, &["complete", "d-done", "--evidence", "-"], &evidence),
        moved("d-done", "completed")
    );
    cli(&db, &["move", "d-failed", "failed"], "");
    let deps = json!({"taskID": "t-1", "dependsOn": ["d-done", "d-failed", "d-open", "d-missing"]});
    cli(&db, &["submit", "-"], &task(deps));
    let message = assert_refused(cli(&db, &["claim", "t-1"], ""), "dependency_unresolved");
    assert!(!message.contains("`d-done`"), "{message}");
    assert!(
        message.contains("`d-failed` is failed and will never complete"),
        "{message}"
    );
    assert!(message.contains("`d-open` is submitted"), "{message}");
    assert!(
        message.contains("`d-missing` is not in the store"),
        "{message}"
    );
    // `task move ID working` from submitted is a claim too.
    assert_refused(
        cli(&db, &["move", "t-1", "working"], ""),
        "dependency_unresolved",
    );
    assert_eq!(state_of(&db, "t-1"), json!("submitted"));

    cli(
        &db,
        &["submit", "-"],
        &task(json!({"taskID": "t-2", "dependsOn": ["d-done"]})),
    );
    assert_eq!(cli(&db, &["claim", "t-2"], ""), moved("t-2", "working"));
    // A claim takes a submitted task only; resuming is a move.
    assert_refused(cli(&db, &["claim", "t-2"], ""), "illegal_transition");
    assert_refused(cli(&db, &["claim", "t-404"], ""), "unknown_task");
}

#[test]
fn completion_needs_evidence_that_the_acceptance_check_passed() {
    let db = fresh_db("complete");
    cli(&db, &["submit", "-"], &task(json!({"taskID": "t-1"})));
    cli(&db, &["claim", "t-1"], "");
    // An assertion alone does not complete.
    let message = assert_refused(
        cli(&db, &["move", "t-1", "completed"], ""),
        "completion_without_evidence",
    );
    assert!(message.contains("no recorded evidence"), "{message}");
    let refusals: [(&str, Value, &str); 3] = [
        ("exitStatus", json!(1), "exited 1"),
        (
            "acceptanceCommand",
            json!("true"),
            "not the acceptance check's passFailCommand",
        ),
        (
            "endToEndVerification",
            Value::Null,
            "end-to-end verification",
        ),
    ];
    for (member, value, why) in refusals {
        let mut evidence = passing_evidence();
        match value {
            Value::Null => {
                evidence.as_object_mut().unwrap().remove(member);
            }
            value => evidence[member] = value,
        }
        let outcome = cli(
            &db,
            &["complete", "t-1", "--evidence", "-"],
            &evidence.to_string(),
        );
        let message = assert_refused(outcome, "completion_without_evidence");
        assert!(message.contains(why), "{member}: {message}");
    }
    // Refused evidence is not recorded and nothing moved.
    let shown = cli(&db, &["show", "t-1"], "").1;
    assert_eq!(
        (shown["state"].clone(), shown.get("evidence")),
        (json!("working"), None)
    );
    // Evidence that is not the evidence shape.
    let (code, json) = cli(
        &db,
        &["complete", "t-1", "--evidence", "-"],
        r#"{"exitStatus":0}"#,
    );
    assert_eq!(
        (code, json["code"].clone()),
        (1, json!("invalid_task_envelope"))
    );

    let evidence = passing_evidence().to_string();
    assert_eq!(
        cli(&db, &["complete", "t-1", "--evidence", "-"], &evidence),
        moved("t-1", "completed")
    );
    let shown = cli(&db, &["show", "t-1"], "").1;
    assert_eq!(shown["evidence"], passing_evidence());
    assert_eq!(shown["evidence"]["secondOpinion"]["verdict"], json!("pass"));
    let keys: Vec<&String> = shown.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["envelope", "evidence", "state", "task_id"]);
    // Completed is final.
    assert_refused(
        cli(&db, &["complete", "t-1", "--evidence", "-"], &evidence),
        "illegal_transition",
    );
    // Evidence sent with the envelope is recorded evidence.
    cli(
        &db,
        &["submit", "-"],
        &task(json!({"taskID": "t-2", "evidence": passing_evidence()})),
    );
    cli(&db, &["claim", "t-2"], "");
    assert_eq!(
        cli(&db, &["move", "t-2", "completed"], ""),
        moved("t-2", "completed")
    );
}

#[test]
fn rejection_needs_a_stated_reason() {
    let db = fresh_db("reject");
    cli(&db, &["submit", "-"], &task(json!({"taskID": "t-1"})));
    assert_refused(cli(&db, &["reject", "t-1"], ""), "reason_required");
    assert_refused(
        cli(&db, &["reject", "t-1", "--reason", " \t"], ""),
        "reason_required",
    );
    assert_refused(
        cli(&db, &["move", "t-1", "rejected"], ""),
        "reason_required",
    );
    assert_eq!(state_of(&db, "t-1"), json!("submitted"));
    assert_eq!(
        cli(&db, &["reject", "t-1", "--reason", "out of my scope"], ""),
        moved("t-1", "rejected")
    );
    let shown = cli(&db, &["show", "t-1"], "").1;
    assert_eq!(
        (shown["state"].clone(), shown["reason"].clone()),
        (json!("rejected"), json!("out of my scope"))
    );
    // Usage: an unknown state is not a refusal.
    let out = common::specmint(
        &[
            "task",
            "move",
            "t-1",
            "done",
            "--store",
            db.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn binding_narrows_to_the_ledger_in_the_request_order() {
    let db = fresh_db("bind");
    let ledger = common::beside(&db, "ledger.json");
    std::fs::write(&ledger, r#"["git", "shell", "cargo", "network"]"#).unwrap();
    let ledger = ledger.to_str().unwrap();
    cli(
        &db,
        &["submit", "-"],
        &task(json!({"taskID": "t-1", "toolsAllowed": ["shell", "browser", "git", "shell"]})),
    );
    let bound = cli(&db, &["bind", "t-1", "--ledger", ledger], "");
    assert_eq!(
        bound,
        (
            0,
            json!({"ok": true, "task_id": "t-1", "tools": ["shell", "git"]})
        )
    );
    // `show` prints the grant once there is one.
    assert_eq!(
        cli(&db, &["show", "t-1"], "").1["tools"],
        json!(["shell", "git"])
    );
    // An empty request acquires nothing, whatever the ledger holds.
    cli(&db, &["submit", "-"], &task(json!({"taskID": "t-2"})));
    assert_eq!(cli(&db, &["show", "t-2"], "").1.get("tools"), None);
    assert_eq!(
        cli(&db, &["bind", "t-2", "--ledger", ledger], ""),
        (0, json!({"ok": true, "task_id": "t-2", "tools": []}))
    );
    assert_refused(
        cli(&db, &["bind", "t-404", "--ledger", ledger], ""),
        "unknown_task",
    );
    // A ledger that is not an array of non-blank names is a refusal with a code (JSON, exit
    // 1), not a usage error, and the recorded grant stays as it was.
    let bad = common::beside(&db, "bad_ledger.json");
    let bad_path = bad.to_str().unwrap();
    std::fs::write(&bad, r#"{"tools": ["git"]}"#).unwrap();
    let message = assert_refused(
        cli(&db, &["bind", "t-1", "--ledger", bad_path], ""),
        "invalid_ledger",
    );
    assert!(
        message.starts_with(&format!(
            "ledger `{bad_path}`: not a capability ledger (a JSON array of tool names): invalid type: map"
        )),
        "{message}"
    );
    std::fs::write(&bad, r#"["git", " "]"#).unwrap();
    assert_eq!(
        assert_refused(
            cli(&db, &["bind", "t-1", "--ledger", bad_path], ""),
            "invalid_ledger",
        ),
        format!("ledger `{bad_path}`: tool name 1 (counting from 0) is blank")
    );
    let out = common::specmint(
        &[
            "task",
            "bind",
            "t-1",
            "--ledger",
            bad_path,
            "--store",
            db.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned()
        ),
        (
            Some(1),
            format!("refused: invalid_ledger: ledger `{bad_path}`: tool name 1 (counting from 0) is blank\n"),
            String::new()
        )
    );
    assert_eq!(
        cli(&db, &["show", "t-1"], "").1["tools"],
        json!(["shell", "git"])
    );
    // The library keeps the grant with the task, and the bound copy is the narrowed one.
    let mut store = TaskStore::open(&db).unwrap();
    assert_eq!(
        store.task("t-1").unwrap().unwrap().tools,
        Some(vec!["shell".into(), "git".into()])
    );
    let envelope = TaskEnvelope::from_json_str(&task(json!({"toolsAllowed": ["a", "b"]}))).unwrap();
    let bound = bind(&envelope, &CapabilityLedger::new(["b"]));
    assert_eq!(bound.tools(), ["b"]);
    assert_eq!(bound.envelope().tools_allowed, ["b"]);
    assert_eq!(envelope.tools_allowed, ["a", "b"], "binding returns a copy");
    assert!(bind(&envelope, &CapabilityLedger::default())
        .tools()
        .is_empty());
}

#[test]
fn two_processes_completing_one_task_one_completes_one_is_refused() {
    for round in 0..4 {
        let db = fresh_db(&format!("race_{round}"));
        cli(&db, &["submit", "-"], &task(json!({"taskID": "t-1"})));
        cli(&db, &["claim", "t-1"], "");
        let evidence = common::beside(&db, format!("evidence_{round}.json"));
        std::fs::write(&evidence, passing_evidence().to_string()).unwrap();
        let args = vec![
            "task",
            "complete",
            "t-1",
            "--evidence",
            evidence.to_str().unwrap(),
            "--store",
            db.to_str().unwrap(),
        ];
        let mut outcomes = common::specmint_json_at_once(&[args.clone(), args]);
        outcomes.sort_by_key(|(code, _)| *code);
        assert_eq!(outcomes[0], moved("t-1", "completed"), "round {round}");
        assert_eq!(
            (outcomes[1].0, outcomes[1].1["code"].clone()),
            (1, json!("illegal_transition")),
            "round {round}"
        );
        assert_eq!(state_of(&db, "t-1"), json!("completed"));
    }
}

#[test]
fn the_library_reports_refusals_with_the_spec_codes() {
    let db = fresh_db("library");
    let mut store = TaskStore::open(&db).unwrap();
    let refused = |outcome: Result<TaskState, TaskError>| match outcome {
        Err(Failure::Refused(refusal)) => refusal.code,
        other => panic!("{other:?}"),
    };
    assert_eq!(refused(store.claim("nope")), TaskEnvelopeError::UnknownTask);
    let id = store.submit(task(json!({})).as_bytes()).unwrap();
    assert_eq!(
        refused(store.reject(&id, "")),
        TaskEnvelopeError::ReasonRequired
    );
    assert_eq!(store.claim(&id).unwrap(), TaskState::Working);
    assert_eq!(
        refused(store.move_to(&id, TaskState::Completed, None)),
        TaskEnvelopeError::CompletionWithoutEvidence
    );
    assert_eq!(
        store
            .move_to(&id, TaskState::Canceled, Some("withdrawn"))
            .unwrap(),
        TaskState::Canceled
    );
    assert_eq!(
        store.task(&id).unwrap().unwrap().reason.as_deref(),
        Some("withdrawn")
    );
}

#[test]
fn verdict_source_and_second_opinion_are_recorded_not_judged() {
    let db = fresh_db("verdict");
    cli(&db, &["submit", "-"], &task(json!({"taskID": "t-1"})));
    cli(&db, &["claim", "t-1"], "");
    let mut evidence = passing_evidence();
    evidence["verdictSource"] = json!("llm_judge");
    evidence["secondOpinion"] = json!({"verdict": "fail", "notes": "flaky on CI"});
    let outcome = cli(
        &db,
        &["complete", "t-1", "--evidence", "-"],
        &evidence.to_string(),
    );
    assert_eq!(outcome, moved("t-1", "completed"));
    assert_eq!(cli(&db, &["show", "t-1"], "").1["evidence"], evidence);
}

#[test]
fn binding_again_records_the_last_grant() {
    let db = fresh_db("rebind");
    let wide = common::beside(&db, "wide.json");
    let narrow = common::beside(&db, "narrow.json");
    std::fs::write(&wide, r#"["git", "shell"]"#).unwrap();
    std::fs::write(&narrow, r#"["git"]"#).unwrap();
    cli(
        &db,
        &["submit", "-"],
        &task(json!({"taskID": "t-1", "toolsAllowed": ["shell", "git"]})),
    );
    cli(
        &db,
        &["bind", "t-1", "--ledger", wide.to_str().unwrap()],
        "",
    );
    let outcome = cli(
        &db,
        &["bind", "t-1", "--ledger", narrow.to_str().unwrap()],
        "",
    );
    assert_eq!(outcome.1["tools"], json!(["git"]));
    let mut store = TaskStore::open(&db).unwrap();
    assert_eq!(
        store.task("t-1").unwrap().unwrap().tools,
        Some(vec!["git".to_owned()])
    );
}

#[test]
fn processes_submitting_at_once_to_a_new_store_get_distinct_minted_ids() {
    // Several rounds, each on a new file: the race is in turning a new file into a store
    // (SQLite answers "database is locked" there without waiting), and one round can miss it.
    for round in 0..8 {
        let db = fresh_db(&format!("mint_race_{round}"));
        let file = common::beside(&db, "no_id.json");
        std::fs::write(&file, task(json!({}))).unwrap();
        let args = vec![
            "task",
            "submit",
            "--store",
            db.to_str().unwrap(),
            file.to_str().unwrap(),
        ];
        let outcomes = common::specmint_json_at_once(&vec![args; 6]);
        let mut ids: Vec<&str> = outcomes
            .iter()
            .map(|(code, json)| {
                assert_eq!(*code, 0, "round {round}: {json}");
                json["task_id"].as_str().unwrap()
            })
            .collect();
        ids.sort_unstable();
        assert_eq!(
            ids,
            ["task-1", "task-2", "task-3", "task-4", "task-5", "task-6"],
            "round {round}"
        );
    }
}

/// The ids of `task list ARGS`, in the listed order (asserting exit 0 and `ok`).
fn listed(db: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["list"];
    all.extend(args);
    let (status, json) = cli(db, &all, "");
    assert_eq!((status, &json["ok"]), (0, &json!(true)), "{json}");
    json["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["task_id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn list_is_the_queue_in_submission_order_and_claimable_waits_for_dependencies() {
    let db = fresh_db("list");
    cli(&db, &["init"], "");
    assert_eq!(listed(&db, &[]), Vec::<String>::new());
    for (id, deps) in [
        ("l-done", json!([])),
        ("l-needs-done", json!(["l-done"])),
        ("l-needs-open", json!(["l-done", "l-open"])),
        ("l-open", json!([])),
        ("l-needs-missing", json!(["l-missing"])),
        ("l-needs-failed", json!(["l-failed"])),
        ("l-failed", json!([])),
    ] {
        let envelope = task(json!({"taskID": id, "dependsOn": deps}));
        assert_eq!(cli(&db, &["submit", "-"], &envelope).0, 0);
    }
    cli(&db, &["claim", "l-done"], "");
    let evidence = passing_evidence().to_string();
    cli(&db, &["complete", "l-done", "--evidence", "-"], &evidence);
    cli(&db, &["move", "l-failed", "failed"], "");

    let all = [
        "l-done",
        "l-needs-done",
        "l-needs-open",
        "l-open",
        "l-needs-missing",
        "l-needs-failed",
        "l-failed",
    ];
    assert_eq!(listed(&db, &[]), all);
    let submitted = [
        "l-needs-done",
        "l-needs-open",
        "l-open",
        "l-needs-missing",
        "l-needs-failed",
    ];
    assert_eq!(listed(&db, &["--state", "submitted"]), submitted);
    assert_eq!(listed(&db, &["--state", "completed"]), ["l-done"]);
    assert_eq!(listed(&db, &["--state", "working"]), Vec::<String>::new());
    // Claimable: submitted, and every dependency completed (none is vacuously all).
    assert_eq!(listed(&db, &["--claimable"]), ["l-needs-done", "l-open"]);
    // Both filters hold at once: claimable tasks are submitted, so another state lists none.
    assert_eq!(
        listed(&db, &["--claimable", "--state", "submitted"]),
        ["l-needs-done", "l-open"]
    );
    assert_eq!(
        listed(&db, &["--claimable", "--state", "failed"]),
        Vec::<String>::new()
    );
    // What claimable lists is what a claim takes, and the rest is refused.
    for id in submitted {
        let (status, _) = cli(&db, &["claim", id], "");
        assert_eq!(
            status == 0,
            ["l-needs-done", "l-open"].contains(&id),
            "{id}"
        );
    }
    // l-needs-open became claimable only once l-open completed.
    assert_eq!(listed(&db, &["--claimable"]), Vec::<String>::new());
    cli(&db, &["complete", "l-open", "--evidence", "-"], &evidence);
    assert_eq!(listed(&db, &["--claimable"]), ["l-needs-open"]);

    // Each entry is `task show`'s object.
    let (_, list) = cli(&db, &["list", "--state", "completed"], "");
    let (_, shown) = cli(&db, &["show", "l-done"], "");
    assert_eq!(list["tasks"][0], shown);
    // The library answers the same.
    let mut store = TaskStore::open(&db).unwrap();
    let ids: Vec<String> = store
        .list(Some(TaskState::Completed), false)
        .unwrap()
        .into_iter()
        .map(|t| t.task_id)
        .collect();
    assert_eq!(ids, ["l-done", "l-open"]);
}

#[test]
fn list_refuses_an_unknown_state_and_stray_arguments_as_usage() {
    let db = fresh_db("list_usage");
    let db = db.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--state", "done"],
            "unknown --state `done` (one of: submitted, working, input_required, auth_required, completed, failed, canceled, rejected)",
        ),
        (vec!["--state"], "--state takes a value"),
        (vec!["t-1"], "unexpected argument `t-1`"),
        (vec!["--claimable=yes"], "unknown option `--claimable=yes`"),
    ] {
        let mut all = vec!["task", "list", "--store", db];
        all.extend(&args);
        let out = common::specmint(&all, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    // Human output: one line per task, `ID (STATE): objective`, control characters escaped.
    let envelope = task(json!({"taskID": "h-1", "objective": "line\nbreak"}));
    common::specmint(&["task", "submit", "--store", db, "-"], envelope.as_bytes());
    let out = common::specmint(&["task", "list", "--store", db], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "h-1 (submitted): line\\nbreak\n"
    );
    let empty = fresh_db("list_empty");
    let empty = empty.to_str().unwrap();
    let out = common::specmint(&["task", "init", "--store", empty], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("created: {}\n", Location::parse(empty).display())
    );
    let out = common::specmint(&["task", "init", "--store", empty], b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("exists: {}\n", Location::parse(empty).display())
    );
    let out = common::specmint(&["task", "list", "--store", empty], b"");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "(no tasks)\n");
}

#[test]
fn claim_next_takes_the_oldest_claimable_task_and_context_narrows_it() {
    let db = fresh_db("claim_next");
    for (id, context, deps) in [
        ("n-waits", "ctx-7", json!(["n-other"])),
        ("n-first", "ctx-7", json!([])),
        ("n-other", "ctx-9", json!([])),
        ("n-last", "ctx-7", json!([])),
    ] {
        let envelope = task(json!({"taskID": id, "contextID": context, "dependsOn": deps}));
        assert_eq!(cli(&db, &["submit", "-"], &envelope).0, 0);
    }
    let next = |extra: &[&str]| {
        let mut args = vec!["claim", "--next"];
        args.extend(extra);
        cli(&db, &args, "")
    };
    // The context's oldest claimable task, though an older one of another context waits.
    assert_eq!(next(&["--context", "ctx-9"]), moved("n-other", "working"));
    // n-waits is older but its dependency is working, not completed: n-first is next.
    assert_eq!(next(&[]), moved("n-first", "working"));
    assert_eq!(next(&["--context", "ctx-9"]).1["task_id"], Value::Null);
    let evidence = passing_evidence().to_string();
    cli(&db, &["complete", "n-other", "--evidence", "-"], &evidence);
    assert_eq!(next(&[]), moved("n-waits", "working"));
    assert_eq!(next(&["--context", "ctx-7"]), moved("n-last", "working"));
    // Nothing claimable is not a refusal: exit 0, null id and state.
    assert_eq!(
        next(&[]),
        (0, json!({"ok": true, "task_id": null, "state": null}))
    );
    // The library answers the same.
    let mut store = TaskStore::open(&db).unwrap();
    assert_eq!(store.claim_next(None).unwrap(), None);
    // --next picks the task itself; --context belongs to it: usage errors, exit 2.
    let store = db.to_str().unwrap();
    for (args, message) in [
        (
            vec!["task", "claim", "--next", "n-last", "--store", store],
            "specmint: `task claim --next` takes no ID: it picks the task\n",
        ),
        (
            vec![
                "task",
                "claim",
                "n-last",
                "--context",
                "ctx-7",
                "--store",
                store,
            ],
            "specmint: --context goes with --next\n",
        ),
    ] {
        let out = common::specmint(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with(message),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn counts_name_every_state_and_the_history_every_step() {
    let db = fresh_db("counts");
    // Reading never makes a store: `init` does.
    let out = common::specmint(
        &["task", "list", "--counts", "--store", db.to_str().unwrap()],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let shown = Location::from(&db).display();
    assert_eq!(
        cli(&db, &["init"], ""),
        (0, json!({"ok": true, "store": shown, "created": true}))
    );
    let (status, counts) = cli(&db, &["list", "--counts"], "");
    let zero: serde_json::Map<String, Value> = TaskState::ALL
        .iter()
        .map(|s| (s.as_str().to_owned(), json!(0)))
        .collect();
    assert_eq!(
        (status, counts),
        (0, json!({"ok": true, "counts": zero, "total": 0}))
    );
    for id in ["c-1", "c-2", "c-3"] {
        cli(&db, &["submit", "-"], &task(json!({"taskID": id})));
    }
    cli(&db, &["claim", "c-1"], "");
    cli(
        &db,
        &["move", "c-1", "input_required", "--reason", "which file?"],
        "",
    );
    cli(&db, &["move", "c-1", "working"], "");
    cli(&db, &["reject", "c-2", "--reason", "out of scope"], "");
    let (_, counts) = cli(&db, &["list", "--counts"], "");
    let mut want = zero.clone();
    want["submitted"] = json!(1);
    want["working"] = json!(1);
    want["rejected"] = json!(1);
    assert_eq!(counts, json!({"ok": true, "counts": want, "total": 3}));
    // The human form lists them in the table's order, then the total.
    let out = common::specmint(
        &["task", "list", "--counts", "--store", db.to_str().unwrap()],
        b"",
    );
    let mut lines: Vec<String> = TaskState::ALL
        .iter()
        .map(|s| format!("{s}: {}", want[s.as_str()]))
        .collect();
    lines.push("total: 3".to_owned());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        lines.join("\n") + "\n"
    );
    let out = common::specmint(
        &[
            "task",
            "list",
            "--counts",
            "--state",
            "working",
            "--store",
            db.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));

    // --history adds the steps, oldest first; without it, show's object is unchanged.
    let (_, plain) = cli(&db, &["show", "c-1"], "");
    assert!(plain.get("history").is_none(), "{plain}");
    let (status, shown) = cli(&db, &["show", "c-1", "--history"], "");
    assert_eq!(status, 0);
    let steps: Vec<(Value, Value, Value)> = shown["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["from"].clone(), s["to"].clone(), s["reason"].clone()))
        .collect();
    assert_eq!(
        steps,
        [
            (Value::Null, json!("submitted"), Value::Null),
            (json!("submitted"), json!("working"), Value::Null),
            (
                json!("working"),
                json!("input_required"),
                json!("which file?")
            ),
            (json!("input_required"), json!("working"), Value::Null),
        ]
    );
    for step in shown["history"].as_array().unwrap() {
        let at = step["at"].as_str().unwrap();
        assert!(
            at.len() == 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
            "{at}"
        );
    }
    let mut without = shown.clone();
    without.as_object_mut().unwrap().remove("history");
    assert_eq!(without, plain);
    let (_, rejected) = cli(&db, &["show", "c-2", "--history"], "");
    assert_eq!(
        rejected["history"][1],
        json!({"from": "submitted", "to": "rejected", "at": rejected["history"][1]["at"], "reason": "out of scope"})
    );
    // A refused move is no step.
    assert_refused(
        cli(&db, &["move", "c-3", "completed"], ""),
        "illegal_transition",
    );
    let (_, untouched) = cli(&db, &["show", "c-3", "--history"], "");
    assert_eq!(untouched["history"].as_array().unwrap().len(), 1);
    assert_refused(
        cli(&db, &["show", "c-404", "--history"], ""),
        "unknown_task",
    );
}

/// The mesh's queue under load: `WORKERS` processes at once, each running `task claim --next`
/// until nothing is left, over `TASKS` tasks: every task is claimed by exactly one claim, and
/// none is left. 64 workers on PostgreSQL (`FOR UPDATE SKIP LOCKED`), 16 on SQLite (whose
/// writers take turns on the file's lock).
#[test]
fn workers_claiming_next_at_once_claim_every_task_exactly_once() {
    const TASKS: usize = 2000;
    let workers = if common::postgres_query().is_some() {
        64
    } else {
        16
    };
    let db = fresh_db("claim_next_mesh");
    {
        // The set-up is not what is measured: commits without waiting for the disk.
        let mut store = TaskStore::open_with(&db, specmint::database::Synchronous::Normal).unwrap();
        for i in 0..TASKS {
            let envelope = task(json!({"taskID": format!("m-{i:04}")}));
            store.submit(envelope.as_bytes()).unwrap();
        }
    }
    let store_arg = db.to_str().unwrap().to_owned();
    let claims: Vec<Vec<String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let store_arg = &store_arg;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let (status, json) = common::specmint_json(
                            &["task", "claim", "--next", "--store", store_arg],
                            "",
                        );
                        assert_eq!(status, 0, "{json}");
                        match json["task_id"].as_str() {
                            Some(id) => {
                                assert_eq!(json["state"], "working", "{json}");
                                mine.push(id.to_owned());
                            }
                            None => return mine,
                        }
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<&String> = claims.iter().flatten().collect();
    assert_eq!(all.len(), TASKS, "one claim per task, none twice");
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), TASKS, "no task claimed twice");
    let busy = claims.iter().filter(|c| !c.is_empty()).count();
    assert!(
        busy > 1,
        "the claims were spread over the workers ({busy} of {workers})"
    );
    let mut store = TaskStore::open(&db).unwrap();
    let counts = store.counts().unwrap();
    for (state, n) in counts {
        let want = if state == TaskState::Working {
            TASKS as u64
        } else {
            0
        };
        assert_eq!(n, want, "{state}");
    }
}

/// Issue 48 (the weaker items): the SQLite store and its write-ahead files are the owner's
/// alone (0600), as the passports are; SQLite would have made them 0644.
#[cfg(unix)]
#[test]
fn the_sqlite_store_is_readable_by_its_owner_alone() {
    use std::os::unix::fs::PermissionsExt;
    let db = common::fresh_sqlite_db("task_lifecycle", "private");
    let (code, _) = cli(&db, &["submit", "-"], &task(json!({"taskID": "p-1"})));
    assert_eq!(code, 0);
    for suffix in ["", "-wal", "-shm"] {
        let file = format!("{}{suffix}", db.display());
        let Ok(metadata) = std::fs::metadata(&file) else {
            continue;
        };
        assert_eq!(metadata.permissions().mode() & 0o777, 0o600, "{file}");
    }
}
