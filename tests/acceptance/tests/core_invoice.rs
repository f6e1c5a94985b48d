//! Core Invoice v1 (issue 47): a subset of EN 16931 whose arithmetic (`BR-CO-10` … `BR-CO-17`,
//! `BR-S-08`, the team's `INV-04`) is stated in a rules table. Its examples (frozen verdicts)
//! run as the generated `spec_examples` tests of the library; here its corpus is held to the
//! generated validator and to the interpreter (`specmint validate --spec`), case by case, and
//! both sides of every rule are probed.

use serde_json::Value;
use webhook_acceptance::core_invoice::Invoice;

const CORPUS: &str = include_str!(concat!(env!("OUT_DIR"), "/corpus/core_invoice/cases.json"));

fn sorted(errors: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = errors
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["code"].as_str().unwrap().into(), e["path"].as_str().unwrap().into()))
        .collect();
    v.sort();
    v
}

#[test]
fn the_generated_validator_and_the_interpreter_agree_with_every_corpus_case() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let sources = specmint_codegen::read_spec_dir(&dir, "spec").unwrap();
    let source = sources.iter().find(|s| s.name == "core_invoice").unwrap();
    let interpreter = specmint_codegen::Validator::new(&specmint_codegen::load(source).unwrap());
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut probed = std::collections::BTreeMap::<String, (bool, bool)>::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let want = sorted(&case["errors"]);
        let input = match case.get("text").and_then(Value::as_str) {
            Some(text) => text.as_bytes().to_vec(),
            None => serde_json::to_vec(&case["document"]).unwrap(),
        };
        let generated = Invoice::from_json_slice(&input).map(|b| b.to_canonical_json());
        let got = match &generated {
            Ok(_) => Vec::new(),
            Err(report) => {
                let mut v: Vec<(String, String)> =
                    report.iter().map(|v| (v.code.to_string(), v.path.clone())).collect();
                v.sort();
                v
            }
        };
        if got != want {
            failures.push(format!("{id}: validator {got:?}, corpus {want:?}"));
        }
        let interpreted = interpreter.validate(&input);
        if generated != interpreted {
            failures.push(format!("{id}: generated {generated:?}, interpreted {interpreted:?}"));
        }
        if let Some(rest) = id.strip_prefix("rule.") {
            let rule = rest.rsplit_once('.').map_or(rest, |(r, _)| r).to_owned();
            let side = probed.entry(rule).or_default();
            if want.is_empty() {
                side.0 = true;
            } else {
                side.1 = true;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every rule of the rules table is probed on both sides: kept, and broken by one unit.
    assert_eq!(probed.len(), 11, "{probed:?}");
    for (rule, (kept, broken)) in &probed {
        assert!(*kept && *broken, "{rule}: kept {kept}, broken {broken}");
    }
    assert!(cases.len() > 400, "{} cases", cases.len());
}

#[test]
fn a_total_one_cent_off_names_both_sides_and_its_path() {
    let doc = include_str!("../spec/core_invoice.md")
        .split("```json valid\n")
        .nth(1)
        .and_then(|rest| rest.split('\n').next())
        .unwrap()
        .replace("\"line_total\": 40.00", "\"line_total\": 40.01");
    let report = Invoice::from_json_slice(doc.as_bytes()).unwrap_err();
    let v: Vec<(String, String, String)> = report
        .iter()
        .map(|v| (v.code.to_string(), v.path.clone(), v.message.clone()))
        .collect();
    assert_eq!(
        v,
        [
            (
                "BR-CO-10".to_owned(),
                "totals.line_total".to_owned(),
                "`totals.line_total` is 40.01, the sum of `lines[].net_amount` is 40.00 (must be equal)".to_owned()
            ),
            (
                "BR-CO-13".to_owned(),
                "totals.without_vat".to_owned(),
                "`totals.without_vat` is 35.00, `totals.line_total - sum(allowances[].amount) + sum(charges[].amount)` is 35.01 (must be equal)".to_owned()
            ),
        ]
    );
}
