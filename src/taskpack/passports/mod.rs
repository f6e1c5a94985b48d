//! The local passport store: the "passport that stays home" (TaskPack §3.1, §4.3).
//!
//! Why it exists: a pack leaves, the passport it was made from stays. Packing records its asks
//! there and extends its lineage from it; landing mints a new one; a receipt merges into one.
//! Each of those is a read-modify-write that two terminals may run at once.
//!
//! How it works: a directory, one file per passport, `<id>.json`, holding the passport as
//! `JSON.stringify(passport, null, 2)` plus a newline, members in order (the layout and member
//! names of task-passport's directory store, so either tool reads the other's records). Every
//! write goes through [`PassportStore::update`] or [`PassportStore::create`]: an exclusive
//! advisory lock on `.<id>.lock` (fs4, as team_handoff's legs), read, change, `version` + 1 and
//! `updated_at`, then an atomic write (temp file, fsync, rename, fsync of the directory). Two
//! processes updating one passport serialize on the lock, and the second reads what the first
//! wrote, so neither update is lost; a crash leaves the old file or the new one. Readers take no
//! lock: a rename is atomic.
//!
//! Ids are task-passport's rule, `^[A-Za-z0-9_-]{1,120}$` ([`check_id`]), checked before any
//! path is made from one, so an id is never a path (`../x` is refused, not resolved).
//!
//! Limits: one machine (advisory locks do not hold over every network file system); the lock
//! is not task-passport's (it takes an `O_EXCL` `<id>.json.lock` file), so the two tools must
//! not write one passport at the same moment.

pub mod seal;

use std::fs::{self, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use fs4::FileExt;

use super::lenient::{self, LineageView, StateView};
use super::{set_member, TaskPackError};
use crate::atomic_file::{remove_stale_temporaries, write_atomically};
use specmint_runtime::json::{present, strip_bom, Json};

/// The longest passport id, in characters (task-passport's rule).
pub const PASSPORT_ID_MAX: usize = 120;

/// The alphabet of minted ids (task-passport's `PASSPORT_ALPHABET`: no 0, 1, I, L, O).
const MINT_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/// Why an operation of the passport store did not happen. The first three are verdicts on the
/// request (the CLI exits 1 on them); the rest are failures of the store itself (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum PassportStoreError {
    /// Not `^[A-Za-z0-9_-]{1,120}$`.
    #[error(
        "`{}` is not a passport id: an id is 1 to {PASSPORT_ID_MAX} characters of A-Z a-z 0-9 _ -",
        .0.escape_debug()
    )]
    InvalidId(String),
    /// No passport of that id in the store.
    #[error("no passport `{0}` in the store")]
    NotFound(String),
    /// `create` with an id the store already holds.
    #[error("the store already holds a passport `{0}`")]
    Exists(String),
    /// A stored file that is not a passport: not JSON, not an object, another id, a `version`
    /// that is not a non-negative integer.
    #[error("`{}` is not a stored passport: {reason}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Reading or writing the store.
    #[error("`{}`: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        #[source]
        error: io::Error,
    },
}

impl PassportStoreError {
    /// The spec's code of a verdict (`invalid_passport_id`, `unknown_passport`,
    /// `passport_exists`); `None` for a failure of the store itself.
    pub fn code(&self) -> Option<TaskPackError> {
        match self {
            PassportStoreError::InvalidId(_) => Some(TaskPackError::InvalidPassportId),
            PassportStoreError::NotFound(_) => Some(TaskPackError::UnknownPassport),
            PassportStoreError::Exists(_) => Some(TaskPackError::PassportExists),
            PassportStoreError::Corrupt { .. } | PassportStoreError::Io { .. } => None,
        }
    }
}

/// Checks a passport id: 1 to 120 characters of `A-Z a-z 0-9 _ -`, nothing else (no `.`, no
/// separator, no whitespace), so that it can never be read as a path.
pub fn check_id(id: &str) -> Result<(), PassportStoreError> {
    let ok = (1..=PASSPORT_ID_MAX).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(PassportStoreError::InvalidId(id.to_owned()))
    }
}

