//! The three renderings of a [`SpecDiff`]: human lines, JSON, GitHub workflow annotations.

use serde::Serialize;
use serde_json::Value;

use super::{Change, Proof, SpecDiff, Verdict};

/// How [`SpecDiff::render`] writes the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One line per change (`old.md:L:C → new.md:L:C: id [breaks]: message`), then its
    /// witness, shortened.
    Human,
    /// `{"breaking": bool, "changes": [{"id", "breaks", "message", "old", "new", "witness",
    /// "witness_missing"?, "witnesses"}]}`.
    Json,
    /// GitHub workflow commands: `::error` for a breaking change, `::notice` otherwise.
    Github,
}

pub(super) fn render(diff: &SpecDiff, format: Format) -> String {
    match format {
        Format::Human => human(diff),
        Format::Json => {
            let mut s =
                serde_json::to_string_pretty(&to_json(diff)).expect("the report serializes");
            s.push('\n');
            s
        }
        Format::Github => github(diff),
    }
}

fn breaks_text(c: &Change) -> String {
    if c.breaks.is_empty() {
        "compatible".to_owned()
    } else {
        c.breaks
            .iter()
            .map(|b| b.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

fn verdict_text(v: &Verdict) -> String {
    if v.valid() {
        "valid".to_owned()
    } else {
        let errors: Vec<String> = v
            .errors
            .iter()
            .map(|(code, path)| {
                if path.is_empty() {
                    code.clone()
                } else {
                    format!("{code}@{path}")
                }
            })
            .collect();
        format!("invalid ({})", errors.join(", "))
    }
}

/// `text` cut to `max` chars, with an ellipsis; control characters escaped.
fn shortened(text: &str, max: usize) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| {
            // Control characters, and the invisible ones a terminal would not show.
            let hidden = c.is_control()
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}');
            let e: Vec<char> = if hidden {
                c.escape_unicode().collect()
            } else {
                vec![c]
            };
            e
        })
        .collect();
    if escaped.chars().count() <= max {
        escaped
    } else {
        escaped.chars().take(max).collect::<String>() + "…"
    }
}

fn human(diff: &SpecDiff) -> String {
    let mut out = String::new();
    if diff.changes.is_empty() {
        out.push_str("no change\n");
        return out;
    }
    for c in &diff.changes {
        out.push_str(&format!(
            "{} → {}: {} [{}]: {}\n",
            c.old,
            c.new,
            c.id,
            breaks_text(c),
            c.message
        ));
        for p in &c.proofs {
            match p {
                Proof::Found(w) => out.push_str(&format!(
                    "    {} witness {}: old {}, new {} ({})\n",
                    w.proves,
                    shortened(&w.document, 100),
                    verdict_text(&w.old),
                    verdict_text(&w.new),
                    w.source
                )),
                Proof::Missing { proves, reason } => {
                    out.push_str(&format!("    {proves} witness: none found: {reason}\n"))
                }
            }
        }
    }
    let breaking = diff.changes.iter().filter(|c| !c.breaks.is_empty()).count();
    out.push_str(&format!(
        "{} changes, {breaking} breaking\n",
        diff.changes.len()
    ));
    out
}

/// The JSON report, `{"breaking", "changes"}`: what `specmint diff --format json` prints.
/// Members are declared in alphabetical order, the order the report has always had.
#[derive(Serialize)]
pub(super) struct Report<'a> {
    breaking: bool,
    changes: Vec<ChangeAnswer<'a>>,
}

/// One change of the report.
#[derive(Serialize)]
struct ChangeAnswer<'a> {
    breaks: Vec<&'static str>,
    id: &'static str,
    message: &'a str,
    new: String,
    old: String,
    /// The first proof that found a document, else `null`.
    witness: Option<ProofAnswer<'a>>,
    /// Why the first break has no witness, when none was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    witness_missing: Option<&'a str>,
    witnesses: Vec<ProofAnswer<'a>>,
}

/// A proof: the witness document and both verdicts, or why none was found.
#[derive(Serialize)]
#[serde(untagged)]
enum ProofAnswer<'a> {
    Found {
        /// The document as JSON when it is JSON as written; else its exact text.
        document: Value,
        new: VerdictAnswer<'a>,
        old: VerdictAnswer<'a>,
        proves: &'static str,
        source: &'a str,
    },
    Missing {
        /// Always `null`.
        document: (),
        proves: &'static str,
        reason: &'a str,
    },
}

/// A spec's verdict on a witness.
#[derive(Serialize)]
struct VerdictAnswer<'a> {
    errors: Vec<CodeAt<'a>>,
    valid: bool,
}

/// One violation of a verdict.
#[derive(Serialize)]
struct CodeAt<'a> {
    code: &'a str,
    path: &'a str,
}

impl<'a> From<&'a Verdict> for VerdictAnswer<'a> {
    fn from(v: &'a Verdict) -> Self {
        VerdictAnswer {
            errors: v
                .errors
                .iter()
                .map(|(code, path)| CodeAt { code, path })
                .collect(),
            valid: v.valid(),
        }
    }
}

impl<'a> From<&'a Proof> for ProofAnswer<'a> {
    fn from(p: &'a Proof) -> Self {
        match p {
            Proof::Found(w) => ProofAnswer::Found {
                document: serde_json::from_str::<Value>(&w.document)
                    .ok()
                    .filter(|v| {
                        serde_json::to_string(v).ok().as_deref() == Some(w.document.as_str())
                    })
                    .unwrap_or_else(|| Value::String(w.document.clone())),
                new: (&w.new).into(),
                old: (&w.old).into(),
                proves: w.proves.as_str(),
                source: &w.source,
            },
            Proof::Missing { proves, reason } => ProofAnswer::Missing {
                document: (),
                proves: proves.as_str(),
                reason,
            },
        }
    }
}

