//! Rules tables (issue 47): rows of arithmetic and other expressions. The interpreter and the
//! compiled Rust give the same verdicts (overflow included), the corpus probes both sides of
//! every row, `specmint diff` reports rows added, removed and changed with witnesses, and the
//! schema carries them as `x-rules`.

use serde_json::Value;

use crate::common;
use crate::corpus_probes::errors_of;

const MD: &str = "# Ledger v1

## Fields of a `ledger`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `total` | decimal(2) | ✔ | The total. |
| `entries` | uint32 | ✔ | How many lines. |
| `fee` | number? | — | A fee. |
| `paid` | decimal(2)? | — | What was paid. |
| `lines` | entry[] | ✔ | The lines. |

## Fields of an `entry`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | kind | ✔ | Debit or credit. |
| `qty` | int32 | ✔ | How many. |
| `price` | decimal(2) | ✔ | The price of one. |
| `amount` | decimal(2) | ✔ | What the line comes to. |

## Kinds: `kind`

| Value | Meaning |
|---|---|
| `debit` | Money out. |
| `credit` | Money in. |

## Rules

| Code | On | Rule |
|---|---|---|
| `L-1` | — | `total = sum(lines[].amount)` |
| `L-2` | — | `entries = count(e in lines[])` |
| `L-3` | `lines[]` | `amount = round(qty * price, 2)` if `kind` is `debit` |
| `L-4` | — | `paid ?? 0 <= total + fee ?? 0` |

## Errors

| Code | When |
|---|---|
| `L-0` | Not a ledger. |
| `L-1` | The total is not the lines. |
| `L-2` | The count is not the lines'. |
| `L-3` | A debit line is not its quantity times its price. |
| `L-4` | More paid than due. |
| `L-5` | Too many fraction digits. |

```json valid
{\"total\": 7.50, \"entries\": 2, \"lines\": [{\"kind\": \"debit\", \"qty\": 3, \"price\": 1.50, \"amount\": 4.50}, {\"kind\": \"credit\", \"qty\": 1, \"price\": 9, \"amount\": 3.00}]}
```
";

const TOML: &str = "[spec]\nroot = \"ledger\"\n\n[errors]\nparse = \"L-0\"\nscale = \"L-5\"\n";

/// Documents and what both routes say of each, `code@path: message` in report order.
fn cases() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            r#"{"total": 7.50, "entries": 2, "lines": [{"kind": "debit", "qty": 3, "price": 1.50, "amount": 4.50}, {"kind": "credit", "qty": 1, "price": 9, "amount": 3.00}]}"#,
            vec![],
        ),
        (
            r#"{"total": 7.51, "entries": 3, "fee": 0.1, "paid": 8, "lines": [{"kind": "debit", "qty": 3, "price": 1.55, "amount": 4.60}, {"kind": "credit", "qty": 1, "price": 9, "amount": 3.00}]}"#,
            vec![
                "L-3@lines[0].amount: `lines[0].amount` is 4.60, `round(qty * price, 2)` is 4.65 (must be equal when `kind` is `debit`)",
                "L-1@total: `total` is 7.51, the sum of `lines[].amount` is 7.60 (must be equal)",
                "L-2@entries: `entries` is 3, `count(e in lines[])` is 2 (must be equal)",
                "L-4@: `paid ?? 0` is 8, `total + fee ?? 0` is 7.61 (the first must be at most the second)",
            ],
        ),
        (
            r#"{"total": 1, "entries": 1, "lines": [{"kind": "debit", "qty": 2147483647, "price": 99999999999999999999999999.99, "amount": 1}]}"#,
            vec!["L-3@lines[0]: `amount = round(qty * price, 2)` cannot be computed: a result needs more than 28 digits when `kind` is `debit`"],
        ),
    ]
}

fn interpreted(doc: &str) -> Vec<String> {
    common::verdict("ledger", MD, TOML, doc)
}

#[test]
fn the_interpreter_and_the_compiled_rust_give_the_same_verdicts() {
    let docs: Vec<&str> = cases().iter().map(|(d, _)| *d).collect();
    let spec = common::source("ledger", MD, TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-ledger-rules",
        &spec,
        "ledger::Ledger",
        &docs,
        &specmint_codegen::Options::default(),
    );
    for ((doc, _), compiled) in cases().iter().zip(&compiled) {
        assert_eq!(&interpreted(doc), compiled, "{doc}");
    }
}

#[test]
fn each_verdict_names_both_sides_and_the_path() {
    for (doc, want) in cases() {
        let got = interpreted(doc);
        assert_eq!(got.len(), want.len(), "{doc}: {got:#?}");
        assert_eq!(got, want, "{doc}");
    }
}

