//! Hostile `.taskpack` files: each is refused with an error naming the entry, by the library,
//! by `taskpack conformance` (C1, exit 2) and by `taskpack convert` (exit 1, nothing written).

use crate::common;

use std::fs;
use std::io::{Cursor, Write};
use std::path::Path;

use specmint::taskpack::bag::{self, BagError, Limits, MANIFEST};
use specmint::taskpack::json::Json;

/// The entries of a valid bag with one piece of luggage, `data/files/a.txt`.
fn valid_entries() -> Vec<(String, Vec<u8>)> {
    let passport = Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "lineage":{"root_id":"TP-1","from_version":1,"chain":["TP-1@1"]},"passport":{"id":"TP-1","goal":"g"}}"#,
    )
    .unwrap();
    bag::assemble(&passport, vec![("a.txt".to_owned(), b"luggage\n".to_vec())])
        .entries
        .into_iter()
        .map(|e| (e.name, e.bytes.unwrap()))
        .collect()
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in data {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A stored (uncompressed) zip written byte by byte, so that it can say what no zip writer
/// would: duplicate names, names that climb out, symlinks. `mode` is a Unix mode.
fn raw_zip(entries: &[(&str, &[u8], Option<u32>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, mode) in entries {
        let offset = out.len() as u32;
        let crc = crc32(data);
        let mut local = Vec::new();
        local.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        local.extend_from_slice(&20u16.to_le_bytes());
        local.extend_from_slice(&0x0800u16.to_le_bytes()); // UTF-8 names
        local.extend_from_slice(&0u16.to_le_bytes()); // stored
        local.extend_from_slice(&[0; 4]); // time, date
        local.extend_from_slice(&crc.to_le_bytes());
        local.extend_from_slice(&(data.len() as u32).to_le_bytes());
        local.extend_from_slice(&(data.len() as u32).to_le_bytes());
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&local);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&((3u16 << 8) | 20).to_le_bytes()); // made by Unix
        central.extend_from_slice(&local[4..30]);
        central.extend_from_slice(&[0; 4]); // comment length, disk number
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attributes
        central.extend_from_slice(&(mode.unwrap_or(0o100644) << 16).to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let start = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// The valid bag with `extra` entries after it, `edit` applied to its own entries first.
fn hostile(
    edit: impl FnOnce(&mut Vec<(String, Vec<u8>)>),
    extra: &[(&str, &[u8], Option<u32>)],
) -> Vec<u8> {
    let mut entries = valid_entries();
    edit(&mut entries);
    let mut all: Vec<(&str, &[u8], Option<u32>)> = entries
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice(), None))
        .collect();
    all.extend_from_slice(extra);
    raw_zip(&all)
}

fn read(bytes: &[u8], limits: Limits) -> Result<bag::Bag, BagError> {
    bag::read_zip(Cursor::new(bytes), limits, true, &mut bag::Ignore)
}

/// The library's verdict on a hostile zip: a read error, or what `verify` finds.
///
/// With `SPECMINT_FUZZ_SEEDS=DIR` set, each zip judged here is also written into DIR, as a
/// seed of the `.taskpack` fuzz targets (scripts/fuzz_seeds.py sets it).
fn problems(bytes: &[u8]) -> Vec<BagError> {
    if let Some(dir) = std::env::var_os("SPECMINT_FUZZ_SEEDS") {
        use sha2::Digest as _;
        let name = bag::hex(&sha2::Sha256::digest(bytes).into());
        fs::create_dir_all(&dir).unwrap();
        fs::write(Path::new(&dir).join(name), bytes).unwrap();
    }
    match read(bytes, Limits::default()) {
        Err(e) => vec![e],
        Ok(bag) => bag::verify(&bag),
    }
}

/// The CLI refuses `bytes` naming `entry`: conformance fails C1 with exit 2, convert exits 1
/// and writes nothing anywhere.
fn assert_cli_refuses(tag: &str, bytes: &[u8], expected: &str) {
    let dir = common::scratch(&format!("hostile-{tag}"));
    let input = dir.join("hostile.taskpack");
    fs::write(&input, bytes).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    let out = common::specmint_in(
        &dir,
        &["taskpack", "conformance", &path(&input), "--format", "json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{tag}");
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let c1 = verdict["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "C1")
        .unwrap();
    assert_eq!(c1["status"], "fail", "{tag}: {verdict}");
    assert!(
        c1["reason"].as_str().unwrap().contains(expected),
        "{tag}: {}",
        c1["reason"]
    );

    let output = dir.join("out.taskpack.json");
    let out = common::specmint_in(
        &dir,
        &["taskpack", "convert", &path(&input), &path(&output)],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{tag}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(expected), "{tag}: {stderr}");
    let left: Vec<_> = fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("hostile.taskpack")],
        "{tag}: nothing else is written"
    );
    assert!(!dir.parent().unwrap().join("evil.txt").exists());
}

#[test]
fn names_that_climb_out_or_are_absolute_are_refused_by_name() {
    for (tag, name) in [
        ("dotdot", "../evil.txt"),
        ("inner-dotdot", "data/files/../../evil.txt"),
        ("absolute", "/tmp/evil.txt"),
        ("drive", "C:/evil.txt"),
        ("backslash", "data\\files\\..\\..\\evil.txt"),
        // A line break would break the manifest line that lists the name (found by fuzzing).
        ("line-feed", "data/files/a\nb.txt"),
        ("carriage-return", "data/files/a\rb.txt"),
    ] {
        let bytes = hostile(|_| {}, &[(name, b"x", None)]);
        assert_eq!(
            problems(&bytes),
            vec![BagError::UnsafeName {
                entry: name.to_owned()
            }],
            "{tag}"
        );
        assert_cli_refuses(
            tag,
            &bytes,
            &format!("`{name}` is not a safe name inside a bag"),
        );
    }
}

#[test]
fn symlinks_are_refused_by_name() {
    let bytes = hostile(
        |_| {},
        &[("data/files/link", b"/etc/passwd", Some(0o120777))],
    );
    assert_eq!(
        problems(&bytes),
        vec![BagError::Symlink {
            entry: "data/files/link".into()
        }]
    );
    assert_cli_refuses("symlink", &bytes, "`data/files/link` is a symbolic link");
}

#[test]
fn duplicate_entries_are_refused_by_name() {
    let bytes = hostile(|_| {}, &[("data/files/a.txt", b"the other one\n", None)]);
    assert_eq!(
        problems(&bytes),
        vec![BagError::Duplicate {
            entry: "data/files/a.txt".into()
        }]
    );
    assert_cli_refuses(
        "duplicate",
        &bytes,
        "`data/files/a.txt` appears twice in the zip",
    );
}

#[test]
fn a_file_another_entry_uses_as_a_folder_is_refused_naming_both() {
    // No file system holds `a.txt` and `a.txt/b.txt`, so no receiver could land the bag.
    let bytes = hostile(|_| {}, &[("data/files/a.txt/b.txt", b"y", None)]);
    assert_eq!(
        problems(&bytes),
        vec![BagError::FileAndFolder {
            entry: "data/files/a.txt".into(),
            inside: "data/files/a.txt/b.txt".into()
        }]
    );
    assert_cli_refuses(
        "file-and-folder",
        &bytes,
        "`data/files/a.txt` is both a file and a folder (`data/files/a.txt/b.txt` is inside it): no file system holds both",
    );
    // A folder entry of the same name is a folder too; a sibling that only shares a prefix
    // (`a.txt2`, `a.txt.d/x`) is not.
    let bytes = hostile(|_| {}, &[("data/files/a.txt/", b"", None)]);
    assert_eq!(
        problems(&bytes)[0],
        BagError::FileAndFolder {
            entry: "data/files/a.txt".into(),
            inside: "data/files/a.txt/".into()
        }
    );
    let siblings = bag::assemble(
        &Json::parse(r#"{"spec":"task-passport-bag/0.1"}"#).unwrap(),
        vec![
            ("a.txt".to_owned(), b"1".to_vec()),
            ("a.txt2".to_owned(), b"2".to_vec()),
            ("a.txt.d/x".to_owned(), b"3".to_vec()),
        ],
    );
    let mut zip = Cursor::new(Vec::new());
    bag::write_zip(&mut zip, &siblings, "2026-08-16T03:11:04Z").unwrap();
    assert!(read(zip.get_ref(), Limits::default()).is_ok());
}

#[test]
fn a_data_file_the_manifest_does_not_list_is_an_error() {
    let bytes = hostile(
        |_| {},
        &[("data/files/extra.txt", b"nobody vouched for me", None)],
    );
    let found = problems(&bytes);
    assert!(
        found.contains(&BagError::Unmanifested {
            entry: "data/files/extra.txt".into(),
            manifest: MANIFEST
        }),
        "{found:?}"
    );
    assert_cli_refuses(
        "unmanifested",
        &bytes,
        "`data/files/extra.txt` is in the bag but not in manifest-sha256.txt",
    );
}

#[test]
fn a_manifest_line_for_a_missing_file_is_an_error() {
    let bytes = hostile(
        |entries| entries.retain(|(n, _)| n != "data/files/a.txt"),
        &[],
    );
    let found = problems(&bytes);
    assert!(
        found.contains(&BagError::MissingEntry {
            entry: "data/files/a.txt".into(),
            manifest: MANIFEST
        }),
        "{found:?}"
    );
    assert_cli_refuses(
        "missing",
        &bytes,
        "`data/files/a.txt` is listed in manifest-sha256.txt but missing from the bag",
    );
}

#[test]
fn a_wrong_digest_is_an_error() {
    let bytes = hostile(
        |entries| {
            entries
                .iter_mut()
                .filter(|(n, _)| n == "data/files/a.txt")
                .for_each(|(_, b)| *b = b"LUGGAGE\n".to_vec())
        },
        &[],
    );
    assert_eq!(
        problems(&bytes),
        vec![BagError::DigestMismatch {
            entry: "data/files/a.txt".into(),
            manifest: MANIFEST
        }]
    );
    assert_cli_refuses(
        "digest",
        &bytes,
        "`data/files/a.txt` does not match its manifest-sha256.txt digest",
    );
}

#[test]
fn a_truncated_zip_is_an_error() {
    let whole = hostile(|_| {}, &[]);
    let bytes = &whole[..whole.len() / 2];
    assert!(matches!(&problems(bytes)[..], [BagError::NotZip(_)]));
    assert_cli_refuses(
        "truncated",
        bytes,
        "not a readable zip (truncated or corrupt)",
    );
}

/// A deflated zip of `size` zero bytes under `name`, its headers claiming `claimed` bytes.
fn deflated_zeros(name: &str, size: usize, claimed: Option<u32>) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    writer.start_file(name, options).unwrap();
    writer.write_all(&vec![0u8; size]).unwrap();
    let mut bytes = writer.finish().unwrap().into_inner();
    if let Some(claimed) = claimed {
        // The uncompressed size sits at offset 22 of the local header, 24 of the central one.
        let local = 0;
        bytes[local + 22..local + 26].copy_from_slice(&claimed.to_le_bytes());
        let central = bytes
            .windows(4)
            .rposition(|w| w == [0x50, 0x4b, 0x01, 0x02])
            .unwrap();
        bytes[central + 24..central + 28].copy_from_slice(&claimed.to_le_bytes());
    }
    bytes
}

#[test]
fn a_zip_bomb_is_stopped_while_inflating() {
    let limits = Limits {
        max_entries: 100,
        max_total_bytes: 1 << 20,
    };
    // Headers that tell the truth, and headers that claim 100 bytes: the same refusal, because
    // what is counted is what inflates.
    for claimed in [None, Some(100)] {
        let bomb = deflated_zeros("data/files/bomb.bin", 8 << 20, claimed);
        assert!(bomb.len() < 64 << 10, "it is a bomb: {} bytes", bomb.len());
        assert_eq!(
            read(&bomb, limits).unwrap_err(),
            BagError::TooLarge {
                entry: "data/files/bomb.bin".into(),
                limit: 1 << 20
            },
            "{claimed:?}"
        );
    }
    assert!(read(&deflated_zeros("data/files/ok.bin", 1 << 20, None), limits).is_ok());
}

#[test]
fn too_many_entries_are_refused() {
    let names: Vec<String> = (0..10_001).map(|i| format!("data/files/{i}")).collect();
    let entries: Vec<(&str, &[u8], Option<u32>)> =
        names.iter().map(|n| (n.as_str(), &b""[..], None)).collect();
    let bytes = raw_zip(&entries);
    assert_eq!(
        problems(&bytes),
        vec![BagError::TooManyEntries { limit: 10_000 }]
    );
    assert_cli_refuses("entries", &bytes, "the zip has more than 10000 entries");
}

#[test]
fn a_compression_method_other_than_store_or_deflate_is_refused_by_name() {
    let mut bytes = hostile(|_| {}, &[("data/files/b.bz2", b"BZh9", None)]);
    // The method sits at offset 8 of the local header and 10 of the central one: 12 is bzip2.
    let local = bytes
        .windows(4)
        .rposition(|w| w == [0x50, 0x4b, 0x03, 0x04])
        .unwrap();
    bytes[local + 8] = 12;
    let central = bytes
        .windows(4)
        .rposition(|w| w == [0x50, 0x4b, 0x01, 0x02])
        .unwrap();
    bytes[central + 10] = 12;
    let found = problems(&bytes);
    assert!(
        matches!(&found[..], [BagError::Unsupported { entry, .. }] if entry == "data/files/b.bz2"),
        "{found:?}"
    );
    assert_cli_refuses("method", &bytes, "`data/files/b.bz2`: ");
}
