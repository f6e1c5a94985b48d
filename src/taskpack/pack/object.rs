//! The pack object: built from the passport as it will be saved (its asks recorded, its
//! facts sealed, its lineage extended), and the refusals the object itself earns (§4.1, §4.5).

use crate::taskpack::encodings::bag::BAG_SPEC;
use crate::taskpack::judge::conformance;
use crate::taskpack::judge::patterns::{self, Finding};
use crate::taskpack::lenient::{self, AskView, FactView, LineageView, PackMembers, StateView};
use crate::taskpack::{seal, set_member, FactScope, FORBIDDEN_KEYS};
use specmint_runtime::json::Json;

use super::{AskArg, Kind, Luggage, PackError, PackOptions, Packed};
use crate::taskpack::TaskPackError;
use crate::Refusal;

/// The home passport's `asks` with the sent ones recorded (§4.3), or `None` when that changes
/// nothing. A sent ask whose WHAT an ask of the passport already has is that ask, re-sent: its
/// wording is refreshed, its answer and status kept (task-passport's `recordSentAsks`); any
/// other gets the next free id `aN`.
pub(super) fn record_asks(passport: &Json, sent: &[AskArg]) -> Option<Json> {
    let held: Vec<Json> = lenient::view::<StateView>(passport).asks;
    let mut next = held.clone();
    for ask in sent {
        let same = next
            .iter_mut()
            .find(|a| lenient::view::<AskView>(a).asks(&ask.what));
        match same {
            Some(existing) => {
                set_member(existing, "accept", Json::Str(ask.accept.clone()));
                set_member(existing, "why", Json::Str(ask.why.clone()));
            }
            None => {
                let id = free_id(&next, "a");
                next.push(new_ask(&id, ask));
            }
        }
    }
    (next != held).then_some(Json::Array(next))
}

/// The first `<prefix>N` (N from 1) that no item's `id` is.
fn free_id(items: &[Json], prefix: &str) -> String {
    (1..)
        .map(|n| format!("{prefix}{n}"))
        .find(|id| {
            !items.iter().any(|item| {
                lenient::view::<AskView>(item)
                    .id
                    .as_ref()
                    .and_then(Json::as_str)
                    == Some(id)
            })
        })
        .expect("an unbounded range has a free id")
}

/// An ask as task-passport's `normalizeAsks` writes a new one.
fn new_ask(id: &str, ask: &AskArg) -> Json {
    let text = |s: &str| Json::Str(s.to_owned());
    Json::Object(vec![
        ("id".to_owned(), text(id)),
        ("to".to_owned(), text("peer")),
        ("what".to_owned(), text(&ask.what)),
        ("why".to_owned(), text(&ask.why)),
        ("accept".to_owned(), text(&ask.accept)),
        ("status".to_owned(), text("open")),
        ("answer".to_owned(), Json::Null),
    ])
}

