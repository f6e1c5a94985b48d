//! Issue 47, deliverable 1: the `decimal` type (`decimal(2)`, `decimal(5, 2)`, exact and
//! exclusive bounds) through check (diagnostics at the cell), the emitted Rust, the schema,
//! the corpus, the interpreter (which reads the number's text exactly, as the generated
//! Rust does) and `specmint diff`.

use serde_json::{json, Value};
use specmint_codegen::{load, Options};

use crate::common;

const MD: &str = "# Ledger v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `total` | decimal(2) 0..=999999999999.99 | ✔ | The total. |
| `rate` | decimal(5, 2)? 0<..<100 | — | A rate, percent. |
| `lines` | decimal(2)[] | — | Line amounts. |
| `count` | decimal(0)? ..=1e3 | — | A count. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `out_of_range` | A decimal outside its bounds. |
| `bad_scale` | A decimal with more digits than its type. |

```json valid
{\"total\": 12.50, \"rate\": 7.5, \"lines\": [10, 2.50], \"count\": 3}
```
";

const TOML: &str = "[spec]
root = \"invoice\"

[errors]
parse = \"bad_invoice\"
range = \"out_of_range\"
scale = \"bad_scale\"
";

fn files(md: &str) -> std::collections::BTreeMap<String, String> {
    common::generated("ledger", md, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn edit(from: &str, to: &str) -> String {
    assert!(MD.contains(from), "{from:?} not in the base spec");
    MD.replacen(from, to, 1)
}

fn verdict(doc: &str) -> Vec<String> {
    common::verdict("ledger", MD, TOML, doc)
}

#[test]
fn rust_holds_a_decimal_with_its_scale_and_exact_bounds() {
    common::assert_holds(
        &files(MD)["rust/ledger.rs"],
        &[
            "#[validate(\n        scale(max = 2, code = \"bad_scale\"),\n        decimal_range(min = \"0\", max = \"999999999999.99\", code = \"out_of_range\")\n    )]\n    pub total: ::specmint_runtime::decimal::Decimal,",
            "decimal_range(above = \"0\", below = \"100\", code = \"out_of_range\")",
            "scale(max = 2, precision = 5, code = \"bad_scale\")",
            "pub rate: ::core::option::Option<::specmint_runtime::decimal::Decimal>,",
            "#[validate(each(scale(max = 2, code = \"bad_scale\")))]",
            "decimal_range(max = \"1000\", code = \"out_of_range\")",
        ],
    );
}

#[test]
fn schema_states_the_bounds_and_carries_the_scale_as_an_x_keyword() {
    let schema: Value = serde_json::from_str(&files(MD)["schema/ledger.schema.json"]).unwrap();
    let p = &schema["$defs"]["invoice"]["properties"];
    assert_eq!(
        p["total"],
        json!({"type": "number", "x-decimal": {"scale": 2}, "minimum": 0, "maximum": 999999999999.99, "description": "The total."})
    );
    assert_eq!(p["rate"]["type"], json!(["number", "null"]));
    assert_eq!(p["rate"]["x-decimal"], json!({"scale": 2, "precision": 5}));
    assert_eq!(
        (
            &p["rate"]["exclusiveMinimum"],
            &p["rate"]["exclusiveMaximum"]
        ),
        (&json!(0), &json!(100))
    );
    assert_eq!(p["rate"]["minimum"], Value::Null);
    assert_eq!(p["lines"]["items"]["x-decimal"], json!({"scale": 2}));
    // The scale is an x- rule: its code is not one the schema states.
    let codes = &schema["x-error-codes"];
    assert!(codes.to_string().contains("bad_scale"), "{codes}");
}

#[test]
fn the_interpreter_reads_the_numbers_text_exactly() {
    assert_eq!(
        verdict(r#"{"total": 999999999999.99}"#),
        Vec::<String>::new()
    );
    // Trailing zeros change no value and count against no scale; `1e-2` is 0.01; `-0` is 0.
    assert_eq!(
        verdict(
            r#"{"total": 100.000, "lines": [1e-2, -0, 0.10000000000000000000000000], "count": 1E+3}"#
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        verdict(r#"{"total": 999999999999.99001, "rate": 0, "lines": [0.001], "count": 1000.5}"#),
        [
            "bad_scale@total: `total` is 999999999999.99001, with 5 fraction digits (max 2)",
            "out_of_range@total: `total` is 999999999999.99001 (max 999999999999.99)",
            "out_of_range@rate: `rate` is 0 (must be above 0)",
            "bad_scale@lines[0]: `lines[0]` is 0.001, with 3 fraction digits (max 2)",
            "bad_scale@count: `count` is 1000.5, with 1 fraction digit (max 0)",
            "out_of_range@count: `count` is 1000.5 (max 1000)",
        ]
    );
    assert_eq!(
        verdict(r#"{"total": 1, "rate": 100.00}"#),
        ["out_of_range@rate: `rate` is 100.00 (must be below 100)"]
    );
    assert_eq!(
        verdict(r#"{"total": 1, "rate": 1000}"#),
        [
            "bad_scale@rate: `rate` is 1000, with 4 integer digits (max 3 in decimal(5, 2))",
            "out_of_range@rate: `rate` is 1000 (must be below 100)",
        ]
    );
    // A string is not a decimal, nor is a number of 29 digits: the shape's code.
    for doc in [
        r#"{"total": "12.50"}"#,
        r#"{"total": 12345678901234567890123456789}"#,
        r#"{"total": 1e30}"#,
    ] {
        let v = verdict(doc);
        assert_eq!(v.len(), 1, "{doc}: {v:?}");
        assert!(v[0].starts_with("bad_invoice@total: "), "{doc}: {v:?}");
    }
    assert!(verdict(r#"{"total": "12.50"}"#)[0]
        .contains("invalid type: string \"12.50\", expected a decimal number"));
}

/// The generated Rust, built, judges the same texts as the interpreter: the same codes,
/// paths, messages and order, and writes a document back in the same canonical form.
#[test]
fn the_generated_rust_compiles_and_agrees_with_the_interpreter() {
    let fixed = [
        r#"{"total": 12.50, "rate": 7.5, "lines": [10, 2.50], "count": 3}"#,
        r#"{"total": 100.000, "lines": [1e-2, -0, -0.00], "count": 1E+3}"#,
        r#"{"total": 999999999999.99001, "rate": 0, "lines": [0.001], "count": 1000.5}"#,
        r#"{"total": 1, "rate": 100.00}"#,
        r#"{"total": 1, "rate": 1000}"#,
        r#"{"total": "12.50"}"#,
        r#"{"total": 12345678901234567890123456789}"#,
        r#"{"total": -0.01, "lines": [true]}"#,
    ];
    // And every case of the generated corpus, by its exact text.
    let corpus: Value = serde_json::from_str(&files(MD)["corpus/ledger/cases.json"]).unwrap();
    let cases = corpus["cases"].as_array().unwrap().iter().map(|case| {
        case["text"].as_str().map_or_else(
            || serde_json::to_string(&case["document"]).unwrap(),
            str::to_owned,
        )
    });
    let docs: Vec<String> = fixed.iter().map(|d| (*d).to_owned()).chain(cases).collect();
    assert!(docs.len() > 40, "{}", docs.len());
    let main = format!(
        "const DOCS: &[&str] = &{docs:?};
fn main() {{
    for doc in DOCS {{
        match specmint_compiles::ledger::Invoice::from_json_str(doc) {{
            Ok(v) => println!(\"= {{}}\", v.to_canonical_json()),
            Err(report) => {{
                for v in report.iter() {{
                    println!(\"{{}}@{{}}: {{}}\", v.code, v.path, v.message);
                }}
            }}
        }}
        println!(\"--\");
    }}
}}
"
    );
    let spec = common::source("ledger", MD, TOML);
    let compiled = crate::compiles::assert_builds(
        "compiles-ledger",
        std::slice::from_ref(&spec),
        &Options::default(),
        Some(&main),
    );
    let loaded = load(&spec).unwrap();
    let validator = specmint_codegen::Validator::new(&loaded);
    let interpreted = interpreted(&validator, &docs);
    assert_eq!(compiled, interpreted);
    let blocks: Vec<&str> = interpreted.split_terminator("--\n").collect();
    assert_eq!(
        blocks[0],
        "= {\"total\":12.50,\"rate\":7.5,\"lines\":[10,2.50],\"count\":3}\n"
    );
    assert_eq!(
        blocks[1],
        "= {\"total\":100.000,\"lines\":[0.01,0,0.00],\"count\":1000}\n"
    );
    assert_eq!(blocks[2].lines().count(), 6, "{}", blocks[2]);
}

/// The corpus probes the scale and each bound with one unit of the scale on either side;
/// the interpreter agrees with every case and the schema with every case it can judge.
#[test]
fn corpus_probes_the_scale_and_each_bound() {
    let files = files(MD);
    let corpus: Value = serde_json::from_str(&files["corpus/ledger/cases.json"]).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/ledger.schema.json"]).unwrap();
    let schema_check = jsonschema::draft202012::new(&schema).unwrap();
    let spec = load(&common::source("ledger", MD, TOML)).unwrap();
    let interpreter = specmint_codegen::Validator::new(&spec);
    let mut found = std::collections::BTreeMap::new();
    for case in corpus["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        // The exact text when the case has one (a decimal's spelling), else the document.
        let doc = case["text"].as_str().map_or_else(
            || serde_json::to_string(&case["document"]).unwrap(),
            str::to_owned,
        );
        let valid = case["valid"].as_bool().unwrap();
        let got: Vec<Value> = match interpreter.validate(doc.as_bytes()) {
            Ok(_) => Vec::new(),
            Err(r) => r
                .iter()
                .map(|v| json!({"code": v.code.to_string(), "path": v.path}))
                .collect(),
        };
        assert_eq!(json!(got), case["errors"], "{id}: {doc}");
        if case["schema_expressible"].as_bool().unwrap() {
            assert_eq!(
                schema_check.is_valid(&case["document"]),
                valid,
                "{id}: {doc}"
            );
        }
        found.insert(
            id.to_owned(),
            (
                doc,
                case["errors"].clone(),
                case["schema_expressible"].clone(),
            ),
        );
    }
    let at = |id: &str| {
        found
            .get(id)
            .unwrap_or_else(|| panic!("no case {id} in {:#?}", found.keys()))
            .clone()
    };
    let scale = |p: &str| json!([{"code": "bad_scale", "path": p}]);
    let range = |p: &str| json!([{"code": "out_of_range", "path": p}]);
    assert_eq!(at("scale.total.at").1, json!([]));
    assert_eq!(at("scale.total.past").1, scale("total"));
    assert_eq!(at("scale.total.past").2, json!(false));
    assert!(at("scale.total.negative_zero").0.contains("-0.0"));
    assert_eq!(at("scale.total.negative_zero").1, json!([]));
    assert!(at("scale.count.trailing_zero").0.contains(".0"));
    assert_eq!(at("scale.count.trailing_zero").1, json!([]));
    assert_eq!(
        at("scale.rate.integer_digits").1,
        json!([{"code": "bad_scale", "path": "rate"}, {"code": "out_of_range", "path": "rate"}])
    );
    assert_eq!(at("scale.lines.past").1, scale("lines[0]"));
    assert_eq!(at("range.total.max").1, json!([]));
    assert!(at("range.total.max").0.contains("999999999999.99"));
    assert_eq!(at("range.total.max+unit").1, range("total"));
    assert_eq!(at("range.total.min-unit").1, range("total"));
    assert_eq!(at("range.rate.min").1, range("rate"));
    assert_eq!(at("range.rate.min+unit").1, json!([]));
    assert_eq!(at("range.rate.max").1, range("rate"));
    assert_eq!(at("range.rate.max-unit").1, json!([]));
    assert_eq!(at("range.count.max+unit").1, range("count"));
    // The exact readings, as the case's text.
    assert!(at("scale.total.exponent_fraction").0.contains(":1e-2"));
    assert_eq!(at("scale.total.exponent_fraction").1, json!([]));
    assert!(at("scale.total.trailing_zeros").0.contains(".000"));
    assert_eq!(at("scale.total.trailing_zeros").1, json!([]));
    assert!(at("scale.total.negative_zero_integer").0.contains(":-0"));
    assert_eq!(at("scale.total.negative_zero_integer").1, json!([]));
    assert_eq!(at("scale.total.past_a_double").1, scale("total"));
    assert_eq!(at("scale.total.past_a_double").2, json!(false));
    assert!(at("range.total.max.past_a_double")
        .0
        .contains(":999999999999.990001"));
    assert_eq!(
        at("range.total.max.past_a_double").1,
        json!([{"code": "bad_scale", "path": "total"}, {"code": "out_of_range", "path": "total"}])
    );
    assert!(at("scale.total.digits_29").0.contains(&"1".repeat(29)));
    assert_eq!(
        at("scale.total.digits_29").1,
        json!([{"code": "bad_invoice", "path": "total"}])
    );
    assert_eq!(at("scale.lines.exponent_fraction").1, json!([]));
    // The spec's example, as written (`12.50`, not `12.5`).
    assert!(found.keys().any(|id| id.starts_with("example.")));
    let example = found
        .iter()
        .find(|(id, _)| id.starts_with("example."))
        .unwrap();
    assert!(example.1 .0.contains("12.50"), "{}", example.1 .0);
}

#[test]
fn decimal_mistakes_are_reported_at_the_type_cell() {
    let errors = |md: &str| common::error_lines("ledger", md, TOML);
    let cell = "decimal(2) 0..=999999999999.99";
    for (to, message) in [
        ("decimal", "`decimal` needs a scale"),
        ("decimal(x)", "cannot read the decimal type `decimal(x)`"),
        ("decimal(2", "cannot read the decimal type `decimal(2`"),
        (
            "decimal(29)",
            "the scale 29 of `decimal(29)` is more than 28",
        ),
        (
            "decimal(30, 2)",
            "the precision 30 of `decimal(30, 2)` is more than 28",
        ),
        (
            "decimal(2, 3)",
            "the precision 2 of `decimal(2, 3)` is less than its scale 3",
        ),
        (
            "decimal(2) 0..=1.001",
            "the bound `1.001` has more fraction digits than the scale 2 of `decimal(2)`",
        ),
        (
            "decimal(4, 2) 0..=1000",
            "the bound `1000` is outside `decimal(4, 2)` (at most 2 integer digits)",
        ),
        (
            "decimal(2) 0..100",
            "the range `0..100` does not say whether it includes 100",
        ),
        ("decimal(2) 5..=1", "the range `5..=1` is empty"),
        ("decimal(2) 1<..=1", "the range `1<..=1` is empty"),
        ("decimal(2) <..=1", "cannot read the range `<..=1`"),
        ("decimal(2) 0..=", "cannot read the range `0..=`"),
        ("decimal(2) 0..=x", "cannot read the bound `x` of `0..=x`"),
        (
            "non-blank decimal(2)",
            "`non-blank` applies to strings only, not `decimal(2)`",
        ),
    ] {
        assert_eq!(
            errors(&edit(cell, to)),
            [format!("spec/ledger.md:7:13: error: {message}")],
            "{to}"
        );
    }
    // Exclusive bounds are the decimal's: an integer or a number says so.
    assert_eq!(
        errors(&edit(cell, "int32 0<..")),
        ["spec/ledger.md:7:13: error: the range `0<..` excludes a bound, which `int32` cannot"]
    );
    // A default, a union member.
    assert_eq!(
        errors(&edit(
            "| `count` | decimal(0)? ..=1e3 | — |",
            "| `count` | decimal(0) | — (default 1) |"
        )),
        ["spec/ledger.md:10:26: error: a stated default (`1`) on a decimal field"]
    );
    // Without `[errors] scale`, the code is asked for.
    let text = load(&common::source(
        "ledger",
        MD,
        &TOML.replace("scale = \"bad_scale\"\n", ""),
    ))
    .unwrap_err()
    .to_string();
    assert!(text.contains("scale"), "{text}");
}

#[test]
fn a_decimal_member_of_a_union_is_a_diagnostic() {
    let md = MD.replace(
        "## Error codes",
        "## Payments: `payment`\n\n| `kind` | Fields | Meaning |\n|---|---|---|\n| `cash` | `amount: decimal(2)` | Cash. |\n\n## Error codes",
    )
    .replace("| `count` | decimal(0)? ..=1e3 | — | A count. |", "| `count` | decimal(0)? ..=1e3 | — | A count. |\n| `paid` | payment? | — | How it was paid. |");
    let lines = common::error_lines("ledger", &md, TOML);
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("error: member `amount` of a union cannot be a decimal")),
        "{lines:?}"
    );
}

#[test]
fn diff_reports_scale_and_bounds_changes_with_witnesses() {
    use specmint_codegen::diff::diff;
    let old = common::source("ledger", MD, TOML);
    let changes = |md: &str| {
        let new = common::source("ledger", md, TOML);
        let report = diff(std::slice::from_ref(&old), std::slice::from_ref(&new)).unwrap();
        report
            .changes
            .iter()
            .map(|c| {
                let witnessed = !c.proofs.is_empty()
                    && c.proofs
                        .iter()
                        .all(|p| matches!(p, specmint_codegen::diff::Proof::Found(_)));
                format!(
                    "{}: {} ({})",
                    c.id,
                    c.message,
                    if witnessed { "witnessed" } else { "unproved" }
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        changes(&edit("decimal(2)[]", "decimal(1)[]")),
        ["scale-narrowed: the type of `lines` is decimal(1), was decimal(2) (witnessed)"]
    );
    assert_eq!(
        changes(&edit("decimal(2)[]", "decimal(3)[]")),
        ["scale-widened: the type of `lines` is decimal(3), was decimal(2) (witnessed)"]
    );
    assert_eq!(
        changes(&edit("decimal(5, 2)? 0<..<100", "decimal(5, 2)? 0..<100")),
        ["range-widened: the bounds of `rate` are `0..<100`, were `0<..<100` (witnessed)"]
    );
    assert_eq!(
        changes(&edit("0..=999999999999.99", "0..=999999999.99")),
        ["range-narrowed: the bounds of `total` are `0..=999999999.99`, were `0..=999999999999.99` (witnessed)"]
    );
    assert_eq!(
        changes(&edit("decimal(2)[]", "decimal(4, 2)[]")),
        ["scale-narrowed: the type of `lines` is decimal(4, 2), was decimal(2) (witnessed)"]
    );
    assert_eq!(
        changes(&edit("decimal(0)? ..=1e3", "decimal(0)? ..<1e3")),
        ["range-narrowed: the bounds of `count` are `..<1000`, were `..=1000` (witnessed)"]
    );
    assert_eq!(
        changes(&edit("decimal(2)[]", "number[]")),
        ["field-type-widened: the type of `lines` is a list of number, was a list of decimal(2) (witnessed)"]
    );
}

/// The rules that compare values do not take a decimal (yet): each refuses it at its entry,
/// never a rustc error in generated code.
#[test]
fn rules_that_compare_values_refuse_a_decimal_at_their_entry() {
    let md = MD.replace(
        "| `count` | decimal(0)? ..=1e3 | — | A count. |",
        "| `count` | decimal(0)? ..=1e3 | — | A count. |\n| `due` | decimal(2) | ✔ | Due. |\n| `paid` | decimal(2) | ✔ | Paid. |\n| `note` | string? | if `count` is `1` | A note. |",
    );
    let with = |extra: &str| {
        let toml = format!("{TOML}{extra}");
        common::error_lines("ledger", &md, &toml)
    };
    let first = |lines: Vec<String>| lines.into_iter().next().unwrap_or_default();
    let base = common::error_lines("ledger", &md, TOML);
    assert!(
        base == [
            "spec/ledger.md:13:25: error: `count` is a number, which a condition cannot compare"
        ],
        "a condition on a decimal: {base:?}"
    );
    let md_ok = md.replace(" if `count` is `1` ", " — ");
    let with_ok = |extra: &str| {
        let toml = format!("{TOML}{extra}");
        first(common::error_lines("ledger", &md_ok, &toml))
    };
    let _ = with;
    for (extra, wanted) in [
        ("\n[[order]]\na = \"total\"\nb = \"due\"\nstrict = true\ncode = \"out_of_range\"\n", "spec/ledger.toml:10:5: error: `total` (decimal(2)) cannot be ordered"),
        ("\n[[not_equal]]\na = \"paid\"\nb = \"due\"\ncode = \"out_of_range\"\n", "spec/ledger.toml:10:5: error: `paid` and `due` are not plain text, number, bool or enum fields"),
        ("\n[[value_if]]\nfield = \"due\"\nmust = \"> 0\"\nif = \"`note` is `x`\"\ncode = \"out_of_range\"\n", "spec/ledger.toml:10:9: error: `due` is not a number field"),
    ] {
        assert_eq!(with_ok(extra), wanted, "{extra}");
    }
}

/// A decimal counts as given whenever it is present (`Filled`): `[[any_of]]` over decimals
/// builds, and the compiled Rust and the interpreter agree on it.
#[test]
fn any_of_over_decimals_compiles_and_agrees() {
    let md = MD.replace(
        "| `bad_scale` | A decimal with more digits than its type. |",
        "| `bad_scale` | A decimal with more digits than its type. |\n| `no_figure` | Neither a rate nor a count. |",
    );
    let toml =
        format!("{TOML}\n[[any_of]]\nfields = [\"rate\", \"count\"]\ncode = \"no_figure\"\n");
    let docs = [
        r#"{"total": 1}"#,
        r#"{"total": 1, "rate": null, "count": null}"#,
        r#"{"total": 1, "count": 0}"#,
        r#"{"total": 1, "rate": 0.00}"#,
    ];
    let main = format!(
        "const DOCS: &[&str] = &{docs:?};
fn main() {{
    for doc in DOCS {{
        if let Err(report) = specmint_compiles::ledger::Invoice::from_json_str(doc) {{
            for v in report.iter() {{
                println!(\"{{}}@{{}}: {{}}\", v.code, v.path, v.message);
            }}
        }}
        println!(\"--\");
    }}
}}
"
    );
    let spec = common::source("ledger", &md, &toml);
    let compiled = crate::compiles::assert_builds(
        "compiles-ledger-any-of",
        std::slice::from_ref(&spec),
        &Options::default(),
        Some(&main),
    );
    let interpreted: String = docs
        .iter()
        .map(|doc| {
            let lines = common::verdict("ledger", &md, &toml, doc);
            lines.iter().map(|l| format!("{l}\n")).collect::<String>() + "--\n"
        })
        .collect();
    assert_eq!(compiled, interpreted);
    let blocks: Vec<&str> = interpreted.split_terminator("--\n").collect();
    assert!(blocks[0].starts_with("no_figure@"), "{}", blocks[0]);
    assert!(blocks[1].starts_with("no_figure@"), "{}", blocks[1]);
    assert_eq!(blocks[2], "");
    assert_eq!(
        blocks[3],
        "out_of_range@rate: `rate` is 0.00 (must be above 0)\n"
    );
}

/// A union member or a chosen member (`object by`) may be read from a buffer that keeps a
/// double (its tag or choosing field later in the document), so a decimal in a table such a
/// member reaches, at any depth, is a diagnostic at its Type cell.
#[test]
fn a_decimal_behind_a_union_or_a_chosen_member_is_a_diagnostic() {
    let md = MD.replace(
        "## Error codes",
        "## Payments: `payment`\n\n| `kind` | Fields | Meaning |\n|---|---|---|\n| `cash` | `detail: cash_detail` | Cash. |\n\n## Fields of a `cash_detail`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `note` | string? | — | A note. |\n| `inner` | inner_detail? | — | Deeper. |\n\n## Fields of an `inner_detail`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `amount` | decimal(2) | ✔ | The amount. |\n\n## Error codes",
    )
    .replace(
        "| `count` | decimal(0)? ..=1e3 | — | A count. |",
        "| `count` | decimal(0)? ..=1e3 | — | A count. |\n| `paid` | payment? | — | How it was paid. |",
    );
    let lines = common::error_lines("ledger", &md, TOML);
    assert_eq!(
        lines,
        ["spec/ledger.md:30:14: error: `inner_detail.amount` is a decimal in a table that a union member or a chosen member (`object by`) holds"]
    );
    // The same table outside the union is fine.
    let outside = md.replace("`detail: cash_detail`", "`note: string`");
    assert_eq!(
        common::error_lines_or_none("ledger", &outside, TOML),
        Vec::<String>::new()
    );
    // A chosen member's table.
    let chosen = MD
        .replace(
            "| `count` | decimal(0)? ..=1e3 | — | A count. |",
            "| `count` | decimal(0)? ..=1e3 | — | A count. |\n| `action` | action | ✔ | What to do. |\n| `payload` | object by `action` | ✔ | Its data. |",
        )
        .replace(
            "## Error codes",
            "## Actions: `action`\n\n| Value | Meaning |\n|---|---|\n| `pay` | Pay. |\n\n## Fields of a `pay_payload`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `amount` | decimal(2) | ✔ | The amount. |\n\n## Error codes",
        );
    let lines = common::error_lines_or_none("ledger", &chosen, TOML);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].ends_with("error: `pay_payload.amount` is a decimal in a table that a union member or a chosen member (`object by`) holds"),
        "{lines:?}"
    );
}

/// In an open object the listed decimals are still read in place from their text (the
/// unlisted members are kept verbatim beside them), by the generated Rust and the
/// interpreter alike.
#[test]
fn an_open_objects_decimals_keep_their_text() {
    let toml = format!("{TOML}\n[open]\nobjects = [\"invoice\"]\n");
    let docs = [
        r#"{"x": 1.5, "total": 999999999999.99001, "y": {"z": 1e-2}}"#,
        r#"{"total": 100.000, "extra": [1.000]}"#,
    ];
    let main = format!(
        "const DOCS: &[&str] = &{docs:?};
fn main() {{
    for doc in DOCS {{
        match specmint_compiles::ledger::Invoice::from_json_str(doc) {{
            Ok(v) => println!(\"= {{}}\", v.to_canonical_json()),
            Err(report) => {{
                for v in report.iter() {{
                    println!(\"{{}}@{{}}: {{}}\", v.code, v.path, v.message);
                }}
            }}
        }}
        println!(\"--\");
    }}
}}
"
    );
    let spec = common::source("ledger", MD, &toml);
    let compiled = crate::compiles::assert_builds(
        "compiles-ledger-open",
        std::slice::from_ref(&spec),
        &Options::default(),
        Some(&main),
    );
    let validator = specmint_codegen::Validator::new(&load(&spec).unwrap());
    let interpreted = interpreted(&validator, &docs);
    assert_eq!(compiled, interpreted);
    let blocks: Vec<&str> = interpreted.split_terminator("--\n").collect();
    assert_eq!(
        blocks[0],
        "bad_scale@total: `total` is 999999999999.99001, with 5 fraction digits (max 2)\n\
         out_of_range@total: `total` is 999999999999.99001 (max 999999999999.99)\n"
    );
    assert!(
        blocks[1].starts_with("= {\"total\":100.000"),
        "{}",
        blocks[1]
    );
}

/// The interpreter's output on each of `docs` as the compiled crate's `main` prints it: the
/// canonical JSON of an accepted document (`= …`), or each violation as `code@path: message`;
/// each document's block ends with `--`.
fn interpreted(validator: &specmint_codegen::Validator, docs: &[impl AsRef<str>]) -> String {
    docs.iter()
        .map(|doc| {
            let mut out = String::new();
            match validator.validate(doc.as_ref().as_bytes()) {
                Ok(v) => out.push_str(&format!("= {v}\n")),
                Err(report) => {
                    for v in report.iter() {
                        out.push_str(&format!("{}@{}: {}\n", v.code, v.path, v.message));
                    }
                }
            }
            out + "--\n"
        })
        .collect()
}
