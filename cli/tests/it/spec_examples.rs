//! Every fenced JSON example in every bundled spec gets its stated verdict from the emitted
//! JSON Schema (valid ones accepted, invalid ones refused when the schema can express their
//! rules) and from the CLI. The Rust validator's verdict is checked by the `spec_examples`
//! tests codegen emits into each generated module (`cargo test --lib`), as in any user's crate.

use crate::common;

use specmint::bundled;
use specmint_codegen::model::ExampleKind;
use specmint_codegen::SpecSource;

fn bundled_sources() -> Vec<SpecSource> {
    let root = common::root();
    specmint_codegen::read_spec_dir(&root.join(specmint::SPEC_DIR), specmint::SPEC_DIR).unwrap()
}

#[test]
fn every_spec_example_gets_its_stated_verdict() {
    let sources = bundled_sources();
    assert!(!sources.is_empty());
    let mut checked = 0;
    for source in &sources {
        let spec = specmint_codegen::load(source).unwrap_or_else(|d| panic!("{d}"));
        let bundled = bundled::ALL
            .iter()
            .find(|b| b.module == source.name)
            .unwrap_or_else(|| panic!("spec `{}` is not bundled in src/bundled.rs", source.name));
        let schema: serde_json::Value = serde_json::from_str(bundled.json_schema).unwrap();
        let validator = jsonschema::draft202012::new(&schema).expect("the emitted schema compiles");
        let expressible: Vec<&str> = schema["x-schema-expressible-codes"]
            .as_array()
            .map(|codes| codes.iter().filter_map(|c| c.as_str()).collect())
            .unwrap_or_default();
        for example in &spec.examples {
            let at = format!("{}:{}", source.md_path, example.line);
            let instance: serde_json::Value = serde_json::from_str(&example.text).unwrap();
            if example.kind == ExampleKind::Fragment {
                continue;
            }
            // The CLI gives the same verdict, by exit status and in its JSON output.
            let out = common::specmint(
                &["validate", bundled.cli_name, "-", "--format", "json"],
                example.text.as_bytes(),
            );
            let cli: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let cli_pairs = common::codes_and_paths(&cli);
            match &example.kind {
                ExampleKind::Fragment => unreachable!("skipped above"),
                ExampleKind::Valid => {
                    assert_eq!(out.status.code(), Some(0), "{at}: {cli}");
                    assert!(
                        validator.is_valid(&instance),
                        "{at}: valid example refused by the schema"
                    );
                }
                ExampleKind::Invalid(expected) => {
                    let want: Vec<(String, String)> = expected.clone();
                    assert_eq!(out.status.code(), Some(1), "{at}: {cli}");
                    assert_eq!(cli_pairs, want, "{at}");
                    if expected
                        .iter()
                        .all(|(code, _)| expressible.contains(&code.as_str()))
                    {
                        assert!(
                            !validator.is_valid(&instance),
                            "{at}: invalid example accepted by the schema"
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} examples were checked");
}

#[test]
fn every_emitted_schema_is_valid_draft_2020_12() {
    for bundled in bundled::ALL {
        let schema: serde_json::Value = serde_json::from_str(bundled.json_schema).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        jsonschema::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{}: not a valid 2020-12 schema: {e}", bundled.module));
    }
}
