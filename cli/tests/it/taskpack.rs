//! TaskPack: both encodings, their byte-stable round trips, the retired `.tpx` form, and the
//! conformance judge with one pack per check that fails only that check. (Interop with the
//! reference implementation is in tests/peers/taskpassport/, run by ./test.sh; hostile zips are in
//! tests/it/taskpack_hostile.rs.)

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use specmint::taskpack::bag::{self, Limits};
use specmint::taskpack::convert::{self, Encoding};
use specmint::taskpack::flat::{self, FlatError, LuggageFile};
use specmint::taskpack::json::Json;

/// A conformant pack object in the shape the reference writes, with `edit` applied.
fn pack_object(edit: impl FnOnce(&mut serde_json::Value)) -> Json {
    let mut value = serde_json::json!({
        "spec": "task-passport-bag/0.1",
        "kind": "handoff",
        "packed_at": "2026-08-16T03:11:04Z",
        "origin": { "actor": "ds", "machine": "mbp-14", "harness": "claude-code" },
        "lineage": { "root_id": "TP-G6RZ-DS3B", "from_version": 2, "chain": ["TP-G6RZ-DS3B@3", "TP-K2VQ-8M4N@2"] },
        "note": "one line for the receiver",
        "passport": {
            "id": "TP-K2VQ-8M4N", "title": "季度报告", "version": 2,
            "goal": "Ship the Q3 customer report",
            "current_state": "data pulled, charts half done",
            "facts": [
                { "claim": "the customer wants PDF", "scope": "universal", "verified": true },
                { "claim": "the build passes", "scope": "machine", "verified": false, "needs_reverify": true, "verified_on": "mbp-14" }
            ],
            "decisions": [{ "what": "use the 2025 template", "why": "signed off" }],
            "next_steps": ["finish the charts"]
        },
        "asks": [{ "id": "a1", "to": "peer", "what": "which quarter?", "why": "fiscal vs calendar",
                   "accept": "a date range", "status": "open", "answer": null }],
        "landing_checks": [{ "id": "c1", "check": "can render PDF", "how": "r --version", "required": true }]
    });
    edit(&mut value);
    Json::parse(&value.to_string()).unwrap()
}

fn binary() -> Vec<u8> {
    vec![0, 1, 2, 255, 254, 0x89, b'P', b'N', b'G', 0]
}

/// The acceptance attachments: 0-byte, binary, CJK-named, 3 MiB (pseudo-random, so base64).
fn acceptance_attachments() -> Vec<LuggageFile> {
    let mut big = vec![0u8; 3 << 20];
    let mut x = 0x2545_f491u32;
    for b in &mut big {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        *b = x as u8;
    }
    vec![
        LuggageFile {
            name: "empty.txt".into(),
            bytes: Vec::new(),
        },
        LuggageFile {
            name: "logo.png".into(),
            bytes: binary(),
        },
        LuggageFile {
            name: "设计说明.md".into(),
            bytes: "中文说明\n".as_bytes().to_vec(),
        },
        LuggageFile {
            name: "dump.bin".into(),
            bytes: big,
        },
    ]
}

fn write(path: &Path, encoding: Encoding, passport: &Json, attachments: &[LuggageFile]) {
    fs::write(
        path,
        convert::encode(encoding, passport, attachments, None).unwrap(),
    )
    .unwrap();
}

