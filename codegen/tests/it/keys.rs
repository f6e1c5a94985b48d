//! Compound unique keys (`[[unique]]` with `key = ["a", "b"]`, issue 46): the loader's
//! diagnostics, the generated Rust and the interpreter agreeing on every member type (text
//! with its folds, enum, integer, number with `-0`, bool, absent and coded members), the
//! schema's `x-unique-by`, the corpus on both sides of the rule, and `specmint diff`.

use specmint_codegen::diff::{diff, Proof};
use specmint_codegen::Options;

use crate::common::{self, assert_holds, error_lines};

const MD: &str = r#"# Vat v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `vat_breakdown` | vat_line[] | ✔ | The VAT breakdown. |
| `notes` | note[] | — | Notes. |
| `codes` | coded[] | — | Lines whose key members have coded requirements. |

## Fields of a `vat_line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `category` | category | ✔ | The VAT category. |
| `rate` | number? | — | The rate, maybe none. |
| `amount` | number | ✔ | The amount. |

## Fields of a `note`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `text` | string | ✔ | The text. |
| `count` | int64 | ✔ | A count. |
| `exempt` | bool | — (default false) | Exempt. |

## Fields of a `coded`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `scheme` | category | ✔ `no_scheme` | The scheme, its absence coded. |
| `id` | uint32 | ✔ `no_id` | The id, its absence coded. |

## VAT categories: `category`

| Value | Meaning |
|---|---|
| `S` | Standard. |
| `Z` | Zero. |
| `E` | Exempt. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `BR-CO-17` | Two breakdown lines with one category and rate. |
| `dup_note` | Two notes alike. |
| `dup_coded` | Two coded lines alike. |
| `no_scheme` | No scheme. |
| `no_id` | No id. |

## Examples

```json valid
{"vat_breakdown": [{"category": "S", "rate": 21, "amount": 10}], "notes": [{"text": "a", "count": 1}], "codes": [{"scheme": "S", "id": 1}]}
```

```json invalid BR-CO-17@vat_breakdown[1]
{"vat_breakdown": [{"category": "S", "rate": 21, "amount": 10}, {"category": "S", "rate": 21, "amount": 10}]}
```
"#;

const TOML: &str = r#"[spec]
root = "invoice"

[errors]
parse = "bad_invoice"

[[unique]]
path = "vat_breakdown"
key = ["category", "rate"]
code = "BR-CO-17"

[[unique]]
path = "notes"
key = ["text", "count", "exempt"]
ignore_case = true
trim = true
code = "dup_note"

[[unique]]
path = "codes"
key = ["scheme", "id"]
code = "dup_coded"
"#;

/// The documents both validators judge, and what the interpreter must say of each.
fn cases() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        (
            r#"{"vat_breakdown": [
                {"category": "S", "rate": 21, "amount": 1},
                {"category": "Z", "rate": 21, "amount": 1},
                {"category": "S", "rate": 21.0, "amount": 2},
                {"category": "S", "amount": 1},
                {"category": "S", "rate": null, "amount": 1},
                {"category": "E", "rate": 0, "amount": 1},
                {"category": "E", "rate": -0.0, "amount": 1},
                {"category": "S", "rate": 21.5, "amount": 1}]}"#,
            vec![
                "BR-CO-17@vat_breakdown[2]: `vat_breakdown[2]` (`category` `S`, `rate` `21`) repeats `vat_breakdown[0]`",
                "BR-CO-17@vat_breakdown[6]: `vat_breakdown[6]` (`category` `E`, `rate` `-0`) repeats `vat_breakdown[5]`",
            ],
        ),
        (
            r#"{"vat_breakdown": [], "notes": [
                {"text": " Ab ", "count": 1, "exempt": true},
                {"text": "aB", "count": 1, "exempt": true},
                {"text": "aB", "count": -1, "exempt": true},
                {"text": "aB", "count": 1},
                {"text": "AB", "count": 1, "exempt": false}]}"#,
            vec![
                "dup_note@notes[1]: `notes[1]` (`text` `aB`, `count` `1`, `exempt` `true`) repeats `notes[0]`",
                "dup_note@notes[4]: `notes[4]` (`text` `AB`, `count` `1`, `exempt` `false`) repeats `notes[3]`",
            ],
        ),
        (
            r#"{"vat_breakdown": [], "codes": [
                {"scheme": "S", "id": 7},
                {"id": 7},
                {"id": 7},
                {"scheme": "S", "id": 8},
                {"scheme": "S", "id": 7}]}"#,
            vec![
                "no_scheme@codes[1].scheme: `codes[1].scheme` is required",
                "no_scheme@codes[2].scheme: `codes[2].scheme` is required",
                "dup_coded@codes[4]: `codes[4]` (`scheme` `S`, `id` `7`) repeats `codes[0]`",
            ],
        ),
        (
            r#"{"vat_breakdown": [{"category": "S", "rate": 1, "amount": 1}, {"category": "S", "rate": 2, "amount": 1}]}"#,
            vec![],
        ),
    ]
}

