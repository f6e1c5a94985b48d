//! With the `from-spec` feature (the `specmint` program turns it on, so every build inside this
//! workspace has it), generates the four bundled specs' modules and schemas from `spec/` into
//! `OUT_DIR`, and the library includes those: an edit to a spec's tables or sidecar reaches the
//! types, the schemas and the validators with a rebuild alone. The committed snapshot in
//! `generated/` is then what `specmint generate --check` and the drift test hold the specs to.
//!
//! Without it (a crate that depends on the library) nothing is generated: the library includes
//! the snapshot, and the code generator is not built.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    #[cfg(feature = "from-spec")]
    from_spec::generate();
}

#[cfg(feature = "from-spec")]
mod from_spec {
    use std::path::PathBuf;

    use specmint_build as codegen;

    pub fn generate() {
        let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
        let out =
            PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("generated");
        let spec = root.join("spec");
        // A directory: cargo reruns the script when any file under it changes.
        println!("cargo::rerun-if-changed={}", spec.display());
        let sources = codegen::read_spec_dir(&spec, "spec")
            .unwrap_or_else(|e| panic!("cannot read the specs in `{}`: {e}", spec.display()));
        // The same options and spec directory as `specmint generate`, so the files are the
        // snapshot's bytes whenever the snapshot is up to date.
        let options = codegen::Options {
            spec_dir_in_files: Some("spec".to_owned()),
            ..codegen::Options::for_specmint_library()
        };
        let files = codegen::generate(&sources, &options)
            .unwrap_or_else(|diagnostics| panic!("the bundled specs do not load:\n{diagnostics}"));
        codegen::write_if_changed(&out, &files)
            .unwrap_or_else(|e| panic!("cannot write `{}`: {e}", out.display()));
    }
}
