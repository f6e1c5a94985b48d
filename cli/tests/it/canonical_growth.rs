//! A document's byte cap is measured on its canonical compact JSON, but reading skips the
//! measurement when the input's length plus the spec's `canonical_growth` is within the cap
//! (`DocumentSpec::canonical_growth`, worked out by specmint-codegen). These tests hold the
//! bound to account: no input grows by more than it, and a document whose canonical form is
//! one byte over the cap is refused even when its input is well under it.

use crate::common;

use serde_json::Value;
use specmint::bundled;
use specmint::task_packet::{TaskPacket, DOCUMENT, TASK_PACKET_MAX_BYTES};

/// Canonical length minus input length, for an input the spec accepts.
fn growth_of(b: &bundled::Bundled, input: &str) -> i64 {
    let canonical = b
        .validate(input.as_bytes(), None)
        .unwrap_or_else(|r| panic!("{}: {input} refused: {r}", b.module));
    canonical.len() as i64 - input.len() as i64
}

#[test]
fn every_spec_states_a_bound_where_one_is_known() {
    let growth: Vec<(&str, Option<usize>)> = bundled::ALL
        .iter()
        .map(|b| (b.module, b.document.canonical_growth))
        .collect();
    assert_eq!(
        growth,
        [
            // Members chosen by `action`: no bound is worked out, always measured.
            ("action_envelope", None),
            // An absent `acceptanceCheck` is written as `,"acceptanceCheck":{}`.
            ("task_envelope", Some(21)),
            // `"json"` written as `{"kind":"json","schema":null}` (23), a `number`
            // (`max_cost_usd`) spelled in 1 byte and written in up to 24 (23), and the
            // members written at their defaults when absent: `,"fidelity":"none"` (18),
            // `,"irreversible":false` (21), a tool_scope's `,"allowed":[]` (13) and
            // `,"denied":[]` (12).
            ("task_packet", Some(110)),
            // Open objects and `any` values are written back verbatim: no bound, always
            // measured.
            ("taskpack", None),
        ]
    );
}

#[test]
fn no_accepted_corpus_case_grows_past_the_bound() {
    let dir = common::root().join(specmint::GENERATED_DIR).join("corpus");
    let mut checked = 0;
    for b in bundled::ALL {
        let Some(bound) = b.document.canonical_growth else {
            continue;
        };
        let path = dir.join(b.module).join("cases.json");
        let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in corpus["cases"].as_array().unwrap() {
            if !case["valid"].as_bool().unwrap() {
                continue;
            }
            let input = serde_json::to_string(&case["document"]).unwrap();
            let grew = growth_of(b, &input);
            assert!(
                grew <= bound as i64,
                "{} case {}: grew {grew} bytes, bound {bound}",
                b.module,
                case["id"]
            );
            checked += 1;
        }
    }
    // TaskPack has no bound (its open objects), so its cases are not among them.
    assert!(checked > 150, "only {checked} cases checked");
}

