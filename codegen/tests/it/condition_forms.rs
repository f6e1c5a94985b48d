//! The forms of a condition (issue 46): a set of values (``if `mode` is `air`, `sea` or
//! `rail` ``), negation (`unless`, `is not`), a path through an optional object, and the
//! items of a list (`any`, `every`, a list of enum values). Each is checked the same by the
//! compiled Rust and the interpreter (codes, paths, messages, order), stated in the schema,
//! and probed by the corpus on both sides.

use serde_json::{json, Value};

use crate::common;

const MD: &str = "# Shipments v1

## Fields of a `shipment`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `mode` | mode | ✔ | How it travels. |
| `zone` | zone? | — | Where it goes; absent for a local move. |
| `route` | route? | — | The planned route, when there is one. |
| `parcels` | parcel[] | — | The parcels. |
| `labels` | label[] | — | Handling labels. |
| `hazmat_class` | non-blank string? | if `mode` is `air`, `sea` or `rail` | The dangerous-goods class. |
| `customs_ref` | string? | unless `zone` is `domestic` | The customs reference. |
| `returns_to` | string? | if `mode` is not `road` | Where a refused shipment returns. |
| `signature` | string? | if any `parcels[].fragile` is `true` | Who signs for fragile parcels. |
| `pallet_id` | string? | if every `parcels[].size` is `large` | The pallet all-large shipments ride on. |
| `escort` | string? | if `route.risk` is `high` | The escort of a risky route. |
| `cold_chain` | string? | if any `labels[]` is `cold` or `frozen` | The cold-chain log. |

## Fields of a `route`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `risk` | risk | ✔ | How risky it is. |

## Fields of a `parcel`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `fragile` | bool | — (default false) | Whether it breaks. |
| `size` | size? | — | Its size, when measured. |

## Modes: `mode`

| Value | Meaning |
|---|---|
| `air` | By air. |
| `sea` | By sea. |
| `rail` | By rail. |
| `road` | By road. |

## Zones: `zone`

| Value | Meaning |
|---|---|
| `domestic` | Inside the country. |
| `eu` | Inside the union. |
| `world` | Anywhere else. |

## Risks: `risk`

| Value | Meaning |
|---|---|
| `low` | Low. |
| `high` | High. |

## Sizes: `size`

| Value | Meaning |
|---|---|
| `small` | Small. |
| `large` | Large. |

## Labels: `label`

| Value | Meaning |
|---|---|
| `cold` | Keep cold. |
| `frozen` | Keep frozen. |
| `upright` | This side up. |

## Error codes

| Code | When |
|---|---|
| `bad_shipment` | Not the shape. |
| `missing` | A conditionally required field is absent. |
| `blank` | A blank text. |

```json valid
{\"mode\": \"road\", \"zone\": \"domestic\"}
```
";

const TOML: &str = "[spec]
root = \"shipment\"

[errors]
parse = \"bad_shipment\"
required_if = \"missing\"
non_blank = \"blank\"
";

