#![no_main]
//! TaskPacket: parse + validate arbitrary bytes; accepted packets round-trip canonically.

use libfuzzer_sys::fuzz_target;
use specmint::task_packet::{TaskPacket, DOCUMENT};

fuzz_target!(|data: &[u8]| specmint_fuzz::document::<TaskPacket>(data, &DOCUMENT));
