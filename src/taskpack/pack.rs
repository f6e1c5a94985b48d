//! Packing (TaskPack §4): a passport of the local store, and its luggage, made into a pack in
//! either encoding: `specmint taskpack pack ID --store DIR --out FILE ...`.
//!
//! What packing does, in order, and where the spec says so:
//! - every attachment is read once, whole, for its digest, its size, whether it travels as
//!   text, and the credential and transcript patterns (§4.1, C7/C8, [`super::patterns`]: the one
//!   definition `conformance` judges with);
//! - under the passport's lock: the asks sent are recorded in it (§4.3), the pack object is
//!   built from it as it will be saved (so the pack's `from_version` is the version that holds
//!   its own asks), its machine-scoped and unscoped facts sealed (§4.2) and its lineage
//!   extended (§3.1); then every refusal is looked for (§4.1, §4.5) and every check of §6 that
//!   looks at the pack object; the pack is written to a temporary file beside `--out`, reading
//!   each attachment a second time (its digest must not have changed), and only then is the
//!   passport written; the pack is renamed into place last. A refusal writes nothing, anywhere.
//!
//! Memory holds the pack object and one read buffer: the luggage streams from disk into the
//! zip or the flat form, whatever its size.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use sha2::{Digest, Sha256};

use super::bag::{self, hex, BAG_SPEC, FILES_DIR, PASSPORT_JSON};
use super::conformance;
use super::convert::Encoding;
use super::flat::{FLAT_VERSION, NOTE_TO_READER};
use super::patterns::{self, Finding, StreamScan};
use super::store::{PassportStore, StoreError};
use super::{seal, set_member, FORBIDDEN_KEYS};
use crate::atomic_file::AtomicFile;
use specmint_runtime::json::Json;

/// The bytes read from an attachment at a time: 192 KiB, a multiple of 3, so that the base64
/// of each read, concatenated, is the base64 of the whole.
const CHUNK: usize = 3 << 16;

/// A handoff or a receipt (§3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Work handed on.
    Handoff,
    /// Answers coming home.
    Receipt,
}

impl Kind {
    /// `handoff` or `receipt`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Handoff => "handoff",
            Kind::Receipt => "receipt",
        }
    }
}

/// An ask to send: `--ask "WHAT|ACCEPT[|WHY]"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AskArg {
    /// What is asked.
    pub what: String,
    /// What would count as answered (blank: refused, §4.3).
    pub accept: String,
    /// Why it matters.
    pub why: String,
}

impl AskArg {
    /// Parses `WHAT|ACCEPT[|WHY]` (task-passport's `--ask` syntax): each part trimmed; a
    /// missing ACCEPT is kept blank, for packing to refuse by name.
    pub fn parse(raw: &str) -> Result<AskArg, String> {
        let mut parts = raw.splitn(3, '|').map(str::trim);
        let what = parts.next().unwrap_or_default().to_owned();
        if what.is_empty() {
            return Err(format!(
                "--ask `{raw}`: WHAT is blank (the syntax is \"WHAT|ACCEPT[|WHY]\")"
            ));
        }
        Ok(AskArg {
            what,
            accept: parts.next().unwrap_or_default().to_owned(),
            why: parts.next().unwrap_or_default().to_owned(),
        })
    }
}

/// A landing check to send: `--check "CHECK[|HOW]"`, always required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckArg {
    /// What must hold on the landing machine.
    pub check: String,
    /// The sender's suggestion of how to check it (data, never executed, §4.4).
    pub how: String,
}

impl CheckArg {
    /// Parses `CHECK[|HOW]` (task-passport's `--check` syntax), each part trimmed.
    pub fn parse(raw: &str) -> Result<CheckArg, String> {
        let (check, how) = raw.split_once('|').unwrap_or((raw, ""));
        let check = check.trim();
        if check.is_empty() {
            return Err(format!(
                "--check `{raw}`: CHECK is blank (the syntax is \"CHECK[|HOW]\")"
            ));
        }
        Ok(CheckArg {
            check: check.to_owned(),
            how: how.trim().to_owned(),
        })
    }
}

