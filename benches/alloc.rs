//! Allocations per call, counted by a global allocator: bytes → verdict and validate-only,
//! for every spec, fixture and contender of `support::specs()`. Prints one JSON line per
//! measurement (`scripts/bench.sh` collects them). Not timed.
//!
//! The zero-allocation guarantee itself is a test: `tests/alloc.rs`.

use specmint_test_support::contenders as support;
use specmint_test_support::counting;

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

fn main() {
    // `cargo bench` passes `--bench`; nothing here is filtered.
    for spec in support::specs() {
        spec.assert_verdicts();
        for fixture in &spec.fixtures {
            for contender in &spec.contenders {
                // Warm once (lazy statics, thread-locals), then count one call.
                (contender.check)(&fixture.bytes);
                let (_, verdict_allocs) = counting::count(|| (contender.check)(&fixture.bytes));
                let validate_allocs = contender.validate_only.as_ref().map(|prepare| {
                    let run = prepare(&fixture.bytes);
                    run();
                    counting::count(run).1
                });
                println!(
                    "{}",
                    serde_json::json!({
                        "spec": spec.spec,
                        "fixture": fixture.name,
                        "contender": contender.name,
                        "verdict_allocs": verdict_allocs,
                        "validate_only_allocs": validate_allocs,
                    })
                );
            }
        }
    }
}
