//! The composer's side of a handoff: read one leg's packets back, and render a packet for
//! the role that receives it, with `constraints` and `audience` under the never-trim headers.
//!
//! A leg is read by slot number (the canonical file, then `.01`, `.02`, …; the first missing
//! slot ends the scan). Every file is revalidated, including its identity against the leg,
//! because a filename proves nothing; one that fails is skipped with a `team_packet_skipped`
//! row in `security_audit.jsonl`. A leg with no valid packet fails the stage.

use std::ops::Range;
use std::path::Path;

use serde_json::json;

use super::audit::{self, SECURITY_AUDIT_LOG};
use super::leg::Leg;
use super::{PacketError, Role, TaskPacket};
use crate::Refusal;

/// The code of a leg that holds no valid packet: the stage fails.
pub const NO_VALID_PACKETS: &str = PacketError::NoValidPackets.code();

// The never-trim headers are the spec's text table, generated beside the packet's types.
pub use super::{
    SECTION_HEADER_AUDIENCE, SECTION_HEADER_AUDIENCE_ALSO, SECTION_HEADER_CONSTRAINTS,
    SECTION_HEADER_CONSTRAINTS_ALSO,
};

/// A section prompt compression must leave whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NeverTrim {
    /// `constraints`.
    Constraints,
    /// `audience`.
    Audience,
}

impl NeverTrim {
    /// Both sections, in the spec's order.
    pub const ALL: [NeverTrim; 2] = [NeverTrim::Constraints, NeverTrim::Audience];

    /// The header the composer writes.
    #[must_use]
    pub const fn header(self) -> &'static str {
        match self {
            NeverTrim::Constraints => SECTION_HEADER_CONSTRAINTS,
            NeverTrim::Audience => SECTION_HEADER_AUDIENCE,
        }
    }

    /// The other spelling also recognized as this section's header.
    #[must_use]
    pub const fn also_recognized(self) -> &'static str {
        match self {
            NeverTrim::Constraints => SECTION_HEADER_CONSTRAINTS_ALSO,
            NeverTrim::Audience => SECTION_HEADER_AUDIENCE_ALSO,
        }
    }

    /// The section `line` is the header of: an exact match after trimming whitespace, so a
    /// decorated variant (`## 約束（勿刪）`) protects nothing.
    #[must_use]
    pub fn of_header(line: &str) -> Option<NeverTrim> {
        let line = line.trim();
        NeverTrim::ALL
            .into_iter()
            .find(|s| line == s.header() || line == s.also_recognized())
    }
}

/// The byte ranges of `text` that are never-trim sections: each from its header line to the
/// next level-1 or level-2 heading (or the end).
#[must_use]
pub fn protected_ranges(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut open: Option<usize> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let heading = trimmed.starts_with("# ") || trimmed.starts_with("## ") || {
            let t = trimmed.trim_end();
            t == "#" || t == "##"
        };
        if heading {
            if let Some(start) = open.take() {
                ranges.push(start..at);
            }
            if NeverTrim::of_header(line).is_some() {
                open = Some(at);
            }
        }
        at += line.len();
    }
    if let Some(start) = open {
        ranges.push(start..text.len());
    }
    ranges
}

/// One packet of a leg, as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct LegPacket {
    /// Its file, relative to the home.
    pub path: String,
    /// The packet.
    pub packet: TaskPacket,
}

/// A file of a leg that was skipped, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Its file, relative to the home.
    pub path: String,
    /// The first violation's code, `leg_mismatch`, or `unreadable`.
    pub code: &'static str,
    /// What is wrong with it.
    pub message: String,
}

/// What a leg holds: its valid packets in slot order, and the files skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct LegReading {
    /// The valid packets.
    pub packets: Vec<LegPacket>,
    /// The malformed ones.
    pub skipped: Vec<Skipped>,
}

/// Reads the leg (task, round, from → to) under `home`.
///
/// # Errors
///
/// `invalid_path_component` when `task_id` or `round` cannot name a leg, and
/// [`NO_VALID_PACKETS`] when the leg holds no valid packet (its message lists what was
/// skipped).
pub fn read_leg(
    home: &Path,
    task_id: &str,
    round: u32,
    from: Role,
    to: Role,
) -> Result<LegReading, Refusal<PacketError>> {
    let leg = Leg::new(task_id, round, from, to).ok_or_else(|| {
        Refusal::new(
            PacketError::InvalidPathComponent,
            format!("task {task_id:?} round {round} cannot name a leg"),
        )
    })?;
    let mut reading = LegReading {
        packets: Vec::new(),
        skipped: Vec::new(),
    };
    for path in leg.files(home) {
        match read_one(home, &path, task_id, round, from, to) {
            Ok(packet) => reading.packets.push(LegPacket { path, packet }),
            Err((code, message)) => {
                let row = json!({
                    "timestamp": crate::clock::now_utc_millis(),
                    "event": "team_packet_skipped",
                    "details": { "path": path, "code": code, "message": message },
                });
                let _ = audit::append(home, SECURITY_AUDIT_LOG, &row);
                reading.skipped.push(Skipped {
                    path,
                    code,
                    message,
                });
            }
        }
    }
    if reading.packets.is_empty() {
        let skipped: Vec<String> = reading
            .skipped
            .iter()
            .map(|s| format!("{} ({})", s.path, s.code))
            .collect();
        return Err(Refusal::new(
            PacketError::NoValidPackets,
            format!(
                "the leg `{}/{}` holds no valid packet{}",
                leg.dir,
                leg.stem,
                if skipped.is_empty() {
                    String::new()
                } else {
                    format!("; skipped: {}", skipped.join(", "))
                }
            ),
        ));
    }
    Ok(reading)
}

