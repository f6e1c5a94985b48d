//! Validating a valid, already-parsed value allocates nothing (docs/validate.md), counted by
//! a global allocator on every valid benchmark fixture of every bundled spec. Not timed.

#[allow(dead_code)]
#[path = "../benches/support/counting.rs"]
mod counting;
#[path = "../benches/support/mod.rs"]
mod support;

#[global_allocator]
static ALLOC: counting::Counting = counting::Counting;

#[test]
fn validate_allocates_nothing_on_valid_input() {
    let mut checked = 0;
    for spec in support::specs() {
        let specmint = spec
            .contenders
            .iter()
            .find(|c| c.name == "specmint")
            .expect("every spec has the specmint contender");
        let prepare = specmint.validate_only.as_ref().unwrap();
        for fixture in spec.fixtures.iter().filter(|f| f.valid) {
            let run = prepare(&fixture.bytes);
            // One call first: rules may build a static on first use (a compiled pattern in a
            // `OnceLock`); the guarantee is about every call after that.
            run();
            let (valid, allocs) = counting::count(run);
            assert!(valid, "{}/{} is valid", spec.spec, fixture.name);
            assert_eq!(
                allocs, 0,
                "{}/{}: validate allocated {allocs} times",
                spec.spec, fixture.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} fixtures checked");
}

#[test]
fn the_counter_counts() {
    let (v, allocs) = counting::count(|| vec![1u8; 16]);
    assert_eq!(v.len(), 16);
    assert_eq!(allocs, 1);
}
