//! A code for a value outside an enum's list (`[errors.rules] "f" = { enum = "BR-CL-01" }`,
//! issue 46): the value is reported with that code at the field, and the rest of the
//! document is still judged with the member read as absent (conditions reading it do not
//! hold, a compound key with it is not compared), its own requirement not reported. The
//! generated Rust and the interpreter agree (one reader in the runtime does it for both);
//! the loader refuses the fields it cannot apply to; schema, corpus and diff.

use specmint_codegen::diff::diff;
use specmint_codegen::Options;

use crate::common::{self, assert_holds, error_lines};

const MD: &str = r#"# Inv v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `number` | non-blank string | ✔ | The number. |
| `type_code` | type_code | ✔ `BR-04` | The type code. |
| `preceding_invoice` | string? | if `type_code` is `381` | The invoice a credit note corrects. |
| `currency` | currency? | — | The currency. |
| `tax_currency` | currency | — (default EUR) | The tax currency. |
| `lines` | line[] | ✔ | The VAT breakdown. |

## Fields of a `line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `category` | category | ✔ `BR-47` | The VAT category. |
| `rate` | number? | — | The rate. |

## Type codes: `type_code`

| Value | Meaning |
|---|---|
| `380` | An invoice. |
| `381` | A credit note. |

## Currencies: `currency`

| Value | Meaning |
|---|---|
| `EUR` | Euro. |
| `USD` | Dollar. |

## Categories: `category`

| Value | Meaning |
|---|---|
| `S` | Standard. |
| `E` | Exempt. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `blank` | Blank text. |
| `BR-04` | No type code. |
| `BR-47` | No category. |
| `BR-55` | A credit note without its preceding invoice. |
| `BR-CL-01` | A type code outside the list. |
| `BR-CL-04` | A currency outside the list. |
| `BR-CL-17` | A category outside the list. |
| `BR-CO-17` | Two lines with one category and rate. |

## Examples

```json valid
{"number": "1", "type_code": "380", "lines": [{"category": "S", "rate": 21}]}
```

```json invalid BR-CL-01@type_code
{"number": "1", "type_code": "999", "lines": []}
```
"#;

const TOML: &str = r#"[spec]
root = "invoice"

[errors]
parse = "bad_invoice"
non_blank = "blank"
required_if = "BR-55"

[errors.rules]
"type_code" = { enum = "BR-CL-01" }
"currency" = { enum = "BR-CL-04" }
"tax_currency" = { enum = "BR-CL-04" }
"lines[].category" = { enum = "BR-CL-17" }

[[unique]]
path = "lines"
key = ["category", "rate"]
code = "BR-CO-17"
"#;

fn cases() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        // Outside the list: the code, and the condition reading it does not hold; its own
        // requirement (BR-04) is not reported.
        (
            r#"{"number": "1", "type_code": "999", "lines": []}"#,
            vec!["BR-CL-01@type_code: `type_code` is `999`, expected one of `380`, `381`"],
        ),
        (
            r#"{"number": "1", "type_code": "381", "lines": []}"#,
            vec!["BR-55@preceding_invoice: `preceding_invoice` is required when `type_code` is `381`"],
        ),
        (r#"{"number": "1", "lines": []}"#, vec!["BR-04@type_code: `type_code` is required"]),
        // Every coded value, in document order, then the rules on the rest; the compound key
        // with an absent member is not compared, the members' requirements not reported.
        (
            r#"{"number": " ", "type_code": "38O", "currency": "XXX", "tax_currency": "eur",
                "lines": [{"category": "Q", "rate": 1}, {"category": "Q", "rate": 1},
                          {"category": "S", "rate": 1}, {"category": "S", "rate": 1}]}"#,
            vec![
                "BR-CL-01@type_code: `type_code` is `38O`, expected one of `380`, `381`",
                "BR-CL-04@currency: `currency` is `XXX`, expected one of `EUR`, `USD`",
                "BR-CL-04@tax_currency: `tax_currency` is `eur`, expected one of `EUR`, `USD`",
                "BR-CL-17@lines[0].category: `lines[0].category` is `Q`, expected one of `S`, `E`",
                "BR-CL-17@lines[1].category: `lines[1].category` is `Q`, expected one of `S`, `E`",
                "blank@number: `number` must not be blank",
                "BR-CO-17@lines[3]: `lines[3]` (`category` `S`, `rate` `1`) repeats `lines[2]`",
            ],
        ),
        // Not the shape for another reason too: the parse error first, the coded value
        // still with its code.
        (
            r#"{"number": 1, "type_code": "999", "lines": []}"#,
            vec![
                "bad_invoice@number: invalid type: integer `1`, expected a string at line 1 column 12",
                "BR-CL-01@type_code: `type_code` is `999`, expected one of `380`, `381`",
            ],
        ),
        (
            r#"{"type_code": "999", "number": 1, "lines": []}"#,
            vec![
                "BR-CL-01@type_code: `type_code` is `999`, expected one of `380`, `381`",
                "bad_invoice@number: `number` must be a string, found the number 1",
            ],
        ),
        // A value of the wrong type is no value outside the list: the parse code.
        (
            r#"{"number": "1", "type_code": 380, "lines": []}"#,
            vec!["bad_invoice@type_code: expected value at line 1 column 30"],
        ),
    ]
}