/// Documents and the interpreter's verdict on each (`code@path: message`).
fn cases() -> Vec<(Value, Vec<&'static str>)> {
    vec![
        (json!({"mode": "road", "zone": "domestic"}), vec![]),
        (
            json!({"mode": "air", "zone": "domestic", "returns_to": "x"}),
            vec!["missing@hazmat_class: `hazmat_class` is required when `mode` is `air`"],
        ),
        (
            json!({"mode": "rail", "zone": "domestic", "returns_to": "x", "hazmat_class": " "}),
            vec![
                "blank@hazmat_class: `hazmat_class` must not be blank",
                "missing@hazmat_class: `hazmat_class` is required when `mode` is `rail` (it is blank)",
            ],
        ),
        (
            json!({"mode": "road"}),
            vec!["missing@customs_ref: `customs_ref` is required when `zone` is not `domestic`"],
        ),
        (
            json!({"mode": "road", "zone": "eu", "customs_ref": ""}),
            vec!["missing@customs_ref: `customs_ref` is required when `zone` is not `domestic` (it is empty)"],
        ),
        (
            json!({"mode": "sea", "zone": "domestic", "hazmat_class": "3"}),
            vec!["missing@returns_to: `returns_to` is required when `mode` is not `road`"],
        ),
        (
            json!({"mode": "road", "zone": "domestic", "parcels": [{"fragile": false}, {"fragile": true}]}),
            vec!["missing@signature: `signature` is required when any `parcels[].fragile` is `true`"],
        ),
        (
            json!({"mode": "road", "zone": "domestic", "parcels": [{"size": "large"}, {"size": "large", "fragile": true}], "signature": "s"}),
            vec!["missing@pallet_id: `pallet_id` is required when every `parcels[].size` is `large`"],
        ),
        // One parcel without a size: not every size is `large`.
        (
            json!({"mode": "road", "zone": "domestic", "parcels": [{"size": "large"}, {}]}),
            vec![],
        ),
        // No parcels: `every` needs at least one.
        (json!({"mode": "road", "zone": "domestic", "parcels": []}), vec![]),
        (
            json!({"mode": "road", "zone": "domestic", "route": {"risk": "high"}}),
            vec!["missing@escort: `escort` is required when `route.risk` is `high`"],
        ),
        (
            json!({"mode": "road", "zone": "domestic", "route": null}),
            vec![],
        ),
        (
            json!({"mode": "road", "zone": "domestic", "labels": ["upright", "frozen"]}),
            vec!["missing@cold_chain: `cold_chain` is required when any `labels[]` is `cold` or `frozen`"],
        ),
        // Every rule at once, in field order.
        (
            json!({"mode": "air", "zone": "eu", "route": {"risk": "high"}, "labels": ["cold"],
                   "parcels": [{"fragile": true, "size": "large"}]}),
            vec![
                "missing@hazmat_class: `hazmat_class` is required when `mode` is `air`",
                "missing@customs_ref: `customs_ref` is required when `zone` is not `domestic`",
                "missing@returns_to: `returns_to` is required when `mode` is not `road`",
                "missing@signature: `signature` is required when any `parcels[].fragile` is `true`",
                "missing@pallet_id: `pallet_id` is required when every `parcels[].size` is `large`",
                "missing@escort: `escort` is required when `route.risk` is `high`",
                "missing@cold_chain: `cold_chain` is required when any `labels[]` is `cold` or `frozen`",
            ],
        ),
    ]
}

#[test]
fn the_interpreter_reads_every_form() {
    for (doc, want) in cases() {
        let got = common::verdict("shipments", MD, TOML, &doc.to_string());
        assert_eq!(got, want, "{doc}");
    }
}

#[test]
fn the_compiled_rust_agrees_with_the_interpreter() {
    let texts: Vec<String> = cases().iter().map(|(d, _)| d.to_string()).collect();
    let docs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let spec = common::source("shipments", MD, TOML);
    let compiled = crate::compiles::compiled_verdicts(
        "compiles-shipments",
        &spec,
        "shipments::Shipment",
        &docs,
        &specmint_codegen::Options::default(),
    );
    let want: Vec<Vec<String>> = cases()
        .into_iter()
        .map(|(_, w)| w.into_iter().map(str::to_owned).collect())
        .collect();
    assert_eq!(compiled, want);
}

