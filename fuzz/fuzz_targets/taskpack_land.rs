#![no_main]
//! Landing (`taskpack land`) a stranger's file: the first byte picks the encoding (even: a
//! `.taskpack` zip, odd: a flat `.taskpack.json`), the rest is the file. Lands into a fresh
//! passport store under a scratch directory (on /dev/shm when it exists).
//!
//! Asserts: a refusal carries a code; whatever happens, nothing is written outside the store
//! but the input file, and no staging folder is left in the store; a landed passport reads back
//! from the store, and each luggage path it names is a file inside the store.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use specmint::taskpack::arrival::{land_file, ArrivalError};
use specmint::taskpack::passports::PassportStore;

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| specmint_fuzz::scratch_dir("land"))
}

/// Every path under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            out.push(
                path.strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
            );
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let dir = scratch();
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let name = if first % 2 == 0 {
        "in.taskpack"
    } else {
        "in.taskpack.json"
    };
    let file = dir.join(name);
    std::fs::write(&file, bytes).unwrap();
    let store = PassportStore::open(&dir.join("store")).unwrap();
    let landed = land_file(&store, &file, first & 2 != 0);
    match &landed {
        Ok(landed) => {
            let read = store.get(&landed.id).expect("a landed passport reads back");
            // As JSON.parse sees both: a repeated key is kept in a tree read, written once.
            assert_eq!(read.to_js_compact(), landed.passport.to_js_compact());
            let root = dir.join("store").canonicalize().unwrap();
            for path in &landed.luggage {
                let at = root
                    .join(path)
                    .canonicalize()
                    .expect("landed luggage exists");
                assert!(
                    at.starts_with(&root),
                    "luggage {path:?} is outside the store"
                );
                assert!(at.is_file(), "luggage {path:?} is not a file");
            }
        }
        Err(ArrivalError::Refused(r)) => assert!(!r.message.is_empty()),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    for path in tree(dir) {
        assert!(
            path == name || path == "store" || path.starts_with("store/"),
            "written outside the store: {path}"
        );
        assert!(
            !path.starts_with("store/.arriving"),
            "a staging folder was left: {path}"
        );
    }
});
