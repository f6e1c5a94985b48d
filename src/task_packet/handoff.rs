//! `team_handoff`: the one door a packet moves through (spec/task_packet.md, "Handoff tool").
//!
//! [`team_handoff`] files a packet under a home directory for the agent the process runs as:
//! it resolves the caller's team record, fills the identity keys the caller left out,
//! cross-checks the ones it wrote, validates the packet with the generated validator (refused
//! whole, never truncated), and writes it atomically into its leg (see [`super::leg`]). Every
//! refusal carries a code of the spec's error table ([`PacketError`]) and is logged to
//! `tool_calls.jsonl`; a filing is logged to `artifacts.jsonl` and `security_audit.jsonl`.
//! The CLI (`specmint handoff`) and the MCP server (`specmint mcp`) are thin layers over it.

use crate::runtime::messages::Catalog;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use serde_json::{json, Map, Value};

use super::audit::{self, ARTIFACTS_LOG, DETAIL_MAX_CHARS, SECURITY_AUDIT_LOG, TOOL_CALLS_LOG};
use super::leg::{is_path_component, Leg, PACKET_ROUND_MAX};
use super::{PacketError, Role, Stage, TaskPacket, DOCUMENT, JSON_SCHEMA, MINIMAL_PACKET_EXAMPLE};
use crate::runtime::document::{
    parse_document_str, serde_line_column, serde_offset, split_serde_position,
};
use crate::Refusal;

/// The tool's name, as MCP clients call it and the logs record it.
pub const TOOL_NAME: &str = "team_handoff";

/// The keys filled from the caller's record when the packet leaves them out.
pub const FILLED_KEYS: [&str; 4] = ["goal_id", "round", "from_role", "to_role"];

/// A filed packet: the tool's result `{"ok": true, "path", "bytes"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filed {
    /// Where the packet was written, relative to the home, `/`-separated.
    pub path: String,
    /// The size of the file: the packet's canonical compact JSON.
    pub bytes: usize,
}

/// Files one packet for `agent` under `home`.
///
/// `packet` is the JSON text of the tool's `packet` argument: an object, or a JSON string
/// holding one; `None` when the argument is absent. Refusals are logged to
/// `<home>/tool_calls.jsonl` and write nothing else.
///
/// # Errors
///
/// The [`Refusal`] with the spec's code, checks in the spec's order: agent id, argument,
/// identity, shape and validation, `from_role`, `goal_id`, `round`, the edge, the path, the
/// write.
pub fn team_handoff(
    home: &Path,
    agent: &str,
    packet: Option<&str>,
) -> Result<Filed, Refusal<PacketError>> {
    team_handoff_bytes(home, agent, packet.map(str::as_bytes))
}

/// [`team_handoff`] on the argument's raw bytes, as a file or stdin delivers them: bytes that
/// are not UTF-8 are refused with `invalid_packet` (the document reader's message, naming the
/// offset), checked where the shape is, and logged like every refusal.
///
/// # Errors
///
/// As [`team_handoff`].
pub fn team_handoff_bytes(
    home: &Path,
    agent: &str,
    packet: Option<&[u8]>,
) -> Result<Filed, Refusal<PacketError>> {
    team_handoff_head(home, agent, packet.map(|p| (p, p.len() as u64)))
}

/// [`team_handoff_bytes`] on an argument read with [`crate::verdict::read_head`]: its first
/// bytes (at most one past the packet's size limit) and its length as counted, so an argument
/// over the limit (endless input included) is refused by its size without being held whole.
///
/// # Errors
///
/// As [`team_handoff`].
pub fn team_handoff_head(
    home: &Path,
    agent: &str,
    packet: Option<(&[u8], u64)>,
) -> Result<Filed, Refusal<PacketError>> {
    team_handoff_head_in(home, agent, packet, None)
}

