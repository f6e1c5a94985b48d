//! Both stores under several workers at once: claims per second (`TaskStore::claim_next`, the
//! mesh's queue) and applies per second (`PackageStore::apply_json`) for 1, 8 and 64 workers,
//! with p50/p99 latency, on SQLite and (with `SPECMINT_BENCH_PG` set) PostgreSQL, and what a
//! durable commit costs on each (`Synchronous::Full` against `Normal`, one worker).
//!
//! ```text
//! scripts/bench_stores.sh                            # starts a durable throwaway server
//! SPECMINT_BENCH_PG='host=DIR&user=NAME' cargo bench --bench engines -- stores [COUNT]
//! ```
//!
//! A worker is a thread with a store handle of its own (its own SQLite connection, its own
//! server connection), as separate processes would have. Claims: COUNT tasks are submitted
//! first (not measured), then every worker claims until nothing is left; every task is
//! claimed once (asserted). Applies: each worker applies COUNT / workers envelopes of the
//! engine bench's cycle to a package of its own, so workers contend for the store, not for
//! a revision. Ratios are against SQLite, one worker, `Full`, run in the same process.

use std::path::PathBuf;
use std::sync::Barrier;
use std::time::{Duration, Instant};

use serde_json::json;
use specmint::action_envelope::engine::PackageStore;
use specmint::database::Synchronous;
use specmint::task_envelope::lifecycle::TaskStore;

use super::{cycle_digest_for, envelopes_for, Run};

/// A store to measure: SQLite files under a folder, or databases on a server.
enum Backend {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Backend {
    fn name(&self) -> &'static str {
        match self {
            Backend::Sqlite(_) => "SQLite",
            Backend::Postgres(_) => "PostgreSQL",
        }
    }

    /// A new, empty store called `name`, as a `--store` value.
    fn fresh(&self, name: &str) -> String {
        match self {
            Backend::Sqlite(dir) => {
                let db = dir.join(format!("{name}.db"));
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
                }
                db.display().to_string()
            }
            Backend::Postgres(query) => {
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
}

/// Runs `work(worker)` on `workers` threads released at once; the wall time and every
/// latency the workers recorded.
fn at_once(
    name: &'static str,
    workers: usize,
    work: impl Fn(usize) -> Vec<Duration> + Sync,
) -> Run {
    let barrier = Barrier::new(workers + 1);
    let (total, latencies) = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let (barrier, work) = (&barrier, &work);
                scope.spawn(move || {
                    barrier.wait();
                    work(w)
                })
            })
            .collect();
        barrier.wait();
        let start = Instant::now();
        let latencies: Vec<Duration> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect();
        (start.elapsed(), latencies)
    });
    Run {
        name,
        total,
        latencies,
    }
}

fn claims(backend: &Backend, workers: usize, synchronous: Synchronous, count: usize) -> Run {
    let store = backend.fresh(&format!("claims_{workers}_{synchronous:?}").to_lowercase());
    {
        let mut setup = TaskStore::open_with(store.as_str(), Synchronous::Normal).unwrap();
        for i in 0..count {
            let envelope = json!({
                "taskID": format!("b-{i:05}"),
                "objective": "Add a --json flag",
                "outputFormat": "a commit",
                "toolAndSourceGuidance": "cargo",
                "boundaries": ["no schema changes"],
                "filesAndInterfaces": ["src/report.rs"],
                "acceptanceCheck": {"passFailCommand": "cargo test", "endToEndVerification": "run it"},
                "contextID": "ctx-bench"
            });
            setup.submit(envelope.to_string().as_bytes()).unwrap();
        }
    }
    // Handles are opened before the clock starts: a worker's connection is not a claim.
    let handles: Vec<std::sync::Mutex<TaskStore>> = (0..workers)
        .map(|_| std::sync::Mutex::new(TaskStore::open_with(store.as_str(), synchronous).unwrap()))
        .collect();
    let run = at_once("claims", workers, |w| {
        let mut handle = handles[w].lock().unwrap();
        let mut latencies = Vec::new();
        loop {
            let t = Instant::now();
            let claimed = handle.claim_next(None).unwrap();
            if claimed.is_none() {
                return latencies;
            }
            latencies.push(t.elapsed());
        }
    });
    assert_eq!(run.latencies.len(), count, "every task claimed once");
    run
}

fn applies(backend: &Backend, workers: usize, synchronous: Synchronous, count: usize) -> Run {
    let store = backend.fresh(&format!("applies_{workers}_{synchronous:?}").to_lowercase());
    let per_worker = count.div_ceil(workers);
    let inputs: Vec<Vec<Vec<u8>>> = (0..workers)
        .map(|w| {
            let package = format!("pkg_bench_{w}");
            envelopes_for(&package, per_worker, &cycle_digest_for(&package))
        })
        .collect();
    let handles: Vec<std::sync::Mutex<PackageStore>> = (0..workers)
        .map(|w| {
            let mut handle = PackageStore::open_with(store.as_str(), synchronous).unwrap();
            handle
                .create(&format!("pkg_bench_{w}"), Some("bench"))
                .unwrap();
            std::sync::Mutex::new(handle)
        })
        .collect();
    at_once("applies", workers, |w| {
        let mut handle = handles[w].lock().unwrap();
        inputs[w]
            .iter()
            .map(|bytes| {
                let t = Instant::now();
                let applied = handle.apply_json(bytes).unwrap();
                assert!(!applied.replayed);
                t.elapsed()
            })
            .collect()
    })
}

pub fn run(count: usize) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bench-stores");
    std::fs::create_dir_all(&dir).unwrap();
    let mut backends = vec![Backend::Sqlite(dir)];
    match std::env::var("SPECMINT_BENCH_PG") {
        Ok(query) if !query.is_empty() => backends.push(Backend::Postgres(query)),
        _ => eprintln!("SPECMINT_BENCH_PG is not set: SQLite only (scripts/bench_stores.sh)"),
    }
    println!("{count} operations per row, workers as threads with their own store handle\n");
    println!("| store | operation | workers | commit | ops/s | p50 | p99 | ops/s vs SQLite, 1 worker, FULL |");
    println!("|---|---|---:|---|---:|---:|---:|---:|");
    type Measure = fn(&Backend, usize, Synchronous, usize) -> Run;
    for (operation, measure) in [
        ("claims", claims as Measure),
        ("applies", applies as Measure),
    ] {
        let mut baseline = None;
        for backend in &backends {
            let mut rows = vec![(1, Synchronous::Full), (1, Synchronous::Normal)];
            rows.extend([(8, Synchronous::Full), (64, Synchronous::Full)]);
            for (workers, synchronous) in rows {
                let run = measure(backend, workers, synchronous, count);
                let per_second = run.per_second();
                let baseline = *baseline.get_or_insert(per_second);
                println!(
                    "| {} | {operation} | {workers} | {} | {per_second:.0} | {:.2} ms | {:.2} ms | {:.2}× |",
                    backend.name(),
                    match synchronous {
                        Synchronous::Full => "durable",
                        Synchronous::Normal => "not flushed",
                    },
                    run.percentile(0.50).as_secs_f64() * 1e3,
                    run.percentile(0.99).as_secs_f64() * 1e3,
                    per_second / baseline,
                );
            }
        }
    }
}
