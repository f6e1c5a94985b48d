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

use std::io;
use std::path::{Path, PathBuf};

use super::convert::Encoding;
use super::passports::{PassportStore, PassportStoreError};
use super::set_member;
use super::TaskPackError;
use crate::atomic_file::AtomicFile;
use crate::Refusal;
use specmint_runtime::json::Json;

mod luggage;
mod object;
mod write;

use luggage::read_luggage;
/// Packing's sealing of a task state's facts (with the `org` facts' source), for the A2A
/// conversion that seals as packing does.
pub(crate) use object::seal_facts as seal_for_packing;
use object::{object_refusals, pack_object, record_asks};
use write::write_pack;

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
    /// missing ACCEPT is kept blank, for packing to refuse by name. The error names the text
    /// and the syntax, not the flag (the CLI puts `--ask` before it).
    pub fn parse(raw: &str) -> Result<AskArg, String> {
        let mut parts = raw.splitn(3, '|').map(str::trim);
        let what = parts.next().unwrap_or_default().to_owned();
        if what.is_empty() {
            return Err(format!(
                "`{raw}`: WHAT is blank (the syntax is \"WHAT|ACCEPT[|WHY]\")"
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
    /// Parses `CHECK[|HOW]` (task-passport's `--check` syntax), each part trimmed. The error
    /// names the text and the syntax, not the flag (the CLI puts `--check` before it).
    pub fn parse(raw: &str) -> Result<CheckArg, String> {
        let (check, how) = raw.split_once('|').unwrap_or((raw, ""));
        let check = check.trim();
        if check.is_empty() {
            return Err(format!(
                "`{raw}`: CHECK is blank (the syntax is \"CHECK[|HOW]\")"
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

/// Why `pack` produced nothing.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// Refused: every reason found, each with its code: `credential` (C7), `chat_transcript`
    /// (C8), `ask_without_accept` (§4.3), `forbidden_field` (§4.5), `luggage_name`,
    /// `luggage_changed`, `invalid_lineage`, `not_conformant` (a check of §6 the pack object
    /// would fail).
    #[error("refusing to pack: {}", super::joined(.0))]
    Refused(Vec<Refusal<TaskPackError>>),
    /// The store refused (an unknown or invalid id) or failed.
    #[error(transparent)]
    Store(#[from] PassportStoreError),
    /// Reading an attachment or writing the pack.
    #[error("`{}`: {}", .0.display(), .1)]
    Io(PathBuf, #[source] io::Error),
}

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
    /// The attachments that travel under another name than the one given (a writer keeps only
    /// some characters, see spec/taskpack.md, "Luggage names"): `(given, kept)`.
    pub renamed: Vec<(String, String)>,
}

/// One attachment: where it is read from, its name in the pack, and what the first read found.
#[derive(Debug)]
struct Luggage {
    source: PathBuf,
    /// The name as given: the attached path's last part, then its place in an attached folder.
    given: String,
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
    super::passports::check_id(id)?;
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

#[cfg(test)]
mod tests {
    use super::write::{write_flat, write_zip};
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
        let attachments: Vec<super::super::encodings::flat::LuggageFile> = files
            .iter()
            .map(|(name, bytes)| super::super::encodings::flat::LuggageFile {
                name: (*name).to_owned(),
                bytes: bytes.clone(),
            })
            .collect();
        let mut flat = Vec::new();
        write_flat(&mut flat, &object, &luggage).unwrap();
        let expected =
            super::super::encodings::flat::write_flat(&object, &attachments, None).unwrap();
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
            super::super::encodings::convert::encode(Encoding::Zip, &object, &attachments, None)
                .unwrap();
        assert!(zip.into_inner() == expected, "the streamed zip differs");
        let mut none = Vec::new();
        write_flat(&mut none, &object, &[]).unwrap();
        assert_eq!(
            String::from_utf8(none).unwrap(),
            super::super::encodings::flat::write_flat(&object, &[], None).unwrap()
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
            "` |x`: WHAT is blank (the syntax is \"WHAT|ACCEPT[|WHY]\")"
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
}
