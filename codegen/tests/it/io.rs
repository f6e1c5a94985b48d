//! The disk adapters: read_spec_dir, write_if_changed, check_dir, Config.

use std::collections::BTreeMap;
use std::path::PathBuf;

use specmint_codegen::{check_dir, load, read_spec_dir, write_if_changed, Config};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("specmint-codegen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A spec's Markdown: one field table.
const FIELD_TABLE: &str =
    "# A\n\n## Fields of a `doc`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `x` | string | ✔ | X. |\n";

#[test]
fn a_markdown_file_without_sidecar_is_a_diagnostic_not_an_io_error() {
    let dir = temp("nosidecar");
    std::fs::write(dir.join("b.md"), FIELD_TABLE).unwrap();
    std::fs::write(dir.join("a.md"), FIELD_TABLE).unwrap();
    std::fs::write(dir.join("notes.txt"), "x").unwrap();
    // Markdown with no field table and no sidecar is prose, not a spec: left out.
    std::fs::write(
        dir.join("README.md"),
        "# Our specs\n\n| Spec | Owner |\n|---|---|\n| `a` | us |\n",
    )
    .unwrap();
    let sources = read_spec_dir(&dir, "specs").unwrap();
    let names: Vec<_> = sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(sources[0].md_path, "specs/a.md");
    assert_eq!(sources[0].toml_path, "specs/a.toml");
    let d = load(&sources[0]).unwrap_err().to_string();
    assert!(
        d.starts_with("specs/a.md:1:1: error: the sidecar `specs/a.toml` is missing"),
        "{d}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn write_if_changed_and_check_dir() {
    let dir = temp("write");
    let mut files = BTreeMap::new();
    files.insert("rust/a.rs".to_owned(), "// a\n".to_owned());
    files.insert("schema/a.schema.json".to_owned(), "{}\n".to_owned());
    assert_eq!(
        check_dir(&dir, &files),
        ["rust/a.rs", "schema/a.schema.json"]
    );
    write_if_changed(&dir, &files).unwrap();
    assert!(check_dir(&dir, &files).is_empty());
    let mtime = std::fs::metadata(dir.join("rust/a.rs"))
        .unwrap()
        .modified()
        .unwrap();
    write_if_changed(&dir, &files).unwrap();
    assert_eq!(
        std::fs::metadata(dir.join("rust/a.rs"))
            .unwrap()
            .modified()
            .unwrap(),
        mtime
    );
    std::fs::write(dir.join("rust/a.rs"), "// edited\n").unwrap();
    std::fs::write(dir.join("rust/stale.rs"), "").unwrap();
    std::fs::create_dir_all(dir.join("corpus")).unwrap();
    std::fs::write(dir.join("corpus/other.json"), "").unwrap();
    assert_eq!(check_dir(&dir, &files), ["rust/a.rs", "rust/stale.rs"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn config_writes_the_bundled_specs_and_reports_problems() {
    let out = temp("config");
    let spec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    Config::new()
        .spec_dir(&spec)
        .out_dir(&out)
        .run()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.join("rust/task_packet.rs").is_file());
    assert!(out.join("schema/task_packet.schema.json").is_file());

    let bad = temp("config-bad");
    std::fs::write(bad.join("x.md"), FIELD_TABLE).unwrap();
    std::fs::write(bad.join("README.md"), "# About these specs\n").unwrap();
    let err = Config::new()
        .spec_dir(&bad)
        .out_dir(&out)
        .run()
        .unwrap_err()
        .to_string();
    // One diagnostic, once; the README is not a spec.
    let at = bad.display();
    assert_eq!(
        err,
        format!(
            "{at}/x.md:1:1: error: the sidecar `{at}/x.toml` is missing or empty\n  \
             hint: create it next to the Markdown with at least `[spec]` `root = \"<field table>\"`"
        )
    );
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(&bad).unwrap();
}

#[test]
fn config_copies_the_schemas_to_a_stable_directory_when_asked() {
    let out = temp("config-out");
    let schemas = temp("config-schemas").join("schemas");
    let spec = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec");
    Config::new().spec_dir(&spec).out_dir(&out).run().unwrap();
    assert!(!schemas.exists(), "no schema_dir: nothing outside out_dir");
    let with_schema_dir = || {
        Config::new()
            .spec_dir(&spec)
            .out_dir(&out)
            .schema_dir(&schemas)
            .run()
            .unwrap()
    };
    with_schema_dir();
    let mut names: Vec<String> = std::fs::read_dir(&schemas)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "action_envelope.schema.json",
            "task_envelope.schema.json",
            "task_packet.schema.json",
            "taskpack.schema.json",
        ]
    );
    for name in &names {
        assert_eq!(
            std::fs::read(schemas.join(name)).unwrap(),
            std::fs::read(out.join("schema").join(name)).unwrap(),
            "{name}"
        );
    }
    // Unchanged schemas are not rewritten.
    let mtime = |p: &std::path::Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let before = mtime(&schemas.join(&names[0]));
    with_schema_dir();
    assert_eq!(mtime(&schemas.join(&names[0])), before);
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::remove_dir_all(schemas.parent().unwrap()).unwrap();
}

/// A spec directory whose sidecar is `what` (made by `plant` at `<dir>/a.toml`): reading it
/// in a child thread, with the answer awaited for 30 s (a FIFO used to block for ever and
/// `/dev/zero` to be read until memory ran out).
#[cfg(unix)]
fn read_with_planted_sidecar(tag: &str, plant: impl FnOnce(&std::path::Path)) -> String {
    let dir = temp(tag);
    std::fs::write(dir.join("a.md"), FIELD_TABLE).unwrap();
    plant(&dir.join("a.toml"));
    let (tx, rx) = std::sync::mpsc::channel();
    let reading = dir.clone();
    std::thread::spawn(move || {
        let _ = tx.send(read_spec_dir(&reading, "specs").map(|s| s.len()));
    });
    let answer = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("read_spec_dir answers instead of blocking on the sidecar");
    let _ = std::fs::remove_dir_all(&dir);
    answer.expect_err("the sidecar is refused").to_string()
}

#[cfg(unix)]
#[test]
fn a_sidecar_that_is_a_fifo_is_refused_without_blocking() {
    let why = read_with_planted_sidecar("fifo", |toml| {
        let made = std::process::Command::new("mkfifo")
            .arg(toml)
            .status()
            .unwrap();
        assert!(made.success());
    });
    assert_eq!(why, "`specs/a.toml` is a FIFO, not a regular file: refused");
}

#[cfg(unix)]
#[test]
fn a_sidecar_linked_to_dev_zero_is_refused_unread() {
    let why = read_with_planted_sidecar("devzero", |toml| {
        std::os::unix::fs::symlink("/dev/zero", toml).unwrap();
    });
    assert_eq!(
        why,
        "`specs/a.toml` is a character device, not a regular file: refused"
    );
}

#[test]
fn a_sidecar_over_the_cap_is_refused_naming_it() {
    let dir = temp("overcap");
    std::fs::write(dir.join("a.md"), FIELD_TABLE).unwrap();
    let cap = specmint_codegen::MAX_SPEC_FILE_BYTES;
    let file = std::fs::File::create(dir.join("a.toml")).unwrap();
    file.set_len(cap + 1).unwrap();
    let why = read_spec_dir(&dir, "specs").unwrap_err().to_string();
    assert_eq!(
        why,
        format!("`specs/a.toml` is over the {cap} bytes a spec file may hold")
    );
    // At the cap exactly it is read (and then judged as TOML, not refused as too big).
    file.set_len(cap).unwrap();
    assert_eq!(read_spec_dir(&dir, "specs").unwrap().len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A link planted at an output path is replaced by the generated file, not written
/// through: the file it pointed at keeps its bytes.
#[cfg(unix)]
#[test]
fn write_if_changed_replaces_a_planted_link_and_leaves_its_target() {
    let dir = temp("plantedlink");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(out.join("rust")).unwrap();
    std::os::unix::fs::symlink(&victim, out.join("rust/a.rs")).unwrap();
    let mut files = BTreeMap::new();
    files.insert("rust/a.rs".to_owned(), "// a\n".to_owned());
    assert_eq!(check_dir(&out, &files), ["rust/a.rs"]);
    write_if_changed(&out, &files).unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let written = std::fs::symlink_metadata(out.join("rust/a.rs")).unwrap();
    assert!(written.file_type().is_file());
    assert_eq!(
        std::fs::read_to_string(out.join("rust/a.rs")).unwrap(),
        "// a\n"
    );
    // Nothing but the file: no temporary left beside it.
    let names: Vec<_> = std::fs::read_dir(out.join("rust"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["a.rs"]);
    assert!(check_dir(&out, &files).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A directory of the output that is a link is refused, naming it: nothing is written
/// where it points.
#[cfg(unix)]
#[test]
fn write_if_changed_refuses_a_linked_output_directory() {
    let dir = temp("linkeddir");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("rust")).unwrap();
    let mut files = BTreeMap::new();
    files.insert("rust/a.rs".to_owned(), "// a\n".to_owned());
    let why = write_if_changed(&out, &files).unwrap_err().to_string();
    assert_eq!(
        why,
        format!(
            "`{}` is a symbolic link: generated files are not written through links",
            out.join("rust").display()
        )
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert_eq!(check_dir(&out, &files), ["rust", "rust/a.rs"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `check_dir` does not follow links while it walks: two links to `.` in the output are two
/// extra entries, and the walk ends.
#[cfg(unix)]
#[test]
fn check_dir_does_not_follow_links_to_dot() {
    let out = temp("dotlinks");
    let mut files = BTreeMap::new();
    files.insert("rust/a.rs".to_owned(), "// a\n".to_owned());
    write_if_changed(&out, &files).unwrap();
    std::os::unix::fs::symlink(".", out.join("rust/x")).unwrap();
    std::os::unix::fs::symlink(".", out.join("rust/y")).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let walking = out.clone();
    let expected = files.clone();
    std::thread::spawn(move || {
        let _ = tx.send(check_dir(&walking, &expected));
    });
    let drifted = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("check_dir ends");
    assert_eq!(drifted, ["rust/x", "rust/y"]);
    std::fs::remove_dir_all(&out).unwrap();
}
