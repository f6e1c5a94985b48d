//! Issue 35, item 2: decimal ranges on `number` (`number -90..=90`, `number 0..=359.5`),
//! through check (exact diagnostics), the emitted Rust, the schema, the corpus and the
//! interpreter; `-0.0` and exponents read as Python and Node read them.

use serde_json::{json, Value};
use specmint_codegen::load;

use crate::common;

const MD: &str = "# Points v1

## Fields of a `fix`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `lat` | number -90..=90 | ✔ | Latitude, degrees. |
| `heading` | number? 0..=359.5 | — | Heading, degrees. |
| `depths` | number[] 0.. | — | Depths, metres. |
| `gain` | number ..=1e3 | — (default 1.5) | Gain. |

## Error codes

| Code | When |
|---|---|
| `bad_fix` | Not the shape. |
| `out_of_range` | A number outside its bounds. |

```json valid
{\"lat\": 51.5}
```
";

const TOML: &str = "[spec]
root = \"fix\"

[errors]
parse = \"bad_fix\"
range = \"out_of_range\"
";

fn files(md: &str) -> std::collections::BTreeMap<String, String> {
    common::generated("points", md, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn edit(from: &str, to: &str) -> String {
    assert!(MD.contains(from), "{from:?} not in the base spec");
    MD.replacen(from, to, 1)
}

#[test]
fn rust_checks_decimal_bounds_with_the_range_code() {
    common::assert_holds(
        &files(MD)["rust/points.rs"],
        &[
            "#[validate(range(min = -90.0, max = 90.0, code = \"out_of_range\"))]\n    pub lat: f64,",
            "#[validate(range(min = 0.0, max = 359.5, code = \"out_of_range\"))]\n    pub heading: ::core::option::Option<f64>,",
            "#[validate(each(range(min = 0.0, code = \"out_of_range\")))]\n    pub depths: ::std::vec::Vec<f64>,",
            "#[validate(range(max = 1000.0, code = \"out_of_range\"))]\n    pub gain: f64,",
        ],
    );
}

#[test]
fn schema_states_decimal_bounds() {
    let schema: Value = serde_json::from_str(&files(MD)["schema/points.schema.json"]).unwrap();
    let p = &schema["$defs"]["fix"]["properties"];
    let bounds = |v: &Value| (v["minimum"].clone(), v["maximum"].clone());
    assert_eq!(bounds(&p["lat"]), (json!(-90), json!(90)));
    assert_eq!(bounds(&p["heading"]), (json!(0), json!(359.5)));
    assert_eq!(p["heading"]["type"], json!(["number", "null"]));
    assert_eq!(bounds(&p["depths"]["items"]), (json!(0), Value::Null));
    assert_eq!(bounds(&p["gain"]), (Value::Null, json!(1000)));
}

/// The corpus probes each bound, the nearest double past it and one past it, and `-0.0` at
/// a bound of 0; the interpreter and the schema agree on every case.
#[test]
fn corpus_probes_each_bound_and_the_schema_agrees() {
    let files = files(MD);
    let corpus: Value = serde_json::from_str(&files["corpus/points/cases.json"]).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/points.schema.json"]).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let spec = load(&common::source("points", MD, TOML)).unwrap();
    let interpreter = specmint_codegen::Validator::new(&spec);
    let mut ids = Vec::new();
    for case in corpus["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let doc = serde_json::to_string(&case["document"]).unwrap();
        let valid = case["valid"].as_bool().unwrap();
        assert_eq!(validator.is_valid(&case["document"]), valid, "{id}: {doc}");
        assert_eq!(
            interpreter.validate(doc.as_bytes()).is_ok(),
            valid,
            "{id}: {doc}"
        );
        if id.starts_with("range.") {
            ids.push((id.to_owned(), doc, case["errors"].clone()));
        }
    }
    let range = |path: &str| json!([{"code": "out_of_range", "path": path}]);
    let find = |id: &str| {
        ids.iter()
            .find(|c| c.0 == id)
            .unwrap_or_else(|| panic!("no case {id} in {ids:#?}"))
    };
    assert_eq!(find("range.heading.max").2, json!([]));
    let past = find("range.heading.max+ulp");
    assert!(past.1.contains("359.50000000000006"), "{}", past.1);
    assert_eq!(past.2, range("heading"));
    assert_eq!(find("range.lat.min-1").2, range("lat"));
    assert_eq!(find("range.lat.min").2, json!([]));
    assert_eq!(find("range.depths.min-ulp").2, range("depths[0]"));
    let zero = find("range.depths.min.negative_zero");
    assert!(zero.1.contains("-0.0"), "{}", zero.1);
    assert_eq!(zero.2, json!([]));
    assert_eq!(find("range.gain.max+1").2, range("gain"));
}

#[test]
fn the_interpreter_reads_exponents_and_negative_zero_as_json_does() {
    let verdict = |doc: &str| common::verdict("points", MD, TOML, doc);
    assert_eq!(
        verdict(r#"{"lat": -9e1, "heading": 3.595e2}"#),
        Vec::<String>::new()
    );
    assert_eq!(
        verdict(r#"{"lat": -0.0, "depths": [-0.0, 0E0]}"#),
        Vec::<String>::new()
    );
    assert_eq!(
        verdict(r#"{"lat": 9.0000001e1, "heading": 3.5951E+2, "depths": [-1e-300]}"#),
        [
            "out_of_range@lat: `lat` is 90.000001 (max 90)",
            "out_of_range@heading: `heading` is 359.51 (max 359.5)",
            "out_of_range@depths[0]: `depths[0]` is -1e-300 (min 0)",
        ]
    );
    // Beyond a double (Python reads `inf`, JavaScript `Infinity`): not a number JSON can
    // carry, refused as the shape.
    let refused = verdict(r#"{"lat": 1e400}"#);
    assert_eq!(refused.len(), 1);
    assert!(refused[0].starts_with("bad_fix@"), "{refused:?}");
}

#[test]
fn decimal_range_mistakes_are_reported_at_the_type_cell() {
    let errors = |md: &str| common::error_lines("points", md, TOML);
    assert_eq!(
        errors(&edit("number -90..=90", "number 90..=-90")),
        ["spec/points.md:7:11: error: the range `90..=-90` is empty"]
    );
    assert_eq!(
        errors(&edit("number -90..=90", "number -90..=inf")),
        ["spec/points.md:7:11: error: cannot read the bound `inf` of `-90..=inf`"]
    );
    assert_eq!(
        errors(&edit("number -90..=90", "number -90..=north")),
        ["spec/points.md:7:11: error: cannot read the bound `north` of `-90..=north`"]
    );
    assert_eq!(
        errors(&edit("number -90..=90", "number 0..360")),
        ["spec/points.md:7:11: error: the range `0..360` excludes its upper end"]
    );
    assert_eq!(
        errors(&edit(
            "| `gain` | number ..=1e3 | — (default 1.5) |",
            "| `gain` | number ..=1 | — (default 1.5) |"
        )),
        ["spec/points.md:10:26: error: default `1.5` is outside the field's range"]
    );
    // Decimal bounds are for `number`; an integer type says so.
    let md = edit(
        "| `lat` | number -90..=90 |",
        "| `lat` | int32 -90..=90.5 |",
    );
    let text = load(&common::source("points", &md, TOML))
        .unwrap_err()
        .to_string();
    assert_eq!(
        text,
        "spec/points.md:7:11: error: cannot read the range `-90..=90.5`\n  \
         hint: `int32` takes integer bounds: `1..=10`, `-5..`, `..=100` (decimal bounds are for `number`)"
    );
}

/// `specmint diff` compares decimal bounds as it does integer ones, with both in the message.
#[test]
fn diff_reports_a_decimal_range_widened_and_narrowed() {
    use specmint_codegen::diff::diff;
    let old = common::source("points", MD, TOML);
    let changes = |md: &str| {
        let new = common::source("points", md, TOML);
        let report = diff(std::slice::from_ref(&old), std::slice::from_ref(&new)).unwrap();
        report
            .changes
            .iter()
            .map(|c| format!("{}: {}", c.id, c.message))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        changes(&edit("number -90..=90", "number -90.5..=90")),
        ["range-widened: the bounds of `lat` are -90.5..=90, were -90..=90"]
    );
    assert_eq!(
        changes(&edit("number? 0..=359.5", "number? 0..=359")),
        ["range-narrowed: the bounds of `heading` are 0..=359, were 0..=359.5"]
    );
    assert_eq!(
        changes(&edit("number[] 0..", "number[]")),
        ["range-removed: `depths` no longer has bounds 0.."]
    );
}
