//! A pack arriving into the local passport store: `land` a handoff as a new passport, `merge` a
//! receipt into the passport it answers. The CLI (`specmint taskpack land|merge`) prints what
//! these return; the decisions are [`crate::taskpack::landing::land`]'s pure functions, the reading is
//! [`crate::taskpack::encodings::unpack`]'s, the writing is [`crate::taskpack::passports`]'s.
//!
//! Nothing is left behind by a refusal: the luggage is streamed into a hidden folder of the
//! store (`.arriving-<pid>-<nonce>`), and only once the pack is admitted is it renamed into
//! place, `<ID>.files/` for a landed passport, `<ID>.files/receipt-<version>/` for a merged
//! receipt. A process killed mid-way leaves its hidden folder, which the next arrival into the
//! store removes; the passports themselves are written atomically by the store, so a crash
//! leaves each as it was. A landed passport is written after its luggage folder, so a crash
//! in the instant between those two renames leaves a folder no passport names, never a
//! passport whose files are missing; a marker beside it (`.<ID>.files.landing-<pid>`) lets the
//! next arrival remove that folder once the process is gone. A merge runs its
//! checks and changes inside the store's lock on the target (one read-modify-write), so two
//! merges into one passport serialize and both answers are kept; its luggage is moved into
//! place there too, before the passport is written, so a merge that is written has nothing
//! left to fail (a `receipt-<version>/` a merge killed before its write left is replaced by the
//! next merge of that version). Luggage is never moved through a symbolic link the arrival did not make (a
//! `<ID>.files` that is one is refused by name), and lands readable by its owner only (folders
//! 0700, files 0600), as the passports do.

use std::fs;
use std::path::{Path, PathBuf};

use crate::taskpack::encodings::bag::Limits;
use crate::taskpack::encodings::convert::ConvertError;
use crate::taskpack::encodings::unpack::{self, PackSource};
use crate::taskpack::judge::patterns::Finding;
use crate::taskpack::landing::land::{self, LandOptions, Landing, MergeReport};
use crate::taskpack::passports::{self, PassportStore, PassportStoreError};
use crate::taskpack::TaskPackError;
use crate::Refusal;
use specmint_runtime::json::Json;

