//! `taskpack pack` of a passport with 10,000 facts and 50 MiB of attachments (50 files of
//! 1 MiB: 40 of log-like text, 10 of pseudo-random bytes), in both encodings: peak RSS and
//! time side by side with task-passport (node: `readLuggage` + `buildBag` + `writeZip` or
//! `toFlat`, the library calls its `pack` command makes) on the same passport file and the same
//! files.
//!
//! ```text
//! cargo bench --bench taskpack_pack      # needs node and tests/peers/taskpassport/node_modules
//! ```
//! Each side runs in a process of its own that does nothing else, so its peak RSS (VmHWM for
//! specmint, `process.resourceUsage().maxRSS` for node) is the packing's. Times are the median
//! of five runs, each side measured in turn in this process, and reported as a ratio. 1 MiB is
//! the most task-passport's flat writer inlines, so both encodings are measured on one input.
//! Without `--bench` (`cargo test --all-targets`) it is a smoke run: 100 facts, 2 MiB.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use child::{median, timed};
use specmint_test_support::child;

use specmint::taskpack::convert::Encoding;
use specmint::taskpack::json::Json;
use specmint::taskpack::pack::{self, Kind, PackOptions};
use specmint::taskpack::passports::PassportStore;

const RUNS: usize = 5;
const ID: &str = "TP-BNCH-PACK";

struct Size {
    facts: usize,
    files: usize,
    file_bytes: usize,
}

