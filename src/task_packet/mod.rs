// The generated types, constants, error enum and validator of spec/task_packet.md, as `specmint
// generate` wrote them to generated/ (regenerated and compared by a test, so they cannot drift
// from the spec), then this protocol's hand-written behaviour in the sibling files of this folder.

include!("../../generated/rust/task_packet.rs");

/// The JSON Schema (draft 2020-12) emitted from the same spec.
pub const JSON_SCHEMA: &str = include_str!("../../generated/schema/task_packet.schema.json");

#[cfg(feature = "handoff")]
pub mod answer;
#[cfg(feature = "handoff")]
pub mod audit;
#[cfg(feature = "handoff")]
pub mod compose;
#[cfg(feature = "handoff")]
pub mod handoff;
#[cfg(feature = "handoff")]
pub mod leg;
