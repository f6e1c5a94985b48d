//! The interpreter: a spec's validator read from its checked model at run time (see
//! [`Validator`]).

mod check;
mod compile;
mod node;
mod read;
mod write;

use std::sync::Arc;

use specmint_runtime::document::{
    accepted_document_seed, example_mismatch, parse_document_seed, to_canonical_json, DocumentSpec,
};
use specmint_runtime::rules::StreamedData;
use specmint_runtime::Report;

use crate::diag::{Diagnostic, Pos};
use crate::model::{ExampleKind, Spec};
use compile::Compiled;

/// A spec's validator without compiling Rust: the checked [`model`](crate::model) read at
/// run time.
///
/// [`Validator::new`] turns a [`Spec`] into a compiled form (names owned, rules in the
/// order the generated `#[validate(..)]` attributes list them, defaults worked out), and
/// [`Validator::validate`] runs a document through the runtime's own
/// [`parse_document_seed`] (what
/// [`parse_document`](specmint_runtime::document::parse_document) runs): the same size, byte
/// order mark, UTF-8, strict JSON and forbidden-key steps as the generated validator, a typed
/// read that makes the calls serde's derive (and the generated hand-written `Deserialize`
/// impls) make, and then the same rule functions of `specmint_runtime::rules` that
/// `#[derive(Validate)]` calls. Codes, paths, messages and their order are therefore the
/// generated validator's; `tests/it/interpret.rs` in the root crate proves it on every case of
/// every bundled spec's corpus.
///
/// How it reads without a Rust type: the document is read into a tree of values by a
/// `DeserializeSeed` that holds the compiled spec (`read::DocumentSeed`), which the
/// runtime's `parse_document_seed` runs where `parse_document` runs a type's `Deserialize`.
///
/// Memory: the compiled form owns the spec's names (codes, keys, type names), and the
/// violations it reports own their codes, so nothing of a loaded spec outlives its
/// validator (a language server loads one per keystroke).
///
/// Limits: inside a union's members, serde's derive reads from its private buffered
/// `Content`; the interpreter reads the same members from a
/// `serde_json::Value`, so there a struct given as an array is refused, where serde's derive
/// would read the array as the struct's fields in order.
///
/// ```
/// let md = "# Note v1\n\n## Fields of a `note`\n\n\
///     | Field | Type | Required | Meaning |\n|---|---|---|---|\n\
///     | `title` | non-blank string | ✔ | The title. |\n\n\
///     ## Error codes\n\n| Code | When |\n|---|---|\n\
///     | `bad_note` | Not the shape. |\n| `blank` | Blank. |\n";
/// let toml = "[spec]\nroot = \"note\"\n\n[errors]\nenum = \"NoteError\"\n\
///     parse = \"bad_note\"\nnon_blank = \"blank\"\n";
/// let source = specmint_codegen::SpecSource {
///     name: "note".into(),
///     md_path: "spec/note.md".into(),
///     md: md.into(),
///     toml_path: "spec/note.toml".into(),
///     toml: toml.into(),
///     locales: Vec::new(),
/// };
/// let spec = specmint_codegen::load(&source).unwrap();
/// let validator = specmint_codegen::Validator::new(&spec);
/// let report = validator.validate(br#"{"title": " "}"#).unwrap_err();
/// assert_eq!(report.to_string(), "blank: `title` must not be blank");
/// assert_eq!(validator.validate(br#"{"title": "a"}"#).unwrap(), r#"{"title":"a"}"#);
/// let shape = validator.validate(br#"{"title": 1}"#).unwrap_err();
/// assert_eq!(
///     shape.to_string(),
///     "bad_note: invalid type: integer `1`, expected a string at line 1 column 11"
/// );
/// //! ```
#[derive(Clone, Debug)]
pub struct Validator {
    compiled: Arc<Compiled>,
}

impl Validator {
    /// The validator of `spec` (a model [`load`](crate::load) checked).
    pub fn new(spec: &Spec) -> Validator {
        Validator {
            compiled: Arc::new(Compiled::new(spec)),
        }
    }

    /// How documents of this spec are read: the `DOCUMENT` constant the generated Rust
    /// would hold, its names borrowed from the validator.
    pub fn document(&self) -> DocumentSpec<'_> {
        self.compiled.document()
    }

    /// Parses and validates one document; on success its canonical compact JSON (what the
    /// generated root type's `to_canonical_json` writes). `Err` carries every violation.
    pub fn validate(&self, input: &[u8]) -> Result<String, Report> {
        self.validate_with(input, &self.compiled.document())
    }

    /// [`Validator::validate`] under another [`DocumentSpec`] (another input size limit,
    /// say: `validator.document().with_max_input_bytes(n)`).
    pub fn validate_with(&self, input: &[u8], document: &DocumentSpec) -> Result<String, Report> {
        let seed = read::DocumentSeed(&self.compiled);
        let value = parse_document_seed(input, document, StreamedData::new(), seed)?;
        Ok(to_canonical_json(&value))
    }

    /// Whether [`Validator::validate_with`] accepts `input`: its verdict, without the canonical
    /// JSON of an accepted document or the report of a refused one (see
    /// [`accepted_document_seed`]).
    pub fn accepts_with(&self, input: &[u8], document: &DocumentSpec) -> bool {
        let seed = read::DocumentSeed(&self.compiled);
        accepted_document_seed(input, document, StreamedData::new(), seed).is_some()
    }

    /// Every example of `spec` (the spec this validator was made from) that does not get
    /// the verdict its fence states, as a diagnostic at its fence: a `json valid` example
    /// refused, or a `json invalid` one whose violations are not exactly the stated
    /// `code@path` list, in order. [`load`](crate::load) reports them, so a spec whose
    /// examples are wrong is a spec error wherever it is loaded.
    pub(crate) fn judge_examples(&self, spec: &Spec) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for example in &spec.examples {
            let expected: Vec<(&str, &str)> = match &example.kind {
                ExampleKind::Valid => Vec::new(),
                ExampleKind::Invalid(errors) => errors
                    .iter()
                    .map(|(code, path)| (code.as_str(), path.as_str()))
                    .collect(),
                ExampleKind::Fragment => continue,
            };
            let report = self
                .validate(example.text.as_bytes())
                .err()
                .unwrap_or_default();
            let Some(message) = example_mismatch(&report, &expected) else {
                continue;
            };
            out.push(Diagnostic {
                file: spec.md_path.clone(),
                pos: Pos {
                    line: example.line,
                    col: 1,
                },
                message,
                hint: "make the example what its fence says, or the fence what the spec reports: \
                       a `json invalid` fence lists every violation as `code@path`, in order"
                    .to_owned(),
            });
        }
        out
    }
}
