//! specmint: a written spec as the single source of truth for code.
//!
//! This crate bundles the protocol specs in `spec/`, generated at build time from their
//! Markdown tables and TOML sidecars into Rust types, cap constants, error enums,
//! validators and JSON Schemas. Each spec is one module:
//!
//! ```
//! use specmint::task_packet::{TaskPacket, MINIMAL_PACKET_EXAMPLE};
//!
//! let packet = TaskPacket::from_json_str(MINIMAL_PACKET_EXAMPLE).expect("the minimal packet is valid");
//! assert_eq!(packet.packet_id, "pk-1");
//! // Written back in canonical form: the short `output_format` is always written tagged.
//! assert!(packet.to_canonical_json().contains(r#""output_format":{"kind":"markdown"}"#));
//! ```
//!
//! At its default features the crate is the four specs' generated types, their validators and
//! [`verdict`] for the bundled specs: no C, no database, no zip, no code generator. The
//! behaviour is behind features, all off by default; `full` turns them all on:
//!
//! | feature | what it adds |
//! |---|---|
//! | `sqlite` | `database` on an embedded SQLite file, with the Action Envelope engine (`action_envelope::{engine, manifest}`) and the Task Envelope lifecycle (`task_envelope::lifecycle`) |
//! | `postgres` | the same engines on a PostgreSQL server |
//! | `handoff` | TaskPacket's team_handoff: `task_packet::{handoff, compose, leg, audit}` |
//! | `taskpack` | TaskPack's encodings, conformance judge, packing, landing and the passport store |
//! | `messages` | a verdict in the reader's language from a spec's locale files: `verdict::DocType::catalog`, `DocType::judge_bytes_in`, `Verdict::localize` (turned on by `interpret` and `handoff`) |
//! | `interpret` | [`verdict`] for a spec directory read at run time, or a spec given as text (`DocType::load_texts`: the WebAssembly module has no file system), through `specmint-codegen`'s interpreter; and `bundle_options` |
//! | `full` | all of the above |
//! | `from-spec` | the build script generates the bundled specs' modules from `spec/` instead of including the committed snapshot (the program turns it on, so an edited spec reaches it with a rebuild alone) |
//!
//! What a behaviour answers (the CLI's `--format json`, an MCP tool's result, an A2A reply) is a
//! `Serialize` type of its protocol's `answer` module, behind the same feature ([`answer`] lists
//! them), so that the doors cannot drift apart.
//!
//! It also re-exports the runtime ([`runtime`]) and the derive ([`Validate`](macro@Validate)),
//! which work on hand-written structs too.
#![deny(missing_docs)]

extern crate self as specmint;

pub use specmint_runtime as runtime;
pub use specmint_runtime::{Report, Validate, Violation};

/// A bundled spec's generated module (types, constants, error enum, validator) and its
/// `JSON_SCHEMA`: under `from-spec` as the build script generated them from `spec/` into
/// `OUT_DIR` (build.rs), otherwise the committed snapshot under `generated/`, which a test
/// regenerates and compares so that it cannot drift from the spec.
macro_rules! generated {
    ($name:literal) => {
        #[cfg(feature = "from-spec")]
        include!(concat!(env!("OUT_DIR"), "/generated/rust/", $name, ".rs"));
        #[cfg(not(feature = "from-spec"))]
        include!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/generated/rust/",
            $name,
            ".rs"
        ));

        /// The JSON Schema (draft 2020-12) emitted from the same spec.
        #[cfg(feature = "from-spec")]
        pub const JSON_SCHEMA: &str = include_str!(concat!(
            env!("OUT_DIR"),
            "/generated/schema/",
            $name,
            ".schema.json"
        ));
        /// The JSON Schema (draft 2020-12) emitted from the same spec.
        #[cfg(not(feature = "from-spec"))]
        pub const JSON_SCHEMA: &str = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/generated/schema/",
            $name,
            ".schema.json"
        ));
    };
}

pub mod answer;
#[cfg(any(feature = "handoff", feature = "taskpack"))]
mod atomic_file;
mod bundle;
#[cfg(feature = "interpret")]
mod bundle_options;
pub mod bundled;
#[cfg(any(
    feature = "handoff",
    feature = "taskpack",
    feature = "sqlite",
    feature = "postgres"
))]
mod clock;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub mod database;
#[cfg(feature = "handoff")]
mod fsguard;
pub mod notes;
mod refusal;
pub mod verdict;

#[cfg(all(feature = "test-hooks", any(feature = "handoff", feature = "taskpack")))]
#[doc(hidden)]
pub use atomic_file::test_hooks;
pub use bundle::{GENERATED_DIR, SPEC_DIR};
#[cfg(feature = "interpret")]
pub use bundle_options::bundle_options;
pub use refusal::Refusal;

/// Action Envelope v0.1: how a model proposes a state change (`spec/action_envelope.md`).
#[deny(warnings, missing_docs)]
pub mod action_envelope;
/// Task Envelopes: the delegated task contract and its lifecycle (`spec/task_envelope.md`).
#[deny(warnings, missing_docs)]
pub mod task_envelope;
/// TaskPacket v1.0: the role-to-role handoff packet (`spec/task_packet.md`).
#[deny(warnings, missing_docs)]
pub mod task_packet;
/// TaskPack 0.1: the portable handoff container, flat form (`spec/taskpack.md`).
#[deny(warnings, missing_docs)]
pub mod taskpack;

// The Rust examples of README.md and the guide compile as doc tests of this crate (`cargo test
// -p specmint --doc`): one empty module per page with a ```rust fence
// (cli/tests/it/docs_examples.rs checks that none is left out). The other fences' `file=` and
// `status=` words (the shell examples' convention, docs_examples) are no rustdoc attributes.
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../README.md")]
mod readme_examples {}
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../guide/src/own-spec.md")]
mod guide_own_spec_examples {}
#[cfg(doctest)]
#[allow(rustdoc::invalid_codeblock_attributes)]
#[doc = include_str!("../guide/src/bundled.md")]
mod guide_bundled_examples {}

#[cfg(all(test, feature = "interpret"))]
mod tests {
    /// The modules above include the snapshot under generated/; it must be exactly what
    /// `specmint generate` writes from spec/ (the same check as `specmint generate --check`).
    #[test]
    fn the_included_snapshot_is_what_the_specs_generate() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let sources = specmint_codegen::read_spec_dir(&root.join(crate::SPEC_DIR), "spec").unwrap();
        let options = specmint_codegen::Options {
            spec_dir_in_files: Some(crate::SPEC_DIR.to_owned()),
            ..crate::bundle_options()
        };
        let files = specmint_codegen::generate(&sources, &options).unwrap();
        assert!(
            files.contains_key("rust/task_packet.rs"),
            "{:?}",
            files.keys()
        );
        let drifted = specmint_codegen::check_dir(&root.join(crate::GENERATED_DIR), &files);
        assert!(
            drifted.is_empty(),
            "generated/ differs from what spec/ generates: {drifted:?}; run `cargo run -- generate`"
        );
    }
}
