//! The interpreter (`specmint_codegen::Validator`, read from a spec's model at run time)
//! against the generated validator, on every case of each bundled spec's corpus, in one
//! process: bytes in, verdict out (the canonical JSON or the report), as `specmint validate`
//! does. Rounds alternate between the two so drift in the machine's speed hits both; the
//! ratio of the medians is printed.
//!
//! `cargo bench --bench interpret` measures; without `--bench` (as `cargo test
//! --benches` runs it) one short round checks that it runs.

use std::time::{Duration, Instant};

use serde_json::Value;
use specmint::bundled::{self, Bundled};
use specmint_codegen::Validator;

fn interpreter(b: &Bundled) -> Validator {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(specmint::SPEC_DIR);
    let sources = specmint_codegen::read_spec_dir(&dir, "spec").expect("spec/ reads");
    let source = sources
        .iter()
        .find(|s| s.name == b.module)
        .expect("bundled spec");
    Validator::new(&specmint_codegen::load(source).expect("bundled spec checks"))
}

/// Every corpus case of `b` as compact JSON bytes, split into (valid, invalid).
fn inputs(b: &Bundled) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(specmint::GENERATED_DIR)
        .join("corpus")
        .join(b.module)
        .join("cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut split = (Vec::new(), Vec::new());
    for case in corpus["cases"].as_array().unwrap() {
        let bytes = serde_json::to_vec(&case["document"]).unwrap();
        if case["valid"].as_bool().unwrap() {
            split.0.push(bytes);
        } else {
            split.1.push(bytes);
        }
    }
    split
}

/// Time of `repeat` passes of `check` over `inputs`.
fn time(inputs: &[Vec<u8>], repeat: usize, check: &dyn Fn(&[u8]) -> bool) -> Duration {
    let start = Instant::now();
    for _ in 0..repeat {
        for input in inputs {
            std::hint::black_box(check(std::hint::black_box(input)));
        }
    }
    start.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let measuring = std::env::args().any(|a| a == "--bench");
    let (rounds, repeat) = if measuring { (15, 20) } else { (1, 1) };
    println!("spec | cases | generated µs/doc | interpreter µs/doc | interpreter / generated");
    for b in bundled::ALL {
        let validator = interpreter(b);
        let (valid, invalid) = inputs(b);
        for (label, set) in [("valid", &valid), ("invalid", &invalid)] {
            let generated = |input: &[u8]| b.validate(input, None).is_ok();
            let interpreted = |input: &[u8]| validator.validate(input).is_ok();
            for input in set.iter() {
                assert_eq!(generated(input), interpreted(input), "{}", b.module);
            }
            let (mut g, mut i) = (Vec::new(), Vec::new());
            for _ in 0..rounds {
                g.push(time(set, repeat, &generated));
                i.push(time(set, repeat, &interpreted));
            }
            let per_doc = |d: Duration| d.as_secs_f64() * 1e6 / (set.len() * repeat) as f64;
            let (g, i) = (median(g), median(i));
            println!(
                "{} ({label}) | {} | {:.2} | {:.2} | {:.2}",
                b.module,
                set.len(),
                per_doc(g),
                per_doc(i),
                i.as_secs_f64() / g.as_secs_f64()
            );
        }
    }
}
