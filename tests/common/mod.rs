//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The package root (where `spec/` and `generated/` live).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the `specmint` binary with `args`, feeding `stdin`.
pub fn specmint(args: &[&str], stdin: &[u8]) -> Output {
    specmint_in(&root(), args, stdin)
}

/// Runs the `specmint` binary in `dir`.
pub fn specmint_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the specmint binary starts");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

/// `specmint validate task-packet - --format json` on `input`: (exit code, parsed JSON verdict).
pub fn validate_json(input: &str) -> (i32, serde_json::Value) {
    let out = specmint(
        &["validate", "task-packet", "-", "--format", "json"],
        input.as_bytes(),
    );
    let verdict = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "json verdict ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (out.status.code().unwrap(), verdict)
}

/// The (code, path) pairs of a JSON verdict, in order.
pub fn codes_and_paths(verdict: &serde_json::Value) -> Vec<(String, String)> {
    verdict["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The minimal packet with `extra` members spliced in (`extra` starts with a comma, or is empty).
pub fn packet_with(extra: &str) -> String {
    format!(
        r#"{{"packet_id":"pk-1","goal_id":"t-1","round":1,"from_role":"planner","to_role":"executor","objective":"do it","output_format":"markdown"{extra}}}"#
    )
}

/// A `constraints` array of `n` items, item `long_at` having a text of `text`.
pub fn constraints(n: usize, long_at: usize, text: &str) -> String {
    let items: Vec<String> = (0..n)
        .map(|i| {
            let t = if i == long_at {
                text.to_owned()
            } else {
                format!("c{i}")
            };
            serde_json::json!({ "id": format!("c{i}"), "text": t }).to_string()
        })
        .collect();
    format!(r#","constraints":[{}]"#, items.join(","))
}

/// A target directory for the cargo builds tests start themselves (a copy of the project,
/// a downstream crate): beside this test binary's own, so its dependencies are built once and
/// reused across runs, but never the directory whose `specmint` binary the other tests run.
pub fn scratch_target_dir() -> PathBuf {
    // This binary is target/<profile>/deps/<name>-<hash>.
    let exe = std::env::current_exe().unwrap();
    exe.ancestors().nth(3).unwrap().join("scratch")
}
