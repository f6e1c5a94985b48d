//! TaskPacket v1.0 end to end: the library entry point and the CLI on the spec's own cases.

mod common;

use common::{codes_and_paths, constraints, packet_with, specmint, validate_json};
use specmint::task_packet::{
    self, AcceptanceKind, OutputFormat, PacketError, Role, TaskPacket, CONSTRAINT_TEXT_MAX_CHARS,
    MINIMAL_PACKET_EXAMPLE, TASK_PACKET_MAX_BYTES,
};

fn pairs(report: &specmint::Report) -> Vec<(&str, &str)> {
    report.iter().map(|v| (v.code, v.path.as_str())).collect()
}

#[test]
fn minimal_packet_is_valid_and_round_trips_to_itself_tagged() {
    let packet = TaskPacket::from_json_str(MINIMAL_PACKET_EXAMPLE).unwrap();
    assert_eq!(packet.from_role, Role::Planner);
    assert_eq!(packet.to_role, Role::Executor);
    assert_eq!(packet.output_format, OutputFormat::Markdown);
    let expected = MINIMAL_PACKET_EXAMPLE.replace(
        r#""output_format":"markdown""#,
        r#""output_format":{"kind":"markdown"}"#,
    );
    assert_eq!(packet.to_canonical_json(), expected);
    let (code, verdict) = validate_json(MINIMAL_PACKET_EXAMPLE);
    assert_eq!(code, 0, "{verdict}");
    assert_eq!(
        verdict,
        serde_json::json!({"valid": true, "type": "task-packet", "errors": []})
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
    // Whitespace in the input does not count: the same packet pretty-printed is over the cap
    // as text but not as a normalized packet.
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&input).unwrap())
            .unwrap();
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
        (r#"{"packet_id":"p"}"#, "missing field"),
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
            "packet_too_large"
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
    assert_eq!(
        codes_and_paths(&verdict),
        [("invalid_packet".to_owned(), String::new())]
    );
    assert_eq!(verdict["errors"][0]["limit"], 16);
}
