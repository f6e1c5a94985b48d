//! TaskPacket: extra fixtures (a CJK packet near the 16384-byte cap, an invalid packet with
//! many violations) and the hand-written comparisons: garde on mirror structs, and a plain
//! validate function over the plain serde structs.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::json;
use specmint::task_packet::{
    AcceptanceKind, Budget, OutputFormat, Role, TaskPacket, ToolScope, ASSERTION_LIST_MAX,
    ASSERTION_TOKEN_MAX_CHARS, AUDIENCE_ID_MAX_CHARS, AUDIENCE_MAX, CONSTRAINTS_MAX,
    CONSTRAINT_ID_MAX_CHARS, CONSTRAINT_TEXT_MAX_CHARS, EVIDENCE_INDEX_MAX, OBJECTIVE_MAX_CHARS,
    TASK_PACKET_MAX_BYTES,
};

use super::{Fixture, SpecBench};

pub fn bench() -> SpecBench {
    let mut bench = super::spec_bench!(task_packet::TaskPacket);
    bench.fixtures.push(Fixture {
        name: "cjk_near_cap".to_owned(),
        bytes: cjk_near_cap(),
        valid: true,
    });
    bench.fixtures.push(Fixture {
        name: "invalid_many".to_owned(),
        bytes: invalid_many(),
        valid: false,
    });
    bench.contenders.push(super::garde::<GardePacket>());
    bench
        .contenders
        .push(super::hand_written::<TaskPacket>(hand_validate::<false>));
    let mut tuned = super::hand_written::<TaskPacket>(hand_validate::<true>);
    tuned.name = "hand_written_tuned";
    bench.contenders.push(tuned);
    bench
}

// ---------------------------------------------------------------------------------------
// Fixtures

const CJK: &str = "整理二〇二六年第二季到期的客戶合約清單輸出金額一律以新台幣顯示不換算只讀母檔共筆其中落在本季自動續約要不要算進來產出後交給核對數";

/// `n` CJK characters (3 UTF-8 bytes each), starting at `seed`.
fn cjk(n: usize, seed: usize) -> String {
    CJK.chars().cycle().skip(seed % 61).take(n).collect()
}

fn compact_len(value: &serde_json::Value) -> usize {
    let packet: TaskPacket =
        serde_json::from_value(value.clone()).expect("the fixture has the TaskPacket shape");
    packet.to_canonical_json().len()
}