/// The pack object (members in task-passport's `buildBag` order) made from the home passport
/// as it will be saved.
pub(super) fn pack_object(
    passport: &Json,
    id: &str,
    options: &PackOptions,
    luggage: &[Luggage],
) -> Result<(Json, Packed), PackError> {
    let text = |s: &str| Json::Str(s.to_owned());
    let home: StateView = lenient::view(passport);
    let version = home.version();
    let lineage = extend_lineage(home.lineage.as_ref(), id, version)?;
    let mut state = passport.clone();
    // The pack carries the lineage at its own level, extended; the home copy stays home.
    if let Json::Object(members) = &mut state {
        members.retain(|(k, _)| k != "lineage");
    }
    let sealed = seal_facts(&mut state, &options.actor, &options.machine);
    let asks_sent: Vec<&Json> = match options.kind {
        Kind::Handoff => Vec::new(),
        // A receipt carries the answers: every ask of the passport answered or dropped.
        Kind::Receipt => home
            .asks
            .iter()
            .filter(|a| {
                matches!(
                    lenient::view::<AskView>(a).status.as_deref(),
                    Some("answered" | "dropped")
                )
            })
            .collect(),
    };
    let held = &home.asks;
    let mut asks: Vec<Json> = asks_sent.into_iter().cloned().collect();
    for ask in &options.asks {
        // The recorded ask of that WHAT (the passport as saved holds every sent ask).
        let recorded = held
            .iter()
            .find(|a| lenient::view::<AskView>(a).asks(&ask.what));
        let sent = match recorded {
            Some(recorded) => normalize_ask(recorded),
            None => new_ask(&free_id(&asks, "a"), ask),
        };
        let id = lenient::view::<AskView>(&sent).id;
        if !asks.iter().any(|a| lenient::view::<AskView>(a).id == id) {
            asks.push(sent);
        }
    }
    let checks: Vec<Json> = options
        .checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            Json::Object(vec![
                ("id".to_owned(), text(&format!("c{}", i + 1))),
                ("check".to_owned(), text(&c.check)),
                ("how".to_owned(), text(&c.how)),
                ("required".to_owned(), Json::Bool(true)),
            ])
        })
        .collect();
    let harness = match home.harness {
        Some(value) if Json::truthy(Some(&value)) => value,
        _ => text(""),
    };
    let packed_at = options
        .packed_at
        .clone()
        .unwrap_or_else(crate::clock::now_utc);
    let object = Json::Object(vec![
        ("spec".to_owned(), text(BAG_SPEC)),
        ("kind".to_owned(), text(options.kind.as_str())),
        ("packed_at".to_owned(), text(&packed_at)),
        (
            "origin".to_owned(),
            Json::Object(vec![
                ("actor".to_owned(), text(&options.actor)),
                ("machine".to_owned(), text(&options.machine)),
                ("harness".to_owned(), harness),
            ]),
        ),
        ("lineage".to_owned(), lineage.clone()),
        ("note".to_owned(), text(&options.note)),
        ("passport".to_owned(), state),
        ("asks".to_owned(), Json::Array(asks.clone())),
        ("landing_checks".to_owned(), Json::Array(checks)),
    ]);
    let packed = Packed {
        passport_id: id.to_owned(),
        version,
        asks_recorded: false,
        lineage,
        asks: asks
            .iter()
            .map(|a| lenient::view::<AskView>(a).id())
            .collect(),
        landing_checks: options.checks.len(),
        sealed,
        luggage: luggage.iter().map(|l| l.name.clone()).collect(),
        renamed: luggage
            .iter()
            .filter(|l| l.given != l.name)
            .map(|l| (l.given.clone(), l.name.clone()))
            .collect(),
    };
    Ok((object, packed))
}

/// An ask of the passport as it travels: task-passport's `normalizeAsks` members, in its order.
fn normalize_ask(ask: &Json) -> Json {
    let keep = [
        "id",
        "to",
        "what",
        "why",
        "accept",
        "status",
        "answer",
        "answered_by",
        "answered_at",
    ];
    Json::Object(
        keep.iter()
            .filter_map(|key| Some(((*key).to_owned(), ask.get(key)?.clone())))
            .collect(),
    )
}

/// `{root_id, from_version, chain}`: the passport's kept lineage (or its own id, for a passport
/// that never travelled), then `<id>@<version>` (§3, §3.1).
fn extend_lineage(kept: Option<&Json>, id: &str, version: u64) -> Result<Json, PackError> {
    let invalid = |why: String| {
        PackError::Refused(vec![Refusal::new(
            TaskPackError::InvalidLineage,
            format!("the passport's `lineage` {why}; it must be {{\"root_id\": ID, \"chain\": [\"ID@VERSION\", …]}}"),
        )])
    };
    let (root_id, mut chain) = match kept {
        None => (id.to_owned(), Vec::new()),
        Some(lineage @ Json::Object(_)) => {
            let lineage: LineageView = lenient::view(lineage);
            let root = match lineage.root_id {
                Some(Json::Str(root)) if !root.trim().is_empty() => root,
                other => {
                    return Err(invalid(format!(
                        "has root_id {}",
                        other
                            .as_ref()
                            .map_or("missing".to_owned(), Json::to_js_compact)
                    )))
                }
            };
            let chain = match &lineage.chain {
                None => Vec::new(),
                Some(Json::Array(hops)) if hops.iter().all(|h| h.as_str().is_some()) => {
                    hops.clone()
                }
                Some(other) => return Err(invalid(format!("has chain {}", other.to_js_compact()))),
            };
            (root, chain)
        }
        Some(other) => return Err(invalid(format!("is {}", other.to_js_compact()))),
    };
    chain.push(Json::Str(format!("{id}@{version}")));
    Ok(Json::Object(vec![
        ("root_id".to_owned(), Json::Str(root_id)),
        ("from_version".to_owned(), Json::Number(version.into())),
        ("chain".to_owned(), Json::Array(chain)),
    ]))
}

