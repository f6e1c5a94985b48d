//! The program's and the library's integration tests, one binary: a module per concern (each was a test
//! binary of its own until issue 20; one binary links rusqlite, zip, rmcp and tokio once, not
//! 30 times). Run one concern with `cargo test --test it <module>::`, e.g.
//! `cargo test --test it -- envelope_engine:: task_lifecycle::` (several filters go after `--`).
//!
//! They live in the program's package (`cli/`) because most run the `specmint` binary; the
//! library's `tests/alloc.rs` stays a binary of its own (it installs a counting global
//! allocator), and binding's trybuild cases are the package `tests/bind-ui/` (trybuild builds
//! the library again for them, with that package's one feature).

mod common;

mod a2a_door;
mod acceptance;
mod api;
mod bulk;
mod canonical_growth;
mod cli_output;
mod cli_own_spec;
mod cli_reference;
mod corpus;
mod dependency;
mod diff;
mod differential;
mod docs_examples;
mod docs_links;
mod downstream;
mod drift;
mod envelope_engine;
mod general;
mod generate_disk;
mod hand_written;
mod handoff;
mod hostile;
mod hygiene;
mod interpret;
mod locales;
mod lsp;
mod mcp_lines;
mod other_specs;
mod passport_store;
mod shape_errors;
mod spec_examples;
mod store_address;
mod store_server;
mod task_lifecycle;
mod task_packet;
mod taskpack;
mod taskpack_a2a;
mod taskpack_hostile;
mod taskpack_land;
mod taskpack_pack;
mod taskpack_secrets;
