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
        locales: Vec::new(),
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

/// The first line of every diagnostic, none when the spec loads.
pub fn error_lines_or_none(name: &str, md: &str, toml: &str) -> Vec<String> {
    match load(&source(name, md, toml)) {
        Ok(_) => Vec::new(),
        Err(d) => d
            .to_string()
            .lines()
            .filter(|l| !l.starts_with("  hint: "))
            .map(str::to_owned)
            .collect(),
    }
}

/// Panics, showing `text`, unless it holds every one of `expected`.
pub fn assert_holds(text: &str, expected: &[&str]) {
    for e in expected {
        assert!(text.contains(e), "{e}\nnot in\n{text}");
    }
}

/// A fresh crate `package` under the test's scratch directory `name`, depending on
/// `specmint-runtime` alone, with the workspace's lock file (the same versions, offline) and an
/// empty `src/`: the crate the compile tests write generated modules into and build.
pub fn runtime_crate(name: &str, package: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dependencies]\nspecmint-runtime = {{ path = {:?} }}\n",
            root.join("runtime")
        ),
    )
    .unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    dir
}

/// `cargo` started in `dir`, building into the scratch target beside this test binary's own
/// (so a scratch crate's dependencies are built once and reused across runs), light on disk as
/// the CLI tests' `scratch_cargo` is: line tables only as debug info, as the workspace's own
/// profile has it (a scratch crate has no profile of ours, and full debug info made one test
/// run's scratch builds many gigabytes) unless the run sets `CARGO_PROFILE_DEV_DEBUG` itself,
/// and no incremental caches for crates built once.
pub fn scratch_cargo(dir: &std::path::Path) -> std::process::Command {
    // This test binary is target/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().unwrap();
    let mut cargo = std::process::Command::new(env!("CARGO"));
    cargo
        .current_dir(dir)
        .env(
            "CARGO_TARGET_DIR",
            exe.ancestors().nth(3).unwrap().join("scratch"),
        )
        .env("CARGO_INCREMENTAL", "0");
    if std::env::var_os("CARGO_PROFILE_DEV_DEBUG").is_none() {
        cargo.env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only");
    }
    cargo
}