/// Everything `pack` takes besides the store, the id and the output file.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// `--kind`.
    pub kind: Kind,
    /// [`Encoding::Zip`] or (`--flat`) [`Encoding::Flat`].
    pub encoding: Encoding,
    /// `--ask`, in order.
    pub asks: Vec<AskArg>,
    /// `--check`, in order.
    pub checks: Vec<CheckArg>,
    /// `--attach`: files, or directories walked in name order.
    pub attach: Vec<PathBuf>,
    /// `origin.actor`, and the source an `org` fact without one is annotated with.
    pub actor: String,
    /// `origin.machine`, and the `verified_on` a sealed fact gets when it names none.
    pub machine: String,
    /// `note`.
    pub note: String,
    /// `packed_at`; now when `None`.
    pub packed_at: Option<String>,
}

/// One reason a pack was not produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// `credential` (C7), `chat_transcript` (C8), `ask_without_accept` (§4.3),
    /// `forbidden_field` (§4.5), `luggage_name`, `luggage_changed`, `invalid_lineage`,
    /// `not_conformant` (a check of §6 the pack object would fail).
    pub code: &'static str,
    /// What and where.
    pub message: String,
}

/// Why `pack` produced nothing.
#[derive(Debug)]
pub enum PackError {
    /// Refused: every reason found.
    Refused(Vec<Refusal>),
    /// The store refused (an unknown or invalid id) or failed.
    Store(StoreError),
    /// Reading an attachment or writing the pack.
    Io(PathBuf, io::Error),
}

impl From<StoreError> for PackError {
    fn from(err: StoreError) -> Self {
        PackError::Store(err)
    }
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Refused(refusals) => {
                let all: Vec<String> = refusals
                    .iter()
                    .map(|r| format!("{}: {}", r.code, r.message))
                    .collect();
                write!(f, "refusing to pack: {}", all.join("; "))
            }
            PackError::Store(err) => err.fmt(f),
            PackError::Io(path, err) => write!(f, "`{}`: {err}", path.display()),
        }
    }
}

impl std::error::Error for PackError {}

/// What a pack holds, for the report.
#[derive(Debug, Clone, PartialEq)]
pub struct Packed {
    /// The passport packed.
    pub passport_id: String,
    /// Its version in the pack (the one that records the pack's asks).
    pub version: u64,
    /// Whether the asks were recorded in the passport (a new version was written).
    pub asks_recorded: bool,
    /// The pack's `lineage`.
    pub lineage: Json,
    /// The ids of the pack's asks.
    pub asks: Vec<String>,
    /// How many landing checks.
    pub landing_checks: usize,
    /// How many facts went out sealed (§4.2).
    pub sealed: usize,
    /// The luggage names, under `data/files/`.
    pub luggage: Vec<String>,
}

/// One attachment: where it is read from, its name in the pack, and what the first read found.
#[derive(Debug)]
struct Luggage {
    source: PathBuf,
    name: String,
    size: u64,
    sha256: [u8; 32],
    readable: bool,
}

/// Packs passport `id` of `store` into `out` (see the module doc).
pub fn pack(
    store: &PassportStore,
    id: &str,
    out: &Path,
    options: &PackOptions,
) -> Result<Packed, PackError> {
    super::store::check_id(id)?;
    let mut refusals = Vec::new();
    let luggage = read_luggage(&options.attach, &mut refusals)?;
    let current = store.get(id)?;
    let recorded = record_asks(&current, &options.asks);
    let mut build = |passport: &Json, recorded: bool| -> Result<(Packed, AtomicFile), PackError> {
        let (object, mut packed) = pack_object(passport, id, options, &luggage)?;
        packed.asks_recorded = recorded;
        refusals.extend(object_refusals(&object));
        if !refusals.is_empty() {
            return Err(PackError::Refused(refusals.clone()));
        }
        let file = write_pack(out, options.encoding, &object, &luggage)?;
        Ok((packed, file))
    };
    let (packed, file) = match recorded {
        // Nothing new to remember: the pack is made from the passport as stored.
        None => build(&current, !options.asks.is_empty())?,
        Some(_) => store.update(id, |passport| {
            // Recorded again under the lock, on the passport as it is now.
            if let Some(asks) = record_asks(passport, &options.asks) {
                set_member(passport, "asks", asks);
            }
            build(passport, true)
        })?,
    };
    file.commit()
        .map_err(|e| PackError::Io(out.to_owned(), e))?;
    Ok(packed)
}

