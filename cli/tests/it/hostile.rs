//! Hostile input, one test per row: each bad document or spec is refused with its exact code,
//! path and message, without a panic, a stack overflow, or memory beyond a small multiple of
//! the input. Fuzz findings are pinned at the end (`fuzz_*`). The fuzz targets live in
//! `fuzz/` (run `scripts/fuzz.sh`); this file runs in the normal suite and stays fast.
//!
//! Document rows go through `TaskPacket::from_json_slice` (the path every caller takes); a
//! new spec's rows are the same helpers with its own type and `DOCUMENT`.

use crate::common;

use std::time::{Duration, Instant};

use common::{packet_with, specmint};
use specmint::runtime::document::{locate, locate_key, DEFAULT_MAX_INPUT_BYTES};
use specmint::task_packet::{TaskPacket, DOCUMENT};
use specmint::{Report, Violation};
use specmint_codegen::{generate, load, read_spec_dir, Options, SpecSource};

// ---------------------------------------------------------------------------------------
// Helpers

fn refuse(input: &[u8]) -> Report {
    match TaskPacket::from_json_slice(input) {
        Ok(packet) => panic!("accepted: {packet:?}"),
        Err(report) => report,
    }
}

/// The report holds exactly one violation: `code` at `path`, its message containing
/// `fragment`. Returns it for further checks.
fn only(report: &Report, code: &str, path: &str, fragment: &str) -> Violation {
    assert_eq!(report.len(), 1, "{report:#?}");
    let v = &report.as_slice()[0];
    assert_eq!((&*v.code, v.path.as_str()), (code, path), "{v:#?}");
    assert!(
        v.message.contains(fragment),
        "message {:?} lacks {fragment:?}",
        v.message
    );
    v.clone()
}

/// The minimal packet with `value` as the raw JSON of its `round` (a `uint32`).
fn with_round(value: &str) -> Vec<u8> {
    packet_with("")
        .replace(r#""round":1"#, &format!(r#""round":{value}"#))
        .into_bytes()
}

/// The minimal packet with the raw JSON text `value` as its `packet_id`.
fn with_packet_id(value: &[u8]) -> Vec<u8> {
    let text = packet_with("");
    let (head, tail) = text.split_once(r#""pk-1""#).unwrap();
    [head.as_bytes(), value, tail.as_bytes()].concat()
}

fn timed<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    assert!(took < limit, "took {took:?} (budget {limit:?})");
    out
}

// ---------------------------------------------------------------------------------------
// Documents

#[test]
fn nesting_10000_deep_array_is_refused_without_overflow() {
    let input = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "",
        "invalid type: sequence, expected struct TaskPacket at line 1 column 0",
    );
}

