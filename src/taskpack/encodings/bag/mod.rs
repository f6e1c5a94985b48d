//! `.taskpack`: a ZIP holding a BagIt 1.0 bag (TaskPack §2.1).
//!
//! ```text
//! bagit.txt                  BagIt 1.0 declaration
//! bag-info.txt               External-Identifier, Payload-Oxum, Bag-Spec
//! manifest-sha256.txt        digest for every data/ file
//! tagmanifest-sha256.txt     digest for every tag file
//! data/passport.json         the pack object
//! data/files/<name>          luggage, verbatim
//! ```
//!
//! Reading is built for files from strangers. Every entry is inflated through a counter, so the
//! caps on entry count and total size ([`Limits`]) hold for what the entries really inflate to,
//! whatever their headers claim; names that climb out (`../`), absolute names, symlinks,
//! duplicates, and a file that another entry uses as a folder are refused by name before a byte
//! of them is used; and nothing is ever written to disk while reading. Payload bytes are hashed as they stream past and handed to an
//! [`Observer`] (the credential scan), so judging a bag holds one buffer, not one attachment.
//!
//! The tag files are a pure function of the pack object and the payload ([`tag_files`]): the
//! flat form carries neither, so two implementations round-trip each other's packs (C9) only if
//! they derive them the same way. They are derived as the reference derives them.

mod write;
pub(crate) use write::*;
pub use write::{assemble, tag_files, write_zip};

use std::collections::HashSet;
use std::io::{Read, Seek, Write};

use sha2::{Digest, Sha256};

use crate::taskpack::lenient;
use specmint_runtime::json::{present, Json};

/// The pack object's `spec`, and the value the reference writes as `Bag-Spec`.
pub const BAG_SPEC: &str = "task-passport-bag/0.1";
/// The format's own id (§2.1's `Bag-Spec` line); read, never written (see spec/taskpack.md).
pub const TASKPACK_SPEC: &str = "taskpack/0.1";
/// Where the pack object lives in a bag.
pub const PASSPORT_JSON: &str = "data/passport.json";
/// Where luggage lives in a bag.
pub use crate::taskpack::names::FILES_DIR;
/// `bagit.txt`.
pub const BAGIT_TXT: &str = "bagit.txt";
/// `bag-info.txt`.
pub const BAG_INFO_TXT: &str = "bag-info.txt";
/// `manifest-sha256.txt`.
pub const MANIFEST: &str = "manifest-sha256.txt";
/// `tagmanifest-sha256.txt`.
pub const TAG_MANIFEST: &str = "tagmanifest-sha256.txt";

const BAGIT_DECLARATION: &str = "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n";

/// Caps on what reading a zip may inflate, counted while inflating.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Entries in the archive, directories included.
    pub max_entries: usize,
    /// Bytes all entries inflate to, together.
    pub max_total_bytes: u64,
}

impl Default for Limits {
    /// 10 000 entries, 1 GiB inflated.
    fn default() -> Self {
        Limits {
            max_entries: 10_000,
            max_total_bytes: 1 << 30,
        }
    }
}

