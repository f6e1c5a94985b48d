//! specmint's code generator for build scripts: `specmint-codegen`, re-exported whole.
//!
//! It exists as its own crate for one reason: the `specmint` library needs the code generator
//! twice, as the interpreter behind its `interpret` feature (a normal dependency) and in its
//! build script behind `from-spec` (a build dependency), and Cargo lets a package name one crate
//! once only, so one feature would turn both on. Through this crate each feature brings one:
//! a library built with `interpret` alone does not build the generator a second time for its
//! build script (which a release build otherwise does, at the build scripts' opt-level).
//!
//! A crate of your own can use either in its `build.rs`; see `specmint-codegen`'s docs.
#![deny(missing_docs)]

pub use specmint_codegen::*;