#[test]
fn the_schema_states_each_form() {
    let files = common::generated("shipments", MD, TOML).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/shipments.schema.json"]).unwrap();
    let all_of = schema["$defs"]["shipment"]["allOf"].as_array().unwrap();
    let rule = |key: &str| {
        all_of
            .iter()
            .find(|r| {
                r.get("then")
                    .or_else(|| r.get("else"))
                    .is_some_and(|t| t["required"] == json!([key]))
            })
            .unwrap_or_else(|| panic!("{key}"))
    };
    assert_eq!(
        rule("hazmat_class")["if"],
        json!({"properties": {"mode": {"enum": ["air", "sea", "rail"]}}, "required": ["mode"]})
    );
    let customs = rule("customs_ref");
    assert_eq!(
        customs["if"],
        json!({"properties": {"zone": {"const": "domestic"}}, "required": ["zone"]})
    );
    assert!(customs.get("then").is_none() && customs.get("else").is_some());
    assert_eq!(
        rule("signature")["if"],
        json!({"properties": {"parcels": {"type": "array", "contains":
            {"properties": {"fragile": {"const": true}}, "required": ["fragile"]}}},
            "required": ["parcels"]})
    );
    assert_eq!(
        rule("escort")["if"],
        json!({"properties": {"route": {"type": "object", "properties": {"risk": {"const": "high"}},
            "required": ["risk"]}}, "required": ["route"]})
    );
    assert_eq!(
        rule("cold_chain")["if"],
        json!({"properties": {"labels": {"type": "array", "contains": {"enum": ["cold", "frozen"]}}},
            "required": ["labels"]})
    );
    let every = &rule("pallet_id")["if"]["allOf"];
    assert_eq!(
        every[1],
        json!({"properties": {"parcels": {"items":
            {"properties": {"size": {"const": "large"}}, "required": ["size"]}}}})
    );
}

/// Each form's corpus cases, both sides: the validators agree with every one of them (the
/// random-spec property checks the whole corpus; here, the cases of these rules).
#[test]
fn the_corpus_probes_both_sides_of_each_form() {
    let corpus = crate::corpus_probes::corpus("shipments", MD, TOML);
    let spec = specmint_codegen::load(&common::source("shipments", MD, TOML))
        .unwrap_or_else(|d| panic!("{d}"));
    let validator = specmint_codegen::Validator::new(&spec);
    let mut seen = 0;
    for case in corpus["cases"].as_array().unwrap() {
        let id = case["id"].as_str().unwrap();
        let mut want: Vec<(String, String)> = case["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["code"].as_str().unwrap().into(),
                    e["path"].as_str().unwrap().into(),
                )
            })
            .collect();
        want.sort();
        let mut got: Vec<(String, String)> =
            match validator.validate(&serde_json::to_vec(&case["document"]).unwrap()) {
                Ok(_) => Vec::new(),
                Err(r) => r
                    .iter()
                    .map(|v| (v.code.to_string(), v.path.clone()))
                    .collect(),
            };
        got.sort();
        assert_eq!(got, want, "{id}: {:#}", case["document"]);
        if id.starts_with("required_if.") {
            seen += 1;
        }
    }
    for field in [
        "hazmat_class",
        "customs_ref",
        "returns_to",
        "signature",
        "pallet_id",
        "escort",
        "cold_chain",
    ] {
        for label in ["absent", "null"] {
            let id = format!("required_if.{field}.{label}");
            assert_eq!(
                crate::corpus_probes::errors_of(&corpus, &id),
                Some(vec![format!("missing@{field}")]),
                "{id}"
            );
        }
        let otherwise = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| {
                let id = c["id"].as_str().unwrap();
                id.starts_with(&format!("required_if.{field}.absent_")) && !id.ends_with("_mixed")
            })
            .unwrap_or_else(|| panic!("{field}: no case where the condition does not hold"));
        assert_eq!(otherwise["errors"], json!([]), "{field}");
    }
    // One item matching and one not: `any` holds, `every` does not.
    for (field, refused) in [
        ("signature", true),
        ("pallet_id", false),
        ("cold_chain", true),
    ] {
        let id = format!("required_if.{field}.absent_mixed");
        let want = if refused {
            vec![format!("missing@{field}")]
        } else {
            vec![]
        };
        assert_eq!(
            crate::corpus_probes::errors_of(&corpus, &id),
            Some(want),
            "{id}"
        );
    }
    assert!(seen >= 24, "{seen}");
}

