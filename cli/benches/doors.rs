//! The doors' cost per call (issue 37, item 4): in one process, each door against the library
//! call it wraps and against one bare round trip through the same door.
//!
//! ```text
//! cargo bench -p specmint-cli --bench doors [-- ITERATIONS]
//! SPECMINT_BENCH_PG="$(scripts/postgres.sh start DIR)" cargo bench -p specmint-cli --bench doors
//! ```
//!
//! - MCP (`specmint mcp --store DB`, one client, JSON-RPC lines over stdio), on SQLite and, when
//!   `SPECMINT_BENCH_PG` holds a query part (`host=DIR&user=NAME`, as `scripts/postgres.sh
//!   start` prints it), on PostgreSQL: an action tool (`record_input`, the Action Envelope as a
//!   typed tool call) against `PackageStore::apply_json` (what `envelope apply` calls) and
//!   `task_claim` against `TaskStore::claim` (what `task claim` calls); the round trip is a
//!   `ping` request.
//! - A2A (`specmint a2a serve` on loopback, a fresh HTTP/1.1 connection per request, as the
//!   door closes each): a landing (`SendMessage` with a 1 KiB flat pack) against
//!   `arrival::land_file` (what `taskpack land` calls) and `Door::answer_from` in process, its answer written as the server writes it (the door's
//!   JSON-RPC without HTTP); the round trip is a `GET` of the Agent Card. The door lands into a
//!   passport directory, which no database backs: it is measured once.
//!
//! Each row's median (p50), and `door ÷ (library + round trip)`, the issue's goal being at most
//! 1.2×. The steps of a group take turns call by call, so a slow stretch of the shared disk falls
//! on all of them alike. Without `--bench` (`cargo test --all-targets`) a smoke run of 3 calls.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use base64::Engine as _;
use serde_json::{json, Value};
use specmint::action_envelope::engine::PackageStore;
use specmint::task_envelope::lifecycle::TaskStore;
use specmint::taskpack::a2a::{Door, DEFAULT_MAX_PACK_BYTES};
use specmint::taskpack::arrival;
use specmint::taskpack::passports::PassportStore;
use specmint_test_support::mcp_client;
use specmint_test_support::timing::{measure, Row};

const BIN: &str = env!("CARGO_BIN_EXE_specmint");
const PACKAGE: &str = "pkg_bench";
const EXTENSION: &str = "https://taskpack.org/a2a/ext/taskpack/v1";

/// A store as `--store` takes it: a SQLite file under `dir`, or a new PostgreSQL database.
fn fresh_store(dir: &Path, pg: Option<&str>, name: &str) -> String {
    match pg {
        None => dir.join(format!("{name}.db")).display().to_string(),
        Some(query) => {
            let admin = format!("postgresql:///postgres?{query}");
            let mut client = postgres::Client::connect(&admin, postgres::NoTls)
                .unwrap_or_else(|e| panic!("SPECMINT_BENCH_PG: cannot reach {admin}: {e}"));
            client
                .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .unwrap();
            client
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .unwrap();
            format!("postgresql:///{name}?{query}")
        }
    }
}

/// The `record_input` envelope at revision `i` of the bench package, less what the tool adds.
fn record_input(i: usize) -> Value {
    json!({
        "action_id": format!("a-{i}"),
        "package_id": PACKAGE,
        "expected_revision": i,
        "basis": {},
        "payload": {"input_id": format!("i-{i}"), "kind": "text", "content": "Keep it short.",
                    "source": "operator", "disposition": "incorporated"},
    })
}

/// A store holding the bench package and `tasks` submitted tasks `t-00000`...
fn seeded(store: &str, tasks: usize) {
    PackageStore::open(store)
        .unwrap()
        .create(PACKAGE, Some("bench"))
        .unwrap();
    let mut task_store = TaskStore::open(store).unwrap();
    for i in 0..tasks {
        let envelope = json!({
            "taskID": format!("t-{i:05}"),
            "objective": "Add a --json flag",
            "outputFormat": "a commit",
            "toolAndSourceGuidance": "cargo",
            "boundaries": ["no schema changes"],
            "filesAndInterfaces": ["src/report.rs"],
            "acceptanceCheck": {"passFailCommand": "cargo test", "endToEndVerification": "run it"},
            "contextID": "ctx-bench"
        });
        task_store.submit(envelope.to_string().as_bytes()).unwrap();
    }
}