fn run(args: &[&str]) -> std::process::Output {
    common::specmint(args, b"")
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn convert_cli(from: &Path, to: &Path) -> Vec<u8> {
    let out = run(&["taskpack", "convert", path(from), path(to)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fs::read(to).unwrap()
}

/// `specmint taskpack conformance FILE --format json`: (exit code, verdict).
fn judge(file: &Path) -> (i32, serde_json::Value) {
    let out = run(&["taskpack", "conformance", path(file), "--format", "json"]);
    let verdict = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "json verdict ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (out.status.code().unwrap(), verdict)
}

fn ids(verdict: &serde_json::Value, key: &str) -> Vec<String> {
    verdict[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

fn reason(verdict: &serde_json::Value, id: &str) -> String {
    let check = verdict["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap();
    check["reason"].as_str().unwrap().to_owned()
}

#[test]
fn round_trips_are_byte_identical_both_ways_with_the_acceptance_attachments() {
    let dir = common::scratch("taskpack-roundtrip");
    let passport = pack_object(|_| {});
    let attachments = acceptance_attachments();
    let zip = dir.join("a.taskpack");
    write(&zip, Encoding::Zip, &passport, &attachments);

    // zip -> flat -> zip -> flat
    let f1 = convert_cli(&zip, &dir.join("b.taskpack.json"));
    let z2 = convert_cli(&dir.join("b.taskpack.json"), &dir.join("c.taskpack"));
    let f3 = convert_cli(&dir.join("c.taskpack"), &dir.join("d.taskpack.json"));
    assert_eq!(z2, fs::read(&zip).unwrap(), "zip -> flat -> zip");
    assert_eq!(f1, f3, "flat -> zip -> flat");

    // The flat form carries each attachment as the rule says, with its digest and length.
    let flat: serde_json::Value = serde_json::from_slice(&f1).unwrap();
    let shapes: Vec<(&str, &str, u64)> = flat["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["name"].as_str().unwrap(),
                a["encoding"].as_str().unwrap(),
                a["bytes"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        shapes,
        [
            ("empty.txt", "utf8", 0),
            ("logo.png", "base64", 10),
            ("设计说明.md", "utf8", 13),
            ("dump.bin", "base64", 3 << 20)
        ]
    );

    // Read back, the luggage is the bytes that went in.
    let (read_back, luggage) =
        convert::read_pack(&dir.join("c.taskpack"), Limits::default()).unwrap();
    assert_eq!(read_back, passport);
    assert_eq!(luggage, attachments);

    // Both are conformant: C9 holds whatever the attachments' size.
    for file in [&zip, &dir.join("b.taskpack.json")] {
        let (code, verdict) = judge(file);
        assert_eq!((code, ids(&verdict, "failed")), (0, vec![]), "{verdict}");
    }
}

/// `taskpack convert` of a zip streams each attachment (issue 37: it held the pack whole) and
/// writes, in either encoding, exactly the bytes of the writer that holds it whole
/// (`convert::encode` of `convert::read_pack`): text whose UTF-8 sequence straddles a read
/// buffer (64 KiB), text with escapes, text that stops being text after the first buffer (a NUL,
/// a cut sequence at the very end), random bytes, no luggage at all, and a zip of another writer
/// (entries in another order, a payload file that is not luggage).
#[test]
fn a_zip_converts_streamed_to_the_bytes_the_whole_writer_writes() {
    let dir = common::scratch("taskpack-zip-streamed");
    let mut straddling = "é".repeat(1 << 15).into_bytes();
    straddling.insert(0, b'x'); // every boundary of 64 KiB now falls inside an `é`
    let mut late_nul = "a \"quoted\" line\n".repeat(8 << 10).into_bytes();
    late_nul.push(0);
    let mut cut = "中文 text\n".repeat(10 << 10).into_bytes();
    cut.extend_from_slice(&"中".as_bytes()[..2]);
    let mut luggage = acceptance_attachments();
    for (name, bytes) in [
        ("text/straddling.txt", straddling),
        ("text/late-nul.txt", late_nul),
        ("text/cut.txt", cut),
        (
            "text/escapes.txt",
            "\"\\/\u{7f}\t\r\n\u{2028}😀".repeat(9000).into_bytes(),
        ),
    ] {
        luggage.push(LuggageFile {
            name: name.into(),
            bytes,
        });
    }
    let passport = pack_object(|_| {});
    let foreign = dir.join("foreign.taskpack");
    fs::write(
        &foreign,
        zip_bytes(&rebag(&[
            ("data/files/z.bin".to_owned(), binary()),
            (
                "data/passport.json".to_owned(),
                passport.to_js_pretty().into_bytes(),
            ),
            ("data/extra.txt".to_owned(), b"not luggage".to_vec()),
            ("data/files/a/b.txt".to_owned(), b"text".to_vec()),
        ])),
    )
    .unwrap();
    let empty = dir.join("empty.taskpack");
    write(&empty, Encoding::Zip, &passport, &[]);
    let full = dir.join("full.taskpack");
    write(&full, Encoding::Zip, &passport, &luggage);
    for input in [&empty, &foreign, &full] {
        let (object, attachments) = convert::read_pack(input, Limits::default()).unwrap();
        for (target, name) in [
            (Encoding::Flat, "out.taskpack.json"),
            (Encoding::Zip, "out.taskpack"),
        ] {
            let output = dir.join(name);
            convert::convert(input, &output, Limits::default(), None).unwrap();
            let whole = convert::encode(target, &object, &attachments, None).unwrap();
            assert!(
                fs::read(&output).unwrap() == whole,
                "{} -> {name} is not what the whole writer writes",
                input.display()
            );
        }
    }
    let (_, attachments) =
        convert::read_pack(&dir.join("out.taskpack"), Limits::default()).unwrap();
    assert_eq!(attachments, luggage, "the luggage went across untouched");
    let flat: serde_json::Value =
        serde_json::from_slice(&fs::read(dir.join("out.taskpack.json")).unwrap()).unwrap();
    let encodings: Vec<&str> = flat["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(
        encodings,
        ["utf8", "base64", "utf8", "base64", "utf8", "base64", "base64", "utf8"]
    );
}

#[test]
fn the_flat_writer_may_refuse_an_attachment_over_its_inline_limit_naming_it() {
    let dir = common::scratch("taskpack-inline");
    let zip = dir.join("a.taskpack");
    write(
        &zip,
        Encoding::Zip,
        &pack_object(|_| {}),
        &acceptance_attachments(),
    );
    let out_file = dir.join("a.taskpack.json");
    let out = run(&[
        "taskpack",
        "convert",
        path(&zip),
        path(&out_file),
        "--max-inline-bytes",
        "1048576",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("attachment `dump.bin` is 3145728 bytes, over the 1048576-byte inline limit"),
        "{stderr}"
    );
    assert!(!out_file.exists());
    assert_eq!(
        fs::read_dir(&*dir).unwrap().count(),
        1,
        "nothing but the input is left"
    );
    assert_eq!(flat::MAX_INLINE_ATTACHMENT_BYTES, 1 << 20);
}

#[test]
fn a_verdict_shows_what_it_found_in_the_pack_escaped() {
    // An attachment name with ESC and a line break: C1's reason names it (a control character
    // makes it unsafe, before its digest is looked at), and the human verdict must not let it
    // steer the terminal.
    let text = flat::write_flat(
        &pack_object(|_| {}),
        &[LuggageFile {
            name: "a\u{1b}[2J\nC9  pass".into(),
            bytes: b"x".to_vec(),
        }],
        None,
    )
    .unwrap();
    let digest = text.replace(
        "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881",
        &"0".repeat(64),
    );
    assert_ne!(digest, text);
    let dir = common::scratch("verdict-escaped");
    let file = dir.join("esc.taskpack.json");
    fs::write(&file, digest).unwrap();
    let out = run(&["taskpack", "conformance", path(&file)]);
    assert_eq!(out.status.code(), Some(2));
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        !shown.chars().any(|c| c.is_control() && c != '\n'),
        "{shown:?}"
    );
    assert!(
        shown.contains(
            "C1  fail  attachment `a\\u001b[2J\\nC9  pass`: the name is not a safe relative path under data/files/\n"
        ),
        "{shown}"
    );
}

#[test]
fn a_bom_is_tolerated_and_a_large_flat_pack_is_read_whole() {
    let dir = common::scratch("taskpack-bom");
    let attachments = vec![LuggageFile {
        name: "big.txt".into(),
        bytes: "x".repeat(800 << 10).into_bytes(),
    }];
    let text = flat::write_flat(&pack_object(|_| {}), &attachments, None).unwrap();
    let file = dir.join("a.taskpack.json");
    fs::write(&file, format!("\u{feff}{text}")).unwrap();
    let (code, verdict) = judge(&file);
    assert_eq!((code, ids(&verdict, "failed")), (0, vec![]), "{verdict}");
    // Converting drops the BOM and nothing else.
    let zip = dir.join("b.taskpack");
    convert_cli(&file, &zip);
    let back = convert_cli(&zip, &dir.join("c.taskpack.json"));
    assert_eq!(back, text.as_bytes());
}

#[test]
fn a_declared_digest_or_length_that_does_not_match_aborts_the_read() {
    let text = flat::write_flat(
        &pack_object(|_| {}),
        &[LuggageFile {
            name: "brief.txt".into(),
            bytes: b"hello world".to_vec(),
        }],
        None,
    )
    .unwrap();
    let digest = text.replace(
        "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
        &"0".repeat(64),
    );
    assert_ne!(digest, text);
    assert_eq!(
        flat::read_flat(digest.as_bytes()),
        Err(FlatError::Mismatch(
            "attachment `brief.txt` does not match its declared sha256".into()
        ))
    );
    let length = text.replace("\"bytes\": 11", "\"bytes\": 12");
    assert_eq!(
        flat::read_flat(length.as_bytes()),
        Err(FlatError::Mismatch(
            "attachment `brief.txt` declares 12 bytes but holds 11".into()
        ))
    );
    let version = text.replace("\"taskpack\": \"0.1\"", "\"taskpack\": true");
    assert_eq!(
        flat::read_flat(version.as_bytes()),
        Err(FlatError::UnknownVersion("`true`".into()))
    );
    // `a` and `a/b.txt`: no file system holds both, so the read refuses the name set, naming
    // both; conformance fails C1 with that reason and convert writes nothing.
    let dirfile = flat::write_flat(
        &pack_object(|_| {}),
        &[
            LuggageFile {
                name: "a".into(),
                bytes: b"x".to_vec(),
            },
            LuggageFile {
                name: "a/b.txt".into(),
                bytes: b"y".to_vec(),
            },
        ],
        None,
    )
    .unwrap();
    let refusal = FlatError::Attachment {
        name: "a".into(),
        reason: "it is both a file and a folder (attachment `a/b.txt` is inside it): no file system holds both".into(),
    };
    assert_eq!(flat::read_flat(dirfile.as_bytes()), Err(refusal.clone()));
    let dir = common::scratch("flat-dirfile");
    let file = dir.join("dirfile.taskpack.json");
    fs::write(&file, &dirfile).unwrap();
    let (code, verdict) = judge(&file);
    assert_eq!((code, ids(&verdict, "failed")), (2, vec!["C1".to_owned()]));
    assert_eq!(reason(&verdict, "C1"), refusal.to_string());
    let out = run(&[
        "taskpack",
        "convert",
        path(&file),
        path(&dir.join("d.taskpack")),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&refusal.to_string()));
    assert!(!dir.join("d.taskpack").exists());
    let escape = text.replace("\"name\": \"brief.txt\"", "\"name\": \"../brief.txt\"");
    assert_eq!(
        flat::read_flat(escape.as_bytes()),
        Err(FlatError::Attachment {
            name: "../brief.txt".into(),
            reason: "the name is not a safe relative path under data/files/".into()
        })
    );
    // Found by fuzzing the flat reader: a trailing `/` names a folder (as a zip's folder
    // entry does), never a file; it was read as an attachment's name.
    let control = text.replace("\"name\": \"brief.txt\"", "\"name\": \"brief\\ntxt\"");
    assert_eq!(
        flat::read_flat(control.as_bytes()),
        Err(FlatError::Attachment {
            name: "brief\ntxt".into(),
            reason: "the name is not a safe relative path under data/files/".into()
        })
    );
    let folder = text.replace("\"name\": \"brief.txt\"", "\"name\": \"brief.txt/\"");
    assert_eq!(
        flat::read_flat(folder.as_bytes()),
        Err(FlatError::Attachment {
            name: "brief.txt/".into(),
            reason: "the name is not a safe relative path under data/files/".into()
        })
    );
}

#[test]
fn a_retired_tpx_file_is_mapped_member_for_member_and_never_written() {
    let dir = common::scratch("taskpack-tpx");
    let tpx = dir.join("old.tpx");
    fs::write(
        &tpx,
        r#"{"tpx":"0.1","kind":"receipt","issued_at":"2026-08-01T08:00:00Z","peer":{"note":"n"},
            "passport":{"id":"TP-OLD1","goal":"g","facts":[]},"facts":[{"claim":"c","scope":"universal","verified":true}],
            "asks":[{"id":"a1","what":"w","accept":"yes or no"}]}"#,
    )
    .unwrap();
    let flat_bytes = convert_cli(&tpx, &dir.join("new.taskpack.json"));
    let flat: serde_json::Value = serde_json::from_slice(&flat_bytes).unwrap();
    assert_eq!(
        flat["passport"],
        serde_json::json!({
            "spec": "task-passport-bag/0.1", "kind": "receipt", "packed_at": "2026-08-01T08:00:00Z",
            "origin": {}, "lineage": { "root_id": "TP-OLD1", "from_version": 0, "chain": [] }, "note": "n",
            "passport": { "id": "TP-OLD1", "goal": "g", "facts": [{ "claim": "c", "scope": "universal", "verified": true }] },
            "asks": [{ "id": "a1", "what": "w", "accept": "yes or no" }], "landing_checks": []
        })
    );
    let out = run(&[
        "taskpack",
        "convert",
        path(&dir.join("new.taskpack.json")),
        path(&dir.join("again.tpx")),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("again.tpx`: .tpx is a retired encoding, read but never written"));
    let (code, verdict) = judge(&tpx);
    assert_eq!((code, ids(&verdict, "failed")), (2, vec!["C0".to_owned()]));
    assert!(
        reason(&verdict, "C0").contains("a retired .tpx/0.1 file"),
        "{verdict}"
    );
}

/// One pack per check, each failing that check alone.
#[test]
fn each_check_has_a_pack_that_fails_only_it() {
    let dir = common::scratch("taskpack-checks");
    let brief = || {
        vec![LuggageFile {
            name: "brief.txt".into(),
            bytes: b"hello world".to_vec(),
        }]
    };
    let flat_with = |name: &str, edit: &dyn Fn(String) -> String| {
        let text = flat::write_flat(&pack_object(|_| {}), &brief(), None).unwrap();
        let edited = edit(text.clone());
        assert_ne!(edited, text, "{name}: the edit changed nothing");
        let file = dir.join(format!("{name}.taskpack.json"));
        fs::write(&file, edited).unwrap();
        file
    };
    let zip_with =
        |name: &str, edit: &dyn Fn(&mut serde_json::Value), attachments: Vec<LuggageFile>| {
            let file = dir.join(format!("{name}.taskpack"));
            write(&file, Encoding::Zip, &pack_object(edit), &attachments);
            file
        };
    let cases: Vec<(&str, PathBuf, &str)> = vec![
        ("C0", flat_with("c0", &|t| t.replace("      \"sha256\": \"b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9\",\n", "")), "attachment `brief.txt` declares no sha256"),
        ("C1", flat_with("c1", &|t| t.replace("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9", &"a".repeat(64))), "attachment `brief.txt` does not match its declared sha256"),
        ("C2", {
            let mut read = bag::assemble(&pack_object(|_| {}), vec![]);
            let entries: Vec<(String, Vec<u8>)> = read.entries.drain(..).filter(|e| e.is_payload()).map(|e| (e.name, e.bytes.unwrap())).collect();
            let mut broken = entries.clone();
            broken[0].1 = b"{ not json".to_vec();
            let rebuilt = rebag(&broken);
            let file = dir.join("c2.taskpack");
            fs::write(&file, zip_bytes(&rebuilt)).unwrap();
            file
        }, "data/passport.json is not JSON"),
        ("C3", zip_with("c3", &|v| v["kind"] = "parcel".into(), vec![]), "kind is \"parcel\", not handoff or receipt"),
        ("C4", zip_with("c4", &|v| { v["lineage"].as_object_mut().unwrap().remove("root_id"); }, vec![]), "lineage.root_id is missing"),
        ("C5", zip_with("c5", &|v| { v["asks"][0].as_object_mut().unwrap().remove("accept"); }, vec![]), "ask `a1` (asks[0]) has no accept"),
        ("C6", zip_with("c6", &|v| v["passport"]["facts"][1]["verified"] = true.into(), vec![]), "passport.facts[1] (`the build passes`) has scope \"machine\" and crosses with verified: true"),
        ("C7", zip_with("c7", &|v| v["note"] = "token ghp_abcdefghijklmnopqrstuvwxyz".into(), vec![]), "the pack object carries a credential at `/note`"),
        ("C8", zip_with("c8", &|v| v["passport"]["current_state"] = "so far:\nUser: fix it\nAssistant: done".into(), vec![]), "the pack object carries a chat transcript at `/passport/current_state`"),
        ("C9", zip_with("c9", &|_| {}, vec![LuggageFile { name: "notes v2.txt".into(), bytes: b"n".to_vec() }]), "`data/files/notes v2.txt` would travel as `data/files/notes_v2.txt`"),
        ("C10", zip_with("c10", &|v| { v.as_object_mut().unwrap().remove("packed_at"); }, vec![]), "packed_at is missing"),
    ];
    for (id, file, why) in cases {
        let (code, verdict) = judge(&file);
        assert_eq!(
            (code, ids(&verdict, "failed")),
            (2, vec![id.to_owned()]),
            "{id}: {verdict}"
        );
        assert!(
            reason(&verdict, id).contains(why),
            "{id}: {}",
            reason(&verdict, id)
        );
        let skipped = ids(&verdict, "skipped");
        if id == "C2" {
            assert_eq!(
                skipped,
                ["C0", "C3", "C4", "C5", "C6", "C7", "C8", "C9", "C10"]
            );
        } else {
            assert!(skipped.is_empty(), "{id}: {skipped:?}");
        }
        // Human output: one line per check, then the verdict; the same exit status.
        let out = run(&["taskpack", "conformance", path(&file)]);
        assert_eq!(out.status.code(), Some(2));
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().count(), 12);
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id:<3} fail  "))),
            "{text}"
        );
    }
}

/// `specmint validate taskpack` reads a flat pack far over 1 MiB (a 3 MiB attachment inline)
/// and one that starts with a byte order mark.
#[test]
fn validate_reads_a_large_flat_pack_and_a_bom() {
    let dir = common::scratch("taskpack-validate-large");
    let file = dir.join("big.taskpack.json");
    write(
        &file,
        Encoding::Flat,
        &pack_object(|_| {}),
        &acceptance_attachments(),
    );
    assert!(fs::metadata(&file).unwrap().len() > 4 << 20);
    let out = run(&["validate", "taskpack", path(&file)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(fs::read(&file).unwrap());
    fs::write(&file, bom).unwrap();
    let out = run(&["validate", "taskpack", path(&file)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// C0 runs the generated validator on the pack object: a member of the wrong type or a blank
/// fact fails C0 alone, named by its path; members of the open task state are not refused.
#[test]
fn c0_judges_the_pack_object_with_the_generated_validator() {
    let dir = common::scratch("taskpack-c0-model");
    let file = dir.join("a.taskpack");
    let passport = pack_object(|v| {
        v["landing_checks"][0]["required"] = "yes".into();
        v["passport"]["facts"][0]["claim"] = "  ".into();
        v["passport"]["learnings"] = serde_json::json!([{ "any": ["shape"] }]);
        v["kind"] = "parcel".into();
    });
    write(&file, Encoding::Zip, &passport, &[]);
    let (code, verdict) = judge(&file);
    assert_eq!(
        (code, ids(&verdict, "failed")),
        (2, vec!["C0".to_owned(), "C3".to_owned()])
    );
    let c0 = reason(&verdict, "C0");
    // Named by its path; serde's line and column would count in a re-serialized text, not
    // in the file judged, so they are left out.
    assert_eq!(
        c0,
        "`passport.landing_checks[0].required`: invalid type: string \"yes\", expected a boolean"
    );
    assert!(!c0.contains("kind"), "C3 owns kind: {c0}");
    // With the type fixed, the blank fact is what is left.
    let passport = pack_object(|v| v["passport"]["facts"][0]["claim"] = "  ".into());
    write(&file, Encoding::Zip, &passport, &[]);
    let (code, verdict) = judge(&file);
    assert_eq!((code, ids(&verdict, "failed")), (2, vec!["C0".to_owned()]));
    assert_eq!(
        reason(&verdict, "C0"),
        "`passport.passport.facts[0].claim` must not be blank"
    );
}

#[test]
fn forbidden_keys_are_a_c0_failure_anywhere_in_the_pack() {
    let dir = common::scratch("taskpack-forbidden");
    let file = dir.join("a.taskpack");
    let passport =
        pack_object(|v| v["landing_checks"][0]["how_to_use_this_file"] = "run me".into());
    write(&file, Encoding::Zip, &passport, &[]);
    let (code, verdict) = judge(&file);
    assert_eq!((code, ids(&verdict, "failed")), (2, vec!["C0".to_owned()]));
    assert_eq!(
        reason(&verdict, "C0"),
        "`how_to_use_this_file` at `/landing_checks/0` is a forbidden field (no transcripts, no instructions in data)"
    );
}

#[test]
fn a_credential_deep_in_a_large_attachment_is_found() {
    let dir = common::scratch("taskpack-deep");
    let mut bytes = "a".repeat(5 << 20).into_bytes();
    bytes.extend_from_slice(b"\n-----BEGIN RSA PRIVATE KEY-----\n");
    let file = dir.join("a.taskpack");
    write(
        &file,
        Encoding::Zip,
        &pack_object(|_| {}),
        &[LuggageFile {
            name: "log.txt".into(),
            bytes,
        }],
    );
    let (code, verdict) = judge(&file);
    assert_eq!((code, ids(&verdict, "failed")), (2, vec!["C7".to_owned()]));
    assert_eq!(reason(&verdict, "C7"), "`log.txt` carries a credential");
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["taskpack"][..],
        &["taskpack", "unpack"],
        &["taskpack", "convert", "only-one.taskpack"],
        &["taskpack", "convert", "a.zip", "b.taskpack"],
        &["taskpack", "conformance"],
        &["taskpack", "conformance", "/nonexistent/x.taskpack"],
        &["taskpack", "conformance", "x.taskpack", "--format", "xml"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A bag of payload entries with manifests and tag files recomputed from the bytes.
fn rebag(payload: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    let hex = |b: &[u8]| {
        use sha2::Digest;
        bag::hex(&sha2::Sha256::digest(b).into())
    };
    let manifest: String = payload
        .iter()
        .map(|(n, b)| format!("{}  {n}\n", hex(b)))
        .collect();
    let octets: usize = payload.iter().map(|(_, b)| b.len()).sum();
    let tags = vec![
        ("bagit.txt".to_owned(), b"BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n".to_vec()),
        ("bag-info.txt".to_owned(), format!("External-Identifier: TP-X\nPayload-Oxum: {octets}.{}\nBag-Spec: task-passport-bag/0.1\n", payload.len()).into_bytes()),
        ("manifest-sha256.txt".to_owned(), manifest.into_bytes()),
    ];
    let tag_manifest: String = tags
        .iter()
        .map(|(n, b)| format!("{}  {n}\n", hex(b)))
        .collect();
    let mut all = tags;
    all.push((
        "tagmanifest-sha256.txt".to_owned(),
        tag_manifest.into_bytes(),
    ));
    all.extend(payload.iter().cloned());
    all
}

fn zip_bytes(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    let bag = bag::Bag {
        entries: entries
            .iter()
            .map(|(n, b)| bag::Entry::new(n.clone(), b.clone()))
            .collect(),
    };
    bag::write_zip(
        std::io::Cursor::new(Vec::new()),
        &bag,
        "2026-08-16T03:11:04Z",
    )
    .unwrap()
    .into_inner()
}

/// One name rule: `validate taskpack` refuses (`attachment_name`, at the name) exactly the
/// packs whose names the flat readers refuse, over names built from the pieces that matter
/// (`..`, `.`, empty segments, a backslash, a drive letter, NUL, CR, LF, a trailing `/`,
/// repeats, a file that is another's folder, case).
#[test]
fn validate_and_the_readers_apply_one_name_rule() {
    let pieces = [
        "a", "b", "A", "..", ".", "", "C:", "c:d", "x\\y", "\0", "\r", "\n", "\t", "é", "...",
    ];
    let bundled = specmint::bundled::find("taskpack").unwrap();
    let mut seed = 0x1234_5678_9abc_def1u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut refused, mut landed) = (0, 0);
    for _ in 0..3000 {
        let names: Vec<String> = (0..1 + next() % 3)
            .map(|_| {
                let segments: Vec<&str> = (0..1 + next() % 3)
                    .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                    .collect();
                let name = segments.join("/");
                if next().is_multiple_of(8) {
                    format!("{name}/")
                } else {
                    name
                }
            })
            .filter(|n| !n.trim().is_empty())
            .collect();
        let attachments: Vec<LuggageFile> = names
            .iter()
            .map(|n| LuggageFile {
                name: n.clone(),
                bytes: b"x".to_vec(),
            })
            .collect();
        let text = flat::write_flat(&pack_object(|_| {}), &attachments, None).unwrap();
        let read = flat::read_flat(text.as_bytes());
        let name_refused = matches!(&read, Err(FlatError::Attachment { .. }));
        assert!(
            read.is_ok() || name_refused,
            "{names:?}: the reader refuses for another reason: {read:?}"
        );
        let verdict = bundled.validate(text.as_bytes(), None);
        let codes: Vec<(&str, String)> = verdict
            .as_ref()
            .err()
            .map(|report| report.iter().map(|v| (&*v.code, v.path.clone())).collect())
            .unwrap_or_default();
        assert!(
            codes.iter().all(|(code, path)| *code == "attachment_name"
                && path.starts_with("attachments[")
                && path.ends_with("].name")),
            "{names:?}: {codes:?}"
        );
        assert_eq!(
            !codes.is_empty(),
            name_refused,
            "{names:?}: validate says {codes:?}, the reader {read:?}"
        );
        if name_refused {
            refused += 1;
        } else {
            landed += 1;
        }
    }
    assert!(
        refused > 300 && landed > 300,
        "{refused} refused, {landed} read"
    );
}

/// Names that differ only in case are two names in a pack (a bag is case-sensitive, as is
/// task-passport), so both land where the file system tells them apart; where it does not, the
/// second finds the first's file and the landing is refused, never an overwrite. (The second
/// half stands a file already in the landing folder in for a case-folding file system.)
#[test]
fn names_that_differ_only_in_case_never_overwrite_each_other() {
    let dir = common::scratch("taskpack-case");
    let attachments = [
        LuggageFile {
            name: "Notes.txt".into(),
            bytes: b"upper".to_vec(),
        },
        LuggageFile {
            name: "notes.txt".into(),
            bytes: b"lower".to_vec(),
        },
    ];
    let pack = dir.join("case.taskpack.json");
    write(&pack, Encoding::Flat, &pack_object(|_| {}), &attachments);
    let landing = dir.join("landed");
    let arrived =
        specmint::taskpack::unpack::read_arriving(&pack, &landing, Limits::default()).unwrap();
    assert_eq!(arrived.luggage, ["Notes.txt", "notes.txt"]);
    assert_eq!(fs::read(landing.join("Notes.txt")).unwrap(), b"upper");
    assert_eq!(fs::read(landing.join("notes.txt")).unwrap(), b"lower");

    let folded = dir.join("folded");
    fs::create_dir_all(&folded).unwrap();
    fs::write(folded.join("notes.txt"), b"landed first").unwrap();
    let error = specmint::taskpack::unpack::read_arriving(&pack, &folded, Limits::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        error,
        format!(
            "`{}`: another attachment already landed under this name: this file system does not \
             tell the two names apart (they differ only in case, or in a way it folds), and one \
             would overwrite the other",
            folded.join("notes.txt").display()
        )
    );
    assert_eq!(fs::read(folded.join("notes.txt")).unwrap(), b"landed first");
}

/// `validate taskpack FILE` judges a flat pack with its attachments' data strings left out of
/// memory (streamed for the digest rule), and must say exactly what judging the bytes held
/// whole says: every case of the generated corpus, written compact (data strings mid-line, so
/// every later place on the line moves), indented, with a BOM, and with escapes and wide
/// characters inside the data; each verdict's JSON compared whole (codes, paths, messages,
/// lines and columns).
#[test]
fn validating_a_flat_pack_file_streamed_is_validating_it_whole() {
    use specmint::verdict::DocType;
    let ty = DocType::find(None, Some("taskpack")).unwrap();
    let limit = ty.document().max_input_bytes;
    let dir = common::scratch("taskpack-streamed-validate");
    let corpus: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(common::root().join("generated/corpus/taskpack/cases.json")).unwrap(),
    )
    .unwrap();
    let mut texts: Vec<String> = Vec::new();
    for case in corpus["cases"].as_array().unwrap() {
        let document = &case["document"];
        texts.push(serde_json::to_string(document).unwrap());
        texts.push(serde_json::to_string_pretty(document).unwrap());
        texts.push(format!(
            "\u{feff}{}",
            serde_json::to_string(document).unwrap()
        ));
        // Data that escapes and holds wide characters: the declared digests no longer match,
        // so the digest rule's messages are compared too.
        let widened = serde_json::to_string(document)
            .unwrap()
            .replace("hello world", "h\\u00e9llo \\\"w\\\" 中文 😀 \\n");
        texts.push(widened);
    }
    let mut compared = 0;
    for (i, text) in texts.iter().enumerate() {
        let file = dir.join(format!("{i}.taskpack.json"));
        fs::write(&file, text).unwrap();
        let streamed = ty
            .judge_streamed(&mut fs::File::open(&file).unwrap())
            .unwrap()
            .unwrap_or_else(|| panic!("judged whole: {text}"));
        assert_eq!(ty.judge_path(&file, limit).unwrap(), streamed);
        let whole = ty.judge_bytes(text.as_bytes());
        assert_eq!(streamed.to_json(None), whole.to_json(None), "{text}");
        compared += 1;
    }
    assert!(compared > 1000, "{compared}");
}

/// What spec/taskpack.md says of a pack object over 16 MiB: the readers refuse it by name
/// (`flat::MAX_SKELETON_BYTES`), and `validate taskpack FILE` judges such a file whole,
/// giving the verdict judging its bytes gives.
#[test]
fn a_pack_object_over_the_skeleton_limit_is_refused_by_the_readers_and_judged_whole() {
    let big = "x".repeat(flat::MAX_SKELETON_BYTES);
    let object = pack_object(|p| p["note"] = serde_json::Value::String(big.clone()));
    let text = flat::write_flat(&object, &[], None).unwrap();
    assert_eq!(
        flat::read_flat(text.as_bytes()),
        Err(FlatError::TooLarge {
            limit: flat::MAX_SKELETON_BYTES as u64
        })
    );
    let dir = common::scratch("taskpack-skeleton-limit");
    let file = dir.join("big.taskpack.json");
    fs::write(&file, &text).unwrap();
    let ty = specmint::verdict::DocType::find(None, Some("taskpack")).unwrap();
    assert!(ty
        .judge_streamed(&mut fs::File::open(&file).unwrap())
        .unwrap()
        .is_none());
    let verdict = ty.judge_path(&file, ty.document().max_input_bytes).unwrap();
    assert_eq!(verdict, ty.judge_bytes(text.as_bytes()));
}
