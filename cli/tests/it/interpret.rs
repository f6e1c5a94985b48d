//! The interpreter (`specmint_codegen::Validator`, a spec's validator read from its model at
//! run time) against the generated validators of the bundled specs: the same report
//! (codes, paths, pointers, messages, numbers, order) for every case of every corpus, and
//! the same canonical JSON for every valid one.

use crate::common;

use serde_json::Value;
use specmint::bundled::{self, Bundled};
use specmint_codegen::Validator;

/// The interpreter of bundled spec `b`, from `spec/`.
fn interpreter(b: &Bundled) -> Validator {
    let dir = common::root().join(specmint::SPEC_DIR);
    let sources = specmint_codegen::read_spec_dir(&dir, "spec").unwrap();
    let source = sources.iter().find(|s| s.name == b.module).unwrap();
    Validator::new(&specmint_codegen::load(source).unwrap())
}

fn cases(b: &Bundled) -> Vec<Value> {
    let path = common::root()
        .join(specmint::GENERATED_DIR)
        .join("corpus")
        .join(b.module)
        .join("cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    corpus["cases"].as_array().unwrap().clone()
}

/// Both verdicts on `input`, `Err` with a description when they differ.
fn compare(b: &Bundled, interpreter: &Validator, input: &[u8]) -> Result<bool, String> {
    let generated = b.validate(input, None);
    let interpreted = interpreter.validate(input);
    if generated == interpreted {
        return Ok(generated.is_ok());
    }
    Err(format!(
        "generated {generated:#?}\ninterpreted {interpreted:#?}\ninput {}",
        String::from_utf8_lossy(input)
    ))
}

#[test]
fn the_interpreter_reads_documents_as_the_generated_constant_says() {
    for b in bundled::ALL {
        assert_eq!(interpreter(b).document(), *b.document, "{}", b.module);
    }
}

#[test]
fn the_interpreter_and_the_generated_validator_agree_on_every_corpus_case() {
    let mut failures = Vec::new();
    let (mut total, mut valid) = (0, 0);
    for b in bundled::ALL {
        let interpreter = interpreter(b);
        for case in cases(b) {
            let doc = &case["document"];
            // Compact and pretty: serde_json places shape errors by line and column.
            for input in [
                serde_json::to_vec(doc).unwrap(),
                serde_json::to_vec_pretty(doc).unwrap(),
            ] {
                total += 1;
                match compare(b, &interpreter, &input) {
                    Ok(ok) => valid += usize::from(ok),
                    Err(why) => failures.push(format!("{} {}: {why}", b.module, case["id"])),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert!(total > 2000 && valid > 500, "{total} inputs, {valid} valid");
}

#[test]
fn a_validator_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>(_: &T) {}
    let b = bundled::find("task-packet").unwrap();
    let validator = interpreter(b);
    shared(&validator);
    let packet = specmint::task_packet::MINIMAL_PACKET_EXAMPLE.as_bytes();
    let verdicts: Vec<Result<String, specmint::Report>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|_| s.spawn(|| validator.validate(packet)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for verdict in verdicts {
        assert_eq!(verdict, b.validate(packet, None));
    }
}

/// Every document one edit away from `doc`: each member (at any depth) replaced by a value
/// of each JSON type or removed, each object given an unknown member, each array given a
/// wrong-typed item.
fn mutations(doc: &Value) -> Vec<Value> {
    let replacements = [
        Value::Null,
        serde_json::json!(true),
        serde_json::json!(-1),
        serde_json::json!(1.5),
        serde_json::json!(4_294_967_296u64),
        serde_json::json!("x"),
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!([{}]),
    ];
    let mut out = Vec::new();
    let mut pointers = Vec::new();
    collect_pointers(doc, String::new(), &mut pointers);
    for pointer in pointers {
        let target = doc.pointer(&pointer).unwrap();
        for r in &replacements {
            let mut edited = doc.clone();
            *edited.pointer_mut(&pointer).unwrap() = r.clone();
            out.push(edited);
        }
        match target {
            Value::Object(_) => {
                let mut edited = doc.clone();
                edited.pointer_mut(&pointer).unwrap()["zz_unknown"] = serde_json::json!(1);
                out.push(edited);
            }
            Value::Array(_) => {
                let mut edited = doc.clone();
                let list = edited
                    .pointer_mut(&pointer)
                    .unwrap()
                    .as_array_mut()
                    .unwrap();
                list.push(serde_json::json!(7));
                out.push(edited);
            }
            _ => {}
        }
        if let Some((parent, key)) = pointer.rsplit_once('/') {
            let mut edited = doc.clone();
            match edited.pointer_mut(parent).unwrap() {
                Value::Object(members) => {
                    members.remove(key);
                }
                Value::Array(items) => {
                    items.remove(key.parse::<usize>().unwrap());
                }
                _ => unreachable!(),
            }
            out.push(edited);
        }
    }
    out
}

fn collect_pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (k, v) in members {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                collect_pointers(v, p, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                collect_pointers(v, p, out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_interpreter_and_the_generated_validator_agree_one_edit_away_from_every_valid_case() {
    let mut failures = Vec::new();
    let mut total = 0;
    for b in bundled::ALL {
        let interpreter = interpreter(b);
        for case in cases(b).iter().filter(|c| c["valid"] == true) {
            for edited in mutations(&case["document"]) {
                total += 1;
                let input = serde_json::to_vec(&edited).unwrap();
                if let Err(why) = compare(b, &interpreter, &input) {
                    failures.push(format!("{} {}: {why}", b.module, case["id"]));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {total} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    assert!(total > 10_000, "{total} edited documents");
}
