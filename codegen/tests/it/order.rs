//! `[[order]]`: one field of an object before another (`a < b` when strict, else
//! `a <= b`), for integers, numbers, dates and date-times (compared as instants): the
//! derive attribute, the schema's `x-order`, the interpreter's verdicts, the corpus's cases
//! on both sides of the boundary, and the mistakes a sidecar can make.

use serde_json::{json, Value};
use specmint_codegen::{load, Validator};

use crate::common;

const MD: &str = "# Releases v1

## Fields of a `release`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | string | ✔ | The release. |
| `min_version` | uint32 | ✔ | The oldest version it upgrades from. |
| `version` | uint32 | ✔ | Its own version. |
| `not_before` | date-time | ✔ | When it may be installed. |
| `not_after` | date-time? | — | When it may no longer be installed. |
| `share` | number | — (default 0.5) | The share of the fleet at first. |
| `full_share` | number | — (default 1) | The share at the end. |
| `tags` | string[] | — | Labels. |
| `day` | date? | — | The day it was cut. |
| `flag` | bool | — (default false) | A flag. |

## Error codes

| Code | When |
|---|---|
| `bad_release` | Not the shape. |
| `bad_format` | Not a date or date-time. |
| `version_too_old` | `version` is below `min_version`. |
| `empty_window` | `not_after` is not after `not_before`. |
| `share_shrinks` | The share falls. |

```json valid
{\"name\": \"r1\", \"min_version\": 3, \"version\": 3, \"not_before\": \"2024-05-01T10:00:00Z\"}
```

```json invalid version_too_old@version empty_window@not_after
{\"name\": \"r1\", \"min_version\": 4, \"version\": 3, \"not_before\": \"2024-05-01T10:00:00Z\", \"not_after\": \"2024-05-01T11:00:00+01:00\"}
```
";

const TOML: &str = "[spec]
root = \"release\"

[errors]
parse = \"bad_release\"
format = \"bad_format\"

[[order]]
a = \"min_version\"
b = \"version\"
strict = false
code = \"version_too_old\"

[[order]]
a = \"not_before\"
b = \"not_after\"
strict = true
code = \"empty_window\"

[[order]]
a = \"share\"
b = \"full_share\"
strict = false
code = \"share_shrinks\"
";

