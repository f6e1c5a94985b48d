//! A conditional requirement (``if `field` is `value` ``) whose sibling is a `bool` or a text
//! field, not only an enum: the Rust rule, the schema's `if`/`then` and the corpus probes.

use serde_json::{json, Value};

use crate::common;

const MD: &str = "# Jobs v1

## Fields of a `job`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | string | ✔ | What runs. |
| `retry` | bool | — (default false) | Whether it is retried. |
| `delay` | uint32? | if `retry` is `true` | Seconds between attempts. |
| `script` | string? | if `kind` is `shell` | The script a shell job runs. |
| `note` | string? | — | A note. |

## Error codes

| Code | When |
|---|---|
| `bad_job` | Not the shape. |
| `missing` | A required field is absent. |

```json valid
{\"kind\": \"http\"}
```
";

const TOML: &str = "[spec]
root = \"job\"

[errors]
enum = \"JobError\"
parse = \"bad_job\"
required_if = \"missing\"
";

fn files() -> std::collections::BTreeMap<String, String> {
    common::generated("jobs", MD, TOML).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn rust_compares_the_sibling_with_a_bool_or_a_str() {
    common::assert_holds(
        &files()["rust/jobs.rs"],
        &[
            "#[validate(required_if(field = retry, equals = true, code = \"missing\"))]",
            "#[validate(required_if(field = kind, equals = \"shell\", code = \"missing\"))]",
        ],
    );
}

#[test]
fn schema_conditions_on_the_json_value() {
    let schema: Value = serde_json::from_str(&files()["schema/jobs.schema.json"]).unwrap();
    let all_of = &schema["$defs"]["job"]["allOf"];
    assert_eq!(all_of[0]["if"]["properties"]["retry"]["const"], json!(true));
    assert_eq!(
        all_of[1]["if"]["properties"]["kind"]["const"],
        json!("shell")
    );
}

#[test]
fn corpus_sets_the_condition_and_its_opposite() {
    let corpus: Value = serde_json::from_str(&files()["corpus/jobs/cases.json"]).unwrap();
    let case = |id: &str| {
        let c = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        (c["document"].clone(), c["errors"].clone())
    };
    let missing = |path: &str| json!([{"code": "missing", "path": path}]);
    assert_eq!(
        case("required_if.delay.absent"),
        (json!({"kind": "http", "retry": true}), missing("delay"))
    );
    assert_eq!(
        case("required_if.delay.absent_when_false"),
        (json!({"kind": "http", "retry": false}), json!([]))
    );
    assert_eq!(
        case("required_if.script.null"),
        (json!({"kind": "shell", "script": null}), missing("script"))
    );
    assert_eq!(
        case("required_if.script.absent_when_a"),
        (json!({"kind": "a"}), json!([]))
    );
}

#[test]
fn a_condition_needs_a_plain_sibling_and_a_value_it_can_hold() {
    let bad_bool = MD.replace("if `retry` is `true`", "if `retry` is `yes`");
    assert_eq!(
        common::error_lines("jobs", &bad_bool, TOML),
        ["spec/jobs.md:9:37: error: `yes` is not a bool"]
    );
    let number = MD.replace("if `kind` is `shell`", "if `delay` is `5`");
    assert_eq!(
        common::error_lines("jobs", &number, TOML),
        ["spec/jobs.md:10:27: error: `delay` is a number, which a condition cannot compare"]
    );
    // A `?` text field may be read: absent, the condition does not hold.
    let nullable = MD.replace("if `kind` is `shell`", "if `note` is `shell`");
    assert!(common::generated("jobs", &nullable, TOML).is_ok());
}

/// A sibling whose Type cell is broken is reported there, once: the condition naming it
/// stays silent (rules on a broken row say nothing more).
#[test]
fn a_condition_on_a_broken_sibling_adds_no_second_error() {
    let broken = MD.replace("| `retry` | bool |", "| `retry` | bol |");
    assert_eq!(
        common::error_lines("jobs", &broken, TOML),
        ["spec/jobs.md:8:13: error: unknown type `bol` in `bol`"]
    );
}

/// The byte cap's padding never blanks a conditional field while its condition holds:
/// blank text counts as missing there (`required_if`), so `script` = `""` at N-1 bytes is
/// no valid document and has no such case (`kind`, the other root text, has no room: its
/// pattern takes two words only).
#[test]
fn byte_cap_padding_keeps_a_conditional_field_given() {
    let md = "# Jobs v1

## Fields of a `job`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `script` | string? | if `kind` is `shell` | The script a shell job runs. |
| `kind` | string matching `^(?:shell\\|exec)$` | ✔ | What runs. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| The job, compact JSON | 29 bytes | JOB_MAX_BYTES |

## Error codes

| Code | When |
|---|---|
| `bad_job` | Not the shape. |
| `missing` | A required field is absent. |
| `too_big` | Over the byte cap. |
| `bad_kind` | Not a kind. |

```json valid
{\"script\": \"x\", \"kind\": \"shell\"}
```
";
    let toml = format!(
        "{TOML}max_bytes = \"too_big\"\npattern = \"bad_kind\"\n\n[caps.JOB_MAX_BYTES]\nrule = \"document_bytes\"\n"
    );
    let files = common::generated("jobs", md, &toml).unwrap_or_else(|d| panic!("{d}"));
    let corpus: Value = serde_json::from_str(&files["corpus/jobs/cases.json"]).unwrap();
    let byte_cases: Vec<(&Value, &Value)> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("max_bytes."))
        .map(|c| (&c["id"], &c["document"]))
        .collect();
    assert_eq!(
        byte_cases,
        [
            (
                &json!("max_bytes.ascii.n"),
                &json!({"script": "a", "kind": "shell"})
            ),
            (
                &json!("max_bytes.ascii.n+1"),
                &json!({"script": "aa", "kind": "shell"})
            ),
        ]
    );
    assert!(
        corpus["notes"].as_array().unwrap().contains(&json!(
            "max_bytes: no value of `script` keeps its rules and gives ascii n-1"
        )),
        "{:#}",
        corpus["notes"]
    );
}

