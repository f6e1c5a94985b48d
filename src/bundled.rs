//! The registry of bundled specs, by the names the CLI uses.

use std::io::{self, Read, Seek};

use crate::runtime::document::{accepts_then, parse_document_streamed, DocumentSpec};
use crate::runtime::rules::StreamedData;
use crate::Report;

/// What a streamed reader reads from: any `Read + Seek` (a file, bytes in memory).
pub trait ReadSeek: Read + Seek {}

impl<T: Read + Seek + ?Sized> ReadSeek for T {}

/// A document as a streamed reader read it ([`Bundled::streamed`]): the text the rules run on,
/// the data strings it left out of memory, and their facts as they streamed.
pub struct Streamed {
    /// The document less the data strings left out (each emptied).
    pub text: String,
    /// The facts the digest rule reads of the strings left out ([`Bundled::validate_streamed`]).
    pub facts: StreamedData,
    /// A place in `text` moved back to the document: `(line, column, in_chars)` to the column of
    /// that line in the document, counted in chars when `in_chars`, else in bytes.
    pub unshift: Box<dyn Fn(usize, usize, bool) -> usize>,
}

/// Reads a document in bounded memory, its bulky data strings streamed rather than held (from
/// the start of the reader): `Ok(None)` when it cannot be read so, and is judged whole.
pub type ReadStreamed = fn(&mut dyn ReadSeek) -> io::Result<Option<Streamed>>;

/// Another form of a spec's documents, which its judge does not read, told by its first bytes
/// (TaskPack's zip beside the flat form): a refused document in that form says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OtherForm {
    /// The bytes every document of the other form starts with.
    pub magic: &'static [u8],
    /// Appended to the first violation's message of a refused document in that form (in
    /// English, and in the reader's language by `Verdict::localize`, feature `messages`).
    pub note: crate::notes::Note,
}

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
    /// canonical JSON of an accepted document or the report of a refused one, read into a
    /// value the thread keeps (see [`accepts_then`]).
    pub accepts: fn(&[u8], &DocumentSpec) -> bool,
    /// How a document of this type is judged in bounded memory, when its documents carry data
    /// strings too large to hold (TaskPack's flat form, with the `taskpack` feature): `None`,
    /// it is judged whole.
    pub streamed: Option<ReadStreamed>,
    /// The other form of this type's documents its judge does not read, if there is one.
    pub other_form: Option<OtherForm>,
    /// The messages in other languages (the generated module's `MESSAGES`): per BCP 47 tag,
    /// (code, template) pairs, checked when the spec was generated.
    pub messages: &'static [(&'static str, &'static [(&'static str, &'static str)])],
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

/// The expression given, else `None`.
macro_rules! or_none {
    () => {
        None
    };
    ($given:expr) => {
        $given
    };
}

macro_rules! bundled {
    ($($cli:literal => $module:ident :: $root:ident $(+ $behaviour:path)?
        $({ $(streamed: $streamed:expr,)? $(other_form: $other_form:expr,)? })?),* $(,)?) => {
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
                accepts_then::<crate::$module::$root>(input, document, |value| {
                    #[allow(unused_mut)]
                    let mut violations: Vec<crate::Violation> = Vec::new();
                    $(violations.extend($behaviour(value));)?
                    let _ = value;
                    violations.is_empty()
                })
            },
            streamed: or_none!($($($streamed)?)?),
            other_form: or_none!($($($other_form)?)?),
            messages: crate::$module::MESSAGES,
        }),*];
    };
}

bundled! {
    "action-envelope" => action_envelope::ActionEnvelope,
    "task-envelope" => task_envelope::TaskEnvelope,
    "task-packet" => task_packet::TaskPacket,
    // The name rule the flat form's readers apply (spec/taskpack.md, `attachment_name`).
    "taskpack" => taskpack::FlatTaskPack + crate::taskpack::names::name_violations {
        streamed: crate::taskpack::STREAMED,
        other_form: Some(crate::taskpack::ZIP_FORM),
    },
}

/// Finds a bundled spec by its CLI name (`task-packet`).
pub fn find(cli_name: &str) -> Option<&'static Bundled> {
    ALL.iter().find(|b| b.cli_name == cli_name)
}

/// The CLI names of every bundled spec, for usage messages.
pub fn names() -> Vec<&'static str> {
    ALL.iter().map(|b| b.cli_name).collect()
}

/// The spec `module`'s sources as `spec/` holds them (its Markdown, its sidecar and its
/// locale files), for what needs the checked model at run time: a schema with `errorMessage`
/// ([`DocType::schema_in`](crate::verdict::DocType::schema_in)). `None` for another name.
#[cfg(feature = "interpret")]
pub(crate) fn source(module: &str) -> Option<specmint_codegen::SpecSource> {
    macro_rules! spec {
        ($name:literal, [$($tag:literal),*]) => {
            specmint_codegen::SpecSource {
                name: $name.into(),
                md_path: concat!("spec/", $name, ".md").into(),
                md: include_str!(concat!("../spec/", $name, ".md")).into(),
                toml_path: concat!("spec/", $name, ".toml").into(),
                toml: include_str!(concat!("../spec/", $name, ".toml")).into(),
                locales: vec![$(specmint_codegen::LocaleSource {
                    tag: $tag.into(),
                    path: concat!("spec/", $name, ".", $tag, ".md").into(),
                    md: include_str!(concat!("../spec/", $name, ".", $tag, ".md")).into(),
                }),*],
            }
        };
    }
    Some(match module {
        "task_packet" => spec!("task_packet", ["de", "zh-TW"]),
        "action_envelope" => spec!("action_envelope", ["zh-TW"]),
        "task_envelope" => spec!("task_envelope", ["zh-TW"]),
        "taskpack" => spec!("taskpack", ["zh-TW"]),
        _ => return None,
    })
}

#[cfg(all(test, feature = "interpret"))]
mod tests {
    /// The sources `source` holds are spec/ as generated/ was generated from it: every bundled
    /// spec, with every locale its generated `MESSAGES` has, and the same schema.
    #[test]
    fn the_embedded_sources_are_the_bundled_specs() {
        for b in super::ALL {
            let source = super::source(b.module).expect(b.module);
            let tags: Vec<&str> = source.locales.iter().map(|l| l.tag.as_str()).collect();
            let bundled: Vec<&str> = b.messages.iter().map(|(t, _)| *t).collect();
            assert_eq!(tags, bundled, "{}", b.module);
            let spec = specmint_codegen::load(&source).unwrap_or_else(|d| panic!("{d}"));
            let options = specmint_codegen::Options {
                spec_dir_in_files: Some(crate::SPEC_DIR.to_owned()),
                ..crate::bundle_options()
            };
            assert_eq!(
                specmint_codegen::emit_schema(&spec, &options),
                b.json_schema,
                "{}",
                b.module
            );
        }
    }
}
