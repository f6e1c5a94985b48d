//! `specmint taskpack pack` (issue 13, item 2): what a pack holds, every refusal with its exact
//! message and exit code, nothing left behind by a refusal, and packs from two processes at once.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use specmint::taskpack::bag::{self, Limits};
use specmint::taskpack::conformance;
use specmint::taskpack::convert::read_pack;
use specmint::taskpack::json::Json;
use specmint::taskpack::passports::PassportStore;

struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!(
            "specmint-taskpack-pack-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn store(&self) -> String {
        self.path("store").to_str().unwrap().to_owned()
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// A passport in the store, made from `state` with `passport new --file`.
    fn passport(&self, id: &str, state: &str) {
        let file = self.write(&format!("{id}.state.json"), state.as_bytes());
        let out = self.run(&["passport", "new", "--file", &file, "--id", id]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }

    /// `specmint ARGS --store <store>`, run in the scratch directory.
    fn run(&self, args: &[&str]) -> Output {
        let mut all: Vec<&str> = args.to_vec();
        let store = self.store();
        all.extend(["--store", &store]);
        common::specmint_in(&self.dir, &all, b"")
    }

    fn stored(&self, id: &str) -> Json {
        PassportStore::open(Path::new(&self.store()))
            .unwrap()
            .get(id)
            .unwrap()
    }

    /// The names in the scratch directory (not the store).
    fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

const STATE: &str = r#"{
  "title": "季度报告", "goal": "Ship the Q3 report", "harness": "claude-code",
  "current_state": "charts half done",
  "facts": [
    {"claim": "the customer wants PDF", "scope": "universal", "verified": true},
    {"claim": "reports use the 2025 template", "scope": "org", "verified": true},
    {"claim": "the renderer is at /opt/r", "scope": "machine", "verified": true},
    {"claim": "port 8080 is free", "verified": true}
  ],
  "next_steps": ["finish the charts"]
}"#;

/// Judges `file` with specmint's conformance and returns the failed checks.
fn failed_checks(file: &Path) -> Vec<&'static str> {
    conformance::judge_path(file, Limits::default())
        .unwrap()
        .failed()
}

