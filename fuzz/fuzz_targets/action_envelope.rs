#![no_main]
//! ActionEnvelope: parse + validate arbitrary bytes (for the Action Envelope this includes prose
//! extraction); accepted documents round-trip canonically.

use libfuzzer_sys::fuzz_target;
use specmint::action_envelope::{ActionEnvelope, DOCUMENT};

fuzz_target!(|data: &[u8]| specmint_fuzz::document::<ActionEnvelope>(data, &DOCUMENT));