/// A valid packet written mostly in CJK, every list near its cap, padded with `boundaries`
/// to just under the 16384-byte compact-JSON cap.
pub fn cjk_near_cap() -> Vec<u8> {
    let constraints: Vec<_> = (0..CONSTRAINTS_MAX)
        .map(|i| json!({"id": format!("c{i}"), "text": cjk(CONSTRAINT_TEXT_MAX_CHARS - 10, i)}))
        .collect();
    let audience: Vec<_> = (0..AUDIENCE_MAX)
        .map(|i| format!("channel:{}", cjk(12, i)))
        .collect();
    let kinds = [
        "must_use_tools",
        "must_not_use_tools",
        "output_contains",
        "output_not_contains",
    ];
    let acceptance: Vec<_> = (0..12)
        .map(|i| json!({"kind": kinds[i % 4], "value": format!("{}{i}", cjk(30, i))}))
        .collect();
    let mut packet = json!({
        "packet_id": "pk-cjk-1",
        "goal_id": "task-1183",
        "parent_packet": "pk-cjk-0",
        "round": 3,
        "from_role": "planner",
        "to_role": "executor",
        "objective": cjk(OBJECTIVE_MAX_CHARS - 100, 7),
        "output_format": {"kind": "json", "schema": "{\"type\":\"array\"}"},
        "tool_scope": {"allowed": ["db_select", "csv_read"], "denied": ["mail_send"]},
        "constraints": constraints,
        "audience": audience,
        "acceptance": acceptance,
        "artifacts": [{"id": "a-77", "path": "data/contracts.csv", "sha256": "9c1f"}],
        "evidence_index": [cjk(20, 3), cjk(20, 4)],
        "findings": [
            {"text": cjk(60, 5), "evidence": ["a-77"]},
            {"text": cjk(60, 6), "evidence": []}
        ],
        "open_questions": [cjk(30, 8)],
        "next_steps": [cjk(30, 9)],
        "fidelity": "mcp_only",
        "budget": {"max_turns": 5, "max_tokens": 120000, "wall_clock_secs": 900, "max_cost_usd": 1.25},
        "boundaries": []
    });
    // Pad with 100-char boundaries, then one shorter one, to land just under the cap.
    let mut i = 0;
    loop {
        let before = compact_len(&packet);
        let room = TASK_PACKET_MAX_BYTES.saturating_sub(before);
        let chars = if room > 310 {
            100
        } else {
            room.saturating_sub(12) / 3
        };
        if chars < 2 {
            break;
        }
        packet["boundaries"]
            .as_array_mut()
            .unwrap()
            .push(json!(cjk(chars, i)));
        i += 1;
        if compact_len(&packet) > TASK_PACKET_MAX_BYTES {
            packet["boundaries"].as_array_mut().unwrap().pop();
            break;
        }
    }
    let len = compact_len(&packet);
    assert!(
        (TASK_PACKET_MAX_BYTES - 64..=TASK_PACKET_MAX_BYTES).contains(&len),
        "cjk fixture is {len} bytes"
    );
    serde_json::to_vec(&packet).unwrap()
}

/// A packet that parses but breaks many rules at once (about 40 violations).
pub fn invalid_many() -> Vec<u8> {
    let mut constraints: Vec<_> = (0..CONSTRAINTS_MAX + 1)
        .map(|i| json!({"id": format!("C{}", i % 5), "text": format!("constraint {i}")}))
        .collect();
    constraints[3]["text"] = json!("   ");
    constraints[4]["text"] = json!(cjk(CONSTRAINT_TEXT_MAX_CHARS + 40, 1));
    constraints[5]["id"] = json!("x".repeat(CONSTRAINT_ID_MAX_CHARS + 1));
    let mut audience: Vec<_> = (0..AUDIENCE_MAX + 1)
        .map(|i| json!(format!("role-{i}")))
        .collect();
    audience[1] = json!("\u{3000}");
    audience[2] = json!("y".repeat(AUDIENCE_ID_MAX_CHARS + 1));
    let mut acceptance: Vec<_> = (0..ASSERTION_LIST_MAX + 1)
        .map(|i| json!({"kind": "must_use_tools", "value": format!("Tool_{i}")}))
        .collect();
    acceptance.push(json!({"kind": "must_not_use_tools", "value": "tool_1"}));
    acceptance.push(json!({"kind": "output_contains", "value": "OK"}));
    acceptance.push(json!({"kind": "output_not_contains", "value": "OK"}));
    acceptance.push(json!({"kind": "output_not_contains", "value": " "}));
    let packet = json!({
        "packet_id": " ",
        "goal_id": "",
        "parent_packet": "\t",
        "round": 1,
        "from_role": "planner",
        "to_role": "planner",
        "objective": "z".repeat(OBJECTIVE_MAX_CHARS + 200),
        "output_format": "markdown",
        "constraints": constraints,
        "audience": audience,
        "acceptance": acceptance,
        "artifacts": [{"id": " "}, {"id": "a-1"}],
        "evidence_index": (0..EVIDENCE_INDEX_MAX + 3).map(|i| format!("e{i}")).collect::<Vec<_>>(),
        "findings": [{"text": "", "evidence": []}],
    });
    serde_json::to_vec(&packet).unwrap()
}

