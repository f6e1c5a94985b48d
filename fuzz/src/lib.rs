//! Shared bodies of the fuzz targets, so a target per spec is a few lines.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use specmint_runtime::document::{parse_document, to_canonical_json, DocumentSpec};
use specmint_runtime::Validate;

/// Parse + validate arbitrary bytes as a document of type `T` under `spec`.
///
/// Asserts: every refusal carries at least one violation, each with a non-empty code and
/// an empty path whenever its pointer is empty; an accepted document's canonical JSON is at
/// most the spec's `canonical_growth` longer than the input, and parses back, under the same
/// spec, to an equal value whose canonical JSON is identical.
pub fn document<T>(data: &[u8], spec: &DocumentSpec)
where
    T: DeserializeOwned + Serialize + Validate + PartialEq + Debug,
{
    match parse_document::<T>(data, spec) {
        Ok(value) => {
            let canonical = to_canonical_json(&value);
            // The byte cap is skipped when input + growth is within it: the bound must hold.
            if let Some(growth) = spec.canonical_growth {
                assert!(
                    canonical.len() <= data.len() + growth,
                    "canonical JSON {canonical} is more than {growth} bytes longer than its input"
                );
            }
            let again = parse_document::<T>(canonical.as_bytes(), spec).unwrap_or_else(|report| {
                panic!("canonical JSON {canonical} is refused: {report:?}")
            });
            assert_eq!(
                value, again,
                "canonical JSON {canonical} reads back differently"
            );
            assert_eq!(
                canonical,
                to_canonical_json(&again),
                "canonical JSON is not a fixed point"
            );
        }
        Err(report) => {
            assert!(!report.is_empty(), "a refusal with no violation");
            for v in &report {
                assert!(!v.code.is_empty());
                assert!(!v.message.is_empty());
                // The document itself has the empty pointer and path. (An empty key has the
                // pointer `/` and, in dotted notation, the empty path too.)
                if v.pointer.is_empty() {
                    assert!(v.path.is_empty(), "{v:?}");
                }
            }
        }
    }
}

/// Splits `data` at the first `sep` byte: (before, after); all of `data` and "" if absent.
pub fn split_at_byte(data: &[u8], sep: u8) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == sep) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// A scratch directory for a target that writes files, `specmint-fuzz-<tag>-<pid>`: on
/// /dev/shm when it exists (no disk I/O per run), else the temporary directory. Not created.
pub fn scratch_dir(tag: &str) -> std::path::PathBuf {
    let base = if std::path::Path::new("/dev/shm").is_dir() {
        std::path::PathBuf::from("/dev/shm")
    } else {
        std::env::temp_dir()
    };
    base.join(format!("specmint-fuzz-{tag}-{}", std::process::id()))
}