/// One line of [`PassportStore::list`], named as task-passport's `list` names them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PassportSummary {
    /// The id.
    pub passport_id: String,
    /// `title`, else the id.
    pub title: String,
    /// `goal`, else empty.
    pub goal: String,
    /// `current_state`, else empty.
    pub current_state: String,
    /// `version`.
    pub state_version: u64,
    /// `updated_at`, else empty.
    pub updated_at: String,
}

/// What is told of one passport (`specmint passport new|show`): its members as written (any
/// type; `None` when missing), `lineage` through its lenient view, and how many items each list
/// has (0 when it is not a list).
#[derive(Debug, Default, serde::Deserialize)]
pub struct PassportView {
    /// `id`.
    #[serde(default, deserialize_with = "present")]
    pub id: Option<Json>,
    /// `version`.
    #[serde(default, deserialize_with = "present")]
    pub version: Option<Json>,
    /// `title`.
    #[serde(default, deserialize_with = "present")]
    pub title: Option<Json>,
    /// `goal`.
    #[serde(default, deserialize_with = "present")]
    pub goal: Option<Json>,
    /// `current_state`.
    #[serde(default, deserialize_with = "present")]
    pub current_state: Option<Json>,
    /// `lineage` (all absent when it is not an object).
    #[serde(default, deserialize_with = "lenient::view_or_default")]
    pub lineage: LineageView,
    /// How many `facts`.
    #[serde(default, deserialize_with = "lenient::count")]
    pub facts: usize,
    /// How many `asks`.
    #[serde(default, deserialize_with = "lenient::count")]
    pub asks: usize,
    /// How many `next_steps`.
    #[serde(default, deserialize_with = "lenient::count")]
    pub next_steps: usize,
}

impl PassportView {
    /// The view of `passport` (all absent when it is not an object).
    pub fn of(passport: &Json) -> PassportView {
        lenient::view(passport)
    }
}

/// What [`PassportStore::list`] found.
#[derive(Debug, Default)]
pub struct Listing {
    /// Every passport, most recently updated first (then by id).
    pub passports: Vec<PassportSummary>,
    /// `<id>.json` files that are not readable passports, each with why: a store directory
    /// collects unrelated files, and one of them must not hide the rest.
    pub skipped: Vec<String>,
}

/// A directory of passports (see the module doc).
#[derive(Debug, Clone)]
pub struct PassportStore {
    dir: PathBuf,
}

impl PassportStore {
    /// The store in `dir`, created (with its parents) when absent.
    pub fn open(dir: &Path) -> Result<PassportStore, PassportStoreError> {
        fs::create_dir_all(dir).map_err(|error| PassportStoreError::Io {
            path: dir.to_owned(),
            error,
        })?;
        Ok(PassportStore {
            dir: dir.to_owned(),
        })
    }