/// Seals the task state's facts for the crossing (§4.2) and returns how many go out sealed: the
/// one sealing rule ([`super::seal`], task-passport's `travelFacts`, whose readers re-seal on the
/// way in, so a fact sealed differently would come back different, C9), `verified_on` the fact's
/// own else `machine`. A `universal` or `org` fact keeps `verified`; an `org` fact without a
/// `source` is annotated with `actor`.
pub(crate) fn seal_facts(state: &mut Json, actor: &str, machine: &str) -> usize {
    seal::seal_facts(state, machine);
    let Some(Json::Array(facts)) = crate::taskpack::member_mut(state, "facts") else {
        return 0;
    };
    let mut sealed = 0;
    for fact in facts.iter_mut().filter(|f| f.is_object()) {
        if seal::is_machine_scoped(fact) {
            sealed += 1;
        } else if lenient::view::<FactView>(fact).scope() == Some(FactScope::Org)
            && lenient::view::<FactView>(fact).source.is_none()
            && !actor.is_empty()
        {
            set_member(fact, "source", Json::Str(actor.to_owned()));
        }
    }
    sealed
}

/// The pattern a refusal names: the check and its families in words. The regex itself is
/// kilobytes since the families were widened to what people leak, which buried the refusal;
/// `Finding::pattern` and spec/taskpack.md ("Departures") hold it.
pub(super) fn pattern_words(finding: Finding) -> String {
    match finding {
        Finding::Credential => {
            "the C7 pattern: a private key block or a token of a known credential family".to_owned()
        }
        Finding::Transcript => {
            "the C8 pattern: a line opening a chat turn, or a JSON chat message".to_owned()
        }
    }
}

/// Every reason the pack object may not leave: a forbidden key anywhere (§4.1, §4.5), a key
/// or string the credential or transcript pattern matches (§4.1), an ask without `accept`
/// (§4.3), then any other check of §6 on the pack object (the judge's own functions).
pub(super) fn object_refusals(object: &Json) -> Vec<Refusal<TaskPackError>> {
    let mut refusals = Vec::new();
    object.walk(&mut String::new(), &mut |pointer, value| {
        if let Json::Object(members) = value {
            for (key, _) in members {
                if FORBIDDEN_KEYS.contains(&key.as_str()) {
                    let what = if key == "how_to_use_this_file" {
                        "an instruction field: a pack is data, never instructions (§4.5)"
                    } else {
                        "a chat transcript field: state travels, conversation does not (§4.1)"
                    };
                    let at = path_of(object, &format!("{pointer}/{key}"));
                    refusals.push(Refusal::new(
                        TaskPackError::ForbiddenField,
                        format!("`{at}` is {what}"),
                    ));
                }
            }
        }
    });
    for (finding, pointer) in patterns::scan_json(object) {
        refusals.push(Refusal::new(
            finding.code(),
            format!(
                "`{}` carries {} ({})",
                path_of(object, &pointer),
                finding.describe(),
                pattern_words(finding)
            ),
        ));
    }
    let members: PackMembers = lenient::view(object);
    for (i, ask) in PackMembers::items(&members.asks).iter().enumerate() {
        let ask: AskView = lenient::view(ask);
        let accept = ask
            .accept
            .as_ref()
            .and_then(Json::as_str)
            .unwrap_or_default();
        if accept.trim().is_empty() {
            refusals.push(Refusal::new(
                TaskPackError::AskWithoutAccept,
                format!(
                    "ask `{}` (`asks[{i}]`) has no accept: say what would count as answered (§4.3)",
                    ask.id()
                ),
            ));
        }
    }
    if refusals.is_empty() {
        // Anything else a judge would fail on the pack object (a fact with an unknown scope,
        // a member of the wrong type): the writer is exactly as strict as the judge (§6).
        for (check, problem) in conformance::pack_object_problems(object) {
            refusals.push(Refusal::new(
                TaskPackError::NotConformant,
                format!("{check}: {problem}"),
            ));
        }
    }
    refusals
}

