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
    let mut seconds_of = Vec::new();
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
        seconds_of.push(seconds);
        let base = *baseline.get_or_insert(seconds);
        println!(
            "{jobs} | {seconds:.2} | {:.1} | {:.0} | {peak:.0} (highest so far) | {:.2}",
            written as f64 / 1e6 / seconds,
            lines as f64 / seconds,
            base / seconds
        );
        outputs.push(out_path);
    }
    // Issue 51's goal: every core at least 0.8 × cores × the one-thread throughput.
    if let [one, all] = seconds_of[..] {
        let speedup = one / all;
        let goal = 0.8 * cores as f64;
        println!(
            "goal (issue 51): {cores} cores ≥ {goal:.2}× one thread: {speedup:.2}×, {}",
            if speedup >= goal { "met" } else { "not met" }
        );
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
    files(bin, &root, &dir, &docs, measuring);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A peer's run over the files: its name, its command (run in the files' directory, the
/// files named relative to it) and how many documents its output says it refused.
struct PeerRun {
    name: String,
    command: Command,
    refused: fn(&str) -> usize,
}

/// The same documents as files of their own (`SPECMINT_BULK_FILES`, 20,000 when measuring),
/// judged by specmint on one thread and every core and by the JSON Schema command-line tools a
/// team would reach for, each with the emitted schema: ajv-cli, check-jsonschema and
/// jsonschema-cli (installed by `scripts/bench_peers.sh`; a missing one is skipped and said).
/// None of them reads JSON Lines, hence files; each prints how many documents it refused.
fn files(
    bin: &str,
    root: &std::path::Path,
    dir: &std::path::Path,
    docs: &[String],
    measuring: bool,
) {
    let count: usize = std::env::var("SPECMINT_BULK_FILES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if measuring { 20_000 } else { 200 });
    let files_dir = dir.join("files");
    std::fs::create_dir_all(&files_dir).unwrap();
    let mut names = Vec::with_capacity(count);
    let mut bytes = 0usize;
    for (i, d) in docs.iter().cycle().take(count).enumerate() {
        let name = format!("{i:06}.json");
        std::fs::write(files_dir.join(&name), d).unwrap();
        bytes += d.len();
        names.push(name);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let schema = root.join("generated/schema/task_packet.schema.json");
    let mut runs = Vec::new();
    for jobs in [1, cores] {
        let mut command = Command::new(bin);
        command
            .args(["validate", "task-packet", "--format", "json", "--jobs"])
            .arg(jobs.to_string())
            .args(&names);
        runs.push(PeerRun {
            name: format!("specmint --jobs {jobs}"),
            command,
            refused: |out| out.matches("\"valid\":false").count(),
        });
    }
    // The peers' paths as scripts/bench_peers.sh prints them (it installs what is missing);
    // without `--bench` (a test run) only those already installed are run.
    let tools = root.join("target/tools");
    let tools = std::env::var_os("CARGO_TARGET_DIR")
        .map_or(tools, |t| std::path::PathBuf::from(t).join("tools"));
    let ajv = root.join("benches/peers/node_modules/.bin/ajv");
    let check_jsonschema = tools.join("peers-venv/bin/check-jsonschema");
    let jsonschema_cli = tools.join("jsonschema-cli-0.60.2/bin/jsonschema-cli");
    let mut skipped = Vec::new();
    if ajv.exists() {
        let mut command = Command::new(&ajv);
        command
            .args([
                "validate",
                "--spec=draft2020",
                "--strict=false",
                "-c",
                "ajv-formats",
                "-s",
            ])
            .arg(&schema)
            .args(["-d", "*.json"])
            .env("NODE_PATH", root.join("benches/peers/node_modules"));
        runs.push(PeerRun {
            name: "ajv-cli 5.0.0 (ajv 8.20.0, ajv-formats)".to_owned(),
            command,
            refused: |out| out.lines().filter(|l| l.ends_with(" invalid")).count(),
        });
    } else {
        skipped.push("ajv-cli");
    }
    if check_jsonschema.exists() {
        let mut command = Command::new(&check_jsonschema);
        command.arg("--schemafile").arg(&schema).args(&names);
        runs.push(PeerRun {
            name: "check-jsonschema 0.39.0".to_owned(),
            command,
            // One `  FILE::$...: message` line per error; a file counted once.
            refused: |out| {
                let mut files: Vec<&str> = out
                    .lines()
                    .filter_map(|l| l.trim_start().split_once("::").map(|(f, _)| f))
                    .filter(|f| f.ends_with(".json"))
                    .collect();
                files.dedup();
                files.len()
            },
        });
    } else {
        skipped.push("check-jsonschema");
    }
    if jsonschema_cli.exists() {
        let mut command = Command::new(&jsonschema_cli);
        command
            .args(["validate", "--assert-format"])
            .arg(&schema)
            .arg("-i")
            .args(&names);
        runs.push(PeerRun {
            name: "jsonschema-cli 0.60.2".to_owned(),
            command,
            refused: |out| out.lines().filter(|l| l.contains(" - INVALID")).count(),
        });
    } else {
        skipped.push("jsonschema-cli");
    }
    println!(
        "\n{count} files, {:.1} MB (the same documents, one a file)",
        bytes as f64 / 1e6
    );
    println!("tool | seconds | MB/s | documents/s | refused | × specmint one thread");
    let mut baseline = None;
    for mut run in runs {
        // Output into files, as a shell redirection would: node's process.exit cuts short
        // what ajv-cli writes into a pipe.
        let (out_path, err_path) = (dir.join("peer.out"), dir.join("peer.err"));
        let start = Instant::now();
        let status = run
            .command
            .current_dir(&files_dir)
            .stdout(std::fs::File::create(&out_path).unwrap())
            .stderr(std::fs::File::create(&err_path).unwrap())
            .status()
            .unwrap_or_else(|e| panic!("{}: {e}", run.name));
        let seconds = start.elapsed().as_secs_f64();
        let read =
            |p: &std::path::Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
        let text = format!("{}{}", read(&out_path), read(&err_path));
        let refused = (run.refused)(&text);
        // Every tool refuses some documents (the corpus's invalid ones), and says so by its
        // status; a run that refused none did not judge them.
        assert!(
            !status.success() && refused > 0,
            "{}: status {status}, refused {refused}:\n{}",
            run.name,
            text.chars().take(2000).collect::<String>()
        );
        let base = *baseline.get_or_insert(seconds);
        println!(
            "{} | {seconds:.2} | {:.1} | {:.0} | {refused} | {:.2}",
            run.name,
            bytes as f64 / 1e6 / seconds,
            count as f64 / seconds,
            base / seconds
        );
    }
    if !skipped.is_empty() {
        println!(
            "skipped (run scripts/bench_peers.sh): {}",
            skipped.join(", ")
        );
    }
}
