//! Spec evolution: what an edit of a spec breaks, for whom, proved with a document.
//!
//! [`diff`] loads and checks both sides as [`generate`] does, compares the
//! two checked models (never the text: a prose-only edit is no change), and reports every
//! difference as a [`Change`] with a stable rule id (docs/diff.md lists them all), the
//! [`Break`] categories it breaks and where it is in both files.
//!
//! Every `documents` or `readers` break is then *proved*: the witness search looks through both sides'
//! generated corpora, and documents synthesized from them by mutating the changed member,
//! for one document whose verdicts flip, judged by both models' interpreters
//! ([`Validator`](crate::Validator), the validator `specmint validate --spec` runs). A break
//! without such a document is reported with `witness: null` and the reason, never dropped.
//!
//! Limits: the witness search is a search, not a decision procedure. For an edit whose
//! direction the model does not tell (a pattern or a type changed), the categories are the
//! directions a witness was found for; when none is found both are claimed, unproved.

mod compare;
mod locate;
mod report;
mod witness;

use std::fmt;

use crate::diag::Diagnostics;
use crate::emit::Options;
use crate::loader::SpecSource;
use crate::model::Spec;
use crate::pipeline::{generate, load};

pub use report::Format;

/// Who a change breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Break {
    /// A document the old spec accepts is refused by the new (readers upgraded first refuse
    /// what is stored or in flight).
    Documents,
    /// A document the new spec accepts is refused by the old (writers upgraded first are
    /// refused by old validators).
    Readers,
    /// Code written against the old generated Rust no longer compiles.
    RustApi,
    /// A consumer matching error codes sees other codes for the same violation.
    Codes,
    /// A state or a transition removed or made final: stored objects are stranded.
    Machines,
}

impl Break {
    /// Every category, in the order they are printed.
    pub const ALL: [Break; 5] = [
        Break::Documents,
        Break::Readers,
        Break::RustApi,
        Break::Codes,
        Break::Machines,
    ];

    /// The category as `--fail-on` spells it (`rust-api`).
    pub fn as_str(self) -> &'static str {
        match self {
            Break::Documents => "documents",
            Break::Readers => "readers",
            Break::RustApi => "rust-api",
            Break::Codes => "codes",
            Break::Machines => "machines",
        }
    }

    /// The category `s` spells, if any.
    pub fn parse(s: &str) -> Option<Break> {
        Break::ALL.into_iter().find(|b| b.as_str() == s)
    }

    /// Whether a witness document can prove it (`documents`, `readers`).
    pub fn needs_witness(self) -> bool {
        matches!(self, Break::Documents | Break::Readers)
    }
}

impl fmt::Display for Break {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a change is in one side's files: `file:line:col` (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file as displayed (`spec/orders.md`, `HEAD~1:spec/orders.md`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in chars.
    pub col: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// What one side's validator says of a document: valid, or its `(code, path)` violations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The `(code, path)` of every violation, in report order; empty when valid.
    pub errors: Vec<(String, String)>,
}

impl Verdict {
    /// Whether the document is accepted.
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }
}

/// A document one version accepts and the other refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    /// The break it proves ([`Break::Documents`]: the old accepts it; [`Break::Readers`]: the
    /// new does).
    pub proves: Break,
    /// The exact document text both validators judged.
    pub document: String,
    /// Where it came from (`corpus of the old spec: case max_chars.title.n`, `synthesized`).
    pub source: String,
    /// The old spec's verdict.
    pub old: Verdict,
    /// The new spec's verdict.
    pub new: Verdict,
}

/// The proof of one `documents`/`readers` break: a witness, or why none was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Proof {
    /// A document whose verdicts flip.
    Found(Witness),
    /// No document found; the reason.
    Missing {
        /// The break left unproved.
        proves: Break,
        /// Why.
        reason: String,
    },
}

impl Proof {
    /// The break this proves (or fails to).
    pub fn proves(&self) -> Break {
        match self {
            Proof::Found(w) => w.proves,
            Proof::Missing { proves, .. } => *proves,
        }
    }
}

/// One difference of the two models.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The stable rule id (`cap-tightened`): docs/diff.md lists every one.
    pub id: &'static str,
    /// Who it breaks, sorted; empty for a compatible change.
    pub breaks: Vec<Break>,
    /// What changed, in words.
    pub message: String,
    /// Where it is in the old spec.
    pub old: Location,
    /// Where it is in the new spec.
    pub new: Location,
    /// One proof per `documents`/`readers` break, in [`Change::breaks`] order; for one
    /// rule's code changed (`error-code-changed`), a `codes` witness too when a corpus case
    /// shows it (refused with the old code by the old spec, the new code by the new).
    pub proofs: Vec<Proof>,
}

