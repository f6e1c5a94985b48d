//! The PostgreSQL store against servers of its own (scripts/postgres.sh, one throwaway cluster
//! per test): TLS as `sslmode` says (issue 34, item 3), and the server stopped and restarted
//! under 16 claiming workers and under an MCP server (items 5 and 7).
//!
//! They run when `SPECMINT_TEST_PG` is set (the server's binaries are there, as in
//! `./test.sh`); without it each says it is skipped. `SPECMINT_TEST_OUTAGE_ROUNDS=N` runs the
//! outage N times over N times the tasks (default 1).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use specmint::task_envelope::lifecycle::TaskStore;
use specmint::task_envelope::TaskState;

use crate::common;
use specmint_test_support::mcp_client::McpServer;

/// A cluster of scripts/postgres.sh in `DIR/pg`, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    /// What `start` printed: `host=DIR&[port=N&]user=NAME`.
    query: String,
}

impl Cluster {
    fn start(dir: &Path, env: &[(&str, &Path)]) -> Cluster {
        let dir = dir.join("pg");
        let out = Command::new(common::root().join("scripts/postgres.sh"))
            .arg("start")
            .arg(&dir)
            .envs(env.iter().map(|(k, v)| (*k, v.as_os_str())))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "postgres.sh start: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let query = String::from_utf8(out.stdout).unwrap().trim().to_owned();
        Cluster { dir, query }
    }