/// Why a bag cannot be read, or where it disagrees with its own manifests. Each names the
/// entry it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BagError {
    /// Not a zip, or a truncated or corrupt one.
    #[error("not a readable zip (truncated or corrupt): {0}")]
    NotZip(String),
    /// More entries than [`Limits::max_entries`].
    #[error("the zip has more than {limit} entries")]
    TooManyEntries {
        /// The cap.
        limit: usize,
    },
    /// Inflating this entry took the total past [`Limits::max_total_bytes`].
    #[error("`{entry}` inflates past the {limit}-byte cap on a bag's total size")]
    TooLarge {
        /// The entry.
        entry: String,
        /// The cap.
        limit: u64,
    },
    /// A name that is absolute, climbs out with `..`, or is not UTF-8.
    #[error(
        "`{entry}` is not a safe name inside a bag (absolute, `..`, empty segment or not UTF-8)"
    )]
    UnsafeName {
        /// The name, as far as it can be shown.
        entry: String,
    },
    /// A symbolic link.
    #[error("`{entry}` is a symbolic link")]
    Symlink {
        /// The entry.
        entry: String,
    },
    /// The same name twice.
    #[error("`{entry}` appears twice in the zip")]
    Duplicate {
        /// The entry.
        entry: String,
    },
    /// A file whose name another entry uses as a folder (`a` and `a/b.txt`): no file
    /// system holds both, so the bag could never be unpacked.
    #[error(
        "`{entry}` is both a file and a folder (`{inside}` is inside it): no file system holds both"
    )]
    FileAndFolder {
        /// The file.
        entry: String,
        /// An entry inside it.
        inside: String,
    },
    /// Encrypted, or compressed with something other than store or deflate.
    #[error("`{entry}`: {reason}")]
    Unsupported {
        /// The entry.
        entry: String,
        /// What about it.
        reason: String,
    },
    /// The entry's bytes could not be read (truncated data, a CRC that does not match).
    #[error("`{entry}` cannot be read: {reason}")]
    Read {
        /// The entry.
        entry: String,
        /// The zip reader's words.
        reason: String,
    },
    /// A required tag file is absent or says the wrong thing.
    #[error("`{entry}`: {reason}")]
    BadTagFile {
        /// The tag file.
        entry: String,
        /// What is wrong.
        reason: String,
    },
    /// A file that the manifest that should vouch for it does not list.
    #[error("`{entry}` is in the bag but not in {manifest}")]
    Unmanifested {
        /// The entry.
        entry: String,
        /// The manifest that should list it.
        manifest: &'static str,
    },
    /// A manifest line for a file the bag does not hold.
    #[error("`{entry}` is listed in {manifest} but missing from the bag")]
    MissingEntry {
        /// The file the manifest names.
        entry: String,
        /// The manifest.
        manifest: &'static str,
    },
    /// A file whose bytes do not hash to its manifest line.
    #[error("`{entry}` does not match its {manifest} digest")]
    DigestMismatch {
        /// The entry.
        entry: String,
        /// The manifest.
        manifest: &'static str,
    },
}

/// One file of a bag, hashed as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its path inside the bag.
    pub name: String,
    /// Its length in bytes.
    pub size: u64,
    /// Its SHA-256.
    pub sha256: [u8; 32],
    /// Its bytes, when they were kept (tag files and the pack object always are).
    pub bytes: Option<Vec<u8>>,
}

impl Entry {
    /// An entry holding `bytes`.
    pub fn new(name: impl Into<String>, bytes: Vec<u8>) -> Entry {
        Entry {
            name: name.into(),
            size: bytes.len() as u64,
            sha256: Sha256::digest(&bytes).into(),
            bytes: Some(bytes),
        }
    }

    /// Whether this is a payload file (`data/...`).
    pub fn is_payload(&self) -> bool {
        self.name.starts_with("data/")
    }

    /// The luggage name (`data/files/<name>`), if this is luggage.
    pub fn luggage_name(&self) -> Option<&str> {
        self.name.strip_prefix(FILES_DIR)
    }
}

/// A bag's files, in the order they were written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bag {
    /// Tag files and payload.
    pub entries: Vec<Entry>,
}

impl Bag {
    /// The entry named `name`.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The bytes of `name`, when held.
    pub fn bytes(&self, name: &str) -> Option<&[u8]> {
        self.get(name).and_then(|e| e.bytes.as_deref())
    }
}

/// Sees every luggage file's bytes as they are inflated.
pub trait Observer: Send {
    /// A luggage file starts.
    fn start(&mut self, name: &str);
    /// Its next bytes.
    fn chunk(&mut self, bytes: &[u8]);
    /// It ended.
    fn finish(&mut self);
    /// Whether it looks at the bytes at all (if not, no thread is started for it).
    fn wants_bytes(&self) -> bool {
        true
    }
}