#[test]
fn a_handoff_in_both_encodings_is_sealed_extended_recorded_and_conformant() {
    let s = Scratch::new("handoff");
    s.passport("TP-A", STATE);
    s.write("docs/brief.md", "# 简报\n客户要 PDF。\n".as_bytes());
    s.write("docs/raw/logo.bin", &[0, 1, 2, 255]);
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-A",
        "--out",
        "a.taskpack",
        "--actor",
        "ds",
        "--machine",
        "mbp-14",
        "--ask",
        "which quarter counts?|a date range with both ends|fiscal vs calendar",
        "--check",
        "this machine renders PDF|r --version",
        "--attach",
        "docs",
        "--note",
        "charts half done",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        json(&out),
        serde_json::json!({
            "ok": true, "pack": "a.taskpack", "encoding": "bagit-zip", "kind": "handoff",
            "passport_id": "TP-A", "state_version": 2,
            "lineage": {"root_id": "TP-A", "from_version": 2, "chain": ["TP-A@2"]},
            "asks": ["a1"], "asks_recorded": true, "landing_checks": 1, "sealed_facts": 2,
            "luggage": ["docs/brief.md", "docs/raw/logo.bin"], "renamed": []
        })
    );
    let zip = s.path("a.taskpack");
    assert_eq!(failed_checks(&zip), Vec::<&str>::new());

    // The home passport recorded the ask in the version the pack was made from (§4.3).
    let home = s.stored("TP-A");
    assert_eq!(home.get("version"), Some(&Json::Number(2.into())));
    assert_eq!(
        home.get("asks").unwrap().to_js_compact(),
        r#"[{"id":"a1","to":"peer","what":"which quarter counts?","why":"fiscal vs calendar","accept":"a date range with both ends","status":"open","answer":null}]"#
    );
    // …and its own lineage is untouched: the pack carries the extension.
    assert_eq!(
        home.get("lineage").unwrap().to_js_compact(),
        r#"{"root_id":"TP-A","chain":[]}"#
    );

    let (object, attachments) = read_pack(&zip, Limits::default()).unwrap();
    let members: Vec<&str> = match &object {
        Json::Object(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
        _ => panic!(),
    };
    assert_eq!(
        members,
        [
            "spec",
            "kind",
            "packed_at",
            "origin",
            "lineage",
            "note",
            "passport",
            "asks",
            "landing_checks"
        ]
    );
    assert_eq!(
        object.get("origin").unwrap().to_js_compact(),
        r#"{"actor":"ds","machine":"mbp-14","harness":"claude-code"}"#
    );
    let state = object.get("passport").unwrap();
    assert_eq!(state.get("lineage"), None, "the home lineage stays home");
    assert_eq!(state.get("version"), Some(&Json::Number(2.into())));
    assert_eq!(
        state.get("facts").unwrap().to_js_compact(),
        concat!(
            r#"[{"claim":"the customer wants PDF","scope":"universal","verified":true},"#,
            r#"{"claim":"reports use the 2025 template","scope":"org","verified":true,"source":"ds"},"#,
            r#"{"claim":"the renderer is at /opt/r","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"mbp-14"},"#,
            r#"{"claim":"port 8080 is free","verified":false,"needs_reverify":true,"verified_on":"mbp-14"}]"#
        )
    );
    assert_eq!(
        object.get("landing_checks").unwrap().to_js_compact(),
        r#"[{"id":"c1","check":"this machine renders PDF","how":"r --version","required":true}]"#
    );
    assert_eq!(attachments.len(), 2);
    assert_eq!(attachments[1].bytes, [0, 1, 2, 255]);

    // The same ask again: recorded already, so no new version; the flat form is conformant too.
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-A",
        "--out",
        "a.taskpack.json",
        "--flat",
        "--ask",
        "which quarter counts?|a date range with both ends|fiscal vs calendar",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report = json(&out);
    assert_eq!(report["state_version"], 2);
    assert_eq!(report["asks"], serde_json::json!(["a1"]));
    assert_eq!(report["asks_recorded"], true);
    assert_eq!(report["encoding"], "flat");
    assert_eq!(
        failed_checks(&s.path("a.taskpack.json")),
        Vec::<&str>::new()
    );
    assert_eq!(
        s.stored("TP-A").get("version"),
        Some(&Json::Number(2.into()))
    );
}

#[test]
fn a_landed_passport_extends_its_kept_chain() {
    let s = Scratch::new("lineage");
    s.passport(
        "TP-B",
        r#"{"goal":"g","lineage":{"root_id":"TP-A","chain":["TP-A@3"]}}"#,
    );
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-B",
        "--out",
        "b.taskpack",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        json(&out)["lineage"],
        serde_json::json!({"root_id": "TP-A", "from_version": 1, "chain": ["TP-A@3", "TP-B@1"]})
    );
    assert_eq!(json(&out)["asks_recorded"], false);
    assert_eq!(failed_checks(&s.path("b.taskpack")), Vec::<&str>::new());
}

#[test]
fn a_receipt_carries_the_answers_and_new_questions() {
    let s = Scratch::new("receipt");
    s.passport(
        "TP-B",
        r#"{"goal":"g","lineage":{"root_id":"TP-A","chain":["TP-A@2"]},"asks":[
            {"id":"a1","to":"peer","what":"which quarter?","why":"","accept":"a date range","status":"answered","answer":"Q3 = Jul-Sep","answered_by":"张老师@客户机","answered_at":"2026-08-16T13:10:20Z"},
            {"id":"a2","to":"peer","what":"which template?","why":"","accept":"a name","status":"open","answer":null}]}"#,
    );
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-B",
        "--out",
        "r.taskpack.json",
        "--flat",
        "--kind",
        "receipt",
        "--ask",
        "fonts installed there?|yes or no",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(json(&out)["asks"], serde_json::json!(["a1", "a3"]));
    let (object, _) = read_pack(&s.path("r.taskpack.json"), Limits::default()).unwrap();
    assert_eq!(object.get("kind").and_then(Json::as_str), Some("receipt"));
    assert_eq!(
        object.get("asks").unwrap().to_js_compact(),
        concat!(
            r#"[{"id":"a1","to":"peer","what":"which quarter?","why":"","accept":"a date range","status":"answered","answer":"Q3 = Jul-Sep","answered_by":"张老师@客户机","answered_at":"2026-08-16T13:10:20Z"},"#,
            r#"{"id":"a3","to":"peer","what":"fonts installed there?","why":"","accept":"yes or no","status":"open","answer":null}]"#
        )
    );
    assert_eq!(
        object.get("lineage").unwrap().to_js_compact(),
        r#"{"root_id":"TP-A","from_version":2,"chain":["TP-A@2","TP-B@2"]}"#
    );
    assert_eq!(
        failed_checks(&s.path("r.taskpack.json")),
        Vec::<&str>::new()
    );
}

