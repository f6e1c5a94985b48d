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

pub use specmint_macros::Validate;
pub use specmint_runtime as runtime;
pub use specmint_runtime::{Report, Validate, Violation};

mod bundle;
pub mod bundled;

pub use bundle::{bundle_options, GENERATED_DIR, SPEC_DIR};

macro_rules! bundled_spec {
    ($(#[$doc:meta])* $module:ident) => {
        $(#[$doc])*
        #[deny(warnings, missing_docs)]
        pub mod $module {
            include!(concat!(env!("OUT_DIR"), "/rust/", stringify!($module), ".rs"));

            /// The JSON Schema (draft 2020-12) emitted from the same spec.
            pub const JSON_SCHEMA: &str =
                include_str!(concat!(env!("OUT_DIR"), "/schema/", stringify!($module), ".schema.json"));
        }
    };
}

bundled_spec! {
    /// TaskPacket v1.0: the role-to-role handoff packet (`spec/task_packet.md`).
    task_packet
}
bundled_spec! {
    /// Action Envelope v0.1: how a model proposes a state change (`spec/action_envelope.md`).
    action_envelope
}
bundled_spec! {
    /// Task Envelopes: the delegated task contract and its lifecycle (`spec/task_envelope.md`).
    task_envelope
}
bundled_spec! {
    /// TaskPack 0.1: the portable handoff container, flat form (`spec/taskpack.md`).
    taskpack
}
