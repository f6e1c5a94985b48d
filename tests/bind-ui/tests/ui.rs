//! Binding is enforced by the type system: only `bind` makes a `BoundTaskEnvelope`, and an
//! unbound `TaskEnvelope` does not compile where a bound one is required. Regenerate the
//! expected output with `TRYBUILD=overwrite`, then read every `.stderr`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
}
