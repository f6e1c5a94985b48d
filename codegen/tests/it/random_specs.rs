//! Property: the conformance corpus is true for every spec, not only the bundled ones.
//!
//! The specs come from the seeded generator of `random_spec.rs` (what they use is listed there).
//! The test counts the specs using each feature and fails when one is reached by fewer than
//! three (it prints the counts with the number of specs and cases). For every case of
//! every spec's generated corpus:
//! - the verdict and the `(code, path)` list equal what the generator's own reading of the
//!   generated spec says ([`RandomSpec::violations`]) (an oracle written from the spec's rules, not from the model), and
//! - on a schema-expressible case, the emitted JSON Schema (Rust `jsonschema`, formats
//!   asserted as Python jsonschema's format checker and ajv-formats assert them) agrees;
//! - the interpreter ([`Validator`], the spec's validator read from its model at run time)
//!   agrees: the same verdict and the same `(code, path)` list.
//!
//! With `SPECMINT_RANDOM_SPECS_DIR=DIR` the schemas and corpora are also written under
//! `DIR/schema/` and `DIR/corpus/` (the layout of `generated/`), which `./test.sh` hands to
//! Python jsonschema and ajv (`tests/peers/conformance/check_corpus.* --generated DIR`), and the
//! specs under `DIR/spec/`, which it hands to the bindings (`validate --spec DIR/spec`).

use std::collections::BTreeMap;

use serde_json::Value;
use specmint_codegen::{generate, load, Options, SpecSource, Validator};

use crate::random_spec::*;

/// How many specs; the seed is fixed so a failure replays.
const SPECS: u64 = 200;

