//! The library API a user meets (issue 16 item 8): violations in document order, `Report`'s
//! `Display` with codes, and `Report` / `Violation` serialized in the CLI's JSON shape (the
//! CLI uses that serialization).

use crate::common;

use specmint::task_packet::TaskPacket;

/// A packet with `members` (raw JSON members, in this order) besides the minimal ones.
fn packet(members: &str) -> String {
    format!(
        r#"{{{members},"packet_id":"pk-1","goal_id":"t-1","round":1,"from_role":"planner","to_role":"executor","output_format":"markdown"}}"#
    )
}

#[test]
fn violations_come_in_document_order_whatever_the_order_of_the_keys() {
    // Document order is the spec's: the field table lists `objective`, then `constraints`,
    // then `audience`; a struct's own rules (`self_handoff`) after its fields.
    let want = "blank_field: `objective` must not be blank\n\
         blank_field: `constraints[0].text` must not be blank\n\
         duplicate_constraint_id: `constraints[1].id` `C1` duplicates `constraints[0].id`\n\
         blank_field: `audience[0]` must not be blank\n\
         self_handoff: `to_role` must differ from `from_role` (both `planner`)";
    let members = [
        r#""objective":" ""#,
        r#""constraints":[{"text":" ","id":"c1"},{"id":"C1","text":"b"}]"#,
        r#""audience":[" "]"#,
    ];
    for order in [[0, 1, 2], [2, 1, 0], [1, 2, 0]] {
        let picked: Vec<&str> = order.iter().map(|&i| members[i]).collect();
        let input =
            packet(&picked.join(",")).replace(r#""to_role":"executor""#, r#""to_role":"planner""#);
        let report = TaskPacket::from_json_str(&input).unwrap_err();
        assert_eq!(report.to_string(), want, "{order:?}");
    }
}

#[test]
fn the_clis_json_errors_are_the_reports_own_serialization() {
    let input =
        packet(r#""objective":" ","audience":["ok","x"],"constraints":[{"id":"a","text":" "}]"#);
    let report = TaskPacket::from_json_str(&input).unwrap_err();
    let library = serde_json::to_value(&report).unwrap();
    assert_eq!(library["valid"], false);
    assert_eq!(library["errors"].as_array().unwrap().len(), 2);
    let (code, mut cli) = common::validate_json(&input);
    assert_eq!(code, 1);
    assert_eq!(cli["type"], "task-packet");
    assert_eq!(cli["file"], "<stdin>");
    // The CLI adds where each error is in the input; the rest is the library's.
    for error in cli["errors"].as_array_mut().unwrap() {
        let error = error.as_object_mut().unwrap();
        assert!(error.remove("line").is_some() && error.remove("column").is_some());
    }
    cli.as_object_mut().unwrap().remove("type");
    cli.as_object_mut().unwrap().remove("file");
    assert_eq!(cli, library);
    assert_eq!(
        library["errors"][0],
        serde_json::json!({
            "code": "blank_field",
            "path": "objective",
            "pointer": "/objective",
            "message": "`objective` must not be blank",
        })
    );
}
