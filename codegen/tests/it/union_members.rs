//! Issue 23, item 4: rules on union members. An item cap or minimum on a member list (an
//! X.509 chain of one to four certificates) loads and is enforced at the member's path, by
//! the generated Rust, the interpreter and the schema.

use serde_json::{json, Value};

use crate::common;

const MD: &str = "# Firmware v1

## Fields of a `manifest`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | string | ✔ | The release. |
| `signature` | signature | ✔ | How it is signed. |

## Kinds of a `signature`

| kind | Fields | Meaning |
|---|---|---|
| `x509` | `chain: non-blank string[]` | A certificate chain, leaf first. |
| `pgp` | `key_id: string`, `chain: string[]?` | A PGP key and its certifications. |
| `none` | — | Unsigned. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `signature.chain` | 4 items | CHAIN_MAX |
| `signature.chain` | at least 1 items | CHAIN_MIN |

## Error codes

| Code | When |
|---|---|
| `bad_manifest` | Not the shape. |
| `blank` | A blank certificate. |
| `too_many` | Over an item cap. |
| `too_few` | Under a minimum. |

```json valid
{\"name\": \"r1\", \"signature\": {\"kind\": \"x509\", \"chain\": [\"leaf\", \"root\"]}}
```

```json invalid too_many@signature.chain
{\"name\": \"r1\", \"signature\": {\"kind\": \"x509\", \"chain\": [\"a\", \"b\", \"c\", \"d\", \"e\"]}}
```
";

const TOML: &str = "[spec]
root = \"manifest\"

[errors]
parse = \"bad_manifest\"
non_blank = \"blank\"
max_items = \"too_many\"
min_items = \"too_few\"
";

fn files() -> std::collections::BTreeMap<String, String> {
    common::generated("firmware", MD, TOML).unwrap_or_else(|d| panic!("{d}"))
}

fn verdict(md: &str, doc: &str) -> Vec<String> {
    common::verdict("firmware", md, TOML, doc)
}

