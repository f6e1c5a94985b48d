//! The sidecar's rules under a condition (issue 46): `[[required_if]]` across member tables,
//! `[[any_of]]` / `[[one_of]]` groups, `[[value_if]]` bounds (exclusive ones included) and
//! absent values. Each is checked the same by the compiled Rust and the interpreter, stated in
//! the schema (which agrees with every corpus case it can judge), probed by the corpus on both
//! sides, compared by `specmint diff`, and refused with a diagnostic where it cannot hold.

use serde_json::{json, Value};

use crate::common;

const MD: &str = "# Payments v1

## Fields of a `payment`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `method` | method | ✔ | How it is paid. |
| `amount` | number | ✔ | How much. |
| `fee` | number? | — | What the method costs. |
| `iban` | string? | — | The account, for a transfer. |
| `card` | string? | — | The card number's last digits. |
| `reference` | non-blank string? | — | The payer's reference. |
| `note` | string? | — | A note. |
| `payer` | party | ✔ | Who pays. |
| `lines` | line[] | — | What is paid for. |
| `express` | bool | — (default false) | Whether it is booked at once. |

## Fields of a `party`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | string | ✔ | The name. |
| `tax_id` | string? | — | The tax id. |

## Fields of a `line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | kind | ✔ | What it is. |
| `qty` | int32? | — | How many. |

## Methods: `method`

| Value | Meaning |
|---|---|
| `transfer` | A bank transfer. |
| `card` | A card payment. |
| `cash` | Cash. |

## Kinds: `kind`

| Value | Meaning |
|---|---|
| `goods` | Goods. |
| `service` | A service. |
| `refund` | Money back. |

## Error codes

| Code | When |
|---|---|
| `bad_payment` | Not the shape. |
| `PAY-1` | Not exactly one of an account or a card. |
| `PAY-2` | Neither a reference nor a note. |
| `PAY-3` | A payment that is not positive. |
| `PAY-4` | A fee on cash. |
| `PAY-5` | A card fee under the minimum. |
| `PAY-6` | A service without the payer's tax id. |
| `PAY-7` | A refund line with a positive quantity. |
| `blank` | A blank text. |

```json valid
{\"method\": \"cash\", \"amount\": 5, \"reference\": \"r1\", \"payer\": {\"name\": \"Ann\"}}
```
";

const TOML: &str = r#"[spec]
root = "payment"

[errors]
parse = "bad_payment"
non_blank = "blank"

[[one_of]]
fields = ["iban", "card"]
if = "`method` is `transfer` or `card`"
code = "PAY-1"

[[any_of]]
fields = ["reference", "note"]
code = "PAY-2"

[[value_if]]
field = "amount"
must = "> 0"
unless = "any `lines[].kind` is `refund`"
code = "PAY-3"

[[value_if]]
field = "fee"
must = "absent"
if = "`method` is `cash`"
code = "PAY-4"

[[value_if]]
field = "fee"
must = ">= 0.5"
if = "`method` is `card`"
code = "PAY-5"

[[required_if]]
field = "payer.tax_id"
if = "any `lines[].kind` is `service`"
code = "PAY-6"

[[value_if]]
path = "lines[]"
field = "qty"
must = "< 0"
if = "`kind` is `refund`"
code = "PAY-7"
"#;

