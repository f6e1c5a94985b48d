//! specmint: a written spec as the single source of truth for code.
//!
//! This crate bundles the protocol specs in `spec/`, generated at build time from their
//! Markdown tables and TOML sidecars into Rust types, cap constants, error enums,
//! validators and JSON Schemas. Each spec is one module:
//!
//! ```
//! use specmint::task_packet::{TaskPacket, MINIMAL_PACKET_EXAMPLE};
//!
//! let packet = TaskPacket::from_json_str(MINIMAL_PACKET_EXAMPLE).expect("the minimal packet is valid");
//! assert_eq!(packet.packet_id, "pk-1");
//! // Written back in canonical form: the short `output_format` is always written tagged.
//! assert!(packet.to_canonical_json().contains(r#""output_format":{"kind":"markdown"}"#));
//! ```
//!
//! It also re-exports the runtime ([`runtime`]) and the derive ([`Validate`](macro@Validate)),
//! which work on hand-written structs too.
#![deny(missing_docs)]

extern crate self as specmint;

pub use specmint_runtime as runtime;
pub use specmint_runtime::{Report, Validate, Violation};

mod atomic_file;
mod bundle;
pub mod bundled;
mod refusal;
pub mod store;
pub mod verdict;

pub use bundle::{bundle_options, GENERATED_DIR, SPEC_DIR};
pub use refusal::Refusal;

/// Action Envelope v0.1: how a model proposes a state change (`spec/action_envelope.md`).
#[deny(warnings, missing_docs)]
pub mod action_envelope;
/// Task Envelopes: the delegated task contract and its lifecycle (`spec/task_envelope.md`).
#[deny(warnings, missing_docs)]
pub mod task_envelope;
/// TaskPacket v1.0: the role-to-role handoff packet (`spec/task_packet.md`).
#[deny(warnings, missing_docs)]
pub mod task_packet;
/// TaskPack 0.1: the portable handoff container, flat form (`spec/taskpack.md`).
#[deny(warnings, missing_docs)]
pub mod taskpack;
