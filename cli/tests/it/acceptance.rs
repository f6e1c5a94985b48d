//! Issue 16's acceptance: `tests/acceptance/`, a crate with a spec of its own (Webhook Event
//! v1: patterns, unique keys, integer bounds, minimums, a states-typed field), is built
//! through the README's build.rs recipe and its own tests are run: its generated corpus
//! agrees with its generated validator on every case, and so does the interpreter
//! (`specmint validate --spec`) of the same spec, report for report. (`tests/peers/conformance/run.sh` holds
//! the same corpus to Python jsonschema and ajv.)
//!
//! The crate is not a workspace member, so it costs nothing to other builds; it is copied to
//! a scratch directory with its path dependencies made absolute and the workspace's
//! Cargo.lock, and built offline.

use crate::common;

use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_acceptance_crate_builds_and_its_corpus_agrees_with_its_validator() {
    let root = common::root();
    let crate_dir = root.join("tests/acceptance");
    let dir = std::env::temp_dir().join(format!("specmint-acceptance-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(&crate_dir, &dir);
    let manifest = std::fs::read_to_string(crate_dir.join("Cargo.toml")).unwrap();
    let absolute = manifest.replace("path = \"../../", &format!("path = \"{}/", root.display()));
    assert_ne!(
        manifest, absolute,
        "the crate's path dependencies point at this repository"
    );
    std::fs::write(dir.join("Cargo.toml"), absolute).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let out = common::scratch_cargo(&dir)
        .args(["test", "--offline", "--quiet"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("test result: ok. 3 passed"),
        "all three of the crate's webhook tests ran:\n{stdout}"
    );
    // Clinic Booking v1 (issue 46): its corpus test, and its examples as the library's
    // generated `spec_examples` tests (the webhook spec's among them).
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "the clinic corpus test ran:\n{stdout}"
    );
    // Core Invoice v1 (issue 47): its corpus test and its one-cent test.
    assert!(
        stdout.contains("test result: ok. 2 passed"),
        "the core invoice tests ran:\n{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