fn cases() -> Vec<(Value, Vec<&'static str>)> {
    let payer = json!({"name": "Ann"});
    vec![
        (json!({"method": "cash", "amount": 5, "reference": "r", "payer": payer}), vec![]),
        (
            json!({"method": "transfer", "amount": 5, "reference": "r", "payer": payer}),
            vec!["PAY-1@: exactly one of `iban` or `card` must be given when `method` is `transfer` or `card` (none is)"],
        ),
        (
            json!({"method": "card", "amount": 5, "note": "n", "iban": "DE1", "card": "4242", "payer": payer}),
            vec!["PAY-1@: exactly one of `iban` or `card` must be given when `method` is `transfer` or `card` (2 are)"],
        ),
        (
            json!({"method": "cash", "amount": 5, "reference": " ", "note": "", "payer": payer}),
            vec![
                "blank@reference: `reference` must not be blank",
                "PAY-2@: `reference` or `note` is required",
            ],
        ),
        (
            json!({"method": "cash", "amount": 0, "reference": "r", "payer": payer}),
            vec!["PAY-3@amount: `amount` is 0 (must be > 0 when any `lines[].kind` is not `refund`)"],
        ),
        // A refund may be zero or less.
        (
            json!({"method": "cash", "amount": -2.5, "reference": "r", "payer": payer,
                   "lines": [{"kind": "refund", "qty": -1}]}),
            vec![],
        ),
        (
            json!({"method": "cash", "amount": 5, "fee": 0, "reference": "r", "payer": payer}),
            vec!["PAY-4@fee: `fee` must be absent when `method` is `cash`"],
        ),
        (
            json!({"method": "card", "amount": 5, "fee": 0.25, "card": "4242", "reference": "r", "payer": payer}),
            vec!["PAY-5@fee: `fee` is 0.25 (must be >= 0.5 when `method` is `card`)"],
        ),
        (
            json!({"method": "card", "amount": 5, "card": "4242", "reference": "r", "payer": payer}),
            vec![],
        ),
        (
            json!({"method": "cash", "amount": 5, "reference": "r", "payer": payer,
                   "lines": [{"kind": "goods"}, {"kind": "service"}]}),
            vec!["PAY-6@payer.tax_id: `payer.tax_id` is required when any `lines[].kind` is `service`"],
        ),
        (
            json!({"method": "cash", "amount": -1, "reference": "r", "payer": payer,
                   "lines": [{"kind": "refund", "qty": 2}, {"kind": "goods", "qty": 2}]}),
            vec!["PAY-7@lines[0].qty: `lines[0].qty` is 2 (must be < 0 when `kind` is `refund`)"],
        ),
        // Every rule at once: the struct's own check, in sidecar order.
        (
            json!({"method": "card", "amount": 0, "fee": 0, "payer": payer,
                   "lines": [{"kind": "service", "qty": 1}]}),
            vec![
                "PAY-1@: exactly one of `iban` or `card` must be given when `method` is `transfer` or `card` (none is)",
                "PAY-2@: `reference` or `note` is required",
                "PAY-3@amount: `amount` is 0 (must be > 0 when any `lines[].kind` is not `refund`)",
                "PAY-5@fee: `fee` is 0 (must be >= 0.5 when `method` is `card`)",
                "PAY-6@payer.tax_id: `payer.tax_id` is required when any `lines[].kind` is `service`",
            ],
        ),
    ]
}

#[test]
fn the_interpreter_checks_each_rule() {
    for (doc, want) in cases() {
        assert_eq!(
            common::verdict("payments", MD, TOML, &doc.to_string()),
            want,
            "{doc}"
        );
    }
}

#[test]
fn the_compiled_rust_agrees_with_the_interpreter() {
    let texts: Vec<String> = cases().iter().map(|(d, _)| d.to_string()).collect();
    let docs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let spec = common::source("payments", MD, TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-payments",
        &spec,
        "payments::Payment",
        &docs,
        &specmint_codegen::Options::default(),
    );
    let want: Vec<Vec<String>> = cases()
        .into_iter()
        .map(|(_, w)| w.into_iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(compiled, want);
}

/// Every corpus case: the interpreter agrees, and so does the schema (Rust `jsonschema`) on
/// each case it can judge; each rule is probed broken, kept and (with a condition) broken
/// while the condition does not hold.
#[test]
fn the_corpus_and_the_schema_agree_on_each_rule() {
    let corpus = crate::corpus_probes::corpus("payments", MD, TOML);
    let files = common::generated("payments", MD, TOML).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/payments.schema.json"]).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for case in corpus["cases"].as_array().unwrap() {
        if case["schema_expressible"].as_bool().unwrap() {
            assert_eq!(
                validator.is_valid(&case["document"]),
                case["valid"].as_bool().unwrap(),
                "schema: {}: {:#}",
                case["id"],
                case["document"]
            );
        }
    }
    let errors = |id: &str| crate::corpus_probes::errors_of(&corpus, id);
    let level = |rule: &str, k: usize, label: &str| format!("{rule}.$root.{k}.{label}");
    assert_eq!(
        errors(&level("one_of", 0, "broken")),
        Some(vec!["PAY-1@".into()])
    );
    assert_eq!(
        errors(&level("one_of", 0, "two_given")),
        Some(vec!["PAY-1@".into()])
    );
    assert_eq!(errors(&level("one_of", 0, "kept")), Some(vec![]));
    assert_eq!(
        errors(&level("one_of", 0, "broken_otherwise")),
        Some(vec![])
    );
    assert_eq!(
        errors(&level("any_of", 1, "broken")),
        Some(vec!["PAY-2@".into()])
    );
    assert_eq!(
        errors(&level("value_if", 2, "broken")),
        Some(vec!["PAY-3@amount".into()])
    );
    assert_eq!(
        errors(&level("value_if", 2, "broken_otherwise")),
        Some(vec![])
    );
    assert_eq!(
        errors(&level("value_if", 3, "broken")),
        Some(vec!["PAY-4@fee".into()])
    );
    assert_eq!(
        errors(&level("value_if", 4, "broken")),
        Some(vec!["PAY-5@fee".into()])
    );
    assert_eq!(
        errors(&level("required_if", 5, "broken")),
        Some(vec!["PAY-6@payer.tax_id".into()])
    );
    assert_eq!(
        errors(&level("required_if", 5, "broken_otherwise")),
        Some(vec![])
    );
    assert_eq!(
        errors("value_if.lines[0].0.broken"),
        Some(vec!["PAY-7@lines[0].qty".into()])
    );
    assert_eq!(errors("value_if.lines[0].0.kept"), Some(vec![]));
}