#[test]
fn nesting_10000_deep_under_an_unknown_key_is_refused_at_that_key() {
    // The typed parse stops at the unknown key; the forbidden-key scan of the whole input
    // stops at serde_json's recursion limit (128) and falls back to the parse error.
    let deep = format!("{}1{}", r#"{"a":"#.repeat(10_000), "}".repeat(10_000));
    let input = packet_with(&format!(r#","deep":{deep}"#));
    only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "deep",
        "unknown field `deep`, expected one of `packet_id`",
    );
    // The CLI locates it too (iteratively: no stack overflow in `locate`).
    assert_eq!(locate(&input, "/deep/a/a/a"), Some((1, 159)));
    assert!(locate(&input, &"/a".repeat(10_000)).is_none());
}

#[test]
fn nesting_10000_deep_inside_a_typed_field_is_refused_at_the_field() {
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let input = packet_with(&format!(r#","boundaries":{deep}"#));
    only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "boundaries[0]",
        "invalid type: sequence, expected a string",
    );
}

#[test]
fn input_of_100_mb_is_refused_by_the_size_limit_before_parsing() {
    // Zeroed pages from the allocator: 100 MB of address space, almost none of it touched.
    let input = vec![0u8; 100 << 20];
    let report = timed(Duration::from_millis(200), || refuse(&input));
    let v = only(
        &report,
        "packet_too_large",
        "",
        "the packet is 104857600 bytes (max 1048576) and was not parsed",
    );
    assert_eq!((v.measured, v.limit), (Some(104_857_600), Some(1_048_576)));
    assert_eq!(DOCUMENT.max_input_bytes, DEFAULT_MAX_INPUT_BYTES);
}

#[test]
fn size_limit_is_configurable() {
    let input = packet_with("");
    let spec = DOCUMENT.with_max_input_bytes(100);
    let report = specmint::runtime::document::parse_document::<TaskPacket>(input.as_bytes(), &spec)
        .unwrap_err();
    let v = only(
        &report,
        "packet_too_large",
        "",
        "(max 100) and was not parsed",
    );
    assert_eq!(v.limit, Some(100));
}

#[test]
fn cli_refuses_an_oversized_stdin_without_holding_it() {
    let input = vec![b' '; 3 << 20];
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "-",
            "--format",
            "json",
            "--max-input-bytes",
            "1000",
        ],
        &input,
    );
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = &verdict["errors"][0];
    assert_eq!(error["code"], "packet_too_large");
    assert_eq!(error["measured"], 3 << 20);
    assert_eq!(error["limit"], 1000);
    assert_eq!(verdict["errors"].as_array().unwrap().len(), 1);
}

#[test]
fn invalid_utf8_is_refused_with_its_byte_offset() {
    let input = with_packet_id(b"\"p\xFFk\"");
    only(
        &refuse(&input),
        "invalid_packet",
        "",
        "the packet is not valid UTF-8: invalid byte 0xFF at byte offset 15",
    );
    let truncated = with_packet_id(b"\"pk\xE4\xB8");
    only(
        &refuse(&truncated[..18]),
        "invalid_packet",
        "",
        "truncated UTF-8 sequence at byte offset 16 (end of input)",
    );
}

#[test]
fn lone_surrogate_escapes_are_refused_at_their_field() {
    only(
        &refuse(&with_packet_id(br#""\uD800""#)),
        "invalid_packet",
        "packet_id",
        "unexpected end of hex escape at line 1 column 21",
    );
    only(
        &refuse(&with_packet_id(br#""\uDC00x""#)),
        "invalid_packet",
        "packet_id",
        "lone leading surrogate in hex escape at line 1 column 20",
    );
}

#[test]
fn duplicate_top_level_key_is_refused_never_last_wins() {
    let input = packet_with(r#","objective":"second""#);
    // The path is the object holding the duplicate; the message names the key.
    only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "",
        "duplicate field `objective` at line 1 column 147",
    );
}

#[test]
fn duplicate_nested_keys_are_refused_never_last_wins() {
    let cases = [
        (
            r#","constraints":[{"id":"c1","text":"a","id":"c2"}]"#,
            "constraints[0]",
            "duplicate field `id`",
        ),
        (
            r#","budget":{"max_turns":1,"max_turns":2}"#,
            "budget",
            "duplicate field `max_turns`",
        ),
        (
            r#","output_format":"json","output_format":{"kind":"json"}"#,
            "",
            "duplicate field `output_format`",
        ),
    ];
    for (extra, path, fragment) in cases {
        // The duplicated `output_format` replaces the minimal packet's own (a packet without
        // one would also be refused for the missing member, after serde's message).
        let input = if extra.contains("output_format") {
            packet_with(extra).replace(r#""output_format":"markdown","#, "")
        } else {
            packet_with(extra)
        };
        only(&refuse(input.as_bytes()), "invalid_packet", path, fragment);
    }
    // Inside the union's tagged form.
    let input = packet_with("").replace(
        r#""output_format":"markdown""#,
        r#""output_format":{"kind":"json","schema":"a","schema":"b"}"#,
    );
    only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "output_format",
        "duplicate field `schema`",
    );
}

#[test]
fn number_1e400_is_refused_as_out_of_range() {
    only(
        &refuse(&with_round("1e400")),
        "invalid_packet",
        "round",
        "number out of range",
    );
}

#[test]
fn minus_zero_is_refused_where_an_integer_is_expected() {
    // serde_json reads `-0` as the float -0.0, not the integer 0: a uint32 takes integer
    // tokens only (see the note under the fields table of spec/task_packet.md).
    only(
        &refuse(&with_round("-0")),
        "invalid_packet",
        "round",
        "invalid type: floating point `-0.0`, expected u32",
    );
}

#[test]
fn integer_4294967296_is_refused_as_over_uint32() {
    only(
        &refuse(&with_round("4294967296")),
        "invalid_packet",
        "round",
        "invalid value: integer `4294967296`, expected u32",
    );
    assert!(TaskPacket::from_json_slice(&with_round("4294967295")).is_ok());
}

#[test]
fn one_point_zero_is_refused_where_an_integer_is_expected() {
    for (raw, shown) in [("1.0", "1.0"), ("1e0", "1.0"), ("10E-1", "1.0")] {
        only(
            &refuse(&with_round(raw)),
            "invalid_packet",
            "round",
            &format!("invalid type: floating point `{shown}`, expected u32"),
        );
    }
}

#[test]
fn raw_nul_in_a_string_is_refused_escaped_nul_is_data() {
    only(
        &refuse(&with_packet_id(b"\"p\0k\"")),
        "invalid_packet",
        "packet_id",
        "control character (\\u0000-\\u001F) found while parsing a string",
    );
    let packet = TaskPacket::from_json_slice(&with_packet_id(br#""p\u0000k""#)).unwrap();
    assert_eq!(packet.packet_id, "p\0k");
    assert!(packet
        .to_canonical_json()
        .contains(r#""packet_id":"p\u0000k""#));
}

#[test]
fn nul_after_the_document_is_trailing_garbage() {
    let input = [packet_with("").as_bytes(), b"\0"].concat();
    only(&refuse(&input), "invalid_packet", "", "trailing characters");
}

#[test]
fn byte_order_mark_is_refused() {
    let input = [b"\xEF\xBB\xBF", packet_with("").as_bytes()].concat();
    only(
        &refuse(&input),
        "invalid_packet",
        "",
        "starts with a UTF-8 byte order mark (EF BB BF)",
    );
}

#[test]
fn trailing_garbage_is_refused() {
    for tail in ["x", "{}", ",", "]"] {
        let input = format!("{}{tail}", packet_with(""));
        only(
            &refuse(input.as_bytes()),
            "invalid_packet",
            "",
            "trailing characters at line 1 column",
        );
    }
    // Trailing whitespace is not garbage.
    assert!(TaskPacket::from_json_slice(format!("{} \n\t", packet_with("")).as_bytes()).is_ok());
}

fn million_audience() -> String {
    let mut extra = String::with_capacity(4_000_020);
    extra.push_str(r#","audience":["#);
    for i in 0..1_000_000 {
        if i > 0 {
            extra.push(',');
        }
        extra.push_str(r#""a""#);
    }
    extra.push(']');
    packet_with(&extra)
}

#[test]
fn array_of_1_000_000_elements_is_refused_by_size_then_by_item_cap() {
    let input = million_audience();
    assert!(input.len() > DEFAULT_MAX_INPUT_BYTES);
    // Under the default limit: refused unparsed.
    let v = only(
        &refuse(input.as_bytes()),
        "packet_too_large",
        "",
        "and was not parsed",
    );
    assert_eq!(v.measured, Some(input.len() as u64));
    // With the limit lifted: parsed, refused by the item cap (and the byte cap), quickly.
    let spec = DOCUMENT.with_max_input_bytes(usize::MAX);
    // Budget for an unoptimized test build; a release build takes well under a second.
    let report = timed(Duration::from_secs(15), || {
        specmint::runtime::document::parse_document::<TaskPacket>(input.as_bytes(), &spec)
            .unwrap_err()
    });
    let got: Vec<_> = report
        .iter()
        .map(|v| (&*v.code, v.path.as_str(), v.measured, v.limit))
        .collect();
    assert_eq!(
        got,
        [
            ("too_many_items", "audience", Some(1_000_000), Some(16)),
            // As written: with `"fidelity":"none","irreversible":false`.
            ("packet_too_large", "", Some(4_000_197), Some(16384)),
        ]
    );
    assert_eq!(
        report.as_slice()[0].message,
        "`audience` has 1000000 items (max 16)"
    );
}

#[test]
fn forbidden_key_nested_30_levels_is_reported_at_its_path() {
    // 32 levels: the packet, `findings`, its element, `notes`, 14 (object, array) pairs, then
    // the object holding the forbidden key.
    let mut deep = String::new();
    let mut tail = String::new();
    for _ in 0..14 {
        deep.push_str(r#"{"x":["#);
        tail.insert_str(0, "]}");
    }
    let input = packet_with(&format!(
        r#","findings":[{{"text":"t","evidence":[],"notes":{deep}{{"thinking":"..."}}{tail}}}]"#
    ));
    let path = format!("findings[0].notes{}.thinking", ".x[0]".repeat(14));
    let v = only(
        &refuse(input.as_bytes()),
        "forbidden_provider_field",
        &path,
        "may not appear anywhere in the packet",
    );
    assert_eq!(
        v.pointer,
        format!("/findings/0/notes{}/thinking", "/x/0".repeat(14))
    );
    assert_eq!(locate_key(&input, &v.pointer), Some((1, 268)));
}

// ---------------------------------------------------------------------------------------
// Specs

const MD: &str = "# Mini v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | The name, e.g. `a\\|b` or a\\|b. |
| `tags` | string[] | — | Tags. |
| `items` | item[] | — | Items. |

## Members of an `item`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string | ✔ | Id. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `name` | 10 chars | NAME_MAX_CHARS |
| `tags` items | 3 | TAGS_MAX |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `blank` | Blank. |
| `too_long` | Too long. |
| `too_many` | Too many. |
| `dup` | Two items share an id. |

```json valid
{\"name\": \"x\"}
```
";

const TOML: &str = "[spec]
root = \"doc\"

[errors]
parse = \"bad_doc\"
non_blank = \"blank\"
max_chars = \"too_long\"
max_items = \"too_many\"

[[unique]]
path = \"items\"
key = \"id\"
code = \"dup\"
";

fn source(md: &str, toml: &str) -> SpecSource {
    SpecSource {
        name: "mini".into(),
        md_path: "spec/mini.md".into(),
        md: md.into(),
        toml_path: "spec/mini.toml".into(),
        toml: toml.into(),
        locales: Vec::new(),
    }
}

fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the base spec");
    text.replacen(from, to, 1)
}

/// The first line of every diagnostic (`file:LINE:COL: error: ...`).
fn diagnostics(md: &str, toml: &str) -> Vec<String> {
    let d = load(&source(md, toml)).expect_err("the spec is refused");
    d.to_string()
        .lines()
        .filter(|l| !l.starts_with("  hint: "))
        .map(str::to_owned)
        .collect()
}

#[test]
fn base_spec_loads_and_escaped_pipes_are_text() {
    let files =
        generate(&[source(MD, TOML)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let schema = &files["schema/mini.schema.json"];
    assert!(schema.contains("The name, e.g. `a|b` or a|b."), "{schema}");
}

#[test]
fn pipe_inside_a_code_span_splits_the_cell_and_is_reported() {
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | `string|bool` |");
    // The row is reported once and dropped; the cap bound to it then names no field.
    assert_eq!(
        diagnostics(&md, TOML),
        [
            "spec/mini.md:8:1: error: this row has 5 cells but the table's header has 4",
            "spec/mini.md:22:3: error: path `tags` does not resolve: `doc` has no field `tags` (fields: `name`, `items`)",
        ]
    );
}

#[test]
fn malformed_table_rows_are_reported() {
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        "| `tags` | string[] |",
    );
    assert_eq!(
        diagnostics(&md, TOML),
        [
            "spec/mini.md:8:1: error: this row has 2 cells but the table's header has 4",
            "spec/mini.md:22:3: error: path `tags` does not resolve: `doc` has no field `tags` (fields: `name`, `items`)",
        ]
    );
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        "| `tags` | string[] | — | Tags. | extra |",
    );
    assert_eq!(
        diagnostics(&md, TOML),
        [
            "spec/mini.md:8:1: error: this row has 5 cells but the table's header has 4",
            "spec/mini.md:22:3: error: path `tags` does not resolve: `doc` has no field `tags` (fields: `name`, `items`)",
        ]
    );
    // A delimiter row that does not match the header: not a table at all (GFM), so the
    // root names no field table.
    let md = edit(MD, "|---|---|---|---|\n| `name`", "|---|---|\n| `name`");
    assert_eq!(
        diagnostics(&md, TOML),
        ["spec/mini.toml:2:8: error: root `doc` is not a field table"]
    );
}

#[test]
fn crlf_line_endings_load_identically_to_lf() {
    let crlf = |s: &str| s.replace('\n', "\r\n");
    let lf = generate(&[source(MD, TOML)], &Options::default()).unwrap();
    let cr = generate(&[source(&crlf(MD), &crlf(TOML))], &Options::default())
        .unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(lf, cr);
    assert_eq!(
        load(&source(MD, TOML)),
        load(&source(&crlf(MD), &crlf(TOML)))
    );
    // Mistakes are reported at the same positions.
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | strng[] |");
    assert_eq!(diagnostics(&md, TOML), diagnostics(&crlf(&md), &crlf(TOML)));
}

#[test]
fn missing_sidecar_is_reported_alone() {
    let alone = ["spec/mini.md:1:1: error: the sidecar `spec/mini.toml` is missing or empty"];
    assert_eq!(diagnostics(MD, ""), alone);
    let dir = std::env::temp_dir().join(format!("specmint-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mini.md"), MD).unwrap();
    let sources = read_spec_dir(&dir, "spec").unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(sources.len(), 1);
    assert_eq!(sources[0].toml, "");
    assert_eq!(diagnostics(&sources[0].md, &sources[0].toml), alone);
}

#[test]
fn sidecar_binding_a_cap_twice_is_reported() {
    let toml =
        format!("{TOML}\n[caps.NAME_MAX_CHARS]\nrule = \"max_chars\"\npath = \"items[].id\"\n");
    assert_eq!(
        diagnostics(MD, &toml),
        ["spec/mini.toml:17:8: error: [caps.NAME_MAX_CHARS] path `items[].id` differs from the Cap cell's `name`"]
    );
}

#[test]
fn sidecar_rule_on_a_path_of_the_wrong_type_is_reported() {
    let toml = edit(TOML, "path = \"items\"", "path = \"tags\"");
    assert_eq!(
        diagnostics(MD, &toml),
        ["spec/mini.toml:11:8: error: `tags` is not an array of objects"]
    );
    let toml = edit(TOML, "path = \"items\"", "path = \"name\"");
    assert_eq!(
        diagnostics(MD, &toml),
        ["spec/mini.toml:11:8: error: `name` is not an array of objects"]
    );
}

// ---------------------------------------------------------------------------------------
// Fuzz findings

/// fuzz/task_packet: an empty key. Its dotted path is empty like the document's, but its
/// pointer is `/` (RFC 6901), so the two stay distinguishable.
#[test]
fn fuzz_empty_key_is_refused_with_pointer_slash() {
    let input = packet_with(r#","":1"#);
    let v = only(
        &refuse(input.as_bytes()),
        "invalid_packet",
        "",
        "unknown field ``",
    );
    assert_eq!(v.pointer, "/");
}

/// The document-level rows, for every bundled spec: each refusal is the spec's own parse code
/// (its size code for an input over the size limit) at the empty path, with no panic,
/// whatever the document type.
#[test]
fn every_bundled_spec_refuses_hostile_documents_with_its_parse_code() {
    let deep = "[".repeat(10_000);
    let deep_object = format!("{}{}", "{\"a\":".repeat(10_000), "}".repeat(10_000));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("10,000-deep array", deep.into_bytes()),
        ("10,000-deep object", deep_object.into_bytes()),
        ("invalid UTF-8", b"{\"a\":\"\xff\"}".to_vec()),
        ("BOM", b"\xEF\xBB\xBF{}".to_vec()),
        ("lone surrogate", br#"{"x":"\ud800"}"#.to_vec()),
        ("NUL", b"\0".to_vec()),
        ("empty", Vec::new()),
        (
            "over the size limit",
            vec![b' '; specmint::runtime::document::DEFAULT_MAX_INPUT_BYTES + 1],
        ),
    ];
    for spec in specmint::bundled::ALL {
        for (row, input) in &cases {
            let report = spec.validate(input, None).expect_err(row);
            if *row == "BOM" && spec.document.bom_tolerated {
                // The mark is skipped: the document is `{}`, refused as `{}` is (serde's
                // message, then every other required member it lacks).
                assert_eq!(
                    Some(report),
                    spec.validate(b"{}", None).err(),
                    "{}",
                    spec.cli_name
                );
                continue;
            }
            assert_eq!(report.len(), 1, "{} {row}: {report:?}", spec.cli_name);
            let v = &report.as_slice()[0];
            let code = if *row == "over the size limit" {
                spec.document.too_large_code
            } else {
                spec.document.parse_error_code
            };
            assert_eq!(&*v.code, code, "{} {row}", spec.cli_name);
            assert!(!v.message.is_empty());
        }
    }
}

#[test]
fn duplicate_members_of_an_action_envelope_are_refused_never_last_wins() {
    let spec = specmint::bundled::find("action-envelope").unwrap();
    for (member, duplicated) in [
        ("action", r#""action":"cancel","action":"cancel""#),
        ("basis", r#""action":"cancel","basis":{},"basis":{}"#),
        (
            "payload member",
            r#""action":"cancel","payload":{"reason":"a","reason":"b"}"#,
        ),
        ("action_id", r#""action":"cancel","action_id":"b""#),
    ] {
        let input = format!(
            r#"{{"protocol_version":"0.1","action_id":"a","package_id":"pkg_a","expected_revision":1,{duplicated}{}}}"#,
            if duplicated.contains("\"basis\"") {
                r#","payload":{}"#
            } else if duplicated.contains("\"payload\"") {
                r#","basis":{}"#
            } else {
                r#","basis":{},"payload":{}"#
            }
        );
        let report = spec.validate(input.as_bytes(), None).expect_err(member);
        assert_eq!(report.len(), 1, "{member}: {report:?}");
        assert_eq!(report.as_slice()[0].code, "INVALID_ENVELOPE", "{member}");
        assert!(
            report.as_slice()[0].message.contains("duplicate"),
            "{member}: {}",
            report.as_slice()[0].message
        );
    }
}

/// Issue 48, finding 1: every violation of a document under the input limit is placed in one
/// pass over it. 300,000 wrongly typed `audience` items (each located from the document's
/// start, this took minutes) are each reported at their own column, in document order.
#[test]
fn many_violations_are_located_in_one_pass() {
    let n = 300_000;
    let items = vec!["0"; n].join(",");
    let packet = packet_with(&format!(r#","audience":[{items}]"#));
    assert!(packet.len() < DEFAULT_MAX_INPUT_BYTES);
    let start = packet.find(r#""audience":["#).unwrap() + r#""audience":["#.len();
    let (code, verdict) = common::validate_json(&packet);
    assert_eq!(code, 1);
    let errors = verdict["errors"].as_array().unwrap();
    assert_eq!(errors.len(), n);
    for (i, e) in errors.iter().enumerate() {
        assert_eq!(e["code"], "invalid_packet", "{e}");
        assert_eq!(e["path"], format!("audience[{i}]"));
        assert_eq!(e["pointer"], format!("/audience/{i}"));
        // The first is the parser's own complaint, placed by it; the rest the shape check's.
        let message = if i == 0 {
            format!(
                "invalid type: integer `0`, expected a string at line 1 column {}",
                start + 1
            )
        } else {
            format!("`audience[{i}]` must be a string, found the number 0")
        };
        assert_eq!(e["message"], message);
        assert_eq!(e["line"], 1);
        assert_eq!(e["column"], start + 1 + 2 * i, "{e}");
    }
}

/// Issue 48, finding 14: a FILE that is not a regular file (`/dev/stdin`, `<(…)`, a FIFO) is
/// read as a stream, as `-` is, not refused with "Illegal seek".
#[test]
fn validate_reads_a_pipe_as_a_stream() {
    let packet = packet_with("");
    let out = specmint(
        &["validate", "task-packet", "/dev/stdin", "--format", "json"],
        packet.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["valid"], true);
    assert_eq!(verdict["file"], "/dev/stdin");
    // A broken document through the pipe is placed as a file's would be.
    let out = specmint(
        &["validate", "task-packet", "/dev/stdin", "--format", "json"],
        packet.replace(r#""round":1"#, r#""round":"1""#).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["errors"][0]["code"], "invalid_packet");
    assert_eq!(verdict["errors"][0]["path"], "round");
    assert_eq!(verdict["errors"][0]["line"], 1);
}

/// Issue 48, finding 17: endless input is answered once the limit is passed and the rest
/// counted up to `COUNTED_PAST_LIMIT`, "at least" that many bytes, rather than read for ever.
#[test]
fn validate_answers_endless_input() {
    use specmint::runtime::document::COUNTED_PAST_LIMIT;
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "/dev/zero",
            "--format",
            "json",
            "--max-input-bytes",
            "1000",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = &verdict["errors"][0];
    let counted = 1001 + COUNTED_PAST_LIMIT;
    assert_eq!(error["code"], "packet_too_large");
    assert_eq!(error["measured"], counted);
    assert_eq!(
        error["message"],
        format!("the packet is at least {counted} bytes (max 1000) and was not parsed")
    );
}
