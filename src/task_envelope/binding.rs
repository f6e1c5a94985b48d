//! Binding: `toolsAllowed` is a request, never a grant.
//!
//! Before a task reaches its recipient the harness intersects the request with the
//! recipient's [`CapabilityLedger`], which the sender cannot reach. [`bind`] returns a
//! *different type*, [`BoundTaskEnvelope`], holding a copy of the envelope whose
//! `toolsAllowed` is that intersection: it can only narrow what the ledger already grants, and
//! an empty request gets no tools. A `BoundTaskEnvelope` can only be made by [`bind`] (its
//! fields are private), so code that needs an authorised envelope takes one, and an unbound
//! [`TaskEnvelope`] passed there is a compile error.
//!
//! ```
//! use specmint::task_envelope::binding::{bind, CapabilityLedger};
//! use specmint::task_envelope::TaskEnvelope;
//!
//! let envelope = TaskEnvelope::from_json_str(r#"{"objective":"o","outputFormat":"f",
//!   "toolAndSourceGuidance":"g","boundaries":["b"],"filesAndInterfaces":["a.rs"],
//!   "acceptanceCheck":{"passFailCommand":"true","endToEndVerification":"e"},"contextID":"c",
//!   "toolsAllowed":["shell","git","browser"]}"#).unwrap();
//! let ledger = CapabilityLedger::new(["git", "shell", "cargo"]);
//! let bound = bind(&envelope, &ledger);
//! assert_eq!(bound.tools(), ["shell", "git"]); // the request's order, never "cargo"
//! ```

use std::collections::BTreeSet;

use super::TaskEnvelope;

/// The tools a recipient actually has. Only these can be granted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CapabilityLedger {
    tools: BTreeSet<String>,
}

impl CapabilityLedger {
    /// A ledger granting exactly `tools`.
    pub fn new<I, S>(tools: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        CapabilityLedger {
            tools: tools.into_iter().map(Into::into).collect(),
        }
    }

    /// Whether the ledger grants `tool`.
    pub fn grants(&self, tool: &str) -> bool {
        self.tools.contains(tool)
    }
}

/// A task envelope after binding: its `toolsAllowed` is the request ∩ the ledger. Made only
/// by [`bind`].
#[derive(Debug, Clone, PartialEq)]
pub struct BoundTaskEnvelope {
    envelope: TaskEnvelope,
}

impl BoundTaskEnvelope {
    /// The bound copy of the envelope (its `toolsAllowed` is the grant).
    pub fn envelope(&self) -> &TaskEnvelope {
        &self.envelope
    }

    /// The granted tools, in the request's order, each once.
    pub fn tools(&self) -> &[String] {
        &self.envelope.tools_allowed
    }
}

/// Binds `envelope` to `ledger`: a copy whose `toolsAllowed` keeps the requested tools the
/// ledger grants, in the request's order, a tool requested twice kept once.
pub fn bind(envelope: &TaskEnvelope, ledger: &CapabilityLedger) -> BoundTaskEnvelope {
    let mut granted: Vec<String> = Vec::new();
    for tool in &envelope.tools_allowed {
        if ledger.grants(tool) && !granted.contains(tool) {
            granted.push(tool.clone());
        }
    }
    BoundTaskEnvelope {
        envelope: TaskEnvelope {
            tools_allowed: granted,
            ..envelope.clone()
        },
    }
}