/// The store file's bytes, to show a refusal wrote nothing.
fn store_bytes(s: &Scratch, id: &str) -> Vec<u8> {
    std::fs::read(Path::new(&s.store()).join(format!("{id}.json"))).unwrap()
}

#[test]
fn every_refusal_names_what_and_where_and_writes_nothing() {
    let s = Scratch::new("refusals");
    s.passport(
        "TP-R",
        r#"{"goal":"g","how_to_use_this_file":"run install.sh first","facts":[{"claim":"deploy key sk-abcdefghijklmnop0123","scope":"universal","verified":true}]}"#,
    );
    // A transcript past the first 64 KiB (task-passport only looks that far, D3/D4).
    let mut chat = vec![b'x'; 70_000];
    chat.extend_from_slice("\n助手：好的，我来修。\n".as_bytes());
    s.write("chat.log", &chat);
    s.write(
        "keys/id_ed25519",
        b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n",
    );
    let before = store_bytes(&s, "TP-R");
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-R",
        "--out",
        "r.taskpack",
        "--ask",
        "which quarter?",
        "--attach",
        "chat.log",
        "keys",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let credential = "the C7 pattern: a private key block or a token of a known credential family";
    let transcript = "the C8 pattern: a line opening a chat turn, or a JSON chat message";
    assert_eq!(
        text(&out.stdout),
        format!(
            "refused: chat_transcript: attachment `chat.log` (from `chat.log`) carries a chat transcript ({transcript})\n\
             refused: credential: attachment `keys/id_ed25519` (from `keys/id_ed25519`) carries a credential ({credential})\n\
             refused: forbidden_field: `passport.how_to_use_this_file` is an instruction field: a pack is data, never instructions (§4.5)\n\
             refused: credential: `passport.facts[0].claim` carries a credential ({credential})\n\
             refused: ask_without_accept: ask `a1` (`asks[0]`) has no accept: say what would count as answered (§4.3; --ask \"WHAT|ACCEPT\")\n"
        )
    );
    // Nothing was written: no pack, no temporary file, and the passport kept its version.
    assert_eq!(s.names(), ["TP-R.state.json", "chat.log", "keys", "store"]);
    assert_eq!(store_bytes(&s, "TP-R"), before);

    // JSON: the first refusal, then all of them.
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-R",
        "--out",
        "r.taskpack",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    assert_eq!(report["ok"], false);
    assert_eq!(report["code"], "forbidden_field");
    assert_eq!(report["refusals"].as_array().unwrap().len(), 2);
}

#[test]
fn a_transcript_key_is_refused_and_an_unknown_scope_is_not_conformant() {
    let s = Scratch::new("keys");
    s.passport(
        "TP-K",
        r#"{"goal":"g","transcript":[{"role":"user","content":"hi"}],"facts":[{"claim":"c","scope":"team","verified":false}]}"#,
    );
    let out = s.run(&["taskpack", "pack", "TP-K", "--out", "k.taskpack"]);
    assert_eq!(out.status.code(), Some(1));
    // The key is forbidden, and its value, a JSON chat message, matches the C8 pattern too.
    assert_eq!(
        text(&out.stdout),
        "refused: forbidden_field: `passport.transcript` is a chat transcript field: state travels, conversation does not (§4.1)\n\
         refused: chat_transcript: `passport.transcript[0]` carries a chat transcript (the C8 pattern: a line opening a chat turn, or a JSON chat message)\n"
    );
    s.passport(
        "TP-S",
        r#"{"goal":"g","facts":[{"claim":"c","scope":"team","verified":false}]}"#,
    );
    let out = s.run(&["taskpack", "pack", "TP-S", "--out", "s.taskpack"]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with("refused: not_conformant: C0: ")
            && shown.contains("passport.facts[0].scope"),
        "{shown}"
    );
    assert!(!s.path("s.taskpack").exists());
}