/// MCP against the library on one backend: (apply rows, claim rows), each
/// `[round trip, library, mcp]`.
fn mcp_rows(dir: &Path, pg: Option<&str>, iterations: usize) -> [Vec<Row>; 2] {
    let calls = iterations + iterations.min(20);
    let suffix = if pg.is_some() { "pg" } else { "sqlite" };
    let library_store = fresh_store(dir, pg, &format!("doors_library_{suffix}"));
    let mcp_store = fresh_store(dir, pg, &format!("doors_mcp_{suffix}"));
    seeded(&library_store, calls);
    seeded(&mcp_store, calls);
    let server = std::cell::RefCell::new(mcp_client::McpServer::start_with(
        BIN,
        &["mcp", "--store", &mcp_store],
    ));
    let ping = || {
        let response = server.borrow_mut().request("ping", json!({}));
        assert!(response["result"].is_object(), "{response}");
    };
    let mut packages = PackageStore::open(library_store.as_str()).unwrap();
    let mut tasks = TaskStore::open(library_store.as_str()).unwrap();
    let call = |name: &str, arguments: Value| {
        let response = server
            .borrow_mut()
            .request("tools/call", json!({"name": name, "arguments": arguments}));
        assert_eq!(response["result"]["isError"], false, "{response}");
    };
    let (mut lib_i, mut mcp_i) = (0, 0);
    let apply = measure(
        iterations,
        &mut [
            &mut || ping(),
            &mut || {
                let mut envelope = record_input(lib_i);
                envelope["protocol_version"] = json!("0.1");
                envelope["action"] = json!("record_input");
                packages
                    .apply_json(envelope.to_string().as_bytes())
                    .unwrap();
                lib_i += 1;
            },
            &mut || {
                call("record_input", record_input(mcp_i));
                mcp_i += 1;
            },
        ],
    );
    let (mut lib_i, mut mcp_i) = (0, 0);
    let claim = measure(
        iterations,
        &mut [
            &mut || ping(),
            &mut || {
                tasks.claim(&format!("t-{lib_i:05}")).unwrap();
                lib_i += 1;
            },
            &mut || {
                call("task_claim", json!({"task_id": format!("t-{mcp_i:05}")}));
                mcp_i += 1;
            },
        ],
    );
    [apply, claim].map(|times| {
        let mut times = times.into_iter();
        ["round trip (`ping`)", "library", "mcp tool call"]
            .map(|name| Row {
                name,
                times: times.next().unwrap(),
            })
            .into()
    })
}

/// A door process on loopback, killed when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(store: &Path) -> Served {
    let mut child = Command::new(BIN)
        .args(["a2a", "serve", "--listen", "127.0.0.1:0", "--passports"])
        .arg(store)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap_or_else(|| panic!("the first line: {line:?}"))
        .trim_end_matches('/')
        .parse()
        .unwrap();
    Served { child, addr }
}

