//! The interpreter: a spec's validator read from its checked model at run time (see
//! [`Validator`]).

mod check;
mod compile;
mod node;
mod read;
mod write;

use std::cell::RefCell;
use std::sync::Arc;

use specmint_runtime::document::{
    accepted_document, parse_document, to_canonical_json, DocumentSpec,
};
use specmint_runtime::rules::StreamedData;
use specmint_runtime::Report;

use crate::diag::{Diagnostic, Pos};
use crate::model::{ExampleKind, Spec};
use compile::Compiled;

/// A spec's validator without compiling Rust: the checked [`model`](crate::model) read at
/// run time.
///
/// [`Validator::new`] turns a [`Spec`] into a compiled form (names interned, rules in the
/// order the generated `#[validate(..)]` attributes list them, defaults worked out), and
/// [`Validator::validate`] runs a document through the runtime's own
/// [`parse_document`](specmint_runtime::document::parse_document): the same size, byte
/// order mark, UTF-8, strict JSON and forbidden-key steps as the generated validator, a typed
/// read that makes the calls serde's derive (and the generated hand-written `Deserialize`
/// impls) make, and then the same rule functions of `specmint_runtime::rules` that
/// `#[derive(Validate)]` calls. Codes, paths, messages and their order are therefore the
/// generated validator's; `tests/it/interpret.rs` in the root crate proves it on every case of
/// every bundled spec's corpus.
///
/// How it fits `parse_document`, which wants a `DeserializeOwned` type: the document is read
/// into a tree of values by an `Interpreted` value whose `Deserialize` finds the
/// compiled spec in a thread-local slot that [`Validator::validate`] fills for the duration of
/// the call.
///
/// Limits: violation codes and the names in paths are `&'static str` in the runtime, so the
/// spec's names are interned once per distinct string for the life of the process (a handful
/// of bytes per name, not per document). Inside a union's members, serde's derive reads from
/// its private buffered `Content`; the interpreter reads the same members from a
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

thread_local! {
    /// The spec the `Interpreted` being read belongs to, while [`Validator::validate_with`] runs.
    static CURRENT: RefCell<Option<Arc<Compiled>>> = const { RefCell::new(None) };
}

/// Empties [`CURRENT`] when dropped, so a panic in a read cannot leave a spec behind.
struct Current;

impl Current {
    fn set(compiled: &Arc<Compiled>) -> Current {
        CURRENT.with(|c| *c.borrow_mut() = Some(Arc::clone(compiled)));
        Current
    }
}

impl Drop for Current {
    fn drop(&mut self) {
        CURRENT.with(|c| *c.borrow_mut() = None);
    }
}

impl Validator {
    /// The validator of `spec` (a model [`load`](crate::load) checked).
    pub fn new(spec: &Spec) -> Validator {
        Validator {
            compiled: Arc::new(Compiled::new(spec)),
        }
    }

    /// How documents of this spec are read: the `DOCUMENT` constant the generated Rust
    /// would hold.
    pub fn document(&self) -> &DocumentSpec {
        &self.compiled.document
    }

    /// Parses and validates one document; on success its canonical compact JSON (what the
    /// generated root type's `to_canonical_json` writes). `Err` carries every violation.
    pub fn validate(&self, input: &[u8]) -> Result<String, Report> {
        self.validate_with(input, &self.compiled.document)
    }

    /// [`Validator::validate`] under another [`DocumentSpec`] (another input size limit,
    /// say: `validator.document().with_max_input_bytes(n)`).
    pub fn validate_with(&self, input: &[u8], document: &DocumentSpec) -> Result<String, Report> {
        let _current = Current::set(&self.compiled);
        let value = parse_document::<read::Interpreted>(input, document)?;
        Ok(to_canonical_json(&value))
    }

    /// Whether [`Validator::validate_with`] accepts `input`: its verdict, without the canonical
    /// JSON of an accepted document or the report of a refused one (see
    /// [`accepted_document`]).
    pub fn accepts_with(&self, input: &[u8], document: &DocumentSpec) -> bool {
        let _current = Current::set(&self.compiled);
        accepted_document::<read::Interpreted>(input, document, StreamedData::new()).is_some()
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
            let Some(message) = specmint_runtime::__private::example_mismatch(&report, &expected)
            else {
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