#[test]
fn ids_usage_and_the_store_are_checked_first() {
    let s = Scratch::new("usage");
    s.passport("TP-U", r#"{"goal":"g"}"#);
    let out = s.run(&["taskpack", "pack", "../TP-U", "--out", "x.taskpack"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "refused: invalid_passport_id: `../TP-U` is not a passport id: an id is 1 to 120 characters of A-Z a-z 0-9 _ -\n"
    );
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-NONE",
        "--out",
        "x.taskpack",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out)["code"], "unknown_passport");
    // Exit 2 either way: bad usage shows the usage text after the message; an attachment that
    // cannot be read is a failure of a command used right, its message alone.
    let stopped = |args: &[&str], message: &str, with_usage: bool| {
        let out = s.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!("specmint: {message}\n")),
            "{stderr}"
        );
        assert_eq!(stderr.contains("\nusage:\n"), with_usage, "{stderr}");
    };
    let usage = |args: &[&str], message: &str| stopped(args, message, true);
    let failure = |args: &[&str], message: &str| stopped(args, message, false);
    usage(
        &["taskpack", "pack", "TP-U", "--out", "x.taskpack.json"],
        "`x.taskpack.json`: --out must end in .taskpack (or .taskpack.json with --flat)",
    );
    usage(
        &["taskpack", "pack", "TP-U", "--out", "x.taskpack", "--flat"],
        "`x.taskpack`: --out must end in .taskpack.json with --flat",
    );
    usage(&["taskpack", "pack", "TP-U"], "missing --out FILE");
    usage(
        &[
            "taskpack",
            "pack",
            "TP-U",
            "--out",
            "x.taskpack",
            "--kind",
            "reply",
        ],
        "--kind takes `handoff` or `receipt`, got `reply`",
    );
    usage(
        &[
            "taskpack",
            "pack",
            "TP-U",
            "--out",
            "x.taskpack",
            "--ask",
            "|accept",
        ],
        "--ask `|accept`: WHAT is blank (the syntax is \"WHAT|ACCEPT[|WHY]\")",
    );
    failure(
        &[
            "taskpack",
            "pack",
            "TP-U",
            "--out",
            "x.taskpack",
            "--attach",
            "missing.txt",
        ],
        &format!(
            "`{}`: No such file or directory (os error 2)",
            "missing.txt"
        ),
    );
    failure(
        &[
            "taskpack",
            "pack",
            "TP-U",
            "--out",
            "x.taskpack",
            "--attach",
            "/dev/null",
        ],
        "`/dev/null`: neither a file nor a folder",
    );
    std::fs::create_dir_all(s.path("loop")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(s.path("loop"), s.path("loop/again")).unwrap();
        failure(
            &[
                "taskpack",
                "pack",
                "TP-U",
                "--out",
                "x.taskpack",
                "--attach",
                "loop",
            ],
            "`loop/again`: a link to a folder inside an attached folder is not followed",
        );
    }
    std::fs::remove_dir_all(s.path("loop")).unwrap();
    assert_eq!(s.names(), ["TP-U.state.json", "store"]);
}

