//! Instructions per call, counted by callgrind: bytes → verdict and validate-only for every
//! spec, fixture and contender of `support::specs()`, in one process run.
//!
//! Wall-clock times on a shared 2-core machine move by up to 2× between runs; instruction
//! counts do not. `scripts/bench.sh` runs this binary under
//! `valgrind --tool=callgrind --toggle-collect='*measured*' --dump-after='*measured*'`, so
//! each call of [`measured`] becomes one callgrind dump holding only what that call ran. The
//! binary prints one JSON line per call, in the same order, naming what it measured;
//! `benches/report.py` joins the two. Run without valgrind it only prints the lines.

use specmint_test_support::contenders as support;

/// One measured step: bytes → verdict, or validate-only on a parsed value.
type Step<'a> = Box<dyn Fn() -> bool + 'a>;

/// Iterations per measurement: enough that the per-call count is stable.
const ITERS: u32 = 50;

/// Runs `f` `ITERS` times. The only function whose instructions callgrind collects.
#[inline(never)]
fn measured(f: &dyn Fn() -> bool) -> u32 {
    let mut valid = 0;
    for _ in 0..ITERS {
        valid += u32::from(std::hint::black_box(f()));
    }
    valid
}

fn main() {
    // `cargo bench` passes `--bench`; an optional substring filters the ids.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    for spec in support::specs() {
        spec.assert_verdicts();
        for fixture in &spec.fixtures {
            for contender in &spec.contenders {
                let mut steps: Vec<(&str, Step)> = vec![(
                    "verdict",
                    Box::new(|| (contender.check)(std::hint::black_box(&fixture.bytes))),
                )];
                if let Some(prepare) = &contender.validate_only {
                    steps.push(("validate_only", prepare(&fixture.bytes)));
                }
                for (step, f) in steps {
                    let id = format!("{step}/{}/{}/{}", spec.spec, fixture.name, contender.name);
                    if filter.as_deref().is_some_and(|f| !id.contains(f)) {
                        continue;
                    }
                    // Warm once outside the measurement (lazy statics, thread-locals).
                    f();
                    measured(&*f);
                    println!(
                        "{}",
                        serde_json::json!({
                            "step": step,
                            "spec": spec.spec,
                            "fixture": fixture.name,
                            "contender": contender.name,
                            "iters": ITERS,
                        })
                    );
                }
            }
        }
    }
}