const FULL: Size = Size {
    facts: 10_000,
    files: 50,
    file_bytes: 1 << 20,
};
const SMOKE: Size = Size {
    facts: 100,
    files: 2,
    file_bytes: 1 << 20,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--pack") {
        return pack_here(Path::new(&args[2]), Path::new(&args[3]), &args[4..]);
    }
    let bench = args.iter().any(|a| a == "--bench");
    let (size, runs) = if bench { (FULL, RUNS) } else { (SMOKE, 1) };
    let dir = std::env::temp_dir().join(format!("specmint-bench-pack-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let files = make_input(&dir, &size);
    println!(
        "taskpack pack: {} facts, {} attachments of {} KiB ({} MiB)",
        size.facts,
        size.files,
        size.file_bytes >> 10,
        (size.files * size.file_bytes) >> 20
    );
    let me = std::env::current_exe().unwrap();
    let node = node_side(&dir);
    for (encoding, out) in [("zip", "out.taskpack"), ("flat", "out.taskpack.json")] {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        let (mut our_rss, mut their_rss) = (0, 0);
        let mut sizes = (0, 0);
        for _ in 0..runs {
            let target = dir.join(format!("ours-{out}"));
            let (t, rss) = timed(
                Command::new(&me)
                    .arg("--pack")
                    .arg(dir.join("store"))
                    .arg(&target)
                    .args(&files),
            );
            ours.push(t);
            our_rss = our_rss.max(rss);
            sizes.0 = std::fs::metadata(&target).unwrap().len();
            if let Some((node, script)) = &node {
                let target = dir.join(format!("theirs-{out}"));
                let (t, rss) = timed(
                    Command::new(node)
                        .arg(script)
                        .arg(dir.join("store").join(format!("{ID}.json")))
                        .arg(&target)
                        .arg(encoding)
                        .args(&files),
                );
                theirs.push(t);
                their_rss = their_rss.max(rss);
                sizes.1 = std::fs::metadata(&target).unwrap().len();
            }
        }
        report(
            encoding,
            &mut ours,
            our_rss,
            sizes.0,
            node.is_some().then_some((&mut theirs, their_rss, sizes.1)),
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn report(
    encoding: &str,
    ours: &mut [Duration],
    our_rss: u64,
    our_size: u64,
    theirs: Option<(&mut Vec<Duration>, u64, u64)>,
) {
    let mib = |bytes: u64| bytes as f64 / (1 << 20) as f64;
    let ours = median(ours);
    println!(
        "  {encoding:<4} specmint      median {:>7.3} s   peak RSS {:>6.1} MiB   pack {:>6.1} MiB",
        ours.as_secs_f64(),
        our_rss as f64 / 1024.0,
        mib(our_size)
    );
    match theirs {
        Some((theirs, their_rss, their_size)) => {
            let theirs = median(theirs);
            println!(
                "  {encoding:<4} task-passport median {:>7.3} s   peak RSS {:>6.1} MiB   pack {:>6.1} MiB",
                theirs.as_secs_f64(),
                their_rss as f64 / 1024.0,
                mib(their_size)
            );
            println!(
                "  {encoding:<4} specmint is {:.2}x as fast, with {:.1}% of the memory",
                theirs.as_secs_f64() / ours.as_secs_f64(),
                100.0 * our_rss as f64 / their_rss as f64
            );
        }
        None => println!(
            "  task-passport: not measured (needs node and tests/peers/taskpassport/node_modules; run ./test.sh once)"
        ),
    }
}

/// The passport (in a store under `dir`) and the attachment files; returns the files' paths.
fn make_input(dir: &Path, size: &Size) -> Vec<PathBuf> {
    let scopes = ["universal", "org", "machine", ""];
    let facts: Vec<Json> = (0..size.facts)
        .map(|i| {
            let mut fact = vec![(
                "claim".to_owned(),
                Json::Str(format!(
                    "fact {i}: the staging build {} passes its {} checks on port {}",
                    i * 7919 % 10007,
                    i % 97,
                    8000 + i % 1000
                )),
            )];
            let scope = scopes[i % scopes.len()];
            if !scope.is_empty() {
                fact.push(("scope".to_owned(), Json::Str(scope.to_owned())));
            }
            fact.push(("verified".to_owned(), Json::Bool(i % 3 != 0)));
            Json::Object(fact)
        })
        .collect();
    let state = Json::Object(vec![
        ("spec".to_owned(), Json::Str("2origin/0.1".to_owned())),
        ("kind".to_owned(), Json::Str("task.origin".to_owned())),
        ("id".to_owned(), Json::Str(ID.to_owned())),
        ("title".to_owned(), Json::Str("bench".to_owned())),
        (
            "goal".to_owned(),
            Json::Str("ship the quarterly report".to_owned()),
        ),
        ("harness".to_owned(), Json::Str("claude-code".to_owned())),
        (
            "current_state".to_owned(),
            Json::Str("half done".to_owned()),
        ),
        ("facts".to_owned(), Json::Array(facts)),
        (
            "next_steps".to_owned(),
            Json::Array(vec![Json::Str("finish".to_owned())]),
        ),
    ]);
    PassportStore::open(&dir.join("store"))
        .unwrap()
        .create(state)
        .unwrap();
    let luggage = dir.join("luggage");
    std::fs::create_dir_all(&luggage).unwrap();
    let mut x = 0x9e37_79b9u32;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    (0..size.files)
        .map(|n| {
            let mut data = Vec::with_capacity(size.file_bytes + 128);
            let binary = n % 5 == 4;
            while data.len() < size.file_bytes {
                let r = next();
                if binary {
                    data.extend_from_slice(&r.to_le_bytes());
                } else {
                    data.extend_from_slice(
                        format!(
                            "2026-08-16T03:{:02}:{:02}Z INFO worker-{} processed item {} in {} ms\n",
                            r % 60,
                            (r >> 6) % 60,
                            r % 32,
                            r >> 8,
                            r % 997
                        )
                        .as_bytes(),
                    );
                }
            }
            data.truncate(size.file_bytes);
            let path = luggage.join(format!("part-{n:02}.{}", if binary { "bin" } else { "log" }));
            std::fs::write(&path, data).unwrap();
            path
        })
        .collect()
}

/// Packs in this process and prints the peak RSS in KiB (VmHWM).
fn pack_here(store: &Path, out: &Path, files: &[String]) {
    let store = PassportStore::open(store).unwrap();
    let options = PackOptions {
        kind: Kind::Handoff,
        encoding: Encoding::of(out).unwrap(),
        asks: Vec::new(),
        checks: Vec::new(),
        attach: files.iter().map(PathBuf::from).collect(),
        actor: "ds".to_owned(),
        machine: "bench".to_owned(),
        note: String::new(),
        packed_at: None,
    };
    pack::pack(&store, ID, out, &options).unwrap();
    println!("{}", child::peak_rss_kib());
}

/// `node` and a script doing what task-passport's `pack` command does with its library (its
/// CLI does not load in 0.3.1): read the stored passport and the files, `buildBag`, then
/// `writeZip` or `toFlat`, and write the file.
fn node_side(dir: &Path) -> Option<(String, PathBuf)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let lib = root.join("tests/peers/taskpassport/node_modules/task-passport");
    if !lib.exists() || Command::new("node").arg("--version").output().is_err() {
        return None;
    }
    let script = dir.join("pack.mjs");
    std::fs::write(
        &script,
        format!(
            "import {{ readFileSync, writeFileSync }} from 'node:fs'\n\
             const {{ buildBag, readLuggage, writeZip }} = await import({bag:?})\n\
             const {{ toFlat }} = await import({tp:?})\n\
             const [state, out, encoding, ...paths] = process.argv.slice(2)\n\
             const files = await readLuggage(paths)\n\
             const bag = buildBag({{ state: JSON.parse(readFileSync(state, 'utf8')), files, actor: 'ds', machine: 'bench' }})\n\
             writeFileSync(out, encoding === 'flat' ? Buffer.from(toFlat(bag), 'utf8') : writeZip(bag))\n\
             console.log(process.resourceUsage().maxRSS)\n",
            bag = lib.join("bag.js").display().to_string(),
            tp = lib.join("taskpack.js").display().to_string(),
        ),
    )
    .unwrap();
    Some(("node".to_owned(), script))
}
