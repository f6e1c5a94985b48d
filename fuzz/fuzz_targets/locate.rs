#![no_main]
//! `locate` / `locate_key` on arbitrary input and pointer (split at the first NUL byte):
//! never panic, and any position found lies inside the input.

use libfuzzer_sys::fuzz_target;
use specmint_runtime::document::{locate, locate_key};

fuzz_target!(|data: &[u8]| {
    let (pointer, input) = specmint_fuzz::split_at_byte(data, 0);
    let (Ok(pointer), Ok(input)) = (std::str::from_utf8(pointer), std::str::from_utf8(input))
    else {
        return;
    };
    let lines = input.split('\n').count();
    for found in [locate(input, pointer), locate_key(input, pointer)]
        .into_iter()
        .flatten()
    {
        let (line, column) = found;
        assert!(line >= 1 && line <= lines, "{found:?}");
        let text = input.split('\n').nth(line - 1).unwrap();
        assert!(column >= 1 && column <= text.chars().count(), "{found:?}");
    }
    if pointer.is_empty() {
        assert_eq!(locate_key(input, pointer), None);
    }
});
