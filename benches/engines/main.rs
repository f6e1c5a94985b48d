//! The Action Envelope engine: applies per second and latency percentiles of durable applies
//! (SQLite, WAL, one `BEGIN IMMEDIATE` transaction each) against the in-memory state machine
//! alone (the same envelopes read and stepped on a `Manifest`, no store), in one process.
//!
//! ```text
//! cargo bench --bench engines            # 2000 applies per contender
//! cargo bench --bench engines -- 500     # another count
//! cargo bench --bench engines -- stores  # both stores, 1/8/64 workers (scripts/bench_stores.sh)
//! ```
//!
//! Every contender applies the same envelopes: one `record_input` and one `set_objective`,
//! then the cycle `prepare_summary`, `confirm_summary`, `revise_intake`, `set_objective`,
//! which crosses four states, runs every gate that hashes or compares digests, and keeps the
//! manifest the same size (so the last apply costs what the first does). Each apply includes
//! reading the envelope's bytes.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use specmint::action_envelope::engine::PackageStore;
use specmint::action_envelope::manifest::Manifest;
use specmint::action_envelope::ActionEnvelope;
use specmint::database::Synchronous;

mod stores;

const PACKAGE: &str = "pkg_bench";

/// The envelopes, in order; `digest` is the (deterministic) summary digest confirm quotes.
fn envelopes(count: usize, digest: &str) -> Vec<Vec<u8>> {
    envelopes_for(PACKAGE, count, digest)
}

/// [`envelopes`] for package `package`.
fn envelopes_for(package: &str, count: usize, digest: &str) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| {
            let (action, basis, payload) = match i {
                0 => (
                    "record_input",
                    json!({}),
                    json!({"input_id": "i-1", "kind": "text", "content": "Keep it short.", "source": "operator", "disposition": "incorporated"}),
                ),
                _ => match (i - 1) % 4 {
                    0 => ("set_objective", json!({}), json!({"statement": "A one-page guide", "desired_outcomes": ["short", "clear"]})),
                    1 => ("prepare_summary", json!({}), json!({})),
                    2 => ("confirm_summary", json!({"summary_sha256": digest}), json!({"operator_id": "bench"})),
                    _ => ("revise_intake", json!({}), json!({})),
                },
            };
            json!({
                "protocol_version": "0.1",
                "action_id": format!("a-{i}"),
                "package_id": package,
                "expected_revision": i,
                "action": action,
                "basis": basis,
                "payload": payload,
            })
            .to_string()
            .into_bytes()
        })
        .collect()
}

/// The summary digest the cycle produces (found by stepping to the first summary).
fn cycle_digest() -> String {
    cycle_digest_for(PACKAGE)
}

/// [`cycle_digest`] for package `package`.
fn cycle_digest_for(package: &str) -> String {
    let mut manifest = Manifest::new(package, Some("bench".to_owned()));
    for bytes in envelopes_for(package, 3, "") {
        let envelope = ActionEnvelope::from_json_slice(&bytes).unwrap();
        manifest.step(&envelope, "now").unwrap();
    }
    manifest.summary.unwrap().canonical_sha256
}

struct Run {
    name: &'static str,
    total: Duration,
    latencies: Vec<Duration>,
}

impl Run {
    fn per_second(&self) -> f64 {
        self.latencies.len() as f64 / self.total.as_secs_f64()
    }

    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort();
        let at = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
        sorted[at]
    }
}

fn measure(name: &'static str, inputs: &[Vec<u8>], mut apply: impl FnMut(&[u8])) -> Run {
    let mut latencies = Vec::with_capacity(inputs.len());
    let start = Instant::now();
    for input in inputs {
        let t = Instant::now();
        apply(input);
        latencies.push(t.elapsed());
    }
    Run {
        name,
        total: start.elapsed(),
        latencies,
    }
}

fn in_memory(inputs: &[Vec<u8>]) -> Run {
    let mut manifest = Manifest::new(PACKAGE, Some("bench".to_owned()));
    measure("in-memory state machine", inputs, |bytes| {
        let envelope = ActionEnvelope::from_json_slice(bytes).unwrap();
        manifest.step(&envelope, "2026-08-03T09:15:00Z").unwrap();
    })
}

fn durable(name: &'static str, dir: &Path, synchronous: Synchronous, inputs: &[Vec<u8>]) -> Run {
    let db = dir.join(format!("{synchronous:?}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
    let mut store = PackageStore::open_with(&db, synchronous).unwrap();
    store.create(PACKAGE, Some("bench")).unwrap();
    let run = measure(name, inputs, |bytes| {
        let applied = store.apply_json(bytes).unwrap();
        assert!(!applied.replayed);
    });
    assert_eq!(
        store.manifest(PACKAGE).unwrap().unwrap().revision,
        inputs.len() as u64
    );
    run
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number is the count.
    let count = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(2000);
    if std::env::args().any(|a| a == "stores") {
        stores::run(count);
        return;
    }
    let inputs = envelopes(count, &cycle_digest());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-engines");
    std::fs::create_dir_all(&dir).unwrap();

    // Warm-up: page cache, allocator, the store file's first growth.
    let _ = in_memory(&inputs[..inputs.len().min(200)]);
    let _ = durable(
        "warm-up",
        &dir,
        Synchronous::Normal,
        &inputs[..inputs.len().min(200)],
    );

    let runs = [
        in_memory(&inputs),
        durable(
            "durable, synchronous=FULL (default)",
            &dir,
            Synchronous::Full,
            &inputs,
        ),
        durable(
            "durable, synchronous=NORMAL",
            &dir,
            Synchronous::Normal,
            &inputs,
        ),
    ];
    let baseline = runs[0].per_second();
    println!("{count} applies each, one process\n");
    println!("| contender | applies/s | p50 | p99 | applies/s vs in-memory |");
    println!("|---|---:|---:|---:|---:|");
    for run in &runs {
        println!(
            "| {} | {:.0} | {:.1} µs | {:.1} µs | {:.4}× |",
            run.name,
            run.per_second(),
            run.percentile(0.50).as_secs_f64() * 1e6,
            run.percentile(0.99).as_secs_f64() * 1e6,
            run.per_second() / baseline,
        );
    }
}