#[test]
fn the_corpus_probes_both_sides_of_every_row() {
    let corpus = corpus_sorted();
    let cases = corpus["cases"].as_array().unwrap();
    for (object, n, code, path) in [
        ("$root", 0, "L-1", "total"),
        ("$root", 1, "L-2", "entries"),
        ("lines[0]", 0, "L-3", "lines[0].amount"),
    ] {
        let id = |label: &str| format!("rule.{object}.{n}.{label}");
        let find = |label: &str| {
            cases
                .iter()
                .find(|c| c["id"] == id(label))
                .unwrap_or_else(|| panic!("no case {}", id(label)))
        };
        assert_eq!(find("kept")["errors"], serde_json::json!([]), "{code}");
        assert_eq!(
            find("broken")["errors"],
            serde_json::json!([{"code": code, "path": path}]),
            "{code}"
        );
        assert_eq!(find("broken")["schema_expressible"], false);
    }
    // One unit of the scale past the bound: 0.01 for a decimal(2), 1 for a count.
    let broken = cases
        .iter()
        .find(|c| c["id"] == "rule.$root.0.broken")
        .unwrap();
    let kept = cases
        .iter()
        .find(|c| c["id"] == "rule.$root.0.kept")
        .unwrap();
    let total = |c: &Value| c["document"]["total"].as_f64().unwrap();
    assert!(
        (total(broken) - total(kept) - 0.01).abs() < 1e-9,
        "{broken}\n{kept}"
    );
}

/// The corpus, every case held to the interpreter as a multiset of `(code, path)`: a row a
/// mutation breaks on the way is listed after the probe's own errors.
fn corpus_sorted() -> Value {
    let files = common::generated("ledger", MD, TOML).unwrap();
    let corpus: Value = serde_json::from_str(&files["corpus/ledger/cases.json"]).unwrap();
    for case in corpus["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let mut want = errors_of(&corpus, id).unwrap();
        // A case whose number's spelling decides carries its exact text.
        let text = match case.get("text").and_then(Value::as_str) {
            Some(text) => text.to_owned(),
            None => case["document"].to_string(),
        };
        let mut got: Vec<String> = interpreted(&text)
            .into_iter()
            .map(|l| l.split_once(": ").unwrap().0.to_owned())
            .collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", case["id"]);
    }
    corpus
}

#[test]
fn the_schema_carries_each_row_as_x_rules() {
    let files = common::generated("ledger", MD, TOML).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/ledger.schema.json"]).unwrap();
    assert_eq!(
        schema["$defs"]["entry"]["x-rules"],
        serde_json::json!([{"code": "L-3", "rule": "amount = round(qty * price, 2)", "when": "`kind` is `debit`"}])
    );
    assert_eq!(
        schema["$defs"]["ledger"]["x-rules"][1]["rule"],
        "entries = count(e in lines[])"
    );
    let expressible = schema["x-schema-expressible-codes"].as_array().unwrap();
    assert!(
        !expressible.contains(&Value::from("L-1")),
        "{expressible:?}"
    );
}

#[test]
fn diff_reports_rows_added_removed_and_changed_with_witnesses() {
    use specmint_codegen::diff::{diff, Proof};
    let changes = |old_md: &str, new_md: &str| -> Vec<String> {
        let d = diff(
            &[common::source("ledger", old_md, TOML)],
            &[common::source("ledger", new_md, TOML)],
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        d.changes
            .iter()
            .map(|c| {
                let proved = c.proofs.iter().any(|p| matches!(p, Proof::Found(_)));
                format!(
                    "{}{}: {}",
                    c.id,
                    if proved { "" } else { " (no witness)" },
                    c.message
                )
            })
            .collect()
    };
    let loosened = MD.replace(
        "`total = sum(lines[].amount)` |",
        "`total = sum(lines[].amount) ± 0.05` |",
    );
    assert_eq!(
        changes(MD, &loosened),
        // The witness search finds only documents the new row accepts and the old refused.
        ["rule-loosened: a rule (rules table) `total = sum(lines[].amount) ± 0.05` at the top level: was `total = sum(lines[].amount)`"]
    );
    assert_eq!(
        changes(&loosened, MD),
        ["rule-tightened: a rule (rules table) `total = sum(lines[].amount)` at the top level: was `total = sum(lines[].amount) ± 0.05`"]
    );
    // A row the corpus cannot solve (its left side is no member) has no witness to offer:
    // the change is said as it is, in both directions.
    let strict = MD.replace(
        "`paid ?? 0 <= total + fee ?? 0` |",
        "`paid ?? 0 < total + fee ?? 0` |",
    );
    assert_eq!(
        changes(MD, &strict),
        ["rule-changed (no witness): a rule (rules table) `paid ?? 0 < total + fee ?? 0` at the top level: was `paid ?? 0 <= total + fee ?? 0`"]
    );
    let without = MD
        .replace("| `L-2` | — | `entries = count(e in lines[])` |\n", "")
        .replace("| `L-2` | The count is not the lines'. |\n", "");
    let removed = changes(MD, &without);
    assert_eq!(
        removed,
        [
            "rule-removed: a rule (rules table) `entries = count(e in lines[])` at the top level removed",
            "error-code-removed (no witness): error code `L-2` removed",
        ]
    );
    let added = changes(&without, MD);
    assert!(
        added[0].starts_with("rule-added: a rule (rules table) `entries = count(e in lines[])`"),
        "{added:?}"
    );
}