#[test]
fn enum_codes_compile_and_agree_with_the_interpreter() {
    let cases = cases();
    for (doc, want) in &cases {
        assert_eq!(&common::verdict("inv", MD, TOML, doc), want, "{doc}");
    }
    let docs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let spec = common::source("inv", MD, TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-enum-codes",
        &spec,
        "inv::Invoice",
        &docs,
        &Options::default(),
    );
    let interpreted: Vec<Vec<&str>> = cases.iter().map(|c| c.1.clone()).collect();
    assert_eq!(compiled, interpreted);
}

/// Without an `enum` code, and with `[errors.paths]` / `[errors.tables]` naming the field or
/// its table, a value outside the list stays a parse error.
#[test]
fn only_the_explicit_enum_rule_changes_the_code() {
    let toml = TOML
        .replace("\"currency\" = { enum = \"BR-CL-04\" }\n", "")
        .replace("non_blank = \"blank\"\nrequired_if = \"BR-55\"\n", "")
        .replace(
        "[errors.rules]",
        "[errors.paths]\n\"currency\" = \"BR-CL-04\"\n[errors.tables]\ninvoice = \"blank\"\n\n[errors.rules]",
    );
    let doc = r#"{"number": "1", "type_code": "380", "currency": "XXX", "lines": []}"#;
    let md = MD.replace(
        "| `BR-55` | A credit note without its preceding invoice. |\n",
        "",
    );
    let got = common::verdict("inv", &md, &toml, doc);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].starts_with("bad_invoice@currency: unknown variant `XXX`"),
        "{got:?}"
    );
}

#[test]
fn fields_an_enum_code_cannot_apply_to_are_diagnostics() {
    let with = |md: &str, rules: &str| {
        let toml = TOML.replace(
            "\"type_code\" = { enum = \"BR-CL-01\" }",
            &format!("\"type_code\" = {{ enum = \"BR-CL-01\" }}\n{rules}"),
        );
        error_lines("inv", md, &toml).join("\n")
    };
    assert_holds(
        &with(MD, "\"number\" = { enum = \"BR-CL-01\" }"),
        &["[errors.rules] `number` gives a code to `enum`, but `invoice.number` is no enum field"],
    );
    let plain = MD.replace(
        "| `category` | category | ✔ `BR-47` |",
        "| `category` | category | ✔ |",
    );
    let d = error_lines(
        "inv",
        &plain,
        &TOML.replace("| `BR-47` | No category. |\n", ""),
    )
    .join("\n");
    assert_holds(
        &d,
        &["`line.category` is required without a code: a value outside its enum cannot be read as absent"],
    );
    let list = MD.replace(
        "| `currency` | currency? | — |",
        "| `currency` | currency[] | — |",
    );
    assert_holds(
        &with(&list, ""),
        &["`invoice.currency` is a list: an `enum` code is for one enum value"],
    );
    assert_holds(
        &with(MD, "\"preceding_invoice\" = { enumm = \"x\" }"),
        &["unknown key `enumm`"],
    );
}

