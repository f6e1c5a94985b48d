//! `taskpack land` of a `.taskpack` holding 10 000 facts and 50 MiB of attachments (one 40 MiB
//! log, ten 1 MiB files, half of them binary): peak RSS and time, side by side with
//! task-passport 0.3.1 landing the same file the way its CLI's `land` does.
//!
//! ```text
//! cargo bench --bench taskpack_land      # needs node and tests/peers/taskpassport/node_modules
//! ```
//! Each side runs in a process of its own that does nothing else, into a fresh store: specmint's
//! `arrival::land_file` (read and verify the zip, luggage streamed to the store, every check,
//! the new passport written atomically), and node running task-passport's `readZip` +
//! `verifyBag` + `create` + `unpackState` + `checkpoint` + `writeLuggage` (cli.js `land`, whose
//! CLI itself cannot start as published: it imports a missing `outbox.js`). Each reports its own
//! peak RSS (VmHWM; `process.resourceUsage().maxRSS`). Times are medians of five runs, the sides
//! measured in turn in this process, and reported as a ratio. Without `--bench` (`cargo test
//! --all-targets` runs every bench once) it is a smoke run: 100 facts, 2 MiB of luggage.

use std::path::{Path, PathBuf};
use std::process::Command;

use child::{log_lines, report, Side};
use specmint_test_support::child;

use specmint::taskpack::arrival;
use specmint::taskpack::bag;
use specmint::taskpack::json::Json;
use specmint::taskpack::passports::PassportStore;

const RUNS: usize = 5;

/// What a run lands: facts, the big log's size, and how many 1 MiB files beside it.
#[derive(Clone, Copy)]
struct Shape {
    facts: usize,
    log_bytes: usize,
    small_files: usize,
    small_bytes: usize,
}

const FULL: Shape = Shape {
    facts: 10_000,
    log_bytes: 40 << 20,
    small_files: 10,
    small_bytes: 1 << 20,
};

const SMOKE: Shape = Shape {
    facts: 100,
    log_bytes: 1 << 20,
    small_files: 4,
    small_bytes: 256 << 10,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("--make") => {
            let shape = if args[3] == "full" { FULL } else { SMOKE };
            return make(Path::new(&args[2]), shape);
        }
        Some("--land") => return land(Path::new(&args[2]), Path::new(&args[3])),
        _ => {}
    }
    // `cargo bench` passes `--bench`.
    let bench = args.iter().any(|a| a == "--bench");
    let (shape, name, runs) = if bench {
        (FULL, "full", RUNS)
    } else {
        (SMOKE, "smoke", 1)
    };
    let dir = std::env::temp_dir().join(format!("specmint-bench-land-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("work.taskpack");
    let me = std::env::current_exe().unwrap();
    assert!(Command::new(&me)
        .arg("--make")
        .arg(&file)
        .arg(name)
        .status()
        .unwrap()
        .success());
    let luggage = shape.log_bytes + shape.small_files * shape.small_bytes;
    println!(
        "taskpack land: {} facts, {:.1} MiB of luggage in {} files (largest {:.1} MiB), {:.1} MiB zipped",
        shape.facts,
        luggage as f64 / (1 << 20) as f64,
        1 + shape.small_files,
        shape.log_bytes as f64 / (1 << 20) as f64,
        std::fs::metadata(&file).unwrap().len() as f64 / (1 << 20) as f64
    );

    let node = node_side();
    let (mut ours, mut theirs) = (Side::default(), Side::default());
    for run in 0..runs {
        let store = dir.join(format!("ours-{run}"));
        ours.run(Command::new(&me).arg("--land").arg(&file).arg(&store));
        if let Some((node, script)) = &node {
            let store = dir.join(format!("theirs-{run}"));
            theirs.run(Command::new(node).arg(script).arg(&file).arg(&store));
        }
    }
    report(&mut ours, node.is_some().then_some(&mut theirs));
    std::fs::remove_dir_all(&dir).unwrap();
    if let Some((_, script)) = node {
        std::fs::remove_file(script).unwrap();
    }
}

/// Writes the bench pack: a handoff as a conformant writer makes it (machine facts sealed),
/// 10 000 facts of the three scopes, an ask, a landing check, and the luggage.
fn make(file: &Path, shape: Shape) {
    let mut facts = Vec::with_capacity(shape.facts);
    for i in 0..shape.facts {
        let fact = match i % 3 {
            0 => format!(
                r#"{{"claim":"customer requirement {i}: the report lists region {} first","scope":"universal","verified":true}}"#,
                i % 17
            ),
            1 => format!(
                r#"{{"claim":"convention {i}: charts use the 2025 template","scope":"org","verified":true,"source":"张老师"}}"#
            ),
            _ => format!(
                r#"{{"claim":"the renderer at /opt/r/{i} runs","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"mbp-14"}}"#
            ),
        };
        facts.push(fact);
    }
    let passport = Json::parse(&format!(
        r#"{{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "origin":{{"actor":"ds","machine":"mbp-14","harness":"claude-code"}},
            "lineage":{{"root_id":"TP-BNCH-0001","from_version":3,"chain":["TP-BNCH-0001@3"]}},"note":"the quarterly report, half done",
            "passport":{{"spec":"2origin/0.1","kind":"task.origin","id":"TP-BNCH-0001","title":"bench","version":3,
              "goal":"Ship the Q3 report","current_state":"charts half done","facts":[{}],
              "decisions":[],"actions":[],"artifacts":[],"next_steps":["finish the charts"],"learnings":[]}},
            "asks":[{{"id":"a1","to":"peer","what":"which quarter counts as Q3?","why":"","accept":"a date range","status":"open","answer":null}}],
            "landing_checks":[{{"id":"c1","check":"this machine can render PDF","how":"r --version","required":true}}]}}"#,
        facts.join(",")
    ))
    .unwrap();
    let mut luggage = vec![("server.log".to_owned(), log_lines(shape.log_bytes, 1))];
    for i in 0..shape.small_files {
        let bytes = if i % 2 == 0 {
            log_lines(shape.small_bytes, i as u32 + 2)
        } else {
            noise(shape.small_bytes, i as u32 + 2)
        };
        luggage.push((format!("files/part-{i}.bin"), bytes));
    }
    let bag = bag::assemble(&passport, luggage);
    let out = std::fs::File::create(file).unwrap();
    bag::write_zip(std::io::BufWriter::new(out), &bag, "2026-08-16T03:11:04Z").unwrap();
}