/// Why a pack did not arrive.
#[derive(Debug, thiserror::Error)]
pub enum ArrivalError {
    /// The pack is refused (exit 1): a code and what and where.
    #[error(transparent)]
    Refused(#[from] Refusal<TaskPackError>),
    /// A receipt refused for landing (`receipt_not_landed`, exit 1) that answers passport
    /// `answers`, a passport id: it is merged there (§4.4.1), which a caller may suggest.
    #[error("{refusal}")]
    Receipt {
        /// The refusal.
        refusal: Refusal<TaskPackError>,
        /// The passport the receipt answers.
        answers: String,
    },
    /// The store refused or failed (an unknown or invalid id is a verdict, the rest I/O).
    #[error(transparent)]
    Store(#[from] PassportStoreError),
    /// The pack file's name says no encoding ([`ConvertError::UnknownExtension`]) (exit 2).
    #[error(transparent)]
    NoEncoding(ConvertError),
    /// The pack file or the luggage folder could not be read or written (exit 2):
    /// ``cannot ACTION `PATH`: ERROR``.
    #[error("cannot {action} `{}`: {source}", path.display())]
    Io {
        /// What could not be done: `access`, `write`, `move luggage to`.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}

impl ArrivalError {
    fn io<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> Self + 'a {
        move |source| ArrivalError::Io {
            action,
            path: path.to_owned(),
            source,
        }
    }
}

/// A landed handoff.
#[derive(Debug)]
pub struct Landed {
    /// The new passport, as stored.
    pub passport: Json,
    /// Its id.
    pub id: String,
    /// What the human must be told (checks, sealing, asks, imperatives).
    pub landing: Landing,
    /// The luggage, where it now is.
    pub luggage: Vec<PathBuf>,
}

/// A merged receipt.
#[derive(Debug)]
pub struct Merged {
    /// The passport's version after the merge.
    pub version: u64,
    /// Whether anything was written: a receipt that brings nothing the passport does not hold
    /// (no new answer, ask or fact, and no luggage that has not already landed from an earlier
    /// merge) writes nothing, and the version stays.
    pub written: bool,
    /// What the merge did.
    pub report: MergeReport,
    /// The receipt's luggage, where it now is.
    pub luggage: Vec<PathBuf>,
    /// The passport as written (`None` when nothing was written): what an answer reports once
    /// the merge is committed, with nothing left to read that could fail.
    pub passport: Option<Json>,
}

/// A hidden folder for luggage still being checked, removed on drop unless published.
struct Staging(PathBuf);

/// The prefix of a staging folder's name; the rest is `<pid>-<nonce>`.
const STAGING_PREFIX: &str = ".arriving-";

impl Staging {
    /// A new staging folder in `store`, after removing those an arrival that died left behind.
    fn new(store: &PassportStore) -> Staging {
        sweep(store);
        Staging(store.dir().join(format!(
            "{STAGING_PREFIX}{}-{}",
            std::process::id(),
            passports::mint_id()
        )))
    }

    /// Moves the luggage to `target` (nothing to move: the folder just goes).
    fn publish(self, target: &Path, luggage: &[String]) -> Result<Vec<PathBuf>, ArrivalError> {
        if luggage.is_empty() {
            return Ok(Vec::new());
        }
        target
            .parent()
            .map_or(Ok(()), fs::create_dir_all)
            .and_then(|()| fs::rename(&self.0, target))
            .map_err(ArrivalError::io("move luggage to", target))?;
        Ok(luggage.iter().map(|n| target.join(n)).collect())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Removes what arrivals whose process is gone (killed mid-way: no `Drop` ran) left behind, so
/// a crash leaves nothing for long: their staging folders, and the `<ID>.files/` of a landing
/// killed between publishing its luggage and writing its passport (its marker names the
/// process; a folder whose passport was written stays). Only where a process's liveness can be
/// read (`/proc/<pid>`); elsewhere they stay, hidden or marked, named for what they are.
fn sweep(store: &PassportStore) {
    let dir = store.dir();
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let pid_of = |rest: &str| rest.split('-').next()?.parse::<u32>().ok();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if let Some(pid) = name.strip_prefix(STAGING_PREFIX).and_then(pid_of) {
            if crate::atomic_file::process_is_gone(pid) {
                let _ = fs::remove_dir_all(entry.path());
            }
        } else if let Some((id, pid)) = name
            .strip_prefix('.')
            .and_then(|n| n.split_once(LANDING_MARKER))
            .and_then(|(id, pid)| Some((id, pid.parse::<u32>().ok()?)))
        {
            if passports::check_id(id).is_ok() && crate::atomic_file::process_is_gone(pid) {
                if !store.path(id).exists() {
                    let _ = fs::remove_dir_all(dir.join(format!("{id}.files")));
                }
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// A pack read into a staging folder of the store (its luggage streamed there and scanned),
/// not yet admitted, landed or merged. It is read once: what it is is asked of what was read
/// ([`Arrival::pack`], [`land::Arriving::is_receipt`]), so that a door that lands a handoff and
/// merges a receipt does not read the pack again to tell which it is.
pub struct Arrival {
    staging: Staging,
    pack: land::Arriving,
    luggage: Vec<String>,
    findings: Vec<(Finding, String)>,
}

/// Reads the pack at `source` into a staging folder of `store` (see [`Arrival`]).
pub fn receive(store: &PassportStore, source: PackSource<'_>) -> Result<Arrival, ArrivalError> {
    let staging = Staging::new(store);
    let read = match unpack::read_arriving_from(source, &staging.0, Limits::default()) {
        Ok(read) => read,
        Err(ConvertError::Io(path, source)) => {
            return Err(ArrivalError::Io {
                action: "access",
                path,
                source,
            })
        }
        Err(e @ ConvertError::UnknownExtension(_)) => return Err(ArrivalError::NoEncoding(e)),
        // The pack as a whole: a problem at the document's path.
        Err(problem) => {
            return Err(ArrivalError::Refused(Refusal::of_problems(
                TaskPackError::InvalidTaskpack,
                vec![crate::Violation::from_parts(
                    TaskPackError::InvalidTaskpack.code(),
                    String::new(),
                    String::new(),
                    problem.to_string(),
                )],
            )))
        }
    };
    Ok(Arrival {
        staging,
        pack: land::Arriving::read(read.pack),
        luggage: read.luggage,
        findings: read.findings,
    })
}

/// Lands the handoff at `file` as a new passport of `store` (§3.1). `trust_machine_facts` is
/// the human's explicit choice to restore a ✓ on facts sealed on this machine (§4.2).
pub fn land_file(
    store: &PassportStore,
    file: &Path,
    trust_machine_facts: bool,
) -> Result<Landed, ArrivalError> {
    land_pack(store, PackSource::File(file), trust_machine_facts)
}

/// [`land_file`] on a pack read from `source` (a door lands a small pack from memory).
pub fn land_pack(
    store: &PassportStore,
    source: PackSource<'_>,
    trust_machine_facts: bool,
) -> Result<Landed, ArrivalError> {
    receive(store, source)?.land(store, trust_machine_facts)
}

/// Merges the receipt at `file` into passport `into` of `store` (§4.4.1).
pub fn merge_file(store: &PassportStore, file: &Path, into: &str) -> Result<Merged, ArrivalError> {
    merge_pack(store, PackSource::File(file), into)
}

/// [`merge_file`] on a receipt read from `source`: `into` is checked before the receipt is read.
pub fn merge_pack(
    store: &PassportStore,
    source: PackSource<'_>,
    into: &str,
) -> Result<Merged, ArrivalError> {
    passports::check_id(into)?;
    store.get(into)?;
    receive(store, source)?.merge_checked(store, into)
}

impl Arrival {
    /// The pack object as read, its members read once.
    pub fn pack(&self) -> &land::Arriving {
        &self.pack
    }

    /// Admits the pack ([`land::admit`]) and lands it as a new passport of `store` (§3.1), where
    /// it was received. `trust_machine_facts` is the human's explicit choice to restore a ✓ on
    /// facts sealed on this machine (§4.2).
    pub fn land(
        self,
        store: &PassportStore,
        trust_machine_facts: bool,
    ) -> Result<Landed, ArrivalError> {
        let Arrival {
            staging,
            pack,
            luggage,
            findings,
        } = self;
        land::admit(&pack, &findings)?;
        if let Err(refusal) = land::refuse_receipt(&pack) {
            let (answers, _) = land::receipt_target(&pack);
            return Err(match passports::check_id(&answers) {
                Ok(()) => ArrivalError::Receipt { refusal, answers },
                Err(_) => ArrivalError::Refused(refusal),
            });
        }
        let (id, files_dir) = loop {
            let id = passports::mint_id();
            let files_dir = store.dir().join(format!("{id}.files"));
            if !files_dir.exists() && matches!(store.get(&id), Err(PassportStoreError::NotFound(_)))
            {
                break (id, files_dir);
            }
        };
        let options = LandOptions {
            local_id: id.clone(),
            machine: passports::this_machine(),
            trust_machine_facts,
            luggage: luggage.iter().map(|n| format!("{id}.files/{n}")).collect(),
        };
        let landing = land::land(&pack, &options)?;
        // While the luggage is in place and the passport is not, a marker names this process, so
        // that a later arrival can tell a landing that died here from one still under way.
        let marker = landing_marker(store, &id);
        fs::write(&marker, b"").map_err(ArrivalError::io("write", &marker))?;
        let created = staging.publish(&files_dir, &luggage).and_then(|luggage| {
            store
                .create(landing.state.clone())
                .map(|passport| (passport, luggage))
                .map_err(|e| {
                    let _ = fs::remove_dir_all(&files_dir);
                    e.into()
                })
        });
        let _ = fs::remove_file(&marker);
        let (passport, luggage) = created?;
        Ok(Landed {
            passport,
            id,
            landing,
            luggage,
        })
    }
}

/// The prefix of a landing marker's name: `.<ID>.files.landing-<pid>` in the store.
const LANDING_MARKER: &str = ".files.landing-";

/// The marker of a landing of passport `id` by this process.
fn landing_marker(store: &PassportStore, id: &str) -> PathBuf {
    store
        .dir()
        .join(format!(".{id}{LANDING_MARKER}{}", std::process::id()))
}

impl Arrival {
    /// Admits the receipt ([`land::admit`]) and merges it into passport `into` of `store`
    /// (§4.4.1), where it was received.
    pub fn merge(self, store: &PassportStore, into: &str) -> Result<Merged, ArrivalError> {
        passports::check_id(into)?;
        store.get(into)?;
        self.merge_checked(store, into)
    }

    /// [`Arrival::merge`] into a passport `into` already checked and found.
    fn merge_checked(self, store: &PassportStore, into: &str) -> Result<Merged, ArrivalError> {
        let Arrival {
            staging,
            pack,
            luggage: arrived_luggage,
            findings,
        } = self;
        land::admit(&pack, &findings)?;
        land::merge_target_ok(&pack, into)?;
        let files_dir = store.dir().join(format!("{into}.files"));
        let new_luggage = !landed_before(&files_dir, &staging.0, &arrived_luggage);
        // The luggage is moved into place under the passport's lock before the passport is written
        // (the write is the commit, as a landing writes its passport last): whatever fails before
        // it leaves the passport as it was, and nothing can fail after it.
        let mut published: Option<PathBuf> = None;
        let updated = store.update_if_changed(into, new_luggage, |state| {
            let version =
                crate::taskpack::lenient::view::<crate::taskpack::lenient::StateView>(state)
                    .version();
            let report = land::merge(&pack, into, state).map_err(ArrivalError::Refused)?;
            let mut luggage = Vec::new();
            if !arrived_luggage.is_empty() {
                store_folder(&files_dir)?;
                let receipt_dir = files_dir.join(format!("receipt-{version}"));
                // One there already is a merge's that was killed before it wrote the passport (the
                // stored version is the one before, and this lock is held): it goes (a link, the
                // link alone).
                if fs::symlink_metadata(&receipt_dir).is_ok() {
                    let _ =
                        fs::remove_dir_all(&receipt_dir).or_else(|_| fs::remove_file(&receipt_dir));
                }
                luggage = staging.publish(&receipt_dir, &arrived_luggage)?;
                published = Some(receipt_dir);
            }
            Ok::<_, ArrivalError>((report, version, luggage, state.clone()))
        });
        let unpublish = || {
            if let Some(dir) = &published {
                let _ = fs::remove_dir_all(dir);
            }
        };
        let ((report, version, luggage, state), written) = match updated {
            Ok(updated) => updated,
            Err(e) => {
                unpublish();
                return Err(e);
            }
        };
        if !written {
            // Nothing new: the luggage had landed before, and goes. `version` is the one the merge
            // would have written; the stored one stays.
            unpublish();
            return Ok(Merged {
                version: version.saturating_sub(1),
                written,
                report,
                luggage: Vec::new(),
                passport: None,
            });
        }
        Ok(Merged {
            version,
            written,
            report,
            luggage,
            passport: Some(state),
        })
    }
}

/// Makes sure `dir`, a passport's `<ID>.files`, is a folder of the store the luggage may be
/// moved into: made (0700, [`unpack::private_dirs`]) when absent; a symbolic link (planted there, it could point out of
/// the store) or anything else but a folder is refused, naming it, never written through.
fn store_folder(dir: &Path) -> Result<(), ArrivalError> {
    let refused = |why: &str| ArrivalError::Io {
        action: "move luggage to",
        path: dir.to_owned(),
        source: std::io::Error::other(format!("{why}: nothing was merged")),
    };
    match fs::symlink_metadata(dir) {
        Ok(meta) if meta.file_type().is_symlink() => {
            Err(refused("a symbolic link, which is never written through"))
        }
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(refused("not a folder")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            unpack::private_dirs(dir).map_err(ArrivalError::io("write", dir))
        }
        Err(e) => Err(ArrivalError::io("access", dir)(e)),
    }
}

/// Whether every file of `luggage` (staged in `staged`) has already landed, byte for byte, in
/// one earlier `receipt-<version>/` folder of `files_dir`: the receipt was merged before. True
/// when there is no luggage.
fn landed_before(files_dir: &Path, staged: &Path, luggage: &[String]) -> bool {
    if luggage.is_empty() {
        return true;
    }
    let Ok(entries) = fs::read_dir(files_dir) else {
        return false;
    };
    entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("receipt-"))
        .any(|earlier| {
            luggage
                .iter()
                .all(|name| same_bytes(&staged.join(name), &earlier.path().join(name)))
        })
}

/// Whether files `a` and `b` hold the same bytes (false when either cannot be read), compared
/// a buffer at a time.
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read as _;
    let (Ok(a), Ok(b)) = (fs::File::open(a), fs::File::open(b)) else {
        return false;
    };
    match (a.metadata(), b.metadata()) {
        (Ok(x), Ok(y)) if x.len() == y.len() => {}
        _ => return false,
    }
    let (mut a, mut b) = (std::io::BufReader::new(a), std::io::BufReader::new(b));
    let (mut x, mut y) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
    loop {
        let n = match a.read(&mut x) {
            Ok(n) => n,
            Err(_) => return false,
        };
        if n == 0 {
            return true;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}