    fn script(&self, command: &str) {
        let out = Command::new(common::root().join("scripts/postgres.sh"))
            .arg(command)
            .arg(&self.dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "postgres.sh {command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn user(&self) -> &str {
        self.query.rsplit("user=").next().unwrap()
    }

    fn port(&self) -> u16 {
        std::fs::read_to_string(self.dir.join("port"))
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(common::root().join("scripts/postgres.sh"))
            .arg("stop")
            .arg(&self.dir)
            .output();
    }
}

/// Whether the PostgreSQL tests run here; says so when they do not.
fn postgres_here(test: &str) -> bool {
    let here = common::postgres_query().is_some();
    if !here {
        eprintln!("{test}: skipped (SPECMINT_TEST_PG is not set: no PostgreSQL server binaries to start one with)");
    }
    here
}

/// `openssl ARGS` in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs (Debian's postgresql package brings it)");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CA (`ca.pem`), a server certificate it signs for IP 127.0.0.1 only (`server.pem`,
/// `server.key`), and another CA that signed nothing here (`other.pem`).
fn certificates(dir: &Path) {
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    for (name, subject) in [("ca", "/CN=specmint test CA"), ("other", "/CN=another CA")] {
        let mut args = vec!["req", "-x509"];
        args.extend(ec);
        let key = format!("{name}.key");
        let pem = format!("{name}.pem");
        args.extend([
            "-keyout", &key, "-out", &pem, "-days", "2", "-subj", subject,
        ]);
        openssl(dir, &args);
    }
    let mut args = vec!["req"];
    args.extend(ec);
    args.extend([
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    openssl(dir, &args);
    std::fs::write(
        dir.join("server.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "2",
            "-extfile",
            "server.ext",
        ],
    );
}

/// `specmint ARGS`: exit code and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = common::specmint(args, b"");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The exit code of `specmint task list --store STORE`.
fn lists(store: &str) -> Option<i32> {
    run(&["task", "list", "--store", store]).0
}

#[test]
fn tls_verify_full_connects_with_the_right_certificate_and_refuses_the_wrong_one() {
    if !postgres_here("tls") {
        return;
    }
    let dir = common::scratch("pg-tls");
    certificates(&dir);
    let cluster = Cluster::start(
        &dir,
        &[
            ("SPECMINT_PG_LISTEN", Path::new("127.0.0.1")),
            ("SPECMINT_PG_CERT", &dir.join("server.pem")),
            ("SPECMINT_PG_KEY", &dir.join("server.key")),
        ],
    );
    let (user, port) = (cluster.user().to_owned(), cluster.port());
    let ca = dir.join("ca.pem");
    let other = dir.join("other.pem");
    let url = |host: &str, mode: &str, root: Option<&Path>| {
        let mut url = format!("postgresql://{user}@{host}:{port}/postgres?sslmode={mode}");
        if let Some(root) = root {
            url.push_str(&format!("&sslrootcert={}", root.display()));
        }
        url
    };
    let full = url("127.0.0.1", "verify-full", Some(&ca));
    // The right certificate: the store is made and used over TLS.
    assert_eq!(
        run(&["task", "init", "--store", &full]),
        (Some(0), String::new())
    );
    let envelope = common::minimal_task(Some("t-tls")).to_string();
    let out = common::specmint(
        &["task", "submit", "-", "--store", &full],
        envelope.as_bytes(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (code, listed) = common::specmint_json(&["task", "list", "--store", &full], "");
    assert_eq!(code, 0);
    assert_eq!(listed["tasks"][0]["task_id"], "t-tls");
    // The keyword form, with the same settings.
    let keywords = format!(
        "host=127.0.0.1 port={port} user={user} dbname=postgres sslmode=verify-full sslrootcert='{}'",
        ca.display()
    );
    assert_eq!(
        run(&["task", "show", "t-tls", "--store", &keywords]).0,
        Some(0)
    );
    // A certificate no trusted CA signed: refused.
    let wrong = url("127.0.0.1", "verify-full", Some(&other));
    assert_eq!(
        run(&["task", "list", "--store", &wrong]),
        (
            Some(2),
            format!("specmint: cannot open store `{wrong}`: error performing TLS handshake: invalid peer certificate: UnknownIssuer\n")
        )
    );
    // The right CA, but the certificate does not name `localhost`: verify-full refuses,
    // verify-ca (the chain only) connects.
    let misnamed = url("localhost", "verify-full", Some(&ca));
    assert_eq!(
        run(&["task", "list", "--store", &misnamed]),
        (
            Some(2),
            format!("specmint: cannot open store `{misnamed}`: error performing TLS handshake: invalid peer certificate: certificate not valid for name \"localhost\"; certificate is only valid for IpAddress(127.0.0.1)\n")
        )
    );
    assert_eq!(lists(&url("localhost", "verify-ca", Some(&ca))), Some(0));
    // require without a root certificate: encrypted, not verified (libpq's meaning); so is the
    // default (prefer) against this server.
    assert_eq!(lists(&url("localhost", "require", None)), Some(0));
    assert_eq!(
        lists(&format!("postgresql://{user}@127.0.0.1:{port}/postgres")),
        Some(0)
    );
    // The server takes TCP only over TLS: disable is refused by it, so the connections above
    // were encrypted.
    let plain = url("127.0.0.1", "disable", None);
    let (code, stderr) = run(&["task", "list", "--store", &plain]);
    assert_eq!(code, Some(2));
    assert!(stderr.ends_with("no encryption (28000)\n"), "{stderr}");
    // verify-full needs the certificates to trust.
    let bare = url("127.0.0.1", "verify-full", None);
    assert_eq!(
        run(&["task", "list", "--store", &bare]),
        (
            Some(2),
            format!("specmint: cannot open store `{bare}`: sslmode=verify-ca and verify-full need sslrootcert=FILE (the PEM certificates to trust)\n")
        )
    );
}

/// What one `task claim --next` answered, and when (the outage's phase at its start and end:
/// 0 before the stop, 1 from the stop to the restart, 2 after).
struct Answer {
    worker: usize,
    code: i32,
    claimed: Option<String>,
    message: String,
    started: usize,
    ended: usize,
}

#[test]
fn sixteen_claimers_ride_out_a_database_restart() {
    if !postgres_here("outage") {
        return;
    }
    const WORKERS: usize = 16;
    let rounds: usize = std::env::var("SPECMINT_TEST_OUTAGE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let tasks = 120 * rounds;
    let dir = common::scratch("pg-outage");
    let cluster = Cluster::start(&dir, &[]);
    let url = format!("postgresql:///postgres?{}", cluster.query);
    let mut store = TaskStore::open(url.as_str()).unwrap();
    for i in 0..tasks {
        let envelope = common::minimal_task(Some(&format!("o-{i:04}")));
        store.submit(envelope.to_string().as_bytes()).unwrap();
    }
    drop(store);
    let phase = Arc::new(AtomicUsize::new(0));
    let answers = Arc::new(Mutex::new(Vec::<Answer>::new()));
    let down_seen = Arc::new(AtomicUsize::new(0));
    // Which outage is on (1, 2, ...): a worker counts once per outage in `down_seen`.
    let outage = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..WORKERS)
        .map(|worker| {
            let (phase, answers, down_seen, outage, url) = (
                phase.clone(),
                answers.clone(),
                down_seen.clone(),
                outage.clone(),
                url.clone(),
            );
            std::thread::spawn(move || {
                let mut counted = 0;
                loop {
                    let this_outage = outage.load(Ordering::SeqCst);
                    let at_start = phase.load(Ordering::SeqCst);
                    let out = Command::new(env!("CARGO_BIN_EXE_specmint"))
                        .args([
                            "task", "claim", "--next", "--store", &url, "--format", "json",
                        ])
                        .output()
                        .unwrap();
                    let at_end = phase.load(Ordering::SeqCst);
                    let code = out.status.code().unwrap_or(-1);
                    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
                    let claimed = json["task_id"].as_str().map(str::to_owned);
                    let done = code == 0 && claimed.is_none() && at_start == 2;
                    if code == 2 && at_start == 1 && counted < this_outage {
                        counted = this_outage;
                        down_seen.fetch_add(1, Ordering::SeqCst);
                    }
                    answers.lock().unwrap().push(Answer {
                        worker,
                        code,
                        claimed,
                        message: String::from_utf8_lossy(&out.stderr).into_owned(),
                        started: at_start,
                        ended: at_end,
                    });
                    if done {
                        return;
                    }
                    if code != 0 {
                        // Not a timing assertion: a pause so a down server is not spun on.
                        std::thread::sleep(Duration::from_millis(20));
                    }
                }
            })
        })
        .collect();
    let claims = |answers: &Mutex<Vec<Answer>>| {
        answers
            .lock()
            .unwrap()
            .iter()
            .filter(|a| a.claimed.is_some())
            .count()
    };
    for round in 0..rounds {
        // Stop the server once a share of the tasks is claimed, while claims are in flight.
        let share = tasks * (2 * round + 1) / (2 * rounds) / 2;
        while claims(&answers) < share {
            std::thread::sleep(Duration::from_millis(5));
        }
        down_seen.store(0, Ordering::SeqCst);
        outage.store(round + 1, Ordering::SeqCst);
        phase.store(1, Ordering::SeqCst);
        cluster.script("pause");
        // Every worker answers while it is down (an error, exit 2) before it comes back.
        while down_seen.load(Ordering::SeqCst) < WORKERS {
            assert!(
                workers.iter().all(|w| !w.is_finished()),
                "a worker ended while the server was down"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        cluster.script("resume");
        phase.store(2, Ordering::SeqCst);
    }
    for worker in workers {
        worker.join().unwrap();
    }
    let elapsed = started.elapsed();
    let answers = answers.lock().unwrap();
    // Every answer is a claim, nothing to claim, or an error that says what went wrong.
    for a in answers.iter() {
        match a.code {
            0 => {}
            2 => assert!(
                a.message.starts_with("specmint: ") && a.message.len() > 20,
                "worker {}: {}",
                a.worker,
                a.message
            ),
            other => panic!("worker {}: exit {other}: {}", a.worker, a.message),
        }
        // Errors come only from commands that overlapped an outage: none before the first
        // stop, none from a command run wholly after a restart.
        if a.code == 2 {
            assert!(
                a.started == 1 || a.ended != a.started,
                "an error while the server was up (phase {}): {}",
                a.started,
                a.message
            );
        }
    }
    // Nothing claimed twice; every task claimed (a claim whose answer was lost with the
    // connection is in the store as working, never given to a second worker).
    let mut reported: Vec<&str> = answers
        .iter()
        .filter_map(|a| a.claimed.as_deref())
        .collect();
    reported.sort_unstable();
    let before = reported.len();
    reported.dedup();
    assert_eq!(reported.len(), before, "a task was claimed twice");
    let counts = TaskStore::open_existing(url.as_str())
        .unwrap()
        .counts()
        .unwrap();
    let working = counts
        .iter()
        .find(|(state, _)| *state == TaskState::Working)
        .map(|(_, n)| *n)
        .unwrap();
    assert_eq!(working as usize, tasks, "{counts:?}");
    // The workers resumed: claims were made after the (last) restart.
    let after = answers
        .iter()
        .filter(|a| a.claimed.is_some() && a.started == 2)
        .count();
    assert!(after > 0, "no claim after the restart");
    let errors = answers.iter().filter(|a| a.code == 2).count();
    eprintln!(
        "outage: {WORKERS} workers, {tasks} tasks, {rounds} stop/restart(s): {} commands, {before} claims answered, {} claims whose answer was lost, {errors} errors (exit 2) while down, {after} claims after a restart, 0 claimed twice, {:.1} s",
        answers.len(),
        tasks - before,
        elapsed.as_secs_f64()
    );
}

#[test]
fn the_mcp_server_holds_one_connection_and_reconnects_after_a_restart() {
    if !postgres_here("mcp outage") {
        return;
    }
    let dir = common::scratch("pg-mcp");
    let cluster = Cluster::start(&dir, &[]);
    let url = format!("postgresql:///postgres?{}", cluster.query);
    let binary = env!("CARGO_BIN_EXE_specmint");
    let mut server = McpServer::start_with(binary, &["mcp", "--store", &url]);
    let mut call = |name: &str, arguments: Value| {
        server.request("tools/call", json!({"name": name, "arguments": arguments}))
    };
    // A store that does not exist: said so, nothing created.
    let missing = call("task_list", json!({}));
    assert_eq!(
        missing["error"]["message"],
        format!("store `{url}` does not exist (no tasks tables there); nothing was created: create it with task_submit or `specmint task init --store DB`")
    );
    let envelope = common::minimal_task(Some("m-1"));
    let submitted = call("task_submit", json!({"envelope": envelope}));
    assert_eq!(
        submitted["result"]["structuredContent"],
        json!({"ok": true, "task_id": "m-1", "state": "submitted"})
    );
    // One connection for every call: the server's backends for this database stay one.
    let backends = || {
        let mut admin = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        let row = admin
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = 'postgres' AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
                &[],
            )
            .unwrap();
        row.get::<_, i64>(0)
    };
    for _ in 0..5 {
        let listed = call("task_list", json!({}));
        assert_eq!(
            listed["result"]["structuredContent"]["tasks"][0]["task_id"],
            "m-1"
        );
    }
    assert_eq!(backends(), 1);
    // The server goes away: a call answers with an error, the server keeps serving.
    cluster.script("pause");
    let down = call("task_show", json!({"task_id": "m-1"}));
    let message = down["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!(
            "cannot open store `{url}`: error connecting to server: "
        )),
        "{down}"
    );
    // Back: the next call connects again (the held connection is gone) and answers.
    cluster.script("resume");
    let shown = call("task_show", json!({"task_id": "m-1"}));
    assert_eq!(
        shown["result"]["structuredContent"]["task_id"], "m-1",
        "{shown}"
    );
    let claimed = call("task_claim", json!({"task_id": "m-1"}));
    assert_eq!(
        claimed["result"]["structuredContent"],
        json!({"ok": true, "task_id": "m-1", "state": "working"})
    );
    assert_eq!(backends(), 1);
    // Restarted under a held connection: the first call finds it closed, reconnects once and
    // answers (nothing was committed by the failed attempt).
    cluster.script("pause");
    cluster.script("resume");
    let listed = call("task_list", json!({"state": "working"}));
    assert_eq!(
        listed["result"]["structuredContent"]["tasks"][0]["task_id"], "m-1",
        "{listed}"
    );
}

/// The cluster's processes (the postmaster and its children), stopped (`STOP`) or resumed
/// (`CONT`) with `kill -SIG`: a server frozen, not gone (its sockets stay open and the kernel
/// still acknowledges what is sent to it).
fn signal_cluster(cluster: &Cluster, signal: &str) {
    let pid_file = std::fs::read_to_string(cluster.dir.join("data/postmaster.pid")).unwrap();
    let postmaster = pid_file.lines().next().unwrap().trim().to_owned();
    let children = Command::new("pgrep")
        .args(["-P", &postmaster])
        .output()
        .unwrap();
    let mut pids = vec![postmaster];
    pids.extend(
        String::from_utf8(children.stdout)
            .unwrap()
            .split_whitespace()
            .map(str::to_owned),
    );
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .args(&pids)
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pids:?}");
}

/// Issue 48, finding 3: a server that stops answering (frozen, its connections open) holds a
/// store call no longer than the bound on an answer (`SPECMINT_PG_REPLY_TIMEOUT`): the MCP
/// server answers the call with `NoReply`'s message, still answers a ping, and once the server
/// thaws connects again.
#[test]
fn a_frozen_server_is_answered_within_the_reply_timeout() {
    if !postgres_here("frozen server") {
        return;
    }
    let dir = common::scratch("pg-frozen");
    let cluster = Cluster::start(&dir, &[]);
    let url = format!("postgresql:///postgres?{}", cluster.query);
    let binary = env!("CARGO_BIN_EXE_specmint");
    let mut server = McpServer::start_with(
        "env",
        &[
            "SPECMINT_PG_REPLY_TIMEOUT=2",
            binary,
            "mcp",
            "--store",
            &url,
        ],
    );
    let call = |server: &mut McpServer, name: &str, arguments: Value| {
        server.request("tools/call", json!({"name": name, "arguments": arguments}))
    };
    let envelope = common::minimal_task(Some("f-1"));
    let submitted = call(&mut server, "task_submit", json!({"envelope": envelope}));
    assert_eq!(
        submitted["result"]["structuredContent"]["ok"], true,
        "{submitted}"
    );
    signal_cluster(&cluster, "STOP");
    let started = Instant::now();
    let frozen = call(&mut server, "task_show", json!({"task_id": "f-1"}));
    let waited = started.elapsed();
    signal_cluster(&cluster, "CONT");
    assert_eq!(
        frozen["error"]["message"],
        "store: the server did not answer within 2 s (SPECMINT_PG_REPLY_TIMEOUT); nothing was applied",
        "{frozen}"
    );
    // The bound, not a minute of the kernel's retries (generous: the call itself took 2 s).
    assert!(waited < Duration::from_secs(30), "{waited:?}");
    assert_eq!(server.request("ping", json!({}))["result"], json!({}));
    let shown = call(&mut server, "task_show", json!({"task_id": "f-1"}));
    assert_eq!(
        shown["result"]["structuredContent"]["task_id"], "f-1",
        "{shown}"
    );
}

/// Issue 48, finding 3: a peer that accepts TCP and never answers (no startup reply, no TLS)
/// is given up after `connect_timeout`, the whole attempt, as libpq counts it; and after
/// `PGCONNECT_TIMEOUT` when the address sets none.
#[test]
fn a_server_that_accepts_and_never_answers_is_given_up_after_connect_timeout() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    // Accept and hold every connection, saying nothing.
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            held.push(stream);
        }
    });
    let attempt = |store: &str, env: Option<&str>| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
        command.args(["task", "list", "--store", store]);
        if let Some(seconds) = env {
            command.env("PGCONNECT_TIMEOUT", seconds);
        }
        let mut child = command
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = Instant::now();
        // A watchdog, so a hang fails here rather than holding the suite.
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > Duration::from_secs(60) {
                child.kill().unwrap();
                panic!("`specmint task list --store {store}` still waits after 60 s");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let store = format!("postgresql://agent@127.0.0.1:{port}/db?connect_timeout=2&sslmode=disable");
    let (code, stderr) = attempt(&store, None);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the server did not complete the connection within 2 s (connect_timeout)"),
        "{stderr}"
    );
    let store = format!("postgresql://agent@127.0.0.1:{port}/db?sslmode=require");
    let (code, stderr) = attempt(&store, Some("1"));
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("the server did not complete the connection within 1 s (connect_timeout)"),
        "{stderr}"
    );
}

/// A refused operation leaves no transaction open on the server: its rows' locks are released
/// before the store answers, not when its next call happens to run the client (a store held by
/// a server, as `specmint mcp` holds it, may make none for a long time). Another client can
/// update the task at once.
#[test]
fn a_refused_operation_holds_no_lock_after_it_answers() {
    let Some(query) = common::postgres_query() else {
        eprintln!("refused operation locks: skipped (SPECMINT_TEST_PG is not set)");
        return;
    };
    let url = common::fresh_postgres_db(&query, "store_server_refused_locks");
    let mut store = TaskStore::open(std::path::PathBuf::from(&url)).unwrap();
    let envelope = common::minimal_task(Some("r-1")).to_string();
    store.submit(envelope.as_bytes()).unwrap();
    assert_eq!(store.claim("r-1").unwrap(), TaskState::Working);
    // Claimed already: refused after the task's row was read FOR UPDATE.
    assert!(store.claim("r-1").is_err());
    let mut other = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    other.batch_execute("SET lock_timeout = '5s'").unwrap();
    let updated = other.execute("UPDATE tasks SET state = state WHERE task_id = 'r-1'", &[]);
    assert_eq!(updated.map_err(|e| e.to_string()), Ok(1));
    drop(store);
}