/// An observer that looks at nothing.
pub struct Ignore;

impl Observer for Ignore {
    fn start(&mut self, _: &str) {}
    fn chunk(&mut self, _: &[u8]) {}
    fn finish(&mut self) {}
    fn wants_bytes(&self) -> bool {
        false
    }
}

/// What the reading thread hands to the observer's thread.
enum Event {
    Start(String),
    Chunk(Vec<u8>),
    Finish,
}

/// An observer that forwards every event to another thread, recycling the buffers it gets back.
struct Forward {
    events: std::sync::mpsc::SyncSender<Event>,
    spare: std::sync::mpsc::Receiver<Vec<u8>>,
}

impl Observer for Forward {
    fn start(&mut self, name: &str) {
        let _ = self.events.send(Event::Start(name.to_owned()));
    }

    fn chunk(&mut self, bytes: &[u8]) {
        let mut buffer = self.spare.try_recv().unwrap_or_default();
        buffer.clear();
        buffer.extend_from_slice(bytes);
        let _ = self.events.send(Event::Chunk(buffer));
    }

    fn finish(&mut self) {
        let _ = self.events.send(Event::Finish);
    }
}

/// Runs `read` with an observer whose events `observer` handles on a second thread, so that
/// inflating and hashing (here) overlap with what the observer does with the bytes (there).
/// A few chunks are in flight at most; the thread ends when `read` returns.
fn on_second_thread<T>(
    observer: &mut dyn Observer,
    read: impl FnOnce(&mut dyn Observer) -> T,
) -> T {
    std::thread::scope(|scope| {
        let (events, inbox) = std::sync::mpsc::sync_channel::<Event>(8);
        let (recycle, spare) = std::sync::mpsc::channel();
        scope.spawn(move || {
            for event in inbox {
                match event {
                    Event::Start(name) => observer.start(&name),
                    Event::Chunk(bytes) => {
                        observer.chunk(&bytes);
                        let _ = recycle.send(bytes);
                    }
                    Event::Finish => observer.finish(),
                }
            }
        });
        let mut forward = Forward { events, spare };
        read(&mut forward)
    })
}

/// Runs `read` with `observer`, on a second thread when it looks at the bytes (see
/// [`on_second_thread`]).
pub(crate) fn observed<T>(
    observer: &mut dyn Observer,
    read: impl FnOnce(&mut dyn Observer) -> T,
) -> T {
    if observer.wants_bytes() {
        on_second_thread(observer, read)
    } else {
        read(observer)
    }
}

/// Reads a zip into a [`Bag`]: hostile archives are refused (see the module doc), every entry
/// is hashed, tag files and `data/passport.json` are kept, luggage bytes only when
/// `keep_luggage`. The manifests are not checked here: see [`verify`]. The observer sees the
/// luggage on a thread of its own, while this one inflates and hashes.
pub fn read_zip<R: Read + Seek>(
    reader: R,
    limits: Limits,
    keep_luggage: bool,
    observer: &mut dyn Observer,
) -> Result<Bag, BagError> {
    observed(observer, |observer| {
        read_entries(reader, limits, keep_luggage, observer)
    })
}

