//! The conformance corpus (`generated/corpus/<spec>/cases.json`): its verdicts come from the
//! spec's model; here the Rust validator must agree with every case, and the `jsonschema`
//! crate with every schema-expressible one.

use crate::common;

use std::collections::BTreeMap;

use serde_json::Value;
use specmint::bundled;
use specmint::verdict::DocType;

fn corpora() -> Vec<Value> {
    let dir = common::root().join(specmint::GENERATED_DIR).join("corpus");
    let mut out = Vec::new();
    for b in bundled::ALL {
        let path = dir.join(b.module).join("cases.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run `specmint generate`)", path.display()));
        out.push(serde_json::from_str(&text).unwrap());
    }
    out
}

fn pairs(errors: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = errors
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_rust_validator_and_the_schema_agree_with_every_case() {
    let mut failures = Vec::new();
    let mut counts = BTreeMap::new();
    for corpus in corpora() {
        let spec = corpus["spec"].as_str().unwrap();
        let b = bundled::ALL.iter().find(|b| b.module == spec).unwrap();
        let schema: Value = serde_json::from_str(b.json_schema).unwrap();
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        let cases = corpus["cases"].as_array().unwrap();
        assert!(
            cases.len() > 50,
            "{spec}: a corpus of {} cases",
            cases.len()
        );
        let (mut expressible, mut x_only) = (0, 0);
        for case in cases {
            let id = case["id"].as_str().unwrap();
            let doc = &case["document"];
            let want_valid = case["valid"].as_bool().unwrap();
            let want = pairs(&case["errors"]);
            assert_eq!(want.is_empty(), want_valid, "{spec} {id}");
            let input = serde_json::to_vec(doc).unwrap();
            let got = match b.validate(&input, None) {
                Ok(_) => vec![],
                Err(report) => {
                    let mut v: Vec<(String, String)> = report
                        .iter()
                        .map(|v| (v.code.to_string(), v.path.clone()))
                        .collect();
                    v.sort();
                    v
                }
            };
            if got != want {
                failures.push(format!("{spec} {id}: rust {got:?}, corpus {want:?}"));
            }
            // The verdict alone (the Node binding's `valid`) is the same verdict.
            if DocType::Bundled(b).accepts(&input) != want_valid {
                failures.push(format!("{spec} {id}: accepts says valid={}", !want_valid));
            }
            if case["schema_expressible"].as_bool().unwrap() {
                expressible += 1;
                if validator.is_valid(doc) != want_valid {
                    failures.push(format!(
                        "{spec} {id}: jsonschema says valid={}, corpus {want_valid}",
                        !want_valid
                    ));
                }
            } else {
                x_only += 1;
            }
        }
        counts.insert(spec.to_owned(), (cases.len(), expressible, x_only));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("corpus: {counts:?} (cases, expressible, x-only)");
}

/// `accepts` (the verdict without the report) against `judge_bytes` on what the corpus does
/// not hold: the bytes around a document (a byte order mark, prose, trailing text), bytes that
/// are not UTF-8, and a size over the limit.
#[test]
fn accepts_is_the_verdict_of_judge_bytes_on_every_kind_of_input() {
    let mut checked = 0;
    for corpus in corpora() {
        let spec = corpus["spec"].as_str().unwrap();
        let b = bundled::ALL.iter().find(|b| b.module == spec).unwrap();
        let doc_type = DocType::Bundled(b);
        let valid = corpus["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["valid"] == true)
            .map(|c| serde_json::to_string(&c["document"]).unwrap())
            .unwrap();
        let limit = b.document.max_input_bytes;
        let inputs: Vec<(&str, Vec<u8>)> = vec![
            ("valid", valid.clone().into_bytes()),
            ("empty", Vec::new()),
            (
                "bom",
                [b"\xEF\xBB\xBF".as_slice(), valid.as_bytes()].concat(),
            ),
            (
                "prose",
                format!("Here it is:\n{valid}\nThanks.").into_bytes(),
            ),
            ("trailing", format!("{valid} x").into_bytes()),
            // Braced between JSON whitespace: refused or accepted without the prose retry.
            ("spaced", format!(" \r\n{valid}\t ").into_bytes()),
            (
                "braced prose",
                format!("{{\"note\": 1}} and {valid}").into_bytes(),
            ),
            ("two", format!("{valid}{valid}").into_bytes()),
            ("not utf-8", [valid.as_bytes(), b"\xFF"].concat()),
            ("array", format!("[{valid}]").into_bytes()),
            (
                "oversized",
                format!("{valid}{}", " ".repeat(limit)).into_bytes(),
            ),
        ];
        let mut valid_ones = 0;
        for (what, input) in inputs {
            let judged = doc_type.judge_bytes(&input).is_valid();
            valid_ones += usize::from(judged);
            assert_eq!(doc_type.accepts(&input), judged, "{spec}: {what}");
            checked += 1;
        }
        assert!(valid_ones >= 1, "{spec}: no input was valid");
    }
    assert_eq!(checked, 11 * bundled::ALL.len());
}

#[test]
fn the_corpus_traps_naive_length_counters() {
    for corpus in corpora() {
        let spec = corpus["spec"].as_str().unwrap();
        let cases = corpus["cases"].as_array().unwrap();
        let caps_chars = cases
            .iter()
            .any(|c| c["rule"].as_str().unwrap().starts_with("max_chars:"));
        if !caps_chars {
            continue;
        }
        // Byte and UTF-16 counters refuse valid cases; a grapheme counter accepts invalid ones.
        for (trap, valid) in [("utf16", true), ("bytes", true), ("graphemes", false)] {
            let found = cases.iter().any(|c| {
                c["valid"] == valid
                    && c["traps"]
                        .as_array()
                        .is_some_and(|t| t.iter().any(|x| x == trap))
            });
            assert!(found, "{spec}: no case that a {trap} counter gets wrong");
        }
    }
    // The acceptance case: astral emoji at exactly the cap, twice the cap in UTF-16 units.
    let corpus = corpora()
        .into_iter()
        .find(|c| c["spec"] == "task_packet")
        .unwrap();
    let case = corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "max_chars.constraints[0].text.emoji.n")
        .expect("the UTF-16 trap case");
    let text = case["document"]["constraints"][0]["text"].as_str().unwrap();
    assert_eq!(text.chars().count(), 200);
    assert_eq!(text.encode_utf16().count(), 400);
    assert_eq!(case["valid"], true);
}

#[test]
fn every_spec_has_a_corpus_with_its_examples_and_every_rule_kind_it_uses() {
    for corpus in corpora() {
        let spec = corpus["spec"].as_str().unwrap();
        let b = bundled::ALL.iter().find(|b| b.module == spec).unwrap();
        let schema: Value = serde_json::from_str(b.json_schema).unwrap();
        let cases = corpus["cases"].as_array().unwrap();
        let rules: Vec<&str> = cases.iter().map(|c| c["rule"].as_str().unwrap()).collect();
        // Every cap constant of the spec is exercised.
        let text = serde_json::to_string(&schema).unwrap();
        for kind in ["required", "unknown_key", "type", "example"] {
            assert!(rules.contains(&kind), "{spec}: no `{kind}` case");
        }
        if text.contains("\"maxLength\"") {
            assert!(rules.iter().any(|r| r.starts_with("max_chars:")), "{spec}");
        }
        if text.contains("\"maxItems\"") {
            assert!(rules.iter().any(|r| r.starts_with("max_items:")), "{spec}");
        }
        if text.contains("\"x-max-bytes\"") {
            assert!(rules.iter().any(|r| r.starts_with("max_bytes:")), "{spec}");
        }
        // An x- only case never claims to be expressible; an expressible invalid case whose
        // codes are all in the schema's list is consistent with it.
        let listed: Vec<&str> = schema["x-schema-expressible-codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        for c in cases {
            if c["rule"] == "example" {
                let all_listed = c["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|e| listed.contains(&e["code"].as_str().unwrap()));
                assert_eq!(
                    c["schema_expressible"].as_bool().unwrap(),
                    all_listed,
                    "{spec} {}",
                    c["id"]
                );
            }
        }
    }
}

/// `accepts` reads each document into a value the thread keeps (serde's in-place reading). Every
/// corpus case, three times over in a shuffled order and each followed by a copy cut short (a
/// read that fails part way and leaves the kept value half written), is judged through the one
/// kept value: the corpus's verdict every time, and an accepted value equal to a fresh read's.
#[test]
fn a_verdict_read_in_place_is_the_fresh_reads_whatever_came_before() {
    use specmint::runtime::document::{accepted_document, accepts_then};
    use specmint::runtime::rules::StreamedData;

    fn judge<T>(b: &bundled::Bundled, cases: &[Value], failures: &mut Vec<String>) -> usize
    where
        T: serde::de::DeserializeOwned + specmint::Validate + PartialEq + std::fmt::Debug + 'static,
    {
        let docs: Vec<(String, Vec<u8>, bool)> = cases
            .iter()
            .map(|c| {
                let id = c["id"].as_str().unwrap().to_owned();
                (
                    id,
                    serde_json::to_vec(&c["document"]).unwrap(),
                    c["valid"] == true,
                )
            })
            .collect();
        let mut order: Vec<usize> = (0..docs.len())
            .chain(0..docs.len())
            .chain(0..docs.len())
            .collect();
        let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            let (id, input, valid) = &docs[i];
            let fresh = accepted_document::<T>(input, b.document, StreamedData::new());
            let mut same_value = true;
            let accepted = accepts_then::<T>(input, b.document, |value| {
                same_value = fresh.as_ref() == Some(value);
                true
            });
            if accepted != *valid || !same_value {
                failures.push(format!(
                    "{} {id}: read in place accepted={accepted}, same value={same_value}, corpus valid={valid}",
                    b.module
                ));
            }
            let cut = &input[..input.len() / 2];
            if accepts_then::<T>(cut, b.document, |_| true) {
                failures.push(format!("{} {id}: half of it accepted", b.module));
            }
        }
        order.len()
    }

    let mut failures = Vec::new();
    let mut judged = 0;
    for corpus in corpora() {
        let spec = corpus["spec"].as_str().unwrap();
        let b = bundled::ALL.iter().find(|b| b.module == spec).unwrap();
        let cases = corpus["cases"].as_array().unwrap();
        judged += match spec {
            "action_envelope" => {
                judge::<specmint::action_envelope::ActionEnvelope>(b, cases, &mut failures)
            }
            "task_envelope" => {
                judge::<specmint::task_envelope::TaskEnvelope>(b, cases, &mut failures)
            }
            "task_packet" => judge::<specmint::task_packet::TaskPacket>(b, cases, &mut failures),
            "taskpack" => judge::<specmint::taskpack::FlatTaskPack>(b, cases, &mut failures),
            other => panic!("no root type for {other}"),
        };
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(judged > 3 * 4 * 50, "only {judged} verdicts");
}