fn xorshift(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}

/// Incompressible bytes.
fn noise(bytes: usize, seed: u32) -> Vec<u8> {
    let mut x = 0x85eb_ca6bu32 ^ seed;
    (0..bytes).map(|_| xorshift(&mut x) as u8).collect()
}

/// Lands the pack into a fresh store in this process and prints the peak RSS in KiB (VmHWM).
fn land(file: &Path, store: &Path) {
    let store = PassportStore::open(store).unwrap();
    let landed = arrival::land_file(&store, file, false).unwrap();
    assert_eq!(landed.landing.landing_checks.len(), 1);
    assert!(landed.landing.needs_reverify > 0);
    println!("{}", child::peak_rss_kib());
}

/// `node` and a script landing the pack as task-passport's CLI `land` does, when both are there.
fn node_side() -> Option<(String, PathBuf)> {
    child::node_script("tp-land", |lib| {
        format!(
            "import {{ readFileSync }} from 'node:fs'\n\
             import {{ hostname }} from 'node:os'\n\
             import {{ join }} from 'node:path'\n\
             const {{ readZip, verifyBag, unpackState, writeLuggage }} = await import({bag:?})\n\
             const {{ createPassportClient }} = await import({core:?})\n\
             const {{ createDirectoryPassportProvider }} = await import({store:?})\n\
             const [file, directory] = process.argv.slice(2)\n\
             const client = createPassportClient({{ provider: createDirectoryPassportProvider({{ directory }}), harness: 'bench' }})\n\
             const entries = readZip(readFileSync(file))\n\
             const {{ ok, errors, passport }} = verifyBag(entries)\n\
             if (!ok) throw new Error(errors.join('; '))\n\
             const created = await client.create({{ title: passport.passport?.title || passport.lineage.root_id, goal: passport.passport?.goal || '' }})\n\
             const opened = await client.open(created.passport_id)\n\
             const landed = await writeLuggage(entries, join(directory, `${{created.passport_id}}.files`))\n\
             const state = unpackState(passport, {{ machine: hostname(), localId: created.passport_id, files: landed }})\n\
             await client.checkpoint({{ ...state, version: opened.state_version }}, opened.state_version)\n\
             console.log(process.resourceUsage().maxRSS)\n",
            bag = lib.join("bag.js").display().to_string(),
            core = lib.join("core.js").display().to_string(),
            store = lib.join("store.js").display().to_string(),
        )
    })
}