// ---------------------------------------------------------------------------------------
// garde: mirror structs. Rules garde has (chars length, item counts, nesting) use garde's;
// the rest (non-blank, unique ids, per-kind counts, contradictions, roles differ, byte cap)
// are `custom` functions written as a garde user would.

fn non_blank<S: AsRef<str>>(value: &S, _: &()) -> garde::Result {
    if value.as_ref().trim().is_empty() {
        return Err(garde::Error::new("must not be blank"));
    }
    Ok(())
}

fn differs_from(other: &Role) -> impl FnOnce(&Role, &()) -> garde::Result + '_ {
    move |value, _| {
        if value == other {
            return Err(garde::Error::new(format!(
                "must differ from from_role (both {value})"
            )));
        }
        Ok(())
    }
}

fn unique_constraint_ids(list: &[GardeConstraint], _: &()) -> garde::Result {
    let mut seen = HashSet::new();
    let dups: Vec<&str> = list
        .iter()
        .filter(|c| !seen.insert(c.id.trim().to_lowercase()))
        .map(|c| c.id.as_str())
        .collect();
    if dups.is_empty() {
        return Ok(());
    }
    Err(garde::Error::new(format!(
        "duplicate constraint ids: {dups:?}"
    )))
}

fn per_kind_max(list: &[GardeAssertion], _: &()) -> garde::Result {
    for kind in AcceptanceKind::ALL {
        let n = list.iter().filter(|a| a.kind == *kind).count();
        if n > ASSERTION_LIST_MAX {
            return Err(garde::Error::new(format!(
                "{n} items of kind {kind} (max {ASSERTION_LIST_MAX})"
            )));
        }
    }
    Ok(())
}

fn opposite(kind: AcceptanceKind) -> (AcceptanceKind, bool) {
    match kind {
        AcceptanceKind::MustUseTools => (AcceptanceKind::MustNotUseTools, true),
        AcceptanceKind::MustNotUseTools => (AcceptanceKind::MustUseTools, true),
        AcceptanceKind::OutputContains => (AcceptanceKind::OutputNotContains, false),
        AcceptanceKind::OutputNotContains => (AcceptanceKind::OutputContains, false),
    }
}

fn no_contradictions(list: &[GardeAssertion], _: &()) -> garde::Result {
    let mut bad = Vec::new();
    for (j, later) in list.iter().enumerate() {
        let (other, ignore_case) = opposite(later.kind);
        let hit = list[..j].iter().any(|earlier| {
            earlier.kind == other
                && if ignore_case {
                    earlier.value.to_lowercase() == later.value.to_lowercase()
                } else {
                    earlier.value == later.value
                }
        });
        if hit {
            bad.push(j);
        }
    }
    if bad.is_empty() {
        return Ok(());
    }
    Err(garde::Error::new(format!("contradictory items {bad:?}")))
}

fn max_json_bytes<T: Serialize>(whole: &T) -> impl FnOnce(&bool, &()) -> garde::Result + '_ {
    move |_, _| {
        let len = serde_json::to_vec(whole).map_or(0, |v| v.len());
        if len > TASK_PACKET_MAX_BYTES {
            return Err(garde::Error::new(format!(
                "{len} bytes as compact JSON (max {TASK_PACKET_MAX_BYTES})"
            )));
        }
        Ok(())
    }
}

fn default_fidelity() -> specmint::task_packet::Fidelity {
    specmint::task_packet::Fidelity::None
}
fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

