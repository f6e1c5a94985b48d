//! No library: this package holds the trybuild cases of `tests/ui.rs` (see Cargo.toml).
