//! Misuse of `#[derive(Validate)]` is a compile error pointing at the offending token.
//! Regenerate the expected output with `TRYBUILD=overwrite`, then read every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
