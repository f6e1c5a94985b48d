//! typify's types (built from every `generated/schema/*.schema.json`) deserialize every valid
//! case of every spec's corpus, which includes the spec's valid examples.

use std::path::PathBuf;

#[test]
fn typify_types_load_every_valid_case() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for a in typify_check::ADAPTATIONS {
        eprintln!("typify adaptation: {a}");
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("generated/corpus"))
        .expect("generated/corpus exists")
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    let mut failures = Vec::new();
    for dir in dirs {
        let corpus: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("cases.json")).unwrap())
                .unwrap();
        let spec = corpus["spec"].as_str().unwrap();
        if !typify_check::SPECS.contains(&spec) {
            // Recorded in ADAPTATIONS (printed above) with typify's reason; not a pass.
            eprintln!(
                "typify {spec}: NOT CHECKED, typify could not generate types (see adaptations)"
            );
            continue;
        }
        let (mut valid, mut loaded, mut refused_invalid, mut expressible_invalid) = (0, 0, 0, 0);
        for case in corpus["cases"].as_array().unwrap() {
            let text = serde_json::to_string(&case["document"]).unwrap();
            let result = typify_check::load(spec, &text).expect("a spec typify knows");
            if case["valid"] == true {
                valid += 1;
                match result {
                    Ok(()) => loaded += 1,
                    Err(e) => failures.push(format!("{spec} {}: {e}", case["id"])),
                }
            } else if case["schema_expressible"] == true {
                expressible_invalid += 1;
                refused_invalid += usize::from(result.is_err());
            }
        }
        eprintln!(
            "typify {spec}: {valid} valid cases, {loaded} loaded; (informational) {refused_invalid} of {expressible_invalid} expressible invalid cases refused"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        !typify_check::SPECS.is_empty(),
        "typify handled no spec: {:?}",
        typify_check::ADAPTATIONS
    );
}