/// [`team_handoff`] whose refusal of an invalid packet says each violation in the language of
/// `messages` (TaskPacket's locale, [`crate::verdict::DocType::catalog`]); the code, and every
/// other refusal, as [`team_handoff`] says them.
///
/// # Errors
///
/// As [`team_handoff`].
pub fn team_handoff_in(
    home: &Path,
    agent: &str,
    packet: Option<&str>,
    messages: Option<&Catalog>,
) -> Result<Filed, Refusal<PacketError>> {
    team_handoff_head_in(
        home,
        agent,
        packet.map(|p| (p.as_bytes(), p.len() as u64)),
        messages,
    )
}

fn team_handoff_head_in(
    home: &Path,
    agent: &str,
    packet: Option<(&[u8], u64)>,
    messages: Option<&Catalog>,
) -> Result<Filed, Refusal<PacketError>> {
    let result = file(home, agent, packet, messages);
    if let Err(refusal) = &result {
        let row = json!({
            "timestamp": crate::clock::now_utc_millis(),
            "agent_id": agent,
            "tool": TOOL_NAME,
            "outcome": "refused",
            "error_class": refusal.code.code(),
            "params": { "detail": audit::truncate_chars(&refusal.to_string(), DETAIL_MAX_CHARS) },
        });
        let _ = audit::append(home, TOOL_CALLS_LOG, &row);
    }
    result
}

fn file(
    home: &Path,
    agent: &str,
    packet: Option<(&[u8], u64)>,
    messages: Option<&Catalog>,
) -> Result<Filed, Refusal<PacketError>> {
    if !is_path_component(agent) {
        return Err(Refusal::new(
            PacketError::InvalidAgentId,
            format!(
                "the caller identity {agent:?} is not an agent id (1–64 bytes of [A-Za-z0-9_-])"
            ),
        ));
    }
    let Some((argument, total)) = packet else {
        return Err(Refusal::new(
            PacketError::MissingPacket,
            format!("the `packet` argument is required{}", shape_hint()),
        ));
    };
    let member = Member::read(home, agent)?;
    // Measured as sent, before anything is filled in.
    crate::verdict::check_total(total, &DOCUMENT)
        .map_err(|report| validation_refusal(&report, messages))?;
    let Ok(argument) = std::str::from_utf8(argument) else {
        // The packet reader says why, with the offset, as `validate` does.
        let report = TaskPacket::from_json_slice(argument)
            .err()
            .unwrap_or_default();
        return Err(validation_refusal(&report, messages));
    };
    let text = packet_text(argument)?;
    let packet = match fill(&text, &member)? {
        None => TaskPacket::from_json_str(&text),
        // The caller's input was measured above; the keys added to it are not the caller's.
        Some(filled) => parse_document_str::<TaskPacket>(
            &filled.text,
            &DOCUMENT.with_max_input_bytes(usize::MAX),
        )
        .map_err(|report| filled.positions_as_sent(report)),
    }
    .map_err(|report| validation_refusal(&report, messages))?;
    member.cross_check(&packet)?;
    let legal = stage(packet.from_role)
        .zip(stage(packet.to_role))
        .is_some_and(|(from, to)| from.can_transition(to));
    if !legal {
        return Err(Refusal::new(
            PacketError::InvalidHandoffEdge,
            format!(
                "`{}` → `{}` is not a stage transition (legal: {})",
                packet.from_role,
                packet.to_role,
                legal_edges()
            ),
        ));
    }
    let leg = Leg::new(
        &packet.goal_id,
        packet.round,
        packet.from_role,
        packet.to_role,
    )
    .ok_or_else(|| path_refusal(&packet))?;
    let bytes = packet.to_canonical_json();
    // A filing is audit-logged: both logs are opened for appending before the packet is
    // written, so one that cannot be appended refuses with nothing filed.
    let open = |log: &str| {
        audit::Log::open(home, log).map_err(|e| {
            Refusal::new(
                PacketError::WriteFailed,
                format!("the audit log `{log}` cannot be appended ({e}), so nothing was filed"),
            )
        })
    };
    let artifacts = open(ARTIFACTS_LOG)?;
    let security = match open(SECURITY_AUDIT_LOG) {
        Ok(log) => log,
        Err(refusal) => {
            artifacts.discard();
            return Err(refusal);
        }
    };
    let path = match leg.file(home, &packet.packet_id, bytes.as_bytes()) {
        Ok(path) => path,
        Err(e) => {
            artifacts.discard();
            security.discard();
            return Err(Refusal::new(
                PacketError::WriteFailed,
                format!("could not file the packet in `{}`: {e}", leg.dir),
            ));
        }
    };
    let logs = (artifacts, security);
    let filed = Filed {
        path,
        bytes: bytes.len(),
    };
    log_filing(logs, agent, &packet, &filed).map_err(|e| {
        Refusal::new(
            PacketError::WriteFailed,
            format!(
                "the packet was filed at `{}` but its audit row could not be written: {e}",
                filed.path
            ),
        )
    })?;
    Ok(filed)
}

