// The generated types, constants, error enum and validator of spec/task_packet.md (as `specmint generate`
// wrote them to generated/, or as the build script writes them under `from-spec`: see
// `generated!` in lib.rs), then this protocol's hand-written behaviour in the sibling files of
// this folder.

generated!("task_packet");

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
