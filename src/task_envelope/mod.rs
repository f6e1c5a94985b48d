// The generated types, constants, error enum and validator of spec/task_envelope.md (as `specmint generate`
// wrote them to generated/, or as the build script writes them under `from-spec`: see
// `generated!` in lib.rs), then this protocol's hand-written behaviour in the sibling files of
// this folder.

generated!("task_envelope");

#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub mod answer;
pub mod binding;
#[cfg(any(feature = "sqlite", feature = "postgres"))]
pub mod lifecycle;

/// `text` as a lifecycle state, as a door takes one from its caller (the CLI's `STATE` and
/// `--state`, an MCP task tool's `state` argument). `Err` is the message a door answers,
/// unknown WHAT \`TEXT\` (one of: submitted, ...), naming every state of [`TaskState::ALL`].
///
/// # Errors
///
/// `text` is not a state's name.
pub fn parse_state(what: &str, text: &str) -> Result<TaskState, String> {
    text.parse().map_err(|_| {
        let known: Vec<&str> = TaskState::ALL.iter().map(|s| s.as_str()).collect();
        format!("unknown {what} `{text}` (one of: {})", known.join(", "))
    })
}

/// The refusal of an evidence document that does not read (`task complete`'s `FILE`, the
/// `task_complete` tool's `evidence`): the code of the first violation that is one of the
/// envelope's codes (else `invalid_task_envelope`), and every violation's message after
/// `evidence: `, joined by `; `.
pub fn evidence_refusal(report: &crate::Report) -> crate::Refusal<TaskEnvelopeError> {
    let code = report
        .iter()
        .find_map(|v| TaskEnvelopeError::from_code(&v.code))
        .unwrap_or(TaskEnvelopeError::InvalidTaskEnvelope);
    let messages: Vec<&str> = report.iter().map(|v| v.message.as_str()).collect();
    crate::Refusal::new(code, format!("evidence: {}", messages.join("; ")))
}
