//! Tests for `specmint_runtime::document`: parsing, forbidden keys, and locating pointers.

use serde::{Deserialize, Serialize};
use specmint_runtime::document::{
    line_col, locate, locate_all, locate_key, parse_document, parse_document_str,
    serde_line_column, serde_offset, split_serde_position, DocumentSpec, Want,
};
use specmint_runtime::{Path, Report, Validate, Violation};

const SPEC: DocumentSpec = DocumentSpec::new("packet", "invalid_packet")
    .with_forbidden_keys(
        &["reasoning", "chain_of_thought"],
        "forbidden_provider_field",
    )
    .with_max_input_bytes(4096)
    .with_too_large_code("packet_too_large");

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Packet {
    objective: String,
    #[serde(default)]
    findings: Vec<Finding>,
}

#[derive(Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Finding {
    id: String,
    #[serde(default)]
    notes: Vec<String>,
}

fn blank(path: &Path<'_>, report: &mut Report) {
    report.push(Violation::new(
        "blank_field",
        path,
        format!("`{}` must not be blank", path.dotted()),
    ));
}

impl Validate for Packet {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        if self.objective.trim().is_empty() {
            blank(&path.field("objective"), report);
        }
        let findings = path.field("findings");
        for (i, finding) in self.findings.iter().enumerate() {
            finding.validate_at(&findings.index(i), report);
        }
    }
}

impl Validate for Finding {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        if self.id.trim().is_empty() {
            blank(&path.field("id"), report);
        }
    }
}

/// A recursive type, for nesting-depth tests.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Node {
    #[serde(default)]
    child: Option<Box<Node>>,
}

