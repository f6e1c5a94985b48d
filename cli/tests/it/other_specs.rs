//! Action Envelope v0.1, Task Envelopes and TaskPack 0.1 through the same pipeline: the
//! acceptance cases of each, by their exact codes and paths.

use crate::common;

use specmint::bundled;

fn verdict(cli_name: &str, input: &str) -> Vec<(String, String)> {
    let spec = bundled::find(cli_name).unwrap();
    match spec.validate(input.as_bytes(), None) {
        Ok(_) => Vec::new(),
        Err(report) => report
            .iter()
            .map(|v| (v.code.to_string(), v.path.clone()))
            .collect(),
    }
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(c, p)| ((*c).to_owned(), (*p).to_owned()))
        .collect()
}

const ENVELOPE: &str = r#"{
  "protocol_version": "0.1",
  "action_id": "act_01HXYZ",
  "package_id": "pkg_demo_001",
  "expected_revision": 7,
  "action": "confirm_summary",
  "basis": { "summary_sha256": "abc123" },
  "payload": { "operator_id": "vincent" }
}"#;

#[test]
fn action_envelope_validates_bare_and_wrapped_in_prose() {
    assert_eq!(verdict("action-envelope", ENVELOPE), []);
    let wrapped = format!("Sure! Here is the envelope you asked for:\n\n```json\n{ENVELOPE}\n```\nLet me know {{if}} that works.");
    // The closing `}` of the prose is the last one, so the extracted text is not JSON.
    assert_eq!(
        verdict("action-envelope", &wrapped),
        pairs(&[("INVALID_ENVELOPE", "")])
    );
    let wrapped = format!("Sure! Here is the envelope you asked for:\n\n```json\n{ENVELOPE}\n```\nLet me know if that works.");
    assert_eq!(verdict("action-envelope", &wrapped), []);
}

#[test]
fn action_envelope_refusals() {
    let with = |from: &str, to: &str| ENVELOPE.replace(from, to);
    assert_eq!(
        verdict("action-envelope", &with("pkg_demo_001", "pkg_")),
        pairs(&[("INVALID_ENVELOPE", "package_id")])
    );
    assert_eq!(
        verdict("action-envelope", &format!("{ENVELOPE}\n{ENVELOPE}")),
        pairs(&[("INVALID_ENVELOPE", "")])
    );
    let set_objective = r#"{"protocol_version":"0.1","action_id":"a","package_id":"pkg_a","expected_revision":1,"action":"set_objective","basis":{},"payload":{"statement":"s","colour":"red"}}"#;
    assert_eq!(
        verdict("action-envelope", set_objective),
        pairs(&[("INVALID_ENVELOPE", "payload.colour")])
    );
    for (revision, why) in [
        ("-1", "negative"),
        ("7.5", "float"),
        ("\"7\"", "string"),
        ("true", "bool"),
    ] {
        let got = verdict(
            "action-envelope",
            &with(
                "\"expected_revision\": 7",
                &format!("\"expected_revision\": {revision}"),
            ),
        );
        assert_eq!(
            got,
            pairs(&[("INVALID_ENVELOPE", "expected_revision")]),
            "{why}"
        );
    }
    assert_eq!(
        verdict(
            "action-envelope",
            &with("confirm_summary", "delete_everything")
        ),
        pairs(&[("INVALID_ENVELOPE", "action")])
    );
    assert_eq!(
        verdict("action-envelope", "no json here"),
        pairs(&[("INVALID_ENVELOPE", "")])
    );
    assert_eq!(
        verdict("action-envelope", "[1, 2]"),
        pairs(&[("INVALID_ENVELOPE", "")])
    );
    assert_eq!(
        verdict("action-envelope", &with("act_01HXYZ", &"x".repeat(65))),
        pairs(&[("INVALID_ENVELOPE", "action_id")])
    );
}