/// An RFC 6901 pointer into `root` in the spec's path notation (`passport.facts[2].claim`).
fn path_of(root: &Json, pointer: &str) -> String {
    let mut path = String::new();
    let mut at = Some(root);
    for raw in pointer.split('/').skip(1) {
        let key = raw.replace("~1", "/").replace("~0", "~");
        match at {
            Some(Json::Array(items)) => {
                path.push_str(&format!("[{key}]"));
                at = key.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            other => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&key);
                at = other.and_then(|o| o.get(&key));
            }
        }
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealing_is_task_passports_travel_facts() {
        let mut state = Json::parse(
            r#"{"facts":[
                {"claim":"u","scope":"universal","verified":true},
                {"claim":"o","scope":"org","verified":true},
                {"claim":"o2","scope":"org","verified":true,"source":"张老师"},
                {"claim":"m","scope":"machine","verified":true},
                {"claim":"n","verified":true},
                {"claim":"e","scope":"","verified":false},
                {"claim":"r","scope":"universal","verified":true,"needs_reverify":true},
                {"claim":"s","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"elsewhere"},
                "not an object"
            ]}"#,
        )
        .unwrap();
        assert_eq!(seal_facts(&mut state, "ds", "mbp-14"), 5);
        assert_eq!(
            state.get("facts").unwrap().to_js_compact(),
            concat!(
                r#"[{"claim":"u","scope":"universal","verified":true},"#,
                r#"{"claim":"o","scope":"org","verified":true,"source":"ds"},"#,
                r#"{"claim":"o2","scope":"org","verified":true,"source":"张老师"},"#,
                r#"{"claim":"m","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"mbp-14"},"#,
                r#"{"claim":"n","verified":false,"needs_reverify":true,"verified_on":"mbp-14"},"#,
                r#"{"claim":"e","scope":"","verified":false,"needs_reverify":true,"verified_on":"mbp-14"},"#,
                r#"{"claim":"r","scope":"universal","verified":false,"needs_reverify":true,"verified_on":"mbp-14"},"#,
                r#"{"claim":"s","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"elsewhere"},"#,
                r#""not an object"]"#
            )
        );
    }

    #[test]
    fn lineage_keeps_its_entries_then_adds_this_hop() {
        let kept = Json::parse(r#"{"root_id":"TP-A","chain":["TP-A@3"]}"#).unwrap();
        assert_eq!(
            extend_lineage(Some(&kept), "TP-B", 2)
                .unwrap()
                .to_js_compact(),
            r#"{"root_id":"TP-A","from_version":2,"chain":["TP-A@3","TP-B@2"]}"#
        );
        assert_eq!(
            extend_lineage(None, "TP-A", 1).unwrap().to_js_compact(),
            r#"{"root_id":"TP-A","from_version":1,"chain":["TP-A@1"]}"#
        );
        let bad = Json::parse(r#"{"root_id":"","chain":[]}"#).unwrap();
        assert!(matches!(
            extend_lineage(Some(&bad), "TP-B", 2),
            Err(PackError::Refused(_))
        ));
    }

    #[test]
    fn paths_are_the_specs_notation() {
        let root = Json::parse(r#"{"passport":{"facts":[{"claim":"x"}],"a/b":{"0":1}}}"#).unwrap();
        assert_eq!(
            path_of(&root, "/passport/facts/0/claim"),
            "passport.facts[0].claim"
        );
        assert_eq!(path_of(&root, "/passport/a~1b/0"), "passport.a/b.0");
    }
}
