//! A pack arriving: the decisions of landing a handoff and merging a receipt, as pure functions
//! over the pack object ([`land`]), and their arrival into the local passport store
//! ([`arrival`]).

pub mod arrival;
pub mod land;
