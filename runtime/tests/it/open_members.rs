//! Open objects: a derived struct with `#[serde(flatten)] OpenMembers` keeps the members it
//! does not list verbatim and in order, its listed members typed and validated; `any` keeps a
//! present `null`; `with_free_members` finds a forbidden key the typed parse kept; a tolerated
//! byte order mark is skipped.

use serde::{Deserialize, Serialize};
use specmint_runtime::document::{parse_document, parse_document_str, DocumentSpec};
use specmint_runtime::json::{Json, OpenMembers};

#[derive(Debug, Deserialize, Serialize, PartialEq, specmint_macros::Validate)]
#[validate(crate = "specmint_runtime")]
struct State {
    #[validate(non_blank(code = "blank"))]
    goal: String,
    #[serde(
        default,
        deserialize_with = "specmint_runtime::json::present",
        skip_serializing_if = "Option::is_none"
    )]
    answer: Option<Json>,
    #[serde(flatten)]
    unlisted_members: OpenMembers,
}

const SPEC: DocumentSpec = DocumentSpec::new("state", "bad_state")
    .with_forbidden_keys(&["transcript"], "forbidden")
    .with_free_members()
    .with_bom_tolerated();

#[test]
fn unlisted_members_round_trip_verbatim_in_order() {
    let text = r#"{"zeta":{"b":[1,2.5,-3],"a":{"y":null,"x":"é\n"}},"goal":"g","id":"TP-1","alpha":[{"k":true}]}"#;
    let state: State = parse_document_str(text, &SPEC).unwrap();
    assert_eq!(state.goal, "g");
    assert_eq!(state.answer, None);
    let keys: Vec<&str> = state
        .unlisted_members
        .0
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(keys, ["zeta", "id", "alpha"]);
    // Nested objects keep their order too (serde_json's own map would sort `a` before `b`).
    assert_eq!(
        serde_json::to_string(&state).unwrap(),
        r#"{"goal":"g","zeta":{"b":[1,2.5,-3],"a":{"y":null,"x":"é\n"}},"id":"TP-1","alpha":[{"k":true}]}"#
    );
    // Read back, the same value.
    let again: State = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
    assert_eq!(again, state);
}

#[test]
fn listed_members_stay_checked() {
    let err = parse_document_str::<State>(r#"{"goal":" ","extra":1}"#, &SPEC).unwrap_err();
    let got: Vec<(&str, &str)> = err.iter().map(|v| (&*v.code, v.path.as_str())).collect();
    assert_eq!(got, [("blank", "goal")]);
    let err = parse_document_str::<State>(r#"{"goal":7}"#, &SPEC).unwrap_err();
    assert_eq!(err.as_slice()[0].code, "bad_state");
}

#[test]
fn a_present_null_any_is_a_value() {
    let state: State = parse_document_str(r#"{"goal":"g","answer":null}"#, &SPEC).unwrap();
    assert_eq!(state.answer, Some(Json::Null));
    assert_eq!(
        serde_json::to_string(&state).unwrap(),
        r#"{"goal":"g","answer":null}"#
    );
}

#[test]
fn a_forbidden_key_kept_by_an_open_object_is_refused() {
    let err =
        parse_document_str::<State>(r#"{"goal":"g","x":{"transcript":[]}}"#, &SPEC).unwrap_err();
    let got: Vec<(&str, &str)> = err.iter().map(|v| (&*v.code, v.path.as_str())).collect();
    assert_eq!(got, [("forbidden", "x.transcript")]);
}

/// The scan's shortcut (no `\` in the text and no quoted run equal to a forbidden key: no
/// parse) neither misses a key nor refuses a mere value.
#[test]
fn a_forbidden_key_is_found_however_it_is_written_and_a_value_is_not_a_key() {
    let refused = |text: &str| -> Vec<String> {
        match parse_document_str::<State>(text, &SPEC) {
            Ok(_) => Vec::new(),
            Err(err) => err
                .iter()
                .map(|v| format!("{} {}", v.code, v.path))
                .collect(),
        }
    };
    // Escaped, in part or whole, and beside escapes elsewhere.
    assert_eq!(
        refused(r#"{"goal":"g","x":[{"tr\u0061nscript":1}]}"#),
        ["forbidden x[0].transcript"]
    );
    assert_eq!(
        refused(r#"{"goal":"g\n","x":{"a":{"transcript":{}}}}"#),
        ["forbidden x.a.transcript"]
    );
    // The key's name as a value, alone or beside a backslash: no violation.
    assert!(refused(r#"{"goal":"g","x":"transcript","y":["transcript"]}"#).is_empty());
    assert!(refused(r#"{"goal":"\"transcript\"","x":{"a\\":"transcript"}}"#).is_empty());
    // A key that only contains the name.
    assert!(refused(r#"{"goal":"g","x":{"transcripts":1,"my transcript":2}}"#).is_empty());
}

#[test]
fn a_tolerated_bom_is_skipped_and_a_default_one_refused() {
    let input = b"\xEF\xBB\xBF{\"goal\":\"g\"}";
    let state: State = parse_document(input, &SPEC).unwrap();
    assert_eq!(state.goal, "g");
    let strict = DocumentSpec::new("state", "bad_state");
    let err = parse_document::<State>(input, &strict).unwrap_err();
    assert_eq!(err.as_slice()[0].code, "bad_state");
    assert!(err.as_slice()[0].message.contains("byte order mark"));
}