#[test]
fn the_schema_the_corpus_and_diff() {
    let files = common::generated("inv", MD, TOML).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&files["schema/inv.schema.json"]).unwrap();
    let props = &schema["$defs"]["invoice"]["properties"];
    assert_eq!(props["type_code"]["x-enum-code"], "BR-CL-01", "{props}");
    // The Rust's shape carries the code.
    assert_holds(&files["rust/inv.rs"], &[".with_enum_code(\"BR-CL-01\")"]);
    // The corpus: each listed value valid, a near miss with the code at the field.
    let corpus = crate::corpus_probes::corpus("inv", MD, TOML);
    let errors = |id: &str| crate::corpus_probes::errors_of(&corpus, id);
    assert_eq!(errors("enum.type_code.380").unwrap(), Vec::<String>::new());
    let misses: Vec<String> = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            c["id"]
                .as_str()
                .unwrap()
                .starts_with("enum.type_code.miss.")
        })
        .map(|c| c["errors"].to_string())
        .collect();
    assert!(!misses.is_empty());
    for m in &misses {
        assert_eq!(m, r#"[{"code":"BR-CL-01","path":"type_code"}]"#);
    }
    // diff: an `enum` code added changes which code a document is refused with.
    let old = common::source(
        "inv",
        &MD.replace("| `BR-CL-01` | A type code outside the list. |\n", "")
            .replace(
                "```json invalid BR-CL-01@type_code",
                "```json invalid bad_invoice@type_code",
            ),
        &TOML.replace("\"type_code\" = { enum = \"BR-CL-01\" }\n", ""),
    );
    let new = common::source("inv", MD, TOML);
    let report = diff(&[old], &[new]).unwrap();
    let changes: Vec<String> = report
        .changes
        .iter()
        .map(|c| format!("{}: {}", c.id, c.message))
        .collect();
    assert!(
        changes.contains(&"error-code-changed: a value outside the enum of `invoice.type_code` is reported as `BR-CL-01`, was `bad_invoice`".to_owned()),
        "{changes:?}"
    );
}

const NESTED_MD: &str = r#"# Nest v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `items` | item[] | — | Items. |
| `shape` | shape? | — | A union whose member holds an item. |
| `kind` | kind | ✔ | Chooses `body`. |
| `body` | object by `kind` | ✔ | The chosen member. |

## Fields of an `item`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `code` | level? | — | A coded level. |
| `name` | non-blank string | ✔ | A name. |

## Fields of a `boxed_body`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `inner` | item | ✔ | An item in the chosen member. |

## Kinds of a `shape`

| kind | Fields | Meaning |
|---|---|---|
| `dot` | — | A dot. |
| `held` | `inner: item` | Holds an item. |

## Kinds: `kind`

| Value | Meaning |
|---|---|
| `plain` | No members. |
| `boxed` | An item. |

## Levels: `level`

| Value | Meaning |
|---|---|
| `low` | Low. |
| `high` | High. |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `blank` | Blank. |
| `bad_level` | A level outside the list. |
"#;

const NESTED_TOML: &str = r#"[spec]
root = "doc"

[errors]
parse = "bad_doc"
non_blank = "blank"

[errors.rules]
"items[].code" = { enum = "bad_level" }
"#;

/// The code holds at its path (`items[].code`), as every `[errors.rules]` override does:
/// the list's items get their own copy of the shared table, while the union's member and the
/// chosen member, which no path reaches, keep the table without it (a value outside the list
/// there is the parse code, and the document is judged no further). The generated Rust and
/// the interpreter agree.
#[test]
fn an_enum_code_holds_at_its_path_through_a_shared_table() {
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            r#"{"items": [{"code": "mid", "name": " "}], "shape": {"kind": "held", "inner": {"code": "top", "name": "a"}},
                "kind": "boxed", "body": {"inner": {"code": "x", "name": " "}}}"#,
            vec![
                "bad_level@items[0].code: `items[0].code` is `mid`, expected one of `low`, `high`",
                "bad_doc@shape.inner.code: `shape.inner.code` is `top`, expected one of `low`, `high` or null",
                "bad_doc@body.inner.code: `body.inner.code` is `x`, expected one of `low`, `high` or null",
            ],
        ),
        (
            r#"{"items": [{"code": "mid", "name": " "}], "shape": {"kind": "held", "inner": {"code": "low", "name": "a"}},
                "kind": "boxed", "body": {"inner": {"code": "high", "name": " "}}}"#,
            vec![
                "bad_level@items[0].code: `items[0].code` is `mid`, expected one of `low`, `high`",
                "blank@items[0].name: `items[0].name` must not be blank",
                "blank@body.inner.name: `body.inner.name` must not be blank",
            ],
        ),
        (
            r#"{"kind": "plain", "body": {}, "shape": {"kind": "held", "inner": {"code": "high", "name": "a"}}}"#,
            vec![],
        ),
    ];
    for (doc, want) in &cases {
        assert_eq!(
            &common::verdict("nest", NESTED_MD, NESTED_TOML, doc),
            want,
            "{doc}"
        );
    }
    let docs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let spec = common::source("nest", NESTED_MD, NESTED_TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-enum-codes-nested",
        &spec,
        "nest::Doc",
        &docs,
        &Options::default(),
    );
    let interpreted: Vec<Vec<&str>> = cases.iter().map(|c| c.1.clone()).collect();
    assert_eq!(compiled, interpreted);
}