/// The packet's JSON text: the argument itself, or the text a JSON string argument holds.
fn packet_text(argument: &str) -> Result<String, Refusal<PacketError>> {
    if !argument.trim_start().starts_with('"') {
        return Ok(argument.to_owned());
    }
    serde_json::from_str::<String>(argument)
        .map_err(|e| Refusal::new(PacketError::InvalidPacket, format!("{e}{}", shape_hint())))
}

/// The caller's text with the identity keys it lacks written in from the record.
struct Filled {
    /// The text parsed.
    text: String,
    /// Where the keys were written: the byte offset of the caller's closing brace.
    at: usize,
    /// How many bytes were written there.
    added: usize,
}

impl Filled {
    /// `report` with each of serde's ` at line L column C` moved back into the caller's
    /// text: a position past the added keys moves back over them, one inside them is the
    /// caller's closing brace (where a missing key is reported).
    fn positions_as_sent(&self, report: crate::Report) -> crate::Report {
        let caller = format!(
            "{}{}",
            &self.text[..self.at],
            &self.text[self.at + self.added..]
        );
        let mut violations = report.into_vec();
        for violation in &mut violations {
            let Some((head, (line, column))) = split_serde_position(&violation.message) else {
                continue;
            };
            let Some(offset) = serde_offset(&self.text, (line, column)) else {
                continue;
            };
            let sent = if offset <= self.at {
                continue;
            } else if offset <= self.at + self.added {
                self.at
            } else {
                offset - self.added
            };
            let (line, column) = serde_line_column(&caller, sent);
            violation.message = format!("{head} at line {line} column {column}");
        }
        crate::Report::from_violations(violations)
    }
}

/// The text with the identity keys it lacks written from the record before its closing brace,
/// or `None` when nothing is missing (or the text is not an object, which the typed parse then
/// reports). Written into the caller's own text, so the strict reading (duplicate keys,
/// integer tokens) applies to what the caller sent, and serde's positions are moved back
/// into it ([`Filled::positions_as_sent`]).
///
/// # Errors
///
/// `invalid_handoff_edge` when `to_role` is missing and the caller's role occupies no stage
/// (`utility`): no edge leaves it, so there is nothing to fill.
fn fill(text: &str, member: &Member) -> Result<Option<Filled>, Refusal<PacketError>> {
    let Ok(object) = serde_json::from_str::<Map<String, Value>>(text) else {
        return Ok(None);
    };
    let Some(from) = stage(member.role) else {
        if !object.contains_key("to_role") {
            return Err(Refusal::new(
                PacketError::InvalidHandoffEdge,
                format!(
                    "`{}` occupies no stage, so every edge touching it is refused: there is no `to_role` to fill (legal: {})",
                    member.role,
                    legal_edges()
                ),
            ));
        }
        return Ok(fill_keys(text, &object, member, None));
    };
    let to_role = Stage::TRANSITIONS
        .iter()
        .find(|(f, _)| *f == from)
        .map(|(_, to)| to.as_str());
    Ok(fill_keys(text, &object, member, to_role))
}