impl Validate for Node {
    fn validate_at(&self, _: &Path<'_>, _: &mut Report) {}
}

fn only(report: Report) -> Violation {
    assert_eq!(report.len(), 1, "{report:#?}");
    report.into_iter().next().unwrap()
}

fn refuse(input: &str) -> Violation {
    only(parse_document::<Packet>(input.as_bytes(), &SPEC).unwrap_err())
}

fn parse_violation(path: &str, pointer: &str, message: &str) -> Violation {
    Violation::from_parts(
        "invalid_packet",
        path.into(),
        pointer.into(),
        message.into(),
    )
}

#[test]
fn valid_document_parses() {
    let packet: Packet = parse_document(
        br#"{"objective": "ship", "findings": [{"id": "F1", "notes": ["a"]}]}"#,
        &SPEC,
    )
    .unwrap();
    assert_eq!(packet.findings[0].notes, ["a"]);
    let same: Packet = parse_document_str(&serde_json::to_string(&packet).unwrap(), &SPEC).unwrap();
    assert_eq!(same, packet);
}

#[test]
fn validation_report_is_returned_unchanged() {
    let report = parse_document::<Packet>(
        br#"{"objective": " ", "findings": [{"id": "F1"}, {"id": ""}]}"#,
        &SPEC,
    )
    .unwrap_err();
    let got: Vec<_> = report
        .iter()
        .map(|v| (&*v.code, v.path.as_str(), v.pointer.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("blank_field", "objective", "/objective"),
            ("blank_field", "findings[1].id", "/findings/1/id"),
        ]
    );
}

#[test]
fn oversize_input_is_refused_unparsed() {
    let input = format!(r#"{{"objective": "{}"}}"#, "x".repeat(4100));
    let v = refuse(&input);
    assert_eq!(
        v,
        Violation::from_parts(
            "packet_too_large",
            String::new(),
            String::new(),
            "the packet is 4117 bytes (max 4096) and was not parsed".into(),
        )
        .with_numbers(4117, 4096)
    );
    // The &str entry point measures bytes too, and exactly the limit is accepted.
    let v = only(parse_document_str::<Packet>(&input, &SPEC).unwrap_err());
    assert_eq!(v.measured, Some(4117));
    let at_limit = format!(r#"{{"objective": "{}"}}"#, "x".repeat(4096 - 17));
    assert_eq!(at_limit.len(), 4096);
    assert!(parse_document::<Packet>(at_limit.as_bytes(), &SPEC).is_ok());
}

#[test]
fn byte_order_mark_is_refused() {
    let mut input = b"\xEF\xBB\xBF".to_vec();
    input.extend_from_slice(br#"{"objective": "ship"}"#);
    let expected = parse_violation(
        "",
        "",
        "the packet starts with a UTF-8 byte order mark (EF BB BF), which JSON does not allow; \
         remove the first 3 bytes",
    );
    assert_eq!(
        only(parse_document::<Packet>(&input, &SPEC).unwrap_err()),
        expected
    );
    let text = String::from_utf8(input).unwrap();
    assert_eq!(
        only(parse_document_str::<Packet>(&text, &SPEC).unwrap_err()),
        expected
    );
}

#[test]
fn invalid_utf8_names_the_byte_offset() {
    let v = only(parse_document::<Packet>(b"{\"objective\": \"ab\xFFcd\"}", &SPEC).unwrap_err());
    assert_eq!(
        v,
        parse_violation(
            "",
            "",
            "the packet is not valid UTF-8: invalid byte 0xFF at byte offset 17"
        )
    );
    // A multi-byte sequence cut off by the end of the input.
    let v = only(parse_document::<Packet>(b"{\"objective\": \"\xE4\xB8", &SPEC).unwrap_err());
    assert_eq!(
        v.message,
        "the packet is not valid UTF-8: truncated UTF-8 sequence at byte offset 15 (end of input)"
    );
}

#[test]
fn missing_field_is_reported_at_its_struct() {
    assert_eq!(
        refuse(r#"{"findings": []}"#),
        parse_violation("", "", "missing field `objective` at line 1 column 16")
    );
    assert_eq!(
        refuse("{\"objective\": \"ship\",\n \"findings\": [{\"id\": \"F1\"}, {\"notes\": []}]}"),
        parse_violation(
            "findings[1]",
            "/findings/1",
            "missing field `id` at line 2 column 41"
        )
    );
}

#[test]
fn unknown_field_at_depth_is_reported_at_the_key() {
    assert_eq!(
        refuse(r#"{"objective": "ship", "findings": [{"id": "F1"}, {"id": "F2", "note": []}]}"#),
        parse_violation(
            "findings[1].note",
            "/findings/1/note",
            "unknown field `note`, expected `id` or `notes` at line 1 column 68"
        )
    );
}

#[test]
fn serde_json_columns_count_bytes_locate_counts_chars() {
    let input = r#"{"objective": "渡す", "note": 1}"#;
    let v = refuse(input);
    assert_eq!(
        v.message,
        "unknown field `note`, expected `objective` or `findings` at line 1 column 30"
    );
    assert_eq!(locate_key(input, &v.pointer), Some((1, 21)));
}

#[test]
fn wrong_type_is_reported_at_the_value() {
    assert_eq!(
        refuse(r#"{"objective": "ship", "findings": [{"id": "F1", "notes": ["a", 7]}]}"#),
        parse_violation(
            "findings[0].notes[1]",
            "/findings/0/notes/1",
            "invalid type: integer `7`, expected a string at line 1 column 64"
        )
    );
}

#[test]
fn forbidden_key_nested_in_an_array_element() {
    let v = refuse(r#"{"objective": "ship", "findings": [{"id": "F1", "reasoning": "because"}]}"#);
    assert_eq!(
        v,
        Violation::from_parts(
            "forbidden_provider_field",
            "findings[0].reasoning".into(),
            "/findings/0/reasoning".into(),
            "`findings[0].reasoning` is a forbidden key \
                      (`reasoning` may not appear anywhere in the packet)"
                .into(),
        )
    );
}

#[test]
fn forbidden_keys_are_all_reported_in_document_order() {
    let input = r#"{
        "chain_of_thought": {"reasoning": 1},
        "objective": "ship",
        "findings": [{"id": "F1"}, {"id": "F2", "notes": [{"reasoning": []}]}],
        "reasonings": "not forbidden", "Reasoning": "case-sensitive"
    }"#;
    let report = parse_document::<Packet>(input.as_bytes(), &SPEC).unwrap_err();
    let got: Vec<_> = report
        .iter()
        .map(|v| (&*v.code, v.path.as_str(), v.pointer.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "forbidden_provider_field",
                "chain_of_thought",
                "/chain_of_thought"
            ),
            (
                "forbidden_provider_field",
                "chain_of_thought.reasoning",
                "/chain_of_thought/reasoning"
            ),
            (
                "forbidden_provider_field",
                "findings[1].notes[0].reasoning",
                "/findings/1/notes/0/reasoning"
            ),
        ]
    );
    assert_eq!(
        report.as_slice()[0].message,
        "`chain_of_thought` is a forbidden key \
         (`chain_of_thought` may not appear anywhere in the packet)"
    );
}

#[test]
fn escaped_forbidden_key_is_still_found() {
    let v = refuse(r#"{"objective": "ship", "reas\u006fning": true}"#);
    assert_eq!(
        (&*v.code, v.path.as_str()),
        ("forbidden_provider_field", "reasoning")
    );
}

#[test]
fn forbidden_key_in_malformed_json_is_a_parse_error() {
    let v = refuse(r#"{"objective": "ship", "reasoning": "x", "findings": [}"#);
    assert_eq!(&*v.code, "invalid_packet");
}

#[test]
fn duplicate_key_is_refused_never_last_wins() {
    // serde reports a duplicate at the object holding it; the message names the key.
    assert_eq!(
        refuse(r#"{"objective": "a", "objective": "b"}"#),
        parse_violation("", "", "duplicate field `objective` at line 1 column 30")
    );
    assert_eq!(
        refuse(r#"{"objective": "a", "findings": [{"id": "F1", "id": "F2"}]}"#),
        parse_violation(
            "findings[0]",
            "/findings/0",
            "duplicate field `id` at line 1 column 49"
        )
    );
}

#[test]
fn trailing_garbage_is_refused() {
    assert_eq!(
        refuse(r#"{"objective": "ship"} x"#),
        parse_violation("", "", "trailing characters at line 1 column 23")
    );
    // Two documents back to back are not one document.
    assert_eq!(
        refuse(r#"{"objective": "a"}{"objective": "b"}"#).code,
        "invalid_packet"
    );
    // Trailing whitespace is fine.
    assert!(parse_document::<Packet>(b"{\"objective\": \"ship\"}\n\t ", &SPEC).is_ok());
}

#[test]
fn nul_bytes_and_lone_surrogates_are_refused() {
    assert_eq!(
        refuse("{\"objective\": \"a\0b\"}"),
        parse_violation(
            "objective",
            "/objective",
            "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 17"
        )
    );
    assert_eq!(
        refuse("{\"objective\": \"ship\"}\0"),
        parse_violation("", "", "trailing characters at line 1 column 22")
    );
    assert_eq!(
        refuse(r#"{"objective": "\ud800"}"#),
        parse_violation(
            "objective",
            "/objective",
            "unexpected end of hex escape at line 1 column 22"
        )
    );
    assert_eq!(
        refuse(r#"{"objective": "\ud800\u0041"}"#),
        parse_violation(
            "objective",
            "/objective",
            "lone leading surrogate in hex escape at line 1 column 27"
        )
    );
    // In a key: refused before the forbidden-key scan could match anything.
    assert_eq!(
        refuse(r#"{"objective": "ship", "findings": [{"\udc00": 1}]}"#),
        parse_violation(
            "findings[0]",
            "/findings/0",
            "lone leading surrogate in hex escape at line 1 column 43"
        )
    );
}

#[test]
fn empty_and_whitespace_input_is_refused() {
    for input in ["", "  \n", "null", "[]", "\"packet\""] {
        assert_eq!(refuse(input).code, "invalid_packet", "{input:?}");
    }
}

#[test]
fn ten_thousand_deep_nesting_is_an_error_not_an_overflow() {
    const DEEP: DocumentSpec = SPEC.with_max_input_bytes(1 << 20);
    let depth = 10_000;
    // Within serde_json's recursion limit (128) a nested document parses.
    let shallow = format!("{}{{}}{}", r#"{"child":"#.repeat(100), "}".repeat(100));
    let node: Node = parse_document_str(&shallow, &DEEP).unwrap();
    assert!(node.child.is_some());
    // Deep in the typed structure: serde_json's recursion limit stops the typed parse.
    let input = format!("{}null{}", r#"{"child":"#.repeat(depth), "}".repeat(depth));
    let v = only(parse_document::<Node>(input.as_bytes(), &DEEP).unwrap_err());
    assert_eq!(&*v.code, "invalid_packet");
    assert!(
        v.message
            .starts_with("recursion limit exceeded at line 1 column "),
        "{}",
        v.message
    );
    // Deep in an untyped place, with a forbidden key before it: the scanner stops too and the
    // document is refused as unparsable.
    let input = format!(
        r#"{{"reasoning": 1, "objective": {}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let deep = |input: &str| only(parse_document_str::<Packet>(input, &DEEP).unwrap_err());
    let v = deep(&input);
    assert_eq!(&*v.code, "invalid_packet");
    // Open brackets only.
    assert_eq!(deep(&"[".repeat(depth)).code, "invalid_packet");
    assert_eq!(deep(&r#"{"a":"#.repeat(depth)).code, "invalid_packet");
    assert_eq!(
        deep(&r#"{"reasoning":"#.repeat(depth)).code,
        "invalid_packet"
    );
    // locate walks iteratively.
    let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
    let pointer = "/0".repeat(depth);
    assert_eq!(locate(&deep, &pointer), Some((1, depth + 1)));
    assert_eq!(locate(&deep, "/1"), None);
}

const MULTILINE: &str = "{\n  \"objective\": \"出荷する\", \"findings\": [\n    {\"id\": \"F1\"},\n    {\"id\": \"渡す\", \"reasoning\": \"なぜなら\"}\n  ]\n}\n";

#[test]
fn locate_counts_columns_in_chars() {
    assert_eq!(locate(MULTILINE, ""), Some((1, 1)));
    assert_eq!(locate(MULTILINE, "/objective"), Some((2, 16)));
    // Four CJK chars (12 bytes) precede `"findings"` on line 2: its value is at char 36.
    assert_eq!(locate(MULTILINE, "/findings"), Some((2, 36)));
    assert_eq!(locate(MULTILINE, "/findings/0"), Some((3, 5)));
    assert_eq!(locate(MULTILINE, "/findings/0/id"), Some((3, 12)));
    // Two CJK chars before `reasoning`'s value on line 4.
    assert_eq!(locate(MULTILINE, "/findings/1/reasoning"), Some((4, 31)));
    assert_eq!(locate("  \n\t 7 ", ""), Some((2, 3)));
}

#[test]
fn locate_key_points_at_the_key() {
    assert_eq!(
        locate_key(MULTILINE, "/findings/1/reasoning"),
        Some((4, 18))
    );
    assert_eq!(locate_key(MULTILINE, "/objective"), Some((2, 3)));
    assert_eq!(locate_key(MULTILINE, "/findings"), Some((2, 24)));
    // No key for the document or for an array element.
    assert_eq!(locate_key(MULTILINE, ""), None);
    assert_eq!(locate_key(MULTILINE, "/findings/0"), None);
    assert_eq!(locate_key(MULTILINE, "/findings/0/reasoning"), None);
}

#[test]
fn locate_matches_the_pointer_of_a_forbidden_key_violation() {
    let report = parse_document_str::<Packet>(MULTILINE, &SPEC).unwrap_err();
    let v = only(report);
    assert_eq!(v.pointer, "/findings/1/reasoning");
    assert_eq!(locate_key(MULTILINE, &v.pointer), Some((4, 18)));
}

#[test]
fn locate_unescapes_pointer_tokens_and_keys() {
    let input = r#"{"a/b": 1, "m~n": 2, "\u00e9t\u00e9": 3, "x\"y": [10, 20], "": 5}"#;
    assert_eq!(locate(input, "/a~1b"), Some((1, 9)));
    assert_eq!(locate(input, "/m~0n"), Some((1, 19)));
    assert_eq!(locate(input, "/été"), Some((1, 39)));
    assert_eq!(locate(input, "/x\"y/1"), Some((1, 55)));
    assert_eq!(locate(input, "/"), Some((1, 64)));
    assert_eq!(locate_key(input, "/m~0n"), Some((1, 12)));
}

#[test]
fn locate_returns_none_when_the_pointer_does_not_resolve() {
    let input = r#"{"a": [1, {"b": null}], "c": "s"}"#;
    for pointer in [
        "a",        // not a pointer
        "/z",       // no such key
        "/a/2",     // out of range
        "/a/-",     // past-the-end marker names no value
        "/a/01",    // leading zero
        "/a/1/b/c", // into null
        "/c/0",     // into a string
        "/a~2",     // bad escape
        "/a/x",     // not an index
    ] {
        assert_eq!(locate(input, pointer), None, "{pointer}");
    }
    assert_eq!(locate(input, "/a/1/b"), Some((1, 17)));
    assert_eq!(locate("", ""), None);
    assert_eq!(locate("   ", ""), None);
}

#[test]
fn locate_never_panics_on_malformed_input() {
    let inputs = [
        "{",
        "[",
        "{\"a\"",
        "{\"a\":",
        "{\"a\":1",
        "{\"a\":1,",
        "[1,",
        "[1,]",
        "{\"a\\",
        "\"",
        "{\"a\": \"\\",
        "}",
        "]",
        ":",
        ",",
        "{,}",
        "[,1]",
        "{\"a\" 1}",
        "{1:2}",
        "\u{FEFF}{}",
        "{\"\\ud800\": 1, \"a\": 2}",
        "{\"\\uZZZZ\": 1}",
        "{\"\\u12",
        "[[[[",
        "]]]]",
        "{\"a\":}",
    ];
    let pointers = ["", "/a", "/0", "/a/0", "/1", "/\u{FFFD}", "/a/b/c"];
    for input in inputs {
        for pointer in pointers {
            let _ = locate(input, pointer);
            let _ = locate_key(input, pointer);
        }
    }
    // Lone-surrogate key matches nothing, but later keys are still found.
    assert_eq!(locate("{\"\\ud800\": 1, \"a\": 2}", "/a"), Some((1, 20)));
    assert_eq!(locate("[1,]", "/1"), None);
    assert_eq!(locate("{\"a\":}", "/a"), None);
}

#[test]
fn locate_never_panics_on_generated_input() {
    // Deterministic pseudo-random token soup (xorshift), checked against every pointer shape.
    const ALPHABET: &[&str] = &[
        "{", "}", "[", "]", "\"", ":", ",", " ", "\n", "\\", "u", "d800", "a", "0", "1", "-", "~",
        "/", "é", "渡", "null", "\"a\"", "\"a\":",
    ];
    const POINTERS: &[&str] = &[
        "", "/", "/a", "/0", "/1", "/a/0", "/0/a", "/a/a/a", "/~0", "/~1",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..5_000 {
        let len = (next() % 24) as usize;
        let input: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        for pointer in POINTERS {
            let _ = locate(&input, pointer);
            let _ = locate_key(&input, pointer);
        }
    }
}

/// A value that counts how often it is serialized: the byte cap's measurement.
mod measured {
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub static SERIALIZED: AtomicUsize = AtomicUsize::new(0);

    #[derive(Debug, serde::Deserialize)]
    #[serde(transparent)]
    pub struct Counted(pub String);

    impl serde::Serialize for Counted {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            SERIALIZED.fetch_add(1, Ordering::SeqCst);
            s.serialize_str(&self.0)
        }
    }

    #[derive(Debug, serde::Deserialize, serde::Serialize, specmint_macros::Validate)]
    #[serde(deny_unknown_fields)]
    #[validate(
        crate = "specmint_runtime",
        max_json_bytes(max = 20, code = "too_large")
    )]
    pub struct Capped {
        pub text: Counted,
    }

    pub fn count() -> usize {
        SERIALIZED.load(Ordering::SeqCst)
    }
}

/// With a growth bound, an input short enough that input + growth is within the cap is not
/// measured; a longer one is, and is still refused when its compact JSON is over the cap.
#[test]
fn byte_cap_is_skipped_only_when_the_input_bounds_it() {
    use measured::{count, Capped};
    const GROWING: DocumentSpec = SPEC.with_canonical_growth(2);
    // {"text":"abcdefg"} is 18 bytes: 18 + 2 is within the cap of 20, nothing measured.
    let before = count();
    let doc: Capped = parse_document_str(r#"{"text":"abcdefg"}"#, &GROWING).unwrap();
    assert_eq!(doc.text.0, "abcdefg");
    assert_eq!(count(), before);
    // 20 input bytes + growth 2 = 22 > 20: measured, and 20 bytes passes.
    let before = count();
    let _: Capped = parse_document_str(r#"{"text":"abcdefghi"}"#, &GROWING).unwrap();
    assert_eq!(count(), before + 1);
    // Whitespace makes the input long, the compact JSON short: measured, accepted.
    let before = count();
    let _: Capped = parse_document_str("{ \"text\" : \"abc\" }           ", &GROWING).unwrap();
    assert_eq!(count(), before + 1);
    // Over the cap: measured and refused, with or without a bound.
    for spec in [&GROWING, &SPEC] {
        let report =
            parse_document_str::<Capped>(r#"{"text":"abcdefghijklmn"}"#, spec).unwrap_err();
        assert_eq!(report.len(), 1);
        let v = &report.as_slice()[0];
        assert_eq!((&*v.code, v.path.as_str()), ("too_large", ""));
        assert_eq!(
            v.message,
            "the document is 25 bytes as compact JSON (max 20)"
        );
    }
    // Without a bound every document is measured.
    let before = count();
    let _: Capped = parse_document_str(r#"{"text":"a"}"#, &SPEC).unwrap();
    assert_eq!(count(), before + 1);
    // The bound (25 input bytes + 2) never leaks into a returned report: a byte cap of 27
    // checked against it later still measures, and refuses 42 bytes.
    let mut report =
        parse_document_str::<Capped>(r#"{"text":"abcdefghijklmn"}"#, &GROWING).unwrap_err();
    let long = "x".repeat(40);
    specmint_runtime::rules::max_json_bytes(&long, &Path::ROOT, 27, "late", &mut report);
    assert_eq!(report.codes().collect::<Vec<_>>(), ["too_large", "late"]);
}

#[test]
fn line_col_counts_lines_and_chars_from_one() {
    let text = "ab\nçd\n";
    assert_eq!(line_col(text, 0), Some((1, 1)));
    assert_eq!(line_col(text, 3), Some((2, 1)));
    assert_eq!(
        line_col(text, 5),
        Some((2, 2)),
        "ç is one char of two bytes"
    );
    assert_eq!(line_col(text, 4), None, "inside ç");
    assert_eq!(line_col(text, 99), None);
}

#[test]
fn serdes_position_is_split_off_its_message() {
    assert_eq!(
        split_serde_position("invalid type: integer `5`, expected a string at line 3 column 14"),
        Some(("invalid type: integer `5`, expected a string", (3, 14)))
    );
    // Column 0 (a value starting a line) is column 1.
    assert_eq!(
        split_serde_position("EOF while parsing a value at line 2 column 0"),
        Some(("EOF while parsing a value", (2, 1)))
    );
    assert_eq!(split_serde_position("`name` must not be blank"), None);
    assert_eq!(split_serde_position("at line one column 2"), None);
    assert_eq!(split_serde_position("x at line 1 column +2"), None);
}

#[test]
fn serdes_positions_and_byte_offsets_convert_both_ways() {
    // serde_json's own position of an error, and the offset just past the byte it names.
    let text = "{\n  \"é\": 1,\n  \"b\": x}";
    let message = serde_json::from_str::<serde_json::Value>(text)
        .unwrap_err()
        .to_string();
    let (_, position) = split_serde_position(&message).unwrap();
    assert_eq!(position, (3, 8), "{message}");
    let offset = serde_offset(text, position).unwrap();
    assert_eq!(
        &text[..offset],
        "{\n  \"é\": 1,\n  \"b\": x",
        "bytes, not chars"
    );
    assert_eq!(serde_line_column(text, offset), position);
    // Line starts, the ends and out of range.
    assert_eq!(serde_offset(text, (2, 0)), Some(2));
    assert_eq!(serde_line_column(text, 2), (2, 0));
    assert_eq!(serde_line_column(text, 0), (1, 0));
    assert_eq!(
        serde_line_column(text, 999),
        serde_line_column(text, text.len())
    );
    assert_eq!(serde_offset(text, (4, 0)), None, "no fourth line");
    assert_eq!(serde_offset(text, (0, 1)), None);
    assert_eq!(serde_offset(text, (3, 99)), None, "past the end");
}

/// A random JSON value (xorshift-seeded): objects, arrays, strings with escapes and
/// non-ASCII, numbers, literals; nesting up to `depth`.
fn random_value(next: &mut impl FnMut() -> u64, depth: usize) -> serde_json::Value {
    use serde_json::Value;
    const KEYS: &[&str] = &[
        "a", "b", "é", "渡す", "a/b", "m~n", "q\"", "0", "1", "10", "",
    ];
    match next() % if depth == 0 { 4 } else { 6 } {
        0 => Value::Null,
        1 => Value::from(next() % 1000),
        2 => Value::from(["x", "渡\n", "\u{1F600}", "\\", ""][(next() % 5) as usize]),
        3 => Value::Bool(next() % 2 == 0),
        4 => (0..next() % 12)
            .map(|_| random_value(next, depth - 1))
            .collect(),
        _ => (0..next() % 6)
            .map(|_| {
                let key = KEYS[(next() % KEYS.len() as u64) as usize];
                (key.to_owned(), random_value(next, depth - 1))
            })
            .collect::<serde_json::Map<_, _>>()
            .into(),
    }
}

/// Every pointer of `value`, and a missing member and element under each container.
fn pointers(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    let escape = |k: &str| k.replace('~', "~0").replace('/', "~1");
    match value {
        serde_json::Value::Object(map) => {
            out.push(format!("{at}/missing"));
            for (k, v) in map {
                pointers(v, format!("{at}/{}", escape(k)), out);
            }
        }
        serde_json::Value::Array(items) => {
            out.push(format!("{at}/{}", items.len()));
            for (n, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{n}"), out);
            }
        }
        _ => out.push(format!("{at}/under_a_scalar")),
    }
    out.push(at);
}

/// The byte offset of a 1-based (line, column in chars) in `text`.
fn offset_of(text: &str, (line, column): (usize, usize)) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    start
        + text[start..]
            .chars()
            .take(column - 1)
            .map(char::len_utf8)
            .sum::<usize>()
}

/// Issue 48: `locate_all` places many pointers in one walk. On random documents, compact and
/// pretty, each place it gives is the one `locate`/`locate_key` give alone, the nearest
/// ancestor's where a pointer is missing, and at that place the text parses as the very
/// value the pointer names (an oracle independent of the walker: serde_json's own pointer).
#[test]
fn locate_all_agrees_with_one_pointer_at_a_time_and_with_serde() {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..400 {
        let value = random_value(&mut next, 4);
        let text = if round % 2 == 0 {
            serde_json::to_string(&value).unwrap()
        } else {
            serde_json::to_string_pretty(&value).unwrap()
        };
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        // Asked in a shuffled order, each pointer once per kind of place.
        for n in (1..all.len()).rev() {
            all.swap(n, (next() % (n as u64 + 1)) as usize);
        }
        let wants: Vec<(&str, Want)> = all
            .iter()
            .flat_map(|p| {
                [
                    (p.as_str(), Want::Value),
                    (p.as_str(), Want::Key),
                    (p.as_str(), Want::Nearest),
                ]
            })
            .collect();
        let found = locate_all(&text, &wants);
        for ((pointer, want), found) in wants.iter().zip(found) {
            let alone = match want {
                Want::Value => locate(&text, pointer),
                Want::Key => locate_key(&text, pointer),
                Want::Nearest => {
                    let mut p = *pointer;
                    loop {
                        if let Some(at) = locate(&text, p) {
                            break Some(at);
                        }
                        p = &p[..p.rfind('/').unwrap()];
                    }
                }
            };
            assert_eq!(found, alone, "{want:?} {pointer} in {text}");
            match (want, value.pointer(pointer)) {
                (Want::Value | Want::Nearest, Some(expected)) => {
                    let at = offset_of(&text, found.expect(pointer));
                    let mut values = serde_json::Deserializer::from_str(&text[at..])
                        .into_iter::<serde_json::Value>();
                    assert_eq!(
                        values.next().unwrap().unwrap(),
                        *expected,
                        "{pointer} in {text}"
                    );
                }
                (Want::Value, None) => assert_eq!(found, None, "{pointer} in {text}"),
                _ => {}
            }
        }
    }
}

/// Issue 48: a document with 200,000 problems is placed in one pass: every element of a long
/// array, each at its own column, and a missing member under each at its object.
#[test]
fn locate_all_places_many_pointers_in_one_pass() {
    let n = 200_000;
    let text = format!("[{}]", vec!["{\"a\":1}"; n].join(","));
    let pointers: Vec<String> = (0..n).map(|i| format!("/{i}/b")).collect();
    let wants: Vec<(&str, Want)> = pointers
        .iter()
        .map(|p| (p.as_str(), Want::Nearest))
        .collect();
    let found = locate_all(&text, &wants);
    for (i, at) in found.iter().enumerate() {
        assert_eq!(*at, Some((1, 2 + 8 * i)), "element {i}");
    }
}
