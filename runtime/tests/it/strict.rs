//! Tests for `specmint_runtime::strict::Strict`: structs only from JSON objects, at any depth,
//! directly and through `document::parse_document`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use specmint_runtime::document::{parse_document, to_canonical_json, DocumentSpec};
use specmint_runtime::strict::Strict;
use specmint_runtime::{Path, Report, Validate, Violation};

const SPEC: DocumentSpec = DocumentSpec::new("doc", "invalid_doc")
    .with_forbidden_keys(&["reasoning"], "forbidden_field")
    .with_max_input_bytes(1 << 16);

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Doc {
    id: Id,
    inner: Inner,
    #[serde(default)]
    items: Vec<Inner>,
    #[serde(default)]
    maybe: Option<Inner>,
    #[serde(default)]
    shapes: Vec<Shape>,
    #[serde(default)]
    wrapped: Option<Wrapper>,
    #[serde(default)]
    by_name: BTreeMap<String, Inner>,
    #[serde(default)]
    counts: BTreeMap<String, u32>,
    #[serde(default)]
    numbers: Vec<u32>,
    #[serde(default)]
    pair: Option<(u32, String)>,
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Inner {
    name: String,
    n: u32,
}

/// Externally tagged (serde's default): read through `EnumAccess`, so covered by `Strict`.
#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
enum Shape {
    Dot,
    Circle(u32),
    Line(u32, u32),
    Rect { w: u32, h: u32 },
    Boxed(Inner),
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Id(String);

#[derive(Debug, Deserialize, Serialize, PartialEq)]
struct Wrapper(Inner);

impl Validate for Doc {
    fn validate_at(&self, _: &Path<'_>, _: &mut Report) {}
}

const FULL: &str = r#"{
    "id": "doc-1",
    "inner": {"name": "a", "n": 1},
    "items": [{"name": "b", "n": 2}, {"name": "c", "n": 3}],
    "maybe": {"name": "d", "n": 4},
    "shapes": [
        "Dot",
        {"Circle": 5},
        {"Line": [6, 7]},
        {"Rect": {"w": 8, "h": 9}},
        {"Boxed": {"name": "e", "n": 10}}
    ],
    "wrapped": {"name": "f", "n": 11},
    "by_name": {"g": {"name": "g", "n": 12}},
    "counts": {"x": 1, "y": 2},
    "numbers": [1, 2, 3],
    "pair": [13, "h"]
}"#;

const MINIMAL: &str = r#"{"id": "doc-1", "inner": {"name": "a", "n": 1}}"#;

fn strict<'de, T: Deserialize<'de>>(text: &'de str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(Strict::new(&mut de)).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

fn only(report: Report) -> Violation {
    assert_eq!(report.len(), 1, "{report:#?}");
    report.into_iter().next().unwrap()
}

/// `MINIMAL` with `"key": value` added.
fn with(key: &str, value: &str) -> String {
    format!(r#"{{"id": "doc-1", "inner": {{"name": "a", "n": 1}}, "{key}": {value}}}"#)
}

#[test]
fn objects_are_accepted_everywhere() {
    let doc: Doc = strict(FULL).unwrap();
    assert_eq!(doc.id, Id("doc-1".into()));
    assert_eq!(doc.items.len(), 2);
    assert_eq!(
        doc.maybe,
        Some(Inner {
            name: "d".into(),
            n: 4
        })
    );
    assert_eq!(
        doc.shapes,
        [
            Shape::Dot,
            Shape::Circle(5),
            Shape::Line(6, 7),
            Shape::Rect { w: 8, h: 9 },
            Shape::Boxed(Inner {
                name: "e".into(),
                n: 10
            }),
        ]
    );
    assert_eq!(
        doc.wrapped,
        Some(Wrapper(Inner {
            name: "f".into(),
            n: 11
        }))
    );
    assert_eq!(doc.by_name["g"].n, 12);
    assert_eq!(doc.pair, Some((13, "h".into())));
    assert_eq!(parse_document::<Doc>(FULL.as_bytes(), &SPEC).unwrap(), doc);
}

#[test]
fn maps_sequences_and_tuples_still_work() {
    let counts: BTreeMap<String, u32> = strict(r#"{"a": 1, "b": 2}"#).unwrap();
    assert_eq!(counts.len(), 2);
    let numbers: Vec<u32> = strict("[1, 2, 3]").unwrap();
    assert_eq!(numbers, [1, 2, 3]);
    let empty: Vec<Inner> = strict("[]").unwrap();
    assert!(empty.is_empty());
    let tuple: (u32, String) = strict(r#"[1, "x"]"#).unwrap();
    assert_eq!(tuple, (1, "x".into()));
    let none: Option<Inner> = strict("null").unwrap();
    assert_eq!(none, None);
}

#[test]
fn plain_serde_json_accepts_arrays_as_structs() {
    // The behaviour `Strict` exists to stop: if this ever fails, serde changed.
    let inner: Inner = serde_json::from_str(r#"["a", 1]"#).unwrap();
    assert_eq!(
        inner,
        Inner {
            name: "a".into(),
            n: 1
        }
    );
    let doc: Doc = serde_json::from_str(&with("items", r#"[["b", 2]]"#)).unwrap();
    assert_eq!(doc.items[0].n, 2);
    let shape: Shape = serde_json::from_str(r#"{"Rect": [1, 2]}"#).unwrap();
    assert_eq!(shape, Shape::Rect { w: 1, h: 2 });
}

// serde_json reports a value of the wrong type found by peeking (as here, and for any map
// given an array) at the character before the value: column 0 at the very start.

#[test]
fn top_level_empty_array_is_refused() {
    assert_eq!(
        strict::<Inner>("[]").unwrap_err(),
        "invalid type: sequence, expected struct Inner at line 1 column 0"
    );
    // Plain serde_json complains about the length instead.
    let plain = serde_json::from_str::<Inner>("[]").unwrap_err().to_string();
    assert!(plain.starts_with("invalid length 0"), "{plain}");

    let v = only(parse_document::<Doc>(b"[]", &SPEC).unwrap_err());
    assert_eq!(v.code, "invalid_doc");
    assert_eq!((v.path.as_str(), v.pointer.as_str()), ("", ""));
    assert_eq!(
        v.message,
        "invalid type: sequence, expected struct Doc at line 1 column 0"
    );
}

#[test]
fn top_level_full_length_array_is_refused() {
    let text = r#"["doc-1", ["a", 1], [], null, [], null, {}, {}, [], null]"#;
    assert!(serde_json::from_str::<Doc>(text).is_ok());
    assert_eq!(
        strict::<Doc>(text).unwrap_err(),
        "invalid type: sequence, expected struct Doc at line 1 column 0"
    );
    let v = only(parse_document::<Doc>(text.as_bytes(), &SPEC).unwrap_err());
    assert_eq!(v.code, "invalid_doc");
    assert_eq!(v.path, "");
    assert!(v
        .message
        .starts_with("invalid type: sequence, expected struct Doc"));
}

/// Parses `text` as a `Doc` and returns its one violation's (code, path, pointer, message).
fn refusal(text: &str) -> (String, String, String, String) {
    let v = only(parse_document::<Doc>(text.as_bytes(), &SPEC).unwrap_err());
    (String::from(v.code), v.path, v.pointer, v.message)
}

#[test]
fn nested_arrays_are_refused_at_their_path() {
    let cases = [
        ("maybe", r#"[]"#, "maybe", "/maybe", "Inner"),
        (
            "items",
            r#"[{"name": "b", "n": 2}, ["c", 3]]"#,
            "items[1]",
            "/items/1",
            "Inner",
        ),
        ("maybe", r#"["d", 4]"#, "maybe", "/maybe", "Inner"),
        ("wrapped", r#"["f", 11]"#, "wrapped", "/wrapped", "Inner"),
        (
            "by_name",
            r#"{"g": ["g", 12]}"#,
            "by_name.g",
            "/by_name/g",
            "Inner",
        ),
        (
            "shapes",
            r#"[{"Boxed": ["e", 10]}]"#,
            "shapes[0].Boxed",
            "/shapes/0/Boxed",
            "Inner",
        ),
        (
            "shapes",
            r#"["Dot", {"Rect": [8, 9]}]"#,
            "shapes[1].Rect",
            "/shapes/1/Rect",
            "struct variant Shape::Rect",
        ),
        (
            "shapes",
            r#"[{"Rect": []}]"#,
            "shapes[0].Rect",
            "/shapes/0/Rect",
            "struct variant Shape::Rect",
        ),
    ];
    for (key, value, path, pointer, expected) in cases {
        let text = with(key, value);
        let (code, got_path, got_pointer, message) = refusal(&text);
        assert_eq!(code, "invalid_doc", "{text}");
        assert_eq!(
            (got_path.as_str(), got_pointer.as_str()),
            (path, pointer),
            "{text}"
        );
        let want = if expected.contains(' ') {
            format!("invalid type: sequence, expected {expected} at line 1 column ")
        } else {
            format!("invalid type: sequence, expected struct {expected} at line 1 column ")
        };
        assert!(message.starts_with(&want), "{text}: {message}");
        // The nested value itself is refused directly too.
        assert!(strict::<Doc>(&text).is_err(), "{text}");
    }
}

#[test]
fn a_required_nested_struct_given_an_array_is_refused() {
    let text = r#"{"id": "doc-1", "inner": ["a", 1]}"#;
    assert!(serde_json::from_str::<Doc>(text).is_ok());
    let (code, path, pointer, message) = refusal(text);
    assert_eq!(code, "invalid_doc");
    assert_eq!((path.as_str(), pointer.as_str()), ("inner", "/inner"));
    // Column 25 is the space before `[` (see the note on column 0 above).
    assert_eq!(
        message,
        "invalid type: sequence, expected struct Inner at line 1 column 25"
    );
}

#[test]
fn nested_non_objects_keep_serde_messages() {
    let (_, path, _, message) = refusal(&with("items", r#"[3]"#));
    assert_eq!(path, "items[0]");
    assert!(
        message.starts_with("invalid type: integer `3`, expected struct Inner"),
        "{message}"
    );
    let (_, path, _, message) = refusal(&with("shapes", r#"[{"Rect": 1}]"#));
    assert_eq!(path, "shapes[0].Rect");
    assert!(
        message.starts_with("invalid type: integer `1`, expected struct variant Shape::Rect"),
        "{message}"
    );
}

#[test]
fn unknown_fields_are_still_refused() {
    let text = r#"{"id": "doc-1", "inner": {"name": "a", "n": 1, "extra": true}}"#;
    let message = strict::<Doc>(text).unwrap_err();
    assert!(
        message.starts_with("unknown field `extra`, expected `name` or `n`"),
        "{message}"
    );
    let (code, path, pointer, message) = refusal(text);
    assert_eq!(code, "invalid_doc");
    assert_eq!(
        (path.as_str(), pointer.as_str()),
        ("inner.extra", "/inner/extra")
    );
    assert!(message.starts_with("unknown field `extra`"), "{message}");

    let text = with("shapes", r#"[{"Rect": {"w": 1, "h": 2, "d": 3}}]"#);
    let (_, path, _, message) = refusal(&text);
    assert_eq!(path, "shapes[0].Rect.d");
    assert!(message.starts_with("unknown field `d`"), "{message}");
}

#[test]
fn forbidden_keys_still_win_over_the_parse_error() {
    let text = with("items", r#"[{"name": "b", "n": 2, "reasoning": "x"}]"#);
    let v = only(parse_document::<Doc>(text.as_bytes(), &SPEC).unwrap_err());
    assert_eq!(v.code, "forbidden_field");
    assert_eq!(v.path, "items[0].reasoning");
}

#[test]
fn trailing_characters_are_still_refused() {
    let text = format!("{MINIMAL} x");
    let message = strict::<Doc>(&text).unwrap_err();
    assert!(message.starts_with("trailing characters"), "{message}");
    let (code, path, _, message) = refusal(&text);
    assert_eq!((code.as_str(), path.as_str()), ("invalid_doc", ""));
    assert!(message.starts_with("trailing characters"), "{message}");
}

#[test]
fn valid_documents_match_plain_serde_json() {
    for text in [FULL, MINIMAL] {
        let through_strict: Doc = strict(text).unwrap();
        let plain: Doc = serde_json::from_str(text).unwrap();
        assert_eq!(through_strict, plain);
        assert_eq!(
            to_canonical_json(&through_strict),
            to_canonical_json(&plain)
        );
        assert_eq!(
            parse_document::<Doc>(text.as_bytes(), &SPEC).unwrap(),
            plain
        );
    }
}

#[test]
fn strict_is_transparent_for_self_describing_values() {
    let value: serde_json::Value = strict(FULL).unwrap();
    assert_eq!(
        value,
        serde_json::from_str::<serde_json::Value>(FULL).unwrap()
    );
    let array: serde_json::Value = strict(r#"[["a", 1], {"b": [2]}]"#).unwrap();
    assert_eq!(array[0][1], 1);
}