#[test]
fn two_processes_packing_one_passport_record_both_asks() {
    let s = Scratch::new("race");
    s.passport("TP-C", r#"{"goal":"g"}"#);
    let store = s.store();
    let children: Vec<_> = (0..2)
        .map(|n| {
            Command::new(env!("CARGO_BIN_EXE_specmint"))
                .current_dir(&s.dir)
                .args([
                    "taskpack",
                    "pack",
                    "TP-C",
                    "--out",
                    &format!("p{n}.taskpack"),
                    "--ask",
                    &format!("question {n}?|an answer"),
                    "--store",
                    &store,
                ])
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let home = s.stored("TP-C");
    assert_eq!(home.get("version"), Some(&Json::Number(3.into())));
    let mut whats: Vec<String> = home
        .get("asks")
        .and_then(Json::as_array)
        .unwrap()
        .iter()
        .map(|a| Json::js_string(a.get("what")))
        .collect();
    whats.sort();
    assert_eq!(whats, ["question 0?", "question 1?"]);
    // Each pack was made from the version that records its own ask.
    for n in 0..2 {
        let (object, _) = read_pack(&s.path(&format!("p{n}.taskpack")), Limits::default()).unwrap();
        let version = object
            .get("lineage")
            .unwrap()
            .get("from_version")
            .unwrap()
            .clone();
        let recorded = object
            .get("passport")
            .unwrap()
            .get("asks")
            .unwrap()
            .to_js_compact();
        assert!(recorded.contains(&format!("question {n}?")), "{recorded}");
        assert!(
            matches!(version, Json::Number(v) if v.as_u64() == Some(2) || v.as_u64() == Some(3))
        );
    }
}

#[test]
fn luggage_names_are_the_ones_a_writer_keeps() {
    let s = Scratch::new("names");
    s.passport("TP-N", r#"{"goal":"g"}"#);
    s.write("a b.txt", b"one\n");
    s.write("a&b.txt", b"two\n");
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-N",
        "--out",
        "n.taskpack",
        "--attach",
        "a b.txt",
        "a&b.txt",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "refused: luggage_name: attachments `a b.txt` and `a&b.txt` would both travel as `data/files/a_b.txt`\n"
    );
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-N",
        "--out",
        "n.taskpack",
        "--attach",
        "a b.txt",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["luggage"], serde_json::json!(["a_b.txt"]));
    assert_eq!(
        json(&out)["renamed"],
        serde_json::json!([{"given": "a b.txt", "kept": "a_b.txt"}])
    );
    // The human output says so too: a passport's artifact naming `a b.txt` points at nothing
    // on the other side.
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-N",
        "--out",
        "h.taskpack",
        "--attach",
        "a b.txt",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).ends_with(
            "1 attachments\nrenamed: `a b.txt` travels as `a_b.txt` (a writer keeps only some characters of a name)\n"
        ),
        "{}",
        text(&out.stdout)
    );
    let bag = bag::read_zip(
        std::io::BufReader::new(std::fs::File::open(s.path("n.taskpack")).unwrap()),
        Limits::default(),
        true,
        &mut bag::Ignore,
    )
    .unwrap();
    assert_eq!(bag.bytes("data/files/a_b.txt"), Some(&b"one\n"[..]));
    // A file `a` and a folder `a` from two places would travel as `a` and `a/b.txt`, which no
    // file system holds: refused naming both, and nothing is written.
    s.write("x/a", b"file\n");
    s.write("y/a/b.txt", b"inside\n");
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-N",
        "--out",
        "d.taskpack",
        "--attach",
        "x/a",
        "y/a",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "refused: luggage_name: attachment `a` (from `x/a`) would be both a file and a folder: `a/b.txt` (from `y/a/b.txt`) travels inside it\n"
    );
    assert!(!s.dir.join("d.taskpack").exists());
}

#[test]
fn a_pack_killed_mid_write_leaves_no_file_and_the_store_as_it_was() {
    let s = Scratch::new("crash");
    s.passport("TP-X", STATE);
    let before = store_bytes(&s, "TP-X");
    // With an ask to record, the first file committed is the passport's (the pack is renamed
    // last): the process is killed with both temporary files written, neither renamed.
    kill_at_pause(&s, &PACK_WITH_ASK, None);
    assert!(!s.path("x.taskpack").exists());
    assert_eq!(store_bytes(&s, "TP-X"), before);
    assert_eq!(
        stale_temporaries(&s),
        1,
        "the killed writer's temporary file"
    );
    assert_eq!(pack_temporaries(&s), 1, "the killed pack's temporary file");
    // The store still reads and writes: the lock died with the process.
    let out = s.run(&PACK_WITH_ASK);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        s.stored("TP-X").get("version"),
        Some(&Json::Number(2.into()))
    );
    assert_eq!(failed_checks(&s.path("x.taskpack")), Vec::<&str>::new());
    // The next write under the passport's lock swept it, and the next pack to that --out the
    // pack's, its writer being gone.
    assert_eq!(stale_temporaries(&s), 0);
    assert_eq!(pack_temporaries(&s), 0);
}