    /// `<data dir>/specmint/passports`, the data dir being the user's ([`dirs::data_dir`]):
    /// `$XDG_DATA_HOME` or `~/.local/share` (Linux and other Unix), `~/Library/Application
    /// Support` (macOS), the roaming AppData folder (Windows). `None` when there is none.
    pub fn default_dir() -> Option<PathBuf> {
        Some(dirs::data_dir()?.join("specmint").join("passports"))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stores a new passport. `id` is minted when absent (`TP-XXXX-XXXX`, as task-passport
    /// mints them); `version` is 1; `created_at` and `updated_at` are now; `lineage` is
    /// `{root_id: id, chain: []}` unless the passport carries one (a landed passport keeps the
    /// pack's, §3.1). Refuses an id the store already holds. Returns the passport as stored.
    pub fn create(&self, mut passport: Json) -> Result<Json, PassportStoreError> {
        if !passport.is_object() {
            return Err(PassportStoreError::Corrupt {
                path: self.dir.clone(),
                reason: "a passport is a JSON object".to_owned(),
            });
        }
        let members: StateView = lenient::view(&passport);
        let given = match members.id {
            None => None,
            Some(Json::Str(id)) => Some(id),
            Some(other) => return Err(PassportStoreError::InvalidId(other.to_js_compact())),
        };
        let id = match given {
            Some(id) => {
                check_id(&id)?;
                id
            }
            None => loop {
                let id = mint_id();
                if !self.path(&id).exists() {
                    break id;
                }
            },
        };
        let _lock = self.lock(&id)?;
        let path = self.path(&id);
        if path.exists() {
            return Err(PassportStoreError::Exists(id));
        }
        let now = crate::clock::now_utc();
        set_member(&mut passport, "id", Json::Str(id.clone()));
        set_member(&mut passport, "version", Json::Number(1.into()));
        if members.created_at.is_none() {
            set_member(&mut passport, "created_at", Json::Str(now.clone()));
        }
        set_member(&mut passport, "updated_at", Json::Str(now));
        if members.lineage.is_none() {
            let lineage = Json::Object(vec![
                ("root_id".to_owned(), Json::Str(id.clone())),
                ("chain".to_owned(), Json::Array(Vec::new())),
            ]);
            set_member(&mut passport, "lineage", lineage);
        }
        self.write(&path, &passport)?;
        Ok(passport)
    }

    /// Stores `passport` as [`PassportStore::create`] does, under a freshly minted id written
    /// where the passport's `id` member is (so it keeps its place in the object; appended when
    /// there is none); an id another passport takes meanwhile is minted again.
    pub fn create_minted(&self, mut passport: Json) -> Result<Json, PassportStoreError> {
        loop {
            set_member(&mut passport, "id", Json::Str(mint_id()));
            match self.create(passport.clone()) {
                Err(PassportStoreError::Exists(_)) => continue,
                other => return other,
            }
        }
    }

    /// The passport `id`, as stored.
    pub fn get(&self, id: &str) -> Result<Json, PassportStoreError> {
        check_id(id)?;
        self.read(id)
    }

    /// Every passport's summary (see [`Listing`]).
    pub fn list(&self) -> Result<Listing, PassportStoreError> {
        let io = |error| PassportStoreError::Io {
            path: self.dir.clone(),
            error,
        };
        let mut listing = Listing::default();
        for entry in fs::read_dir(&self.dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            let name = entry.file_name();
            let Some(id) = name.to_str().and_then(|n| n.strip_suffix(".json")) else {
                continue;
            };
            if check_id(id).is_err() || !entry.file_type().map_err(io)?.is_file() {
                continue;
            }
            match self.read(id) {
                Ok(passport) => listing.passports.push(summary(id, &passport)),
                Err(PassportStoreError::NotFound(_)) => {} // removed while listing
                Err(problem) => listing.skipped.push(problem.to_string()),
            }
        }
        listing.passports.sort_by(|a, b| {
            b.updated_at
                .cmp(&a.updated_at)
                .then_with(|| a.passport_id.cmp(&b.passport_id))
        });
        Ok(listing)
    }

    /// Changes the passport `id` under its lock: reads it, sets `version` to the stored one
    /// plus 1 and `updated_at` to now, calls `f` on it (so `f` sees the passport as it will be
    /// saved), then writes it atomically. `f` cannot change `id`, `version` or `updated_at`.
    /// When `f` returns `Err`, nothing is written and its error is returned.
    pub fn update<T, E: From<PassportStoreError>>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Json) -> Result<T, E>,
    ) -> Result<T, E> {
        self.update_if_changed(id, true, f).map(|(out, _)| out)
    }

