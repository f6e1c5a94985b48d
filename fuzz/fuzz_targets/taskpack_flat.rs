#![no_main]
//! The flat-form reader (`.taskpack.json`, `.tpx`) on arbitrary bytes.
//!
//! Asserts: a refusal says what it is; a pack read for use has unique, safe attachment names
//! (the one name rule the zip reader also applies), round-trips through the flat writer to
//! the same pack object and the same attachments, and becomes a bag that verifies clean.

use libfuzzer_sys::fuzz_target;
use specmint::taskpack::{bag, flat};

fuzz_target!(|data: &[u8]| {
    let pack = match flat::read_flat(data) {
        Ok(pack) => pack,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let mut names: Vec<&str> = pack.attachments.iter().map(|a| a.name.as_str()).collect();
    for name in &names {
        assert!(
            !name.is_empty()
                && !name.starts_with('/')
                && !name.contains('\\')
                && !name.split('/').any(|p| p == ".." || p.is_empty()),
            "unsafe attachment name read: {name:?}"
        );
    }
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "duplicate attachment names read");
    let written = flat::write_flat(&pack.passport, &pack.attachments, None).unwrap();
    let again = flat::read_flat(written.as_bytes())
        .unwrap_or_else(|e| panic!("the flat writer's own output is refused: {e}"));
    // Compared as JSON.parse sees them: a repeated key is kept in the tree read (for a strict
    // judge) and written once, its last value at its first place.
    assert_eq!(
        again.passport.to_js_compact(),
        pack.passport.to_js_compact(),
        "the pack object reads back differently"
    );
    assert_eq!(
        again.attachments, pack.attachments,
        "the luggage reads back differently"
    );
    // The bag's Bag-Spec is the pack object's own `spec`, as the reference writes it: a pack
    // naming another format becomes a bag that says so (and that a reader refuses).
    let spec = pack.passport.get("spec");
    if spec.is_none_or(|s| [bag::BAG_SPEC, bag::TASKPACK_SPEC].contains(&s.as_str().unwrap_or("")))
    {
        let problems = bag::verify(&flat::to_bag(&pack));
        assert!(
            problems.is_empty(),
            "a pack read for use makes a bag that does not verify: {problems:?}"
        );
    }
});