/// The growth the bound allows for, taken one source at a time and all together.
#[test]
fn the_ways_a_packet_grows_stay_within_the_bound() {
    let b = bundled::ALL
        .iter()
        .find(|b| b.module == "task_packet")
        .unwrap();
    let bound = DOCUMENT.canonical_growth.unwrap() as i64;
    // With `fidelity` and `irreversible` given, so each other source is measured alone.
    let packet = |format: &str, extra: &str| {
        format!(
            r#"{{"packet_id":"p","goal_id":"g","round":1,"from_role":"planner","to_role":"executor","objective":"o","output_format":{format}{extra},"fidelity":"none","irreversible":false}}"#
        )
    };
    let tagged = r#"{"kind":"markdown"}"#;
    // A bare token becomes its tagged object: `"json"` → `{"kind":"json","schema":null}`.
    assert_eq!(growth_of(b, &packet(r#""json""#, "")), 23);
    assert_eq!(growth_of(b, &packet(r#"{"kind":"json"}"#, "")), 14);
    assert_eq!(growth_of(b, &packet(r#"" JSON ""#, "")), 21);
    // A number's spelling: `1e15` → `1000000000000000.0`, `5` → `5.0`.
    assert_eq!(
        growth_of(b, &packet(tagged, r#","budget":{"max_cost_usd":1e15}"#)),
        14
    );
    assert_eq!(
        growth_of(b, &packet(tagged, r#","budget":{"max_cost_usd":5}"#)),
        2
    );
    // Members written at their defaults: `fidelity` and `irreversible` when absent, and the
    // list a written `tool_scope` lacks.
    let bare = packet(tagged, "").replace(r#","fidelity":"none","irreversible":false"#, "");
    assert_eq!(growth_of(b, &bare), 39);
    assert_eq!(
        growth_of(b, &packet(tagged, r#","tool_scope":{"allowed":["a"]}"#)),
        12
    );
    assert_eq!(
        growth_of(b, &packet(tagged, r#","tool_scope":{"denied":["a"]}"#)),
        13
    );
    // Whitespace, escapes, `null` and defaults only shrink (`{}` objects are not written).
    assert!(
        growth_of(
            b,
            &packet(tagged, r#", "budget" : { "max_turns" : null } "#)
        ) < 0
    );
    assert!(growth_of(b, &packet(tagged, r#","tool_scope":{},"budget":{}"#)) < 0);
    let worst = growth_of(
        b,
        &packet(
            r#""json""#,
            r#","tool_scope":{"allowed":["a"]},"budget":{"max_cost_usd":-1e15}"#,
        )
        .replace(r#","fidelity":"none","irreversible":false"#, ""),
    );
    assert_eq!(worst, 23 + 12 + 14 + 39);
    assert!(worst <= bound);
}

/// A packet padded with `boundaries` so that its canonical form is exactly `canonical`
/// bytes, written with a bare `output_format` token and a short number and without the
/// members written at their defaults, so its input is 76 bytes shorter.
fn packet_of_canonical_len(canonical: usize) -> String {
    let build = |pad: usize| {
        let mut boundaries: Vec<String> = vec!["x".repeat(100); 150];
        boundaries.push("y".repeat(pad));
        format!(
            r#"{{"packet_id":"p","goal_id":"g","round":1,"from_role":"planner","to_role":"executor","objective":"o","output_format":"json","budget":{{"max_cost_usd":1e15}},"boundaries":{}}}"#,
            serde_json::to_string(&boundaries).unwrap()
        )
    };
    let len = |text: &str| {
        serde_json::from_str::<TaskPacket>(text)
            .unwrap()
            .to_canonical_json()
            .len()
    };
    let base = len(&build(0));
    assert!(base <= canonical, "{base} > {canonical}");
    let text = build(canonical - base);
    assert_eq!(len(&text), canonical);
    text
}

#[test]
fn a_packet_one_byte_over_the_cap_is_refused_though_its_input_is_under_it() {
    let over = packet_of_canonical_len(TASK_PACKET_MAX_BYTES + 1);
    assert_eq!(over.len(), TASK_PACKET_MAX_BYTES + 1 - 76);
    let report = TaskPacket::from_json_str(&over).unwrap_err();
    assert_eq!(report.len(), 1, "{report}");
    let v = &report.as_slice()[0];
    assert_eq!((&*v.code, v.path.as_str()), ("packet_too_large", ""));
    assert_eq!(
        v.message,
        "the document is 16385 bytes as compact JSON (max 16384)"
    );
    assert_eq!((v.measured, v.limit), (Some(16385), Some(16384)));

    let at = packet_of_canonical_len(TASK_PACKET_MAX_BYTES);
    let packet = TaskPacket::from_json_str(&at).unwrap();
    assert_eq!(packet.to_canonical_json().len(), TASK_PACKET_MAX_BYTES);
}
