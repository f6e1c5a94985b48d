//! Bulk validation (issue 51): `specmint validate --jsonl` on a large JSON Lines file of
//! TaskPackets (valid and invalid, from the bundled corpus, repeated), judged with one thread
//! and with every core, in processes of their own; wall time, throughput and each run's peak
//! resident set (the memory bound: it must not grow with the file).
//!
//! `cargo bench -p specmint-cli --bench bulk` measures on about 1 GB (`SPECMINT_BULK_MB` sets
//! the size); without `--bench` (as `cargo test --benches` runs it) a 2 MB run checks that the
//! verdicts of both runs agree.

use std::io::Write;
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

/// The corpus's single-line documents, valid and invalid.
fn documents() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let path = root.join("generated/corpus/task_packet/cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    corpus["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["document"].to_string())
        .filter(|d| d.len() < 64 << 10)
        .collect()
}

/// Peak resident set of the child, in KiB, from the children's rusage.
fn children_peak_kib() -> i64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid out-pointer for getrusage.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    usage.ru_maxrss
}

fn main() {
    let measuring = std::env::args().any(|a| a == "--bench");
    let mb: usize = std::env::var("SPECMINT_BULK_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 1024 } else { 2 });
    let bin = env!("CARGO_BIN_EXE_specmint");
    let dir = std::env::temp_dir().join(format!("specmint-bulk-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("packets.jsonl");
    let docs = documents();
    let (mut written, mut lines) = (0usize, 0usize);
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        while written < mb << 20 {
            for d in &docs {
                out.write_all(d.as_bytes()).unwrap();
                out.write_all(b"\n").unwrap();
                written += d.len() + 1;
                lines += 1;
            }
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{:.0} MB, {lines} documents ({} distinct), {cores} cores",
        written as f64 / 1e6,
        docs.len()
    );
    println!("jobs | seconds | MB/s | documents/s | peak RSS MiB | × one thread");
    let mut baseline = None;
    let mut outputs = Vec::new();
    for jobs in [1, cores] {
        let out_path = dir.join(format!("verdicts-{jobs}.jsonl"));
        let start = Instant::now();
        let status = Command::new(bin)
            .args([
                "validate",
                "task-packet",
                "--jsonl",
                "--format",
                "json",
                "--jobs",
            ])
            .arg(jobs.to_string())
            .arg(&file)
            .stdout(std::fs::File::create(&out_path).unwrap())
            .status()
            .unwrap();
        let seconds = start.elapsed().as_secs_f64();
        // The corpus has invalid documents: exit 1.
        assert_eq!(status.code(), Some(1));
        let peak = children_peak_kib() as f64 / 1024.0;
        let base = *baseline.get_or_insert(seconds);
        println!(
            "{jobs} | {seconds:.2} | {:.1} | {:.0} | {peak:.0} (highest so far) | {:.2}",
            written as f64 / 1e6 / seconds,
            lines as f64 / seconds,
            base / seconds
        );
        outputs.push(out_path);
    }
    // Both runs give the same verdicts, line for line.
    let read = |p: &std::path::Path| std::fs::read(p).unwrap();
    assert!(
        read(&outputs[0]) == read(&outputs[1]),
        "the verdicts differ"
    );
    let verdicts = String::from_utf8(read(&outputs[0])).unwrap();
    let invalid = verdicts.matches("{\"valid\":false").count();
    println!("specmint: {} valid, {invalid} invalid", lines - invalid);
    // The peer a team would reach for on the same file: ajv with the emitted schema, as
    // ajv-cli runs it (one thread, the first error enough). Skipped without its install.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if root
        .join("tests/peers/conformance/node_modules/ajv")
        .exists()
    {
        let schema = root.join("generated/schema/task_packet.schema.json");
        let start = Instant::now();
        let out = Command::new("node")
            .arg(root.join("scripts/bench_bulk_ajv.mjs"))
            .arg(&schema)
            .arg(&file)
            .output()
            .unwrap();
        let seconds = start.elapsed().as_secs_f64();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let counts = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        println!(
            "ajv, one thread, first error: {seconds:.2} s, {:.1} MB/s, {:.0} documents/s; valid invalid: {counts} (the schema states fewer rules: the x- ones pass)",
            written as f64 / 1e6 / seconds,
            lines as f64 / seconds
        );
    } else {
        println!("ajv: skipped (run `npm ci` in tests/peers/conformance/)");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
