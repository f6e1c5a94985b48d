//! The conformance judge: checks C0–C10 of TaskPack §6 on a pack in either encoding.
//!
//! It judges strictly (§6, C0): the bytes as written must satisfy every rule, and nothing is
//! repaired before a check looks. Where a read for use would tolerate something (an attachment
//! without `sha256`, a retired `.tpx` file) or abort (a declared digest that does not match), the
//! judge records it against the check it belongs to and goes on judging the rest, so a report
//! names every failure, not the first. A check that cannot be judged because the pack object
//! could not be read is reported as skipped, never as passed.
//!
//! A `.taskpack` is judged as it streams: each attachment is hashed and scanned for credentials
//! and transcripts (C7, C8, with [`crate::taskpack::judge::patterns`], the patterns packing refuses with) while it
//! is inflated, and the round trip (C9) is decided from the digests, so judging holds one buffer
//! whatever the attachments' size.
//!
//! C0 checks the flat form's own rules, duplicate keys, the forbidden keys of spec/taskpack.md,
//! and the pack object against the generated validator of the same spec (whose task state is
//! open where TaskPack leaves it open): [`model_findings`] is the one place that call goes.

use std::fs::File;
use std::io::{BufReader, Read, Seek};
use std::path::Path;

use crate::taskpack::encodings::bag::{
    self, Bag, BagError, Limits, Observer, BAG_SPEC, FILES_DIR, PASSPORT_JSON,
};
use crate::taskpack::encodings::flat::{self, FlatError};
use crate::taskpack::judge::patterns::{self, AttachmentScan, Finding};
use crate::taskpack::lenient::{self, AskView, FactView, LineageView, PackMembers, StateView};
use crate::taskpack::FactScope;
use specmint_runtime::document::split_serde_position;
use specmint_runtime::json::{strip_bom, Json};

/// A check's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The pack satisfies it.
    Pass,
    /// The pack does not.
    Fail,
    /// It could not be judged (the pack object could not be read); the pack is not conformant.
    Skip,
}

impl Status {
    /// `pass`, `fail` or `skip`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Skip => "skip",
        }
    }
}

/// One check of §6.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// `C0` … `C10`.
    pub id: &'static str,
    /// The requirement, in §6's words.
    pub requirement: &'static str,
    /// Its outcome.
    pub status: Status,
    /// Why: what was found, naming the field or entry.
    pub reason: String,
}

/// The checks of §6, in order.
pub const REQUIREMENTS: [(&str, &str); 11] = [
    (
        "C0",
        "the file is conformant as written: reading it required no repair",
    ),
    ("C1", "BagIt structure and sha256 manifests agree"),
    ("C2", "data/passport.json parses"),
    ("C3", "kind is handoff or receipt"),
    ("C4", "lineage carries root_id and from_version"),
    ("C5", "every ask has an accept"),
    ("C6", "no machine-scoped fact crosses wearing a ✓"),
    (
        "C7",
        "no credentials, in any field of the pack object or in the luggage",
    ),
    ("C8", "no chat transcript"),
    ("C9", "the two encodings round-trip byte-for-byte"),
    ("C10", "packed_at is declared"),
];

/// The judgement of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// C0 … C10, in order.
    pub checks: Vec<Check>,
}

impl Verdict {
    /// Whether every check passed.
    pub fn conformant(&self) -> bool {
        self.checks.iter().all(|c| c.status == Status::Pass)
    }

    /// The ids of the checks that failed.
    pub fn failed(&self) -> Vec<&'static str> {
        self.with_status(Status::Fail)
    }

    /// The ids of the checks that could not be judged.
    pub fn skipped(&self) -> Vec<&'static str> {
        self.with_status(Status::Skip)
    }

    fn with_status(&self, status: Status) -> Vec<&'static str> {
        self.checks
            .iter()
            .filter(|c| c.status == status)
            .map(|c| c.id)
            .collect()
    }
}

/// Everything the checks look at, gathered from either encoding.
struct Material {
    /// Departures from the encoding as written (C0).
    as_written: Vec<String>,
    /// Structure and integrity problems (C1).
    structure: Vec<String>,
    /// The pack object, or why it cannot be read (C2).
    passport: Result<Json, String>,
    /// What the luggage scan found: `(finding, attachment name)`.
    luggage: Vec<(Finding, String)>,
    /// Why the round trip would not reproduce the bag (C9).
    round_trip: Vec<String>,
}