fn read_entries<R: Read + Seek>(
    reader: R,
    limits: Limits,
    keep_luggage: bool,
    observer: &mut dyn Observer,
) -> Result<Bag, BagError> {
    let archive = zip::ZipArchive::new(reader).map_err(|e| BagError::NotZip(e.to_string()))?;
    if archive.len() > limits.max_entries {
        return Err(BagError::TooManyEntries {
            limit: limits.max_entries,
        });
    }
    // The zip reader keys entries by name, so a second entry of the same name would vanish
    // unseen: the central directory's records are counted and named here first.
    let start = archive.central_directory_start();
    let mut reader = archive.into_inner();
    refuse_duplicates(&mut reader, start, limits.max_entries)?;
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| BagError::NotZip(e.to_string()))?;
    let mut total = 0u64;
    let mut bag = Bag::default();
    let mut buffer = vec![0u8; 64 * 1024];
    for index in 0..archive.len() {
        let shown = archive.name_for_index(index).map(str::to_owned);
        let mut file = archive.by_index(index).map_err(|e| match shown {
            Some(entry) => BagError::Unsupported {
                entry,
                reason: e.to_string(),
            },
            None => BagError::NotZip(format!("entry {index}: {e}")),
        })?;
        let name = safe_name(file.name_raw())?;
        if file.is_symlink() {
            return Err(BagError::Symlink { entry: name });
        }
        if file.encrypted() {
            return Err(BagError::Unsupported {
                entry: name,
                reason: "encrypted entries are not part of a bag".to_owned(),
            });
        }
        if name.ends_with('/') {
            continue; // a directory: holds nothing, names nothing
        }
        let is_luggage = name.starts_with(FILES_DIR);
        let keep = keep_luggage || !is_luggage;
        if is_luggage {
            observer.start(&name);
        }
        let mut hasher = Sha256::new();
        let mut kept = Vec::new();
        let mut size = 0u64;
        loop {
            let n = match file.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(BagError::Read {
                        entry: name,
                        reason: e.to_string(),
                    })
                }
            };
            total += n as u64;
            if total > limits.max_total_bytes {
                return Err(BagError::TooLarge {
                    entry: name,
                    limit: limits.max_total_bytes,
                });
            }
            size += n as u64;
            let bytes = &buffer[..n];
            hasher.update(bytes);
            if is_luggage {
                observer.chunk(bytes);
            }
            if keep {
                kept.extend_from_slice(bytes);
            }
        }
        if is_luggage {
            observer.finish();
        }
        bag.entries.push(Entry {
            name,
            size,
            sha256: hasher.finalize().into(),
            bytes: keep.then_some(kept),
        });
    }
    Ok(bag)
}

/// Walks the central directory's records from `start` and refuses a name that appears twice
/// (or more than `max_entries` records).
fn refuse_duplicates<R: Read + Seek>(
    reader: &mut R,
    start: u64,
    max_entries: usize,
) -> Result<(), BagError> {
    const RECORD: [u8; 4] = 0x0201_4b50u32.to_le_bytes();
    let corrupt = |e: std::io::Error| BagError::NotZip(format!("central directory: {e}"));
    reader
        .seek(std::io::SeekFrom::Start(start))
        .map_err(corrupt)?;
    let mut reader = std::io::BufReader::new(reader);
    let mut names = HashSet::new();
    let mut in_order = Vec::new();
    let mut fixed = [0u8; 46];
    loop {
        if reader.read_exact(&mut fixed[..4]).is_err() || fixed[..4] != RECORD {
            let shown: Vec<String> = in_order
                .iter()
                .map(|n: &Vec<u8>| String::from_utf8_lossy(n).into_owned())
                .collect();
            return match file_used_as_folder(shown.iter().map(String::as_str)) {
                Some((entry, inside)) => Err(BagError::FileAndFolder {
                    entry: entry.to_owned(),
                    inside: inside.to_owned(),
                }),
                None => Ok(()),
            };
        }
        reader.read_exact(&mut fixed[4..]).map_err(corrupt)?;
        let field = |at: usize| u16::from_le_bytes([fixed[at], fixed[at + 1]]) as usize;
        let mut name = vec![0u8; field(28)];
        reader.read_exact(&mut name).map_err(corrupt)?;
        let skip = (field(30) + field(32)) as i64;
        reader.seek_relative(skip).map_err(corrupt)?;
        if !names.insert(name.clone()) {
            return Err(BagError::Duplicate {
                entry: String::from_utf8_lossy(&name).into_owned(),
            });
        }
        in_order.push(name);
        if names.len() > max_entries {
            return Err(BagError::TooManyEntries { limit: max_entries });
        }
    }
}