fn read_one(
    home: &Path,
    path: &str,
    task_id: &str,
    round: u32,
    from: Role,
    to: Role,
) -> Result<TaskPacket, (&'static str, String)> {
    let bytes = crate::fsguard::read_regular(&home.join(path), super::leg::SLOT_MAX_BYTES as u64)
        .map_err(|e| ("unreadable", e.to_string()))?;
    let packet = TaskPacket::from_json_slice(&bytes).map_err(|report| {
        // The generated validator's codes are its `&'static str`s, borrowed.
        let code = report
            .iter()
            .next()
            .and_then(|v| v.code.as_static())
            .unwrap_or("invalid_packet");
        let messages: Vec<&str> = report.iter().map(|v| v.message.as_str()).collect();
        (code, messages.join("; "))
    })?;
    let claims = (
        packet.goal_id.as_str(),
        packet.round,
        packet.from_role,
        packet.to_role,
    );
    if claims != (task_id, round, from, to) {
        return Err((
            "leg_mismatch",
            format!(
                "the packet claims task {:?} round {} {} → {}, not this leg",
                claims.0, claims.1, claims.2, claims.3
            ),
        ));
    }
    Ok(packet)
}

/// The packet as Markdown for the receiving role. `constraints` and `audience` are always
/// present, under [`SECTION_HEADER_CONSTRAINTS`] and [`SECTION_HEADER_AUDIENCE`].
///
/// Every packet value goes through [`value_text`], so no value can start a heading: each
/// section runs exactly to the next header the composer wrote (spec/task_packet.md, "Reading
/// a leg").
#[must_use]
pub fn render_for_role(packet: &TaskPacket) -> String {
    let mut out = format!(
        "# TaskPacket `{}` ({} → {}, task `{}`, round {})\n\n**Objective:** {}\n\n**Output format:** {}\n",
        value_text(&packet.packet_id),
        packet.from_role,
        packet.to_role,
        value_text(&packet.goal_id),
        packet.round,
        value_text(&packet.objective),
        crate::runtime::document::to_canonical_json(&packet.output_format),
    );
    if let Some(parent) = &packet.parent_packet {
        out.push_str(&format!("\n**Answers packet:** `{}`\n", value_text(parent)));
    }
    // Before the never-trim sections, so that the last of them protects nothing else.
    out.push_str(&format!("\n**Fidelity:** {}\n", packet.fidelity));
    let irreversible = if packet.irreversible { "yes" } else { "no" };
    out.push_str(&format!("\n**Irreversible:** {irreversible}\n"));
    if let Some(baseline) = &packet.acceptance_baseline_ref {
        out.push_str(&format!(
            "\n**Acceptance baseline:** {}\n",
            value_text(baseline)
        ));
    }
    if let Some(budget) = budget_text(&packet.budget) {
        out.push_str(&format!("\n**Budget:** {budget}\n"));
    }
    let scope = &packet.tool_scope;
    if !scope.allowed.is_empty() || !scope.denied.is_empty() {
        let tools = |tools: &[String]| {
            if tools.is_empty() {
                "(none)".to_owned()
            } else {
                value_text(&tools.join(", "))
            }
        };
        out.push_str(&format!(
            "\n**Tool scope (the sender's expectation, not enforced):** allowed: {}; denied: {}\n",
            tools(&scope.allowed),
            tools(&scope.denied)
        ));
    }
    out.push_str(&format!("\n{SECTION_HEADER_CONSTRAINTS}\n\n"));
    if packet.constraints.is_empty() {
        out.push_str("(none)\n");
    }
    for c in &packet.constraints {
        out.push_str(&format!(
            "- `{}`: {}\n",
            value_text(&c.id),
            value_text(&c.text)
        ));
    }
    out.push_str(&format!("\n{SECTION_HEADER_AUDIENCE}\n\n"));
    if packet.audience.is_empty() {
        out.push_str("(none declared: the task's own audience applies)\n");
    }
    for a in &packet.audience {
        out.push_str(&format!("- {}\n", value_text(a)));
    }
    // The lists in the order of the spec's field table.
    let lists: [(&str, Vec<String>); 11] = [
        ("Boundaries", packet.boundaries.clone()),
        (
            "Acceptance",
            packet
                .acceptance
                .iter()
                .map(|a| format!("{}: {}", a.kind, a.value))
                .collect(),
        ),
        (
            "Artifacts",
            packet.artifacts.iter().map(artifact_text).collect(),
        ),
        ("Wiki refs", packet.wiki_refs.clone()),
        ("Memory refs", packet.memory_refs.clone()),
        ("State keys", packet.state_keys.clone()),
        ("Evidence index", packet.evidence_index.clone()),
        (
            "Findings",
            packet
                .findings
                .iter()
                .map(|f| format!("{} (evidence: {})", f.text, f.evidence.join(", ")))
                .collect(),
        ),
        ("Open questions", packet.open_questions.clone()),
        ("Blockers", packet.blockers.clone()),
        ("Next steps", packet.next_steps.clone()),
    ];
    for (title, items) in lists.iter().filter(|(_, items)| !items.is_empty()) {
        out.push_str(&format!("\n## {title}\n\n"));
        for item in items {
            out.push_str(&format!("- {}\n", value_text(item)));
        }
    }
    out
}