/// The generated Rust compiles (an enum, a number, an integer, a bool, text, optional and
/// coded members) and gives, document for document, the interpreter's violations in its
/// order; the interpreter's are the ones written above.
#[test]
fn compound_keys_compile_and_agree_with_the_interpreter() {
    let cases = cases();
    let docs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    for (doc, want) in &cases {
        assert_eq!(&common::verdict("vat", MD, TOML, doc), want, "{doc}");
    }
    let spec = common::source("vat", MD, TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-keys",
        &spec,
        "vat::Invoice",
        &docs,
        &Options::default(),
    );
    let interpreted: Vec<Vec<&str>> = cases.iter().map(|c| c.1.clone()).collect();
    assert_eq!(compiled, interpreted);
}

/// The derive's form and the schema's: `key = (a, b)` and `x-unique-by` with the members.
#[test]
fn the_rust_and_the_schema_name_every_member() {
    let files = common::generated("vat", MD, TOML).unwrap();
    let rust = &files["rust/vat.rs"];
    assert_holds(
        rust,
        &[
            "unique_by(key = (category, rate), code = \"BR-CO-17\")",
            "unique_by(key = (text, count, exempt), ignore_case, trim, code = \"dup_note\")",
            "KeyMember for Category",
        ],
    );
    let schema: serde_json::Value = serde_json::from_str(&files["schema/vat.schema.json"]).unwrap();
    let vat = &schema["$defs"]["invoice"]["properties"]["vat_breakdown"];
    assert_eq!(
        vat["x-unique-by"],
        serde_json::json!({"key": ["category", "rate"], "ignore-case": false, "trim": false, "code": "BR-CO-17"})
    );
}

/// A single text member keeps the single form, written either way: the same Rust.
#[test]
fn a_one_member_text_key_is_the_single_form() {
    let single = TOML.replace("key = [\"category\", \"rate\"]", "key = \"category\"");
    // `category` is an enum: alone it is a compound key of one member.
    let files = common::generated("vat", MD, &single).unwrap();
    assert_holds(
        &files["rust/vat.rs"],
        &["unique_by(key = (category), code = \"BR-CO-17\")"],
    );
    let doc =
        r#"{"vat_breakdown": [{"category": "S", "amount": 1}, {"category": "S", "amount": 2}]}"#;
    assert_eq!(
        common::verdict("vat", MD, &single, doc),
        ["BR-CO-17@vat_breakdown[1]: `vat_breakdown[1]` (`category` `S`) repeats `vat_breakdown[0]`"]
    );
    // A text member, as a string or an array of one: today's `unique_by(key = text)`.
    let text = |key: &str| {
        let toml = TOML.replace("key = [\"text\", \"count\", \"exempt\"]", key);
        common::generated("vat", MD, &toml).unwrap()["rust/vat.rs"].clone()
    };
    let (a, b) = (text("key = \"text\""), text("key = [\"text\"]"));
    assert_eq!(a, b);
    assert_holds(
        &a,
        &["unique_by(key = text, ignore_case, trim, code = \"dup_note\")"],
    );
    let toml = TOML.replace(
        "key = [\"text\", \"count\", \"exempt\"]",
        "key = [\"text\"]",
    );
    let doc = r#"{"vat_breakdown": [], "notes": [{"text": "a", "count": 1}, {"text": "A ", "count": 2}]}"#;
    assert_eq!(
        common::verdict("vat", MD, &toml, doc),
        ["dup_note@notes[1].text: `notes[1].text` `A ` duplicates `notes[0].text`"]
    );
}

