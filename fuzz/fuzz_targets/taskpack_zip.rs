#![no_main]
//! The `.taskpack` zip reader on arbitrary bytes: `bag::read_zip` (luggage kept, and once more
//! streamed to an observer on its own thread, as conformance reads it), then `bag::verify`.
//!
//! Asserts: both reads agree; a refusal says what it is (non-empty text); a bag read has
//! only safe names (no `..`, no absolute path, no backslash), each luggage entry's bytes are
//! its recorded size, and verifying it never panics.

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use specmint::taskpack::bag::{self, Ignore, Limits, Observer};

/// Counts the bytes the observer sees.
struct Count(u64);

impl Observer for Count {
    fn start(&mut self, _: &str) {}
    fn chunk(&mut self, bytes: &[u8]) {
        self.0 += bytes.len() as u64;
    }
    fn finish(&mut self) {}
}

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_entries: 256,
        max_total_bytes: 64 << 20,
    };
    let kept = bag::read_zip(Cursor::new(data), limits, true, &mut Ignore);
    let mut count = Count(0);
    let streamed = bag::read_zip(Cursor::new(data), limits, false, &mut count);
    match (&kept, &streamed) {
        (Ok(bag), Ok(_)) => {
            let mut luggage = 0;
            for entry in &bag.entries {
                let name = &entry.name;
                assert!(
                    !name.starts_with('/')
                        && !name.contains('\\')
                        && !name.split('/').any(|p| p == ".."),
                    "unsafe name read: {name:?}"
                );
                if entry.is_payload() && entry.luggage_name().is_some() {
                    luggage += entry.size;
                }
            }
            assert_eq!(luggage, count.0, "the observer saw every luggage byte");
            for problem in bag::verify(bag) {
                assert!(!problem.to_string().is_empty());
            }
        }
        (Err(a), Err(b)) => {
            assert!(!a.to_string().is_empty());
            assert_eq!(a.to_string(), b.to_string(), "both reads refuse alike");
        }
        _ => panic!(
            "the two reads disagree: {:?} / {:?}",
            kept.as_ref().err(),
            streamed.as_ref().err()
        ),
    }
});
