//! TaskPack's A2A binding (§5): the extension `https://taskpack.org/a2a/ext/taskpack/v1`, the
//! mapping between a pack and an A2A `Task`, and the JSON-RPC door `specmint a2a serve` is a
//! thin HTTP wrapper over.
//!
//! The wire is A2A 1.0 as the official SDK (`a2a-sdk` 1.3.0, pinned in tests/peers/a2a/) speaks it:
//! JSON-RPC 2.0 methods `SendMessage` and `GetTask` (the 0.3 names `message/send` and
//! `tasks/get` are accepted too, with the same 1.0 shapes), protobuf-JSON member names
//! (`contextId`, `artifactId`, `mediaType`), a `Part` that is one of `text`, `raw` (base64),
//! `url` or `data`, and `TASK_STATE_*` states.
//!
//! The binding table, as specmint maps it:
//!
//! | A2A | TaskPack |
//! |---|---|
//! | `Task.id` | `lineage.root_id` |
//! | `Task.contextId` | `lineage.chain`, as its compact JSON text (a string cannot hold a list; JSON keeps every entry exact, whatever it contains) |
//! | `Artifact` | one per `data/files/*` (a `raw` part, `artifactId` `data/files/<name>`), then one per `passport.artifacts` entry that does not name one of those files (`artifactId` `passport.artifacts[i]`, a `text` part for a string, else `data`) |
//! | `Message` | nothing: a Task never carries `history`, and a message's text parts are not kept |
//! | `metadata[<extension URI>]` | `{"spec": "taskpack/0.1", "pack": <the pack object>}`: facts with their scope, asks and landing checks travel there, the one place A2A has for them |
//!
//! A `Task` made from a stored passport (what the door answers) carries
//! `{"spec", "passport_id", "passport": <the stored state>}` instead of `pack`. Its state is
//! `TASK_STATE_SUBMITTED`: the work has landed and nothing of it was run.
//!
//! By concern: this file holds the extension (its URI, the Agent Card, activation); `task.rs`
//! the pack↔Task mapping (`to-a2a`, `from-a2a`); `wire.rs` the reading of the wire (the A2A
//! objects read leniently, a request's file parts decoded as they stream); `door.rs` the
//! JSON-RPC door; [`answer`] what they answer, [`quota`] the door's store quota and [`spill`]
//! the bounded buffer of a request body. Their public items are re-exported here.

pub mod answer;
mod door;
pub mod quota;
pub mod spill;
mod task;
mod wire;

use answer::{AgentCard, AgentExtension};

pub use door::{
    accept_language, locales, max_message_bytes, Answer, Door, CONTENT_TYPE_NOT_SUPPORTED,
    DEFAULT_MAX_PACK_BYTES, EXTENSION_SUPPORT_REQUIRED, INTERNAL_ERROR, INVALID_PARAMS,
    INVALID_REQUEST, LOCALE_KEY, METHOD_NOT_FOUND, PARSE_ERROR, TASK_NOT_FOUND,
};
pub use task::{
    context_id, media_type, pack_to_task, passport_to_task, task_to_pack, write_task_as_pack,
    FromA2aError, FromTask, NotAPack,
};
pub use wire::PACK_IN_MEMORY_BYTES;

/// The extension's URI (§5).
pub const EXTENSION_URI: &str = "https://taskpack.org/a2a/ext/taskpack/v1";
/// The spec id the extension's params name.
pub const SPEC_ID: &str = "taskpack/0.1";
/// The flat form's per-attachment limit (§2.2), declared in the extension's params.
pub const MAX_INLINE_ATTACHMENT_BYTES: u64 = 1 << 20;
/// The A2A protocol version served.
pub const PROTOCOL_VERSION: &str = "1.0";
/// The HTTP header that activates extensions (and that the server echoes).
pub const EXTENSIONS_HEADER: &str = "A2A-Extensions";

/// The extension as the Agent Card declares it (`capabilities.extensions[]`).
pub fn extension_declaration() -> AgentExtension {
    AgentExtension::taskpack()
}

/// The Agent Card served at `/.well-known/agent-card.json`, its JSON-RPC interface at `url`.
pub fn agent_card(url: &str) -> AgentCard {
    AgentCard::new(url)
}

/// Whether the `A2A-Extensions` header values (each a comma-separated list of URIs) activate
/// this extension.
pub fn activates<'a>(values: impl IntoIterator<Item = &'a str>) -> bool {
    values
        .into_iter()
        .flat_map(|v| v.split(','))
        .any(|uri| uri.trim() == EXTENSION_URI)
}
