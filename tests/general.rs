//! The spec format and codegen are general: no bundled spec's name appears in the code
//! generator or the derive (outside their tests), so every rule a spec needs is a rule of the
//! format, not a special case.

mod common;

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_spec_name_in_codegen_or_macros() {
    let names = [
        "task_packet",
        "action_envelope",
        "task_envelope",
        "taskpack",
    ];
    let mut files = Vec::new();
    for dir in ["codegen/src", "macros/src"] {
        rust_files(&common::root().join(dir), &mut files);
    }
    assert!(files.len() > 5);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap().to_lowercase();
        for name in names {
            assert!(!text.contains(name), "{} mentions `{name}`", file.display());
        }
    }
}