#[test]
fn the_schema_states_each_rule() {
    let files = common::generated("payments", MD, TOML).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/payments.schema.json"]).unwrap();
    let all_of = &schema["$defs"]["payment"]["allOf"];
    assert_eq!(
        all_of[0]["if"],
        json!({"properties": {"method": {"enum": ["transfer", "card"]}}, "required": ["method"]})
    );
    assert_eq!(all_of[0]["then"]["oneOf"][0]["required"], json!(["iban"]));
    assert_eq!(all_of[1]["anyOf"][0]["required"], json!(["reference"]));
    assert_eq!(
        all_of[2]["else"],
        json!({"properties": {"amount": {"exclusiveMinimum": 0}}})
    );
    assert_eq!(
        all_of[3]["then"],
        json!({"properties": {"fee": {"type": "null"}}})
    );
    assert_eq!(
        all_of[4]["then"],
        json!({"properties": {"fee": {"minimum": 0.5}}})
    );
    assert_eq!(
        all_of[5]["then"]["properties"]["payer"]["required"],
        json!(["tax_id"])
    );
    assert_eq!(
        schema["$defs"]["line"]["allOf"][0]["then"],
        json!({"properties": {"qty": {"exclusiveMaximum": 0}}})
    );
}

#[test]
fn a_rule_that_cannot_hold_is_a_diagnostic_at_its_entry() {
    let cases: [(&str, &str, &str); 10] = [
        (
            "fields = [\"reference\", \"note\"]",
            "fields = [\"reference\", \"express\"]",
            "`express` is never absent (it has a default)",
        ),
        (
            "fields = [\"iban\", \"card\"]",
            "fields = [\"iban\"]",
            "[[one_of]] names 1 field(s)",
        ),
        (
            "fields = [\"iban\", \"card\"]",
            "fields = [\"iban\", \"cart\"]",
            "`cart` is no field of `payment`",
        ),
        (
            "must = \"> 0\"",
            "must = \"positive\"",
            "cannot read `must = \"positive\"`",
        ),
        (
            "field = \"amount\"",
            "field = \"method\"",
            "`method` is not a number field",
        ),
        (
            "must = \"absent\"",
            "must = \"absent\"\nunless = \"`method` is `card`\"",
            "[[value_if]] has both `if` and `unless`",
        ),
        (
            "field = \"payer.tax_id\"",
            "field = \"payer.name\"",
            "`payer.name` is required only sometimes, so its type must be `T?`",
        ),
        (
            "if = \"`kind` is `refund`\"",
            "if = \"`kind` was `refund`\"",
            "cannot read the condition ``kind` was `refund``",
        ),
        (
            "if = \"`kind` is `refund`\"",
            "if = \"`kind` is `return`\"",
            "`return` is not a value of `kind`",
        ),
        (
            "must = \"< 0\"",
            "must = \"< 0.5\"",
            "cannot read the bound `0.5`",
        ),
    ];
    for (from, to, want) in cases {
        let toml = TOML.replacen(from, to, 1);
        assert_ne!(toml, TOML, "{to}");
        let lines = common::error_lines("payments", MD, &toml);
        assert!(lines.iter().any(|l| l.ends_with(want)), "{to}: {lines:?}");
        assert!(
            lines.iter().all(|l| l.starts_with("spec/payments.toml:")),
            "{to}: {lines:?}"
        );
    }
}

/// Adding a rule under a condition refuses documents the old spec accepted: `rule-added`
/// (documents), with a witness that flips.
#[test]
fn diff_reports_a_rule_added_with_a_witness() {
    use specmint_codegen::diff::{diff, Break, Proof};
    let old_toml = TOML.replace(
        "[[required_if]]\nfield = \"payer.tax_id\"\nif = \"any `lines[].kind` is `service`\"\ncode = \"PAY-6\"\n",
        "",
    );
    let md = MD.replace("| `PAY-6` | A service without the payer's tax id. |\n", "");
    let old = common::source("payments", &md, &old_toml);
    let new = common::source("payments", MD, TOML);
    let d = diff(&[old], &[new]).unwrap_or_else(|e| panic!("{e:?}"));
    let change = d
        .changes
        .iter()
        .find(|c| c.id == "rule-added")
        .unwrap_or_else(|| panic!("{:#?}", d.changes));
    assert_eq!(change.breaks, [Break::Documents]);
    match &change.proofs[..] {
        [Proof::Found(w)] => assert!(w.old.valid() && !w.new.valid(), "{w:?}"),
        other => panic!("{other:?}"),
    }
}
