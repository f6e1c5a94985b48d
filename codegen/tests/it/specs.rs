//! Every bundled spec (`spec/*.md`): loads cleanly, generates Rust that parses, a schema that
//! is valid 2020-12 and agrees with the spec's examples as far as a schema can say.

use std::path::PathBuf;

use serde_json::Value;
use specmint_codegen::model::ExampleKind;
use specmint_codegen::{generate, load, read_spec_dir, Options};

fn spec_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec")
}

/// The value at a spec path with indices (`attachments[0].sha256`), if present.
fn at<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    let mut cur = doc;
    if path.is_empty() {
        return Some(cur);
    }
    for seg in path.split('.') {
        let (name, rest) = seg.split_once('[').unwrap_or((seg, ""));
        cur = cur.get(name)?;
        for idx in rest.split('[').filter(|s| !s.is_empty()) {
            cur = cur.get(idx.trim_end_matches(']').parse::<usize>().ok()?)?;
        }
    }
    Some(cur)
}

#[test]
fn every_spec_loads_generates_and_its_schema_agrees_with_its_examples() {
    let sources = read_spec_dir(&spec_dir(), "spec").expect("read spec/");
    assert!(sources.len() >= 4, "the bundled specs");
    let files = generate(&sources, &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    for source in &sources {
        let spec = load(source).unwrap_or_else(|d| panic!("{d}"));
        let rust = &files[&format!("rust/{}.rs", spec.name)];
        syn::parse_file(rust).unwrap_or_else(|e| panic!("{}: generated Rust: {e}", spec.name));
        let schema: Value =
            serde_json::from_str(&files[&format!("schema/{}.schema.json", spec.name)]).unwrap();
        jsonschema::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("{}: meta-schema: {e}", spec.name));
        let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
        let expressible: Vec<&str> = schema["x-schema-expressible-codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        for m in &spec.machines {
            let mmd = &files[&format!("diagrams/{}.{}.mmd", spec.name, m.name)];
            assert!(mmd.contains("stateDiagram-v2"), "{mmd}");
            assert_eq!(
                schema["$defs"][&m.name]["x-transitions"]
                    .as_array()
                    .unwrap()
                    .len(),
                m.transitions.len()
            );
        }
        for ex in &spec.examples {
            let Ok(instance) = serde_json::from_str::<Value>(&ex.text) else {
                continue;
            };
            match &ex.kind {
                ExampleKind::Valid => {
                    let errors: Vec<String> = validator
                        .iter_errors(&instance)
                        .map(|e| format!("{e} at {}", e.instance_path()))
                        .collect();
                    assert!(
                        errors.is_empty(),
                        "{}: valid example at line {} fails the schema: {errors:?}",
                        spec.name,
                        ex.line
                    );
                }
                ExampleKind::Invalid(expect) => {
                    // JSON Schema counts 7.0 as an integer: a float where an integer is
                    // expected is refused by the parser only.
                    let integral_float = expect.iter().any(|(_, p)| {
                        at(&instance, p).is_some_and(|v| {
                            v.is_f64() && v.as_f64().is_some_and(|f| f.fract() == 0.0)
                        })
                    });
                    if expect
                        .iter()
                        .all(|(c, _)| expressible.contains(&c.as_str()))
                        && !integral_float
                    {
                        assert!(
                            !validator.is_valid(&instance),
                            "{}: invalid example at line {} passes the schema",
                            spec.name,
                            ex.line
                        );
                    }
                }
                ExampleKind::Fragment => {}
            }
        }
    }
}

#[test]
fn relative_path_pattern_matches_the_runtime_rule() {
    let sources = read_spec_dir(&spec_dir(), "spec").unwrap();
    let files = generate(&sources, &Options::default()).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/action_envelope.schema.json"]).unwrap();
    let p = &schema["$defs"]["record_draft_artifact_payload"]["properties"]["logical_path"];
    assert_eq!(p["x-relative-path"], true);
    let v = jsonschema::draft202012::new(p).unwrap();
    for ok in [
        "a",
        "docs/x.md",
        "a/..b",
        "..a/b",
        "a\\b",
        "a/b/",
        "x..",
        "ab:c",
    ] {
        assert!(v.is_valid(&Value::from(ok)), "{ok:?}");
    }
    for bad in [
        "", "/etc", "\\x", "C:\\x", "c:x", "..", "../a", "a/../b", "a\\..", "a/..", "a:b",
    ] {
        assert!(!v.is_valid(&Value::from(bad)), "{bad:?}");
    }
}