/// Judges the file at `path`: a zip (it starts with [`bag::ZIP_MAGIC`]) or the flat form.
pub fn judge_path(path: &Path, limits: Limits) -> std::io::Result<Verdict> {
    let mut file = File::open(path)?;
    let mut magic = [0u8; bag::ZIP_MAGIC.len()];
    let n = file.read(&mut magic)?;
    file.rewind()?;
    if magic[..n] == *bag::ZIP_MAGIC {
        Ok(judge_zip(BufReader::new(file), limits))
    } else {
        Ok(judge_flat_from(&mut file))
    }
}

/// Judges a `.taskpack`, streaming its luggage.
pub fn judge_zip<R: Read + Seek>(reader: R, limits: Limits) -> Verdict {
    let mut scan = LuggageScan::default();
    let bag = match bag::read_zip(reader, limits, false, &mut scan) {
        Ok(bag) => bag,
        Err(problem) => return unreadable(problem.to_string()),
    };
    let structure: Vec<String> = bag::verify(&bag).iter().map(BagError::to_string).collect();
    let passport = read_passport(&bag);
    let as_written = match &passport {
        Ok(passport) => passport
            .duplicate_keys()
            .into_iter()
            .map(|pointer| format!("the key at `{pointer}` appears twice in its object"))
            .collect(),
        Err(_) => Vec::new(),
    };
    let round_trip = match &passport {
        Ok(passport) => round_trip_problems(&bag, passport),
        Err(_) => Vec::new(),
    };
    judge(Material {
        as_written,
        structure,
        passport,
        luggage: scan.found,
        round_trip,
    })
}

/// Judges a flat (or retired `.tpx`) file held in memory.
pub fn judge_flat(input: &[u8]) -> Verdict {
    judge_flat_from(&mut std::io::Cursor::new(input))
}

/// Judges a flat (or retired `.tpx`) file in bounded memory: its luggage streams through the
/// scan ([`flat::parse_flat_from`]).
pub fn judge_flat_from<R: Read + Seek>(reader: &mut R) -> Verdict {
    let mut scan = LuggageScan::default();
    let pack = match flat::parse_flat_from(reader, &mut scan) {
        Ok(pack) => pack,
        Err(FlatError::NoPassport) => {
            return judge(Material {
                as_written: Vec::new(),
                structure: Vec::new(),
                passport: Err(FlatError::NoPassport.to_string()),
                luggage: Vec::new(),
                round_trip: Vec::new(),
            })
        }
        Err(problem) => return unreadable(problem.to_string()),
    };
    let round_trip = round_trip_problems(&pack.to_bag(), &pack.passport);
    judge(Material {
        as_written: pack.as_written,
        structure: pack.mismatches,
        passport: Ok(pack.passport),
        luggage: scan.found,
        round_trip,
    })
}

/// A file that could not be read as a pack at all: C1 fails, the rest cannot be judged.
fn unreadable(reason: String) -> Verdict {
    let checks = (0..REQUIREMENTS.len())
        .map(|index| match index {
            1 => Check::judged(index, vec![reason.clone()], String::new()),
            _ => Check::skipped(index, "the file could not be read as a pack (C1)"),
        })
        .collect();
    Verdict { checks }
}

impl Check {
    /// Check `index` of [`REQUIREMENTS`]: passed with `ok` as its reason when there are no
    /// problems, else failed with all of them.
    fn judged(index: usize, problems: Vec<String>, ok: String) -> Check {
        let (id, requirement) = REQUIREMENTS[index];
        let (status, reason) = if problems.is_empty() {
            (Status::Pass, ok)
        } else {
            (Status::Fail, problems.join("; "))
        };
        Check {
            id,
            requirement,
            status,
            reason,
        }
    }

    /// Check `index`, not judged because of `why`.
    fn skipped(index: usize, why: &str) -> Check {
        let (id, requirement) = REQUIREMENTS[index];
        Check {
            id,
            requirement,
            status: Status::Skip,
            reason: format!("not judged: {why}"),
        }
    }
}

