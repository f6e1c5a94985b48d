//! specmint-runtime's integration tests, one binary: a module per concern (`no_alloc.rs`,
//! which installs a counting global allocator, stays a binary of its own).

mod decimal;
mod document;
mod extract;
mod open_members;
mod rules;
mod shape;
mod strict;