fn fill_keys(
    text: &str,
    object: &Map<String, Value>,
    member: &Member,
    to_role: Option<&str>,
) -> Option<Filled> {
    let values = [
        member.task_id.as_deref().map(Value::from),
        member.round.map(Value::from),
        Some(Value::from(member.role.as_str())),
        to_role.map(Value::from),
    ];
    let mut added = String::new();
    for (key, value) in FILLED_KEYS.iter().zip(values) {
        if let (false, Some(value)) = (object.contains_key(*key), value) {
            if !object.is_empty() || !added.is_empty() {
                added.push(',');
            }
            added.push_str(&format!("{}:{value}", Value::from(*key)));
        }
    }
    if added.is_empty() {
        return None;
    }
    let at = text.rfind('}')?;
    Some(Filled {
        text: format!("{}{added}{}", &text[..at], &text[at..]),
        at,
        added: added.len(),
    })
}

/// The three stage transitions, `planner → executor, ...`.
fn legal_edges() -> String {
    Stage::TRANSITIONS
        .iter()
        .map(|(from, to)| format!("{from} → {to}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stage a role occupies; `utility` occupies none.
fn stage(role: Role) -> Option<Stage> {
    Stage::ALL
        .iter()
        .copied()
        .find(|s| s.as_str() == role.as_str())
}

fn validation_refusal(report: &crate::Report, locale: Option<&Catalog>) -> Refusal<PacketError> {
    let first = report
        .iter()
        .next()
        .and_then(|v| PacketError::from_code(&v.code))
        .unwrap_or(PacketError::InvalidPacket);
    let messages: Vec<String> = report
        .iter()
        .map(|v| {
            locale
                .and_then(|c| c.message(v))
                .unwrap_or_else(|| v.message.clone())
        })
        .collect();
    let mut message = messages.join("; ");
    if first == PacketError::InvalidPacket {
        message.push_str(&shape_hint_in(locale.map(Catalog::tag)));
    }
    Refusal::new(first, message)
}

fn path_refusal(packet: &TaskPacket) -> Refusal<PacketError> {
    let message = if packet.round > PACKET_ROUND_MAX {
        format!("`round` {} is over {PACKET_ROUND_MAX}", packet.round)
    } else {
        format!(
            "`goal_id` {:?} is not usable as a path component (1–64 bytes of [A-Za-z0-9_-])",
            packet.goal_id
        )
    };
    Refusal::new(PacketError::InvalidPathComponent, message)
}

/// What to send instead, appended to every shape refusal: the minimal packet and the optional
/// keys, both from the spec (the `const=` example and the emitted schema).
#[must_use]
pub fn shape_hint() -> String {
    shape_hint_in(None)
}

/// [`shape_hint`] in the language of the catalog tagged `tag` that wrote the refusal's
/// messages (the library's [`Note::SendShape`](crate::notes::Note::SendShape)), English for
/// `None` or a language the library has no translation of; the packet and the keys as they
/// are.
#[must_use]
pub fn shape_hint_in(tag: Option<&str>) -> String {
    crate::notes::render(
        crate::notes::Note::SendShape,
        tag,
        &[
            ("example", MINIMAL_PACKET_EXAMPLE),
            ("keys", &optional_keys().join(", ")),
        ],
    )
}

/// The packet's optional keys: the emitted schema's properties that it does not require.
#[must_use]
pub fn optional_keys() -> &'static [String] {
    static KEYS: OnceLock<Vec<String>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let schema: Value = serde_json::from_str(JSON_SCHEMA).unwrap_or_default();
        let packet = &schema["$defs"]["packet"];
        let required = packet["required"].as_array().cloned().unwrap_or_default();
        packet["properties"]
            .as_object()
            .map(|properties| {
                properties
                    .keys()
                    .filter(|key| !required.iter().any(|r| r == key.as_str()))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    })
}

fn log_filing(
    (artifacts, security): (audit::Log, audit::Log),
    agent: &str,
    packet: &TaskPacket,
    filed: &Filed,
) -> std::io::Result<()> {
    let timestamp = crate::clock::now_utc_millis();
    let artifact = json!({
        "timestamp": timestamp,
        "agent_id": agent,
        "origin": "produced",
        "task_id": packet.goal_id,
        "round": packet.round,
        "path": filed.path,
        "bytes": filed.bytes,
        "display_name": format!("handoff {} → {} r{}", packet.from_role, packet.to_role, packet.round),
    });
    let event = json!({
        "timestamp": timestamp,
        "event": TOOL_NAME,
        "agent_id": agent,
        "details": {
            "task_id": packet.goal_id,
            "round": packet.round,
            "from_role": packet.from_role,
            "to_role": packet.to_role,
            "bytes": filed.bytes,
            "constraints": packet.constraints.len(),
            "audience": packet.audience,
            "path": filed.path,
        },
    });
    artifacts.append(&artifact)?;
    security.append(&event)
}

/// The most read of an `agent.toml`: a team record is a few lines.
pub const RECORD_MAX_BYTES: usize = 1 << 20;

/// The caller's team record: its role and, when pinned, its task and round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// The caller's role.
    pub role: Role,
    /// The task it was spawned for (`[team_member] task_id`, when not blank).
    pub task_id: Option<String>,
    /// The round it is on (`[team_member] round`).
    pub round: Option<u32>,
}

/// `[team_member]` as the spawn scaffold writes it. Other keys are ignored.
#[derive(serde::Deserialize)]
struct TeamMemberTable {
    role: Role,
    #[serde(default)]
    task_id: Option<String>,
    #[serde(default)]
    round: Option<u32>,
    #[serde(default)]
    #[allow(dead_code)] // read so that a `parent` of the wrong type is refused
    parent: Option<String>,
}

/// `[agent]` of an agent's own record: its `role` names a team role for an agent with no
/// `[team_member]`. Other keys are ignored.
#[derive(serde::Deserialize)]
struct AgentTable {
    role: String,
}

impl Member {
    /// The caller's agent directory: `<home>/agents/.ephemeral/<id>/` when it exists (where
    /// role members live), else `<home>/agents/<id>/`.
    #[must_use]
    pub fn dir(home: &Path, agent: &str) -> PathBuf {
        let ephemeral = home.join("agents").join(".ephemeral").join(agent);
        if ephemeral.is_dir() {
            ephemeral
        } else {
            home.join("agents").join(agent)
        }
    }

    /// Reads the record of `agent` (a valid agent id) under `home`.
    ///
    /// # Errors
    ///
    /// `team_member_unreadable` when a `[team_member]` table exists but cannot be read;
    /// `not_a_team_member` when there is no readable `agent.toml`, or it has no
    /// `[team_member]` and no `[agent] role` naming a team role.
    pub fn read(home: &Path, agent: &str) -> Result<Member, Refusal<PacketError>> {
        let path = Member::dir(home, agent).join("agent.toml");
        let not_member = |why: String| {
            Refusal::new(
                PacketError::NotATeamMember,
                format!("only a role member of a team may file a TaskPacket: {why}"),
            )
        };
        // A regular file, read to a bound: a FIFO or a device there refuses, never stalls.
        let text = crate::fsguard::read_regular(&path, RECORD_MAX_BYTES as u64)
            .and_then(|bytes| {
                String::from_utf8(bytes).map_err(|_| {
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidData,
                        "stream did not contain valid UTF-8",
                    )
                })
            })
            .map_err(|e| not_member(format!("cannot read `{}`: {e}", path.display())))?;
        let mut document: toml::Table = toml::from_str(&text).map_err(|e| {
            not_member(format!(
                "`{}` is not TOML: {}",
                path.display(),
                one_line(&text, &e)
            ))
        })?;
        if let Some(table) = document.remove("team_member") {
            let record: TeamMemberTable = table.try_into().map_err(|e| {
                Refusal::new(
                    PacketError::TeamMemberUnreadable,
                    format!(
                        "`[team_member]` in `{}` cannot be read: {}",
                        path.display(),
                        one_line(&text, &e)
                    ),
                )
            })?;
            return Ok(Member {
                role: record.role,
                task_id: record.task_id.filter(|t| !t.trim().is_empty()),
                round: record.round,
            });
        }
        // An `[agent]` table that does not read (not a table, no `role` string) names no role.
        let role = document
            .remove("agent")
            .and_then(|agent| agent.try_into::<AgentTable>().ok())
            .map(|agent| agent.role);
        match role.and_then(|r| Role::ALL.iter().find(|role| role.as_str() == r)) {
            Some(&role) => Ok(Member {
                role,
                task_id: None,
                round: None,
            }),
            None => {
                Err(not_member(format!(
                "`{}` has no `[team_member]` table and no `[agent] role` that is a team role ({})",
                path.display(),
                Role::ALL.iter().map(|r| r.as_str()).collect::<Vec<_>>().join(", ")
            )))
            }
        }
    }

    /// Refuses a packet that claims another role, task or round than this record.
    fn cross_check(&self, packet: &TaskPacket) -> Result<(), Refusal<PacketError>> {
        if packet.from_role != self.role {
            return Err(Refusal::new(
                PacketError::FromRoleMismatch,
                format!(
                    "you are `{}`, but the packet says from_role `{}`",
                    self.role, packet.from_role
                ),
            ));
        }
        if let Some(task) = self.task_id.as_deref().filter(|t| *t != packet.goal_id) {
            return Err(Refusal::new(
                PacketError::TaskIdMismatch,
                format!(
                    "you are assigned task {task:?}, but the packet says goal_id {:?}",
                    packet.goal_id
                ),
            ));
        }
        if let Some(round) = self.round.filter(|r| *r != packet.round) {
            return Err(Refusal::new(
                PacketError::RoundMismatch,
                format!(
                    "you are on round {round}, but the packet says round {}",
                    packet.round
                ),
            ));
        }
        Ok(())
    }
}

