//! Minimum lengths and item counts: cap rows `at least N chars` / `at least N items`,
//! through check (exact diagnostics), the emitted Rust, the schema and the corpus.

use crate::common;
use serde_json::{json, Value};

const MD: &str = "# Mins v1

## Fields of a `form`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | Name. |
| `code` | string matching `^[A-Z]+$` | ✔ | Code. |
| `tags` | string[] | ✔ | Tags. |
| `owners` | string[]? | — | Owners. |
| `nick` | string | — (default \"anon\") | Nick. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `name` | at least 3 chars | NAME_MIN_CHARS |
| `name` | 10 chars | NAME_MAX_CHARS |
| `code` | at least 2 chars | CODE_MIN_CHARS |
| `tags` | at least 2 items | TAGS_MIN |
| `tags` | 4 | TAGS_MAX |
| `tags[]` | at least 1 chars | TAG_MIN_CHARS |
| `owners` | at least 1 | OWNERS_MIN |

## Error codes

| Code | When |
|---|---|
| `bad_form` | Not the shape. |
| `blank` | Blank. |
| `too_long` | Too long. |
| `too_short` | Too short. |
| `too_many` | Too many. |
| `too_few` | Too few. |
| `bad_code` | Not a code. |

```json valid
{\"name\": \"abc\", \"code\": \"AB\", \"tags\": [\"x\", \"y\"]}
```
";

const TOML: &str = "[spec]
root = \"form\"

[errors]
enum = \"FormError\"
parse = \"bad_form\"
non_blank = \"blank\"
max_chars = \"too_long\"
min_chars = \"too_short\"
max_items = \"too_many\"
min_items = \"too_few\"
pattern = \"bad_code\"
";

fn files(md: &str) -> std::collections::BTreeMap<String, String> {
    common::generated("mins", md, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn errors(md: &str, toml: &str) -> Vec<String> {
    common::error_lines("mins", md, toml)
}

fn edit(from: &str, to: &str) -> String {
    assert!(MD.contains(from), "{from:?} not in the base spec");
    MD.replacen(from, to, 1)
}

#[test]
fn rust_checks_each_minimum_with_its_constant_and_code() {
    let rust = &files(MD)["rust/mins.rs"];
    common::assert_holds(
        rust,
        &[
        "pub const NAME_MIN_CHARS: usize = 3;",
        "max_chars(max = NAME_MAX_CHARS, code = \"too_long\"),\n        min_chars(min = NAME_MIN_CHARS, code = \"too_short\")",
        "min_items(min = TAGS_MIN, code = \"too_few\"),\n        each(min_chars(min = TAG_MIN_CHARS, code = \"too_short\"))",
        "#[validate(min_items(min = OWNERS_MIN, code = \"too_few\"))]",
        ],
    );
}

#[test]
fn schema_states_min_length_and_min_items() {
    let schema: Value = serde_json::from_str(&files(MD)["schema/mins.schema.json"]).unwrap();
    let p = &schema["$defs"]["form"]["properties"];
    assert_eq!(
        (&p["name"]["minLength"], &p["name"]["maxLength"]),
        (&json!(3), &json!(10))
    );
    assert_eq!(p["code"]["minLength"], json!(2));
    assert_eq!(
        (&p["tags"]["minItems"], &p["tags"]["maxItems"]),
        (&json!(2), &json!(4))
    );
    assert_eq!(p["tags"]["items"]["minLength"], json!(1));
    assert_eq!(p["owners"]["minItems"], json!(1));
    assert_eq!(p["owners"]["type"], json!(["array", "null"]));
}

#[test]
fn non_blank_keeps_its_min_length_under_a_smaller_minimum() {
    // `non-blank` already says 1; a minimum of 1 says no more, and 3 says more.
    let md = edit(
        "| `name` | at least 3 chars |",
        "| `name` | at least 1 chars |",
    );
    let schema: Value = serde_json::from_str(&files(&md)["schema/mins.schema.json"]).unwrap();
    assert_eq!(
        schema["$defs"]["form"]["properties"]["name"]["minLength"],
        json!(1)
    );
}

#[test]
fn corpus_probes_each_minimum_below_at_and_above_it() {
    let corpus: Value = serde_json::from_str(&files(MD)["corpus/mins/cases.json"]).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let case = |id: &str| {
        let c = cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        (
            c["document"].clone(),
            c["errors"].clone(),
            c["schema_expressible"].clone(),
        )
    };
    let at = |code: &str, path: &str| json!([{"code": code, "path": path}]);
    let base = json!({"name": "abc", "code": "AB", "tags": ["x", "y"]});
    let with = |k: &str, v: Value| {
        let mut d = base.clone();
        d[k] = v;
        d
    };
    assert_eq!(
        case("min_chars.name.cjk.n-1"),
        (
            with("name", json!("字字")),
            at("too_short", "name"),
            json!(true)
        )
    );
    assert_eq!(
        case("min_chars.name.emoji.n"),
        (with("name", json!("😀😀😀")), json!([]), json!(true))
    );
    // An element probe keeps the list at its minimum item count.
    assert_eq!(
        case("min_chars.tags.ascii.n-1"),
        (
            with("tags", json!(["", "b"])),
            at("too_short", "tags[0]"),
            json!(true)
        )
    );
    assert_eq!(
        case("min_items.tags.n-1"),
        (
            with("tags", json!(["a"])),
            at("too_few", "tags"),
            json!(true)
        )
    );
    assert_eq!(
        case("min_items.tags.n"),
        (with("tags", json!(["a", "b"])), json!([]), json!(true))
    );
    assert_eq!(
        case("min_items.owners.n-1"),
        (
            with("owners", json!([])),
            at("too_few", "owners"),
            json!(true)
        )
    );
    // A pattern probe that is also too short says so.
    assert_eq!(
        case("pattern.code.x").1,
        json!([{"code": "too_short", "path": "code"}, {"code": "bad_code", "path": "code"}])
    );
    assert_eq!(
        corpus["notes"],
        json!(["min_chars.code: no value keeps the other rules of `code` for latin n+1, cjk n+1, emoji n+1, combining n+1"])
    );
}

#[test]
fn minimum_mistakes_are_reported_at_the_value_cell() {
    let cases = [
        (
            edit("| `name` | at least 3 chars |", "| `name` | at least 30 chars |"),
            TOML.to_owned(),
            vec!["spec/mins.md:18:12: error: `name` needs at least 30 chars but is capped at 10"],
        ),
        (
            edit("| `owners` | string[]? | — |", "| `owners` | string[] | — |"),
            TOML.to_owned(),
            vec!["spec/mins.md:23:14: error: `owners` is optional and reads as `[]` when absent, which has fewer than 1 items"],
        ),
        (
            edit("| `owners` | at least 1 | OWNERS_MIN |", "| `nick` | at least 5 chars | NICK_MIN |"),
            TOML.to_owned(),
            vec!["spec/mins.md:23:12: error: the default of `nick` is shorter than 5 chars"],
        ),
        (
            edit("| `owners` | at least 1 |", "| `owners` | at least 0 |"),
            TOML.to_owned(),
            vec!["spec/mins.md:23:14: error: `at least 0` says nothing: every value has at least 0"],
        ),
        (
            edit("| `code` | at least 2 chars | CODE_MIN_CHARS |", "| `name` | at least 2 chars | CODE_MIN_CHARS |"),
            TOML.to_owned(),
            vec!["spec/mins.md:19:12: error: `name` already has a minimum length: `NAME_MIN_CHARS` on line 17"],
        ),
        (
            edit("| `owners` | at least 1 | OWNERS_MIN |", "| Whole form | at least 9 bytes | FORM_MIN_BYTES |"),
            format!("{TOML}\n[caps.FORM_MIN_BYTES]\nrule = \"document_bytes\"\n"),
            vec!["spec/mins.md:23:16: error: `document_bytes` is a cap; `at least 9 bytes` is a minimum"],
        ),
        (
            MD.to_owned(),
            TOML.replace("min_items = \"too_few\"\n", ""),
            vec![
                "spec/mins.md:20:12: error: no error code for minimum item counts",
                "spec/mins.md:34:3: error: error code `too_few` is produced by nothing",
            ],
        ),
    ];
    for (md, toml, expected) in cases {
        assert_eq!(errors(&md, &toml), expected);
    }
}
