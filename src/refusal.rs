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
}

impl<C> Refusal<C> {
    /// A refusal with `code` and `message`.
    pub fn new(code: C, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
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
