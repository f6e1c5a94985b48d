//! For benches that run each contender in a process of its own (so its peak RSS is its work's):
//! the child reports its peak RSS on stdout, the parent times it.

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
