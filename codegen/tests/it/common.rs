//! Helpers of the spec-format tests that each check one small inline spec.
#![allow(dead_code)]

use std::collections::BTreeMap;

use specmint_codegen::{generate, load, Options, SpecSource};

/// `spec/<name>.md` and `spec/<name>.toml` holding `md` and `toml`.
pub fn source(name: &str, md: &str, toml: &str) -> SpecSource {
    SpecSource {
        name: name.into(),
        md_path: format!("spec/{name}.md"),
        md: md.into(),
        toml_path: format!("spec/{name}.toml"),
        toml: toml.into(),
    }
}

/// The generated files, or the diagnostics as text.
pub fn generated(name: &str, md: &str, toml: &str) -> Result<BTreeMap<String, String>, String> {
    generate(&[source(name, md, toml)], &Options::default()).map_err(|d| d.to_string())
}

/// Every violation the interpreter finds in `doc` under the spec, as `code@path: message`;
/// empty when the document is valid.
pub fn verdict(name: &str, md: &str, toml: &str, doc: &str) -> Vec<String> {
    let spec = load(&source(name, md, toml)).unwrap_or_else(|d| panic!("{d}"));
    match specmint_codegen::Validator::new(&spec).validate(doc.as_bytes()) {
        Ok(_) => Vec::new(),
        Err(report) => report
            .iter()
            .map(|v| format!("{}@{}: {}", v.code, v.path, v.message))
            .collect(),
    }
}

/// The first line of every diagnostic (hints left out); the spec must have a mistake.
pub fn error_lines(name: &str, md: &str, toml: &str) -> Vec<String> {
    let d = load(&source(name, md, toml)).expect_err("the spec has a mistake");
    d.to_string()
        .lines()
        .filter(|l| !l.starts_with("  hint: "))
        .map(str::to_owned)
        .collect()
}

/// Panics, showing `text`, unless it holds every one of `expected`.
pub fn assert_holds(text: &str, expected: &[&str]) {
    for e in expected {
        assert!(text.contains(e), "{e}\nnot in\n{text}");
    }
}