#[test]
fn the_interpreter_enforces_a_member_cap_at_the_members_path() {
    let doc = |sig: &str| format!(r#"{{"name": "r1", "signature": {sig}}}"#);
    assert_eq!(
        verdict(
            MD,
            &doc(r#"{"kind": "x509", "chain": ["a", "b", "c", "d", "e"]}"#)
        ),
        ["too_many@signature.chain: `signature.chain` has 5 items (max 4)"]
    );
    assert_eq!(
        verdict(MD, &doc(r#"{"kind": "x509", "chain": []}"#)),
        ["too_few@signature.chain: `signature.chain` has 0 items (min 1)"]
    );
    assert_eq!(
        verdict(
            MD,
            &doc(r#"{"kind": "x509", "chain": ["a", "b", "c", "d"]}"#)
        ),
        Vec::<String>::new()
    );
    // Every variant with a member of that key: `pgp`'s `chain` too (null is not checked).
    assert_eq!(
        verdict(
            MD,
            &doc(r#"{"kind": "pgp", "key_id": "k", "chain": ["a", "b", "c", "d", "e"]}"#)
        ),
        ["too_many@signature.chain: `signature.chain` has 5 items (max 4)"]
    );
    assert_eq!(
        verdict(MD, &doc(r#"{"kind": "pgp", "key_id": "k", "chain": null}"#)),
        Vec::<String>::new()
    );
    // The caps and the member's own rule, in the order a struct field lists them.
    assert_eq!(
        verdict(
            MD,
            &doc(r#"{"kind": "x509", "chain": ["a", " ", "c", "d", "e"]}"#)
        ),
        [
            "too_many@signature.chain: `signature.chain` has 5 items (max 4)",
            "blank@signature.chain[1]: `signature.chain[1]` must not be blank",
        ]
    );
}

#[test]
fn rust_checks_the_member_in_the_unions_validate() {
    common::assert_holds(
        &files()["rust/firmware.rs"],
        &[
            "Signature::X509 { chain, .. } => {\n                ::specmint_runtime::rules::max_items(\n                    chain,\n                    &path.field(\"chain\"),\n                    CHAIN_MAX,\n                    \"too_many\",\n                    report,\n                );\n                ::specmint_runtime::rules::min_items(\n                    chain,\n                    &path.field(\"chain\"),\n                    CHAIN_MIN,\n                    \"too_few\",\n                    report,\n                );",
        ],
    );
}

#[test]
fn schema_states_the_member_caps() {
    let schema: Value = serde_json::from_str(&files()["schema/firmware.schema.json"]).unwrap();
    let variants = &schema["$defs"]["signature"]["oneOf"];
    let x509 = &variants[0]["properties"]["chain"];
    assert_eq!(
        (&x509["minItems"], &x509["maxItems"]),
        (&json!(1), &json!(4))
    );
    let pgp = &variants[1]["properties"]["chain"];
    assert_eq!((&pgp["minItems"], &pgp["maxItems"]), (&json!(1), &json!(4)));
}

#[test]
fn a_member_cap_names_a_member_and_counts_items() {
    let with_cap = |row: &str| {
        MD.replace(
            "| `signature.chain` | at least 1 items | CHAIN_MIN |",
            &format!("| `signature.chain` | at least 1 items | CHAIN_MIN |\n{row}"),
        )
    };
    let lines = |md: &str| common::error_lines("firmware", md, TOML);
    assert_eq!(
        lines(&with_cap("| `signature.chian` | 4 items | CHIAN_MAX |")),
        ["spec/firmware.md:24:3: error: path `signature.chian` does not resolve: no variant of the union `signature` has a member `chian` (members: `chain`, `key_id`)"]
    );
    // A char cap on a member that is text in one variant and a list in another.
    assert_eq!(
        lines(&with_cap("| `signature.chain` | 40 chars | CHAIN_MAX_CHARS |")),
        ["spec/firmware.md:24:23: error: unit `chars` does not fit `signature.chain`: it is an array (write `[]` to cap its elements)"]
    );
    // One key, a list in one variant and not in another: neither row fits both.
    let md = MD.replace("`chain: string[]?`", "`chain: string?`");
    assert_eq!(
        lines(&md),
        [
            "spec/firmware.md:22:23: error: unit `items` does not fit `signature.chain`: the union's variants do not all make that member a list",
            "spec/firmware.md:23:23: error: unit `items` does not fit `signature.chain`: the union's variants do not all make that member a list",
        ]
    );
    // A path through a member, to another rule kind, still stops at the union.
    let unique = format!("{TOML}\n[[unique]]\npath = \"signature.chain\"\ncode = \"too_many\"\n");
    assert_eq!(
        common::error_lines("firmware", MD, &unique),
        ["spec/firmware.toml:11:8: error: path `signature.chain` does not resolve: `signature` is the union `signature`: only a cap or minimum row steps into a union's members (to a member itself, `signature.member`)"]
    );
}

/// The one refusal of `doc` as `code@path: message`.
fn refusal(doc: &str) -> String {
    let got = verdict(MD, &format!(r#"{{"name":"r1","signature":{doc}}}"#));
    assert_eq!(got.len(), 1, "{doc}: {got:?}");
    got[0].clone()
}

/// A wrong type inside a member is reported at the member's path, as in any object, when
/// the tag comes first (as every writer puts it); the same reader is generated
/// (`codegen/src/emit/rust/union.rs`) and the acceptance crate holds the two to one corpus.
/// A key that is no member stays refused at the union, as before (specs' examples say so).
#[test]
fn a_members_shape_error_is_placed_at_the_member() {
    assert_eq!(
        refusal(r#"{"kind":"x509","chain":"leaf"}"#),
        "bad_manifest@signature.chain: invalid type: string \"leaf\", expected a sequence at line 1 column 54"
    );
    assert_eq!(
        refusal(r#"{"kind":"x509","chain":[7]}"#),
        "bad_manifest@signature.chain[0]: invalid type: integer `7`, expected a string at line 1 column 50"
    );
    assert_eq!(
        refusal(r#"{"kind":"x509","chain":["a"],"bogus":1}"#),
        "bad_manifest@signature.bogus: unknown field `bogus`, expected `chain` at line 1 column 61"
    );
    assert_eq!(
        refusal(r#"{"kind":"none","chain":["a"]}"#),
        "bad_manifest@signature.chain: unknown field `chain`, there are no fields at line 1 column 47"
    );
    // The tag last: the members are buffered, the unknown one still named.
    assert_eq!(
        refusal(r#"{"chain":["a"],"bogus":1,"kind":"x509"}"#),
        "bad_manifest@signature.bogus: unknown field `bogus`, expected `chain` at line 1 column 64"
    );
    // The tag's own value: at the tag.
    assert_eq!(
        refusal(r#"{"kind":"rsa"}"#),
        "bad_manifest@signature.kind: unknown variant `rsa`, expected one of `x509`, `pgp`, `none` at line 1 column 38"
    );
    // At the union: what concerns the object as a whole.
    assert_eq!(
        refusal(r#"{"kind":"pgp"}"#),
        "bad_manifest@signature: missing field `key_id` at line 1 column 39"
    );
    assert_eq!(
        refusal(r#"{"kind":"x509","chain":["a"],"kind":"x509"}"#),
        "bad_manifest@signature: duplicate field `kind` at line 1 column 60"
    );
    // A tag after members: they cannot be typed before it, so serde's buffered reading,
    // its error at the union.
    assert_eq!(
        refusal(r#"{"chain":"leaf","kind":"x509"}"#),
        "bad_manifest@signature: invalid type: string \"leaf\", expected a sequence at line 1 column 55"
    );
}

/// The corpus probes a member's item cap and minimum at the member, in each variant with the
/// member, and the interpreter gives every case its stated verdict.
#[test]
fn corpus_probes_member_caps_and_the_interpreter_agrees() {
    let corpus: Value = serde_json::from_str(&files()["corpus/firmware/cases.json"]).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let case = |id: &str| {
        let c = cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("no case {id}"));
        (c["document"]["signature"].clone(), c["errors"].clone())
    };
    let (doc, errors) = case("max_items.signature.x509.chain.n+1");
    assert_eq!(doc["chain"].as_array().unwrap().len(), 5);
    assert_eq!(
        errors,
        json!([{"code": "too_many", "path": "signature.chain"}])
    );
    let (doc, errors) = case("max_items.signature.pgp.chain.n");
    assert_eq!(
        (doc["kind"].clone(), doc["chain"].as_array().unwrap().len()),
        (json!("pgp"), 4)
    );
    assert_eq!(errors, json!([]));
    let (doc, errors) = case("min_items.signature.x509.chain.n-1");
    assert_eq!(doc["chain"], json!([]));
    assert_eq!(
        errors,
        json!([{"code": "too_few", "path": "signature.chain"}])
    );
    for c in cases {
        let doc = serde_json::to_string(&c["document"]).unwrap();
        let got: Vec<Value> = common::verdict("firmware", MD, TOML, &doc)
            .iter()
            .map(|v| {
                let (code_path, _) = v.split_once(": ").unwrap();
                let (code, path) = code_path.split_once('@').unwrap();
                json!({"code": code, "path": path})
            })
            .collect();
        assert_eq!(Value::Array(got), c["errors"], "{}", c["id"]);
    }
}

/// `specmint diff`: a cap added to a member two variants share is one change, not one per
/// variant.
#[test]
fn a_member_cap_added_is_one_change() {
    let old_md = MD
        .replace("| `signature.chain` | 4 items | CHAIN_MAX |\n", "")
        .replace("| `signature.chain` | at least 1 items | CHAIN_MIN |\n", "")
        .replace("| `too_many` | Over an item cap. |\n", "")
        .replace("| `too_few` | Under a minimum. |\n", "")
        .replace(
            "```json invalid too_many@signature.chain",
            "```json fragment",
        );
    let old_toml = TOML
        .replace("max_items = \"too_many\"\n", "")
        .replace("min_items = \"too_few\"\n", "");
    let d = specmint_codegen::diff::diff(
        &[common::source("firmware", &old_md, &old_toml)],
        &[common::source("firmware", MD, TOML)],
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    let changes: Vec<(&str, &str)> = d
        .changes
        .iter()
        .map(|c| (c.id, c.message.as_str()))
        .collect();
    assert_eq!(
        changes,
        [
            ("cap-added", "the item cap of `signature.chain` of 4 added"),
            (
                "minimum-added",
                "the item minimum of `signature.chain` of 1 added"
            ),
            ("error-code-added", "error code `too_many` added"),
            ("error-code-added", "error code `too_few` added"),
        ]
    );
}

/// A member typed as a field table is read in place too: a shape error inside it is placed
/// inside it, an unknown key at the key.
#[test]
fn a_shape_error_inside_a_member_object_is_placed_inside_it() {
    let md = MD
        .replace(
            "| `none` | — | Unsigned. |",
            "| `cms` | `signer: signer` | A CMS signature. |\n| `none` | — | Unsigned. |",
        )
        .replace(
            "## Caps",
            "## Fields of a `signer`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `serial` | uint64 | ✔ | The certificate's serial. |\n\n## Caps",
        );
    let refusal = |sig: &str| verdict(&md, &format!(r#"{{"name":"r1","signature":{sig}}}"#));
    assert_eq!(
        refusal(r#"{"kind":"cms","signer":{"serial":"7"}}"#),
        ["bad_manifest@signature.signer.serial: invalid type: string \"7\", expected u64 at line 1 column 61"]
    );
    assert_eq!(
        refusal(r#"{"kind":"cms","signer":{"serial":7,"bogus":1}}"#),
        ["bad_manifest@signature.signer.bogus: unknown field `bogus`, expected `serial` at line 1 column 67"]
    );
}

/// Issue 35, item 3: ranges (integer and decimal), patterns and formats on a union member,
/// written in its Type (`radius_m: uint32 1..=100000`, `icao: string matching ^[A-Z]{4}$`),
/// checked at the member's path by the interpreter, the generated Rust and the schema's
/// `oneOf` branch, and probed by the corpus.
mod member_rules {
    use super::*;

    const MD: &str = "# Flights v1

## Fields of a `flight`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string | ✔ | The flight. |
| `area` | area | ✔ | Where it flies. |

## Kinds of an `area`

| kind | Fields | Meaning |
|---|---|---|
| `circle` | `radius_m: uint32 1..=100000`, `lat: number -90..=90` | A circle. |
| `airport` | `icao: string matching ^[A-Z]{4}$`, `since: date?` | Near an airport. |
| `polygon` | `lons: number[] -180..=180`, `label: string?` | A polygon. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `area.label` | 8 chars | LABEL_MAX_CHARS |
| `area.label` | at least 2 chars | LABEL_MIN_CHARS |

## Error codes

| Code | When |
|---|---|
| `bad_flight` | Not the shape. |
| `too_long` | Over a char cap. |
| `too_short` | Under a char minimum. |
| `out_of_range` | A number outside its bounds. |
| `bad_pattern` | Off its pattern. |
| `bad_format` | Off its format. |

```json valid
{\"id\": \"f1\", \"area\": {\"kind\": \"circle\", \"radius_m\": 500, \"lat\": 51.5}}
```

```json invalid out_of_range@area.radius_m
{\"id\": \"f1\", \"area\": {\"lat\": 51.5, \"radius_m\": 0, \"kind\": \"circle\"}}
```
";

    const TOML: &str = "[spec]
root = \"flight\"

[errors]
parse = \"bad_flight\"
range = \"out_of_range\"
pattern = \"bad_pattern\"
format = \"bad_format\"
max_chars = \"too_long\"
min_chars = \"too_short\"
";

    fn verdict(area: &str) -> Vec<String> {
        common::verdict(
            "flight",
            MD,
            TOML,
            &format!(r#"{{"id": "f1", "area": {area}}}"#),
        )
    }

    #[test]
    fn the_interpreter_checks_each_member_rule_at_the_members_path() {
        assert_eq!(
            verdict(r#"{"kind": "circle", "radius_m": 100001, "lat": -90.5}"#),
            [
                "out_of_range@area.radius_m: `area.radius_m` is 100001 (max 100000)",
                "out_of_range@area.lat: `area.lat` is -90.5 (min -90)",
            ]
        );
        assert_eq!(
            verdict(r#"{"kind": "airport", "icao": "egll", "since": "2024-02-30"}"#),
            [
                "bad_pattern@area.icao: `area.icao` `egll` does not match `^[A-Z]{4}$`",
                "bad_format@area.since: `area.since` `2024-02-30` is not a valid date",
            ]
        );
        assert_eq!(
            verdict(r#"{"kind": "polygon", "lons": [0, 180.5, -180], "label": "abcdefghi"}"#),
            [
                "out_of_range@area.lons[1]: `area.lons[1]` is 180.5 (max 180)",
                "too_long@area.label: `area.label` is 9 chars (max 8)",
            ]
        );
        assert_eq!(
            verdict(r#"{"kind": "polygon", "lons": [], "label": "a"}"#),
            ["too_short@area.label: `area.label` is 1 chars (min 2)"]
        );
        assert_eq!(
            verdict(r#"{"kind": "airport", "icao": "EGLL", "since": null}"#),
            Vec::<String>::new()
        );
    }

    #[test]
    fn rust_and_schema_state_the_member_rules() {
        let files = common::generated("flight", MD, TOML).unwrap_or_else(|d| panic!("{d}"));
        common::assert_holds(
            &files["rust/flight.rs"],
            &[
                "::specmint_runtime::rules::range(\n                    radius_m,",
                "::specmint_runtime::rules::number_range(\n                    lat,",
                "static PATTERN: ::specmint_runtime::rules::Pattern = ::specmint_runtime::rules::Pattern::new(\n                        \"^[A-Z]{4}$\",",
                "::specmint_runtime::rules::format(\n                    since,\n                    ::specmint_runtime::rules::Format::Date,",
                "for (i, item) in lons.iter().enumerate() {",
                "::specmint_runtime::rules::max_chars(\n                    label,\n                    &path.field(\"label\"),\n                    LABEL_MAX_CHARS,",
            ],
        );
        let schema: Value = serde_json::from_str(&files["schema/flight.schema.json"]).unwrap();
        let branches = &schema["$defs"]["area"]["oneOf"];
        let circle = &branches[0]["properties"];
        assert_eq!(
            (
                &circle["radius_m"]["minimum"],
                &circle["radius_m"]["maximum"]
            ),
            (&json!(1), &json!(100000))
        );
        assert_eq!(circle["lat"]["minimum"], json!(-90));
        assert_eq!(
            branches[1]["properties"]["icao"]["pattern"],
            json!("^[A-Z]{4}$")
        );
        assert_eq!(branches[1]["properties"]["since"]["format"], json!("date"));
        assert_eq!(
            branches[2]["properties"]["lons"]["items"]["maximum"],
            json!(180)
        );
        let label = &branches[2]["properties"]["label"];
        assert_eq!(
            (&label["minLength"], &label["maxLength"]),
            (&json!(2), &json!(8))
        );
    }

    /// Every corpus case, member probes included, has the interpreter's verdict and the
    /// schema's (formats asserted).
    #[test]
    fn the_corpus_probes_member_rules_and_everyone_agrees() {
        let files = common::generated("flight", MD, TOML).unwrap_or_else(|d| panic!("{d}"));
        let corpus: Value = serde_json::from_str(&files["corpus/flight/cases.json"]).unwrap();
        let schema: Value = serde_json::from_str(&files["schema/flight.schema.json"]).unwrap();
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .unwrap();
        let mut ids = Vec::new();
        for c in corpus["cases"].as_array().unwrap() {
            let doc = serde_json::to_string(&c["document"]).unwrap();
            let got: Vec<Value> = common::verdict("flight", MD, TOML, &doc)
                .iter()
                .map(|v| {
                    let (code_path, _) = v.split_once(": ").unwrap();
                    let (code, path) = code_path.split_once('@').unwrap();
                    json!({"code": code, "path": path})
                })
                .collect();
            assert_eq!(Value::Array(got), c["errors"], "{}", c["id"]);
            if c["schema_expressible"] == json!(true) {
                let valid = c["valid"].as_bool().unwrap();
                assert_eq!(validator.is_valid(&c["document"]), valid, "{}", c["id"]);
            }
            ids.push(c["id"].as_str().unwrap().to_owned());
        }
        for id in [
            "range.area.circle.radius_m.max+1",
            "range.area.circle.lat.min-ulp",
            "range.area.polygon.lons.max+1",
            "pattern.area.airport.icao.lower",
            "format.area.airport.since.not_leap",
            "max_chars.area.polygon.label.n+1",
            "min_chars.area.polygon.label.n-1",
        ] {
            assert!(ids.iter().any(|i| i == id), "no case {id}");
        }
    }

    #[test]
    fn a_member_rule_needs_its_errors_code() {
        let toml = TOML.replace("pattern = \"bad_pattern\"\n", "");
        let md = MD.replace("| `bad_pattern` | Off its pattern. |\n", "");
        assert_eq!(
            common::error_lines("flight", &md, &toml),
            ["spec/flight.md:15:15: error: no error code for `matching` types"]
        );
    }
}
