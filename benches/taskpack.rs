//! `taskpack conformance` on a `.taskpack` with one 200 MiB attachment: peak RSS and time,
//! side by side with task-passport (node: `readZip` + `verifyBag` + `conformance()`) on the
//! same file.
//!
//! ```text
//! cargo bench --bench taskpack            # needs node and scripts/taskpassport/node_modules
//! ```
//! Each side runs in a process of its own that does nothing else, so its peak RSS (VmHWM for
//! specmint, `process.resourceUsage().maxRSS` for node) is the judging's. Times are the median
//! of five runs, each side measured in turn in this process, and reported as a ratio.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/child.rs"]
mod child;
use child::{median, timed};

use specmint::taskpack::bag::{self, Limits};
use specmint::taskpack::conformance;
use specmint::taskpack::json::Json;

const ATTACHMENT_BYTES: usize = 200 << 20;
const RUNS: usize = 5;
/// Without `--bench` (`cargo test --all-targets` runs every bench once): a 2 MiB smoke run
/// (over 1 MiB, so the reference judges it as it does the real one).
const SMOKE_ATTACHMENT_BYTES: usize = 2 << 20;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--make") => return make(Path::new(&args[2]), args[3].parse().unwrap()),
        Some("--judge") => return judge(Path::new(&args[2])),
        _ => {}
    }
    // `cargo bench` passes `--bench`.
    let bench = args.iter().any(|a| a == "--bench");
    let (attachment_bytes, runs) = if bench {
        (ATTACHMENT_BYTES, RUNS)
    } else {
        (SMOKE_ATTACHMENT_BYTES, 1)
    };
    let dir = std::env::temp_dir().join(format!("specmint-bench-taskpack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.taskpack");
    let me = std::env::current_exe().unwrap();
    assert!(Command::new(&me)
        .arg("--make")
        .arg(&file)
        .arg(attachment_bytes.to_string())
        .status()
        .unwrap()
        .success());
    let size = std::fs::metadata(&file).unwrap().len();
    println!(
        "taskpack conformance: one {} MiB attachment (log-like text), {:.1} MiB zipped",
        attachment_bytes >> 20,
        size as f64 / (1 << 20) as f64
    );

    let node = node_side();
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let (mut our_rss, mut their_rss) = (0, 0);
    for _ in 0..runs {
        let (t, rss) = timed(Command::new(&me).arg("--judge").arg(&file));
        ours.push(t);
        our_rss = our_rss.max(rss);
        if let Some((node, script)) = &node {
            let (t, rss) = timed(Command::new(node).arg(script).arg(&file));
            theirs.push(t);
            their_rss = their_rss.max(rss);
        }
    }
    let ours = median(&mut ours);
    println!(
        "  specmint      median {:>8.3} s   peak RSS {:>6.1} MiB",
        ours.as_secs_f64(),
        our_rss as f64 / 1024.0
    );
    if node.is_some() {
        let theirs = median(&mut theirs);
        println!(
            "  task-passport median {:>8.3} s   peak RSS {:>6.1} MiB",
            theirs.as_secs_f64(),
            their_rss as f64 / 1024.0
        );
        println!(
            "  specmint is {:.2}x as fast, with {:.1}% of the memory",
            theirs.as_secs_f64() / ours.as_secs_f64(),
            100.0 * our_rss as f64 / their_rss as f64
        );
    } else {
        println!("  task-passport: not measured (needs node and scripts/taskpassport/node_modules; run ./test.sh once)");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    if let Some((_, script)) = node {
        std::fs::remove_file(script).unwrap();
    }
}

/// Writes the bench pack: a realistic pack object and one attachment of log-like lines.
fn make(file: &Path, attachment_bytes: usize) {
    let passport = Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "origin":{"actor":"ds","machine":"mbp-14","harness":"claude-code"},
            "lineage":{"root_id":"TP-BNCH-0001","from_version":3,"chain":["TP-BNCH-0001@3"]},"note":"",
            "passport":{"id":"TP-BNCH-0001","title":"bench","version":3,"goal":"g","facts":[],"next_steps":[]},
            "asks":[],"landing_checks":[]}"#,
    )
    .unwrap();
    let mut data = Vec::with_capacity(attachment_bytes + 128);
    let mut x = 0x9e37_79b9u32;
    while data.len() < attachment_bytes {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let line = format!(
            "2026-08-16T03:{:02}:{:02}Z INFO worker-{} processed item {} in {} ms\n",
            x % 60,
            (x >> 6) % 60,
            x % 32,
            x >> 8,
            x % 997
        );
        data.extend_from_slice(line.as_bytes());
    }
    data.truncate(attachment_bytes);
    let bag = bag::assemble(&passport, vec![("server.log".to_owned(), data)]);
    let out = std::fs::File::create(file).unwrap();
    bag::write_zip(std::io::BufWriter::new(out), &bag, "2026-08-16T03:11:04Z").unwrap();
}

/// Judges the pack in this process and prints the peak RSS in KiB (VmHWM).
fn judge(file: &Path) {
    let verdict = conformance::judge_path(file, Limits::default()).unwrap();
    assert!(verdict.conformant(), "{verdict:?}");
    println!("{}", child::peak_rss_kib());
}

/// `node` and a script running the reference's check, when both are there.
fn node_side() -> Option<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib = root.join("scripts/taskpassport/node_modules/task-passport");
    if !lib.exists() || Command::new("node").arg("--version").output().is_err() {
        return None;
    }
    let script = std::env::temp_dir().join(format!("specmint-bench-tp-{}.mjs", std::process::id()));
    std::fs::write(
        &script,
        format!(
            "import {{ readFileSync }} from 'node:fs'\n\
             const {{ readZip, verifyBag }} = await import({bag:?})\n\
             const {{ conformance }} = await import({tp:?})\n\
             const entries = readZip(readFileSync(process.argv[2]))\n\
             const bag = verifyBag(entries)\n\
             if (!bag.ok) throw new Error(bag.errors.join('; '))\n\
             const report = conformance(entries)\n\
             // Its C9 fails on any attachment over 1 MiB (departure D5); every other check passes.\n\
             const failed = report.checks.filter((c) => !c.ok).map((c) => c.id)\n\
             if (failed.join() !== 'C9') throw new Error(`unexpected: ${{failed}}`)\n\
             console.log(process.resourceUsage().maxRSS)\n",
            bag = lib.join("bag.js").display().to_string(),
            tp = lib.join("taskpack.js").display().to_string(),
        ),
    )
    .unwrap();
    Some(("node".to_owned(), script))
}