pub(crate) fn read_passport(bag: &Bag) -> Result<Json, String> {
    let raw = bag
        .bytes(PASSPORT_JSON)
        .ok_or_else(|| format!("{PASSPORT_JSON} is missing"))?;
    let text =
        std::str::from_utf8(raw).map_err(|e| format!("{PASSPORT_JSON} is not UTF-8: {e}"))?;
    let passport =
        Json::parse(strip_bom(text)).map_err(|e| format!("{PASSPORT_JSON} is not JSON: {e}"))?;
    if passport.is_object() {
        Ok(passport)
    } else {
        Err(format!("{PASSPORT_JSON} is not a JSON object"))
    }
}

/// §8: a reader rejects a pack object `spec` it does not recognise.
pub(crate) fn spec_problem(passport: &Json) -> Option<String> {
    let spec = lenient::view::<PackMembers>(passport).spec;
    match spec.as_ref().and_then(Json::as_str) {
        Some(BAG_SPEC) => None,
        _ => Some(format!(
            "the pack object's spec is {}, not {BAG_SPEC}",
            describe(spec.as_ref())
        )),
    }
}

fn describe(value: Option<&Json>) -> String {
    match value {
        None => "missing".to_owned(),
        Some(v) => v.to_js_compact(),
    }
}

/// Why the bag would not come back byte-for-byte through the flat form: every entry is a tag
/// file, the pack object or luggage; the pack object is written as the flat form's writer writes
/// it; every luggage name survives a writer; the tag files are the ones the pack object and the
/// payload derive.
fn round_trip_problems(bag: &Bag, passport: &Json) -> Vec<String> {
    let mut problems = Vec::new();
    let tags = [
        bag::BAGIT_TXT,
        bag::BAG_INFO_TXT,
        bag::MANIFEST,
        bag::TAG_MANIFEST,
    ];
    for entry in &bag.entries {
        if let Some(name) = entry.luggage_name() {
            let kept = bag::luggage_path(name);
            if kept != name {
                problems.push(format!(
                    "`{}` would travel as `{FILES_DIR}{kept}`: its name is not a luggage name",
                    entry.name
                ));
            }
        } else if entry.name != PASSPORT_JSON && !tags.contains(&entry.name.as_str()) {
            problems.push(format!("`{}` is not carried by the flat form", entry.name));
        }
    }
    let canonical = format!("{}\n", passport.to_js_pretty());
    if bag.bytes(PASSPORT_JSON) != Some(canonical.as_bytes()) {
        problems.push(format!(
            "{PASSPORT_JSON} is not written as JSON.stringify(pack, null, 2) plus a newline, so it comes back different"
        ));
    }
    let mut payload: Vec<(&str, u64, [u8; 32])> = vec![(PASSPORT_JSON, canonical.len() as u64, {
        use sha2::Digest;
        sha2::Sha256::digest(canonical.as_bytes()).into()
    })];
    payload.extend(
        bag.entries
            .iter()
            .filter(|e| e.luggage_name().is_some())
            .map(|e| (e.name.as_str(), e.size, e.sha256)),
    );
    for derived in bag::tag_files(passport, &payload) {
        if bag.bytes(&derived.name) != derived.bytes.as_deref() {
            problems.push(format!(
                "{} is not the one its pack object and payload derive, so it comes back different",
                derived.name
            ));
        }
    }
    problems
}