/// A TOML error as one line, `line L, column C: what` (toml's own text draws the line with a
/// caret under it over several lines, which a refusal and its log row should not carry).
fn one_line(text: &str, error: &toml::de::Error) -> String {
    let what = error.message().trim_end().replace('\n', " ");
    match error
        .span()
        .and_then(|span| crate::runtime::document::line_col(text, span.start))
    {
        Some((line, column)) => format!("line {line}, column {column}: {what}"),
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(task: Option<&str>, round: Option<u32>) -> Member {
        Member {
            role: Role::Planner,
            task_id: task.map(str::to_owned),
            round,
        }
    }

    fn filled(text: &str, member: &Member) -> Option<String> {
        fill(text, member).unwrap().map(|f| f.text)
    }

    #[test]
    fn fill_appends_only_the_missing_keys_before_the_closing_brace() {
        let m = member(Some("t-1"), Some(3));
        assert_eq!(
            filled(r#"{"packet_id":"p","round":3} "#, &m).as_deref(),
            Some(
                r#"{"packet_id":"p","round":3,"goal_id":"t-1","from_role":"planner","to_role":"executor"} "#
            )
        );
        assert_eq!(
            filled("{}", &m).as_deref(),
            Some(r#"{"goal_id":"t-1","round":3,"from_role":"planner","to_role":"executor"}"#)
        );
        let complete = r#"{"goal_id":"g","round":1,"from_role":"planner","to_role":"executor"}"#;
        assert_eq!(filled(complete, &m), None);
        assert_eq!(filled("[1]", &m), None);
    }

    #[test]
    fn an_unpinned_record_fills_only_the_roles() {
        assert_eq!(
            filled("{}", &member(None, None)).as_deref(),
            Some(r#"{"from_role":"planner","to_role":"executor"}"#)
        );
    }

    #[test]
    fn optional_keys_are_the_schema_properties_minus_the_required_seven() {
        let keys = optional_keys();
        assert_eq!(keys.len(), 19);
        assert!(keys.iter().any(|k| k == "constraints"));
        assert!(!keys.iter().any(|k| k == "objective"));
        let minimal: Map<String, Value> = serde_json::from_str(MINIMAL_PACKET_EXAMPLE).unwrap();
        assert_eq!(minimal.len(), 7, "the hint says `these seven keys`");
    }
}
