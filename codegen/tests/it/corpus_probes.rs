//! Probes of the conformance corpus that must keep the rules they do not probe: item caps
//! beside a per-group cap, blank text under a coded requirement, and the byte cap beside a
//! patterned root field. Each spec's every case is also held to the interpreter (the spec's
//! validator read from its model): the same verdict and the same `(code, path)` list, in
//! order.

use serde_json::{json, Value};
use specmint_codegen::{load, Validator};

use crate::common;

/// The corpus of the spec `name`, after every case has been checked against the interpreter.
pub(crate) fn corpus(name: &str, md: &str, toml: &str) -> Value {
    let files = common::generated(name, md, toml).unwrap_or_else(|d| panic!("{d}"));
    let corpus: Value = serde_json::from_str(&files[&format!("corpus/{name}/cases.json")]).unwrap();
    let spec = load(&common::source(name, md, toml)).unwrap();
    let validator = Validator::new(&spec);
    for case in corpus["cases"].as_array().unwrap() {
        let got: Vec<Value> = match validator.validate(case["document"].to_string().as_bytes()) {
            Ok(_) => vec![],
            Err(report) => report
                .iter()
                .map(|v| json!({"code": v.code, "path": v.path}))
                .collect(),
        };
        assert_eq!(&Value::Array(got), &case["errors"], "{}", case["id"]);
        assert_eq!(case["valid"], case["errors"] == json!([]), "{}", case["id"]);
    }
    corpus
}

/// The case `id`'s expected errors as `code@path`, or `None` when there is no such case.
pub(crate) fn errors_of(corpus: &Value, id: &str) -> Option<Vec<String>> {
    let case = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)?;
    Some(
        case["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                format!(
                    "{}@{}",
                    e["code"].as_str().unwrap(),
                    e["path"].as_str().unwrap()
                )
            })
            .collect(),
    )
}