#[derive(Serialize, Deserialize, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct GardePacket {
    #[garde(custom(non_blank))]
    packet_id: String,
    #[garde(custom(non_blank))]
    goal_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[garde(skip)]
    parent_packet: Option<String>,
    #[garde(skip)]
    round: u32,
    #[garde(skip)]
    from_role: Role,
    #[garde(custom(differs_from(&self.from_role)))]
    to_role: Role,
    #[garde(custom(non_blank), length(chars, max = OBJECTIVE_MAX_CHARS))]
    objective: String,
    #[garde(skip)]
    output_format: OutputFormat,
    #[serde(default, skip_serializing_if = "is_default")]
    #[garde(skip)]
    tool_scope: ToolScope,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    boundaries: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(length(max = CONSTRAINTS_MAX), dive, custom(unique_constraint_ids))]
    constraints: Vec<GardeConstraint>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(
        length(max = AUDIENCE_MAX),
        inner(custom(non_blank), length(chars, max = AUDIENCE_ID_MAX_CHARS))
    )]
    audience: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(custom(per_kind_max), dive, custom(no_contradictions))]
    acceptance: Vec<GardeAssertion>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[garde(skip)]
    acceptance_baseline_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(dive)]
    artifacts: Vec<GardeArtifact>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    wiki_refs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    memory_refs: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    state_keys: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(length(max = EVIDENCE_INDEX_MAX))]
    evidence_index: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(dive)]
    findings: Vec<GardeFinding>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    open_questions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    blockers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[garde(skip)]
    next_steps: Vec<String>,
    #[serde(default = "default_fidelity")]
    #[garde(skip)]
    fidelity: specmint::task_packet::Fidelity,
    #[serde(default, skip_serializing_if = "is_default")]
    #[garde(skip)]
    budget: Budget,
    #[serde(default)]
    #[garde(custom(max_json_bytes(self)))]
    irreversible: bool,
}

#[derive(Serialize, Deserialize, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct GardeConstraint {
    #[garde(custom(non_blank), length(chars, max = CONSTRAINT_ID_MAX_CHARS))]
    id: String,
    #[garde(custom(non_blank), length(chars, max = CONSTRAINT_TEXT_MAX_CHARS))]
    text: String,
}

#[derive(Serialize, Deserialize, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct GardeAssertion {
    #[garde(skip)]
    kind: AcceptanceKind,
    #[garde(custom(non_blank), length(chars, max = ASSERTION_TOKEN_MAX_CHARS))]
    value: String,
}

#[derive(Serialize, Deserialize, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct GardeArtifact {
    #[garde(skip)]
    id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[garde(skip)]
    path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[garde(skip)]
    sha256: Option<String>,
}

#[derive(Serialize, Deserialize, garde::Validate)]
#[serde(deny_unknown_fields)]
pub struct GardeFinding {
    #[garde(skip)]
    text: String,
    #[garde(skip)]
    evidence: Vec<String>,
}

// ---------------------------------------------------------------------------------------
// Hand-written: one function over the plain serde structs (the generated types, whose
// deserialization is plain serde), every rule, every violation as a message.
//
// `TUNED = false` is the idiomatic version a user writes first: `to_lowercase()` for
// case-insensitive comparison, a `HashSet` for unique ids, `serde_json::to_vec` for the
// byte cap. `TUNED = true` avoids every allocation on valid input (char-wise folding,
// pairwise comparison, a counting writer), i.e. what specmint's rules do by hand.