    /// As [`PassportStore::update`], except that when `f` leaves the passport as it was
    /// (besides the version and time `f` sees) and `write_anyway` is false, nothing is written
    /// and the version stays. Returns `f`'s result and whether the passport was written.
    pub fn update_if_changed<T, E: From<PassportStoreError>>(
        &self,
        id: &str,
        write_anyway: bool,
        f: impl FnOnce(&mut Json) -> Result<T, E>,
    ) -> Result<(T, bool), E> {
        check_id(id)?;
        let _lock = self.lock(id)?;
        let mut passport = self.read(id)?;
        let path = self.path(id);
        let version = match lenient::view::<StateView>(&passport).version {
            Some(Json::Number(n)) if n.as_u64().is_some() => n.as_u64().unwrap_or_default(),
            other => {
                return Err(PassportStoreError::Corrupt {
                    path,
                    reason: format!(
                        "`version` is {}, not a non-negative integer",
                        other
                            .as_ref()
                            .map_or("missing".to_owned(), Json::to_js_compact)
                    ),
                }
                .into())
            }
        };
        let stamp = |passport: &mut Json, now: &str| {
            set_member(passport, "id", Json::Str(id.to_owned()));
            set_member(passport, "version", Json::Number((version + 1).into()));
            set_member(passport, "updated_at", Json::Str(now.to_owned()));
        };
        let now = crate::clock::now_utc();
        let before = (!write_anyway).then(|| {
            let mut before = passport.clone();
            stamp(&mut before, &now);
            before
        });
        stamp(&mut passport, &now);
        let out = f(&mut passport)?;
        stamp(&mut passport, &now);
        if before.is_some_and(|before| before == passport) {
            return Ok((out, false));
        }
        self.write(&path, &passport)?;
        Ok((out, true))
    }

    pub(crate) fn path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// Reads `<id>.json` (the id already checked).
    fn read(&self, id: &str) -> Result<Json, PassportStoreError> {
        let path = self.path(id);
        let bytes = match fs::read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(PassportStoreError::NotFound(id.to_owned()))
            }
            Err(error) => return Err(PassportStoreError::Io { path, error }),
        };
        let corrupt = |reason: String| PassportStoreError::Corrupt {
            path: path.clone(),
            reason,
        };
        let text = std::str::from_utf8(&bytes).map_err(|e| corrupt(format!("not UTF-8: {e}")))?;
        let passport =
            Json::parse(strip_bom(text)).map_err(|e| corrupt(format!("not JSON: {e}")))?;
        if !passport.is_object() {
            return Err(corrupt("not a JSON object".to_owned()));
        }
        let stored = lenient::view::<StateView>(&passport).id;
        if stored.as_ref().and_then(Json::as_str) != Some(id) {
            return Err(corrupt(format!(
                "its `id` is {}, not `{id}`",
                stored
                    .as_ref()
                    .map_or("missing".to_owned(), Json::to_js_compact)
            )));
        }
        Ok(passport)
    }

    /// Writes a passport; the caller holds its lock, which every writer of the file takes, so
    /// temporary files a killed writer left are swept first.
    fn write(&self, path: &Path, passport: &Json) -> Result<(), PassportStoreError> {
        if let (Some(dir), Some(name)) = (path.parent(), path.file_name()) {
            remove_stale_temporaries(dir, |target| *target == *name);
        }
        let text = format!("{}\n", passport.to_js_pretty());
        write_atomically(path, text.as_bytes()).map_err(|error| PassportStoreError::Io {
            path: path.to_owned(),
            error,
        })
    }

    /// The exclusive lock of passport `id`, held until the returned file is dropped. The lock
    /// file stays: removing it would let a third process lock a fresh file while a second still
    /// holds the old one.
    fn lock(&self, id: &str) -> Result<fs::File, PassportStoreError> {
        let path = self.dir.join(format!(".{id}.lock"));
        let io = |error| PassportStoreError::Io {
            path: path.clone(),
            error,
        };
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&path).map_err(io)?;
        FileExt::lock(&file).map_err(io)?;
        Ok(file)
    }
}

