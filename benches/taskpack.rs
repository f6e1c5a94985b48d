//! `taskpack conformance` on a `.taskpack` with one 200 MiB attachment: peak RSS and time,
//! side by side with task-passport (node: `readZip` + `verifyBag` + `conformance()`) on the
//! same file; then the same pack in the flat form, judged by specmint, against the zip.
//!
//! ```text
//! cargo bench --bench taskpack            # needs node and tests/peers/taskpassport/node_modules
//! ```
//! Each side runs in a process of its own that does nothing else, so its peak RSS (VmHWM for
//! specmint, `process.resourceUsage().maxRSS` for node) is the judging's. Times are the median
//! of five runs, each side measured in turn in this process, and reported as a ratio.

use std::path::{Path, PathBuf};
use std::process::Command;

use child::{log_lines, report, Side};
use specmint_test_support::child;

use specmint::taskpack::bag::{self, Limits};
use specmint::taskpack::json::Json;
use specmint::taskpack::{conformance, convert};

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
    let (mut ours, mut theirs) = (Side::default(), Side::default());
    for _ in 0..runs {
        ours.run(Command::new(&me).arg("--judge").arg(&file));
        if let Some((node, script)) = &node {
            theirs.run(Command::new(node).arg(script).arg(&file));
        }
    }
    report(&mut ours, node.is_some().then_some(&mut theirs));

    // The same pack in the flat form (the attachment inline as JSON text), judged by the
    // streaming flat reader, against the zip's run above.
    let flat = dir.join("big.taskpack.json");
    convert::convert(&file, &flat, Limits::default(), None).unwrap();
    let mut flat_side = Side::default();
    for _ in 0..runs {
        flat_side.run(Command::new(&me).arg("--judge").arg(&flat));
    }
    let (zip_time, flat_time) = (
        child::median(&mut ours.times),
        child::median(&mut flat_side.times),
    );
    println!(
        "  flat form ({:.1} MiB) median {:>8.3} s   peak RSS {:>6.1} MiB: {:.2}x the zip's time",
        std::fs::metadata(&flat).unwrap().len() as f64 / (1 << 20) as f64,
        flat_time.as_secs_f64(),
        flat_side.rss as f64 / 1024.0,
        flat_time.as_secs_f64() / zip_time.as_secs_f64()
    );
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
    let data = log_lines(attachment_bytes, 0);
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
    child::node_script("tp", |lib| {
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
        )
    })
}