#[test]
fn every_corpus_case_of_random_specs_agrees_with_the_spec() {
    let out_dir = std::env::var_os("SPECMINT_RANDOM_SPECS_DIR").map(std::path::PathBuf::from);
    let mut rng = Rng(0x5eed_0017);
    let (mut cases, mut left_out) = (0usize, 0usize);
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    let mut features: BTreeMap<String, usize> = BTreeMap::new();
    for k in 0..SPECS {
        let mut spec = random_spec(&mut rng);
        spec.extend(&mut Rng(0xc0de_0000 + k));
        let example = spec.example(&mut rng);
        if rng.chance(40) {
            spec.bytes = Some(spec.bytes_of(&example) + rng.below(40));
        } else if spec.pad_past_first {
            spec.bytes = Some(spec.bytes_of(&example) + Rng(0xb17e_0000 + k).below(40));
        }
        // Whether the corpus must have every byte-cap case: a root field can carry them.
        let padded = spec.bytes.is_some_and(|n| spec.paddable(&example, n));
        let name = format!("rnd_{k:03}");
        let mut spec_features = spec.features();
        if padded && spec.pad_past_first {
            spec_features.insert("byte cap padded past the first root text".into());
        }
        for feature in spec_features {
            *features.entry(feature).or_default() += 1;
        }
        let source = SpecSource {
            name: name.clone(),
            md_path: format!("spec/{name}.md"),
            md: spec.markdown(&example),
            toml_path: format!("spec/{name}.toml"),
            toml: spec.toml(),
            locales: Vec::new(),
        };
        let model = load(&source).unwrap_or_else(|d| panic!("{d}\n{}\n{}", source.md, source.toml));
        assert_eq!(model.name, name);
        let interpreter = Validator::new(&model);
        let files = generate(std::slice::from_ref(&source), &Options::default())
            .unwrap_or_else(|d| panic!("{d}"));
        let corpus_text = &files[&format!("corpus/{name}/cases.json")];
        let schema_text = &files[&format!("schema/{name}.schema.json")];
        let corpus: Value = serde_json::from_str(corpus_text).unwrap();
        let schema: Value = serde_json::from_str(schema_text).unwrap();
        // Formats asserted, as Python jsonschema's format checker and ajv-formats do.
        let validator = jsonschema::draft202012::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("schema compiles");
        if let Some(dir) = &out_dir {
            for (rel, text) in [
                (format!("corpus/{name}/cases.json"), corpus_text),
                (format!("schema/{name}.schema.json"), schema_text),
                (source.md_path.clone(), &source.md),
                (source.toml_path.clone(), &source.toml),
            ] {
                let p = dir.join(rel);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
        }
        left_out += corpus["notes"].as_array().unwrap().len();
        if padded {
            for label in ["n-1", "n", "n+1"] {
                let id = format!("max_bytes.ascii.{label}");
                assert!(
                    corpus["cases"].as_array().unwrap().iter().any(|c| c["id"] == id),
                    "{name}: no {id} although a root field can carry the padding; notes {:#}\n{}\n{}\n{example}",
                    corpus["notes"],
                    source.md,
                    source.toml
                );
            }
        }
        for case in corpus["cases"].as_array().unwrap() {
            cases += 1;
            let id = case["id"].as_str().unwrap();
            *rules
                .entry(id.split('.').next().unwrap().to_owned())
                .or_default() += 1;
            let doc = &case["document"];
            let valid = case["valid"].as_bool().unwrap();
            let errors: Vec<(String, String)> = {
                let mut e: Vec<(String, String)> = case["errors"]
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
                e.sort();
                e
            };
            let why = || {
                format!(
                    "{name} case {id}: {}\n{}\n{}\n{doc:#}",
                    case["description"], source.md, source.toml
                )
            };
            match spec.violations(doc) {
                None => assert!(
                    !valid && errors.iter().all(|(c, _)| c == "bad_doc"),
                    "a shape problem, the corpus says {errors:?}: {}",
                    why()
                ),
                Some(mine) => assert_eq!(errors, mine, "{}", why()),
            }
            let interpreted = match interpreter.validate(&serde_json::to_vec(doc).unwrap()) {
                Ok(_) => Vec::new(),
                Err(report) => {
                    let mut v: Vec<(String, String)> = report
                        .iter()
                        .map(|v| (v.code.to_string(), v.path.clone()))
                        .collect();
                    v.sort();
                    v
                }
            };
            assert_eq!(interpreted, errors, "interpreter: {}", why());
            if case["schema_expressible"].as_bool().unwrap() {
                assert_eq!(validator.is_valid(doc), valid, "schema: {}", why());
            }
        }
    }
    assert_reached(&rules, &features);
    eprintln!(
        "{SPECS} random specs, {cases} corpus cases, {left_out} notes; by family {rules:?}; \
         specs by feature {features:?}"
    );
}

/// The generator reaches every corpus family it means to (`rules`: cases by family), and
/// every spec-format feature it means to in several specs each (`features`: specs by
/// feature).
fn assert_reached(rules: &BTreeMap<String, usize>, features: &BTreeMap<String, usize>) {
    // The generator reaches every family it means to.
    for family in [
        "max_chars",
        "max_items",
        "pattern",
        "non_blank",
        "unique",
        "enum",
        "max_bytes",
        "range",
        "min_chars",
        "min_items",
        "format",
        "required_if",
    ] {
        assert!(
            rules.get(family).is_some_and(|&n| n > 50),
            "{family}: {rules:?}"
        );
    }
    // ... and every spec-format feature it means to, in several specs each.
    let mut wanted = vec![
        "format",
        "format?",
        "format[]",
        "states",
        "states?",
        "states[]",
        "states[] unique",
        "states (default)",
        "enum[]",
        "enum[] unique",
        "int64 range",
        "uint64 range",
        "range bound beyond 2^53",
        "64-bit range open above",
        "at least N chars",
        "at least N items",
        "per-group cap",
        "per-group cap sharing the item cap's code",
        "coded requirement on non-blank text",
        "coded requirement on a non-blank list",
        "coded requirement on patterned text",
        "byte cap padded past the first root text",
        "required_if on a set of values",
        "required_if unless",
        "compound unique key",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect::<Vec<_>>();
    wanted.extend(FORMATS.iter().map(|f| format!("format {f}")));
    for kind in ["bool", "text", "enum"] {
        wanted.push(format!("required_if on {kind}"));
    }
    wanted.extend(["bool", "text", "enum"].map(|k| format!("required_if on {k} with a default")));
    for feature in &wanted {
        assert!(
            features.get(feature).is_some_and(|&n| n >= 3),
            "{feature}: {features:?}"
        );
    }
}
