//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The package root (where `spec/` and `generated/` live).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ lies in the workspace")
        .to_path_buf()
}

/// README's dependency line for `krate` (`krate = { path = "../specmint…", … }`, the first
/// one in a `toml` block), with the checkout it assumes beside the user's crate
/// (`../specmint`) replaced by this workspace: the line a test crate's manifest uses, so the
/// README's lines are the ones proven to build.
pub fn readme_dependency(krate: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with(&format!("{krate} = ")))
        .unwrap_or_else(|| panic!("README has no dependency line for {krate}"));
    let line = line.split("   #").next().unwrap_or(line).trim_end();
    assert!(
        line.contains(r#"path = "../specmint"#),
        "README's line for {krate} does not depend on the checkout: {line}"
    );
    line.replace(
        r#"path = "../specmint"#,
        &format!(r#"path = "{}"#, root().display()),
    )
}

/// Runs the `specmint` binary with `args`, feeding `stdin`.
pub fn specmint(args: &[&str], stdin: &[u8]) -> Output {
    specmint_in(&root(), args, stdin)
}

/// [`specmint`], which must exit 0: a failure shows what the program wrote to stderr.
pub fn specmint_ok(args: &[&str], stdin: &[u8]) -> Output {
    let out = specmint(args, stdin);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs the `specmint` binary in `dir`.
pub fn specmint_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args(args)
        .current_dir(dir)
        // English, whatever the machine's locale: `validate` writes a spec's messages in the
        // environment's language when it has them (tests/it/locales.rs sets it).
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
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

/// `cargo` started in `dir` for such a build: into [`scratch_target_dir`], light on disk.
///
/// - Line tables only as debug info, as the workspace's own profile has it (a crate the test
///   writes has no profile of ours, and full debug info made one test run's scratch builds
///   many gigabytes), unless the run sets `CARGO_PROFILE_DEV_DEBUG` itself (`.ci/run` turns
///   debug info off), which the child then inherits.
/// - No incremental compilation: each scratch crate is written fresh and built once, and its
///   incremental caches were half of the scratch directory (2.3 of 4.5 GB on a cold run).
pub fn scratch_cargo(dir: &Path) -> Command {
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", scratch_target_dir())
        .env("CARGO_INCREMENTAL", "0");
    if std::env::var_os("CARGO_PROFILE_DEV_DEBUG").is_none() {
        cargo.env("CARGO_PROFILE_DEV_DEBUG", "line-tables-only");
    }
    cargo
}

/// A fresh store for the engine and lifecycle suites, as a `--store` value.
///
/// With `SPECMINT_TEST_PG` set (the query part of a libpq URL, `host=DIR&user=NAME`, as
/// `scripts/postgres.sh start` prints it), a new PostgreSQL database `<suite>_<name>` on that
/// server (dropped first if an earlier run left it); `./test.sh` runs the suites once more
/// that way. Otherwise a SQLite file `<suite>/<name>.db` under this build's temporary folder,
/// its old files (and write-ahead log) removed. The value is a `PathBuf` either way: the store
/// reads a path that is a `postgresql://` URL as the server.
pub fn fresh_db(suite: &str, name: &str) -> PathBuf {
    match postgres_query() {
        Some(query) => PathBuf::from(fresh_postgres_db(&query, &format!("{suite}_{name}"))),
        None => fresh_sqlite_db(suite, name),
    }
}

/// [`fresh_db`] on SQLite whatever the environment says: for what only a file has (a
/// store file made by racing processes, a file that is not a database).
pub fn fresh_sqlite_db(suite: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(suite);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join(format!("{name}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    db
}

/// A file `name` that belongs with the store `db` (an envelope, a ledger): beside a SQLite
/// file, or in a folder of this build's temporary folder named after a PostgreSQL database.
pub fn beside(db: &Path, name: impl AsRef<std::ffi::OsStr>) -> PathBuf {
    let text = db.to_str().unwrap_or_default();
    let Some(rest) = text.strip_prefix("postgresql:///") else {
        return db.with_file_name(name);
    };
    let database = rest.split('?').next().unwrap_or(rest);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("postgres")
        .join(database);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name.as_ref())
}

/// A Task Envelope with only the fields a submission needs (and `taskID` when `id` is given).
pub fn minimal_task(id: Option<&str>) -> serde_json::Value {
    let mut envelope = serde_json::json!({"objective": "o", "outputFormat": "f", "toolAndSourceGuidance": "g", "boundaries": ["b"], "filesAndInterfaces": ["f"], "contextID": "c", "acceptanceCheck": {"passFailCommand": "true", "endToEndVerification": "e"}});
    if let Some(id) = id {
        envelope["taskID"] = id.into();
    }
    envelope
}

/// `SPECMINT_TEST_PG`, when the suites run against a PostgreSQL server.
pub fn postgres_query() -> Option<String> {
    std::env::var("SPECMINT_TEST_PG")
        .ok()
        .filter(|q| !q.is_empty())
}

/// A new, empty database `name` (lower-cased, `[a-z0-9_]`) on the server `query` reaches: its
/// `postgresql://` URL.
pub fn fresh_postgres_db(query: &str, name: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9') => c,
            _ => '_',
        })
        .collect();
    let admin = format!("postgresql:///postgres?{query}");
    let mut client = postgres::Client::connect(&admin, postgres::NoTls)
        .unwrap_or_else(|e| panic!("SPECMINT_TEST_PG: cannot reach {admin}: {e}"));
    // One statement each: neither may run inside a transaction block.
    for statement in [
        format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"),
        format!("CREATE DATABASE \"{name}\""),
    ] {
        client
            .batch_execute(&statement)
            .unwrap_or_else(|e| panic!("{statement}: {e:?}"));
    }
    format!("postgresql:///{name}?{query}")
}

/// Runs the `specmint` binary with `args` and `--format json`, feeding `stdin`: its exit code
/// and the JSON it printed.
///
/// With `SPECMINT_RECORD=DIR` set, an `envelope` or `task` command on a SQLite store is also
/// recorded in DIR for tests/peers/mcp/differential.py, which replays it as a typed MCP tool call
/// on a copy of the store as it was and compares the result and the store after.
pub fn specmint_json(args: &[&str], stdin: &str) -> (i32, serde_json::Value) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let recording = Recording::start(args, stdin);
    let out = specmint(&all, stdin.as_bytes());
    let json = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{args:?}: not JSON ({e}): {} / {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let status = out.status.code().unwrap();
    if let Some(recording) = recording {
        recording.finish(status, &json);
    }
    (status, json)
}

/// One CLI call being recorded (`SPECMINT_RECORD`): the store before it, the files it names.
struct Recording {
    dir: PathBuf,
    id: String,
    db: PathBuf,
    record: serde_json::Value,
}

impl Recording {
    fn start(args: &[&str], stdin: &str) -> Option<Recording> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = PathBuf::from(std::env::var_os("SPECMINT_RECORD")?);
        // `claim --next` has no tool to replay it, and its callers race on one store.
        if !matches!(args.first(), Some(&"envelope" | &"task")) || args.contains(&"--next") {
            return None;
        }
        let at = args.iter().position(|a| *a == "--store")?;
        let db = PathBuf::from(args.get(at + 1)?);
        if db.to_str()?.starts_with("postgres") {
            return None;
        }
        std::fs::create_dir_all(&dir).unwrap();
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("{}-{n:05}", std::process::id());
        // null: no store yet (the call makes it); false: a file that is no database.
        let pre = db
            .is_file()
            .then(|| snapshot(&db, &dir.join(format!("{id}.pre.db"))));
        // The files the call reads (an envelope, evidence, a ledger), as they are now.
        let files: serde_json::Map<String, serde_json::Value> = args
            .iter()
            .filter(|a| Path::new(a).is_file() && Path::new(a) != db)
            .filter_map(|a| Some((a.to_string(), std::fs::read_to_string(a).ok()?.into())))
            .collect();
        let record = serde_json::json!({
            "args": args,
            "stdin": stdin,
            "files": files,
            "pre": pre,
            "test": std::thread::current().name().unwrap_or_default(),
        });
        Some(Recording {
            dir,
            id,
            db,
            record,
        })
    }

    fn finish(mut self, status: i32, json: &serde_json::Value) {
        let post = self
            .db
            .is_file()
            .then(|| snapshot(&self.db, &self.dir.join(format!("{}.post.db", self.id))));
        self.record["status"] = status.into();
        self.record["json"] = json.clone();
        self.record["post"] = post.into();
        let path = self.dir.join(format!("{}.json", self.id));
        std::fs::write(path, self.record.to_string()).unwrap();
    }
}

