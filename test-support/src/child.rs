//! For benches that run each contender in a process of its own (so its peak RSS is its work's):
//! the child reports its peak RSS on stdout, the parent times it. Each bench uses what it needs.

use std::process::Command;
use std::time::{Duration, Instant};

/// This process's peak resident set so far, in KiB (`VmHWM`, Linux).
pub fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap()
}

/// Runs a child; its wall time and the peak RSS in KiB it printed.
pub fn timed(command: &mut Command) -> (Duration, u64) {
    let start = Instant::now();
    let out = command.output().unwrap();
    let elapsed = start.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rss = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    (elapsed, rss)
}

/// The median of `times`.
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// One side's runs: their times and the highest peak RSS any of them reported.
#[derive(Default)]
pub struct Side {
    /// Wall time of each run.
    pub times: Vec<Duration>,
    /// The highest peak RSS, KiB.
    pub rss: u64,
}

impl Side {
    /// Runs the child once more (see [`timed`]).
    pub fn run(&mut self, command: &mut Command) {
        let (time, rss) = timed(command);
        self.times.push(time);
        self.rss = self.rss.max(rss);
    }
}

/// Prints each side's median and peak RSS and specmint's ratios; `theirs` is `None` when the
/// reference could not be run.
pub fn report(ours: &mut Side, theirs: Option<&mut Side>) {
    let mine = median(&mut ours.times);
    println!(
        "  specmint      median {:>8.3} s   peak RSS {:>6.1} MiB",
        mine.as_secs_f64(),
        ours.rss as f64 / 1024.0
    );
    let Some(theirs) = theirs else {
        println!("  task-passport: not measured (needs node and tests/peers/taskpassport/node_modules; run ./test.sh once)");
        return;
    };
    let other = median(&mut theirs.times);
    println!(
        "  task-passport median {:>8.3} s   peak RSS {:>6.1} MiB",
        other.as_secs_f64(),
        theirs.rss as f64 / 1024.0
    );
    println!(
        "  specmint is {:.2}x as fast, with {:.1}% of the memory",
        other.as_secs_f64() / mine.as_secs_f64(),
        100.0 * ours.rss as f64 / theirs.rss as f64
    );
}

/// `bytes` of log-like text lines (a timestamp, a worker, an item, a duration), the same for the
/// same `seed`: what a realistic attachment compresses like.
pub fn log_lines(bytes: usize, seed: u32) -> Vec<u8> {
    let mut data = Vec::with_capacity(bytes + 128);
    let mut x = 0x9e37_79b9u32 ^ seed;
    while data.len() < bytes {
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
    data.truncate(bytes);
    data
}

/// `node` and a script for the reference's side, written to a temporary file from what `body`
/// makes of the installed task-passport's folder; `None` when node or the package (which
/// `./test.sh` installs under tests/peers/taskpassport/) is missing.
pub fn node_script(
    name: &str,
    body: impl FnOnce(&std::path::Path) -> String,
) -> Option<(String, std::path::PathBuf)> {
    let lib = crate::repository_root().join("tests/peers/taskpassport/node_modules/task-passport");
    if !lib.exists() || Command::new("node").arg("--version").output().is_err() {
        return None;
    }
    let script =
        std::env::temp_dir().join(format!("specmint-bench-{name}-{}.mjs", std::process::id()));
    std::fs::write(&script, body(&lib)).unwrap();
    Some(("node".to_owned(), script))
}