/// The pack object's rules as written that no other check owns: the forbidden keys of
/// spec/taskpack.md anywhere (named by their place in the pack object), then every rule of
/// the generated validator of spec/taskpack.md on the pack object, read as the flat form's
/// `passport`.
///
/// The members another check owns (`spec` C1, `kind` C3, `lineage` C4, the asks' `accept` C5,
/// the presence of `packed_at` C10) are replaced by a valid stand-in before the validator
/// looks, and forbidden keys are taken out (reported above), so each failure is reported
/// once, by its own check, and the validator is not stopped short by one of them.
pub fn model_findings(passport: &Json) -> Vec<String> {
    let mut found = forbidden_key_findings(passport);
    let flat = Json::Object(vec![
        ("taskpack".to_owned(), Json::Str("0.1".to_owned())),
        ("encoding".to_owned(), Json::Str("flat".to_owned())),
        ("passport".to_owned(), stand_in(passport)),
    ]);
    if let Err(report) = crate::taskpack::FlatTaskPack::from_json_str(&flat.to_js_compact()) {
        // A rule's message names its member, and so does each further shape problem; serde's
        // own (the first shape error) does not, so say where: by the member's path, as its
        // line and column count in the re-serialized stand-in, not in the file judged.
        found.extend(report.iter().map(|v| {
            let named = v.message.starts_with(&format!("`{}`", v.path));
            let message = split_serde_position(&v.message).map_or(&*v.message, |(head, _)| head);
            if v.code == crate::taskpack::DOCUMENT.parse_error_code && !v.path.is_empty() && !named
            {
                format!("`{}`: {message}", v.path)
            } else {
                message.to_owned()
            }
        }));
    }
    found
}

/// Every forbidden key of spec/taskpack.md in the pack object, named with its place.
pub(crate) fn forbidden_key_findings(passport: &Json) -> Vec<String> {
    forbidden_key_places(passport)
        .into_iter()
        .map(|(_, message)| message)
        .collect()
}

/// [`forbidden_key_findings`], each with the RFC 6901 pointer of the key itself.
pub(crate) fn forbidden_key_places(passport: &Json) -> Vec<(String, String)> {
    let mut found = Vec::new();
    passport.walk(&mut String::new(), &mut |pointer, value| {
        if let Json::Object(members) = value {
            for (key, _) in members {
                if crate::taskpack::FORBIDDEN_KEYS.contains(&key.as_str()) {
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    found.push((
                        format!("{pointer}/{escaped}"),
                        format!(
                            "`{key}` at `{pointer}` is a forbidden field (no transcripts, no instructions in data)"
                        ),
                    ));
                }
            }
        }
    });
    found
}

/// Every problem the checks of §6 find in a pack object alone, as `(check id, problem)`: the
/// pack object's rules (C0), its `spec` (C1), `kind` (C3), lineage (C4), asks (C5), facts (C6),
/// credentials and transcripts (C7, C8) and `packed_at` (C10). What a writer must find empty
/// before it writes (the luggage and the round trip are the encoding's to get right).
pub fn pack_object_problems(passport: &Json) -> Vec<(&'static str, String)> {
    let members: PackMembers = lenient::view(passport);
    let mut problems: Vec<(&'static str, String)> = Vec::new();
    problems.extend(model_findings(passport).into_iter().map(|p| ("C0", p)));
    problems.extend(spec_problem(passport).map(|p| ("C1", p)));
    if !matches!(members.kind(), Some("handoff" | "receipt")) {
        problems.push((
            "C3",
            format!(
                "kind is {}, not handoff or receipt",
                describe(members.kind.as_ref())
            ),
        ));
    }
    problems.extend(
        lineage_problems(members.lineage.as_ref())
            .into_iter()
            .map(|p| ("C4", p)),
    );
    problems.extend(
        ask_problems(members.asks.as_ref())
            .into_iter()
            .map(|p| ("C5", p)),
    );
    problems.extend(fact_problems(&members).into_iter().map(|p| ("C6", p)));
    for (finding, pointer) in patterns::scan_json(passport) {
        let check = match finding {
            Finding::Credential => "C7",
            Finding::Transcript => "C8",
        };
        problems.push((
            check,
            format!(
                "the pack object carries {} at `{pointer}`",
                finding.describe()
            ),
        ));
    }
    if !non_blank(members.packed_at.as_ref()) {
        problems.push((
            "C10",
            format!("packed_at is {}", describe(members.packed_at.as_ref())),
        ));
    }
    problems
}

/// The pack object with the members other checks own made valid and forbidden keys removed.
fn stand_in(passport: &Json) -> Json {
    let given: PackMembers = lenient::view(passport);
    let mut pack = without_forbidden(passport);
    let Json::Object(members) = &mut pack else {
        return pack;
    };
    let text = |s: &str| Json::Str(s.to_owned());
    if given.spec.as_ref().and_then(Json::as_str) != Some(BAG_SPEC) {
        replace(members, "spec", text(BAG_SPEC));
    }
    if !matches!(given.kind(), Some("handoff" | "receipt")) {
        replace(members, "kind", text("handoff"));
    }
    if !lineage_problems(given.lineage.as_ref()).is_empty() {
        let lineage = Json::Object(vec![
            ("root_id".to_owned(), text("-")),
            ("from_version".to_owned(), Json::Number(0.into())),
        ]);
        replace(members, "lineage", lineage);
    }
    if !non_blank(given.packed_at.as_ref()) {
        replace(members, "packed_at", text("2026-01-01T00:00:00Z"));
    }
    match members.iter_mut().rev().find(|(k, _)| k == "asks") {
        Some((_, Json::Array(asks))) => {
            for ask in asks {
                let accept = lenient::view::<AskView>(ask).accept;
                if let Json::Object(fields) = ask {
                    if !non_blank(accept.as_ref()) {
                        replace(fields, "accept", text("-"));
                    }
                }
            }
        }
        Some(_) => replace(members, "asks", Json::Array(Vec::new())),
        None => {}
    }
    pack
}

/// Every member `key` of `members` (a repeated key included) replaced by one holding `value`.
fn replace(members: &mut Vec<(String, Json)>, key: &str, value: Json) {
    members.retain(|(k, _)| k != key);
    members.push((key.to_owned(), value));
}

fn without_forbidden(value: &Json) -> Json {
    match value {
        Json::Object(members) => Json::Object(
            members
                .iter()
                .filter(|(k, _)| !crate::taskpack::FORBIDDEN_KEYS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), without_forbidden(v)))
                .collect(),
        ),
        Json::Array(items) => Json::Array(items.iter().map(without_forbidden).collect()),
        other => other.clone(),
    }
}

