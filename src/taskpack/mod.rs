// The generated types, constants, error enum and validator of spec/taskpack.md, then this
// protocol's hand-written behaviour in the sibling files of this folder.

include!(concat!(env!("OUT_DIR"), "/rust/taskpack.rs"));

/// The JSON Schema (draft 2020-12) emitted from the same spec.
pub const JSON_SCHEMA: &str =
    include_str!(concat!(env!("OUT_DIR"), "/schema/taskpack.schema.json"));

pub mod bag;
pub mod conformance;
pub mod convert;
pub mod flat;
pub mod land;
/// The ordered JSON tree the pack object is read into (the runtime's, shared with generated open objects).
pub use specmint_runtime::json;
pub mod patterns;
pub mod seal;
pub mod unpack;