#[test]
fn a_condition_that_cannot_be_read_is_a_diagnostic_at_its_cell() {
    let cases = [
        (
            "if any `parcels[].fragile` is `true`",
            "if `parcels[].fragile` is `true`",
            "`parcels[].fragile` reads the items of a list, which hold many values",
        ),
        (
            "if `mode` is `air`, `sea` or `rail`",
            "if any `mode` is `air`",
            "`mode` is one value: `any` needs a list",
        ),
        (
            "if any `labels[]` is `cold` or `frozen`",
            "if any `labels` is `cold`",
            "`labels` is a list: a condition reads its items",
        ),
        (
            "if `mode` is `air`, `sea` or `rail`",
            "if `mode` is `air`, `ship` or `rail`",
            "`ship` is not a value of `mode`",
        ),
        (
            "if `mode` is `air`, `sea` or `rail`",
            "if `mode` is `air`, `sea` or `air`",
            "`air` is written twice in the condition",
        ),
        (
            "if `route.risk` is `high`",
            "if `route` is `high`",
            "`route` is the table `route`, which a condition cannot compare",
        ),
        (
            "if `route.risk` is `high`",
            "if `route.danger` is `high`",
            "path `route.danger` does not resolve: `route` has no field `danger` (fields: `risk`)",
        ),
    ];
    for (from, to, want) in cases {
        let md = MD.replacen(from, to, 1);
        let lines = common::error_lines("shipments", &md, TOML);
        assert_eq!(lines.len(), 1, "{to}: {lines:?}");
        assert!(lines[0].ends_with(want), "{to}: {lines:?}");
    }
    // `unless` and `is not` together would say it twice.
    let md = MD.replace(
        "unless `zone` is `domestic`",
        "unless `zone` is not `domestic`",
    );
    let lines = common::error_lines("shipments", &md, TOML);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].ends_with("error: cannot read the Required cell `unless zone is not domestic`"),
        "{lines:?}"
    );
}

/// `specmint diff` on each kind of condition edit: the change's id, who it breaks, and a
/// witness document that flips for each break.
#[test]
fn diff_says_what_a_condition_edit_breaks_with_witnesses() {
    use specmint_codegen::diff::{diff, Break, Proof};
    let edits: [(&str, &str, &str, &[Break]); 6] = [
        (
            "if `mode` is `air`, `sea` or `rail`",
            "if `mode` is `air` or `sea`",
            "required-if-narrowed",
            &[Break::Readers],
        ),
        (
            "if any `labels[]` is `cold` or `frozen`",
            "if any `labels[]` is `cold`, `frozen` or `upright`",
            "required-if-widened",
            &[Break::Documents],
        ),
        (
            "unless `zone` is `domestic`",
            "unless `zone` is `domestic` or `eu`",
            "required-if-narrowed",
            &[Break::Readers],
        ),
        (
            "unless `zone` is `domestic`",
            "if `zone` is `eu`",
            "required-if-changed",
            &[Break::Readers],
        ),
        // `every` (and at least one) implies `any`: fewer documents need a signature.
        (
            "if any `parcels[].fragile` is `true`",
            "if every `parcels[].fragile` is `true`",
            "required-if-changed",
            &[Break::Readers],
        ),
        (
            "if `route.risk` is `high`",
            "if `route.risk` is `low`",
            "required-if-changed",
            &[Break::Documents, Break::Readers],
        ),
    ];
    for (from, to, id, breaks) in edits {
        let old = common::source("shipments", MD, TOML);
        let new = common::source("shipments", &MD.replacen(from, to, 1), TOML);
        let d = diff(&[old], &[new]).unwrap_or_else(|e| panic!("{to}: {e:?}"));
        let change = d
            .changes
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("{to}: {:#?}", d.changes));
        assert_eq!(change.breaks, breaks, "{to}: {:#?}", change.proofs);
        for proof in &change.proofs {
            match proof {
                Proof::Found(w) => assert_ne!(w.old.valid(), w.new.valid(), "{to}"),
                Proof::Missing { reason, .. } => panic!("{to}: no witness: {reason}"),
            }
        }
    }
}