/// The home passport's `asks` with the sent ones recorded (§4.3), or `None` when that changes
/// nothing. A sent ask whose WHAT an ask of the passport already has is that ask, re-sent: its
/// wording is refreshed, its answer and status kept (task-passport's `recordSentAsks`); any
/// other gets the next free id `aN`.
fn record_asks(passport: &Json, sent: &[AskArg]) -> Option<Json> {
    let held: Vec<Json> = passport
        .get("asks")
        .and_then(Json::as_array)
        .unwrap_or_default()
        .to_vec();
    let mut next = held.clone();
    for ask in sent {
        let same = next
            .iter_mut()
            .find(|a| a.get("what").and_then(Json::as_str).map(str::trim) == Some(&ask.what));
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
            !items
                .iter()
                .any(|item| item.get("id").and_then(Json::as_str) == Some(id))
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
fn pack_object(
    passport: &Json,
    id: &str,
    options: &PackOptions,
    luggage: &[Luggage],
) -> Result<(Json, Packed), PackError> {
    let text = |s: &str| Json::Str(s.to_owned());
    let version = match passport.get("version") {
        Some(Json::Number(n)) => n.as_u64().unwrap_or_default(),
        _ => 0,
    };
    let lineage = extend_lineage(passport.get("lineage"), id, version)?;
    let mut state = passport.clone();
    // The pack carries the lineage at its own level, extended; the home copy stays home.
    if let Json::Object(members) = &mut state {
        members.retain(|(k, _)| k != "lineage");
    }
    let sealed = seal_facts(&mut state, &options.actor, &options.machine);
    let asks_sent: Vec<&Json> = match options.kind {
        Kind::Handoff => Vec::new(),
        // A receipt carries the answers: every ask of the passport answered or dropped.
        Kind::Receipt => passport
            .get("asks")
            .and_then(Json::as_array)
            .unwrap_or_default()
            .iter()
            .filter(|a| {
                matches!(
                    a.get("status").and_then(Json::as_str),
                    Some("answered" | "dropped")
                )
            })
            .collect(),
    };
    let held = passport
        .get("asks")
        .and_then(Json::as_array)
        .unwrap_or_default();
    let mut asks: Vec<Json> = asks_sent.into_iter().cloned().collect();
    for ask in &options.asks {
        // The recorded ask of that WHAT (the passport as saved holds every sent ask).
        let recorded = held
            .iter()
            .find(|a| a.get("what").and_then(Json::as_str).map(str::trim) == Some(&ask.what));
        let sent = match recorded {
            Some(recorded) => normalize_ask(recorded),
            None => new_ask(&free_id(&asks, "a"), ask),
        };
        if !asks.iter().any(|a| a.get("id") == sent.get("id")) {
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
    let harness = match state.get("harness") {
        value if Json::truthy(value) => value.cloned().unwrap_or(Json::Null),
        _ => text(""),
    };
    let packed_at = options
        .packed_at
        .clone()
        .unwrap_or_else(crate::store::now_utc);
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
        asks: asks.iter().map(|a| Json::js_string(a.get("id"))).collect(),
        landing_checks: options.checks.len(),
        sealed,
        luggage: luggage.iter().map(|l| l.name.clone()).collect(),
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
        PackError::Refused(vec![Refusal {
            code: "invalid_lineage",
            message: format!("the passport's `lineage` {why}; it must be {{\"root_id\": ID, \"chain\": [\"ID@VERSION\", …]}}"),
        }])
    };
    let (root_id, mut chain) = match kept {
        None => (id.to_owned(), Vec::new()),
        Some(lineage @ Json::Object(_)) => {
            let root = match lineage.get("root_id") {
                Some(Json::Str(root)) if !root.trim().is_empty() => root.clone(),
                other => {
                    return Err(invalid(format!(
                        "has root_id {}",
                        other.map_or("missing".to_owned(), Json::to_js_compact)
                    )))
                }
            };
            let chain = match lineage.get("chain") {
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
fn seal_facts(state: &mut Json, actor: &str, machine: &str) -> usize {
    seal::seal_facts(state, machine);
    let Some(Json::Array(facts)) = super::member_mut(state, "facts") else {
        return 0;
    };
    let mut sealed = 0;
    for fact in facts.iter_mut().filter(|f| f.is_object()) {
        if seal::is_machine_scoped(fact) {
            sealed += 1;
        } else if fact.get("scope").and_then(Json::as_str) == Some("org")
            && fact.get("source").is_none()
            && !actor.is_empty()
        {
            set_member(fact, "source", Json::Str(actor.to_owned()));
        }
    }
    sealed
}

/// The pattern a refusal names.
fn pattern_words(finding: Finding) -> String {
    let check = match finding {
        Finding::Credential => "C7",
        Finding::Transcript => "C8",
    };
    format!("the {check} pattern `{}`", finding.pattern())
}

fn finding_code(finding: Finding) -> &'static str {
    match finding {
        Finding::Credential => "credential",
        Finding::Transcript => "chat_transcript",
    }
}

/// Every reason the pack object may not leave: a forbidden key anywhere (§4.1, §4.5), a key
/// or string the credential or transcript pattern matches (§4.1), an ask without `accept`
/// (§4.3), then any other check of §6 on the pack object (the judge's own functions).
fn object_refusals(object: &Json) -> Vec<Refusal> {
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
                    refusals.push(Refusal {
                        code: "forbidden_field",
                        message: format!("`{at}` is {what}"),
                    });
                }
            }
        }
    });
    for (finding, pointer) in patterns::scan_json(object) {
        refusals.push(Refusal {
            code: finding_code(finding),
            message: format!(
                "`{}` carries {} ({})",
                path_of(object, &pointer),
                finding.describe(),
                pattern_words(finding)
            ),
        });
    }
    let asks = object
        .get("asks")
        .and_then(Json::as_array)
        .unwrap_or_default();
    for (i, ask) in asks.iter().enumerate() {
        let accept = ask.get("accept").and_then(Json::as_str).unwrap_or_default();
        if accept.trim().is_empty() {
            refusals.push(Refusal {
                code: "ask_without_accept",
                message: format!(
                    "ask `{}` (`asks[{i}]`) has no accept: say what would count as answered (§4.3; --ask \"WHAT|ACCEPT\")",
                    Json::js_string(ask.get("id"))
                ),
            });
        }
    }
    if refusals.is_empty() {
        // Anything else a judge would fail on the pack object (a fact with an unknown scope,
        // a member of the wrong type): the writer is exactly as strict as the judge (§6).
        for (check, problem) in conformance::pack_object_problems(object) {
            refusals.push(Refusal {
                code: "not_conformant",
                message: format!("{check}: {problem}"),
            });
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

/// Reads every `--attach` path once (see [`Luggage`]): a directory is walked in name order and
/// keeps its shape under its own name (task-passport's `readLuggage`); each name is made a
/// luggage name as a writer keeps it ([`bag::luggage_path`]), so that it round-trips (C9).
fn read_luggage(paths: &[PathBuf], refusals: &mut Vec<Refusal>) -> Result<Vec<Luggage>, PackError> {
    let mut files = Vec::new();
    for path in paths {
        let base = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        walk(path, base, &mut files)?;
    }
    let mut luggage: Vec<Luggage> = Vec::new();
    for (source, relative) in files {
        let name = bag::luggage_path(&relative);
        if name.is_empty() {
            refusals.push(Refusal {
                code: "luggage_name",
                message: format!(
                    "attachment `{}` has no usable name (nothing of `{relative}` is a luggage name)",
                    source.display()
                ),
            });
            continue;
        }
        if let Some(first) = luggage.iter().find(|l| l.name == name) {
            refusals.push(Refusal {
                code: "luggage_name",
                message: format!(
                    "attachments `{}` and `{}` would both travel as `{FILES_DIR}{name}`",
                    first.source.display(),
                    source.display()
                ),
            });
            continue;
        }
        let (size, sha256, readable, findings) = first_read(&source)?;
        for finding in findings {
            refusals.push(Refusal {
                code: finding_code(finding),
                message: format!(
                    "attachment `{name}` (from `{}`) carries {} ({})",
                    source.display(),
                    finding.describe(),
                    pattern_words(finding)
                ),
            });
        }
        luggage.push(Luggage {
            source,
            name,
            size,
            sha256,
            readable,
        });
    }
    Ok(luggage)
}

/// Collects the files under `path`. A path given on the command line is followed wherever it
/// points; inside a folder, a link to a folder is refused (it could loop back), and anything
/// that is neither a file nor a folder (a device, a FIFO) is refused wherever it is.
fn walk(
    path: &Path,
    relative: String,
    files: &mut Vec<(PathBuf, String)>,
) -> Result<(), PackError> {
    let io = |e| PackError::Io(path.to_owned(), e);
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_file() {
        files.push((path.to_owned(), relative));
    } else if meta.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)
            .map_err(io)?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        entries.sort();
        for name in entries {
            let child = path.join(&name);
            let linked = std::fs::symlink_metadata(&child)
                .map_err(|e| PackError::Io(child.clone(), e))?
                .file_type()
                .is_symlink();
            if linked && child.is_dir() {
                return Err(PackError::Io(
                    child,
                    io::Error::other(
                        "a link to a folder inside an attached folder is not followed",
                    ),
                ));
            }
            walk(
                &child,
                format!("{relative}/{}", name.to_string_lossy()),
                files,
            )?;
        }
    } else {
        return Err(io(io::Error::other("neither a file nor a folder")));
    }
    Ok(())
}

/// The first read of an attachment: its size, digest, whether it travels as `utf8` in the flat
/// form ([`super::flat::is_readable_text`], decided as it streams), and what the patterns find.
fn first_read(path: &Path) -> Result<(u64, [u8; 32], bool, Vec<Finding>), PackError> {
    let io = |e| PackError::Io(path.to_owned(), e);
    let mut file = File::open(path).map_err(io)?;
    let mut buffer = vec![0u8; CHUNK];
    let mut hasher = Sha256::new();
    let mut scan = StreamScan::default();
    let mut text = TextTest::default();
    let mut size = 0u64;
    loop {
        let n = read_some(&mut file, &mut buffer).map_err(io)?;
        if n == 0 {
            break;
        }
        let bytes = &buffer[..n];
        hasher.update(bytes);
        scan.feed(bytes);
        text.feed(bytes);
        size += n as u64;
    }
    Ok((size, hasher.finalize().into(), text.finish(), scan.finish()))
}

fn read_some(file: &mut File, buffer: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buffer) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

/// [`super::flat::is_readable_text`] over a stream: valid UTF-8 (a sequence may straddle two
/// reads) with no C0 control but tab, line feed, vertical tab, form feed and carriage return.
/// Those controls are single bytes that never occur inside a multi-byte sequence, so they are
/// tested byte by byte.
#[derive(Default)]
struct TextTest {
    carry: Vec<u8>,
    failed: bool,
}

impl TextTest {
    fn feed(&mut self, bytes: &[u8]) {
        if self.failed {
            return;
        }
        if bytes.iter().any(|b| matches!(b, 0..=8 | 0x0e..=0x1f)) {
            self.failed = true;
            return;
        }
        let mut joined;
        let bytes = if self.carry.is_empty() {
            bytes
        } else {
            joined = std::mem::take(&mut self.carry);
            joined.extend_from_slice(bytes);
            &joined[..]
        };
        match std::str::from_utf8(bytes) {
            Ok(_) => self.carry.clear(),
            Err(e) if e.error_len().is_none() => {
                self.carry = bytes[e.valid_up_to()..].to_vec();
            }
            Err(_) => self.failed = true,
        }
    }

    fn finish(self) -> bool {
        !self.failed && self.carry.is_empty()
    }
}

/// Writes the pack to a temporary file beside `out` (committed by the caller).
fn write_pack(
    out: &Path,
    encoding: Encoding,
    object: &Json,
    luggage: &[Luggage],
) -> Result<AtomicFile, PackError> {
    let io = |e| PackError::Io(out.to_owned(), e);
    let mut file = AtomicFile::create(out).map_err(io)?;
    match encoding {
        Encoding::Flat => write_flat(file.writer(), object, luggage)?,
        Encoding::Zip | Encoding::RetiredTpx => write_zip(file.writer(), object, luggage)?,
    }
    Ok(file)
}

/// Streams one attachment's bytes to `sink` in full reads of [`CHUNK`] (the last one shorter),
/// checking they are still the bytes the first read hashed.
fn second_read(
    luggage: &Luggage,
    mut sink: impl FnMut(&[u8]) -> io::Result<()>,
) -> Result<(), PackError> {
    let io = |e| PackError::Io(luggage.source.clone(), e);
    let mut file = File::open(&luggage.source).map_err(io)?;
    let mut buffer = vec![0u8; CHUNK];
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    loop {
        // Fill the buffer (a short read would break the base64 concatenation).
        let mut filled = 0;
        while filled < buffer.len() {
            let n = read_some(&mut file, &mut buffer[filled..]).map_err(io)?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            break;
        }
        hasher.update(&buffer[..filled]);
        size += filled as u64;
        sink(&buffer[..filled]).map_err(io)?;
        if filled < buffer.len() {
            break;
        }
    }
    let digest: [u8; 32] = hasher.finalize().into();
    if digest != luggage.sha256 || size != luggage.size {
        return Err(PackError::Refused(vec![Refusal {
            code: "luggage_changed",
            message: format!(
                "attachment `{}` (from `{}`) changed while it was being packed",
                luggage.name,
                luggage.source.display()
            ),
        }]));
    }
    Ok(())
}

/// The zip form: the entries `bag::assemble` makes, in its order, the luggage streamed.
fn write_zip<W: Write + io::Seek>(
    out: &mut W,
    object: &Json,
    luggage: &[Luggage],
) -> Result<(), PackError> {
    let packed_at = object
        .get("packed_at")
        .and_then(Json::as_str)
        .unwrap_or_default();
    let passport_json = format!("{}\n", object.to_js_pretty()).into_bytes();
    let passport_sha: [u8; 32] = Sha256::digest(&passport_json).into();
    let names: Vec<String> = luggage
        .iter()
        .map(|l| format!("{FILES_DIR}{}", l.name))
        .collect();
    let mut payload: Vec<(&str, u64, [u8; 32])> =
        vec![(PASSPORT_JSON, passport_json.len() as u64, passport_sha)];
    payload.extend(
        luggage
            .iter()
            .zip(&names)
            .map(|(l, name)| (name.as_str(), l.size, l.sha256)),
    );
    let zip_error =
        |e: zip::result::ZipError| PackError::Io(PathBuf::from(PASSPORT_JSON), io::Error::other(e));
    let mut writer = zip::ZipWriter::new(out);
    for entry in bag::tag_files(object, &payload) {
        let bytes = entry.bytes.expect("tag files hold their bytes");
        writer
            .start_file(
                entry.name.as_str(),
                bag::entry_options(packed_at, bytes.len() as u64),
            )
            .map_err(zip_error)?;
        writer
            .write_all(&bytes)
            .map_err(|e| PackError::Io(PathBuf::from(&entry.name), e))?;
    }
    writer
        .start_file(
            PASSPORT_JSON,
            bag::entry_options(packed_at, passport_json.len() as u64),
        )
        .map_err(zip_error)?;
    writer
        .write_all(&passport_json)
        .map_err(|e| PackError::Io(PathBuf::from(PASSPORT_JSON), e))?;
    for (item, name) in luggage.iter().zip(&names) {
        writer
            .start_file(name.as_str(), bag::entry_options(packed_at, item.size))
            .map_err(zip_error)?;
        second_read(item, |bytes| writer.write_all(bytes))?;
    }
    writer.finish().map_err(zip_error)?;
    Ok(())
}

/// The flat form, byte for byte what `flat::write_flat` writes, each attachment's data
/// streamed.
fn write_flat<W: Write>(out: &mut W, object: &Json, luggage: &[Luggage]) -> Result<(), PackError> {
    let io = |e| PackError::Io(PathBuf::from("<pack>"), e);
    let text = |s: &str| Json::Str(s.to_owned());
    let head = Json::Object(vec![
        ("taskpack".to_owned(), text(FLAT_VERSION)),
        ("encoding".to_owned(), text("flat")),
        ("note_to_reader".to_owned(), text(NOTE_TO_READER)),
        ("passport".to_owned(), object.clone()),
        ("attachments".to_owned(), Json::Array(Vec::new())),
    ])
    .to_js_pretty();
    if luggage.is_empty() {
        return writeln!(out, "{head}").map_err(io);
    }
    let prefix = head
        .strip_suffix("[]\n}")
        .expect("the flat form ends with its attachments");
    writeln!(out, "{prefix}[").map_err(io)?;
    for (i, item) in luggage.iter().enumerate() {
        let encoding = if item.readable { "utf8" } else { "base64" };
        write!(
            out,
            "    {{\n      \"name\": {},\n      \"encoding\": \"{encoding}\",\n      \"sha256\": \"{}\",\n      \"bytes\": {},\n      \"data\": \"",
            text(&item.name).to_js_compact(),
            hex(&item.sha256),
            item.size
        )
        .map_err(io)?;
        if item.readable {
            // A read may end inside a UTF-8 sequence: the tail waits for the next read.
            let mut carry: Vec<u8> = Vec::new();
            second_read(item, |bytes| {
                carry.extend_from_slice(bytes);
                let valid = match std::str::from_utf8(&carry) {
                    Ok(_) => carry.len(),
                    Err(e) => e.valid_up_to(),
                };
                let chunk = std::str::from_utf8(&carry[..valid]).expect("checked above");
                let escaped = Json::Str(chunk.to_owned()).to_js_compact();
                out.write_all(&escaped.as_bytes()[1..escaped.len() - 1])?;
                carry.drain(..valid);
                Ok(())
            })?;
        } else {
            let engine = base64::engine::general_purpose::STANDARD;
            second_read(item, |bytes| out.write_all(engine.encode(bytes).as_bytes()))?;
        }
        let comma = if i + 1 < luggage.len() { "," } else { "" };
        write!(out, "\"\n    }}{comma}\n").map_err(io)?;
    }
    out.write_all(b"  ]\n}\n").map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Luggage written to a scratch directory and read as `pack` reads it.
    fn scratch_luggage(name: &str, files: &[(&str, Vec<u8>)]) -> (PathBuf, Vec<Luggage>) {
        let dir = std::env::temp_dir().join(format!("specmint-pack-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let paths: Vec<PathBuf> = files
            .iter()
            .map(|(file, bytes)| {
                let path = dir.join(file);
                std::fs::write(&path, bytes).unwrap();
                path
            })
            .collect();
        let mut refusals = Vec::new();
        let luggage = read_luggage(&paths, &mut refusals).unwrap();
        assert_eq!(refusals, vec![]);
        (dir, luggage)
    }

    #[test]
    fn streamed_encodings_are_byte_for_byte_the_in_memory_writers() {
        // Larger than a read, with a multi-byte character across every read boundary.
        let mut text = "é".repeat(CHUNK);
        text.push_str("\n\"quoted\" \\ tab\there 中文");
        let mut binary: Vec<u8> = (0..=255u8).cycle().take(CHUNK * 2 + 7).collect();
        binary[0] = 0;
        let files = [
            ("notes.md", text.clone().into_bytes()),
            ("quoted.txt", b"a \"b\" \\ c\r\n\x0b".to_vec()),
            ("raw.bin", binary),
            ("empty.txt", Vec::new()),
        ];
        let (dir, luggage) = scratch_luggage("equal", &files);
        let object = Json::parse(
            r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
                "origin":{"actor":"ds","machine":"m","harness":""},"lineage":{"root_id":"P","from_version":1,"chain":["P@1"]},
                "note":"","passport":{"id":"P","title":"t"},"asks":[],"landing_checks":[]}"#,
        )
        .unwrap();
        let attachments: Vec<super::super::flat::Attachment> = files
            .iter()
            .map(|(name, bytes)| super::super::flat::Attachment {
                name: (*name).to_owned(),
                bytes: bytes.clone(),
            })
            .collect();
        let mut flat = Vec::new();
        write_flat(&mut flat, &object, &luggage).unwrap();
        let expected = super::super::flat::write_flat(&object, &attachments, None).unwrap();
        let at = flat
            .iter()
            .zip(expected.as_bytes())
            .position(|(a, b)| a != b);
        assert!(
            flat == expected.as_bytes(),
            "the streamed flat form differs at {at:?}: {:?}",
            at.map(|i| String::from_utf8_lossy(
                &flat[i.saturating_sub(80)..(i + 80).min(flat.len())]
            )
            .into_owned())
        );
        let mut zip = std::io::Cursor::new(Vec::new());
        write_zip(&mut zip, &object, &luggage).unwrap();
        let expected =
            super::super::convert::encode(Encoding::Zip, &object, &attachments, None).unwrap();
        assert!(zip.into_inner() == expected, "the streamed zip differs");
        let mut none = Vec::new();
        write_flat(&mut none, &object, &[]).unwrap();
        assert_eq!(
            String::from_utf8(none).unwrap(),
            super::super::flat::write_flat(&object, &[], None).unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ask_and_check_syntax_is_task_passports() {
        assert_eq!(
            AskArg::parse(" which quarter? | a date range | fiscal vs calendar ").unwrap(),
            AskArg {
                what: "which quarter?".to_owned(),
                accept: "a date range".to_owned(),
                why: "fiscal vs calendar".to_owned()
            }
        );
        assert_eq!(AskArg::parse("no accept").unwrap().accept, "");
        assert_eq!(AskArg::parse("a|b|c|d").unwrap().why, "c|d");
        assert_eq!(
            AskArg::parse(" |x").unwrap_err(),
            "--ask ` |x`: WHAT is blank (the syntax is \"WHAT|ACCEPT[|WHY]\")"
        );
        assert_eq!(
            CheckArg::parse("renders PDF|r --version").unwrap(),
            CheckArg {
                check: "renders PDF".to_owned(),
                how: "r --version".to_owned()
            }
        );
        assert_eq!(CheckArg::parse("fonts").unwrap().how, "");
        assert!(CheckArg::parse("|how").is_err());
    }

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

    #[test]
    fn the_streamed_text_test_is_the_flat_writers() {
        for sample in [
            "plain\ttext\r\n".as_bytes(),
            "中文说明 😀".as_bytes(),
            b"\x00binary",
            b"\xff\xfe",
            b"ends inside \xe4\xb8",
            b"bell\x07",
        ] {
            for split in 1..sample.len() {
                let mut test = TextTest::default();
                test.feed(&sample[..split]);
                test.feed(&sample[split..]);
                assert_eq!(
                    test.finish(),
                    super::super::flat::is_readable_text(sample),
                    "{sample:?} split at {split}"
                );
            }
        }
    }
}
