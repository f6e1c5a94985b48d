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
    // A command that fails before reading its input closes the pipe: not an error here.
    match child.stdin.take().unwrap().write_all(stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
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

/// A fresh database path under this build's temporary folder, `<suite>/<name>.db`, its old
/// files (and write-ahead log) removed.
pub fn fresh_db(suite: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(suite);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("{name}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

/// Runs the `specmint` binary with `args` and `--format json`, feeding `stdin`: its exit code
/// and the JSON it printed.
pub fn specmint_json(args: &[&str], stdin: &str) -> (i32, serde_json::Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = specmint(&all, stdin.as_bytes());
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {} / {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), json)
}

/// Starts one `specmint ARGS --format json` process per argument list, all before waiting for
/// any, then waits for all: their exit codes and JSON, in order.
pub fn specmint_json_at_once(arg_lists: &[Vec<&str>]) -> Vec<(i32, serde_json::Value)> {
    let children: Vec<_> = arg_lists
        .iter()
        .map(|args| {
            Command::new(env!("CARGO_BIN_EXE_specmint"))
                .args(args)
                .args(["--format", "json"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the specmint binary starts")
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!(
                    "no JSON on stdout ({e}); exit {:?}, stderr:\n{}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stderr)
                )
            });
            (out.status.code().unwrap(), json)
        })
        .collect()
}

/// The labels of the shortest walk from `start` to `target` along `edges` (from, label, to),
/// found breadth-first: how a test reaches a state using only a generated transition table.
pub fn shortest_path<S, L>(edges: &[(S, L, S)], start: S, target: S) -> Vec<L>
where
    S: Copy + PartialEq + std::fmt::Debug,
    L: Copy,
{
    let mut queue = std::collections::VecDeque::from([(start, Vec::new())]);
    let mut seen = vec![start];
    while let Some((state, path)) = queue.pop_front() {
        if state == target {
            return path;
        }
        for &(from, label, to) in edges {
            if from == state && !seen.contains(&to) {
                seen.push(to);
                let mut longer = path.clone();
                longer.push(label);
                queue.push_back((to, longer));
            }
        }
    }
    panic!("{target:?} is not reachable from {start:?}");
}

/// A fresh directory under the system's temp dir for one test, removed when it is dropped.
pub fn scratch(tag: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("specmint-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// A directory removed when the test that made it ends.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
