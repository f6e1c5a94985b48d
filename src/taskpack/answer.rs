//! TaskPack's answers on the command line (see [`crate::answer`]): what `specmint passport
//! new|list` and `specmint taskpack land|merge|pack|conformance` print with `--format json`. A
//! refusal is answered by the [`Refusal`] itself (`pack` adds every reason, [`PackRefused`]).
//! The A2A door's replies are [`super::a2a::answer`]'s.

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::ser::{Serialize, Serializer};
use serde_json::Number;
use specmint_runtime::json::Json;

use super::encodings::convert::Encoding;
use super::judge::conformance::Verdict;
use super::landing::arrival;
use super::landing::land::{Imperative, LandingCheck};
use super::lenient::{self, StateView};
use super::pack::{self, PackOptions};
use super::passports::PassportSummary;
use super::TaskPackError;
use crate::Refusal;

/// `passport new`: `{"ok": true, "passport_id", "version": 1}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Created<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The new passport.
    pub passport_id: &'a str,
    /// Its version: 1.
    pub version: u64,
}

impl<'a> Created<'a> {
    /// Passport `passport_id` was created, at version 1.
    pub fn new(passport_id: &'a str) -> Self {
        Created {
            ok: true,
            passport_id,
            version: 1,
        }
    }
}

/// `passport list`: `{"count", "passports", "skipped", "store"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Listed<'a> {
    /// How many passports.
    pub count: usize,
    /// Each passport, most recently updated first.
    pub passports: &'a [PassportSummary],
    /// The files that are not readable passports, each with why.
    pub skipped: &'a [String],
    /// The store's directory.
    pub store: &'a Path,
}

/// A landing check as the CLI reports it: `{"check", "how" (`null` when none), "how_is", "id",
/// "required"}`. `how` is the sender's: shown, never run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CheckShown<'a> {
    /// What must hold.
    pub check: &'a str,
    /// The sender's suggestion of how to check.
    pub how: Option<&'a str>,
    /// What `how` is: "the sender's suggestion: shown, never run".
    pub how_is: &'static str,
    /// The check's id.
    pub id: &'a str,
    /// Whether it must pass before the sender's next steps.
    pub required: bool,
}

/// An imperative sentence found in a pack: `{"at", "sentence"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ImperativeShown<'a> {
    /// RFC 6901 pointer into the pack object.
    pub at: &'a str,
    /// The sentence.
    pub sentence: &'a str,
}

fn checks(checks: &[LandingCheck]) -> Vec<CheckShown<'_>> {
    checks
        .iter()
        .map(|c| CheckShown {
            check: &c.check,
            how: c.how.as_deref(),
            how_is: "the sender's suggestion: shown, never run",
            id: &c.id,
            required: c.required,
        })
        .collect()
}

fn imperatives(found: &[Imperative]) -> Vec<ImperativeShown<'_>> {
    found
        .iter()
        .map(|i| ImperativeShown {
            at: &i.at,
            sentence: &i.sentence,
        })
        .collect()
}

/// Where each piece of luggage now is, as displayed.
fn paths(luggage: &[PathBuf]) -> Vec<String> {
    luggage.iter().map(|p| p.display().to_string()).collect()
}

/// `taskpack land`: the new passport and what the human must be told.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Landed<'a> {
    /// The new passport's id.
    pub id: &'a str,
    /// The imperative sentences found in the pack.
    pub imperatives: Vec<ImperativeShown<'a>>,
    /// `handoff`.
    pub kind: &'static str,
    /// The landing checks, required ones first.
    pub landing_checks: Vec<CheckShown<'a>>,
    /// The new passport's `lineage` (`null` when it has none).
    pub lineage: Option<ReadBack<Json>>,
    /// Where the luggage now is.
    pub luggage: Vec<String>,
    /// How many facts are to be re-verified here.
    pub needs_reverify: usize,
    /// Always `true`.
    pub ok: bool,
    /// The asks still open.
    pub open_asks: &'a [String],
    /// Facts whose ✓ was restored.
    pub restored: &'a [String],
    /// Facts sealed on the way in.
    pub sealed_on_arrival: &'a [String],
    /// The new passport's version (`null` when it is not a whole number).
    pub version: Option<u64>,
}

impl<'a> From<&'a arrival::Landed> for Landed<'a> {
    fn from(landed: &'a arrival::Landed) -> Self {
        let state: StateView = lenient::view(&landed.passport);
        let landing = &landed.landing;
        Landed {
            id: &landed.id,
            imperatives: imperatives(&landing.imperatives),
            kind: "handoff",
            landing_checks: checks(&landing.landing_checks),
            lineage: state.lineage.map(ReadBack),
            luggage: paths(&landed.luggage),
            needs_reverify: landing.needs_reverify,
            ok: true,
            open_asks: &landing.open_asks,
            restored: &landing.restored,
            sealed_on_arrival: &landing.sealed_on_arrival,
            version: match state.version {
                Some(Json::Number(n)) => n.as_u64(),
                _ => None,
            },
        }
    }
}

