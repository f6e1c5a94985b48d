//! The on-disk layout of filed packets: `<home>/team_packets/<task_id>/r<round>/`, one *leg*
//! (`<from>-to-<to>`) holding the canonical file and its numbered siblings.
//!
//! Writers serialize per leg on an exclusive `flock` of the leg's lock file (waited for at most
//! [`LOCK_WAIT`], then refused), so choosing a
//! slot and filling it is one step for every process; the bytes are written through
//! `atomic_file` (a temp file fsynced and renamed over the slot), so a reader sees the old
//! file or the new one, never a torn one, and a writer sweeps the temp files a killed one
//! left. Readers take no lock: a rename is atomic.
//!
//! Nothing is written through a link planted in the home: the leg's directories under the home
//! must be real directories, the lock file is opened without following a link (and refused
//! hard-linked), and a slot is replaced by a rename, never written in place. A slot is read
//! only when it is a regular file, at most [`SLOT_MAX_BYTES`] of it ([`specmint_fs`]), so a
//! FIFO or a device at a slot's path refuses the filing instead of stalling it.

use std::fs::OpenOptions;
use std::io;
use std::path::Path;

use super::audit::LOCK_WAIT;
use super::Role;
use crate::atomic_file::{remove_stale_temporaries, write_atomically};
use crate::fsguard;

/// The directory under the home that holds every leg.
pub const TEAM_PACKETS_DIR: &str = "team_packets";
/// The highest `round` a path may carry (the spec's "round exceeds 10000").
pub const PACKET_ROUND_MAX: u32 = 10_000;
/// Numbered siblings a leg may hold besides its canonical file (`.01` … `.99`).
pub const SIBLINGS_MAX: u32 = 99;
/// The most read of a slot's file: a packet document's size limit (a filed packet is its
/// canonical JSON, which `handoff read` refuses over that limit anyway). A larger file holds
/// no packet of ours.
pub const SLOT_MAX_BYTES: usize = super::DOCUMENT.max_input_bytes;
/// The longest agent id or task id usable as one path component, in bytes.
pub const PATH_COMPONENT_MAX_BYTES: usize = 64;

/// Whether `s` is 1–64 bytes of `[A-Za-z0-9_-]`: an agent id, or a task id usable as one
/// path component (no separator, no `.`/`..`, nothing a shell or a log would mangle).
#[must_use]
pub fn is_path_component(s: &str) -> bool {
    (1..=PATH_COMPONENT_MAX_BYTES).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// One leg: the packets one role hands another in one round of one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// `team_packets/<task_id>/r<round>`, relative to the home, `/`-separated.
    pub dir: String,
    /// `<from>-to-<to>`.
    pub stem: String,
}

impl Leg {
    /// The leg of (task, round, from → to); `None` when `task_id` is not a path component or
    /// `round` is over [`PACKET_ROUND_MAX`].
    #[must_use]
    pub fn new(task_id: &str, round: u32, from: Role, to: Role) -> Option<Self> {
        (is_path_component(task_id) && round <= PACKET_ROUND_MAX).then(|| Leg {
            dir: format!("{TEAM_PACKETS_DIR}/{task_id}/r{round}"),
            stem: format!("{from}-to-{to}"),
        })
    }

    /// The file of slot `n`, relative to the home: 0 is the canonical
    /// `<from>-to-<to>.json`, 1 to 99 the siblings `<from>-to-<to>.NN.json`.
    #[must_use]
    pub fn slot(&self, n: u32) -> String {
        match n {
            0 => format!("{}/{}.json", self.dir, self.stem),
            n => format!("{}/{}.{n:02}.json", self.dir, self.stem),
        }
    }

    /// Writes `bytes` (a packet whose id is `packet_id`) into this leg under `home`: into the
    /// slot already holding `packet_id`, else the lowest free slot. Returns the slot's path
    /// relative to the home. Every slot taken by another packet is an error.
    pub fn file(&self, home: &Path, packet_id: &str, bytes: &[u8]) -> io::Result<String> {
        let dir = fsguard::real_dirs(home, Path::new(&self.dir))?;
        let mut options = OpenOptions::new();
        options.create(true).truncate(false).write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let lock_path = dir.join(format!(".{}.lock", self.stem));
        let lock = fsguard::open_for_writing(&mut options, &lock_path)?;
        fsguard::lock_within(&lock, &lock_path, LOCK_WAIT)?;
        let slot = self.choose_slot(home, packet_id)?;
        // Every slot of the leg is written under this lock: a temporary file of one is stale.
        let slots = format!("{}.", self.stem);
        remove_stale_temporaries(&dir, |target| target.starts_with(&slots));
        write_atomically(&home.join(&slot), bytes)?;
        Ok(slot)
        // Dropping `lock` releases it.
    }

    /// The slot for `packet_id`: the one holding it, else the lowest free one.
    fn choose_slot(&self, home: &Path, packet_id: &str) -> io::Result<String> {
        let mut free = None;
        for n in 0..=SIBLINGS_MAX {
            let slot = self.slot(n);
            match fsguard::read_regular(&home.join(&slot), SLOT_MAX_BYTES as u64) {
                Ok(bytes) => {
                    if packet_id_of(&bytes).as_deref() == Some(packet_id) {
                        return Ok(slot);
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    free.get_or_insert(slot);
                }
                // Taken, by something that is not one of our packets.
                Err(e) if e.kind() == io::ErrorKind::FileTooLarge => {}
                Err(e) => return Err(e),
            }
        }
        free.ok_or_else(|| {
            io::Error::other(format!(
                "the leg `{}/{}` already holds {} packets",
                self.dir,
                self.stem,
                SIBLINGS_MAX + 1
            ))
        })
    }

    /// The files of this leg in slot order, relative to the home: the canonical file, then
    /// `.01`, `.02`, … up to the first missing slot.
    pub fn files(&self, home: &Path) -> Vec<String> {
        (0..=SIBLINGS_MAX)
            .map(|n| self.slot(n))
            .take_while(|slot| home.join(slot).is_file())
            .collect()
    }
}

/// The `packet_id` of a filed packet, if its bytes are a JSON object holding one.
fn packet_id_of(bytes: &[u8]) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Id {
        packet_id: String,
    }
    serde_json::from_slice::<Id>(bytes)
        .ok()
        .map(|id| id.packet_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_components_are_short_plain_ascii() {
        assert!(is_path_component("task-1183_b"));
        assert!(is_path_component(&"a".repeat(64)));
        for bad in [
            "",
            "..",
            ".",
            "a/b",
            "a\\b",
            "a b",
            "任務",
            "a.json",
            &"a".repeat(65),
        ] {
            assert!(!is_path_component(bad), "{bad:?}");
        }
    }

    #[test]
    fn slots_are_the_canonical_file_then_two_digit_siblings() {
        let leg = Leg::new("t-1", 2, Role::Planner, Role::Executor).unwrap();
        assert_eq!(leg.slot(0), "team_packets/t-1/r2/planner-to-executor.json");
        assert_eq!(
            leg.slot(1),
            "team_packets/t-1/r2/planner-to-executor.01.json"
        );
        assert_eq!(
            leg.slot(99),
            "team_packets/t-1/r2/planner-to-executor.99.json"
        );
        assert!(Leg::new("t-1", PACKET_ROUND_MAX + 1, Role::Planner, Role::Executor).is_none());
        assert!(Leg::new("../x", 1, Role::Planner, Role::Executor).is_none());
    }
}
