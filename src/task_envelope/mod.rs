// The generated types, constants, error enum and validator of spec/task_envelope.md (as `specmint generate`
// wrote them to generated/, or as the build script writes them under `from-spec`: see
// `generated!` in lib.rs), then this protocol's hand-written behaviour in the sibling files of
// this folder.

generated!("task_envelope");

#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub mod answer;
pub mod binding;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub mod lifecycle;
