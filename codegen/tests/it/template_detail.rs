//! `{expected}` and `{other}` in message templates: every rule kind that names an expected
//! value (a constant, a pattern, a format, an enum's values, a bound) or another field (a
//! cross-field rule, a group, the earlier item a duplicate repeats, a condition's field)
//! carries it on the violation, filled by the one runtime function each rule calls, so the
//! generated Rust (the derive) and the interpreter render a template identically: the same
//! text, code and path.

use specmint_codegen::{load, Options, Validator};
use specmint_runtime::messages::Catalog;

use crate::common;

const MD: &str = "# Kinds v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `version` | \"0.1\" | ✔ | The version. |
| `slug` | string matching `^[a-z]+$` | ✔ | A slug. |
| `day` | date? | — | A day. |
| `from_role` | string | ✔ | Who sends. |
| `to_role` | string | ✔ | Who receives. |
| `start` | uint32 | ✔ | Where it starts. |
| `end` | uint32 | ✔ | Where it ends. |
| `level` | level? | — | How urgent. |
| `iban` | string? | — | An account. |
| `card` | string? | — | A card. |
| `amount` | number? | — | How much. |
| `id` | string | ✔ | Its id. |
| `deps` | string[] | — | What it waits for. |
| `items` | item[] | — | Its items. |
| `qty` | uint32? 1..=10 | — | How many. |
| `cap` | uint32? | — | The highest end. |
| `pairs` | pair[] | — | Pairs. |

## Fields of a `pair`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `a` | string | ✔ | One side. |
| `b` | uint32 | ✔ | The other. |

## Fields of an `item`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | level | ✔ | The item's level. |
| `key` | string | ✔ | The item's key. |

## Levels: `level`

| Value | Meaning |
|---|---|
| `low` | Low. |
| `high` | High. |

## Rules

| Code | On | Rule |
|---|---|---|
| `R-1` | — | `start <= 4` |
| `R-2` | — | `end <= cap ?? 100` |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `bad_version` | Another version. |
| `bad_slug` | Not a slug. |
| `bad_day` | Not a date. |
| `bad_level` | Not a level. |
| `same_role` | Sent to itself. |
| `out_of_order` | Ends before it starts. |
| `no_account` | Neither an account nor a card. |
| `low_amount` | An urgent amount that is not positive. |
| `needs_iban` | An urgent one without an account. |
| `self_dep` | Waits for itself. |
| `dup_dep` | Waits twice for one. |
| `dup_key` | Two items of one key. |
| `contra` | A key both low and high. |
| `bad_qty` | Too many. |
| `one_account` | Not exactly one of an account and a card. |
| `card_on_low` | A card on a low one. |
| `dup_pair` | Two pairs alike. |
| `R-1` | Starts late. |
| `R-2` | Ends past the cap. |

```json valid
{\"version\": \"0.1\", \"slug\": \"a\", \"from_role\": \"a\", \"to_role\": \"b\", \"start\": 1, \"end\": 2, \"level\": \"low\", \"iban\": \"x\", \"id\": \"t\"}
```
";

const TOML: &str = r#"[spec]
root = "doc"

[errors]
parse = "bad_doc"
equals = "bad_version"
pattern = "bad_slug"
format = "bad_day"
range = "bad_qty"

[errors.rules]
"level" = { enum = "bad_level" }

[[not_equal]]
a = "from_role"
b = "to_role"
code = "same_role"

[[order]]
a = "start"
b = "end"
strict = false
code = "out_of_order"

[[any_of]]
fields = ["iban", "card"]
code = "no_account"

[[one_of]]
fields = ["iban", "card"]
code = "one_account"

[[value_if]]
field = "card"
must = "absent"
if = "`level` is `low`"
code = "card_on_low"

[[unique]]
path = "pairs"
key = ["a", "b"]
code = "dup_pair"

[[value_if]]
field = "amount"
must = "> 0"
if = "`level` is `high`"
code = "low_amount"

[[required_if]]
field = "card"
if = "`level` is `high`"
code = "needs_iban"

[[not_contains]]
list = "deps"
value = "id"
code = "self_dep"

[[unique]]
path = "deps"
code = "dup_dep"

[[unique]]
path = "items"
key = "key"
code = "dup_key"

[[contradiction]]
path = "items"
by = "kind"
value = "key"
code = "contra"
pairs = [{ a = "low", b = "high" }]
"#;

