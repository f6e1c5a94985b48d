//! Integer widths and bounds: `int32`, and `BASE A..=B` ranges in the Type cell, through
//! check (exact diagnostics), the emitted Rust, the schema and the corpus.

use serde_json::{json, Value};
use specmint_codegen::load;
use specmint_codegen::model::{Base, IntRange};

use crate::common;

const MD: &str = "# Ints v1

## Fields of a `job`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `retries` | uint32 1..=10 | ✔ | Attempts. |
| `offset` | int32 | ✔ | Offset. |
| `delta` | int64? -5..=5 | — | Change. |
| `scores` | int32[] 0..=100 | — | Scores. |
| `budget` | uint64 1.. | — (default 3) | Budget. |

## Error codes

| Code | When |
|---|---|
| `bad_job` | Not the shape. |
| `out_of_range` | A number outside its bounds. |

```json valid
{\"retries\": 3, \"offset\": -7}
```
";

const TOML: &str = "[spec]
root = \"job\"

[errors]
enum = \"JobError\"
parse = \"bad_job\"
range = \"out_of_range\"
";

fn files(md: &str) -> std::collections::BTreeMap<String, String> {
    common::generated("ints", md, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn errors(md: &str, toml: &str) -> Vec<String> {
    common::error_lines("ints", md, toml)
}

fn edit(from: &str, to: &str) -> String {
    assert!(MD.contains(from), "{from:?} not in the base spec");
    MD.replacen(from, to, 1)
}

fn bounds(r: Option<IntRange>) -> Option<(Option<i128>, Option<i128>)> {
    r.map(|r| (r.min, r.max))
}

#[test]
fn type_cells_read_widths_and_bounds() {
    let spec = load(&common::source("ints", MD, TOML)).unwrap_or_else(|d| panic!("{d}"));
    let ty = |key: &str| {
        let f = spec.root_object().fields.iter().find(|f| f.key == key);
        f.expect("a field").ty.clone()
    };
    assert_eq!(
        (ty("retries").base, bounds(ty("retries").range)),
        (Base::U32, Some((Some(1), Some(10))))
    );
    assert_eq!((ty("offset").base, ty("offset").range), (Base::I32, None));
    let delta = ty("delta");
    assert!(delta.nullable);
    assert_eq!(bounds(delta.range), Some((Some(-5), Some(5))));
    assert!(ty("scores").array);
    assert_eq!(bounds(ty("budget").range), Some((Some(1), None)));
}

#[test]
fn rust_checks_each_bound_with_the_range_code() {
    let rust = &files(MD)["rust/ints.rs"];
    common::assert_holds(
        rust,
        &[
        "#[validate(range(min = 1, max = 10, code = \"out_of_range\"))]\n    pub retries: u32,",
        "pub offset: i32,",
        "#[validate(range(min = -5, max = 5, code = \"out_of_range\"))]\n    pub delta: ::core::option::Option<i64>,",
        "#[validate(each(range(min = 0, max = 100, code = \"out_of_range\")))]\n    pub scores: ::std::vec::Vec<i32>,",
        "#[validate(range(min = 1, code = \"out_of_range\"))]\n    pub budget: u64,",
        ],
    );
}

#[test]
fn schema_states_the_bounds_as_minimum_and_maximum() {
    let schema: Value = serde_json::from_str(&files(MD)["schema/ints.schema.json"]).unwrap();
    let p = &schema["$defs"]["job"]["properties"];
    let bounds = |v: &Value| (v["minimum"].clone(), v["maximum"].clone());
    assert_eq!(bounds(&p["retries"]), (json!(1), json!(10)));
    assert_eq!(bounds(&p["offset"]), (json!(i32::MIN), json!(i32::MAX)));
    assert_eq!(bounds(&p["delta"]), (json!(-5), json!(5)));
    assert_eq!(p["delta"]["type"], json!(["integer", "null"]));
    assert_eq!(bounds(&p["scores"]["items"]), (json!(0), json!(100)));
    assert_eq!(bounds(&p["budget"]), (json!(1), json!(u64::MAX)));
    assert_eq!(schema["x-error-codes"]["rules"]["range"], "out_of_range");
    assert_eq!(
        schema["x-schema-expressible-codes"],
        json!(["bad_job", "out_of_range"])
    );
}

#[test]
fn corpus_probes_each_bound_and_one_past_it() {
    let corpus: Value = serde_json::from_str(&files(MD)["corpus/ints/cases.json"]).unwrap();
    assert_eq!(corpus["notes"], json!([]));
    let verdicts: Vec<(String, Value, bool)> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            c["id"].as_str().unwrap().starts_with("range.")
                || c["id"].as_str().unwrap().starts_with("integer.retries.")
                || c["id"].as_str().unwrap().starts_with("integer.offset.")
        })
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["errors"].clone(),
                c["schema_expressible"].as_bool().unwrap(),
            )
        })
        .collect();
    let none = json!([]);
    let range = |path: &str| json!([{"code": "out_of_range", "path": path}]);
    let parse = |path: &str| json!([{"code": "bad_job", "path": path}]);
    let expected = vec![
        ("integer.offset.fraction", parse("offset"), true),
        ("integer.offset.max", none.clone(), true),
        ("integer.offset.max+1", parse("offset"), true),
        ("integer.offset.min", none.clone(), true),
        ("integer.offset.min-1", parse("offset"), true),
        ("integer.offset.whole_float", parse("offset"), false),
        ("integer.retries.fraction", parse("retries"), true),
        // Within `uint32`, outside the range.
        ("integer.retries.max", range("retries"), true),
        ("integer.retries.max+1", parse("retries"), true),
        ("integer.retries.neg", parse("retries"), true),
        ("integer.retries.whole_float", parse("retries"), false),
        ("range.budget.min", none.clone(), true),
        ("range.budget.min-1", range("budget"), true),
        ("range.delta.max", none.clone(), true),
        ("range.delta.max+1", range("delta"), true),
        ("range.delta.min", none.clone(), true),
        ("range.delta.min-1", range("delta"), true),
        ("range.retries.max", none.clone(), true),
        ("range.retries.max+1", range("retries"), true),
        ("range.retries.min", none.clone(), true),
        ("range.retries.min-1", range("retries"), true),
        ("range.scores.max", none.clone(), true),
        ("range.scores.max+1", range("scores[0]"), true),
        ("range.scores.min", none.clone(), true),
        ("range.scores.min-1", range("scores[0]"), true),
    ];
    let expected: Vec<(String, Value, bool)> = expected
        .into_iter()
        .map(|(id, e, x)| (id.to_owned(), e, x))
        .collect();
    assert_eq!(verdicts, expected);
}

