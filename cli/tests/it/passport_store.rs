//! The local passport store (issue 13, item 1): `specmint passport new|show|list` and the
//! library's `PassportStore`, including updates from several real processes at once.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use specmint::taskpack::json::Json;
use specmint::taskpack::passports::{PassportStore, PassportStoreError};
use specmint::taskpack::{member_mut, set_member};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "specmint-passport-store-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = common::specmint(args, b"");
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn new_show_list_through_the_cli() {
    let dir = scratch("cli");
    let store = dir.to_str().unwrap();
    let (code, out, _) = run(&[
        "passport",
        "new",
        "--title",
        "季度报告",
        "--goal",
        "Ship the Q3 report",
        "--store",
        store,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let created = json(&out);
    let id = created["passport_id"].as_str().unwrap().to_owned();
    assert_eq!(
        created,
        serde_json::json!({"ok": true, "passport_id": id, "version": 1})
    );

    // `show --format json` is the file as stored, lineage at the top level.
    let (code, out, _) = run(&[
        "passport", "show", &id, "--store", store, "--format", "json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        std::fs::read_to_string(dir.join(format!("{id}.json"))).unwrap()
    );
    let shown = Json::parse(&out).unwrap();
    let keys: Vec<&str> = match &shown {
        Json::Object(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
        _ => panic!("not an object"),
    };
    // task-passport's member order (core.js create), then the lineage.
    assert_eq!(
        keys,
        [
            "spec",
            "kind",
            "id",
            "title",
            "goal",
            "version",
            "machine_id",
            "harness",
            "scope",
            "created_at",
            "updated_at",
            "current_state",
            "facts",
            "decisions",
            "actions",
            "artifacts",
            "verification",
            "next_steps",
            "learnings",
            "lineage"
        ]
    );
    assert_eq!(
        shown.get("lineage").unwrap().to_js_compact(),
        format!(r#"{{"root_id":"{id}","chain":[]}}"#)
    );

    let (code, out, _) = run(&["passport", "list", "--store", store, "--format", "json"]);
    assert_eq!(code, 0);
    let listed = json(&out);
    assert_eq!(listed["count"], 1);
    assert_eq!(listed["passports"][0]["passport_id"], id.as_str());
    assert_eq!(listed["passports"][0]["title"], "季度报告");
    assert_eq!(listed["passports"][0]["state_version"], 1);

    // The human view: a member the passport lacks reads `(none)`, never `undefined`, and a
    // line break or an escape in a value (a landed passport holds a sender's words) is shown
    // escaped.
    let file = dir.join("state.json");
    std::fs::write(&file, r#"{"goal":"g\u001b[2J\nsecond line"}"#).unwrap();
    let (code, _, err) = run(&[
        "passport",
        "new",
        "--file",
        file.to_str().unwrap(),
        "--id",
        "TP-BARE",
        "--store",
        store,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&["passport", "show", "TP-BARE", "--store", store]);
    assert_eq!(code, 0);
    assert!(!out.contains("undefined"), "{out}");
    assert!(out.contains("  current state: (none)\n"), "{out}");
    assert!(out.contains("  goal: g\\u001b[2J\\nsecond line\n"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refusals_have_their_codes_and_exit_1() {
    let dir = scratch("refusals");
    let store = dir.to_str().unwrap();
    let (code, out, _) = run(&["passport", "show", "../etc/passwd", "--store", store]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "refused: invalid_passport_id: `../etc/passwd` is not a passport id: an id is 1 to 120 characters of A-Z a-z 0-9 _ -\n"
    );
    let (code, out, _) = run(&[
        "passport", "show", "TP-NONE", "--store", store, "--format", "json",
    ]);
    assert_eq!(code, 1);
    assert_eq!(
        json(&out),
        serde_json::json!({"ok": false, "code": "unknown_passport", "message": "no passport `TP-NONE` in the store"})
    );
    let new = [
        "passport", "new", "--id", "P-1", "--title", "t", "--goal", "g", "--store", store,
    ];
    assert_eq!(run(&new).0, 0);
    let (code, out, _) = run(&new);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "refused: passport_exists: the store already holds a passport `P-1`\n"
    );
    // A hostile id never becomes a path: nothing is written outside the store.
    let (code, _, _) = run(&[
        "passport",
        "new",
        "--id",
        "../escaped",
        "--title",
        "t",
        "--goal",
        "g",
        "--store",
        store,
    ]);
    assert_eq!(code, 1);
    assert!(!dir.parent().unwrap().join("escaped.json").exists());
    let (code, _, err) = run(&["passport", "new", "--title", "t", "--store", store]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("specmint: --goal is required (or --file FILE)\n"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_default_store_is_under_the_users_data_dir() {
    let dir = scratch("default");
    let out = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args([
            "passport", "new", "--id", "P-home", "--title", "t", "--goal", "g",
        ])
        .env("XDG_DATA_HOME", &dir)
        .env("HOME", &dir)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = if cfg!(target_os = "macos") {
        dir.join("Library/Application Support/specmint/passports/P-home.json")
    } else {
        dir.join("specmint/passports/P-home.json")
    };
    assert!(expected.is_file(), "{}", expected.display());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn new_from_a_file_keeps_its_members_and_mints_an_id() {
    let dir = scratch("file");
    let state = dir.join("state.json");
    std::fs::write(
        &state,
        "\u{feff}{\"title\":\"t\",\"goal\":\"g\",\"facts\":[{\"claim\":\"c\",\"scope\":\"universal\",\"verified\":true}]}",
    )
    .unwrap();
    let store = dir.join("store");
    let (code, out, _) = run(&[
        "passport",
        "new",
        "--file",
        state.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let id = json(&out)["passport_id"].as_str().unwrap().to_owned();
    let stored = PassportStore::open(&store).unwrap().get(&id).unwrap();
    assert_eq!(
        stored.get("facts").unwrap().to_js_compact(),
        r#"[{"claim":"c","scope":"universal","verified":true}]"#
    );
    assert_eq!(stored.get("version"), Some(&Json::Number(1.into())));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Set in the children of `processes_updating_one_passport_lose_no_update`.
const CHILD_ENV: &str = "SPECMINT_TEST_PASSPORT_WRITER";
const WRITERS: usize = 4;
const UPDATES: usize = 40;

/// In a child process: `UPDATES` read-modify-writes of passport `P-race`, each appending this
/// writer's tag to `seen` and incrementing `count`.
#[test]
fn child_writer() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let (dir, tag) = spec.split_once('|').unwrap();
    let store = PassportStore::open(Path::new(dir)).unwrap();
    // Start together: every writer is running before the first update.
    while !Path::new(dir).join("go").exists() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    for n in 0..UPDATES {
        store
            .update("P-race", |passport| {
                let count = passport.get("count").and_then(|c| match c {
                    Json::Number(n) => n.as_u64(),
                    _ => None,
                });
                set_member(passport, "count", Json::Number((count.unwrap() + 1).into()));
                if let Some(Json::Array(seen)) = member_mut(passport, "seen") {
                    seen.push(Json::Str(format!("{tag}.{n}")));
                }
                Ok::<_, PassportStoreError>(())
            })
            .unwrap();
    }
}

#[test]
fn processes_updating_one_passport_lose_no_update() {
    if std::env::var_os(CHILD_ENV).is_some() {
        return;
    }
    let dir = scratch("race");
    let store = PassportStore::open(&dir).unwrap();
    store
        .create(Json::parse(r#"{"id":"P-race","count":0,"seen":[]}"#).unwrap())
        .unwrap();
    let me = std::env::current_exe().unwrap();
    let children: Vec<_> = (0..WRITERS)
        .map(|w| {
            Command::new(&me)
                .args([
                    "--exact",
                    &common::test_name(module_path!(), "child_writer"),
                    "--nocapture",
                    "--test-threads",
                    "1",
                ])
                .env(CHILD_ENV, format!("{}|w{w}", dir.display()))
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::write(dir.join("go"), "").unwrap();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    std::fs::remove_file(dir.join("go")).unwrap();
    let stored = store.get("P-race").unwrap();
    let total = WRITERS * UPDATES;
    assert_eq!(stored.get("count"), Some(&Json::Number(total.into())));
    assert_eq!(
        stored.get("version"),
        Some(&Json::Number((total + 1).into()))
    );
    let seen = stored.get("seen").and_then(Json::as_array).unwrap();
    assert_eq!(seen.len(), total);
    for w in 0..WRITERS {
        // Each writer's updates all landed, in its own order.
        let mine: Vec<&str> = seen
            .iter()
            .filter_map(Json::as_str)
            .filter(|s| s.starts_with(&format!("w{w}.")))
            .collect();
        let expected: Vec<String> = (0..UPDATES).map(|n| format!("w{w}.{n}")).collect();
        assert_eq!(mine, expected);
    }
    // Nothing but the record and its lock file is left in the store.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [".P-race.lock", "P-race.json"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--passports DIR` names the passport directory; `--store DIR`, its first spelling, is the
/// same option (a passport made through one is listed through the other), and help shows it as
/// deprecated.
#[test]
fn passports_is_the_directory_and_store_its_deprecated_spelling() {
    let dir = scratch("passports-flag");
    let store = dir.to_str().unwrap();
    let (code, _, err) = run(&[
        "passport",
        "new",
        "--id",
        "P-NAMED",
        "--title",
        "t",
        "--goal",
        "g",
        "--passports",
        store,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(dir.join("P-NAMED.json").is_file());
    let (code, out, _) = run(&["passport", "list", "--store", store, "--format", "json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["passports"][0]["passport_id"], "P-NAMED");
    for family in [
        &["passport", "list", "--help"][..],
        &["a2a", "serve", "--help"][..],
    ] {
        let (code, out, _) = run(family);
        assert_eq!(code, 0);
        assert!(out.contains("--passports <DIR>"), "{out}");
        assert!(out.contains("Deprecated spelling: --store DIR"), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
