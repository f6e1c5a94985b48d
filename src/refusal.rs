//! [`Refusal`]: why a behaviour of a protocol (filing a packet, applying an envelope, moving a
//! task, packing, landing or merging a pack) did not happen.

use std::fmt;

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// A refused operation: a code of the spec's error table and a message that names what and
/// where (and, where it can, what to send instead).
///
/// `C` is the spec's generated error enum ([`crate::task_packet::PacketError`],
/// [`crate::action_envelope::EnvelopeError`], [`crate::task_envelope::TaskEnvelopeError`],
/// [`crate::taskpack::TaskPackError`]), whose `Display` is the code as the spec spells it.
/// A refusal displays as `code: message`, and is answered (its `Serialize`, see
/// [`crate::answer`]) as `{"code": .., "message": .., "ok": false}`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Refusal<C> {
    /// The spec's code.
    pub code: C,
    /// What exactly was refused.
    pub message: String,
    /// The problems the message lists, each at its path with its own English message, when
    /// the refusal is a list of them (a pack refused at landing, [`Refusal::of_problems`]);
    /// empty otherwise. What `Refusal::localize` (feature `messages`) writes in the reader's
    /// language.
    pub problems: Vec<crate::Violation>,
}

impl<C> Refusal<C> {
    /// A refusal with `code` and `message`.
    pub fn new(code: C, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
            problems: Vec::new(),
        }
    }

    /// A refusal listing `problems` (each a violation with `code`'s spelling, its path and its
    /// English message): the message is theirs joined with `; `.
    pub fn of_problems(code: C, problems: Vec<crate::Violation>) -> Self {
        let message = problems
            .iter()
            .map(|p| p.message.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        Refusal {
            code,
            message,
            problems,
        }
    }

    /// The message written in `catalog`'s language (a spec's messages,
    /// [`crate::verdict::DocType::catalog`]): each problem's message from its code's template,
    /// joined with `; `; the code and the problems' paths do not change. A refusal that lists
    /// no problems (its words are the library's, not a rule's), or whose code the catalog has
    /// no message for, stays English. Whether the message changed.
    #[cfg(feature = "messages")]
    pub fn localize(&mut self, catalog: &crate::runtime::messages::Catalog) -> bool {
        let messages: Option<Vec<String>> =
            self.problems.iter().map(|p| catalog.message(p)).collect();
        match messages {
            Some(messages) if !messages.is_empty() => {
                self.message = messages.join("; ");
                true
            }
            _ => false,
        }
    }
}

impl<C: fmt::Display> Serialize for Refusal<C> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut answer = serializer.serialize_struct("Refusal", 3)?;
        answer.serialize_field("code", &self.code.to_string())?;
        answer.serialize_field("message", &self.message)?;
        answer.serialize_field("ok", &false)?;
        answer.end()
    }
}