pub(crate) use crate::taskpack::names::file_used_as_folder;
pub use crate::taskpack::ZIP_MAGIC;

/// A zip entry name that stays inside the bag ([`crate::taskpack::names::safe_name`]), or the error
/// that shows it.
pub(crate) fn safe_name(raw: &[u8]) -> Result<String, BagError> {
    match std::str::from_utf8(raw) {
        Ok(name) if crate::taskpack::names::safe_name(name) => Ok(name.to_owned()),
        Ok(name) => Err(BagError::UnsafeName {
            entry: name.to_owned(),
        }),
        Err(_) => Err(BagError::UnsafeName {
            entry: String::from_utf8_lossy(raw).into_owned(),
        }),
    }
}

/// Parses a `<sha256 hex>  <path>` manifest; a line of any other shape is an error.
fn parse_manifest(
    text: &[u8],
    manifest: &'static str,
) -> Result<Vec<([u8; 32], String)>, BagError> {
    let bad = |reason: String| BagError::BadTagFile {
        entry: manifest.to_owned(),
        reason,
    };
    let text = std::str::from_utf8(text).map_err(|_| bad("not UTF-8".to_owned()))?;
    let mut lines = Vec::new();
    for (number, line) in text.split('\n').enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        let parsed = line
            .split_once([' ', '\t'])
            .and_then(|(hex, path)| Some((parse_hex(hex)?, path.trim_start_matches([' ', '\t']))))
            .filter(|(_, path)| !path.is_empty());
        match parsed {
            Some((digest, path)) => lines.push((digest, path.to_owned())),
            None => {
                return Err(bad(format!(
                    "line {} is not `<sha256 hex> <path>`",
                    number + 1
                )))
            }
        }
    }
    Ok(lines)
}