/// An answer a merge replaced: `{"id", "now", "was"}`.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Overwritten<'a> {
    /// The ask.
    pub id: &'a str,
    /// Its answer now.
    pub now: ReadBack<&'a Json>,
    /// Its answer before.
    pub was: ReadBack<&'a Json>,
}

/// `taskpack merge`: what the merge did to the passport it answers.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Merged<'a> {
    /// Asks of the receipt adopted as open.
    pub adopted_asks: &'a [String],
    /// Asks already answered as the receipt says.
    pub already_answered: &'a [String],
    /// Asks whose answer or status was written.
    pub answered: &'a [String],
    /// How many facts were adopted.
    pub facts_adopted: usize,
    /// The imperative sentences found in the receipt.
    pub imperatives: Vec<ImperativeShown<'a>>,
    /// The receipt's landing checks: reported, not adopted.
    pub landing_checks_not_adopted: Vec<CheckShown<'a>>,
    /// Where the receipt's luggage now is.
    pub luggage: Vec<String>,
    /// The passport merged into.
    pub merged_into: &'a str,
    /// Always `true`.
    pub ok: bool,
    /// Answers replaced.
    pub overwritten: Vec<Overwritten<'a>>,
    /// Facts of the receipt sealed on the way in.
    pub sealed_on_arrival: &'a [String],
    /// Asks of the passport still open.
    pub still_open: &'a [String],
    /// The passport's version after the merge.
    pub version: u64,
    /// Whether anything was written.
    pub written: bool,
}

impl<'a> Merged<'a> {
    /// `merged` into passport `into`.
    pub fn new(merged: &'a arrival::Merged, into: &'a str) -> Self {
        let report = &merged.report;
        Merged {
            adopted_asks: &report.adopted_asks,
            already_answered: &report.already_answered,
            answered: &report.answered,
            facts_adopted: report.facts_adopted,
            imperatives: imperatives(&report.imperatives),
            landing_checks_not_adopted: checks(&report.landing_checks),
            luggage: paths(&merged.luggage),
            merged_into: into,
            ok: true,
            overwritten: report
                .overwritten
                .iter()
                .map(|(id, was, now)| Overwritten {
                    id,
                    now: ReadBack(now),
                    was: ReadBack(was),
                })
                .collect(),
            sealed_on_arrival: &report.sealed_on_arrival,
            still_open: &report.still_open,
            version: merged.version,
            written: merged.written,
        }
    }
}

/// An attachment that travels under another name: `{"given", "kept"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Renamed<'a> {
    /// The name given.
    pub given: &'a str,
    /// The name it travels as.
    pub kept: &'a str,
}

/// `taskpack pack`: what the pack holds.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Packed<'a> {
    /// The ids of the pack's asks.
    pub asks: &'a [String],
    /// Whether the asks were recorded in the passport.
    pub asks_recorded: bool,
    /// `bagit-zip` or `flat`.
    pub encoding: &'static str,
    /// `handoff` or `receipt`.
    pub kind: &'static str,
    /// How many landing checks.
    pub landing_checks: usize,
    /// The pack's `lineage`.
    pub lineage: ReadBack<&'a Json>,
    /// The luggage names, under `data/files/`.
    pub luggage: &'a [String],
    /// Always `true`.
    pub ok: bool,
    /// The pack written.
    pub pack: &'a str,
    /// The passport packed.
    pub passport_id: &'a str,
    /// The attachments that travel under another name.
    pub renamed: Vec<Renamed<'a>>,
    /// How many facts went out sealed.
    pub sealed_facts: usize,
    /// The passport's version in the pack.
    pub state_version: u64,
}

impl<'a> Packed<'a> {
    /// `packed` written to `out` with `options`.
    pub fn new(packed: &'a pack::Packed, out: &'a str, options: &PackOptions) -> Self {
        Packed {
            asks: &packed.asks,
            asks_recorded: packed.asks_recorded,
            encoding: match options.encoding {
                Encoding::Flat => "flat",
                _ => "bagit-zip",
            },
            kind: options.kind.as_str(),
            landing_checks: packed.landing_checks,
            lineage: ReadBack(&packed.lineage),
            luggage: &packed.luggage,
            ok: true,
            pack: out,
            passport_id: &packed.passport_id,
            renamed: packed
                .renamed
                .iter()
                .map(|(given, kept)| Renamed { given, kept })
                .collect(),
            sealed_facts: packed.sealed,
            state_version: packed.version,
        }
    }
}

/// One reason `pack` refused: `{"code", "message"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Reason<'a> {
    /// The spec's code.
    pub code: &'static str,
    /// What and where.
    pub message: &'a str,
}

/// `taskpack pack` refused: the first reason's `{"code", "message", "ok": false}`, every
/// reason under `refusals`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PackRefused<'a> {
    /// The first reason's code.
    pub code: &'static str,
    /// The first reason's message.
    pub message: &'a str,
    /// Always `false`.
    pub ok: bool,
    /// Every reason.
    pub refusals: Vec<Reason<'a>>,
}