/// An artifact as its list item: the id, then where it lives and its digest when known.
fn artifact_text(artifact: &super::Artifact) -> String {
    let known: Vec<String> = [("path", &artifact.path), ("sha256", &artifact.sha256)]
        .into_iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name}: {v}")))
        .collect();
    if known.is_empty() {
        artifact.id.clone()
    } else {
        format!("{} ({})", artifact.id, known.join(", "))
    }
}

/// The budget's set limits, and what applies for the unset ones; `None` when none is set.
fn budget_text(budget: &super::Budget) -> Option<String> {
    let limits = [
        ("max_turns", budget.max_turns.map(|n| n.to_string())),
        ("max_tokens", budget.max_tokens.map(|n| n.to_string())),
        (
            "wall_clock_secs",
            budget.wall_clock_secs.map(|n| n.to_string()),
        ),
        ("max_cost_usd", budget.max_cost_usd.map(|n| n.to_string())),
    ];
    let set: Vec<String> = limits
        .iter()
        .filter_map(|(name, value)| value.as_ref().map(|v| format!("{name} {v}")))
        .collect();
    if set.is_empty() {
        return None;
    }
    let unset = if set.len() < limits.len() {
        "; the unset limits are the dispatcher's own"
    } else {
        ""
    };
    Some(format!("{}{unset}", set.join(", ")))
}

/// The indentation of a value's continuation lines: four spaces, so that at the top level a
/// continuation line can open no block (a fence, an HTML block, a setext underline) and in a
/// list item it stays inside the item.
const CONTINUATION: &str = "    ";

/// A packet value as the rendering writes it, after its label or list marker: each line break
/// (LF, CR LF or a lone CR) continues the value on a line indented four spaces, and
/// every line whose first non-blank character is `#`, or that holds only `=` or only `-`
/// (and blanks), gets a backslash before that character, which Markdown shows as the
/// character itself. So no value can start a heading, ATX or setext, at any depth.
#[must_use]
pub fn value_text(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let normalized = value.replace("\r\n", "\n").replace('\r', "\n");
    for (i, line) in normalized.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            out.push_str(CONTINUATION);
        }
        let body = line.trim_start();
        let blanks = &line[..line.len() - body.len()];
        let underline =
            |c: char| body.contains(c) && body.chars().all(|x| x == c || x.is_whitespace());
        if body.starts_with('#') || underline('=') || underline('-') {
            out.push_str(blanks);
            out.push('\\');
            out.push_str(body);
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_exact_headers_are_protected() {
        assert_eq!(
            NeverTrim::of_header("## 約束"),
            Some(NeverTrim::Constraints)
        );
        assert_eq!(
            NeverTrim::of_header("  ## Audience \t"),
            Some(NeverTrim::Audience)
        );
        assert_eq!(NeverTrim::of_header("## 約束（勿刪）"), None);
        assert_eq!(NeverTrim::of_header("### 約束"), None);
        assert_eq!(NeverTrim::of_header("## constraints"), None);
    }

    #[test]
    fn a_section_runs_to_the_next_level_one_or_two_heading() {
        let text = "# T\n## 約束\n- a\n### sub\n- b\n## Other\nx\n## Audience\n- v\n";
        let ranges = protected_ranges(text);
        assert_eq!(ranges.len(), 2);
        assert_eq!(&text[ranges[0].clone()], "## 約束\n- a\n### sub\n- b\n");
        assert_eq!(&text[ranges[1].clone()], "## Audience\n- v\n");
        assert!(protected_ranges("## 約束（勿刪）\n- a\n").is_empty());
    }
}