#[test]
fn a_bound_beyond_2_pow_53_is_judged_by_the_rust_reader_only() {
    let md = edit(
        "| `budget` | uint64 1.. |",
        "| `budget` | uint64 1..=18014398509481985 |",
    );
    let corpus: Value = serde_json::from_str(&files(&md)["corpus/ints/cases.json"]).unwrap();
    let case = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "range.budget.max+1")
        .expect("the probe");
    assert_eq!(case["document"]["budget"], json!(18014398509481986u64));
    assert_eq!(case["schema_expressible"], json!(false));
    assert!(case["x_only_reason"].as_str().unwrap().contains("2^53"));
}

#[test]
fn range_mistakes_are_reported_at_the_type_cell() {
    let cases = [
        (
            "| `offset` | string 1..=3 |",
            "spec/ints.md:8:14: error: a range applies to integers, `number` and `decimal` only, not `string`",
        ),
        (
            "| `offset` | int32 5..=1 |",
            "spec/ints.md:8:14: error: the range `5..=1` is empty",
        ),
        (
            "| `offset` | int32 1..10 |",
            "spec/ints.md:8:14: error: the range `1..10` excludes its upper end",
        ),
        (
            "| `offset` | uint32 -1..=3 |",
            "spec/ints.md:8:14: error: the bound `-1` is outside `uint32` (0..=4294967295)",
        ),
        (
            "| `offset` | int32 ..=3000000000 |",
            "spec/ints.md:8:14: error: the bound `3000000000` is outside `int32` (-2147483648..=2147483647)",
        ),
        (
            "| `offset` | int32 a..=3 |",
            "spec/ints.md:8:14: error: cannot read the range `a..=3`",
        ),
        (
            "| `offset` | int32 .. |",
            "spec/ints.md:8:14: error: cannot read the range `..`",
        ),
    ];
    for (to, expected) in cases {
        let md = edit("| `offset` | int32 |", to);
        assert_eq!(errors(&md, TOML), [expected.to_string()], "{to}");
    }
    let md = edit(
        "| `budget` | uint64 1.. | — (default 3) |",
        "| `budget` | uint64 5.. | — (default 3) |",
    );
    assert_eq!(
        errors(&md, TOML),
        ["spec/ints.md:11:27: error: default `3` is outside the field's range"]
    );
    let toml = TOML.replace("range = \"out_of_range\"\n", "");
    assert_eq!(
        errors(MD, &toml),
        [
            "spec/ints.md:7:15: error: no error code for ranges",
            "spec/ints.md:18:3: error: error code `out_of_range` is produced by nothing",
        ],
        "reported once, at the first ranged field"
    );
}

/// Issue 23, item 3: `0..100` may be Rust's (0 to 99) or a percent's (0 to 100): the hint
/// gives both readings.
#[test]
fn an_exclusive_range_hint_gives_both_readings() {
    let md = edit("| `offset` | int32 |", "| `offset` | int32 0..100 |");
    let text = load(&common::source("ints", &md, TOML))
        .expect_err("exclusive")
        .to_string();
    assert_eq!(
        text,
        "spec/ints.md:8:14: error: the range `0..100` excludes its upper end\n  \
         hint: bounds are inclusive: write `0..=99` to exclude 100, as Rust reads `0..100`, \
         or `0..=100` to allow it"
    );
}