/// The other crash window: the passport written (its asks recorded, version + 1) and the pack
/// not yet renamed into place. The spec says what that leaves: the passport as packing saved
/// it and no pack; the same command again writes the pack from that passport, recording
/// nothing twice, and takes the dead writer's temporary file away.
#[test]
fn a_pack_killed_after_the_passport_was_written_leaves_its_asks_recorded_and_no_pack() {
    let s = Scratch::new("crash-late");
    s.passport("TP-X", STATE);
    kill_at_pause(&s, &PACK_WITH_ASK, Some("x.taskpack"));
    assert!(!s.path("x.taskpack").exists());
    let saved = s.stored("TP-X");
    assert_eq!(saved.get("version"), Some(&Json::Number(2.into())));
    let asks = saved
        .get("asks")
        .and_then(Json::as_array)
        .unwrap_or_default();
    assert_eq!(asks.len(), 1, "the ask is recorded at home");
    assert_eq!(
        stale_temporaries(&s),
        0,
        "the passport was renamed into place"
    );
    assert_eq!(pack_temporaries(&s), 1, "the killed pack's temporary file");
    // Again: the pack is written from the passport as saved (no second ask, no new version).
    let out = s.run(&PACK_WITH_ASK);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(s.stored("TP-X"), saved);
    assert_eq!(failed_checks(&s.path("x.taskpack")), Vec::<&str>::new());
    assert_eq!(pack_temporaries(&s), 0);
}

/// The `.x.taskpack.tmp-*` files beside the pack.
fn pack_temporaries(s: &Scratch) -> usize {
    s.names()
        .iter()
        .filter(|n| n.starts_with(".x.taskpack.tmp-"))
        .count()
}

/// `convert` writes a file made to leave through the same path as `pack`: the temporary file
/// a dead writer left beside its `--out` is taken away, one of a live process is not.
#[test]
fn convert_sweeps_the_temporary_file_of_a_dead_writer_beside_its_output() {
    let s = Scratch::new("convert-sweep");
    s.passport("TP-X", STATE);
    assert_eq!(
        s.run(&["taskpack", "pack", "TP-X", "--out", "x.taskpack"])
            .status
            .code(),
        Some(0)
    );
    // A process that has ended: its pid names no process now.
    let mut gone = Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let dead = format!(".y.taskpack.json.tmp-{}-0", gone.id());
    let live = format!(".y.taskpack.json.tmp-{}-0", std::process::id());
    s.write(&dead, b"half a pack");
    s.write(&live, b"being written");
    let out = common::specmint_in(
        &s.dir,
        &["taskpack", "convert", "x.taskpack", "y.taskpack.json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let names = s.names();
    assert!(!names.contains(&dead), "{names:?}");
    assert!(names.contains(&live), "{names:?}");
    assert!(names.contains(&"y.taskpack.json".to_owned()));
}

/// The pack both crash tests kill: TP-X to `x.taskpack`, with an ask to record.
const PACK_WITH_ASK: [&str; 7] = [
    "taskpack",
    "pack",
    "TP-X",
    "--out",
    "x.taskpack",
    "--ask",
    "q?|an answer",
];

/// Runs `specmint ARGS --store <store>` in the scratch directory and kills it at the pause
/// before a rename ([`common::kill_at_pause`]).
fn kill_at_pause(s: &Scratch, args: &[&str], only_for: Option<&str>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
    command
        .current_dir(&s.dir)
        .args(args)
        .args(["--store", &s.store()]);
    common::kill_at_pause(&mut command, only_for);
}

/// The passport store's `.TP-X.json.tmp-*` files.
fn stale_temporaries(s: &Scratch) -> usize {
    std::fs::read_dir(s.store())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with(".TP-X.json.tmp-")
        })
        .count()
}

