#![no_main]
//! `envelope apply` on a store: the input is a sequence of envelope texts (split at NUL
//! bytes), applied in order to a fresh store holding one package.
//!
//! Asserts after each apply: a refusal carries a code of the spec and changes nothing (same
//! revision, same outcome rows); an applied envelope raises the revision by one and records
//! one outcome (the revision and the outcome rows agree); applying it again is a replay that
//! changes nothing and answers the same.

use libfuzzer_sys::fuzz_target;
use specmint::action_envelope::engine::PackageStore;
use specmint::action_envelope::EnvelopeError;
use specmint::database::{Failure, Synchronous};
use std::path::PathBuf;
use std::sync::OnceLock;

const PACKAGE: &str = "pkg_fuzz";

/// A fresh store file (on /dev/shm when it exists): the store keeps a write-ahead log, which
/// an in-memory database cannot.
fn fresh_store() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = specmint_fuzz::scratch_dir("apply");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    });
    let db = dir.join("store.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

fuzz_target!(|data: &[u8]| {
    let mut store = PackageStore::open_with(fresh_store(), Synchronous::Normal).unwrap();
    store.create(PACKAGE, Some("fuzz")).unwrap();
    for text in data.split(|&b| b == 0).take(16) {
        let before = store.manifest(PACKAGE).unwrap().unwrap();
        let outcomes = store.outcome_count(PACKAGE).unwrap();
        assert_eq!(
            before.revision, outcomes,
            "the revision and the outcome rows agree"
        );
        match store.apply_json(text) {
            Ok(applied) => {
                let after = store.manifest(PACKAGE).unwrap();
                if applied.package_id == PACKAGE {
                    let after = after.unwrap();
                    if applied.replayed {
                        assert_eq!(after, before, "a replay changes nothing");
                    } else {
                        assert_eq!(after.revision, before.revision + 1);
                        assert_eq!(applied.revision, after.revision);
                        assert_eq!(store.outcome_count(PACKAGE).unwrap(), outcomes + 1);
                    }
                    let again = store.apply_json(text).unwrap();
                    assert!(again.replayed, "the same envelope again is a replay");
                    assert_eq!(
                        (again.revision, again.state),
                        (applied.revision, applied.state)
                    );
                    assert_eq!(store.manifest(PACKAGE).unwrap().unwrap(), after);
                }
            }
            Err(Failure::Refused(refusal)) => {
                assert!(EnvelopeError::ALL.contains(&refusal.code));
                assert!(!refusal.message.is_empty());
                assert_eq!(
                    store.manifest(PACKAGE).unwrap().unwrap(),
                    before,
                    "a refusal writes nothing"
                );
                assert_eq!(store.outcome_count(PACKAGE).unwrap(), outcomes);
            }
            Err(Failure::Store(e)) => panic!("the store failed: {e}"),
        }
    }
});
