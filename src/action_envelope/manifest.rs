//! A package's manifest and the in-memory state machine that applies one action to it.
//!
//! [`Manifest::step`] is the whole rule of an apply except idempotency (which needs the log
//! of applied actions, kept by the [engine](super::engine)): the revision check, the move
//! from the generated transition table ([`PackageState::on`]), the gate predicates as the
//! spec lists them, then the change. It writes nothing anywhere; the engine runs it inside
//! one store transaction.

use serde::{Deserialize, Serialize};

use super::{
    ActionBody, ActionEnvelope, EnvelopeError, PackageState, RecordDraftArtifactPayload,
    RecordInputPayload, SetObjectivePayload,
};
use crate::Refusal;

/// The first line of every canonical summary: names the format, so a later format cannot be
/// mistaken for this one.
pub const SUMMARY_HEADER: &str = "specmint action-envelope summary v0.1";

/// Everything known about one package.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The package (`^pkg_[A-Za-z0-9_-]{1,63}$`).
    pub package_id: String,
    /// Where the package is in its lifecycle.
    pub state: PackageState,
    /// 0 at creation, one more per applied action.
    pub revision: u64,
    /// What the operator asked for, set at creation only (no action sets it).
    pub intent: Option<String>,
    /// Every recorded input, in the order recorded.
    pub inputs: Vec<RecordInputPayload>,
    /// The objective, as last set.
    pub objective: Option<SetObjectivePayload>,
    /// The frozen summary, from `prepare_summary` until `revise_intake`.
    pub summary: Option<Summary>,
    /// The operator's confirmation of a summary.
    pub confirmation: Option<Confirmation>,
    /// Every recorded draft artifact.
    pub draft_artifacts: Vec<RecordDraftArtifactPayload>,
    /// The reason given by `cancel`, when one was.
    pub cancel_reason: Option<String>,
}

/// A summary frozen by `prepare_summary`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The canonical text ([`Manifest::canonical_summary`]).
    pub canonical_text: String,
    /// Lowercase hex SHA-256 of `canonical_text`'s UTF-8 bytes.
    pub canonical_sha256: String,
    /// When it was presented (RFC 3339 UTC).
    pub presented_at: String,
}

/// The operator's confirmation, bound to the digest of the summary they saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confirmation {
    /// The `canonical_sha256` the operator quoted.
    pub summary_sha256: String,
    /// Who confirmed.
    pub operator_id: String,
    /// When (RFC 3339 UTC).
    pub confirmed_at: String,
}

fn is_blank(text: &str) -> bool {
    text.trim().is_empty()
}

impl Manifest {
    /// A new package in its initial state (the first state of the table, `INTAKE`) at
    /// revision 0, with `intent` when given.
    pub fn new(package_id: impl Into<String>, intent: Option<String>) -> Self {
        Manifest {
            package_id: package_id.into(),
            state: PackageState::ALL[0],
            revision: 0,
            intent,
            inputs: Vec::new(),
            objective: None,
            summary: None,
            confirmation: None,
            draft_artifacts: Vec::new(),
            cancel_reason: None,
        }
    }

    /// Applies `envelope` (already read and validated, e.g. by
    /// [`ActionEnvelope::from_json_slice`]) at time `now`: the revision check
    /// (`STALE_ACTION`), the transition (`ILLEGAL_TRANSITION`), the action's gate
    /// (`GATE_UNSATISFIED`, `STALE_ACTION`, `INVALID_PAYLOAD`), then the change, the new
    /// state and revision + 1. On a refusal `self` is unchanged.
    ///
    /// # Errors
    ///
    /// The refusal, with the spec's code.
    pub fn step(
        &mut self,
        envelope: &ActionEnvelope,
        now: &str,
    ) -> Result<(), Refusal<EnvelopeError>> {
        if envelope.expected_revision != self.revision {
            return Err(Refusal::new(
                EnvelopeError::StaleAction,
                format!(
                    "expected_revision is {} but `{}` is at revision {}",
                    envelope.expected_revision, self.package_id, self.revision
                ),
            ));
        }
        let action = envelope.action();
        let Some(to) = self.state.on(action) else {
            return Err(Refusal::new(
                EnvelopeError::IllegalTransition,
                format!("`{action}` is not legal in state {}", self.state),
            ));
        };
        self.check_gate(&envelope.body)?;
        self.change(&envelope.body, now);
        self.state = to;
        self.revision += 1;
        Ok(())
    }