fn parse_hex(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 || !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in hex.as_bytes().chunks(2).enumerate() {
        out[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// Lower-case hex of a digest.
pub fn hex(digest: &[u8; 32]) -> String {
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Everything wrong with a bag against its own declarations (C1): `bagit.txt`, `bag-info.txt`
/// (Payload-Oxum, External-Identifier, Bag-Spec), both manifests both ways. Empty when the bag
/// agrees with itself.
pub fn verify(bag: &Bag) -> Vec<BagError> {
    let mut problems = Vec::new();
    let tag = |name: &str, reason: &str| BagError::BadTagFile {
        entry: name.to_owned(),
        reason: reason.to_owned(),
    };
    match bag.bytes(BAGIT_TXT) {
        None => problems.push(tag(BAGIT_TXT, "missing: not a BagIt bag")),
        Some(text)
            if !text
                .split(|b| *b == b'\n')
                .any(|l| l == b"BagIt-Version: 1.0") =>
        {
            problems.push(tag(BAGIT_TXT, "does not declare `BagIt-Version: 1.0`"))
        }
        Some(_) => {}
    }
    match bag.bytes(BAG_INFO_TXT) {
        None => problems.push(tag(BAG_INFO_TXT, "missing")),
        Some(info) => problems.extend(check_bag_info(bag, info)),
    }
    for manifest in [MANIFEST, TAG_MANIFEST] {
        let Some(text) = bag.bytes(manifest) else {
            problems.push(tag(manifest, "missing"));
            continue;
        };
        let lines = match parse_manifest(text, manifest) {
            Ok(lines) => lines,
            Err(problem) => {
                problems.push(problem);
                continue;
            }
        };
        for (digest, path) in &lines {
            match bag.get(path) {
                None => problems.push(BagError::MissingEntry {
                    entry: path.clone(),
                    manifest,
                }),
                Some(entry) if &entry.sha256 != digest => problems.push(BagError::DigestMismatch {
                    entry: path.clone(),
                    manifest,
                }),
                Some(_) => {}
            }
        }
        let listed: HashSet<&str> = lines.iter().map(|(_, p)| p.as_str()).collect();
        for entry in &bag.entries {
            let vouched_here = if manifest == MANIFEST {
                entry.is_payload()
            } else {
                !entry.is_payload() && entry.name != TAG_MANIFEST
            };
            if vouched_here && !listed.contains(entry.name.as_str()) {
                problems.push(BagError::Unmanifested {
                    entry: entry.name.clone(),
                    manifest,
                });
            }
        }
    }
    problems
}

fn check_bag_info(bag: &Bag, info: &[u8]) -> Vec<BagError> {
    let mut problems = Vec::new();
    let bad = |reason: String| BagError::BadTagFile {
        entry: BAG_INFO_TXT.to_owned(),
        reason,
    };
    let text = String::from_utf8_lossy(info);
    let field = |label: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(label)?.strip_prefix(':'))
            .map(str::trim)
    };
    if field("External-Identifier").is_none_or(str::is_empty) {
        problems.push(bad("no External-Identifier".to_owned()));
    }
    match field("Bag-Spec") {
        Some(BAG_SPEC | TASKPACK_SPEC) => {}
        Some(other) => problems.push(bad(format!(
            "Bag-Spec `{other}` is not one this reader knows ({TASKPACK_SPEC})"
        ))),
        None => problems.push(bad("no Bag-Spec".to_owned())),
    }
    let payload = bag.entries.iter().filter(|e| e.is_payload());
    let (octets, count) = payload.fold((0u64, 0usize), |(o, c), e| (o + e.size, c + 1));
    let expected = format!("{octets}.{count}");
    match field("Payload-Oxum") {
        Some(oxum) if oxum == expected => {}
        Some(oxum) => problems.push(bad(format!(
            "Payload-Oxum is {oxum}, the payload is {expected}"
        ))),
        None => problems.push(bad("no Payload-Oxum".to_owned())),
    }
    problems
}

/// A luggage name as the reference keeps it: each segment with runs of characters outside
/// `[A-Za-z0-9_.\-（）()一-龥]` replaced by `_`, drive letters, `.`, `..`, `_` and empty segments
/// dropped. A name that is not already this is renamed on its way through any conformant writer,
/// so it cannot round-trip (C9).
pub fn luggage_path(raw: &str) -> String {
    let keep = |c: char| {
        c.is_ascii_alphanumeric()
            || matches!(c, '_' | '.' | '-' | '（' | '）' | '(' | ')')
            || ('\u{4e00}'..='\u{9fa5}').contains(&c)
    };
    raw.replace('\\', "/")
        .split('/')
        .map(|segment| {
            let bytes = segment.as_bytes();
            let drive = bytes.len() == 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
            let mut out = String::new();
            if !drive {
                out = replace_runs(segment, |c| !keep(c), '_');
            }
            out
        })
        .filter(|s| !s.is_empty() && s != "." && s != ".." && s != "_")
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luggage_names_are_kept_as_the_reference_keeps_them() {
        assert_eq!(luggage_path("设计说明.txt"), "设计说明.txt");
        assert_eq!(luggage_path("docs/a b.md"), "docs/a_b.md");
        assert_eq!(luggage_path("../../etc/passwd"), "etc/passwd");
        assert_eq!(luggage_path("C:\\Users\\x\\レポート.txt"), "Users/x/_.txt");
        assert_eq!(luggage_path("a  &&  b"), "a_b");
    }

    #[test]
    fn js_slice_counts_utf16_units() {
        assert_eq!(js_slice("ab😀c", 3), "ab\u{fffd}");
        assert_eq!(js_slice("ab😀c", 4), "ab😀");
        assert_eq!(collapse_newlines("a\r\n\nb\nc"), "a b c");
    }
}
