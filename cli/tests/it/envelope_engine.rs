//! The Action Envelope engine: the happy path and every error code through `specmint envelope
//! apply`, every (state, action) pair of the generated table, idempotent replay, the
//! canonical summary's test vector from the spec, and concurrency and crash safety with real
//! processes.

use crate::common;

use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use specmint::action_envelope::engine::{ApplyError, PackageStore};
use specmint::action_envelope::manifest::{Confirmation, Manifest, Summary};
use specmint::action_envelope::{Action, ActionEnvelope, EnvelopeError, PackageState};
use specmint::database::Failure;

fn fresh_db(name: &str) -> PathBuf {
    common::fresh_db("envelope_engine", name)
}

/// An envelope's text.
fn envelope(
    action_id: &str,
    package: &str,
    revision: u64,
    action: &str,
    basis: Value,
    payload: Value,
) -> String {
    json!({
        "protocol_version": "0.1",
        "action_id": action_id,
        "package_id": package,
        "expected_revision": revision,
        "action": action,
        "basis": basis,
        "payload": payload,
    })
    .to_string()
}

fn record_input(action_id: &str, package: &str, revision: u64, input_id: &str) -> String {
    let payload = json!({"input_id": input_id, "kind": "text", "content": "c", "source": "operator", "disposition": "incorporated"});
    envelope(
        action_id,
        package,
        revision,
        "record_input",
        json!({}),
        payload,
    )
}

fn set_objective(action_id: &str, package: &str, revision: u64) -> String {
    envelope(
        action_id,
        package,
        revision,
        "set_objective",
        json!({}),
        json!({"statement": "ship the guide"}),
    )
}

fn bare(action_id: &str, package: &str, revision: u64, action: &str) -> String {
    envelope(action_id, package, revision, action, json!({}), json!({}))
}

fn confirm(action_id: &str, package: &str, revision: u64, digest: &str) -> String {
    envelope(
        action_id,
        package,
        revision,
        "confirm_summary",
        json!({"summary_sha256": digest}),
        json!({"operator_id": "vincent"}),
    )
}

fn draft(action_id: &str, package: &str, revision: u64, logical_path: &str) -> String {
    let payload = json!({"artifact_id": "d-1", "kind": "markdown", "logical_path": logical_path, "content": "# Guide"});
    envelope(
        action_id,
        package,
        revision,
        "record_draft_artifact",
        json!({}),
        payload,
    )
}

use common::specmint_json as cli;

fn apply(db: &Path, text: &str) -> (i32, Value) {
    cli(
        &["envelope", "apply", "--store", db.to_str().unwrap(), "-"],
        text,
    )
}