/// Issue 46: a text (and a list) required under a condition is refused blank (empty) by the
/// runtime, so the schema's `then` states it as `✔ `code`` does, and a JSON Schema validator
/// refuses the blank value too.
const EXEMPT_MD: &str = "# Claims v1

## Fields of a `claim`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `category` | category | ✔ | The category. |
| `exemption_reason` | string? | if `category` is `E` | Why it is exempt. |
| `exempt_items` | string[]? | if `category` is `E` | What is exempt. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `exemption_reason` | 40 chars | REASON_MAX_CHARS |

## Values of `category`

| Value | Meaning |
|---|---|
| `E` | Exempt. |
| `S` | Standard. |

## Error codes

| Code | When |
|---|---|
| `bad_claim` | Not the shape. |
| `BR-E-10` | An exempt claim without its reason. |
| `too_long` | Too long. |

```json valid
{\"category\": \"S\"}
```
";

const EXEMPT_TOML: &str = "[spec]
root = \"claim\"

[errors]
enum = \"ClaimError\"
parse = \"bad_claim\"
required_if = \"BR-E-10\"
max_chars = \"too_long\"
";

#[test]
fn a_conditional_requirement_refuses_a_blank_value_in_the_schema_too() {
    let files =
        common::generated("claims", EXEMPT_MD, EXEMPT_TOML).unwrap_or_else(|d| panic!("{d}"));
    let schema: Value = serde_json::from_str(&files["schema/claims.schema.json"]).unwrap();
    let then = &schema["$defs"]["claim"]["allOf"][0]["then"]["properties"]["exemption_reason"];
    assert_eq!(then["minLength"], json!(1), "{then}");
    assert_eq!(then["maxLength"], json!(40), "{then}");
    assert_eq!(then["x-non-blank"], json!(true), "{then}");
    let items = &schema["$defs"]["claim"]["allOf"][1]["then"]["properties"]["exempt_items"];
    assert_eq!(items["minItems"], json!(1), "{items}");
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for (doc, valid) in [
        (
            json!({"category": "E", "exemption_reason": " \t\u{a0}", "exempt_items": ["a"]}),
            false,
        ),
        (
            json!({"category": "E", "exemption_reason": "", "exempt_items": ["a"]}),
            false,
        ),
        (
            json!({"category": "E", "exemption_reason": "\u{3000}", "exempt_items": ["a"]}),
            false,
        ),
        (
            json!({"category": "E", "exemption_reason": "diplomatic", "exempt_items": []}),
            false,
        ),
        (
            json!({"category": "E", "exemption_reason": " diplomatic ", "exempt_items": ["a"]}),
            true,
        ),
        (
            json!({"category": "S", "exemption_reason": " ", "exempt_items": []}),
            true,
        ),
        (json!({"category": "S"}), true),
    ] {
        assert_eq!(validator.is_valid(&doc), valid, "schema: {doc}");
        // The interpreter (the runtime's rules) gives the same answer.
        let verdict = common::verdict("claims", EXEMPT_MD, EXEMPT_TOML, &doc.to_string());
        assert_eq!(verdict.is_empty(), valid, "interpreter: {doc}: {verdict:?}");
        if !valid {
            assert!(
                verdict.iter().all(|v| v.starts_with("BR-E-10@")),
                "{verdict:?}"
            );
        }
    }
}