impl Change {
    /// The first witness found, if any.
    pub fn witness(&self) -> Option<&Witness> {
        self.proofs.iter().find_map(|p| match p {
            Proof::Found(w) => Some(w),
            Proof::Missing { .. } => None,
        })
    }
}

/// Every change between two spec directories.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpecDiff {
    /// The changes, by spec then in the order the spec lists what changed.
    pub changes: Vec<Change>,
}

impl SpecDiff {
    /// Whether a change breaks one of `selected`.
    pub fn breaks_any(&self, selected: &[Break]) -> bool {
        self.changes
            .iter()
            .any(|c| c.breaks.iter().any(|b| selected.contains(b)))
    }

    /// Whether any change breaks anyone.
    pub fn breaking(&self) -> bool {
        self.breaks_any(&Break::ALL)
    }

    /// The report in `format` (see [`Format`]).
    pub fn render(&self, format: Format) -> String {
        report::render(self, format)
    }
}

/// Which side of a diff did not load.
#[derive(Debug)]
pub struct SideError {
    /// `old` or `new`.
    pub side: &'static str,
    /// Its problems.
    pub diagnostics: Diagnostics,
}

impl fmt::Display for SideError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} spec does not load:\n{}",
            self.side, self.diagnostics
        )
    }
}

impl std::error::Error for SideError {}

/// One side, loaded: each spec's model, its source and its generated corpus documents.
struct Side<'a> {
    specs: Vec<Loaded<'a>>,
}

struct Loaded<'a> {
    spec: Spec,
    source: &'a SpecSource,
    /// `(case id, document)` of the generated corpus.
    corpus: Vec<(String, String)>,
}

impl<'a> Side<'a> {
    fn load(sources: &'a [SpecSource], side: &'static str) -> Result<Side<'a>, SideError> {
        let fail = |diagnostics| SideError { side, diagnostics };
        // Checked as `generate` does: spec names, every spec, the options.
        let files = generate(sources, &Options::default()).map_err(fail)?;
        let mut specs = Vec::new();
        for source in sources {
            let spec = load(source).map_err(fail)?;
            let corpus = files
                .get(&format!("corpus/{}/cases.json", spec.name))
                .map(|text| corpus_documents(text))
                .unwrap_or_default();
            specs.push(Loaded {
                spec,
                source,
                corpus,
            });
        }
        Ok(Side { specs })
    }

    fn find(&self, name: &str) -> Option<&Loaded<'a>> {
        self.specs.iter().find(|l| l.spec.name == name)
    }
}

/// The `(id, compact document)` of every case of a `cases.json` (its exact `text` when it has
/// one: a decimal's spelling).
fn corpus_documents(text: &str) -> Vec<(String, String)> {
    let Ok(corpus) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    corpus["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|case| {
            (
                case["id"].as_str().unwrap_or_default().to_owned(),
                case["text"].as_str().map_or_else(
                    || specmint_runtime::json_text::compact(&case["document"]),
                    str::to_owned,
                ),
            )
        })
        .collect()
}

/// Compares two spec directories (as [`read_spec_dir`](crate::read_spec_dir) reads them):
/// both sides loaded and checked as [`generate`] does, every difference
/// of the models a [`Change`], every `documents`/`readers` break proved or said unproved.
pub fn diff(old: &[SpecSource], new: &[SpecSource]) -> Result<SpecDiff, SideError> {
    let old_side = Side::load(old, "old")?;
    let new_side = Side::load(new, "new")?;
    let mut changes = Vec::new();
    let mut names: Vec<&str> = old_side
        .specs
        .iter()
        .chain(&new_side.specs)
        .map(|l| l.spec.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        match (old_side.find(name), new_side.find(name)) {
            (Some(o), Some(n)) => {
                for found in compare::compare(&o.spec, &n.spec) {
                    changes.push(witness::prove(found, o, n));
                }
            }
            (Some(o), None) => changes.push(Change {
                id: "spec-removed",
                breaks: vec![Break::RustApi],
                message: format!("spec `{name}` removed: its module and types are gone"),
                old: locate::start(o.source.md_path.clone()),
                new: locate::start("(none)".to_owned()),
                proofs: Vec::new(),
            }),
            (None, Some(n)) => changes.push(Change {
                id: "spec-added",
                breaks: Vec::new(),
                message: format!("spec `{name}` added"),
                old: locate::start("(none)".to_owned()),
                new: locate::start(n.source.md_path.clone()),
                proofs: Vec::new(),
            }),
            (None, None) => unreachable!("the name came from a side"),
        }
    }
    Ok(SpecDiff { changes })
}
