//! Shape errors (issue 16 item 9): a document the typed parse refuses gets serde's message
//! first, then every other shape problem (unknown key, wrong kind, missing member, value
//! outside its enum), each with its path, from the spec's `SHAPES` and the runtime's walker.

use crate::common;

use serde::de::DeserializeOwned;
use serde_json::Value;
use specmint::runtime::json::Json;
use specmint::runtime::shape;
use specmint::runtime::strict::Strict;
use specmint::{bundled, Report};

fn lines(report: &Report) -> Vec<String> {
    report
        .iter()
        .map(|v| format!("{} {} | {}", v.code, v.path, v.message))
        .collect()
}

#[test]
fn a_packet_with_seven_shape_problems_gets_all_seven_after_serdes_message() {
    let input = r#"{"packet_id":"pk-1","goal_id":"t-1","round":"x","from_role":"plannr","to_role":"executor",
        "output_format":{"kind":"json","schema":5,"x":1},"constraints":[{"id":"a","txt":"b"}]}"#;
    let report = specmint::task_packet::TaskPacket::from_json_str(input).unwrap_err();
    assert_eq!(
        lines(&report),
        [
            "invalid_packet round | invalid type: string \"x\", expected u32 at line 1 column 47",
            "invalid_packet from_role | `from_role` is `plannr`, expected one of `planner`, `executor`, `verifier`, `utility`",
            "invalid_packet output_format.schema | `output_format.schema` must be a string or null, found the number 5",
            "invalid_packet output_format.x | `output_format.x` is an unknown key (expected one of `kind`, `schema`)",
            "invalid_packet constraints[0].txt | `constraints[0].txt` is an unknown key (expected one of `id`, `text`)",
            "invalid_packet constraints[0].text | `constraints[0].text` is required but missing",
            "invalid_packet objective | `objective` is required but missing",
        ]
    );
    let pointers: Vec<&str> = report.iter().map(|v| v.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/round",
            "/from_role",
            "/output_format/schema",
            "/output_format/x",
            "/constraints/0/txt",
            "/constraints/0/text",
            "/objective"
        ]
    );
}

#[test]
fn the_problem_serde_reported_is_not_repeated() {
    // One problem: serde's message alone, whichever kind it is (a missing member is named by
    // serde at its object, by the walker at the member; both are one problem).
    let one_problem = [
        (r#","bogus":1"#, "bogus"),
        (r#","constraints":[{"id":"a"}]"#, "constraints[0]"),
        (r#","audience":[1]"#, "audience[0]"),
        (r#","fidelity":"high""#, "fidelity"),
    ];
    for (extra, path) in one_problem {
        let input = common::packet_with(extra);
        let report = specmint::task_packet::TaskPacket::from_json_str(&input).unwrap_err();
        assert_eq!(report.len(), 1, "{extra}: {:?}", lines(&report));
        assert_eq!(report.as_slice()[0].path, path, "{extra}");
    }
    // The root itself of the wrong kind: serde's message only.
    let report = specmint::task_packet::TaskPacket::from_json_str("[1]").unwrap_err();
    assert_eq!(
        lines(&report),
        ["invalid_packet  | invalid type: sequence, expected struct TaskPacket at line 1 column 0"]
    );
}

#[test]
fn forbidden_keys_and_malformed_json_keep_their_own_reports() {
    // A forbidden key refuses the packet with its own code; the shape walk does not add to it.
    let input = common::packet_with(r#","transcript":[],"bogus":1"#);
    let report = specmint::task_packet::TaskPacket::from_json_str(&input).unwrap_err();
    assert_eq!(
        report.codes().collect::<Vec<_>>(),
        ["forbidden_provider_field"]
    );
    // Not JSON: serde's syntax error alone.
    let report = specmint::task_packet::TaskPacket::from_json_str(r#"{"round": 1,"#).unwrap_err();
    assert_eq!(report.len(), 1);
    assert_eq!(report.as_slice()[0].path, "");
}

#[test]
fn the_cli_lists_every_shape_problem_in_json_and_human_form() {
    let input =
        common::packet_with(r#","round":-1,"audience":["a",true]"#).replace(r#""round":1,"#, "");
    let (code, verdict) = common::validate_json(&input);
    assert_eq!(code, 1);
    assert_eq!(
        common::codes_and_paths(&verdict),
        [
            ("invalid_packet".to_owned(), "round".to_owned()),
            ("invalid_packet".to_owned(), "audience[1]".to_owned()),
        ]
    );
    assert_eq!(
        verdict["errors"][1]["message"],
        "`audience[1]` must be a string, found a boolean"
    );
}

/// The typed parse as `parse_document` runs it: structs only from objects.
fn strict_parse<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strict::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// Every corpus document of a bundled spec (the spec's examples among them), with its id.
fn documents_of(module: &str) -> Vec<(String, Value)> {
    let path = common::root()
        .join(specmint::GENERATED_DIR)
        .join("corpus")
        .join(module)
        .join("cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            (
                case["id"].as_str().unwrap().to_owned(),
                case["document"].clone(),
            )
        })
        .collect()
}

/// The walker against serde on every corpus document of `module`: no shape problem where
/// the typed parse accepts the document, at least one where it refuses it; returns how many
/// documents each way.
fn walker_agrees_with_serde<T: DeserializeOwned>(module: &str) -> (usize, usize) {
    let b = bundled::ALL.iter().find(|b| b.module == module).unwrap();
    let shapes = b
        .document
        .shape
        .expect("generated documents carry their shape");
    let (mut accepted, mut refused) = (0, 0);
    let mut disagreements = Vec::new();
    for (id, document) in documents_of(module) {
        let text = document.to_string();
        let typed = strict_parse::<T>(&text);
        let mut problems = Vec::new();
        shapes.with_shapes(&mut |shapes| {
            problems = shape::check(
                &Json::parse(&text).unwrap(),
                shapes,
                b.document.name,
                b.document.parse_error_code,
            );
        });
        match (&typed, problems.is_empty()) {
            (Ok(_), true) => accepted += 1,
            (Err(_), false) => refused += 1,
            (Ok(_), false) => disagreements.push(format!(
                "{module} {id}: serde accepts, the walker says {:?}",
                problems.iter().map(|v| &v.message).collect::<Vec<_>>()
            )),
            (Err(e), true) => disagreements.push(format!(
                "{module} {id}: serde refuses ({e}), the walker finds nothing"
            )),
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    (accepted, refused)
}

#[test]
fn the_walker_agrees_with_the_typed_parse_on_every_corpus_document() {
    let counts = [
        walker_agrees_with_serde::<specmint::task_packet::TaskPacket>("task_packet"),
        walker_agrees_with_serde::<specmint::action_envelope::ActionEnvelope>("action_envelope"),
        walker_agrees_with_serde::<specmint::task_envelope::TaskEnvelope>("task_envelope"),
        walker_agrees_with_serde::<specmint::taskpack::FlatTaskPack>("taskpack"),
    ];
    for (accepted, refused) in counts {
        assert!(accepted > 20 && refused > 0, "{counts:?}");
    }
    eprintln!("(accepted, refused) per spec: {counts:?}");
}
