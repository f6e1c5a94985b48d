//! The options the `specmint` library's bundled specs are generated with, in one place for
//! both writers of that code: `specmint generate` (the committed snapshot under `generated/`)
//! and the library's build script (its `from-spec` feature).

use super::Options;

impl Options {
    /// The bundled specs' options: generated code reaches the runtime and the derive through
    /// the `specmint` crate's re-exports (`::specmint::runtime`, `::specmint::Validate`), so
    /// its users depend on `specmint` alone; the files name `specmint generate` as the command
    /// that rewrites them.
    pub fn for_specmint_library() -> Options {
        Options {
            runtime_path: "::specmint::runtime".to_owned(),
            derive_path: "::specmint::Validate".to_owned(),
            regenerate_with: Some("specmint generate".to_owned()),
            ..Options::default()
        }
    }
}
