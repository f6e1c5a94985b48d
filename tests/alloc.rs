//! Validating a valid, already-parsed value allocates nothing (docs/validate.md), counted by
//! a global allocator on every valid benchmark fixture of every bundled spec. Not timed.

use specmint_test_support::contenders as support;
use specmint_test_support::counting;

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

/// A flat pack of 13 MiB (four 1 MiB binary attachments, base64 in the file, and 8 MiB of
/// text) is judged, validated (from its file, and held in memory as a binding holds it), landed
/// and converted with the heap growing by less than 8 MiB: the
/// readers stream its attachments (spec/taskpack.md, *Reading limits*). Holding the text, its
/// tree or the text attachment whole would take 8 MiB or more.
#[test]
fn a_flat_pack_is_read_in_bounded_memory() {
    use specmint::taskpack::{bag::Limits, conformance, convert, flat, json::Json, unpack};

    let dir = std::env::temp_dir().join(format!("specmint-alloc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut attachments: Vec<flat::LuggageFile> = (0..4)
        .map(|i| flat::LuggageFile {
            name: format!("bin/{i}.bin"),
            bytes: (0..1 << 20)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect(),
        })
        .collect();
    attachments.push(flat::LuggageFile {
        name: "notes/long.txt".to_owned(),
        bytes: "a line of notes, \"quoted\", é 中文\n"
            .repeat(8 << 20 >> 5)
            .into_bytes(),
    });
    let passport = Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-12-02T00:00:00Z",
            "origin":{},"lineage":{"root_id":"TP-1","from_version":0,"chain":[]},"note":"",
            "passport":{"id":"TP-1","title":"big"},"asks":[],"landing_checks":[]}"#,
    )
    .unwrap();
    let path = dir.join("big.taskpack.json");
    let text = flat::write_flat(&passport, &attachments, None).unwrap();
    assert!(text.len() > 13 << 20, "{} bytes", text.len());
    std::fs::write(&path, &text).unwrap();
    drop(text);

    let (verdict, judged) =
        counting::peak_growth(|| conformance::judge_path(&path, Limits::default()).unwrap());
    assert!(verdict.failed().is_empty(), "{:?}", verdict.failed());
    let taskpack = specmint::verdict::DocType::find(None, Some("taskpack")).unwrap();
    let limit = taskpack.document().max_input_bytes;
    let (valid, validated) = counting::peak_growth(|| taskpack.judge_path(&path, limit).unwrap());
    assert!(valid.is_valid(), "{}", valid.to_json(None));
    // The bindings hold the pack in memory already: judging it adds no copy of it.
    let held = std::fs::read(&path).unwrap();
    let (valid, in_memory) = counting::peak_growth(|| taskpack.judge_bytes(&held));
    assert!(valid.is_valid(), "{}", valid.to_json(None));
    drop(held);
    let landing = dir.join("landed");
    let (arrived, landed) = counting::peak_growth(|| {
        unpack::read_arriving(&path, &landing, Limits::default()).unwrap()
    });
    assert_eq!(arrived.luggage.len(), attachments.len());
    for a in &attachments {
        assert!(
            std::fs::read(landing.join(&a.name)).unwrap() == a.bytes,
            "{}",
            a.name
        );
    }
    let zip = dir.join("big.taskpack");
    let again = dir.join("again.taskpack.json");
    let (_, zipped) =
        counting::peak_growth(|| convert::convert(&path, &zip, Limits::default(), None).unwrap());
    let (_, flattened) =
        counting::peak_growth(|| convert::convert(&path, &again, Limits::default(), None).unwrap());
    // The streamed writers write what the in-memory ones write.
    let (object, kept) = convert::read_pack(&zip, Limits::default()).unwrap();
    assert_eq!(object, passport);
    assert!(kept == attachments, "the zip holds the attachments");
    assert!(std::fs::read(&again).unwrap() == std::fs::read(&path).unwrap());
    for (what, grew) in [
        ("conformance", judged),
        ("validate", validated),
        ("validate held in memory", in_memory),
        ("land", landed),
        ("convert to zip", zipped),
        ("convert to flat", flattened),
    ] {
        assert!(grew < 6 << 20, "{what}: the heap grew by {grew} bytes");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
