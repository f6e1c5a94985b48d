//! Drift: the committed `generated/` is what the specs generate, `specmint generate --check`
//! says so by its exit status, and a change to a spec table flows to the constant, the
//! validator and the schema with no other edit.
//!
//! To refresh the snapshot: `cargo run -- generate` (or `SPECMINT_OVERWRITE=1 cargo test --test it drift::`).

use crate::common;

use std::path::{Path, PathBuf};

use common::{root, specmint, specmint_in};

fn generate_bundled() -> std::collections::BTreeMap<String, String> {
    let sources =
        specmint_codegen::read_spec_dir(&root().join(specmint::SPEC_DIR), specmint::SPEC_DIR)
            .unwrap();
    specmint_codegen::generate(&sources, &specmint::bundle_options())
        .unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn committed_snapshot_is_up_to_date() {
    let files = generate_bundled();
    let out = root().join(specmint::GENERATED_DIR);
    if std::env::var_os("SPECMINT_OVERWRITE").is_some_and(|v| v == "1") {
        specmint_codegen::write_if_changed(&out, &files).unwrap();
        return;
    }
    let drifted = specmint_codegen::check_dir(&out, &files);
    assert!(
        drifted.is_empty(),
        "generated/ is stale in {drifted:?}: run `cargo run -- generate` (or SPECMINT_OVERWRITE=1 cargo test --test it drift::)"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if ["target", ".git", ".venv", "node_modules", "fuzz"]
            .iter()
            .any(|skip| name == *skip)
        {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("specmint-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn generate_check_exits_1_on_drift_and_names_the_file() {
    let dir = temp_dir("check");
    copy_dir(&root().join("generated"), &dir.join("generated"));
    copy_dir(&root().join("spec"), &dir.join("spec"));
    let check = |d: &Path| specmint_in(d, &["generate", "--check"], b"");
    assert_eq!(check(&dir).status.code(), Some(0));

    let schema = dir.join("generated/schema/task_packet.schema.json");
    let text = std::fs::read_to_string(&schema).unwrap();
    std::fs::write(&schema, text.replacen("200", "201", 1)).unwrap();
    let out = check(&dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("task_packet.schema.json: out of date"));

    let out = specmint_in(&dir, &["generate"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&schema).unwrap(), text);
    assert_eq!(check(&dir).status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn generate_reports_spec_mistakes_with_file_line_col() {
    let dir = temp_dir("mistake");
    copy_dir(&root().join("spec"), &dir.join("spec"));
    let md = dir.join("spec/task_packet.md");
    let text = std::fs::read_to_string(&md).unwrap();
    std::fs::write(
        &md,
        text.replace(
            "| 200 chars | CONSTRAINT_TEXT_MAX_CHARS |",
            "| 200 | CONSTRAINT_TEXT_MAX_CHARS |",
        ),
    )
    .unwrap();
    let out = specmint_in(&dir, &["generate", "--out", "out"], b"");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = text
        .lines()
        .position(|l| l.contains("CONSTRAINT_TEXT_MAX_CHARS"))
        .unwrap()
        + 1;
    assert!(
        stderr.contains(&format!("spec/task_packet.md:{line}:")),
        "{stderr}"
    );
    assert!(stderr.contains("hint:"), "{stderr}");
    assert!(
        !dir.join("out").exists(),
        "nothing is written when the spec is wrong"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn one_cap_edit_in_the_markdown_changes_constant_validator_and_schema() {
    let dir = temp_dir("cap-edit");
    copy_dir(&root(), &dir);
    let md = dir.join("spec/task_packet.md");
    let text = std::fs::read_to_string(&md).unwrap();
    let row = "| `constraints[].text` | 200 chars | CONSTRAINT_TEXT_MAX_CHARS |";
    assert!(text.contains(row));
    std::fs::write(&md, text.replace(row, &row.replace("200", "150"))).unwrap();

    // The one edit, then the project's own commands, in the copy.
    let cargo = |args: &[&str]| common::scratch_cargo(&dir).args(args).output().unwrap();
    let out = cargo(&["run", "--quiet", "--offline", "--", "generate"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let rust = std::fs::read_to_string(dir.join("generated/rust/task_packet.rs")).unwrap();
    assert!(rust.contains("pub const CONSTRAINT_TEXT_MAX_CHARS: usize = 150;"));
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("generated/schema/task_packet.schema.json")).unwrap(),
    )
    .unwrap();
    let text_max = schema.pointer("/$defs/constraint/properties/text/maxLength");
    assert_eq!(text_max, Some(&serde_json::json!(150)));

    // The validator follows: 151 chars pass here and fail in the edited copy.
    let input = common::packet_with(&common::constraints(1, 0, &"é".repeat(151)));
    assert_eq!(
        specmint(&["validate", "task-packet", "-"], input.as_bytes())
            .status
            .code(),
        Some(0)
    );
    let mut child = common::scratch_cargo(&dir)
        .args([
            "run",
            "--quiet",
            "--offline",
            "--",
            "validate",
            "task-packet",
            "-",
            "--format",
            "json",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["errors"][0]["code"], "field_too_long");
    assert_eq!(verdict["errors"][0]["path"], "constraints[0].text");
    assert_eq!(
        verdict["errors"][0]["message"],
        "`constraints[0].text` is 151 chars (max 150)"
    );

    // Nothing but the spec was edited: the only differences from the committed snapshot are the cap.
    let committed = std::fs::read_to_string(root().join("generated/rust/task_packet.rs")).unwrap();
    assert!(!committed.contains("150"));
    assert_eq!(rust.replace("150", "200"), committed);
    std::fs::remove_dir_all(&dir).unwrap();
}
