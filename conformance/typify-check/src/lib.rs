//! Conformance: the Rust types typify generates from every `generated/schema/*.schema.json`
//! (see `build.rs`), and [`load`], which deserializes a document into a spec's root type.

include!(concat!(env!("OUT_DIR"), "/specs.rs"));