/// This machine's name, as packs record it (`origin.machine`, a sealed fact's `verified_on`) and
/// landing compares it: the host name (`/proc/sys/kernel/hostname`, `/etc/hostname`, then
/// `$HOSTNAME` / `$COMPUTERNAME`, then the `hostname` command), else `unknown`.
pub fn this_machine() -> String {
    let from_file = |path: &str| named(fs::read_to_string(path).ok());
    from_file("/proc/sys/kernel/hostname")
        .or_else(|| from_file("/etc/hostname"))
        .or_else(|| from_env("HOSTNAME"))
        .or_else(|| from_env("COMPUTERNAME"))
        .or_else(|| from_command("hostname", &[]))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The login name, as a pack records its actor by default (`origin.actor`, `--actor`):
/// `$USER`, `$LOGNAME`, `$USERNAME`, then (on Unix) the password database's entry for this
/// process's user (`/etc/passwd`, the user read as the owner of `/proc/self`), then the
/// `id -un` command; else empty.
pub fn login_name() -> String {
    let from_passwd = || {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let uid = fs::metadata("/proc/self").ok()?.uid().to_string();
            let passwd = fs::read_to_string("/etc/passwd").ok()?;
            passwd.lines().find_map(|line| {
                let mut fields = line.split(':');
                let name = fields.next()?;
                (fields.nth(1)? == uid).then(|| name.to_owned())
            })
        }
        #[cfg(not(unix))]
        None
    };
    from_env("USER")
        .or_else(|| from_env("LOGNAME"))
        .or_else(|| from_env("USERNAME"))
        .or_else(|| named(from_passwd()))
        .or_else(|| from_command("id", &["-un"]))
        .unwrap_or_default()
}

/// A name read from somewhere, trimmed; none when blank.
fn named(name: Option<String>) -> Option<String> {
    name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty())
}

fn from_env(key: &str) -> Option<String> {
    named(std::env::var(key).ok())
}

/// What `program args` prints, when it runs and succeeds.
fn from_command(program: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(program)
        .args(args)
        .output()
        .ok()?;
    named(
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned()),
    )
}

/// What a passport's summary reads of it ([`summary`]): each member a string, else absent.
#[derive(Default, serde::Deserialize)]
struct SummaryView {
    #[serde(default, deserialize_with = "lenient::or_default")]
    title: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    goal: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    current_state: Option<String>,
    #[serde(default, deserialize_with = "lenient::or_default")]
    updated_at: Option<String>,
}

fn summary(id: &str, passport: &Json) -> PassportSummary {
    let read: SummaryView = lenient::view(passport);
    let title = read.title.unwrap_or_default();
    PassportSummary {
        passport_id: id.to_owned(),
        title: if title.is_empty() {
            id.to_owned()
        } else {
            title
        },
        goal: read.goal.unwrap_or_default(),
        current_state: read.current_state.unwrap_or_default(),
        state_version: lenient::view::<StateView>(passport).version(),
        updated_at: read.updated_at.unwrap_or_default(),
    }
}

/// A new passport as task-passport's `new` writes it (core.js `create`), members in its order,
/// under a freshly minted id; the store stamps `version` and `updated_at` again.
pub fn reference_passport(title: Json, goal: Json, next_step: Json) -> Json {
    let now = crate::clock::now_utc();
    let text = |s: &str| Json::Str(s.to_owned());
    let empty = || Json::Array(Vec::new());
    Json::Object(vec![
        ("spec".to_owned(), text("2origin/0.1")),
        ("kind".to_owned(), text("task.origin")),
        ("id".to_owned(), text(&mint_id())),
        ("title".to_owned(), title),
        ("goal".to_owned(), goal),
        ("version".to_owned(), Json::Number(1.into())),
        ("machine_id".to_owned(), text(&this_machine())),
        ("harness".to_owned(), text("specmint")),
        ("scope".to_owned(), text("")),
        ("created_at".to_owned(), text(&now)),
        ("updated_at".to_owned(), text(&now)),
        (
            "current_state".to_owned(),
            text("passport created, work not started"),
        ),
        ("facts".to_owned(), empty()),
        ("decisions".to_owned(), empty()),
        ("actions".to_owned(), empty()),
        ("artifacts".to_owned(), empty()),
        ("verification".to_owned(), text("")),
        ("next_steps".to_owned(), Json::Array(vec![next_step])),
        ("learnings".to_owned(), empty()),
    ])
}

