//! The secrets corpus (issue 21, item 5): 16 synthetic secrets (tests/fixtures/secrets.json),
//! each in 5 places — a fact, an attachment, deep in an attachment, base64 inside an attachment,
//! a binary file. None may pass `taskpack pack` (refused, exit 1, with the C7/C8 code) or
//! `taskpack conformance` (C7 or C8 fails, exit 2). "Deep" is 1 MiB here;
//! `SPECMINT_SECRETS_DEEP_BYTES` makes it deeper (`tests/peers/reliability.py BIN --full` plants
//! them 50 MiB deep, for conformance).

use crate::common;

use std::path::PathBuf;

use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

struct Secret {
    name: String,
    finding: String,
    text: String,
}

fn corpus() -> Vec<Secret> {
    let raw = std::fs::read_to_string(common::root().join("tests/fixtures/secrets.json")).unwrap();
    let doc: Value = serde_json::from_str(&raw).unwrap();
    doc["secrets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| Secret {
            name: s["name"].as_str().unwrap().to_owned(),
            finding: s["finding"].as_str().unwrap().to_owned(),
            text: s["text"].as_str().unwrap().to_owned(),
        })
        .collect()
}

const PLACES: [&str; 5] = ["fact", "attachment", "deep", "base64", "binary"];

fn deep_bytes() -> usize {
    std::env::var("SPECMINT_SECRETS_DEEP_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 20)
}

/// The attachment that carries `secret` in `place` (none for a fact).
fn attachment(secret: &str, place: &str) -> Option<Vec<u8>> {
    match place {
        "fact" => None,
        "attachment" => Some(format!("notes for the next machine\n{secret}\n").into_bytes()),
        "deep" => {
            let line = b"the quick brown fox jumps over the lazy dog 0123456789\n";
            let mut bytes: Vec<u8> = line.iter().copied().cycle().take(deep_bytes()).collect();
            // The filler is cut mid-line: end its line, or the secret is glued to the word cut
            // there (`t` + `ghp_...`), which is the ordinary text that credential patterns
            // anchored at token boundaries pass (issue 34, item 6).
            bytes.push(b'\n');
            bytes.extend_from_slice(secret.as_bytes());
            bytes.push(b'\n');
            Some(bytes)
        }
        "base64" => {
            let encoded = base64::engine::general_purpose::STANDARD.encode(secret);
            let wrapped: Vec<&str> = encoded
                .as_bytes()
                .chunks(76)
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect();
            Some(format!("config blob:\n{}\nend\n", wrapped.join("\n")).into_bytes())
        }
        "binary" => {
            let mut bytes: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 128) as u8 | 0x80).collect();
            bytes[0] = 0;
            bytes.extend_from_slice(secret.as_bytes());
            bytes.extend((0..4096u32).map(|i| (i * 13) as u8 | 0x80));
            Some(bytes)
        }
        _ => unreachable!(),
    }
}

struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("specmint-secrets-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
    fn run(&self, args: &[&str]) -> std::process::Output {
        let store = self.path("store");
        let mut all = args.to_vec();
        all.extend(["--store", store.to_str().unwrap()]);
        common::specmint_in(&self.0, &all, b"")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn state(fact: &str) -> String {
    json!({"title": "t", "goal": "ship it", "facts": [{"claim": fact, "scope": "universal", "verified": true}]})
        .to_string()
}

/// A conformant flat pack to plant secrets in, made by `pack --flat`.
fn clean_flat(s: &Scratch) -> Value {
    std::fs::write(s.path("clean.json"), state("the customer wants PDF")).unwrap();
    let out = s.run(&[
        "passport",
        "new",
        "--file",
        "clean.json",
        "--id",
        "TP-CLEAN",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = s.run(&[
        "taskpack",
        "pack",
        "TP-CLEAN",
        "--out",
        "clean.taskpack.json",
        "--flat",
        "--check",
        "fonts|fc-list",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    serde_json::from_slice(&std::fs::read(s.path("clean.taskpack.json")).unwrap()).unwrap()
}

fn planted(clean: &Value, secret: &str, place: &str) -> Value {
    let mut flat = clean.clone();
    match attachment(secret, place) {
        None => flat["passport"]["passport"]["facts"][0]["claim"] = json!(secret),
        Some(bytes) => {
            let (encoding, data) = match std::str::from_utf8(&bytes) {
                Ok(text) if !bytes.contains(&0) => ("utf8", text.to_owned()),
                _ => (
                    "base64",
                    base64::engine::general_purpose::STANDARD.encode(&bytes),
                ),
            };
            let sha256: String = Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            flat["attachments"] = json!([{
                "name": "leak.bin", "encoding": encoding, "sha256": sha256,
                "bytes": bytes.len(), "data": data,
            }]);
        }
    }
    flat
}

fn check_of(finding: &str) -> &'static str {
    if finding == "credential" {
        "C7"
    } else {
        "C8"
    }
}

#[test]
fn no_secret_in_any_place_passes_pack_or_conformance() {
    let s = Scratch::new("corpus");
    let clean = clean_flat(&s);
    let mut passed = Vec::new();
    let mut attempts = 0;
    for (i, secret) in corpus().iter().enumerate() {
        for place in PLACES {
            attempts += 1;
            // pack
            let id = format!("TP-S{i:02}{}", &place[..2].to_uppercase());
            let fact = if place == "fact" {
                secret.text.clone()
            } else {
                "nothing to see".to_owned()
            };
            std::fs::write(s.path("state.json"), state(&fact)).unwrap();
            let out = s.run(&["passport", "new", "--file", "state.json", "--id", &id]);
            assert_eq!(out.status.code(), Some(0));
            let mut args = vec![
                "taskpack",
                "pack",
                &id,
                "--out",
                "out.taskpack",
                "--check",
                "fonts",
                "--format",
                "json",
            ];
            let leak = s.path("leak.bin");
            if let Some(bytes) = attachment(&secret.text, place) {
                std::fs::write(&leak, bytes).unwrap();
                args.extend(["--attach", leak.to_str().unwrap()]);
            }
            let out = s.run(&args);
            let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
            let codes: Vec<&str> = reply["refusals"]
                .as_array()
                .map(|r| r.iter().filter_map(|r| r["code"].as_str()).collect())
                .unwrap_or_default();
            let want = if secret.finding == "credential" {
                "credential"
            } else {
                "chat_transcript"
            };
            if out.status.code() != Some(1)
                || !codes.contains(&want)
                || s.path("out.taskpack").exists()
            {
                passed.push(format!("pack: {} in {place}: {}", secret.name, reply));
                let _ = std::fs::remove_file(s.path("out.taskpack"));
            }
            // conformance
            let file = s.path("planted.taskpack.json");
            std::fs::write(&file, planted(&clean, &secret.text, place).to_string()).unwrap();
            let out = common::specmint(
                &[
                    "taskpack",
                    "conformance",
                    file.to_str().unwrap(),
                    "--format",
                    "json",
                ],
                b"",
            );
            let verdict: Value = serde_json::from_slice(&out.stdout).unwrap();
            let failed: Vec<String> = verdict["failed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            if out.status.code() != Some(2) || failed != [check_of(&secret.finding)] {
                passed.push(format!(
                    "conformance: {} in {place}: failed {failed:?}",
                    secret.name
                ));
            }
        }
    }
    assert_eq!(attempts, 80);
    assert_eq!(
        passed,
        Vec::<String>::new(),
        "{} of 80 placements passed",
        passed.len()
    );
}

#[test]
fn the_clean_pack_is_conformant() {
    let s = Scratch::new("clean");
    let clean = clean_flat(&s);
    let file = s.path("again.taskpack.json");
    std::fs::write(&file, clean.to_string()).unwrap();
    let out = common::specmint(&["taskpack", "conformance", file.to_str().unwrap()], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
