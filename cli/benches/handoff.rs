//! team_handoff filings: per second and p50/p99 latency of one filing, through the library and
//! through `specmint mcp` (one client, sequential calls over stdio), each against a baseline
//! measured in the same process.
//!
//! ```text
//! cargo bench --bench handoff [-- ITERATIONS]
//! ```
//!
//! - `atomic write (floor)`: what every filing must pay, the durable write alone: the
//!   packet's bytes to a temp file, fsync, rename, fsync of the directory;
//! - `library`: `team_handoff` re-filing one packet (identity read, validation, the leg lock,
//!   the slot scan, the atomic write, two audit rows);
//! - `mcp`: the same call as a `tools/call` through the server.
//!
//! Ratios: library ÷ floor, mcp ÷ library (medians). Wall-clock on a shared machine moves
//! between runs; the ratios, taken in one process a few seconds apart, move much less.

use std::path::{Path, PathBuf};

use specmint_test_support::mcp_client;
use specmint_test_support::timing::{measure, Row};

use serde_json::json;
use specmint::task_packet::handoff::team_handoff;

const AGENT: &str = "eph-bench";
const RECORD: &str = "[team_member]\nrole = \"planner\"\ntask_id = \"task-1\"\nround = 1\n";

fn packet() -> serde_json::Value {
    json!({
        "packet_id": "pk-bench",
        "objective": "整理 2026 Q2 到期的客戶合約清單，輸出 CSV",
        "output_format": "files",
        "constraints": [{ "id": "c1", "text": "只讀 2026-04-01 至 2026-06-30 的合約" }],
        "audience": ["verifier"],
    })
}

fn home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("specmint-bench-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let member = dir.join("agents/.ephemeral").join(AGENT);
    std::fs::create_dir_all(&member).unwrap();
    std::fs::write(member.join("agent.toml"), RECORD).unwrap();
    dir
}

fn atomic_write(dir: &Path, bytes: &[u8]) {
    use std::io::Write;
    let temp = dir.join(".floor.tmp");
    let mut file = std::fs::File::create(&temp).unwrap();
    file.write_all(bytes).unwrap();
    file.sync_all().unwrap();
    std::fs::rename(&temp, dir.join("floor.json")).unwrap();
    std::fs::File::open(dir).unwrap().sync_all().unwrap();
}

fn main() {
    // `cargo bench` passes `--bench`; without it (`cargo test --all-targets`) a short smoke run.
    let bench = std::env::args().any(|a| a == "--bench");
    let iterations: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(if bench { 300 } else { 3 });
    let argument = packet().to_string();

    let floor_home = home("floor");
    let bytes = specmint::task_packet::TaskPacket::from_json_str(&argument.replace(
        r#""packet_id""#,
        r#""goal_id":"task-1","round":1,"from_role":"planner","to_role":"executor","packet_id""#,
    ))
    .unwrap()
    .to_canonical_json();
    let library_home = home("library");
    let mcp_home = home("mcp");
    let mut server = mcp_client::McpServer::start(env!("CARGO_BIN_EXE_specmint"), &mcp_home, AGENT);
    let arguments = json!({ "packet": packet() });
    let mut times = measure(
        iterations,
        &mut [
            &mut || atomic_write(&floor_home, bytes.as_bytes()),
            &mut || {
                team_handoff(&library_home, AGENT, Some(&argument)).unwrap();
            },
            &mut || {
                let result = server.call(&arguments);
                assert_eq!(result["isError"], false, "{result}");
            },
        ],
    )
    .into_iter();
    let mut row = |name| Row {
        name,
        times: times.next().unwrap(),
    };
    let (floor, library, mcp) = (
        row("atomic write (floor)"),
        row("library"),
        row("mcp (one client, sequential)"),
    );
    drop(server);

    println!("| path | filings/s | p50 | p99 |");
    println!("|---|---:|---:|---:|");
    for row in [&floor, &library, &mcp] {
        println!(
            "| {} | {:.0} | {:.3} ms | {:.3} ms |",
            row.name,
            row.per_second(),
            row.percentile(0.50).as_secs_f64() * 1e3,
            row.percentile(0.99).as_secs_f64() * 1e3,
        );
    }
    let ratio =
        |a: &Row, b: &Row| a.percentile(0.5).as_secs_f64() / b.percentile(0.5).as_secs_f64();
    println!();
    println!(
        "{iterations} filings each; p50 ratios: library ÷ floor = {:.2}×, mcp ÷ library = {:.2}×",
        ratio(&library, &floor),
        ratio(&mcp, &library)
    );
    for dir in [floor_home, library_home, mcp_home] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