/// Packs and converted packs are made to leave: written 0644 less the umask (here 022 and
/// 027), while the passport store stays the owner's (0600).
#[cfg(unix)]
#[test]
fn packs_are_written_for_others_to_read_under_the_umask() {
    use std::os::unix::fs::PermissionsExt as _;
    let s = Scratch::new("mode");
    s.passport("TP-M", r#"{"goal":"g"}"#);
    let mode = |name: &str| {
        std::fs::metadata(s.path(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    let store = s.store();
    for (umask, expected) in [("022", 0o644), ("027", 0o640)] {
        let commands = [
            format!("pack TP-M --out {umask}.taskpack --store {store}"),
            format!("pack TP-M --out {umask}.taskpack.json --flat --store {store}"),
            format!("convert {umask}.taskpack c{umask}.taskpack.json"),
            format!("convert {umask}.taskpack.json c{umask}.taskpack"),
        ];
        for command in commands {
            let out = Command::new("sh")
                .current_dir(&s.dir)
                .arg("-c")
                .arg(format!("umask {umask} && exec \"$0\" taskpack {command}"))
                .arg(env!("CARGO_BIN_EXE_specmint"))
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{command}: {}",
                text(&out.stderr)
            );
        }
        for name in [
            format!("{umask}.taskpack"),
            format!("{umask}.taskpack.json"),
            format!("c{umask}.taskpack.json"),
            format!("c{umask}.taskpack"),
        ] {
            assert_eq!(mode(&name), expected, "{name} under umask {umask}");
        }
    }
    assert_eq!(mode("store/TP-M.json"), 0o600, "the passport stays private");
}

/// `--actor` defaults to the login name: `$USER`, then `$LOGNAME`, then (with neither set)
/// this user's entry in the password database, which `id -un` also reads.
#[cfg(unix)]
#[test]
fn the_actor_defaults_to_the_login_name() {
    let s = Scratch::new("actor");
    s.passport("TP-A", r#"{"goal":"g"}"#);
    let store = s.store();
    let actor = |name: &str, env: &[(&str, &str)]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
        command
            .current_dir(&s.dir)
            .args(["taskpack", "pack", "TP-A", "--out", name, "--store", &store])
            .env_remove("USER")
            .env_remove("LOGNAME")
            .env_remove("USERNAME")
            .envs(env.iter().copied());
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let (object, _) = read_pack(&s.path(name), Limits::default()).unwrap();
        Json::js_string(object.get("origin").unwrap().get("actor"))
    };
    assert_eq!(
        actor("u.taskpack", &[("USER", "ursula"), ("LOGNAME", "lena")]),
        "ursula"
    );
    assert_eq!(actor("l.taskpack", &[("LOGNAME", "lena")]), "lena");
    let id = Command::new("id").arg("-un").output().unwrap();
    let expected = String::from_utf8(id.stdout).unwrap().trim().to_owned();
    assert!(!expected.is_empty());
    assert_eq!(actor("p.taskpack", &[]), expected);
}

/// Ordinary text that holds a credential's prefix inside a word packs (issue 34, item 6): the
/// two titles the issue names, and every string of the harmless corpus
/// (tests/fixtures/harmless.txt) as a goal, a fact, a line of an attachment, and base64 in one;
/// the packs are conformant (C7 passes).
#[test]
fn ordinary_text_that_looks_like_a_credential_inside_a_word_packs() {
    use base64::Engine as _;
    let s = Scratch::new("harmless");
    let corpus: Vec<String> =
        std::fs::read_to_string(common::root().join("tests/fixtures/harmless.txt"))
            .unwrap()
            .lines()
            .map(str::to_owned)
            .collect();
    assert!(corpus.len() >= 2000, "{}", corpus.len());
    let facts: Vec<serde_json::Value> = corpus
        .iter()
        .map(|c| serde_json::json!({"claim": c, "scope": "universal", "verified": true}))
        .collect();
    let mut attachment = corpus.join("\n");
    for c in &corpus {
        attachment.push('\n');
        attachment.push_str(&base64::engine::general_purpose::STANDARD.encode(c));
    }
    let docs = s.write("harmless/notes.txt", attachment.as_bytes());
    for (id, title) in [
        ("TP-BRANCH", "Review branch task-3f9a2b7c8d1e4f5a6b"),
        ("TP-POD", "Deploy pod disk-monitor7f9b8c6d5x2k4q"),
    ] {
        let state = serde_json::json!({
            "title": title, "goal": corpus[2..].join("; "), "facts": facts,
            "next_steps": [title],
        });
        s.passport(id, &state.to_string());
        for (out, flat) in [
            (format!("{id}.taskpack"), false),
            (format!("{id}.taskpack.json"), true),
        ] {
            let mut args = vec![
                "taskpack", "pack", id, "--out", &out, "--check", "fonts", "--attach", &docs,
                "--format", "json",
            ];
            if flat {
                args.push("--flat");
            }
            let run = s.run(&args);
            assert_eq!(
                run.status.code(),
                Some(0),
                "{title}: {}{}",
                text(&run.stdout),
                text(&run.stderr)
            );
            assert_eq!(failed_checks(&s.path(&out)), Vec::<&str>::new(), "{title}");
        }
    }
}