/// A fresh id, `TP-XXXX-XXXX` over task-passport's alphabet (no 0, 1, I, L, O). The randomness is std's per-process
/// random hash keys mixed with the time and a counter: an id must not collide, not be secret.
pub fn mint_id() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    let mut bits = hasher.finish();
    let mut body = String::with_capacity(8);
    for _ in 0..8 {
        body.push(MINT_ALPHABET[(bits % MINT_ALPHABET.len() as u64) as usize] as char);
        bits /= MINT_ALPHABET.len() as u64;
    }
    format!("TP-{}-{}", &body[..4], &body[4..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PassportStore {
        let dir =
            std::env::temp_dir().join(format!("specmint-passports-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        PassportStore::open(&dir).unwrap()
    }

    #[test]
    fn ids_follow_the_reference_rule_and_are_never_paths() {
        for good in ["TP-G6RZ-DS3B", "a", "x_y-z", &"a".repeat(120)] {
            assert!(check_id(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "../x",
            "..",
            "a/b",
            "a\\b",
            "a.json",
            "a b",
            "任务",
            &"a".repeat(121),
        ] {
            assert!(
                matches!(check_id(bad), Err(PassportStoreError::InvalidId(_))),
                "{bad}"
            );
        }
        assert_eq!(
            check_id("../etc\n").unwrap_err().to_string(),
            "`../etc\\n` is not a passport id: an id is 1 to 120 characters of A-Z a-z 0-9 _ -"
        );
    }

    #[test]
    fn minted_ids_have_the_reference_shape() {
        let id = mint_id();
        assert_eq!(id.len(), 12);
        assert!(id.starts_with("TP-") && id.as_bytes()[7] == b'-');
        assert!(id[3..]
            .bytes()
            .all(|b| b == b'-' || MINT_ALPHABET.contains(&b)));
        assert_ne!(mint_id(), mint_id());
    }

    #[test]
    fn create_fills_identity_and_lineage_then_update_bumps_the_version() {
        let store = scratch("create");
        let created = store
            .create(Json::parse(r#"{"title":"t","goal":"g"}"#).unwrap())
            .unwrap();
        let id = created.get("id").and_then(Json::as_str).unwrap().to_owned();
        let keys: Vec<&str> = match &created {
            Json::Object(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
            _ => unreachable!(),
        };
        assert_eq!(
            keys,
            [
                "title",
                "goal",
                "id",
                "version",
                "created_at",
                "updated_at",
                "lineage"
            ]
        );
        assert_eq!(
            created.get("lineage").unwrap().to_js_compact(),
            format!(r#"{{"root_id":"{id}","chain":[]}}"#)
        );
        assert_eq!(store.get(&id).unwrap(), created);
        let seen = store
            .update(&id, |p| {
                let seen = p.get("version").cloned();
                set_member(p, "goal", Json::Str("g2".to_owned()));
                set_member(p, "version", Json::Number(99.into()));
                Ok::<_, PassportStoreError>(seen)
            })
            .unwrap();
        assert_eq!(seen, Some(Json::Number(2.into())));
        let stored = store.get(&id).unwrap();
        assert_eq!(stored.get("version"), Some(&Json::Number(2.into())));
        assert_eq!(stored.get("goal").and_then(Json::as_str), Some("g2"));
        assert!(matches!(
            store.create(Json::parse(&format!(r#"{{"id":"{id}"}}"#)).unwrap()),
            Err(PassportStoreError::Exists(_))
        ));
        fs::remove_dir_all(store.dir()).unwrap();
    }

    #[test]
    fn a_refused_update_writes_nothing() {
        let store = scratch("refused");
        store
            .create(Json::parse(r#"{"id":"P1","goal":"g"}"#).unwrap())
            .unwrap();
        let before = fs::read(store.dir().join("P1.json")).unwrap();
        let refused: Result<(), PassportStoreError> = store.update("P1", |p| {
            set_member(p, "goal", Json::Null);
            Err(PassportStoreError::Exists("no".to_owned()))
        });
        assert!(refused.is_err());
        assert_eq!(fs::read(store.dir().join("P1.json")).unwrap(), before);
        assert!(matches!(
            store.update("P2", |_| Ok::<_, PassportStoreError>(())),
            Err(PassportStoreError::NotFound(id)) if id == "P2"
        ));
        fs::remove_dir_all(store.dir()).unwrap();
    }
}
