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