/// The JSON report.
pub(super) fn to_json(diff: &SpecDiff) -> Report<'_> {
    let changes = diff
        .changes
        .iter()
        .map(|c| {
            let witness = c
                .proofs
                .iter()
                .find(|p| matches!(p, Proof::Found(_)))
                .map(ProofAnswer::from);
            let witness_missing = match c.proofs.first() {
                Some(Proof::Missing { reason, .. }) if witness.is_none() => Some(reason.as_str()),
                _ => None,
            };
            ChangeAnswer {
                breaks: c.breaks.iter().map(|b| b.as_str()).collect(),
                id: c.id,
                message: &c.message,
                new: c.new.to_string(),
                old: c.old.to_string(),
                witness,
                witness_missing,
                witnesses: c.proofs.iter().map(ProofAnswer::from).collect(),
            }
        })
        .collect();
    Report {
        breaking: diff.breaking(),
        changes,
    }
}

/// A workflow command's property or message, escaped as GitHub's toolkit does.
fn escape(s: &str, property: bool) -> String {
    let mut out = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

fn github(diff: &SpecDiff) -> String {
    let mut out = String::new();
    for c in &diff.changes {
        let level = if c.breaks.is_empty() {
            "notice"
        } else {
            "error"
        };
        let mut message = format!(
            "{} [{}]: {} (was {})",
            c.id,
            breaks_text(c),
            c.message,
            c.old
        );
        for p in &c.proofs {
            match p {
                Proof::Found(w) => message.push_str(&format!(
                    "\n{} witness: {} — old {}, new {}",
                    w.proves,
                    shortened(&w.document, 200),
                    verdict_text(&w.old),
                    verdict_text(&w.new)
                )),
                Proof::Missing { proves, reason } => {
                    message.push_str(&format!("\n{proves} witness: none found: {reason}"))
                }
            }
        }
        out.push_str(&format!(
            "::{level} file={},line={},col={},title={}::{}\n",
            escape(&c.new.file, true),
            c.new.line,
            c.new.col,
            escape(&format!("specmint diff: {}", c.id), true),
            escape(&message, false)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Break, Location, Witness};
    use super::*;

    fn at(file: &str, line: usize) -> Location {
        Location {
            file: file.to_owned(),
            line,
            col: 3,
        }
    }

    /// The JSON report's shape, member for member, with a witness found (a JSON document and a
    /// document that is not JSON as written), and with none found (`witness` null and
    /// `witness_missing` the reason).
    #[test]
    fn the_json_report_is_written_member_for_member() {
        let verdict = |errors: &[(&str, &str)]| Verdict {
            errors: errors
                .iter()
                .map(|(c, p)| ((*c).to_owned(), (*p).to_owned()))
                .collect(),
        };
        let found = |document: &str| {
            Proof::Found(Witness {
                proves: Break::Documents,
                document: document.to_owned(),
                source: "synthesized".to_owned(),
                old: verdict(&[]),
                new: verdict(&[("field_too_long", "title")]),
            })
        };
        let diff = SpecDiff {
            changes: vec![
                Change {
                    id: "cap-tightened",
                    breaks: vec![Break::Documents],
                    message: "`title` 10 → 5 chars".to_owned(),
                    old: at("a.md", 4),
                    new: at("b.md", 5),
                    proofs: vec![found(r#"{"title":"abcdef"}"#), found(r#"{ "title" : 1 }"#)],
                },
                Change {
                    id: "value-added",
                    breaks: vec![Break::Readers],
                    message: "`kind` gains `z`".to_owned(),
                    old: at("a.md", 7),
                    new: at("b.md", 8),
                    proofs: vec![Proof::Missing {
                        proves: Break::Readers,
                        reason: "none found".to_owned(),
                    }],
                },
            ],
        };
        let witness = r#"{"document":{"title":"abcdef"},"new":{"errors":[{"code":"field_too_long","path":"title"}],"valid":false},"old":{"errors":[],"valid":true},"proves":"documents","source":"synthesized"}"#;
        let as_text = r#"{"document":"{ \"title\" : 1 }","new":{"errors":[{"code":"field_too_long","path":"title"}],"valid":false},"old":{"errors":[],"valid":true},"proves":"documents","source":"synthesized"}"#;
        let expected = format!(
            concat!(
                r#"{{"breaking":true,"changes":["#,
                r#"{{"breaks":["documents"],"id":"cap-tightened","message":"`title` 10 → 5 chars","new":"b.md:5:3","old":"a.md:4:3","witness":{w},"witnesses":[{w},{t}]}},"#,
                r#"{{"breaks":["readers"],"id":"value-added","message":"`kind` gains `z`","new":"b.md:8:3","old":"a.md:7:3","witness":null,"witness_missing":"none found","witnesses":[{{"document":null,"proves":"readers","reason":"none found"}}]}}"#,
                r#"]}}"#
            ),
            w = witness,
            t = as_text
        );
        assert_eq!(serde_json::to_string(&to_json(&diff)).unwrap(), expected);
        assert!(render(&diff, Format::Json).ends_with("}\n"));
    }
}