/// One HTTP/1.1 exchange on a new connection: the status and the body.
fn exchange(addr: SocketAddr, head: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut request = format!("{head}Host: door\r\nConnection: close\r\n");
    if !body.is_empty() {
        request.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    request.push_str("\r\n");
    let mut request = request.into_bytes();
    request.extend_from_slice(body);
    stream.write_all(&request).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let status = String::from_utf8_lossy(&raw[9..12]).parse().unwrap();
    (status, raw[end + 4..].to_vec())
}

/// A 1 KiB flat handoff, its bytes.
fn flat_pack() -> Vec<u8> {
    use sha2::Digest;
    let notes = "a line of notes for the next machine\n".repeat(12);
    let pack = json!({"taskpack": "0.1", "encoding": "flat", "note_to_reader": "data",
        "passport": {"spec": "task-passport-bag/0.1", "kind": "handoff",
            "packed_at": "2026-08-16T03:11:04Z", "origin": {"actor": "ds", "machine": "mbp-14"},
            "lineage": {"root_id": "TP-BENCH-0001", "from_version": 1, "chain": ["TP-BENCH-0001@1"]},
            "note": "", "asks": [], "landing_checks": [],
            "passport": {"id": "TP-BENCH-0001", "goal": "land through the door", "version": 1,
                "title": "a landing measured", "facts": [{"claim": "the pack is small",
                "scope": "universal", "verified": true}], "decisions": [], "artifacts": [],
                "next_steps": ["land it", "answer it"]}},
        "attachments": [{"name": "notes.txt", "encoding": "utf8",
            "sha256": specmint::taskpack::bag::hex(&sha2::Sha256::digest(notes.as_bytes()).into()),
            "bytes": notes.len(), "data": notes}]});
    serde_json::to_vec_pretty(&pack).unwrap()
}

/// A2A against the library: `[round trip, land_file, Door::answer_from, door over HTTP]`.
fn a2a_rows(dir: &Path, iterations: usize) -> Vec<Row> {
    let pack = flat_pack();
    let file = dir.join("bench.taskpack.json");
    std::fs::write(&file, &pack).unwrap();
    let body = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
        "params": {"message": {"messageId": "m1", "role": "ROLE_USER",
            "parts": [{"raw": base64::engine::general_purpose::STANDARD.encode(&pack),
                       "filename": "bench.taskpack.json"}]}}}))
    .unwrap();
    let store_at = |name: &str| {
        let path = dir.join(name);
        std::fs::create_dir_all(&path).unwrap();
        path
    };
    let library = PassportStore::open(&store_at("passports-library")).unwrap();
    let door = Door {
        store: PassportStore::open(&store_at("passports-door")).unwrap(),
        max_pack_bytes: DEFAULT_MAX_PACK_BYTES,
    };
    let served = serve(&store_at("passports-served"));
    let post = format!(
        "POST / HTTP/1.1\r\nContent-Type: application/json\r\nA2A-Extensions: {EXTENSION}\r\n"
    );
    let times = measure(
        iterations,
        &mut [
            &mut || {
                let (status, _) = exchange(
                    served.addr,
                    "GET /.well-known/agent-card.json HTTP/1.1\r\n",
                    b"",
                );
                assert_eq!(status, 200);
            },
            &mut || {
                arrival::land_file(&library, &file, false).unwrap();
            },
            &mut || {
                let mut written = Vec::new();
                door.answer_from(&mut std::io::Cursor::new(&body), true, None)
                    .write_compact(&mut written)
                    .unwrap();
                let answer: Value = serde_json::from_slice(&written).unwrap();
                assert!(answer["result"]["task"].is_object(), "{answer}");
            },
            &mut || {
                let (status, answer) = exchange(served.addr, &post, &body);
                let answer: Value = serde_json::from_slice(&answer).unwrap();
                assert!(
                    status == 200 && answer["result"]["task"].is_object(),
                    "{answer}"
                );
            },
        ],
    );
    let mut times = times.into_iter();
    [
        "round trip (`GET` the Agent Card)",
        "library (`arrival::land_file`)",
        "door in process (`Door::answer_from`)",
        "a2a landing over HTTP",
    ]
    .map(|name| Row {
        name,
        times: times.next().unwrap(),
    })
    .into()
}

/// Prints a group's rows and `door ÷ (library + round trip)` (the last row against the first two).
fn table(title: &str, rows: &[Row]) {
    println!("\n{title}\n");
    println!("| path | p50 | p99 |");
    println!("|---|---:|---:|");
    for row in rows {
        println!(
            "| {} | {:.3} ms | {:.3} ms |",
            row.name,
            row.median_ms(),
            row.percentile(0.99).as_secs_f64() * 1e3
        );
    }
    let (round_trip, library, door) = (&rows[0], &rows[1], &rows[rows.len() - 1]);
    println!(
        "\n{} ÷ ({} + {}) = {:.2}× (p50; goal ≤ 1.2×)",
        door.name,
        library.name,
        round_trip.name,
        door.median_ms() / (library.median_ms() + round_trip.median_ms())
    );
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`) a short smoke run.
    let bench = std::env::args().any(|a| a == "--bench");
    let iterations: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(if bench { 300 } else { 3 });
    let dir: PathBuf = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-doors");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pg = std::env::var("SPECMINT_BENCH_PG").ok();
    let mut backends = vec![("SQLite", None)];
    if let Some(query) = pg.as_deref() {
        backends.push(("PostgreSQL", Some(query)));
    }
    for (backend, query) in backends {
        let [apply, claim] = mcp_rows(&dir, query, iterations);
        table(&format!("MCP `record_input` on {backend}"), &apply);
        table(&format!("MCP `task_claim` on {backend}"), &claim);
    }
    table(
        "A2A landing (a passport directory)",
        &a2a_rows(&dir, iterations),
    );
    println!("\n{iterations} calls per row");
    let _ = std::fs::remove_dir_all(&dir);
}
