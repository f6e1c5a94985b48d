//! The compact-JSON byte cap.

use crate::path::Path;
use crate::report::{Report, Violation};

use super::n;

/// Size of the compact `serde_json` serialization of `value`, measured without allocating.
/// `None` when `value` fails to serialize.
pub fn json_bytes<T: serde::Serialize + ?Sized>(value: &T) -> Option<u64> {
    // Computed without running serde_json's per-byte escape loop; the same number.
    crate::json_size::compact_len(value).ok()
}

/// The compact JSON serialization of `value` must be at most `max` bytes. A value that fails
/// to serialize is not measured (serialization will report it), nor is one the report
/// already knows to be short enough ([`Report::assume_json_bytes_at_most`]).
///
/// Message at the root: `the document is 17020 bytes as compact JSON (max 16384)`;
/// elsewhere: `` `x` is 17020 bytes as compact JSON (max 16384) ``.
pub fn max_json_bytes<T: serde::Serialize + ?Sized>(
    value: &T,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) {
    if report.json_bytes_within(max) {
        return;
    }
    if let Some(bytes) = json_bytes(value) {
        max_json_bytes_len(bytes, path, max, code, report);
    }
}

/// The core of [`max_json_bytes`], on the measured length.
fn max_json_bytes_len(bytes: u64, path: &Path<'_>, max: usize, code: &str, report: &mut Report) {
    if bytes > n(max) {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                if path.is_root() {
                    format!("the document is {bytes} bytes as compact JSON (max {max})")
                } else {
                    message!(at, "`{at}` is {bytes} bytes as compact JSON (max {max})")
                }
            })
            .with_numbers(bytes, n(max))
        });
    }
}
