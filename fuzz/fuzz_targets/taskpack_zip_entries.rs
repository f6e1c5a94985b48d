#![no_main]
//! The `.taskpack` zip reader, structure-aware: a zip built from fuzzed entries, so the reader
//! gets well-formed archives whose names, sizes and manifests are the fuzzer's.
//!
//! Two shapes, both read and verified:
//! - a bag the encoder assembles (`bag::assemble` + `bag::write_zip`) from a fuzzed pack object
//!   and fuzzed luggage: when every luggage name is one the reader takes, the zip reads back to
//!   the same entries and bytes and verifies clean; else it is refused by name;
//! - a zip of fuzzed entries written as they come (any names, duplicates, tag files with any
//!   text): refused with a reason, or read into a bag whose names are all safe.

use std::io::Cursor;

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use specmint::taskpack::bag::{self, BagError, Ignore, Limits};
use specmint::taskpack::json::Json;

#[derive(Arbitrary, Debug)]
enum Input {
    Assembled {
        passport: String,
        luggage: Vec<(String, Vec<u8>)>,
    },
    Raw(Vec<(String, Vec<u8>)>),
}

const LIMITS: Limits = Limits {
    max_entries: 256,
    max_total_bytes: 64 << 20,
};

fn read(bytes: &[u8]) -> Result<bag::Bag, BagError> {
    bag::read_zip(Cursor::new(bytes), LIMITS, true, &mut Ignore)
}

fn safe(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains(['\\', '\0', '\n', '\r'])
        && !name
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == ".." || (s.len() == 2 && s.ends_with(':')))
}

fuzz_target!(|input: Input| {
    match input {
        Input::Assembled { passport, luggage } => {
            let passport = Json::parse(&passport).unwrap_or(Json::Object(Vec::new()));
            // Safe and distinct, and no name another's folder (`a` beside `a/b`).
            let names_ok = luggage.iter().all(|(n, _)| safe(n))
                && luggage.iter().enumerate().all(|(i, (a, _))| {
                    luggage.iter().skip(i + 1).all(|(b, _)| {
                        a != b
                            && !b.starts_with(&format!("{a}/"))
                            && !a.starts_with(&format!("{b}/"))
                    })
                });
            let built = bag::assemble(&passport, luggage);
            let Ok(cursor) =
                bag::write_zip(Cursor::new(Vec::new()), &built, "2026-01-01T00:00:00Z")
            else {
                return;
            };
            let bytes = cursor.into_inner();
            match read(&bytes) {
                Ok(read) => {
                    let problems = bag::verify(&read);
                    let spec_ok = passport.get("spec").is_none_or(|s| {
                        [bag::BAG_SPEC, bag::TASKPACK_SPEC].contains(&s.as_str().unwrap_or(""))
                    });
                    if names_ok && spec_ok {
                        assert!(
                            problems.is_empty(),
                            "an assembled bag does not verify: {problems:?}"
                        );
                        for entry in &built.entries {
                            let got = read
                                .get(&entry.name)
                                .expect("every written entry reads back");
                            assert_eq!(
                                (got.size, got.sha256),
                                (entry.size, entry.sha256),
                                "{}",
                                entry.name
                            );
                        }
                    }
                }
                Err(e) => {
                    assert!(!names_ok, "a bag of safe, distinct names is refused: {e}");
                    assert!(!e.to_string().is_empty());
                }
            }
        }
        Input::Raw(entries) => {
            let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
            for (name, data) in &entries {
                let options = zip::write::SimpleFileOptions::default()
                    .compression_method(zip::CompressionMethod::Stored);
                if writer.start_file(name.as_str(), options).is_err() {
                    return;
                }
                if std::io::Write::write_all(&mut writer, data).is_err() {
                    return;
                }
            }
            let Ok(cursor) = writer.finish() else {
                return;
            };
            match read(&cursor.into_inner()) {
                Ok(read) => {
                    for entry in &read.entries {
                        let name = entry.name.strip_suffix('/').unwrap_or(&entry.name);
                        assert!(safe(name), "an unsafe name was read: {:?}", entry.name);
                    }
                    for problem in bag::verify(&read) {
                        assert!(!problem.to_string().is_empty());
                    }
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
    }
});
