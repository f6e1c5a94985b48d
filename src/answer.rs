//! The answers: what each door gives back for a behaviour of this crate, one `Serialize` type per
//! answer, so that the CLI's `--format json`, the MCP tools' results and the A2A door's replies
//! are written from the same types and cannot drift apart.
//!
//! Each protocol's answers sit beside its behaviour, behind the same feature:
//!
//! | answers | module | doors |
//! |---|---|---|
//! | a refusal, `{"code", "message", "ok": false}` | [`Refusal`](crate::Refusal) (its `Serialize`) | CLI, MCP |
//! | `validate` with no verdict | [`ValidateFailure`] (here; the verdict is `verdict::Verdict::to_json`) | CLI |
//! | `envelope new/apply/show`, the action tools, `package_show` | `action_envelope::answer` | CLI, MCP |
//! | `task ...`, the `task_*` tools | `task_envelope::answer` | CLI, MCP |
//! | `handoff`, the `team_handoff` tool | `task_packet::answer` | CLI, MCP |
//! | `passport new/list`, `taskpack land/merge/pack/conformance` | `taskpack::answer` | CLI |
//! | the Agent Card, JSON-RPC replies, the A2A `Task` (`taskpack to-a2a`) | `taskpack::a2a::answer` | A2A, CLI |
//!
//! The CLI and the MCP tools write an answer through [`to_value`]: a `serde_json::Value`, whose
//! objects hold their members in alphabetical order at every depth (the workspace's serde_json
//! has no `preserve_order`), the order these answers have always been written in, whatever types
//! they hold. So each answer declares its members alphabetically, as they are written. The A2A
//! door writes its replies in declaration order, as `JSON.stringify` writes the reference's.

use serde::Serialize;

/// `answer` as the CLI prints it and the MCP tools return it: a JSON value whose objects have
/// their members in alphabetical order, at every depth.
///
/// # Errors
///
/// `answer`'s `Serialize` fails (a map whose keys are not strings; no answer of this crate has
/// one).
pub fn to_value<T: Serialize + ?Sized>(answer: &T) -> Result<serde_json::Value, serde_json::Error> {
    serde_json::to_value(answer)
}

/// `specmint validate --format json` when it gives no verdict: the spec directory cannot be read
/// (`{"error": {"kind": "spec", "message"}}`), or a file cannot (`{"error": {"kind": "io",
/// "message"}, "file", "type"}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValidateFailure<'a> {
    /// What failed.
    pub error: FailureReason<'a>,
    /// The file that could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<&'a str>,
    /// TYPE, the document type it was to be judged as.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub doc_type: Option<&'a str>,
}

/// What [`ValidateFailure`] says failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailureReason<'a> {
    /// The spec or the file.
    pub kind: FailureKind,
    /// Why.
    pub message: &'a str,
}

/// What could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FailureKind {
    /// A file: `io`.
    Io,
    /// The spec directory: `spec`.
    Spec,
}

impl<'a> ValidateFailure<'a> {
    /// The spec directory cannot be read, or a spec in it does not check.
    pub fn spec(message: &'a str) -> Self {
        ValidateFailure {
            error: FailureReason {
                kind: FailureKind::Spec,
                message,
            },
            file: None,
            doc_type: None,
        }
    }

    /// `file` cannot be read to be judged as `doc_type`.
    pub fn io(file: &'a str, doc_type: &'a str, message: &'a str) -> Self {
        ValidateFailure {
            error: FailureReason {
                kind: FailureKind::Io,
                message,
            },
            file: Some(file),
            doc_type: Some(doc_type),
        }
    }
}