fn show(db: &Path, package: &str) -> Value {
    let (code, json) = cli(
        &["envelope", "show", package, "--store", db.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{json}");
    json
}

fn applied(revision: u64, state: &str, replayed: bool, package: &str) -> (i32, Value) {
    (
        0,
        json!({"ok": true, "replayed": replayed, "package_id": package, "revision": revision, "state": state}),
    )
}

/// Asserts a refusal's exit status and code; returns its message.
fn assert_refused(outcome: (i32, Value), code: &str) -> String {
    let (status, json) = outcome;
    assert_eq!(
        (status, json["ok"].clone(), json["code"].as_str()),
        (1, json!(false), Some(code)),
        "{json}"
    );
    assert_eq!(
        json.as_object().unwrap().len(),
        3,
        "{{ok, code, message}}: {json}"
    );
    json["message"].as_str().unwrap().to_owned()
}

fn new_package(db: &Path, package: &str, intent: Option<&str>) {
    let mut args = vec!["envelope", "new", package, "--store", db.to_str().unwrap()];
    if let Some(intent) = intent {
        args.extend(["--intent", intent]);
    }
    assert_eq!(cli(&args, ""), applied(0, "INTAKE", false, package));
}

#[test]
fn happy_path_intake_to_draft_ready() {
    let db = fresh_db("happy");
    let p = "pkg_demo_001";
    new_package(&db, p, Some("Write the onboarding guide"));
    let created = show(&db, p);
    assert_eq!(
        (created["state"].clone(), created["revision"].clone()),
        (json!("INTAKE"), json!(0))
    );
    assert_eq!(created["summary"], Value::Null);

    assert_eq!(
        apply(&db, &record_input("a-1", p, 0, "i-1")),
        applied(1, "INTAKE", false, p)
    );
    assert_eq!(
        apply(&db, &set_objective("a-2", p, 1)),
        applied(2, "INTAKE", false, p)
    );
    assert_eq!(
        apply(&db, &bare("a-3", p, 2, "prepare_summary")),
        applied(3, "SUMMARY_PENDING", false, p)
    );
    let manifest = show(&db, p);
    let digest = manifest["summary"]["canonical_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(digest.len(), 64);
    assert!(manifest["summary"]["presented_at"]
        .as_str()
        .unwrap()
        .ends_with('Z'));
    assert_eq!(
        apply(&db, &confirm("a-4", p, 3, &digest)),
        applied(4, "AUTHORING_AUTHORIZED", false, p)
    );
    assert_eq!(
        apply(&db, &draft("a-5", p, 4, "docs/guide.md")),
        applied(5, "DRAFT_READY", false, p)
    );

    let done = show(&db, p);
    assert_eq!(
        (done["state"].clone(), done["revision"].clone()),
        (json!("DRAFT_READY"), json!(5))
    );
    assert_eq!(done["confirmation"]["summary_sha256"], json!(digest));
    assert_eq!(done["confirmation"]["operator_id"], json!("vincent"));
    assert_eq!(
        done["draft_artifacts"][0]["logical_path"],
        json!("docs/guide.md")
    );
    assert_eq!(done["inputs"][0]["input_id"], json!("i-1"));
    assert_eq!(done["objective"]["statement"], json!("ship the guide"));
}

#[test]
fn invalid_envelope_for_empty_prose_and_malformed_text() {
    let db = fresh_db("invalid");
    new_package(&db, "pkg_a", Some("i"));
    for text in [
        "",
        "   \n",
        "no JSON here",
        "{} {}",
        "[1]",
        "{\"protocol_version\":",
    ] {
        assert_refused(apply(&db, text), "INVALID_ENVELOPE");
    }
    // An unknown top-level member, basis member and action; a bad package id.
    let unknown_field =
        bare("a-1", "pkg_a", 0, "cancel").replace("\"basis\"", "\"extra\":1,\"basis\"");
    assert_refused(apply(&db, &unknown_field), "INVALID_ENVELOPE");
    let unknown_basis = envelope("a-1", "pkg_a", 0, "cancel", json!({"why": "x"}), json!({}));
    assert_refused(apply(&db, &unknown_basis), "INVALID_ENVELOPE");
    assert_refused(
        apply(&db, &bare("a-1", "pkg_a", 0, "launch")),
        "INVALID_ENVELOPE",
    );
    assert_refused(
        apply(&db, &bare("a-1", "pkg_", 0, "cancel")),
        "INVALID_ENVELOPE",
    );
    // Prose around one valid object is tolerated, as the spec says.
    let wrapped = format!(
        "Here is the action:\n{}\nThanks.",
        set_objective("a-1", "pkg_a", 0)
    );
    assert_eq!(apply(&db, &wrapped), applied(1, "INTAKE", false, "pkg_a"));
    assert_eq!(show(&db, "pkg_a")["revision"], json!(1));
    // A leading byte order mark is tolerated like any other text before the first `{`: by
    // `validate action-envelope` and by `envelope apply`.
    let marked = format!("\u{feff}{}", set_objective("a-2", "pkg_a", 1));
    assert_eq!(
        cli(&["validate", "action-envelope", "-"], &marked),
        (
            0,
            json!({"file": "<stdin>", "type": "action-envelope", "valid": true, "errors": []})
        )
    );
    assert_eq!(apply(&db, &marked), applied(2, "INTAKE", false, "pkg_a"));
    let marked_prose = format!("\u{feff}Sure: {}", set_objective("a-3", "pkg_a", 2));
    assert_eq!(
        apply(&db, &marked_prose),
        applied(3, "INTAKE", false, "pkg_a")
    );
}

#[test]
fn invalid_payload_when_read_and_when_gated() {
    let db = fresh_db("payload");
    let p = "pkg_a";
    new_package(&db, p, Some("i"));
    let no_reason = envelope(
        "a-1",
        p,
        0,
        "record_input",
        json!({}),
        json!({"input_id": "i-1", "kind": "text", "content": "x", "source": "adapter", "disposition": "excluded"}),
    );
    assert!(assert_refused(apply(&db, &no_reason), "INVALID_PAYLOAD").contains("exclusion_reason"));
    let blank = envelope(
        "a-1",
        p,
        0,
        "set_objective",
        json!({}),
        json!({"statement": " \u{3000}"}),
    );
    assert_refused(apply(&db, &blank), "INVALID_PAYLOAD");
    assert_eq!(
        apply(&db, &record_input("a-1", p, 0, "i-1")),
        applied(1, "INTAKE", false, p)
    );
    // The gate: input_id unique among the package's inputs.
    let message = assert_refused(
        apply(&db, &record_input("a-2", p, 1, "i-1")),
        "INVALID_PAYLOAD",
    );
    assert!(message.contains("`i-1` is already recorded"), "{message}");
    assert_eq!(show(&db, p)["revision"], json!(1));
}

#[test]
fn logical_path_must_be_relative_without_parent_segments() {
    let db = fresh_db("logical_path");
    let p = "pkg_a";
    let digest = drive_to_authorized(&db, p);
    for bad in ["../etc/passwd", "/etc/passwd", "docs/../../x"] {
        let message = assert_refused(apply(&db, &draft("d", p, 4, bad)), "INVALID_PAYLOAD");
        assert!(message.contains("logical_path"), "{bad}: {message}");
    }
    assert_eq!(show(&db, p)["state"], json!("AUTHORING_AUTHORIZED"));
    assert_eq!(
        apply(&db, &draft("d", p, 4, "docs/guide.md")),
        applied(5, "DRAFT_READY", false, p)
    );
    assert_eq!(
        show(&db, p)["confirmation"]["summary_sha256"],
        json!(digest)
    );
}

/// New package with an intent, an input and an objective, summary prepared and confirmed
/// (revision 4); returns the digest.
fn drive_to_authorized(db: &Path, p: &str) -> String {
    new_package(db, p, Some("the intent"));
    apply(db, &record_input("a-1", p, 0, "i-1"));
    apply(db, &set_objective("a-2", p, 1));
    assert_eq!(apply(db, &bare("a-3", p, 2, "prepare_summary")).0, 0);
    let digest = show(db, p)["summary"]["canonical_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        apply(db, &confirm("a-4", p, 3, &digest)),
        applied(4, "AUTHORING_AUTHORIZED", false, p)
    );
    digest
}

#[test]
fn illegal_transition_for_an_action_not_in_the_table_and_for_no_package() {
    let db = fresh_db("illegal");
    new_package(&db, "pkg_a", Some("i"));
    let message = assert_refused(
        apply(&db, &confirm("a-1", "pkg_a", 0, "abc")),
        "ILLEGAL_TRANSITION",
    );
    assert!(
        message.contains("`confirm_summary` is not legal in state INTAKE"),
        "{message}"
    );
    let message = assert_refused(
        apply(&db, &bare("a-1", "pkg_missing", 0, "cancel")),
        "ILLEGAL_TRANSITION",
    );
    assert!(message.contains("no package `pkg_missing`"), "{message}");
    assert_refused(
        cli(
            &[
                "envelope",
                "show",
                "pkg_missing",
                "--store",
                db.to_str().unwrap(),
            ],
            "",
        ),
        "ILLEGAL_TRANSITION",
    );
    assert_eq!(show(&db, "pkg_a")["revision"], json!(0));
}

#[test]
fn gate_unsatisfied_without_intent_or_objective() {
    let db = fresh_db("gate");
    // Without --intent no action can ever add one: prepare_summary is refused for good.
    new_package(&db, "pkg_no_intent", None);
    assert_eq!(show(&db, "pkg_no_intent")["intent"], Value::Null);
    assert_eq!(apply(&db, &set_objective("a-1", "pkg_no_intent", 0)).0, 0);
    let message = assert_refused(
        apply(&db, &bare("a-2", "pkg_no_intent", 1, "prepare_summary")),
        "GATE_UNSATISFIED",
    );
    assert!(message.contains("no intent"), "{message}");
    // A blank intent is no intent.
    new_package(&db, "pkg_blank", Some("  "));
    apply(&db, &set_objective("a-1", "pkg_blank", 0));
    assert_refused(
        apply(&db, &bare("a-2", "pkg_blank", 1, "prepare_summary")),
        "GATE_UNSATISFIED",
    );
    // With an intent but no objective.
    new_package(&db, "pkg_no_objective", Some("i"));
    let message = assert_refused(
        apply(&db, &bare("a-1", "pkg_no_objective", 0, "prepare_summary")),
        "GATE_UNSATISFIED",
    );
    assert!(message.contains("no objective"), "{message}");
    assert_eq!(show(&db, "pkg_no_objective")["state"], json!("INTAKE"));
}

#[test]
fn gates_the_table_cannot_reach_are_checked_in_the_state_machine() {
    // No path of the table reaches SUMMARY_PENDING without a summary or AUTHORING_AUTHORIZED
    // without a bound confirmation, so these gates are exercised on built manifests.
    let summary = Summary {
        canonical_text: "t".into(),
        canonical_sha256: "d1".into(),
        presented_at: "now".into(),
    };
    let mut pending = Manifest::new("pkg_a", Some("i".into()));
    pending.state = PackageState::SummaryPending;
    let confirm = parse(&confirm("a", "pkg_a", 0, "d1"));
    assert_eq!(
        pending.step(&confirm, "now").unwrap_err().code,
        EnvelopeError::GateUnsatisfied
    );

    let mut authorized = Manifest::new("pkg_a", Some("i".into()));
    authorized.state = PackageState::AuthoringAuthorized;
    authorized.summary = Some(summary);
    let draft = parse(&draft("d", "pkg_a", 0, "a.md"));
    assert_eq!(
        authorized.clone().step(&draft, "now").unwrap_err().code,
        EnvelopeError::GateUnsatisfied
    );
    authorized.confirmation = Some(Confirmation {
        summary_sha256: "d0".into(),
        operator_id: "o".into(),
        confirmed_at: "now".into(),
    });
    let before = authorized.clone();
    let refusal = authorized.step(&draft, "now").unwrap_err();
    assert_eq!(refusal.code, EnvelopeError::GateUnsatisfied);
    assert_eq!(authorized, before, "a refused step changes nothing");
    authorized.confirmation.as_mut().unwrap().summary_sha256 = "d1".into();
    authorized.step(&draft, "now").unwrap();
    assert_eq!(
        (authorized.state, authorized.revision),
        (PackageState::DraftReady, 1)
    );
}

fn parse(text: &str) -> ActionEnvelope {
    ActionEnvelope::from_json_str(text).unwrap()
}

#[test]
fn stale_action_for_a_revision_or_a_summary_digest_mismatch() {
    let db = fresh_db("stale");
    let p = "pkg_a";
    new_package(&db, p, Some("i"));
    let message = assert_refused(apply(&db, &set_objective("a-1", p, 3)), "STALE_ACTION");
    assert!(
        message.contains("expected_revision is 3 but `pkg_a` is at revision 0"),
        "{message}"
    );
    apply(&db, &set_objective("a-1", p, 0));
    apply(&db, &bare("a-2", p, 1, "prepare_summary"));
    let message = assert_refused(apply(&db, &confirm("a-3", p, 2, "0000")), "STALE_ACTION");
    assert!(
        message.contains("`basis.summary_sha256` is `0000`"),
        "{message}"
    );
    assert_eq!(show(&db, p)["state"], json!("SUMMARY_PENDING"));
}

#[test]
fn revise_intake_invalidates_the_confirmation() {
    let db = fresh_db("revise");
    let p = "pkg_a";
    let old_digest = drive_to_authorized(&db, p);
    assert_eq!(
        apply(&db, &bare("r-1", p, 4, "revise_intake")),
        applied(5, "INTAKE", false, p)
    );
    let revised = show(&db, p);
    assert_eq!(
        (revised["summary"].clone(), revised["confirmation"].clone()),
        (Value::Null, Value::Null)
    );
    // Intake material stays.
    assert_eq!(revised["inputs"][0]["input_id"], json!("i-1"));
    assert_eq!(revised["objective"]["statement"], json!("ship the guide"));
    apply(&db, &record_input("r-2", p, 5, "i-2"));
    apply(&db, &bare("r-3", p, 6, "prepare_summary"));
    let new_digest = show(&db, p)["summary"]["canonical_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(new_digest, old_digest);
    // The old confirmation's digest no longer confirms anything.
    assert_refused(
        apply(&db, &confirm("r-4", p, 7, &old_digest)),
        "STALE_ACTION",
    );
    assert_eq!(
        apply(&db, &confirm("r-4", p, 7, &new_digest)),
        applied(8, "AUTHORING_AUTHORIZED", false, p)
    );
}

#[test]
fn action_id_reuse_replay_and_refusals_not_recorded() {
    let db = fresh_db("idempotency");
    let p = "pkg_a";
    new_package(&db, p, Some("i"));
    let first = record_input("a-1", p, 0, "i-1");
    assert_eq!(apply(&db, &first), applied(1, "INTAKE", false, p));
    assert_eq!(
        apply(&db, &set_objective("a-2", p, 1)),
        applied(2, "INTAKE", false, p)
    );
    // The same envelope replays its recorded outcome (revision 1), though the package moved on.
    assert_eq!(apply(&db, &first), applied(1, "INTAKE", true, p));
    // So does a retry sent with a fresher expected_revision: same content.
    assert_eq!(
        apply(&db, &record_input("a-1", p, 2, "i-1")),
        applied(1, "INTAKE", true, p)
    );
    // Same action_id, other content.
    let message = assert_refused(
        apply(&db, &record_input("a-1", p, 2, "i-9")),
        "ACTION_ID_REUSE",
    );
    assert!(message.contains("`a-1`"), "{message}");
    // Member order and whitespace are not content.
    let reordered = r#"{"payload":{"disposition":"incorporated","source":"operator","content":"c","kind":"text","input_id":"i-1"},
        "basis":{},"action":"record_input","expected_revision":0,"package_id":"pkg_a","action_id":"a-1","protocol_version":"0.1"}"#;
    assert_eq!(apply(&db, reordered), applied(1, "INTAKE", true, p));
    assert_eq!(show(&db, p)["revision"], json!(2));
    // The key is per package: the same action_id on another package is another action.
    new_package(&db, "pkg_other", Some("i"));
    assert_eq!(
        apply(&db, &record_input("a-1", "pkg_other", 0, "i-1")),
        applied(1, "INTAKE", false, "pkg_other")
    );

    // A refusal is not recorded: the same action_id is judged afresh once its cause is gone,
    // and may even carry other content.
    new_package(&db, "pkg_b", Some("i"));
    assert_refused(
        apply(&db, &bare("b-1", "pkg_b", 0, "prepare_summary")),
        "GATE_UNSATISFIED",
    );
    apply(&db, &set_objective("b-2", "pkg_b", 0));
    assert_eq!(
        apply(&db, &bare("b-1", "pkg_b", 1, "prepare_summary")),
        applied(2, "SUMMARY_PENDING", false, "pkg_b")
    );
    assert_refused(
        apply(&db, &set_objective("b-3", "pkg_b", 9)),
        "STALE_ACTION",
    );
    assert_eq!(
        apply(&db, &bare("b-3", "pkg_b", 2, "cancel")),
        applied(3, "CANCELLED", false, "pkg_b")
    );
}

#[test]
fn creating_a_package() {
    let db = fresh_db("create");
    let s = db.to_str().unwrap();
    new_package(&db, "pkg_a", None);
    let message = assert_refused(
        cli(&["envelope", "new", "pkg_a", "--store", s], ""),
        "ILLEGAL_TRANSITION",
    );
    assert!(message.contains("exists"), "{message}");
    assert_refused(
        cli(&["envelope", "new", "pkg_", "--store", s], ""),
        "INVALID_ENVELOPE",
    );
    assert_refused(
        cli(&["envelope", "new", "package-1", "--store", s], ""),
        "INVALID_ENVELOPE",
    );
    // Usage errors exit 2.
    assert_eq!(
        common::specmint(&["envelope", "new", "--store", s], b"")
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        common::specmint(&["envelope", "apply", "-"], b"")
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        common::specmint(&["envelope", "apply", "--store", s, "/no/such/file"], b"")
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        common::specmint(&["envelope", "frobnicate"], b"")
            .status
            .code(),
        Some(2)
    );
}

/// A gate-satisfying envelope for `action` on the package as it is now.
fn next_envelope(store: &mut PackageStore, p: &str, action: Action, id: &str) -> String {
    let manifest = store.manifest(p).unwrap().unwrap();
    let r = manifest.revision;
    match action {
        Action::RecordInput => record_input(id, p, r, id),
        Action::SetObjective => set_objective(id, p, r),
        Action::ConfirmSummary => {
            let digest = manifest
                .summary
                .map_or_else(|| "0".repeat(64), |s| s.canonical_sha256);
            confirm(id, p, r, &digest)
        }
        Action::RecordDraftArtifact => draft(id, p, r, "out/draft.md"),
        other => bare(id, p, r, other.as_str()),
    }
}

/// The shortest list of actions that leads from the table's first state to `target`.
fn path_to(target: PackageState) -> Vec<Action> {
    common::shortest_path(PackageState::TRANSITIONS, PackageState::ALL[0], target)
}

#[test]
fn every_state_and_action_pair_follows_the_generated_table() {
    let db = fresh_db("table");
    let mut store = PackageStore::open(&db).unwrap();
    for (s, &state) in PackageState::ALL.iter().enumerate() {
        for (a, &action) in Action::ALL.iter().enumerate() {
            let p = format!("pkg_{s}_{a}");
            store.create(&p, Some("the intent")).unwrap();
            // An objective first, so prepare_summary's gate holds on every path.
            store
                .apply_json(set_objective("setup", &p, 0).as_bytes())
                .unwrap();
            for (i, step) in path_to(state).into_iter().enumerate() {
                let text = next_envelope(&mut store, &p, step, &format!("path-{i}"));
                store
                    .apply_json(text.as_bytes())
                    .unwrap_or_else(|e| panic!("{p} {step}: {e:?}"));
            }
            let before = store.manifest(&p).unwrap().unwrap();
            assert_eq!(before.state, state);
            let text = next_envelope(&mut store, &p, action, "probe");
            let outcome = store.apply_json(text.as_bytes());
            match state.on(action) {
                Some(to) => {
                    let applied =
                        outcome.unwrap_or_else(|e| panic!("{state} --{action}--> {to}: {e:?}"));
                    assert_eq!(
                        (applied.state, applied.revision),
                        (to, before.revision + 1),
                        "{state} --{action}-->"
                    );
                }
                None => match outcome {
                    Err(ApplyError::Refused(refusal)) => {
                        assert_eq!(
                            refusal.code,
                            EnvelopeError::IllegalTransition,
                            "{state} --{action}-->"
                        );
                        assert_eq!(
                            store.manifest(&p).unwrap().unwrap(),
                            before,
                            "refused: nothing changes"
                        );
                    }
                    other => panic!("{state} --{action}--> should be illegal: {other:?}"),
                },
            }
        }
    }
}

/// The canonical text and digest written in spec/action_envelope.md, "Canonical summary text".
fn spec_vector() -> (String, String) {
    let spec = std::fs::read_to_string(common::root().join("spec/action_envelope.md")).unwrap();
    let start = spec.find("```text\n").expect("the vector's block") + "```text\n".len();
    let end = start + spec[start..].find("```").unwrap();
    let digest_at =
        spec.find("its `canonical_sha256` is\n`").unwrap() + "its `canonical_sha256` is\n`".len();
    (
        spec[start..end].to_owned(),
        spec[digest_at..digest_at + 64].to_owned(),
    )
}

#[test]
fn canonical_summary_matches_the_spec_test_vector_byte_for_byte() {
    let (text, digest) = spec_vector();
    let db = fresh_db("vector");
    let mut store = PackageStore::open(&db).unwrap();
    let p = "pkg_demo_001";
    store
        .create(p, Some("Write the onboarding guide for new operators"))
        .unwrap();
    let steps = [
        envelope(
            "v-1",
            p,
            0,
            "record_input",
            json!({}),
            json!({"input_id": "i-1", "kind": "text", "content": "Keep it short.\nNo jargon.", "source": "operator", "disposition": "incorporated"}),
        ),
        envelope(
            "v-2",
            p,
            1,
            "record_input",
            json!({}),
            json!({"input_id": "i-2", "kind": "url", "content": "https://example.com/old-guide", "source": "adapter", "disposition": "excluded", "exclusion_reason": "outdated"}),
        ),
        envelope(
            "v-3",
            p,
            2,
            "set_objective",
            json!({}),
            json!({"statement": "A one-page guide to the \"first day\"", "desired_outcomes": ["Covers log-in and the first task", "Reviewed by Ana Lúcia"]}),
        ),
        bare("v-4", p, 3, "prepare_summary"),
    ];
    for step in &steps {
        store.apply_json(step.as_bytes()).unwrap();
    }
    let summary = store.manifest(p).unwrap().unwrap().summary.unwrap();
    assert_eq!(summary.canonical_text, text);
    assert_eq!(summary.canonical_sha256, digest);
    // The digest is of the text's UTF-8 bytes (checked against the spec, not the code).
    assert_eq!(specmint::database::sha256_hex(text.as_bytes()), digest);
}

#[test]
fn library_apply_validates_an_envelope_built_in_code() {
    let db = fresh_db("library");
    let mut store = PackageStore::open(&db).unwrap();
    store.create("pkg_a", Some("i")).unwrap();
    let mut envelope = parse(&set_objective("a-1", "pkg_a", 0));
    envelope.action_id = " ".into();
    match store.apply(&envelope) {
        Err(Failure::Refused(refusal)) => assert_eq!(refusal.code, EnvelopeError::InvalidEnvelope),
        other => panic!("{other:?}"),
    }
    envelope.action_id = "a-1".into();
    assert_eq!(store.apply(&envelope).unwrap().revision, 1);
}

/// `specmint envelope apply --store DB FILE` for each file, started at once.
fn apply_at_once(db: &Path, files: &[PathBuf]) -> Vec<(i32, Value)> {
    let args: Vec<Vec<&str>> = files
        .iter()
        .map(|file| {
            vec![
                "envelope",
                "apply",
                "--store",
                db.to_str().unwrap(),
                file.to_str().unwrap(),
            ]
        })
        .collect();
    common::specmint_json_at_once(&args)
}

fn write_file(db: &Path, name: &str, text: &str) -> PathBuf {
    let file = common::beside(db, name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn two_processes_same_revision_different_envelopes_one_applies_one_is_stale() {
    let db = fresh_db("race_stale");
    let p = "pkg_race";
    new_package(&db, p, Some("i"));
    for round in 0..5u64 {
        let files = [
            write_file(
                &db,
                "race_a.json",
                &record_input(&format!("a-{round}"), p, round, &format!("a-{round}")),
            ),
            write_file(
                &db,
                "race_b.json",
                &record_input(&format!("b-{round}"), p, round, &format!("b-{round}")),
            ),
        ];
        let outcomes = apply_at_once(&db, &files);
        let applied: Vec<_> = outcomes.iter().filter(|(code, _)| *code == 0).collect();
        let stale: Vec<_> = outcomes
            .iter()
            .filter(|(_, json)| json["code"] == json!("STALE_ACTION"))
            .collect();
        assert_eq!(
            (applied.len(), stale.len()),
            (1, 1),
            "round {round}: {outcomes:?}"
        );
        assert_eq!(applied[0].1["revision"], json!(round + 1));
    }
    let manifest = show(&db, p);
    assert_eq!(manifest["revision"], json!(5));
    assert_eq!(manifest["inputs"].as_array().unwrap().len(), 5);
}

#[test]
fn two_processes_same_envelope_one_applies_one_replays() {
    let db = fresh_db("race_replay");
    let p = "pkg_race";
    new_package(&db, p, Some("i"));
    for round in 0..5u64 {
        let file = write_file(
            &db,
            "same.json",
            &record_input(&format!("a-{round}"), p, round, &format!("i-{round}")),
        );
        let outcomes = apply_at_once(&db, &[file.clone(), file]);
        let mut replayed: Vec<Value> = outcomes
            .iter()
            .map(|(code, json)| {
                assert_eq!(*code, 0, "{json}");
                assert_eq!(json["revision"], json!(round + 1));
                json["replayed"].clone()
            })
            .collect();
        replayed.sort_by_key(|r| r.as_bool());
        assert_eq!(replayed, [json!(false), json!(true)], "round {round}");
    }
    assert_eq!(show(&db, p)["revision"], json!(5));
}

/// How the burst child is told its database (and that it is the child).
const BURST_DB: &str = "SPECMINT_TEST_BURST_DB";
const BURST_PACKAGE: &str = "pkg_burst";

/// Applies `record_input` after `record_input` to [`BURST_PACKAGE`], starting at its current
/// revision: `count` of them, or, as the SIGKILL test's child, forever, printing
/// `committed N` after each commit.
fn burst(db: &Path, count: Option<u64>) -> u64 {
    let mut store = PackageStore::open(db).unwrap();
    let mut revision = store.manifest(BURST_PACKAGE).unwrap().unwrap().revision;
    let mut stdout = std::io::stdout();
    let mut done = 0;
    while count.is_none_or(|c| done < c) {
        let id = format!("i-{revision}");
        let applied = store
            .apply_json(record_input(&id, BURST_PACKAGE, revision, &id).as_bytes())
            .unwrap();
        assert_eq!((applied.revision, applied.replayed), (revision + 1, false));
        revision = applied.revision;
        if count.is_none() {
            writeln!(stdout, "committed {revision}").unwrap();
            stdout.flush().unwrap();
        }
        done += 1;
    }
    revision
}

/// A package's consistency: one input and one recorded outcome per applied action.
fn assert_whole(db: &Path) -> u64 {
    let mut store = PackageStore::open(db).unwrap();
    let manifest = store.manifest(BURST_PACKAGE).unwrap().unwrap();
    assert_eq!(
        manifest.inputs.len() as u64,
        manifest.revision,
        "one input per apply"
    );
    assert_eq!(
        store.outcome_count(BURST_PACKAGE).unwrap(),
        manifest.revision,
        "one outcome per apply"
    );
    for (i, input) in manifest.inputs.iter().enumerate() {
        assert_eq!(input.input_id, format!("i-{i}"));
    }
    if common::postgres_query().is_none() {
        let conn = rusqlite::Connection::open(db).unwrap();
        let check: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(check, "ok");
    }
    manifest.revision
}

/// In a normal run, a burst of 40 applies in this process commits each, in order. Started by
/// the SIGKILL test with [`BURST_DB`] set, it is that test's child: it applies until killed.
#[test]
fn a_burst_of_applies_commits_each_in_order() {
    if let Some(db) = std::env::var_os(BURST_DB) {
        burst(Path::new(&db), None);
        return;
    }
    let db = fresh_db("burst");
    PackageStore::open(&db)
        .unwrap()
        .create(BURST_PACKAGE, Some("i"))
        .unwrap();
    assert_eq!(burst(&db, Some(40)), 40);
    assert_eq!(assert_whole(&db), 40);
}

#[test]
fn sigkill_mid_burst_leaves_every_committed_apply_and_nothing_half_applied() {
    let db = fresh_db("sigkill");
    PackageStore::open(&db)
        .unwrap()
        .create(BURST_PACKAGE, Some("i"))
        .unwrap();
    let mut reported = 0;
    for round in 0..4u64 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                &common::test_name(module_path!(), "a_burst_of_applies_commits_each_in_order"),
                "--exact",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(BURST_DB, &db)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let committed = |line: std::io::Result<String>| {
            line.unwrap()
                .strip_prefix("committed ")
                .map(|n| n.parse::<u64>().unwrap())
        };
        // Let this round commit a different number of applies before the kill.
        let wanted = 25 + 7 * round;
        let mut seen = 0;
        for n in lines.by_ref().filter_map(committed) {
            reported = n;
            seen += 1;
            if seen == wanted {
                break;
            }
        }
        child.kill().unwrap(); // SIGKILL on Unix
        let status = child.wait().unwrap();
        assert!(!status.success(), "the child was killed, not finished");
        // The child went on committing until the kill landed: what it reported meanwhile is
        // still in the pipe (it reports each commit once it is committed).
        if let Some(n) = lines.filter_map(committed).last() {
            reported = n;
        }
        let revision = assert_whole(&db);
        // Every reported commit is there; at most the one in flight is there unreported.
        assert!(
            revision == reported || revision == reported + 1,
            "revision {revision}, reported {reported}"
        );
        reported = revision;
    }
}

#[test]
fn a_shape_violation_outranks_a_payload_violation_and_every_message_is_kept() {
    let db = fresh_db("precedence");
    new_package(&db, "pkg_a", Some("i"));
    let both = envelope(
        " ",
        "pkg_a",
        0,
        "set_objective",
        json!({}),
        json!({"statement": " "}),
    );
    let message = assert_refused(apply(&db, &both), "INVALID_ENVELOPE");
    assert!(
        message.contains("`action_id`") && message.contains("`payload.statement`"),
        "{message}"
    );
}

#[test]
fn set_objective_replaces_and_cancel_records_its_reason() {
    let db = fresh_db("objective_cancel");
    let p = "pkg_a";
    new_package(&db, p, Some("i"));
    apply(&db, &set_objective("a-1", p, 0));
    let second = envelope(
        "a-2",
        p,
        1,
        "set_objective",
        json!({}),
        json!({"statement": "the second", "desired_outcomes": ["o"]}),
    );
    assert_eq!(apply(&db, &second), applied(2, "INTAKE", false, p));
    assert_eq!(
        show(&db, p)["objective"],
        json!({"statement": "the second", "desired_outcomes": ["o"]})
    );
    let cancel = envelope(
        "a-3",
        p,
        2,
        "cancel",
        json!({}),
        json!({"reason": "superseded"}),
    );
    assert_eq!(apply(&db, &cancel), applied(3, "CANCELLED", false, p));
    assert_eq!(show(&db, p)["cancel_reason"], json!("superseded"));
    // Cancelled is final: even cancel is illegal now.
    assert_refused(
        apply(&db, &bare("a-4", p, 3, "cancel")),
        "ILLEGAL_TRANSITION",
    );
}