impl<'a> PackRefused<'a> {
    /// `refusals`, the first one first; `None` when there is none.
    pub fn new(refusals: &'a [Refusal<TaskPackError>]) -> Option<Self> {
        let first = refusals.first()?;
        Some(PackRefused {
            code: first.code.code(),
            message: &first.message,
            ok: false,
            refusals: refusals
                .iter()
                .map(|r| Reason {
                    code: r.code.code(),
                    message: &r.message,
                })
                .collect(),
        })
    }
}

/// One check of `taskpack conformance`: `{"id", "reason", "requirement", "status"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CheckJudged<'a> {
    /// `C0` … `C10`.
    pub id: &'static str,
    /// Why: what was found.
    pub reason: &'a str,
    /// The requirement, in §6's words.
    pub requirement: &'static str,
    /// `pass`, `fail` or `skip`.
    pub status: &'static str,
}

/// `taskpack conformance`: `{"checks", "conformant", "failed", "file", "skipped"}`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Conformance<'a> {
    /// C0 … C10, in order.
    pub checks: Vec<CheckJudged<'a>>,
    /// Whether every check passed.
    pub conformant: bool,
    /// The checks that failed.
    pub failed: Vec<&'static str>,
    /// The file judged, as given.
    pub file: &'a str,
    /// The checks that could not be judged.
    pub skipped: Vec<&'static str>,
}

impl<'a> Conformance<'a> {
    /// `verdict` of `file`.
    pub fn new(file: &'a str, verdict: &'a Verdict) -> Self {
        Conformance {
            checks: verdict
                .checks
                .iter()
                .map(|c| CheckJudged {
                    id: c.id,
                    reason: &c.reason,
                    requirement: c.requirement,
                    status: c.status.as_str(),
                })
                .collect(),
            conformant: verdict.conformant(),
            failed: verdict.failed(),
            file,
            skipped: verdict.skipped(),
        }
    }
}

/// A value of a pack or a passport in an answer (`&Json` or `Json`), as the answers have always
/// carried it: as `JSON.parse(JSON.stringify(value))` reads it back, each key once (its last
/// value; keys in alphabetical order, as every answer's) and each number as JavaScript writes it
/// (`1.0` is `1`, an integer beyond 2^53 is rounded as a double is).
#[derive(Debug, Clone, Copy)]
pub struct ReadBack<J>(pub J);

impl<J: Borrow<Json>> Serialize for ReadBack<J> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.borrow() {
            Json::Number(n) => as_javascript_writes(n).serialize(serializer),
            Json::Array(items) => serializer.collect_seq(items.iter().map(ReadBack)),
            Json::Object(members) => {
                let each_key_once: BTreeMap<&str, &Json> =
                    members.iter().map(|(k, v)| (k.as_str(), v)).collect();
                serializer.collect_map(each_key_once.into_iter().map(|(k, v)| (k, ReadBack(v))))
            }
            other => other.serialize(serializer),
        }
    }
}

/// `n` as JSON.parse reads back what JavaScript writes of it. An integer up to 2^53 is written
/// as it is; any other number is a double, written with its shortest digits (a whole one below
/// 1e21 padded with zeros: 2^60 is written `1152921504606847000`), and read back as whatever
/// number that text is. So that text is written ([`Json::to_js_compact`]) and read, for such a
/// number only.
fn as_javascript_writes(n: &Number) -> Number {
    const EXACT: u64 = 1 << 53;
    let exact = n.as_u64().is_some_and(|u| u <= EXACT)
        || n.as_i64().is_some_and(|i| i.unsigned_abs() <= EXACT);
    if exact {
        return n.clone();
    }
    serde_json::from_str(&Json::Number(n.clone()).to_js_compact()).unwrap_or_else(|_| n.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_reads_back_as_it_did_through_javascripts_text() {
        for text in [
            r#"{"b":1.0,"a":[0.5,-0.0,1e21,1E-7,123456789012345680000,-9223372036854775808]}"#,
            r#"[9007199254740993,18446744073709551615,-9007199254740993,1.5e300,-1e21,-2.5]"#,
            r#"{"a":1,"a":{"z":null,"y":"s"},"k":true}"#,
            r#"[12345678901234567890.0,-12345678901234567890.0,18446744073709551616,4e20]"#,
            r#"[1152921504606846976,9223372036854775808,-1152921504606846977,1.0e15,1e300]"#,
        ] {
            let json = Json::parse(text).unwrap();
            let through_text: serde_json::Value =
                serde_json::from_str(&json.to_js_compact()).unwrap();
            let read_back = serde_json::to_value(ReadBack(&json)).unwrap();
            assert_eq!(read_back.to_string(), through_text.to_string(), "{text}");
            assert_eq!(
                serde_json::to_string(&ReadBack(&json)).unwrap(),
                through_text.to_string(),
                "{text}"
            );
        }
    }
}
