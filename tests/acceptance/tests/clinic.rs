//! Clinic Booking v1 (issue 46): a spec in a domain of its own that uses every form of a rule
//! under a condition. Its examples (frozen verdicts, each `(code, path)` in order) run as the
//! generated `spec_examples` tests of the library; here its corpus is held to the generated
//! validator and to the interpreter (`specmint validate --spec`), case by case.

use serde_json::Value;
use webhook_acceptance::clinic_booking::Booking;

const CORPUS: &str = include_str!(concat!(env!("OUT_DIR"), "/corpus/clinic_booking/cases.json"));

fn pairs(errors: &[(String, String)]) -> Vec<(String, String)> {
    let mut v = errors.to_vec();
    v.sort();
    v
}

#[test]
fn the_generated_validator_and_the_interpreter_agree_with_every_corpus_case() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("spec");
    let sources = specmint_codegen::read_spec_dir(&dir, "spec").unwrap();
    let source = sources.iter().find(|s| s.name == "clinic_booking").unwrap();
    let interpreter = specmint_codegen::Validator::new(&specmint_codegen::load(source).unwrap());
    let corpus: Value = serde_json::from_str(CORPUS).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut families = std::collections::BTreeSet::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        families.insert(id.split('.').next().unwrap().to_owned());
        let want: Vec<(String, String)> = pairs(
            &case["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e["code"].as_str().unwrap().into(), e["path"].as_str().unwrap().into()))
                .collect::<Vec<_>>(),
        );
        let input = serde_json::to_vec(&case["document"]).unwrap();
        let generated = Booking::from_json_slice(&input).map(|b| b.to_canonical_json());
        let got = match &generated {
            Ok(_) => Vec::new(),
            Err(report) => pairs(
                &report
                    .iter()
                    .map(|v| (v.code.to_string(), v.path.clone()))
                    .collect::<Vec<_>>(),
            ),
        };
        if got != want {
            failures.push(format!("{id}: validator {got:?}, corpus {want:?}"));
        }
        let interpreted = interpreter.validate(&input);
        if generated != interpreted {
            failures.push(format!("{id}: generated {generated:?}, interpreted {interpreted:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Both sides of every new form are probed.
    for family in ["required_if", "any_of", "one_of", "value_if", "unique", "enum", "example"] {
        assert!(families.contains(family), "{family}: {families:?}");
    }
    assert!(cases.len() > 200, "{} cases", cases.len());
}
