//! Format types (`date-time`, `date`, `uri`, `email`): the Rust rule, the schema's
//! `format`, the corpus probes (x-only where Python's and ajv's checkers disagree) and the
//! mistakes, at their cells.

use crate::common;
use serde_json::{json, Value};

const MD: &str = "# Stamps v1

## Fields of a `stamp`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `at` | date-time | ✔ | When. |
| `day` | date? | — | Which day. |
| `home` | uri | ✔ | Where. |
| `mail` | email[] | — | Who. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `home` | 30 chars | HOME_MAX_CHARS |

## Error codes

| Code | When |
|---|---|
| `bad_stamp` | Not the shape. |
| `bad_format` | Not in its format. |
| `too_long` | Too long. |

```json valid
{\"at\": \"2024-01-31T12:00:00Z\", \"home\": \"https://example.com\"}
```
";

const TOML: &str = "[spec]
root = \"stamp\"

[errors]
enum = \"StampError\"
parse = \"bad_stamp\"
format = \"bad_format\"
max_chars = \"too_long\"
";

fn files(md: &str, toml: &str) -> Result<std::collections::BTreeMap<String, String>, String> {
    common::generated("stamps", md, toml)
}

#[test]
fn rust_checks_the_format_of_each_value() {
    let rust = &files(MD, TOML).unwrap()["rust/stamps.rs"];
    common::assert_holds(
        rust,
        &[
        "#[validate(format(kind = \"date-time\", code = \"bad_format\"))]\n    pub at: ::std::string::String,",
        "#[validate(format(kind = \"date\", code = \"bad_format\"))]\n    pub day: ::core::option::Option<::std::string::String>,",
        "format(kind = \"uri\", code = \"bad_format\")",
        "#[validate(each(format(kind = \"email\", code = \"bad_format\")))]\n    pub mail: ::std::vec::Vec<::std::string::String>,",
        ],
    );
}

#[test]
fn schema_states_the_format() {
    let schema: Value =
        serde_json::from_str(&files(MD, TOML).unwrap()["schema/stamps.schema.json"]).unwrap();
    let p = &schema["$defs"]["stamp"]["properties"];
    assert_eq!(p["at"]["format"], "date-time");
    assert_eq!(
        (&p["day"]["format"], &p["day"]["type"]),
        (&json!("date"), &json!(["string", "null"]))
    );
    assert_eq!(
        (&p["home"]["format"], &p["home"]["maxLength"]),
        (&json!("uri"), &json!(30))
    );
    assert_eq!(p["mail"]["items"]["format"], "email");
}

#[test]
fn corpus_probes_are_judged_by_the_runtime_and_disagreements_are_x_only() {
    let corpus: Value =
        serde_json::from_str(&files(MD, TOML).unwrap()["corpus/stamps/cases.json"]).unwrap();
    let case = |id: &str| {
        corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"))
            .clone()
    };
    let bad = |path: &str| json!([{"code": "bad_format", "path": path}]);
    assert_eq!(case("format.at.valid")["errors"], json!([]));
    assert_eq!(case("format.at.feb_30")["errors"], bad("at"));
    assert_eq!(case("format.at.feb_30")["schema_expressible"], json!(true));
    let space = case("format.at.space");
    assert_eq!(space["errors"], bad("at"));
    assert_eq!(space["schema_expressible"], json!(false));
    assert_eq!(
        space["x_only_reason"],
        "ajv-formats accepts it, Python's RFC 3339 check refuses it"
    );
    assert_eq!(case("format.day.not_leap")["errors"], bad("day"));
    assert_eq!(case("format.mail.single_label")["errors"], bad("mail[0]"));
    assert_eq!(
        case("format.mail.single_label")["schema_expressible"],
        json!(false)
    );
    assert_eq!(case("format.home.valid")["errors"], json!([]));
    assert_eq!(case("format.home.no_scheme")["errors"], bad("home"));
}

#[test]
fn format_mistakes_are_reported_at_the_type_cell() {
    let cases = [
        (
            "| `at` | non-blank date-time |",
            "spec/stamps.md:7:10: error: a format type `date-time` takes no qualifier",
        ),
        (
            "| `at` | date-time matching `^2` |",
            "spec/stamps.md:7:10: error: `matching` applies to `string`, not `date-time`",
        ),
        (
            "| `at` | date-time 1..=2 |",
            "spec/stamps.md:7:10: error: a range applies to integers, `number` and `decimal` only, not `date-time`",
        ),
    ];
    for (to, expected) in cases {
        let md = MD.replacen("| `at` | date-time |", to, 1);
        assert_eq!(
            files(&md, TOML).unwrap_err().lines().next().unwrap(),
            expected,
            "{to}"
        );
    }
    let toml = TOML.replace("format = \"bad_format\"\n", "");
    assert_eq!(
        files(MD, &toml).unwrap_err().lines().next().unwrap(),
        "spec/stamps.md:7:10: error: no error code for formats"
    );
}

#[test]
fn a_table_cannot_be_named_like_a_built_in_type() {
    let md = MD.replace(
        "## Caps",
        "## Kinds: `date`\n\n| Value | Meaning |\n|---|---|\n| `x` | X. |\n\n## Caps",
    );
    assert_eq!(
        files(&md, TOML).unwrap_err().lines().next().unwrap(),
        "spec/stamps.md:12:11: error: table name `date` is a built-in type"
    );
}
