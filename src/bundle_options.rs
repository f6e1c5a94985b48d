// The options `specmint generate` emits the bundled specs with (`interpret`), and the test that
// regenerates the snapshot the library includes.

/// Codegen options for the bundled specs: generated code reaches the runtime and the
/// derive through this crate's re-exports, so users depend on `specmint` alone (the same
/// options the build script generates with under `from-spec`).
pub fn bundle_options() -> specmint_codegen::Options {
    specmint_codegen::Options::for_specmint_library()
}
