//! specmint-codegen: load a spec (Markdown tables + TOML sidecar), check it, and emit Rust
//! and JSON Schema that cannot drift from it.
//!
//! Phases: **load** ([`pulldown_cmark`] tables, headings and fences with positions; the
//! sidecar walked with [`toml::Spanned`] spans) → **check** (every cross-check, all problems
//! collected) → **model** ([`model::Spec`]) → **emit** (cannot fail). [`generate`] is pure:
//! it returns files and touches no disk; [`Config`] is the `build.rs` adapter.
//!
//! The source follows the phases, one folder each: `loader/` (the Markdown and the sidecar
//! read, [`SpecSource`]), `check/`, `model/` and `emit/` (`rust/`, `schema.rs`,
//! `mermaid.rs` for the diagrams, `corpus/`; [`Options`]); `pipeline.rs` strings them
//! together ([`load`], [`generate`]). Around them: `files/` (the disk: spec directories read,
//! generated files written and compared), `config.rs` and `error.rs` (the `build.rs`
//! adapter), `diff/` (two versions of a spec compared), `ide/` (what the language server
//! reads: [`outline`]), `interpret/` (a model run as a validator, [`Validator`]), and the
//! shared `diag.rs` (diagnostics) and `names.rs`.
//!
//! The front door is [`Config`] (for `build.rs`), [`generate`] and [`load`], and the
//! [`Diagnostics`] they report; the checked model lives in [`model`].
//!
//! In `build.rs` (the one recipe, as in the README: each problem printed once, no panic):
//!
//! ```no_run
//! fn main() {
//!     if let Err(e) = specmint_codegen::Config::new().spec_dir("spec").run() {
//!         eprintln!("{e}"); // spec/<name>.md:LINE:COL: error: ... / hint: ...
//!         std::process::exit(1);
//!     }
//! }
//! ```

#![deny(missing_docs)]
// The build.rs recipe above is a whole file, `fn main` included: users copy it as it is.
#![allow(clippy::needless_doctest_main)]

mod check;
mod config;
mod diag;
pub mod diff;
mod emit;
mod error;
mod files;
mod ide;
mod interpret;
mod loader;
pub mod model;
mod names;
mod pipeline;

pub use config::Config;
pub use diag::{Diagnostic, Diagnostics, Pos};
pub use emit::{emit_schema, emit_schema_in, Options};
pub use error::Error;
pub use files::{
    check_dir, read_regular_file, read_spec_dir, spec_sources, write_atomically, write_if_changed,
    MAX_SPEC_FILE_BYTES,
};
pub use ide::outline;
pub use interpret::Validator;
pub use loader::{LocaleSource, SpecSource};
pub use pipeline::{generate, load};