/// Every bad `key`: a diagnostic at the sidecar entry, never a panic or a rustc error.
#[test]
fn bad_keys_are_diagnostics() {
    let with =
        |from: &str, to: &str| error_lines("vat", MD, &TOML.replacen(from, to, 1)).join("\n");
    let key = "key = [\"category\", \"rate\"]";
    assert_holds(
        &with(key, "key = []"),
        &["`key` in [[unique]] lists no member"],
    );
    assert_holds(
        &with(key, "key = [\"rate\", \"rate\"]"),
        &["`rate` is listed twice in `key`"],
    );
    assert_holds(
        &with(key, "key = [\"category\", \"rat\"]"),
        &["`rat` is no field of `vat_line`"],
    );
    assert_holds(
        &with(key, "key = [\"category\", 3]"),
        &["`key` in [[unique]] must list strings, found integer"],
    );
    assert_holds(
        &with(key, "key = 3"),
        &["`key` in [[unique]] must be a string, found integer"],
    );
    assert_holds(
        &with(key, "key = [\"category\", \"rate\"]\nignore_case = true"),
        &["spec/vat.toml:9:7: error: no member of this key is text"],
    );
    let md = MD.replace("| `amount` | number | ✔ |", "| `amount` | number[] | ✔ |");
    let lines = error_lines(
        "vat",
        &md,
        &TOML.replacen(key, "key = [\"category\", \"amount\"]", 1),
    );
    assert_holds(
        &lines.join("\n"),
        &["unique key `amount` is not a single value"],
    );
}

/// The corpus probes both sides: a duplicate at the item with the exact code and path, a key
/// differing in its last member only, and items without an optional member; every case is
/// what the interpreter says.
#[test]
fn the_corpus_probes_both_sides() {
    let corpus = crate::corpus_probes::corpus("vat", MD, TOML);
    let errors = |id: &str| crate::corpus_probes::errors_of(&corpus, id);
    assert_eq!(
        errors("unique.vat_breakdown.duplicate").unwrap(),
        ["BR-CO-17@vat_breakdown[1]"]
    );
    assert_eq!(
        errors("unique.vat_breakdown.last_member_differs").unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        errors("unique.vat_breakdown.member_absent").unwrap(),
        Vec::<String>::new()
    );
    assert_eq!(
        errors("unique.notes.duplicate").unwrap(),
        ["dup_note@notes[1]"]
    );
    assert_eq!(
        errors("unique.notes.last_member_differs").unwrap(),
        Vec::<String>::new()
    );
    // `exempt` has a default: absent, it is `false`, and compared.
    assert_eq!(errors("unique.notes.member_absent"), None);
    assert_eq!(
        errors("unique.codes.duplicate").unwrap(),
        ["dup_coded@codes[1]"]
    );
    // Coded members are not optional: no item goes without one.
    assert_eq!(errors("unique.codes.member_absent"), None);
}

/// `specmint diff`: a member added loosens (witness: a document the new spec accepts and the
/// old refuses), one removed tightens, one swapped changes both ways; each with witnesses.
#[test]
fn diff_reports_a_key_member_added_removed_and_swapped() {
    let source = |key: &str| {
        common::source(
            "vat",
            MD,
            &TOML.replace("key = [\"category\", \"rate\"]", key),
        )
    };
    let changes = |old: &str, new: &str| {
        let report = diff(&[source(old)], &[source(new)]).unwrap();
        report
            .changes
            .iter()
            .map(|c| {
                for p in &c.proofs {
                    assert!(matches!(p, Proof::Found(_)), "{}: {p:?}", c.message);
                }
                format!("{}: {}", c.id, c.message)
            })
            .collect::<Vec<_>>()
    };
    let one = "key = [\"category\"]";
    let two = "key = [\"category\", \"rate\"]";
    let other = "key = [\"category\", \"amount\"]";
    assert_eq!(
        changes(one, two),
        ["rule-loosened: a uniqueness rule ([[unique]]) by (`category`, `rate`) on `vat_breakdown`: the key is (`category`, `rate`), was `category`"]
    );
    assert_eq!(
        changes(two, one),
        ["rule-tightened: a uniqueness rule ([[unique]]) by `category` on `vat_breakdown`: the key is `category`, was (`category`, `rate`)"]
    );
    let swapped = changes(two, other);
    assert_eq!(swapped.len(), 1, "{swapped:?}");
    assert!(swapped[0].starts_with("rule-changed: "), "{swapped:?}");
    // The same members in another order: nothing a document can tell.
    assert_eq!(
        changes(two, "key = [\"rate\", \"category\"]"),
        Vec::<String>::new()
    );
}