fn judge(material: Material) -> Verdict {
    const MANIFESTS_AGREE: &str = "the manifests agree with the bag";
    let passport = match &material.passport {
        Ok(passport) => passport,
        Err(why) => {
            let checks = (0..REQUIREMENTS.len())
                .map(|index| match index {
                    1 => Check::judged(1, material.structure.clone(), MANIFESTS_AGREE.to_owned()),
                    2 => Check::judged(2, vec![why.clone()], String::new()),
                    _ => Check::skipped(index, "there is no pack object to judge (C2)"),
                })
                .collect();
            return Verdict { checks };
        }
    };
    let object = pack_object_problems(passport);
    let of = |check: &str| -> Vec<String> {
        object
            .iter()
            .filter(|(id, _)| *id == check)
            .map(|(_, problem)| problem.clone())
            .collect()
    };
    let mut checks = Vec::new();
    let mut record = |index: usize, problems: Vec<String>, ok: String| {
        checks.push(Check::judged(index, problems, ok));
    };
    let mut as_written = material.as_written.clone();
    as_written.extend(of("C0"));
    record(0, as_written, "nothing needed repair".to_owned());
    let mut structure = material.structure;
    structure.extend(of("C1"));
    record(1, structure, MANIFESTS_AGREE.to_owned());
    record(2, Vec::new(), "the pack object parses".to_owned());
    let members: PackMembers = lenient::view(passport);
    let kind = describe(members.kind.as_ref());
    record(3, of("C3"), format!("kind is {kind}"));
    record(
        4,
        of("C4"),
        "lineage carries root_id and from_version".to_owned(),
    );
    record(5, of("C5"), "every ask has an accept".to_owned());
    record(
        6,
        of("C6"),
        "no machine-scoped or unscoped fact is marked verified".to_owned(),
    );
    for (index, finding) in [(7, Finding::Credential), (8, Finding::Transcript)] {
        let mut found = of(REQUIREMENTS[index].0);
        found.extend(
            material
                .luggage
                .iter()
                .filter(|(f, _)| *f == finding)
                .map(|(f, name)| format!("`{name}` carries {}", f.describe())),
        );
        record(
            index,
            found,
            format!(
                "no {} in the pack object or the luggage",
                &finding.describe()[2..]
            ),
        );
    }
    record(
        9,
        material.round_trip,
        "flat and bag reproduce each other byte for byte".to_owned(),
    );
    let packed_at = describe(members.packed_at.as_ref());
    record(10, of("C10"), format!("packed_at is {packed_at}"));
    Verdict { checks }
}

