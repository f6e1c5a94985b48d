//! Judging a pack: the conformance judge of TaskPack §6 ([`conformance`]) and what a pack must
//! never carry ([`patterns`], §4.1), which packing refuses with too.

pub mod conformance;
pub mod patterns;