fn notes(corpus: &Value) -> Vec<&str> {
    corpus["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect()
}

const BAG_MD: &str = "# Bag v1

## Fields of a `bag`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `items` | item[] | ✔ | The items. |

## Fields of an `item`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | kind | ✔ | Its kind. |

## Kinds: `kind`

| Value | Meaning |
|---|---|
| `a` | A. |
| `b` | B. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `items` | 10 items | ITEMS_MAX |
| per kind | 3 items | PER_KIND_MAX |

## Error codes

| Code | When |
|---|---|
| `bad` | Not a bag. |
| `too_many` | Too many. |

```json valid
{\"items\": [{\"kind\": \"a\"}]}
```
";

const BAG_TOML: &str = "[spec]
root = \"bag\"

[errors]
enum = \"BagError\"
parse = \"bad\"
max_items = \"too_many\"
max_items_per_group = \"too_many\"

[caps.PER_KIND_MAX]
rule = \"max_items_per_group\"
path = \"items\"
by = \"kind\"
";

/// Two kinds of at most 3 items each hold at most 6: no list of 9, 10 or 11 items keeps the
/// per-group cap, so the item-cap probes are left out and the notes say why (one per-group
/// code shared with the item cap is counted, not matched once).
#[test]
fn item_cap_probes_that_cannot_keep_a_per_group_cap_are_left_out() {
    let corpus = corpus("bag", BAG_MD, BAG_TOML);
    for label in ["n-1", "n", "n+1"] {
        assert_eq!(
            errors_of(&corpus, &format!("max_items.items.{label}")),
            None
        );
    }
    assert_eq!(
        notes(&corpus),
        [
            "max_items.items.n-1: left out, its document also breaks `too_many` at `items`",
            "max_items.items.n: left out, its document also breaks `too_many` at `items`",
            "max_items.items.n+1: left out, its document also breaks `too_many` at `items`",
        ]
    );
    // The per-group probes themselves stay.
    assert_eq!(
        errors_of(&corpus, "max_items_per_group.items.n"),
        Some(vec![])
    );
    assert_eq!(
        errors_of(&corpus, "max_items_per_group.items.n+1"),
        Some(vec!["too_many@items".to_owned()])
    );
}

/// With three kinds of at most 4, 9 to 11 items spread over the kinds keep the per-group
/// cap: the item-cap probes are there, and only the item cap refuses 11.
#[test]
fn item_cap_probes_spread_their_items_over_the_groups() {
    let md = BAG_MD
        .replace("| `b` | B. |", "| `b` | B. |\n| `c` | C. |")
        .replace("| per kind | 3 items |", "| per kind | 4 items |");
    let corpus = corpus("bag", &md, BAG_TOML);
    assert_eq!(errors_of(&corpus, "max_items.items.n-1"), Some(vec![]));
    assert_eq!(errors_of(&corpus, "max_items.items.n"), Some(vec![]));
    assert_eq!(
        errors_of(&corpus, "max_items.items.n+1"),
        Some(vec!["too_many@items".to_owned()])
    );
    assert_eq!(notes(&corpus), Vec::<&str>::new());
}

const DEPLOY_MD: &str = "# Deploy v1

## Fields of a `deploy`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `owner` | non-blank string | ✔ `missing_owner` | Who owns it. |
| `hosts` | non-blank string[] | ✔ `no_hosts` | Where it runs. |

## Error codes

| Code | When |
|---|---|
| `bad_deploy` | Not the shape. |
| `blank` | Blank. |
| `missing_owner` | No owner. |
| `no_hosts` | No host. |

```json valid
{\"owner\": \"ops\", \"hosts\": [\"h1\"]}
```
";

const DEPLOY_TOML: &str = "[spec]
root = \"deploy\"

[errors]
enum = \"DeployError\"
parse = \"bad_deploy\"
non_blank = \"blank\"
";

/// A coded requirement counts blank text as missing and reports its own code before
/// `non_blank`'s; on a list it is the list that must not be empty, so a blank element is
/// only blank.
#[test]
fn blank_text_under_a_coded_requirement_expects_both_codes() {
    let corpus = corpus("deploy", DEPLOY_MD, DEPLOY_TOML);
    for label in ["empty", "spaces", "ideographic_space", "nel", "nbsp"] {
        assert_eq!(
            errors_of(&corpus, &format!("non_blank.owner.{label}")),
            Some(vec![
                "missing_owner@owner".to_owned(),
                "blank@owner".to_owned()
            ]),
            "{label}"
        );
        assert_eq!(
            errors_of(&corpus, &format!("non_blank.hosts.{label}")),
            Some(vec!["blank@hosts[0]".to_owned()]),
            "{label}"
        );
    }
    for label in ["bom", "zwsp", "padded"] {
        assert_eq!(
            errors_of(&corpus, &format!("non_blank.owner.{label}")),
            Some(vec![]),
            "{label}"
        );
    }
}

const MSG_MD: &str = "# Msg v1

## Fields of a `msg`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string matching `^m[0-9]{1,4}$` | ✔ | The id. |
| `body` | non-blank string | ✔ | The body. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| The message, compact JSON | 200 bytes | MSG_MAX_BYTES |

## Error codes

| Code | When |
|---|---|
| `bad` | Not a msg. |
| `bad_id` | Not an id. |
| `blank` | Blank. |
| `too_big` | Too big. |

```json valid
{\"id\": \"m1\", \"body\": \"hi\"}
```
";

const MSG_TOML: &str = "[spec]
root = \"msg\"

[errors]
enum = \"MsgError\"
parse = \"bad\"
non_blank = \"blank\"
pattern = \"bad_id\"
max_bytes = \"too_big\"

[caps.MSG_MAX_BYTES]
rule = \"document_bytes\"
";

/// `id`, the first root text, holds at most 5 chars: the byte cap is padded through `body`.
#[test]
fn the_byte_cap_is_padded_through_the_first_field_with_room() {
    let corpus = corpus("msg", MSG_MD, MSG_TOML);
    for (label, bytes) in [("n-1", 199), ("n", 200), ("n+1", 201)] {
        let case = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == format!("max_bytes.ascii.{label}"))
            .unwrap_or_else(|| panic!("no max_bytes.ascii.{label}: {:#}", corpus["notes"]));
        assert_eq!(case["document"]["id"], "m1");
        assert_eq!(case["document"].to_string().len(), bytes);
        let want: Vec<String> = if bytes > 200 {
            vec!["too_big@".to_owned()]
        } else {
            vec![]
        };
        assert_eq!(
            errors_of(&corpus, &format!("max_bytes.ascii.{label}")),
            Some(want)
        );
    }
    assert_eq!(notes(&corpus), Vec::<&str>::new());
}