/// One template per code: the detail between markers, and a select on empty for `{other}`.
const TEMPLATES: &[(&str, &str)] = &[
    ("bad_doc", "{path}: E[{expected}]"),
    ("bad_version", "{path}: E[{expected}]"),
    ("bad_slug", "{path}: E[{expected}]"),
    ("bad_day", "{path}: E[{expected}]"),
    ("bad_level", "{path}: E[{expected}]"),
    ("same_role", "{path}: O[{other}]"),
    ("out_of_order", "{path}: E[{expected}] O[{other}]"),
    (
        "no_account",
        "{path, select, empty {doc} other {{path}}}: O[{other}]",
    ),
    ("low_amount", "{path}: E[{expected}] O[{other}]"),
    ("needs_iban", "{path}: E[{expected}] O[{other}]"),
    ("self_dep", "{path}: E[{expected}] O[{other}]"),
    (
        "dup_dep",
        "{path}: O[{other}] {expected, select, empty {no value} other {{expected}}}",
    ),
    ("dup_key", "{path}: O[{other}]"),
    ("contra", "{path}: O[{other}]"),
    ("bad_qty", "{path}: E[{expected}] L[{limit}]"),
    (
        "one_account",
        "{path, select, empty {doc} other {{path}}}: O[{other}]",
    ),
    ("card_on_low", "{path}: E[{expected}] O[{other}]"),
    ("dup_pair", "{path}: O[{other}]"),
    (
        "R-1",
        "{path}: E[{expected}] O[{other, select, empty {-} other {{other}}}]",
    ),
    ("R-2", "{path}: E[{expected}] O[{other}]"),
];

/// A document breaking most rules above once; a level outside the enum (its own code); an
/// item's kind outside it (the parse code); a card given on a low level with an account too;
/// an unknown key.
const DOCS: &[&str] = &[
    r#"{"version": "0.2", "slug": "A1", "day": "2024-13-01", "from_role": "p", "to_role": "p", "start": 5, "end": 3, "level": "high", "amount": 0, "id": "t1", "deps": ["t1", "a", "a"], "items": [{"kind": "low", "key": "x"}, {"kind": "high", "key": "x"}], "qty": 11, "cap": 2, "pairs": [{"a": "x", "b": 1}, {"a": "x", "b": 1}]}"#,
    r#"{"version": "0.1", "slug": "a", "from_role": "a", "to_role": "b", "start": 1, "end": 2, "level": "mid", "iban": "x", "id": "t"}"#,
    r#"{"version": "0.1", "slug": "a", "from_role": "a", "to_role": "b", "start": 1, "end": 2, "iban": "x", "id": "t", "items": [{"kind": "mid", "key": "x"}]}"#,
    r#"{"version": "0.1", "slug": "a", "from_role": "a", "to_role": "b", "start": 1, "end": 2, "level": "low", "iban": "x", "card": "c", "id": "t"}"#,
    r#"{"version": "0.1", "slug": "a", "from_role": "a", "to_role": "b", "start": 1, "end": 2, "iban": "x", "id": "t", "pairs": [{"a": "x", "b": 1, "c": 2}]}"#,
];

/// What both render, per document: `code@path: rendered template`.
fn want() -> Vec<Vec<String>> {
    let first = [
        "bad_version@version: version: E[`0.1`]",
        "bad_slug@slug: slug: E[`^[a-z]+$`]",
        "bad_day@day: day: E[date]",
        "needs_iban@card: card: E[`high`] O[level]",
        "self_dep@deps[0]: deps[0]: E[`t1`] O[id]",
        "dup_dep@deps[2]: deps[2]: O[deps[1]] no value",
        "dup_key@items[1].key: items[1].key: O[items[0].key]",
        "contra@items[1].key: items[1].key: O[items[0].key]",
        "same_role@to_role: to_role: O[from_role]",
        "out_of_order@end: end: E[`5`] O[start]",
        "no_account@: doc: O[iban, card]",
        "low_amount@amount: amount: E[0] O[level]",
        "bad_qty@qty: qty: E[10] L[10]",
        "dup_pair@pairs[1]: pairs[1]: O[pairs[0]]",
        "one_account@: doc: O[iban, card]",
        "R-1@start: start: E[4] O[-]",
        "R-2@end: end: E[2] O[cap ?? 100]",
    ];
    vec![
        first.iter().map(|s| (*s).to_owned()).collect(),
        vec!["bad_level@level: level: E[`low`, `high`]".to_owned()],
        // The parse code: serde's refusal of a value outside the enum names the values.
        vec!["bad_doc@items[0].kind: items[0].kind: E[`low`, `high`]".to_owned()],
        vec![
            "one_account@: doc: O[iban, card]".to_owned(),
            "card_on_low@card: card: E[`low`] O[level]".to_owned(),
        ],
        // The parse code: an unknown key names the keys allowed there.
        vec!["bad_doc@pairs[0].c: pairs[0].c: E[`a`, `b`]".to_owned()],
    ]
}