pub(crate) fn lineage_problems(lineage: Option<&Json>) -> Vec<String> {
    let Some(lineage @ Json::Object(_)) = lineage else {
        return vec![format!("lineage is {}, not an object", describe(lineage))];
    };
    let lineage: LineageView = lenient::view(lineage);
    let mut problems = Vec::new();
    if !non_blank(lineage.root_id.as_ref()) {
        problems.push(format!(
            "lineage.root_id is {}",
            describe(lineage.root_id.as_ref())
        ));
    }
    if !matches!(&lineage.from_version, Some(Json::Number(n)) if n.as_u64().is_some()) {
        problems.push(format!(
            "lineage.from_version is {}, not a non-negative integer",
            describe(lineage.from_version.as_ref())
        ));
    }
    problems
}

/// A string that is not empty after trimming.
pub(crate) fn non_blank(value: Option<&Json>) -> bool {
    value
        .and_then(Json::as_str)
        .is_some_and(|s| !s.trim().is_empty())
}

pub(crate) fn ask_problems(asks: Option<&Json>) -> Vec<String> {
    ask_places(asks)
        .into_iter()
        .map(|(_, message)| message)
        .collect()
}

/// [`ask_problems`], each with the RFC 6901 pointer of what is wrong (`/asks/2/accept`, or
/// `/asks` when it is not a list).
pub(crate) fn ask_places(asks: Option<&Json>) -> Vec<(String, String)> {
    let asks = match asks {
        None => return Vec::new(),
        Some(Json::Array(asks)) => asks,
        Some(other) => {
            return vec![(
                "/asks".to_owned(),
                format!("asks is {}, not a list", describe(Some(other))),
            )]
        }
    };
    asks.iter()
        .map(lenient::view::<AskView>)
        .enumerate()
        .filter(|(_, ask)| !non_blank(ask.accept.as_ref()))
        .map(|(i, ask)| {
            let message = match ask.id.as_ref().and_then(Json::as_str) {
                Some(id) => format!("ask `{id}` (asks[{i}]) has no accept"),
                None => format!("asks[{i}] has no accept"),
            };
            (format!("/asks/{i}/accept"), message)
        })
        .collect()
}

/// C6: a fact whose scope is `machine`, missing, or not one of the three counts as
/// machine-scoped; none may cross with `verified: true`.
fn fact_problems(passport: &PackMembers) -> Vec<String> {
    let state: StateView = passport
        .passport
        .as_ref()
        .map(lenient::view)
        .unwrap_or_default();
    state
        .facts
        .iter()
        .enumerate()
        .filter(|(_, fact)| {
            let view: FactView = lenient::view(fact);
            !matches!(view.scope(), Some(FactScope::Universal | FactScope::Org))
                && view.verified == Some(true)
        })
        .map(|(i, fact)| {
            let scope = match lenient::view::<FactView>(fact).scope {
                None => "no scope (machine)".to_owned(),
                some => format!("scope {}", describe(some.as_ref())),
            };
            let words = crate::taskpack::passports::seal::fact_words(fact);
            format!(
                "passport.facts[{i}]{} has {scope} and crosses with verified: true",
                words
                    .map(|w| format!(" (`{}`)", w.chars().take(60).collect::<String>()))
                    .unwrap_or_default()
            )
        })
        .collect()
}

/// Scans each attachment as it is inflated.
#[derive(Default)]
struct LuggageScan {
    current: Option<(String, AttachmentScan)>,
    found: Vec<(Finding, String)>,
}

impl Observer for LuggageScan {
    fn start(&mut self, name: &str) {
        let name = name.strip_prefix(FILES_DIR).unwrap_or(name).to_owned();
        self.current = Some((name, AttachmentScan::default()));
    }

    fn chunk(&mut self, bytes: &[u8]) {
        if let Some((_, scan)) = &mut self.current {
            scan.feed(bytes);
        }
    }

    fn finish(&mut self) {
        if let Some((name, scan)) = self.current.take() {
            self.found
                .extend(scan.finish().into_iter().map(|f| (f, name.clone())));
        }
    }
}
