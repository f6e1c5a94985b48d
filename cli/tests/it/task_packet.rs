//! TaskPacket v1.0 end to end: the library entry point and the CLI on the spec's own cases.

use crate::common;

use common::{codes_and_paths, constraints, packet_with, specmint, validate_json};
use specmint::task_packet::{
    self, AcceptanceKind, OutputFormat, PacketError, Role, TaskPacket, CONSTRAINT_TEXT_MAX_CHARS,
    FULL_PACKET_EXAMPLE, FULL_PACKET_WRITTEN, MINIMAL_PACKET_EXAMPLE, MINIMAL_PACKET_WRITTEN,
    TASK_PACKET_MAX_BYTES,
};

fn pairs(report: &specmint::Report) -> Vec<(&str, &str)> {
    report.iter().map(|v| (&*v.code, v.path.as_str())).collect()
}

#[test]
fn minimal_packet_is_valid_and_round_trips_to_itself_tagged() {
    let packet = TaskPacket::from_json_str(MINIMAL_PACKET_EXAMPLE).unwrap();
    assert_eq!(packet.from_role, Role::Planner);
    assert_eq!(packet.to_role, Role::Executor);
    assert_eq!(packet.output_format, OutputFormat::Markdown);
    // Written tagged, with `fidelity` and `irreversible` at their defaults (as the reference
    // writes it; spec/task_packet.md, "The packet as written").
    let expected = MINIMAL_PACKET_EXAMPLE
        .replace(
            r#""output_format":"markdown""#,
            r#""output_format":{"kind":"markdown"}"#,
        )
        .strip_suffix('}')
        .map(|head| format!(r#"{head},"fidelity":"none","irreversible":false}}"#))
        .unwrap();
    assert_eq!(packet.to_canonical_json(), expected);
    let (code, verdict) = validate_json(MINIMAL_PACKET_EXAMPLE);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(
        verdict,
        serde_json::json!({"valid": true, "type": "task-packet", "file": "<stdin>", "errors": []})
    );
}

#[test]
fn constraint_text_of_240_chars_is_field_too_long_at_its_index() {
    let input = packet_with(&constraints(5, 3, &"x".repeat(240)));
    let (code, verdict) = validate_json(&input);
    assert_eq!(code, 1);
    assert_eq!(verdict["valid"], false);
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{verdict}");
    assert_eq!(errors[0]["code"], "field_too_long");
    assert_eq!(errors[0]["path"], "constraints[3].text");
    assert_eq!(errors[0]["pointer"], "/constraints/3/text");
    assert_eq!(
        errors[0]["message"],
        "`constraints[3].text` is 240 chars (max 200)"
    );
    assert_eq!(errors[0]["measured"], 240);
    assert_eq!(errors[0]["limit"], 200);
}

#[test]
fn char_caps_count_unicode_scalar_values_not_bytes_or_utf16_units() {
    assert_eq!(CONSTRAINT_TEXT_MAX_CHARS, 200);
    // CJK: 3 bytes each in UTF-8; astral emoji: 4 bytes, 2 UTF-16 units each.
    for unit in ["合", "😀", "é"] {
        for (n, valid) in [(199, true), (200, true), (201, false)] {
            let input = packet_with(&constraints(1, 0, &unit.repeat(n)));
            let result = TaskPacket::from_json_str(&input);
            assert_eq!(result.is_ok(), valid, "{n} × {unit}");
            if let Err(report) = result {
                assert_eq!(pairs(&report), [("field_too_long", "constraints[0].text")]);
                assert_eq!(report.as_slice()[0].measured, Some(201));
            }
        }
    }
}

#[test]
fn forbidden_provider_key_is_named_at_its_path() {
    let input =
        packet_with(r#","findings":[{"text":"t","evidence":["a-1"],"reasoning":"hidden"}]"#);
    let (code, verdict) = validate_json(&input);
    assert_eq!(code, 1);
    assert_eq!(
        codes_and_paths(&verdict),
        [(
            "forbidden_provider_field".to_owned(),
            "findings[0].reasoning".to_owned()
        )]
    );
    assert_eq!(verdict["errors"][0]["pointer"], "/findings/0/reasoning");
    assert!(verdict["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("reasoning"));
}

#[test]
fn every_forbidden_key_is_reported_wherever_it_is() {
    let input = packet_with(
        r#","messages":[],"budget":{"thinking":1},"tool_scope":{"allowed":[],"functionCall":{}}"#,
    );
    let report = TaskPacket::from_json_str(&input).unwrap_err();
    assert_eq!(
        pairs(&report),
        [
            ("forbidden_provider_field", "messages"),
            ("forbidden_provider_field", "budget.thinking"),
            ("forbidden_provider_field", "tool_scope.functionCall"),
        ]
    );
}

#[test]
fn short_output_format_is_trimmed_case_insensitive_and_written_tagged() {
    let input = packet_with("").replace(
        r#""output_format":"markdown""#,
        r#""output_format":" JSON ""#,
    );
    let packet = TaskPacket::from_json_str(&input).unwrap();
    assert_eq!(packet.output_format, OutputFormat::Json { schema: None });
    let written: serde_json::Value = serde_json::from_str(&packet.to_canonical_json()).unwrap();
    assert_eq!(
        written["output_format"],
        serde_json::json!({"kind": "json", "schema": null})
    );
    for bad in [
        r#""jsonx""#,
        r#""js on""#,
        r#""""#,
        r#"{"kind":"JSON"}"#,
        r#"{"kind":"markdown","schema":null}"#,
    ] {
        let input = packet_with("").replace(r#""markdown""#, bad);
        let report = TaskPacket::from_json_str(&input).unwrap_err();
        assert_eq!(report.len(), 1, "{bad}");
        assert_eq!(report.as_slice()[0].code, "invalid_packet", "{bad}");
    }
}

#[test]
fn every_violation_is_reported_in_document_order() {
    let input = r#"{"packet_id":" ","goal_id":"g","round":1,"from_role":"verifier","to_role":"verifier",
        "objective":"o","output_format":"diff","constraints":[{"id":"a","text":"x"},{"id":"A","text":""}],
        "audience":["", "ok"],"acceptance":[{"kind":"must_use_tools","value":"Grep"},{"kind":"must_not_use_tools","value":"grep"}]}"#;
    let report = TaskPacket::from_json_str(input).unwrap_err();
    assert_eq!(
        pairs(&report),
        [
            ("blank_field", "packet_id"),
            ("blank_field", "constraints[1].text"),
            ("duplicate_constraint_id", "constraints[1].id"),
            ("blank_field", "audience[0]"),
            ("contradictory_assertion", "acceptance[1].value"),
            ("self_handoff", "to_role"),
        ]
    );
    assert_eq!(
        report.as_slice()[0].message,
        "`packet_id` must not be blank"
    );
    assert_eq!(
        report.as_slice()[3].message,
        "`audience[0]` must not be blank"
    );
}

#[test]
fn per_kind_acceptance_cap_counts_each_kind_separately() {
    let item = |kind: &str, i: usize| format!(r#"{{"kind":"{kind}","value":"v{i}"}}"#);
    let six_each: Vec<String> = (0..6)
        .flat_map(|i| [item("must_use_tools", i), item("output_contains", i)])
        .collect();
    let input = packet_with(&format!(r#","acceptance":[{}]"#, six_each.join(",")));
    assert!(
        TaskPacket::from_json_str(&input).is_ok(),
        "6 per kind is the cap, 12 in all is fine"
    );
    let seven: Vec<String> = (0..7).map(|i| item("must_use_tools", i)).collect();
    let input = packet_with(&format!(r#","acceptance":[{}]"#, seven.join(",")));
    let report = TaskPacket::from_json_str(&input).unwrap_err();
    assert_eq!(pairs(&report), [("too_many_items", "acceptance")]);
    assert_eq!(
        report.as_slice()[0].message,
        "`acceptance` has 7 items of kind `must_use_tools` (max 6)"
    );
    assert_eq!(AcceptanceKind::ALL.len(), 4);
}

#[test]
fn byte_cap_is_measured_on_the_normalized_compact_packet() {
    // One big boundary string sized so the compact canonical packet is exactly at the cap.
    let base = TaskPacket::from_json_str(&packet_with(r#","boundaries":[""]"#)).unwrap();
    let base_len = base.to_canonical_json().len();
    let at_cap = TASK_PACKET_MAX_BYTES - base_len;
    let input = packet_with(&format!(r#","boundaries":["{}"]"#, "b".repeat(at_cap)));
    let packet = TaskPacket::from_json_str(&input).unwrap();
    assert_eq!(packet.to_canonical_json().len(), TASK_PACKET_MAX_BYTES);
    // Whitespace in the input does not count: the same packet pretty-printed and indented
    // further is over the cap as text but not as a normalized packet.
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&input).unwrap())
            .unwrap()
            .replace('\n', &format!("\n{}", " ".repeat(16)));
    assert!(pretty.len() > TASK_PACKET_MAX_BYTES);
    assert!(TaskPacket::from_json_str(&pretty).is_ok());
    let over = packet_with(&format!(r#","boundaries":["{}"]"#, "b".repeat(at_cap + 1)));
    let report = TaskPacket::from_json_str(&over).unwrap_err();
    assert_eq!(pairs(&report), [("packet_too_large", "")]);
    assert_eq!(
        report.as_slice()[0].measured,
        Some(TASK_PACKET_MAX_BYTES as u64 + 1)
    );
    assert_eq!(
        report.as_slice()[0].limit,
        Some(TASK_PACKET_MAX_BYTES as u64)
    );
}

#[test]
fn parse_errors_are_invalid_packet_with_serdes_message() {
    for (input, needle) in [
        ("not json", "expected ident"),
        ("[]", "invalid type: sequence"),
        (
            r#"["pk-1","t-1",1,"planner","executor","o","markdown"]"#,
            "invalid type: sequence",
        ),
        (
            &packet_with(r#","objectives":"x""#) as &str,
            "unknown field `objectives`",
        ),
        (
            &packet_with(r#","round":2"#) as &str,
            "duplicate field `round`",
        ),
    ] {
        let report = TaskPacket::from_json_str(input).unwrap_err();
        assert_eq!(report.len(), 1, "{input}");
        assert_eq!(report.as_slice()[0].code, "invalid_packet", "{input}");
        assert!(
            report.as_slice()[0].message.contains(needle),
            "{input}: {}",
            report.as_slice()[0].message
        );
    }
    // Several shape problems: serde's message first, then every other one, each at its path.
    let report = TaskPacket::from_json_str(r#"{"packet_id":"p"}"#).unwrap_err();
    let got: Vec<(&str, &str, &str)> = report
        .iter()
        .map(|v| (&*v.code, v.path.as_str(), v.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "invalid_packet",
                "",
                "missing field `goal_id` at line 1 column 17"
            ),
            ("invalid_packet", "round", "`round` is required but missing"),
            (
                "invalid_packet",
                "from_role",
                "`from_role` is required but missing"
            ),
            (
                "invalid_packet",
                "to_role",
                "`to_role` is required but missing"
            ),
            (
                "invalid_packet",
                "objective",
                "`objective` is required but missing"
            ),
            (
                "invalid_packet",
                "output_format",
                "`output_format` is required but missing"
            ),
        ]
    );
}

#[test]
fn error_enum_holds_the_specs_codes() {
    let codes: Vec<&str> = PacketError::ALL.iter().map(|e| e.code()).collect();
    assert_eq!(
        codes,
        [
            "invalid_packet",
            "forbidden_provider_field",
            "blank_field",
            "field_too_long",
            "too_many_items",
            "duplicate_constraint_id",
            "contradictory_assertion",
            "self_handoff",
            "packet_too_large",
            // The team_handoff tool's own refusals (the spec's engine codes).
            "missing_packet",
            "not_a_team_member",
            "team_member_unreadable",
            "from_role_mismatch",
            "task_id_mismatch",
            "round_mismatch",
            "invalid_handoff_edge",
            "invalid_path_component",
            "write_failed",
            "invalid_agent_id",
            // Reading a leg back (the composer).
            "no_valid_packets"
        ]
    );
    assert_eq!(
        PacketError::from_code("self_handoff"),
        Some(PacketError::SelfHandoff)
    );
    assert_eq!(PacketError::from_code("nope"), None);
    assert_eq!(task_packet::FORBIDDEN_KEYS.len(), 9);
}

#[test]
fn human_output_points_into_the_input_file() {
    let dir = std::env::temp_dir().join(format!("specmint-human-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("packet.json");
    let text = packet_with(&constraints(4, 3, &"字".repeat(240)))
        .replace(",\"constraints\"", ",\n  \"constraints\"");
    std::fs::write(&file, &text).unwrap();
    let out = specmint(&["validate", "task-packet", file.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().nth(1).unwrap();
    let column = line[..line.find("字").unwrap() - 1].chars().count() + 1;
    assert_eq!(
        stdout,
        format!(
            "{f}:2:{column}: error[field_too_long]: `constraints[3].text` is 240 chars (max 200)\n{f}: invalid task-packet (1 error)\n",
            f = file.display()
        )
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cli_exit_codes_and_usage() {
    assert_eq!(
        specmint(
            &["validate", "task-packet", "-"],
            MINIMAL_PACKET_EXAMPLE.as_bytes()
        )
        .status
        .code(),
        Some(0)
    );
    assert_eq!(
        specmint(&["validate", "task-packet", "-"], b"{}")
            .status
            .code(),
        Some(1)
    );
    for args in [
        &["validate", "no-such-type", "-"][..],
        &["validate", "task-packet"],
        &["validate", "task-packet", "/no/such/file.json"],
        &["validate", "task-packet", "-", "--format", "xml"],
        &["frobnicate"],
        &[],
    ] {
        let out = specmint(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    let help = specmint(&["--help"], b"");
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8(help.stdout)
        .unwrap()
        .ends_with("TYPE: action-envelope | task-envelope | task-packet | taskpack\n"));
    let out = specmint(&["schema", "task-packet"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        task_packet::JSON_SCHEMA
    );
}

#[test]
fn input_size_limit_is_configurable_and_checked_before_parsing() {
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "-",
            "--format",
            "json",
            "--max-input-bytes",
            "16",
        ],
        MINIMAL_PACKET_EXAMPLE.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Over the size the reader takes in is the spec's size code, not "not the shape".
    assert_eq!(
        codes_and_paths(&verdict),
        [("packet_too_large".to_owned(), String::new())]
    );
    assert_eq!(verdict["errors"][0]["limit"], 16);
    assert_eq!(
        verdict["errors"][0]["message"],
        format!(
            "the packet is {} bytes (max 16) and was not parsed",
            MINIMAL_PACKET_EXAMPLE.len()
        )
    );
}

#[test]
fn blank_is_refused_only_where_the_spec_says_non_blank() {
    // The reference accepts a blank artifact id, finding text and parent packet; the spec
    // states no rule for them, so neither the validator nor the CLI refuses them.
    for blank in ["", " ", "\u{3000}"] {
        let b = serde_json::to_string(blank).unwrap();
        let input = packet_with(&format!(
            r#","parent_packet":{b},"artifacts":[{{"id":{b}}}],"findings":[{{"text":{b},"evidence":[]}}]"#
        ));
        let packet = TaskPacket::from_json_str(&input).unwrap_or_else(|r| panic!("{b}: {r}"));
        assert_eq!(packet.parent_packet.as_deref(), Some(blank));
        assert_eq!(packet.artifacts[0].id, blank);
        assert_eq!(packet.findings[0].text, blank);
        let (code, verdict) = validate_json(&input);
        assert_eq!(
            (code, &verdict["valid"]),
            (0, &serde_json::json!(true)),
            "{verdict}"
        );
    }
    // Where the spec says non-blank, blank is still refused, each at its own path.
    let input = packet_with(
        r#","constraints":[{"id":" ","text":""}],"audience":[" "],"acceptance":[{"kind":"output_contains","value":"　"}]"#,
    )
    .replace(r#""goal_id":"t-1""#, r#""goal_id":"""#);
    let (code, verdict) = validate_json(&input);
    assert_eq!(code, 1);
    assert_eq!(
        codes_and_paths(&verdict),
        [
            ("blank_field".to_owned(), "goal_id".to_owned()),
            ("blank_field".to_owned(), "constraints[0].id".to_owned()),
            ("blank_field".to_owned(), "constraints[0].text".to_owned()),
            ("blank_field".to_owned(), "audience[0]".to_owned()),
            ("blank_field".to_owned(), "acceptance[0].value".to_owned()),
        ]
    );
}

#[test]
fn tool_scope_and_budget_are_objects_never_null() {
    // The spec types both without `?`, and the reference refuses `null` with invalid_packet.
    for (field, expected) in [("tool_scope", "ToolScope"), ("budget", "Budget")] {
        let input = packet_with(&format!(r#","{field}":null"#));
        let report = TaskPacket::from_json_str(&input).unwrap_err();
        assert_eq!(pairs(&report), [("invalid_packet", field)]);
        assert_eq!(report.as_slice()[0].pointer, format!("/{field}"));
        assert!(
            report.as_slice()[0]
                .message
                .starts_with(&format!("invalid type: null, expected struct {expected}")),
            "{}",
            report.as_slice()[0].message
        );
        let (code, verdict) = validate_json(&input);
        assert_eq!(code, 1);
        assert_eq!(
            codes_and_paths(&verdict),
            [("invalid_packet".to_owned(), field.to_owned())]
        );
    }
    // Absent, `{}` or all members at their defaults: the same packet, and not written.
    let absent = TaskPacket::from_json_str(&packet_with("")).unwrap();
    for extra in [
        r#","tool_scope":{},"budget":{}"#,
        r#","tool_scope":{"allowed":[],"denied":[]},"budget":{"max_turns":null}"#,
    ] {
        let packet = TaskPacket::from_json_str(&packet_with(extra)).unwrap();
        assert_eq!(packet, absent, "{extra}");
        let written = packet.to_canonical_json();
        assert!(
            !written.contains("tool_scope") && !written.contains("budget"),
            "{written}"
        );
    }
    let packet = TaskPacket::from_json_str(&packet_with(r#","budget":{"max_turns":3}"#)).unwrap();
    assert_eq!(packet.budget.max_turns, Some(3));
    assert!(packet
        .to_canonical_json()
        .contains(r#""budget":{"max_turns":3}"#));
}

/// The minimal packet of the spec with goal_id `task-1`, as a caller sends it.
fn minimal_task_1() -> String {
    MINIMAL_PACKET_EXAMPLE.replace("<your task_id>", "task-1")
}

#[test]
fn the_spec_examples_are_written_as_the_reference_writes_them() {
    let minimal = TaskPacket::from_json_str(&minimal_task_1()).unwrap();
    assert_eq!(minimal.to_canonical_json(), MINIMAL_PACKET_WRITTEN);
    assert_eq!(
        MINIMAL_PACKET_WRITTEN,
        r#"{"packet_id":"pk-1","goal_id":"task-1","round":1,"from_role":"planner","to_role":"executor","objective":"one sentence: what the next role must do","output_format":{"kind":"markdown"},"fidelity":"none","irreversible":false}"#
    );
    let full = TaskPacket::from_json_str(FULL_PACKET_EXAMPLE).unwrap();
    assert_eq!(full.to_canonical_json(), FULL_PACKET_WRITTEN);
    assert_eq!(FULL_PACKET_WRITTEN.len(), 1347);
    // The written form is a packet that is written as itself.
    for written in [MINIMAL_PACKET_WRITTEN, FULL_PACKET_WRITTEN] {
        let again = TaskPacket::from_json_str(written).unwrap();
        assert_eq!(again.to_canonical_json(), written);
    }
}

#[test]
fn members_are_written_at_their_defaults_where_the_reference_writes_them() {
    let written = |extra: &str| {
        TaskPacket::from_json_str(&packet_with(extra))
            .unwrap()
            .to_canonical_json()
    };
    // `fidelity` and `irreversible` always, last but for `budget` between them.
    assert!(written("").ends_with(r#","fidelity":"none","irreversible":false}"#));
    assert!(written(r#","irreversible":true,"budget":{"max_turns":2}"#)
        .ends_with(r#","fidelity":"none","budget":{"max_turns":2},"irreversible":true}"#));
    // A written tool_scope carries both lists; an empty one is not written.
    assert!(written(r#","tool_scope":{"denied":["mail_send"]}"#)
        .contains(r#","tool_scope":{"allowed":[],"denied":["mail_send"]},"#));
    assert!(!written(r#","tool_scope":{"allowed":[]}"#).contains("tool_scope"));
    // `json` is written with its schema, null or not.
    let json = packet_with("").replace(r#""markdown""#, r#"{"kind":"json"}"#);
    assert!(TaskPacket::from_json_str(&json)
        .unwrap()
        .to_canonical_json()
        .contains(r#""output_format":{"kind":"json","schema":null},"#));
}

/// The spec's cap vector: the minimal packet (goal_id `task-1`) with one boundary of `n` `a`s.
fn cap_vector(n: usize) -> String {
    let minimal = minimal_task_1();
    format!(
        r#"{},"boundaries":["{}"]}}"#,
        &minimal[..minimal.len() - 1],
        "a".repeat(n)
    )
}

#[test]
fn byte_cap_vector_at_16384_and_16385_bytes_as_written() {
    let at_cap = cap_vector(16144);
    assert_eq!(at_cap.len(), 16336);
    let packet = TaskPacket::from_json_str(&at_cap).unwrap();
    assert_eq!(packet.to_canonical_json().len(), TASK_PACKET_MAX_BYTES);
    let (code, verdict) = validate_json(&at_cap);
    assert_eq!(code, 0, "{verdict}");

    let over = cap_vector(16145);
    assert_eq!(over.len(), 16337);
    let report = TaskPacket::from_json_str(&over).unwrap_err();
    assert_eq!(pairs(&report), [("packet_too_large", "")]);
    assert_eq!(report.as_slice()[0].measured, Some(16385));
    assert_eq!(report.as_slice()[0].limit, Some(16384));
    assert_eq!(
        report.as_slice()[0].message,
        "the document is 16385 bytes as compact JSON (max 16384)"
    );
    let (code, verdict) = validate_json(&over);
    assert_eq!(code, 1);
    assert_eq!(
        codes_and_paths(&verdict),
        [("packet_too_large".to_owned(), String::new())]
    );
    assert_eq!(verdict["errors"][0]["measured"], 16385);
}