fn fold_eq(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

fn text_rules(
    errors: &mut Vec<String>,
    path: &dyn Fn() -> String,
    value: &str,
    max: Option<usize>,
) {
    if value.trim().is_empty() {
        errors.push(format!("`{}` must not be blank", path()));
    }
    if let Some(max) = max {
        let n = value.chars().count();
        if n > max {
            errors.push(format!("`{}` is {n} chars (max {max})", path()));
        }
    }
}

fn list_max(errors: &mut Vec<String>, name: &str, len: usize, max: usize) {
    if len > max {
        errors.push(format!("`{name}` has {len} items (max {max})"));
    }
}

pub fn hand_validate<const TUNED: bool>(p: &TaskPacket) -> Result<(), Vec<String>> {
    let mut e = Vec::new();
    text_rules(&mut e, &|| "packet_id".into(), &p.packet_id, None);
    text_rules(&mut e, &|| "goal_id".into(), &p.goal_id, None);
    text_rules(
        &mut e,
        &|| "objective".into(),
        &p.objective,
        Some(OBJECTIVE_MAX_CHARS),
    );

    list_max(&mut e, "constraints", p.constraints.len(), CONSTRAINTS_MAX);
    for (i, c) in p.constraints.iter().enumerate() {
        let id = || format!("constraints[{i}].id");
        text_rules(&mut e, &id, &c.id, Some(CONSTRAINT_ID_MAX_CHARS));
        let text = || format!("constraints[{i}].text");
        text_rules(&mut e, &text, &c.text, Some(CONSTRAINT_TEXT_MAX_CHARS));
    }
    if TUNED {
        for (j, later) in p.constraints.iter().enumerate() {
            let key = later.id.trim();
            if let Some(i) = p.constraints[..j]
                .iter()
                .position(|c| fold_eq(c.id.trim(), key))
            {
                e.push(format!(
                    "`constraints[{j}].id` `{}` duplicates `constraints[{i}].id`",
                    later.id
                ));
            }
        }
    } else {
        let mut seen = std::collections::HashMap::new();
        for (j, c) in p.constraints.iter().enumerate() {
            if let Some(i) = seen.get(&c.id.trim().to_lowercase()) {
                e.push(format!(
                    "`constraints[{j}].id` `{}` duplicates `constraints[{i}].id`",
                    c.id
                ));
            } else {
                seen.insert(c.id.trim().to_lowercase(), j);
            }
        }
    }

    list_max(&mut e, "audience", p.audience.len(), AUDIENCE_MAX);
    for (i, a) in p.audience.iter().enumerate() {
        let path = || format!("audience[{i}]");
        text_rules(&mut e, &path, a, Some(AUDIENCE_ID_MAX_CHARS));
    }

    for kind in AcceptanceKind::ALL {
        let n = p.acceptance.iter().filter(|a| a.kind == *kind).count();
        if n > ASSERTION_LIST_MAX {
            e.push(format!(
                "`acceptance` has {n} items of kind `{kind}` (max {ASSERTION_LIST_MAX})"
            ));
        }
    }
    for (i, a) in p.acceptance.iter().enumerate() {
        let path = || format!("acceptance[{i}].value");
        text_rules(&mut e, &path, &a.value, Some(ASSERTION_TOKEN_MAX_CHARS));
    }
    for (j, later) in p.acceptance.iter().enumerate() {
        let (other, ignore_case) = opposite(later.kind);
        let hit = p.acceptance[..j].iter().position(|earlier| {
            earlier.kind == other
                && if !ignore_case {
                    earlier.value == later.value
                } else if TUNED {
                    fold_eq(&earlier.value, &later.value)
                } else {
                    earlier.value.to_lowercase() == later.value.to_lowercase()
                }
        });
        if let Some(i) = hit {
            e.push(format!(
                "`acceptance[{j}].value` `{}` ({}) contradicts `acceptance[{i}].value` ({})",
                later.value, later.kind, p.acceptance[i].kind
            ));
        }
    }

    list_max(
        &mut e,
        "evidence_index",
        p.evidence_index.len(),
        EVIDENCE_INDEX_MAX,
    );
    if p.from_role == p.to_role {
        e.push(format!(
            "`to_role` must differ from `from_role` (both `{}`)",
            p.to_role
        ));
    }
    let bytes = if TUNED {
        specmint::runtime::rules::json_bytes(p).unwrap_or(0) as usize
    } else {
        serde_json::to_vec(p).map_or(0, |v| v.len())
    };
    if bytes > TASK_PACKET_MAX_BYTES {
        e.push(format!(
            "the document is {bytes} bytes as compact JSON (max {TASK_PACKET_MAX_BYTES})"
        ));
    }
    if e.is_empty() {
        Ok(())
    } else {
        Err(e)
    }
}