#[test]
fn action_envelope_payload_semantics_are_invalid_payload() {
    let draft = |path: &str| {
        format!(
            r#"{{"protocol_version":"0.1","action_id":"a","package_id":"pkg_a","expected_revision":1,"action":"record_draft_artifact","basis":{{}},"payload":{{"artifact_id":"d","kind":"md","logical_path":{},"content":"x"}}}}"#,
            serde_json::to_string(path).unwrap()
        )
    };
    assert_eq!(verdict("action-envelope", &draft("docs/draft.md")), []);
    for bad in [
        "/etc/passwd",
        "../up",
        "a/../../b",
        "C:\\x",
        "\\\\server\\share",
        "",
    ] {
        assert_eq!(
            verdict("action-envelope", &draft(bad)),
            pairs(&[("INVALID_PAYLOAD", "payload.logical_path")]),
            "{bad:?}"
        );
    }
}

#[test]
fn task_envelope_reports_each_missing_field_by_name() {
    let input = r#"{"outputFormat":"a diff","toolAndSourceGuidance":"git","boundaries":["no pushes"],"filesAndInterfaces":["a.rs"],"acceptanceCheck":{"endToEndVerification":"run it"},"contextID":"c-1"}"#;
    assert_eq!(
        verdict("task-envelope", input),
        pairs(&[
            ("objective_required", "objective"),
            (
                "acceptance_check_command_required",
                "acceptanceCheck.passFailCommand"
            ),
        ])
    );
    // Blank counts as missing.
    let blank = input.replace(r#"{"outputFormat""#, r#"{"objective":"  ","outputFormat""#);
    assert_eq!(
        verdict("task-envelope", &blank)[0],
        ("objective_required".to_owned(), "objective".to_owned())
    );
}

#[test]
fn taskpack_refusals_name_the_ask_the_version_and_the_attachment() {
    let pack = |asks: &str, version: &str, attachments: &str| {
        format!(
            r#"{{"taskpack":"{version}","encoding":"flat","passport":{{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z","lineage":{{"root_id":"TP-1","from_version":1}},"passport":{{"goal":"g"}},"asks":[{asks}]}},"attachments":[{attachments}]}}"#
        )
    };
    let good_ask = r#"{"id":"a1","what":"w","accept":"yes"}"#;
    let good_file = r#"{"name":"brief.txt","encoding":"utf8","sha256":"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9","bytes":11,"data":"hello world"}"#;
    assert_eq!(verdict("taskpack", &pack(good_ask, "0.1", good_file)), []);

    let no_accept = format!(r#"{good_ask},{{"id":"a2","what":"w"}}"#);
    let report = bundled::find("taskpack")
        .unwrap()
        .validate(pack(&no_accept, "0.1", "").as_bytes(), None)
        .unwrap_err();
    assert_eq!(report.len(), 1);
    assert_eq!(report.as_slice()[0].code, "ask_without_accept");
    assert_eq!(report.as_slice()[0].path, "passport.asks[1].accept");

    let report = bundled::find("taskpack")
        .unwrap()
        .validate(pack(good_ask, "9.9", "").as_bytes(), None)
        .unwrap_err();
    assert_eq!(report.as_slice()[0].code, "unknown_version");
    assert_eq!(report.as_slice()[0].path, "taskpack");
    assert!(
        report.as_slice()[0].message.contains("9.9"),
        "{}",
        report.as_slice()[0].message
    );

    let tampered = good_file.replace("hello world", "hello there");
    let report = bundled::find("taskpack")
        .unwrap()
        .validate(pack(good_ask, "0.1", &tampered).as_bytes(), None)
        .unwrap_err();
    assert_eq!(report.as_slice()[0].code, "attachment_mismatch");
    assert_eq!(report.as_slice()[0].path, "attachments[0].sha256");
    assert!(
        report.as_slice()[0].message.contains("brief.txt"),
        "{}",
        report.as_slice()[0].message
    );

    let base64 = r#"{"name":"logo.bin","encoding":"base64","bytes":3,"data":"AAE*"}"#;
    assert_eq!(
        verdict("taskpack", &pack(good_ask, "0.1", base64))[0].0,
        "attachment_mismatch"
    );
}

#[test]
fn fact_scope_defaults_to_machine() {
    let input = r#"{"taskpack":"0.1","encoding":"flat","passport":{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z","lineage":{"root_id":"TP-1","from_version":1},"passport":{"goal":"g","facts":[{"claim":"it builds"}]}}}"#;
    let pack = specmint::taskpack::FlatTaskPack::from_json_str(input).unwrap();
    assert_eq!(
        pack.passport.passport.facts[0].scope,
        specmint::taskpack::FactScope::Machine
    );
}

/// The task state and its facts are open, a decision is any value (spec/taskpack.md): listed members are
/// typed and checked, the others come back verbatim, in their order, after the listed ones.
#[test]
fn taskpack_open_objects_keep_unlisted_members_verbatim_in_order() {
    use specmint::runtime::json::Json;
    let input = r#"{"taskpack":"0.1","encoding":"flat","passport":{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z","lineage":{"root_id":"TP-1","from_version":1},"passport":{"zeta":{"b":1,"a":[2.50,{"y":null,"x":"é"}]},"goal":"g","id":"TP-1","facts":[{"claim":"c","at":"here","scope":"org"}],"alpha":true,"decisions":[{"what":"w","why":"y","by":"ds"}]}}}"#;
    let pack = specmint::taskpack::FlatTaskPack::from_json_str(input).unwrap();
    let state = &pack.passport.passport;
    assert_eq!(state.goal.as_deref(), Some("g"));
    let keys: Vec<&str> = state
        .unlisted_members
        .0
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(keys, ["zeta", "id", "alpha"]);
    assert_eq!(
        state.unlisted_members.get("id"),
        Some(&Json::Str("TP-1".into()))
    );
    assert_eq!(state.facts[0].unlisted_members.0[0].0, "at");
    // A decision is any value (spec/taskpack.md, *Decisions*): kept whole.
    assert_eq!(state.decisions[0].get("by"), Some(&Json::Str("ds".into())));
    let written = serde_json::to_string(&pack.passport.passport).unwrap();
    assert_eq!(
        written,
        r#"{"goal":"g","facts":[{"claim":"c","scope":"org","at":"here"}],"decisions":[{"what":"w","why":"y","by":"ds"}],"zeta":{"b":1,"a":[2.5,{"y":null,"x":"é"}]},"id":"TP-1","alpha":true}"#
    );
    // A listed member is still checked there, and a forbidden key is still refused.
    let blank = input.replace(r#""claim":"c""#, r#""claim":" ""#);
    assert_eq!(
        verdict("taskpack", &blank),
        [(
            "blank_field".to_owned(),
            "passport.passport.facts[0].claim".to_owned()
        )]
    );
    let hidden = input.replace(r#""alpha":true"#, r#""messages":[]"#);
    assert_eq!(
        verdict("taskpack", &hidden),
        [(
            "forbidden_field".to_owned(),
            "passport.passport.messages".to_owned()
        )]
    );
}

/// A flat pack may start with a byte order mark and be far over 1 MiB (spec/taskpack.md).
#[test]
fn taskpack_reads_a_bom_and_a_large_flat_pack() {
    let big = "a".repeat(3 << 20);
    let input = String::from("\u{feff}")
        + r#"{"taskpack":"0.1","encoding":"flat","passport":{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z","lineage":{"root_id":"TP-1","from_version":1},"passport":{"current_state":""#
        + &big
        + r#""}}}"#;
    assert!(input.len() > 3 << 20);
    assert_eq!(verdict("taskpack", &input), []);
    assert_eq!(specmint::taskpack::DOCUMENT.max_input_bytes, 256 << 20);
}

#[test]
fn transition_tables_generate_state_machines() {
    use specmint::action_envelope::{Action, PackageState};
    use specmint::task_envelope::TaskState;

    assert_eq!(
        PackageState::Intake.on(Action::PrepareSummary),
        Some(PackageState::SummaryPending)
    );
    assert_eq!(PackageState::Intake.on(Action::ConfirmSummary), None);
    assert_eq!(
        PackageState::AuthoringAuthorized.on(Action::ReviseIntake),
        Some(PackageState::Intake)
    );
    // `*` is every non-terminal state: cancel works from each of them and from nothing terminal.
    for state in PackageState::ALL {
        let cancelled = state.on(Action::Cancel);
        assert_eq!(cancelled.is_some(), !state.is_terminal(), "{state}");
    }
    assert_eq!(PackageState::TERMINAL, &[PackageState::Cancelled]);
    assert!(PackageState::Cancelled.is_terminal());
    assert_eq!(PackageState::SummaryPending.to_string(), "SUMMARY_PENDING");

    assert!(TaskState::Submitted.can_transition(TaskState::Working));
    assert!(TaskState::InputRequired.can_transition(TaskState::Working));
    assert!(!TaskState::Submitted.can_transition(TaskState::Completed));
    // Terminal states have no outgoing edges, so a finished task cannot be reopened.
    for terminal in TaskState::TERMINAL {
        for to in TaskState::ALL {
            assert!(!terminal.can_transition(*to), "{terminal} -> {to}");
        }
    }
    assert_eq!(TaskState::TERMINAL.len(), 4);
    let diagram = std::fs::read_to_string(
        common::root().join("generated/diagrams/task_envelope.task_state.mmd"),
    )
    .unwrap();
    assert!(diagram.contains("stateDiagram-v2"));
    assert!(diagram.contains("Working --> Completed"));
    assert!(diagram.contains("Rejected --> [*]"));
}

#[test]
fn human_output_points_into_the_prose_around_an_extracted_envelope() {
    let input = "Here you go:\n  {\"protocol_version\":\"0.1\",\"action_id\":\"a\",\"package_id\":\"pkg_\",\"expected_revision\":1,\"action\":\"cancel\",\"basis\":{},\"payload\":{}}\nthanks";
    let out = common::specmint(&["validate", "action-envelope", "-"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let column = input.lines().nth(1).unwrap().find("\"pkg_\"").unwrap() + 1;
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "<stdin>:2:{column}: error[INVALID_ENVELOPE]: `package_id` `pkg_` does not match `^pkg_[A-Za-z0-9_-]{{1,63}}$`\n<stdin>: invalid action-envelope (1 error)\n"
        )
    );
}

/// An input over the reader's size limit is refused unparsed with the spec's own size code
/// (the code of its document byte cap) where it has one, else with its parse code.
#[test]
fn oversized_input_gets_each_specs_own_size_code() {
    let codes: Vec<(&str, &str, &str)> = bundled::ALL
        .iter()
        .map(|b| {
            (
                b.cli_name,
                b.document.too_large_code,
                b.document.parse_error_code,
            )
        })
        .collect();
    assert_eq!(
        codes,
        [
            ("action-envelope", "INVALID_ENVELOPE", "INVALID_ENVELOPE"),
            (
                "task-envelope",
                "invalid_task_envelope",
                "invalid_task_envelope"
            ),
            ("task-packet", "packet_too_large", "invalid_packet"),
            ("taskpack", "invalid_taskpack", "invalid_taskpack"),
        ]
    );
    for b in bundled::ALL {
        let report = b.validate(b"{}", Some(1)).unwrap_err();
        assert_eq!(report.len(), 1);
        let v = &report.as_slice()[0];
        assert_eq!((&*v.code, v.path.as_str()), (b.document.too_large_code, ""));
        assert_eq!((v.measured, v.limit), (Some(2), Some(1)));
        let out = common::specmint(
            &[
                "validate",
                b.cli_name,
                "-",
                "--format",
                "json",
                "--max-input-bytes",
                "1",
            ],
            b"{}",
        );
        assert_eq!(out.status.code(), Some(1), "{}", b.cli_name);
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            common::codes_and_paths(&verdict),
            [(b.document.too_large_code.to_owned(), String::new())]
        );
    }
}
