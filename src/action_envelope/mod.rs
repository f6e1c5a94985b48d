// The generated types, constants, error enum and validator of spec/action_envelope.md, as `specmint
// generate` wrote them to generated/ (regenerated and compared by a test, so they cannot drift
// from the spec), then this protocol's hand-written behaviour in the sibling files of this folder.

include!("../../generated/rust/action_envelope.rs");

/// The JSON Schema (draft 2020-12) emitted from the same spec.
pub const JSON_SCHEMA: &str = include_str!("../../generated/schema/action_envelope.schema.json");

#[cfg(engines)]
pub mod answer;
#[cfg(engines)]
pub mod engine;
#[cfg(engines)]
pub mod manifest;
