//! Writes the generated files for the bundled specs to `$SPECMINT_DUMP` (manual inspection).

#[test]
#[ignore = "manual: SPECMINT_DUMP=/tmp/dir cargo test -p specmint-codegen --test dump -- --ignored"]
fn dump() {
    let Some(out) = std::env::var_os("SPECMINT_DUMP") else {
        return;
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let sources = specmint_codegen::read_spec_dir(&dir, "spec").unwrap();
    let options = specmint_codegen::Options {
        runtime_path: std::env::var("SPECMINT_RUNTIME").unwrap_or("::specmint_runtime".into()),
        derive_path: std::env::var("SPECMINT_DERIVE")
            .unwrap_or("::specmint_runtime::Validate".into()),
        ..specmint_codegen::Options::default()
    };
    let files = specmint_codegen::generate(&sources, &options).unwrap_or_else(|d| panic!("{d}"));
    specmint_codegen::write_if_changed(std::path::Path::new(&out), &files).unwrap();
}