    /// The gate predicates, exactly as the spec lists them; checked before any change.
    fn check_gate(&self, body: &ActionBody) -> Result<(), Refusal<EnvelopeError>> {
        match body {
            ActionBody::RecordInput { payload, .. } => {
                if self.inputs.iter().any(|i| i.input_id == payload.input_id) {
                    return Err(Refusal::new(
                        EnvelopeError::InvalidPayload,
                        format!(
                            "`payload.input_id`: input `{}` is already recorded",
                            payload.input_id
                        ),
                    ));
                }
            }
            ActionBody::PrepareSummary { .. } => {
                if self.intent.as_deref().is_none_or(is_blank) {
                    return Err(Refusal::new(
                        EnvelopeError::GateUnsatisfied,
                        format!(
                            "`{}` has no intent (only the package's creation sets one)",
                            self.package_id
                        ),
                    ));
                }
                if self.objective.is_none() {
                    return Err(Refusal::new(
                        EnvelopeError::GateUnsatisfied,
                        format!(
                            "`{}` has no objective (set it with `set_objective`)",
                            self.package_id
                        ),
                    ));
                }
            }
            ActionBody::ConfirmSummary { basis, .. } => {
                let Some(summary) = &self.summary else {
                    return Err(Refusal::new(
                        EnvelopeError::GateUnsatisfied,
                        format!("`{}` has no summary to confirm", self.package_id),
                    ));
                };
                if basis.summary_sha256 != summary.canonical_sha256 {
                    return Err(Refusal::new(
                        EnvelopeError::StaleAction,
                        format!(
                            "`basis.summary_sha256` is `{}` but the current summary's is `{}`",
                            basis.summary_sha256, summary.canonical_sha256
                        ),
                    ));
                }
            }
            ActionBody::RecordDraftArtifact { .. } => {
                let bound = match (&self.confirmation, &self.summary) {
                    (Some(confirmation), Some(summary)) => {
                        confirmation.summary_sha256 == summary.canonical_sha256
                    }
                    _ => false,
                };
                if !bound {
                    return Err(Refusal::new(
                        EnvelopeError::GateUnsatisfied,
                        format!(
                            "`{}` has no confirmation bound to the current summary digest",
                            self.package_id
                        ),
                    ));
                }
            }
            // set_objective's non-blank statement, record_input's exclusion reason and
            // record_draft_artifact's relative path are rules of the payload, checked
            // when the envelope is read (INVALID_PAYLOAD); revise_intake and cancel have
            // no gate.
            ActionBody::SetObjective { .. }
            | ActionBody::ReviseIntake { .. }
            | ActionBody::Cancel { .. } => {}
        }
        Ok(())
    }

    fn change(&mut self, body: &ActionBody, now: &str) {
        match body {
            ActionBody::RecordInput { payload, .. } => self.inputs.push(payload.clone()),
            ActionBody::SetObjective { payload, .. } => self.objective = Some(payload.clone()),
            ActionBody::PrepareSummary { .. } => {
                let canonical_text = self.canonical_summary();
                self.summary = Some(Summary {
                    canonical_sha256: crate::database::sha256_hex(canonical_text.as_bytes()),
                    canonical_text,
                    presented_at: now.to_owned(),
                });
                self.confirmation = None;
            }
            ActionBody::ConfirmSummary { basis, payload } => {
                self.confirmation = Some(Confirmation {
                    summary_sha256: basis.summary_sha256.clone(),
                    operator_id: payload.operator_id.clone(),
                    confirmed_at: now.to_owned(),
                });
            }
            ActionBody::ReviseIntake { .. } => {
                // What was summarised and confirmed may now change: both go.
                self.summary = None;
                self.confirmation = None;
            }
            ActionBody::RecordDraftArtifact { payload, .. } => {
                self.draft_artifacts.push(payload.clone());
            }
            ActionBody::Cancel { payload, .. } => self.cancel_reason = payload.reason.clone(),
        }
    }

    /// The canonical summary text of this manifest, as `spec/action_envelope.md` ("Canonical
    /// summary text") defines it byte for byte: a header line, then `package_id`, `intent`,
    /// `objective`, one `desired_outcome` line per outcome and one `input` line per input
    /// in recorded order; every value a JSON string; LF after every line. An absent intent
    /// or objective is written as the empty string (`prepare_summary`'s gate refuses both
    /// before a summary is frozen).
    pub fn canonical_summary(&self) -> String {
        let quoted = |text: &str| serde_json::Value::from(text).to_string();
        let mut out = String::new();
        let mut line = |key: &str, value: String| {
            out.push_str(key);
            out.push_str(": ");
            out.push_str(&value);
            out.push('\n');
        };
        line("package_id", quoted(&self.package_id));
        line("intent", quoted(self.intent.as_deref().unwrap_or_default()));
        let objective = self.objective.as_ref();
        line(
            "objective",
            quoted(objective.map_or("", |o| o.statement.as_str())),
        );
        for outcome in objective.map_or(&[][..], |o| &o.desired_outcomes[..]) {
            line("desired_outcome", quoted(outcome));
        }
        for input in &self.inputs {
            let mut value = format!(
                "{} {} {} {} {}",
                quoted(&input.input_id),
                input.kind,
                input.source,
                input.disposition,
                quoted(&input.content)
            );
            if let Some(reason) = &input.exclusion_reason {
                value.push_str(" because ");
                value.push_str(&quoted(reason));
            }
            line("input", value);
        }
        format!("{SUMMARY_HEADER}\n{out}")
    }
}
