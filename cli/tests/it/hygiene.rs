//! The committed generated Rust of every bundled spec compiles on its own (it is the snapshot,
//! not OUT_DIR's copy) inside a module that shadows the prelude names generated code must not
//! rely on, and the shadowed copy gives every corpus case its stated verdict.
#![deny(warnings)]

use crate::common;

use serde_json::Value;
use specmint::Report;

/// A module named `$module` holding `generated/rust/$module.rs` beside structs and modules
/// named like the prelude items, `core`, `std` and `serde`.
macro_rules! shadowed {
    ($($module:ident),* $(,)?) => {$(
        #[allow(dead_code, non_camel_case_types)]
        pub mod $module {
            struct Result;
            struct Option;
            struct String;
            struct Vec;
            struct Box;
            struct Some;
            struct None;
            struct Ok;
            struct Err;
            mod serde {}
            mod core {}
            mod std {}

            // Included right here, so the shadowing names above are in scope for the
            // generated items.
            include!(concat!("../../../generated/rust/", stringify!($module), ".rs"));
        }
    )*};
}

shadowed!(action_envelope, task_envelope, task_packet, taskpack);

/// Every case of `generated/corpus/<spec>/cases.json` through `parse`: (code, path) pairs
/// sorted, as the corpus states them; returns how many cases were checked.
fn agrees_with_corpus<T>(spec: &str, parse: fn(&[u8]) -> Result<T, Report>) -> usize {
    let path = common::root()
        .join(specmint::GENERATED_DIR)
        .join("corpus")
        .join(spec)
        .join("cases.json");
    let corpus: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let pairs = |v: Vec<(&str, &str)>| {
        let mut v: Vec<(String, String)> = v
            .into_iter()
            .map(|(c, p)| (c.to_owned(), p.to_owned()))
            .collect();
        v.sort();
        v
    };
    let cases = corpus["cases"].as_array().unwrap();
    for case in cases {
        let want = pairs(
            case["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| (e["code"].as_str().unwrap(), e["path"].as_str().unwrap()))
                .collect(),
        );
        let input = serde_json::to_vec(&case["document"]).unwrap();
        let got = match parse(&input) {
            Ok(_) => vec![],
            Err(report) => pairs(report.iter().map(|v| (&*v.code, v.path.as_str())).collect()),
        };
        assert_eq!(got, want, "{spec} {}", case["id"]);
    }
    cases.len()
}

#[test]
fn every_snapshot_works_under_shadowed_names() {
    let checked = [
        agrees_with_corpus(
            "action_envelope",
            action_envelope::ActionEnvelope::from_json_slice,
        ),
        agrees_with_corpus(
            "task_envelope",
            task_envelope::TaskEnvelope::from_json_slice,
        ),
        agrees_with_corpus("task_packet", task_packet::TaskPacket::from_json_slice),
        agrees_with_corpus("taskpack", taskpack::FlatTaskPack::from_json_slice),
    ];
    assert!(checked.iter().all(|&n| n > 50), "{checked:?}");
}
