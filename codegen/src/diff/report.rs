//! The three renderings of a [`SpecDiff`]: human lines, JSON, GitHub workflow annotations.

use serde_json::{json, Value};

use super::{Change, Proof, SpecDiff, Verdict};

/// How [`SpecDiff::render`] writes the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One line per change (`old.md:L:C → new.md:L:C: id [breaks]: message`), then its
    /// witness, shortened.
    Human,
    /// `{"breaking": bool, "changes": [{"id", "breaks", "message", "old", "new", "witness",
    /// "witnesses"}]}`.
    Json,
    /// GitHub workflow commands: `::error` for a breaking change, `::notice` otherwise.
    Github,
}

pub(super) fn render(diff: &SpecDiff, format: Format) -> String {
    match format {
        Format::Human => human(diff),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&to_json(diff)).expect("a Value serializes");
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

fn verdict_json(v: &Verdict) -> Value {
    json!({
        "valid": v.valid(),
        "errors": v.errors.iter().map(|(code, path)| json!({"code": code, "path": path})).collect::<Vec<_>>(),
    })
}

fn proof_json(p: &Proof) -> Value {
    match p {
        Proof::Found(w) => {
            // The document as JSON when it is JSON as written; else its exact text.
            let document = serde_json::from_str::<Value>(&w.document)
                .ok()
                .filter(|v| serde_json::to_string(v).ok().as_deref() == Some(w.document.as_str()))
                .unwrap_or_else(|| json!(w.document));
            json!({
                "proves": w.proves.as_str(),
                "document": document,
                "source": w.source,
                "old": verdict_json(&w.old),
                "new": verdict_json(&w.new),
            })
        }
        Proof::Missing { proves, reason } => {
            json!({"proves": proves.as_str(), "document": null, "reason": reason})
        }
    }
}

/// The JSON report.
pub(super) fn to_json(diff: &SpecDiff) -> Value {
    let changes: Vec<Value> = diff
        .changes
        .iter()
        .map(|c| {
            let witness = c
                .proofs
                .iter()
                .find(|p| matches!(p, Proof::Found(_)))
                .or(c.proofs.first())
                .map_or(Value::Null, |p| match p {
                    Proof::Found(_) => proof_json(p),
                    Proof::Missing { .. } => Value::Null,
                });
            let reason = match c.proofs.first() {
                Some(Proof::Missing { reason, .. }) if witness.is_null() => json!(reason),
                _ => Value::Null,
            };
            let mut m = json!({
                "id": c.id,
                "breaks": c.breaks.iter().map(|b| b.as_str()).collect::<Vec<_>>(),
                "message": c.message,
                "old": c.old.to_string(),
                "new": c.new.to_string(),
                "witness": witness,
                "witnesses": c.proofs.iter().map(proof_json).collect::<Vec<_>>(),
            });
            if !reason.is_null() {
                m["witness_missing"] = reason;
            }
            m
        })
        .collect();
    json!({"breaking": diff.breaking(), "changes": changes})
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
