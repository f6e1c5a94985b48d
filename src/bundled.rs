//! The registry of bundled specs, by the names the CLI uses.

use crate::runtime::document::{accepted_document, parse_document_streamed, DocumentSpec};
use crate::runtime::rules::StreamedData;
use crate::Report;

/// One bundled spec, as the CLI and other generic callers see it.
#[derive(Debug, Clone, Copy)]
pub struct Bundled {
    /// The CLI's name for the document type (`task-packet`).
    pub cli_name: &'static str,
    /// The spec's module name and file stem (`task_packet`).
    pub module: &'static str,
    /// How documents of this type are parsed (limits, codes, forbidden keys).
    pub document: &'static DocumentSpec<'static>,
    /// The emitted JSON Schema.
    pub json_schema: &'static str,
    /// Parse + validate `input` under `document`, returning the canonical JSON; the digest
    /// rule reads the facts of `StreamedData` for the structs it names (see
    /// [`Bundled::validate_streamed`]).
    pub check: fn(&[u8], &DocumentSpec, StreamedData) -> Result<String, Report>,
    /// Whether `check` would accept `input` under `document`: its verdict, without the
    /// canonical JSON of an accepted document or the report of a refused one (see
    /// [`accepted_document`]).
    pub accepts: fn(&[u8], &DocumentSpec) -> bool,
}

impl Bundled {
    /// Parses and validates `input`; on success returns its canonical (normalized, compact) JSON.
    /// `max_input_bytes` overrides the document's input size limit.
    pub fn validate(&self, input: &[u8], max_input_bytes: Option<usize>) -> Result<String, Report> {
        let document = self
            .document
            .with_max_input_bytes(max_input_bytes.unwrap_or(self.document.max_input_bytes));
        (self.check)(input, &document, StreamedData::new())
    }

    /// [`Bundled::validate`] of a document some of whose data strings were left out and
    /// decoded elsewhere as they streamed: the digest rule reads their facts from `streamed`
    /// ([`parse_document_streamed`]).
    pub fn validate_streamed(
        &self,
        input: &[u8],
        max_input_bytes: Option<usize>,
        streamed: StreamedData,
    ) -> Result<String, Report> {
        let document = self
            .document
            .with_max_input_bytes(max_input_bytes.unwrap_or(self.document.max_input_bytes));
        (self.check)(input, &document, streamed)
    }
}

macro_rules! bundled {
    ($($cli:literal => $module:ident :: $root:ident $(+ $behaviour:path)?),* $(,)?) => {
        /// Every bundled spec, in CLI-name order.
        pub const ALL: &[Bundled] = &[$(Bundled {
            cli_name: $cli,
            module: stringify!($module),
            document: &crate::$module::DOCUMENT,
            json_schema: crate::$module::JSON_SCHEMA,
            check: |input, document, streamed| {
                let value =
                    parse_document_streamed::<crate::$module::$root>(input, document, streamed)?;
                #[allow(unused_mut)]
                let mut violations: Vec<crate::Violation> = Vec::new();
                $(violations.extend($behaviour(&value));)?
                if violations.is_empty() {
                    Ok(value.to_canonical_json())
                } else {
                    Err(Report::from_violations(violations))
                }
            },
            accepts: |input, document| {
                let Some(value) = accepted_document::<crate::$module::$root>(
                    input,
                    document,
                    StreamedData::new(),
                ) else {
                    return false;
                };
                #[allow(unused_mut)]
                let mut violations: Vec<crate::Violation> = Vec::new();
                $(violations.extend($behaviour(&value));)?
                let _ = &value;
                violations.is_empty()
            },
        }),*];
    };
}

bundled! {
    "action-envelope" => action_envelope::ActionEnvelope,
    "task-envelope" => task_envelope::TaskEnvelope,
    "task-packet" => task_packet::TaskPacket,
    // The name rule the flat form's readers apply (spec/taskpack.md, `attachment_name`).
    "taskpack" => taskpack::FlatTaskPack + crate::taskpack::names::name_violations,
}

/// Finds a bundled spec by its CLI name (`task-packet`).
pub fn find(cli_name: &str) -> Option<&'static Bundled> {
    ALL.iter().find(|b| b.cli_name == cli_name)
}

/// The CLI names of every bundled spec, for usage messages.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|b| b.cli_name).collect()
}
