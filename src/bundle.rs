// Where the bundled specs and their snapshot live (the library's modules include the snapshot).

/// Where the bundled specs live, relative to the package root.
pub const SPEC_DIR: &str = "spec";
/// Where `specmint generate` writes the committed snapshot, relative to the package root.
pub const GENERATED_DIR: &str = "generated";