fn files() -> std::collections::BTreeMap<String, String> {
    common::generated("releases", MD, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn verdict(doc: &str) -> Vec<String> {
    common::verdict("releases", MD, TOML, doc)
}

#[test]
fn rust_orders_with_the_derive() {
    common::assert_holds(
        &files()["rust/releases.rs"],
        &["#[validate(\n    order(a = min_version, b = version, code = \"version_too_old\"),\n    order(a = not_before, b = not_after, strict, code = \"empty_window\"),\n    order(a = share, b = full_share, code = \"share_shrinks\")\n)]"],
    );
}

#[test]
fn schema_states_the_order_as_an_x_keyword() {
    let schema: Value = serde_json::from_str(&files()["schema/releases.schema.json"]).unwrap();
    assert_eq!(
        schema["$defs"]["release"]["x-order"],
        json!([
            {"a": "min_version", "b": "version", "strict": false, "code": "version_too_old"},
            {"a": "not_before", "b": "not_after", "strict": true, "code": "empty_window"},
            {"a": "share", "b": "full_share", "strict": false, "code": "share_shrinks"},
        ])
    );
}

#[test]
fn the_interpreter_reports_at_the_later_field_with_both_values() {
    let doc = |extra: &str| {
        format!(
            r#"{{"name": "r", "min_version": 5, "not_before": "2024-05-01T10:00:00Z", {extra}}}"#
        )
    };
    assert_eq!(
        verdict(&doc(r#""version": 4"#)),
        ["version_too_old@version: `version` `4` must not be less than `min_version` `5`"]
    );
    // Not strict: equal is in order.
    assert_eq!(verdict(&doc(r#""version": 5"#)), Vec::<String>::new());
    // Strict, and one instant in two offsets is equal: refused.
    assert_eq!(
        verdict(&doc(r#""version": 5, "not_after": "2024-05-01T11:00:00+01:00""#)),
        ["empty_window@not_after: `not_after` `2024-05-01T11:00:00+01:00` must be later than `not_before` `2024-05-01T10:00:00Z`"]
    );
    // Later as an instant, though earlier on the clock face.
    assert_eq!(
        verdict(&doc(
            r#""version": 5, "not_after": "2024-05-01T06:00:01-04:00""#
        )),
        Vec::<String>::new()
    );
    assert_eq!(
        verdict(&doc(r#""version": 5, "not_after": "2024-05-01T10:59:59+01:00""#)),
        ["empty_window@not_after: `not_after` `2024-05-01T10:59:59+01:00` must be later than `not_before` `2024-05-01T10:00:00Z`"]
    );
    // Absent or null: nothing to compare.
    assert_eq!(
        verdict(&doc(r#""version": 5, "not_after": null"#)),
        Vec::<String>::new()
    );
    // Not a date-time: its format rule reports it, the order says nothing.
    assert_eq!(
        verdict(&doc(r#""version": 5, "not_after": "soon""#)),
        ["bad_format@not_after: `not_after` `soon` is not a valid date-time"]
    );
    // A default takes part: `full_share` defaults to 1.
    assert_eq!(
        verdict(&doc(r#""version": 5, "share": 1.5"#)),
        ["share_shrinks@full_share: `full_share` `1` must not be less than `share` `1.5`"]
    );
}

#[test]
fn corpus_cases_sit_on_both_sides_of_the_boundary() {
    let corpus: Value = serde_json::from_str(&files()["corpus/releases/cases.json"]).unwrap();
    let case = |id: &str| {
        let c = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        let d = &c["document"];
        let pair = |a: &str, b: &str| (d[a].clone(), d[b].clone());
        (
            pair("min_version", "version"),
            pair("not_before", "not_after"),
            pair("share", "full_share"),
            c["errors"].clone(),
            c["schema_expressible"].clone(),
        )
    };
    let err = |code: &str, path: &str| json!([{"code": code, "path": path}]);
    let ok = json!([]);
    let (v, _, _, errors, expressible) = case("order.version.before");
    assert_eq!(
        (v, errors, expressible),
        (
            (json!(3), json!(2)),
            err("version_too_old", "version"),
            json!(false)
        )
    );
    let (v, _, _, errors, expressible) = case("order.version.equal");
    assert_eq!(
        (v, errors, expressible),
        ((json!(3), json!(3)), ok.clone(), json!(true))
    );
    let (v, _, _, errors, _) = case("order.version.after");
    assert_eq!((v, errors), ((json!(3), json!(4)), ok.clone()));
    let window = |b: &str| (json!("2024-05-01T10:00:00Z"), json!(b));
    let (_, w, _, errors, _) = case("order.not_after.equal");
    assert_eq!(
        (w, errors),
        (
            window("2024-05-01T10:00:00Z"),
            err("empty_window", "not_after")
        )
    );
    let (_, w, _, errors, _) = case("order.not_after.equal_other_offset");
    assert_eq!(
        (w, errors),
        (
            window("2024-05-01T11:00:00+01:00"),
            err("empty_window", "not_after")
        )
    );
    let (_, w, _, errors, _) = case("order.not_after.before");
    assert_eq!(
        (w, errors),
        (
            window("2024-05-01T10:59:59+01:00"),
            err("empty_window", "not_after")
        )
    );
    let (_, w, _, errors, _) = case("order.not_after.after");
    assert_eq!(
        (w, errors),
        (window("2024-05-01T10:00:00.001Z"), ok.clone())
    );
    let (_, _, s, errors, _) = case("order.full_share.before");
    assert_eq!(
        (s, errors),
        (
            (json!(1.5), json!(1.25)),
            err("share_shrinks", "full_share")
        )
    );
    let (_, _, s, errors, _) = case("order.full_share.equal");
    assert_eq!((s, errors), ((json!(1.5), json!(1.5)), ok));
}

/// Every corpus case gets its stated verdict from the interpreter.
#[test]
fn the_interpreter_agrees_with_every_corpus_case() {
    let spec = load(&common::source("releases", MD, TOML)).unwrap();
    let validator = Validator::new(&spec);
    let corpus: Value = serde_json::from_str(&files()["corpus/releases/cases.json"]).unwrap();
    for c in corpus["cases"].as_array().unwrap() {
        let doc = serde_json::to_vec(&c["document"]).unwrap();
        let got: Vec<Value> = match validator.validate(&doc) {
            Ok(_) => Vec::new(),
            Err(r) => r
                .iter()
                .map(|v| json!({"code": v.code, "path": v.path}))
                .collect(),
        };
        assert_eq!(Value::Array(got), c["errors"], "{}", c["id"]);
    }
}

#[test]
fn only_two_integers_numbers_dates_or_date_times_are_ordered() {
    let rule = |a: &str, b: &str, strict: &str| {
        format!("{TOML}\n[[order]]\na = \"{a}\"\nb = \"{b}\"\n{strict}code = \"empty_window\"\n")
    };
    let strict = "strict = true\n";
    let hint = "  hint: [[order]] compares two integers, two numbers, two `date` or two `date-time` fields (`T?` allowed), not lists, text, bools, enums, tables or unions";
    let cases = [
        (
            rule("name", "version", strict),
            vec!["spec/releases.toml:27:5: error: `name` (text) cannot be ordered", hint],
        ),
        (
            rule("version", "tags", strict),
            vec!["spec/releases.toml:28:5: error: `tags` (a list of text) cannot be ordered", hint],
        ),
        (
            rule("flag", "version", strict),
            vec!["spec/releases.toml:27:5: error: `flag` (a bool) cannot be ordered", hint],
        ),
        (
            rule("version", "share", strict),
            vec!["spec/releases.toml:28:5: error: `version` is an integer and `share` is a number: they cannot be ordered", hint],
        ),
        (
            rule("day", "not_after", strict),
            vec!["spec/releases.toml:28:5: error: `day` is a date and `not_after` is a date-time: they cannot be ordered", hint],
        ),
        (
            rule("version", "version", strict),
            vec![
                "spec/releases.toml:28:5: error: [[order]] compares `version` with itself",
                "  hint: name two different fields: `a` the one that comes first, `b` the one after",
            ],
        ),
        (
            rule("min_version", "version", ""),
            vec![
                "spec/releases.toml:26:1: error: [[order]] has no `strict`",
                "  hint: add `strict = true` for `a < b` or `strict = false` for `a <= b`",
            ],
        ),
    ];
    for (toml, expected) in cases {
        let d = load(&common::source("releases", MD, &toml)).expect_err("a mistake");
        assert_eq!(
            d.to_string().lines().collect::<Vec<_>>(),
            expected,
            "{toml}"
        );
    }
}
