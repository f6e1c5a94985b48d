// The options `specmint generate` emits the bundled specs with (`interpret`), and the test that
// regenerates the snapshot the library includes.

/// Codegen options for the bundled specs: generated code reaches the runtime and the
/// derive through this crate's re-exports, so users depend on `specmint` alone.
pub fn bundle_options() -> specmint_codegen::Options {
    specmint_codegen::Options {
        runtime_path: "::specmint::runtime".to_owned(),
        derive_path: "::specmint::Validate".to_owned(),
        // The committed snapshot under generated/ is rewritten by the CLI.
        regenerate_with: Some("specmint generate".to_owned()),
        ..specmint_codegen::Options::default()
    }
}