/// A coded requirement reads `null` as absent, and an absent value is not written back: the
/// document is measured without it, so `null` in place of a one-char `body` is not over a
/// byte cap the base meets exactly.
#[test]
fn a_coded_field_given_null_is_measured_as_absent() {
    let md = MSG_MD
        .replace(
            "| `body` | non-blank string | ✔ |",
            "| `body` | non-blank string | ✔ `missing_body` |",
        )
        .replace("| 200 bytes |", "| 22 bytes |")
        .replace(
            "| `too_big` | Too big. |",
            "| `too_big` | Too big. |\n| `missing_body` | No body. |",
        )
        .replace(r#""body": "hi""#, r#""body": "h""#);
    let corpus = corpus("msg", &md, MSG_TOML);
    let base = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "base");
    assert_eq!(base.unwrap()["document"], json!({"id": "m1", "body": "h"}));
    assert_eq!(
        errors_of(&corpus, "type.body.null"),
        Some(vec!["missing_body@body".to_owned()])
    );
}

/// Issue 23, item 3: the interpreter's per-group message names the grouping field when it is
/// not `kind` (here the items have a real `kind` beside it), and keeps "of kind" when it is.
#[test]
fn the_per_group_message_names_the_grouping_field() {
    let md = BAG_MD
        .replace(
            "| `kind` | kind | ✔ | Its kind. |",
            "| `rev` | kind | ✔ | Its hardware revision. |\n| `kind` | string? | — | Its kind. |",
        )
        .replace(r#"{"kind": "a"}"#, r#"{"rev": "a"}"#);
    let toml = BAG_TOML.replace("by = \"kind\"", "by = \"rev\"");
    let message = |md: &str, toml: &str, doc: &str| {
        let spec = specmint_codegen::load(&common::source("bag", md, toml))
            .unwrap_or_else(|d| panic!("{d}"));
        specmint_codegen::Validator::new(&spec)
            .validate(doc.as_bytes())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        message(
            &md,
            &toml,
            r#"{"items": [{"rev": "a", "kind": "x"}, {"rev": "a"}, {"rev": "b"}, {"rev": "a"}, {"rev": "a"}]}"#
        ),
        "too_many: `items` has 4 items whose `rev` is `a` (max 3)"
    );
    assert_eq!(
        message(
            BAG_MD,
            BAG_TOML,
            r#"{"items": [{"kind": "b"}, {"kind": "b"}, {"kind": "b"}, {"kind": "b"}]}"#
        ),
        "too_many: `items` has 4 items of kind `b` (max 3)"
    );
}

/// Issue 46: a patterned text (and a format) under a coded requirement, as an EN 16931
/// invoice has them (rule ids for codes). Blank text is missing and breaks the pattern too,
/// so every probe of either states both codes, and every case is the interpreter's verdict.
const CODED_PATTERN_MD: &str = "# Invoice v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `number` | string matching `^[A-Z]{2}-[0-9]+$` | ✔ `BR-02` | The invoice number. |
| `currency` | string matching `^[A-Z]{3}$` | ✔ `BR-05` | The currency code. |
| `issued` | date | ✔ `BR-03` | The issue date. |

## Error codes

| Code | When |
|---|---|
| `invalid_invoice` | Not the shape. |
| `BR-02` | No invoice number. |
| `BR-03` | No issue date. |
| `BR-05` | No currency code. |
| `BR-CL-01` | A code does not match its list. |
| `BR-DT-01` | A date is not a date. |

```json valid
{\"number\": \"IN-1\", \"currency\": \"EUR\", \"issued\": \"2024-01-31\"}
```
";

const CODED_PATTERN_TOML: &str = "[spec]
root = \"invoice\"

[errors]
enum = \"InvoiceError\"
parse = \"invalid_invoice\"
pattern = \"BR-CL-01\"
format = \"BR-DT-01\"
";

#[test]
fn a_blank_patterned_text_under_a_coded_requirement_breaks_both() {
    let c = corpus("invoice", CODED_PATTERN_MD, CODED_PATTERN_TOML);
    let cases: [(&str, &[&str]); 7] = [
        ("pattern.number.empty", &["BR-02@number", "BR-CL-01@number"]),
        (
            "pattern.currency.empty",
            &["BR-05@currency", "BR-CL-01@currency"],
        ),
        (
            "required_coded.number.empty",
            &["BR-02@number", "BR-CL-01@number"],
        ),
        (
            "required_coded.number.spaces",
            &["BR-02@number", "BR-CL-01@number"],
        ),
        ("required_coded.number.bom", &["BR-CL-01@number"]),
        (
            "required_coded.issued.empty",
            &["BR-03@issued", "BR-DT-01@issued"],
        ),
        ("pattern.number.x", &["BR-CL-01@number"]),
    ];
    for (id, want) in cases {
        assert_eq!(
            errors_of(&c, id),
            Some(want.iter().map(|w| w.to_string()).collect()),
            "{id}"
        );
    }
}
