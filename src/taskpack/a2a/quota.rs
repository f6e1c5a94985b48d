//! The door's store quota (`specmint a2a serve --max-store-bytes`): a bound on the bytes the
//! passports directory holds, checked before a pack lands.
//!
//! The directory is measured once, when the door opens ([`StoreQuota::measure`]: every file
//! under it, passports, luggage and what else lies there); from then on the door keeps a running
//! total. A pack about to land reserves its own size (the decoded pack) under a lock, so two
//! landings at once cannot both pass a quota only one fits; a pack whose reservation would pass
//! the quota is refused before anything is written ([`STORE_QUOTA_EXCEEDED`]). Once it has
//! landed, the reservation is replaced by what the landing added on disk (the passport's file
//! and its `<ID>.files/` folder, measured before and after). What others write into the
//! directory meanwhile (the CLI, another door) is not seen until the door restarts.

use std::path::Path;
use std::sync::Mutex;

use super::super::passports::PassportStore;
use super::answer::RpcError;

/// JSON-RPC: the landing would pass the store quota (`--max-store-bytes`). In the range
/// JSON-RPC leaves to servers (-32000 to -32099), outside the codes A2A names.
pub const STORE_QUOTA_EXCEEDED: i32 = -32040;

/// A bound on the bytes of a passport store, and the bytes it holds (see the module doc).
#[derive(Debug)]
pub struct StoreQuota {
    limit: u64,
    used: Mutex<u64>,
}

impl StoreQuota {
    /// The quota `limit` over `store`, its present size measured (every file under its
    /// directory).
    pub fn measure(store: &PassportStore, limit: u64) -> std::io::Result<StoreQuota> {
        Ok(StoreQuota {
            limit,
            used: Mutex::new(tree_bytes(store.dir())?),
        })
    }

    /// The bound, in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The bytes the store holds, as counted (reservations of landings under way included).
    pub fn used(&self) -> u64 {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves `bytes` for a landing, or refuses it when the store would pass the quota.
    pub(super) fn reserve(&self, bytes: u64) -> Result<Reservation<'_>, RpcError> {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.saturating_add(bytes) > self.limit {
            return Err(RpcError::new(
                STORE_QUOTA_EXCEEDED,
                format!(
                    "the store is full: landing this pack ({bytes} bytes) would pass the store \
                     quota of {} bytes ({} bytes used); nothing was written",
                    self.limit, *used
                ),
            ));
        }
        *used += bytes;
        Ok(Reservation {
            quota: self,
            reserved: bytes,
        })
    }
}

/// Bytes reserved for one landing: released when it drops, unless [`Reservation::settle`]
/// replaced them by what the landing wrote.
pub(super) struct Reservation<'a> {
    quota: &'a StoreQuota,
    reserved: u64,
}

impl Reservation<'_> {
    /// The landing added `written` bytes (it may be more or fewer than reserved).
    pub(super) fn settle(mut self, written: u64) {
        let mut used = self.quota.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(self.reserved).saturating_add(written);
        self.reserved = 0;
    }
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        if self.reserved > 0 {
            let mut used = self.quota.used.lock().unwrap_or_else(|e| e.into_inner());
            *used = used.saturating_sub(self.reserved);
        }
    }
}

/// The bytes passport `id` takes in `store`: its file and its `<ID>.files/` folder (0 for what
/// is absent).
pub(super) fn passport_bytes(store: &PassportStore, id: &str) -> u64 {
    let file = std::fs::metadata(store.path(id)).map_or(0, |m| m.len());
    file + tree_bytes(&store.dir().join(format!("{id}.files"))).unwrap_or(0)
}

/// The bytes of every file under `dir` (0 when it is absent); symbolic links are not followed.
fn tree_bytes(dir: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            let meta = match entry.metadata() {
                Ok(meta) => meta,
                // Gone since the listing (a temporary file renamed or removed).
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            };
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                total += meta.len();
            }
        }
    }
    Ok(total)
}