/// A consistent copy of the SQLite store `db` at `to` (`VACUUM INTO`); false when `db` is not
/// a database.
fn snapshot(db: &Path, to: &Path) -> bool {
    let _ = std::fs::remove_file(to);
    // Read-write (a WAL reader may need to write the shared-memory file), never created.
    let Ok(conn) =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
    else {
        return false;
    };
    conn.execute("VACUUM INTO ?1", [to.to_str().unwrap()])
        .is_ok()
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

/// The name the test harness gives the test `name` of the module whose `module_path!()` is
/// `module` (the path less the binary's name), as `--exact` wants it when a test runs
/// another test of this binary as a child process.
pub fn test_name(module: &str, name: &str) -> String {
    let (_binary, path) = module
        .split_once("::")
        .expect("a test module of the binary");
    format!("{path}::{name}")
}

/// A fresh directory under the system's temp dir for one test, removed when it is dropped.
/// Numbered within the process: every suite shares one test binary, so two tests may pass
/// the same tag at once.
pub fn scratch(tag: &str) -> Scratch {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("specmint-{tag}-{}-{n}", std::process::id()));
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

/// Spawns `command` with the pause before an atomic rename (only the write whose target ends
/// with `only_for`, when given), waits until it pauses there and kills it with SIGKILL: a
/// crash at a chosen point (`PAUSE_BEFORE_RENAME_ENV`).
pub fn kill_at_pause(command: &mut std::process::Command, only_for: Option<&str>) {
    use specmint::test_hooks::{PAUSE_BEFORE_RENAME_ENV, PAUSE_ONLY_FOR_ENV};
    let marker = std::env::temp_dir().join(format!(
        "specmint-paused-{}-{}",
        std::process::id(),
        KILLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&marker);
    command
        .env(PAUSE_BEFORE_RENAME_ENV, &marker)
        .stdout(std::process::Stdio::null());
    if let Some(suffix) = only_for {
        command.env(PAUSE_ONLY_FOR_ENV, suffix);
    }
    let mut child = command.spawn().unwrap();
    while !marker.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the command ended before pausing"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    std::fs::remove_file(&marker).unwrap();
}

static KILLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The tests' pseudo-random numbers (xorshift64*): a fixed seed, so a failure names a
/// reproducible case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (0 for `n` of 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}