#[test]
fn the_interpreter_renders_expected_and_other() {
    let spec = load(&common::source("kinds", MD, TOML)).unwrap_or_else(|d| panic!("{d}"));
    let catalog = Catalog::new("de", TEMPLATES.iter().copied()).unwrap();
    let validator = Validator::new(&spec);
    let got: Vec<Vec<String>> = DOCS
        .iter()
        .map(|doc| {
            let report = validator.validate(doc.as_bytes()).expect_err("refused");
            report
                .iter()
                .map(|v| format!("{}@{}: {}", v.code, v.path, catalog.message(v).unwrap()))
                .collect()
        })
        .collect();
    let mut sorted_got = got.clone();
    let mut sorted_want = want();
    for list in sorted_got.iter_mut().chain(sorted_want.iter_mut()) {
        list.sort();
    }
    assert_eq!(sorted_got, sorted_want);
    // The English messages are untouched by the detail.
    let report = validator.validate(DOCS[1].as_bytes()).unwrap_err();
    assert_eq!(
        report.as_slice()[0].message,
        "`level` is `mid`, expected one of `low`, `high`"
    );
}

#[test]
fn the_generated_rust_renders_expected_and_other_as_the_interpreter_does() {
    let spec = common::source("kinds", MD, TOML);
    let loaded = load(&spec).unwrap_or_else(|d| panic!("{d}"));
    let validator = Validator::new(&loaded);
    let catalog = Catalog::new("de", TEMPLATES.iter().copied()).unwrap();
    let interpreted: Vec<Vec<String>> = DOCS
        .iter()
        .map(|doc| {
            let report = validator.validate(doc.as_bytes()).unwrap_err();
            report
                .iter()
                .map(|v| format!("{}@{}: {}", v.code, v.path, catalog.message(v).unwrap()))
                .collect()
        })
        .collect();
    let main = format!(
        "const DOCS: &[&str] = &{DOCS:?};
const TEMPLATES: &[(&str, &str)] = &{TEMPLATES:?};
fn main() {{
    let catalog = specmint_runtime::messages::Catalog::new(\"de\", TEMPLATES.iter().copied()).unwrap();
    for doc in DOCS {{
        if let Err(report) = specmint_compiles::kinds::Doc::from_json_str(doc) {{
            for v in report.iter() {{
                println!(\"{{}}@{{}}: {{}}\", v.code, v.path, catalog.message(v).unwrap());
            }}
        }}
        println!(\"--\");
    }}
}}
"
    );
    let out = crate::compiles::assert_builds_with(
        "compiles-template-detail",
        std::slice::from_ref(&spec),
        &Options::default(),
        Some(&main),
        &["messages"],
    );
    let compiled: Vec<Vec<String>> = out
        .split_terminator("--\n")
        .map(|b| b.lines().map(str::to_owned).collect())
        .collect();
    // The same lines in the same order, code, path and text.
    assert_eq!(compiled, interpreted);
    let mut sorted = compiled;
    let mut sorted_want = want();
    for list in sorted.iter_mut().chain(sorted_want.iter_mut()) {
        list.sort();
    }
    assert_eq!(sorted, sorted_want);
}

#[test]
fn an_unknown_placeholder_near_the_new_ones_is_refused_with_a_suggestion() {
    let de = "# Meldungen\n\n| Code | Message |\n|---|---|\n";
    let mut table = String::from(de);
    for (code, template) in TEMPLATES {
        let t = match *code {
            "same_role" => "`{path}` gleicht `{othr}`",
            "bad_version" => "`{path}` ist nicht {expectd}",
            _ => template,
        };
        table.push_str(&format!("| `{code}` | {} |\n", t.replace('|', "\\|")));
    }
    let mut src = common::source("kinds", MD, TOML);
    src.locales.push(specmint_codegen::LocaleSource {
        tag: "de".into(),
        path: "spec/kinds.de.md".into(),
        md: table,
    });
    let d = load(&src).unwrap_err().to_string();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(
        lines,
        [
            "spec/kinds.de.md:6:39: error: the message of `bad_version`: unknown placeholder `{expectd}`",
            "  hint: did you mean `{expected}`? the placeholders are `{path}`, `{pointer}`, `{code}`, `{measured}`, `{limit}`, `{expected}`, `{other}`, `{message}`",
            "spec/kinds.de.md:10:36: error: the message of `same_role`: unknown placeholder `{othr}`",
            "  hint: did you mean `{other}`? the placeholders are `{path}`, `{pointer}`, `{code}`, `{measured}`, `{limit}`, `{expected}`, `{other}`, `{message}`",
        ]
    );
}
