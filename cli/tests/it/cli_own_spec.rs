//! The CLI on a spec of the user's own (`--spec DIR`, no Rust compiled), several files per
//! run, `--version`, per-command `--help`, usage text only for usage errors, JSON error
//! objects, and the `generate --check` hint. Outputs are asserted exactly.

use crate::common;

use std::path::PathBuf;

use common::{specmint, specmint_in};

const SPEC: &str = "tests/fixtures/own_spec";
const BAD: &str = r#"{"id":"nope","kind":"created","summary":" ","tags":["a","a"]}"#;
const GOOD: &str = r#"{"id":"evt_1","kind":"created","summary":"ok"}"#;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory under the target dir holding `files`.
fn scratch(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, contents) in files {
        std::fs::write(dir.join(file), contents).unwrap();
    }
    dir
}

#[test]
fn validate_judges_several_files_of_an_own_spec_in_order_and_exits_with_the_worst() {
    let dir = scratch("own_spec_files", &[("good.json", GOOD), ("bad.json", BAD)]);
    let (good, bad) = (dir.join("good.json"), dir.join("bad.json"));
    let missing = dir.join("missing.json");
    let (good, bad, missing) = (
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let out = specmint(
        &["validate", "--spec", SPEC, "webhook-event", good, bad],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{good}: valid webhook-event\n\
             {bad}:1:7: error[bad_id]: `id` `nope` does not match `^evt_[a-z0-9]+$`\n\
             {bad}:1:41: error[blank_field]: `summary` must not be blank\n\
             {bad}:1:57: error[duplicate_tag]: `tags[1]` `a` repeats `tags[0]`\n\
             {bad}: invalid webhook-event (3 errors)\n"
        )
    );
    assert_eq!(text(&out.stderr), "");

    let out = specmint(
        &[
            "validate",
            "--spec",
            SPEC,
            "webhook-event",
            missing,
            good,
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let io = format!("cannot read `{missing}`: No such file or directory (os error 2)");
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        lines,
        vec![
            serde_json::json!({
                "file": missing,
                "type": "webhook-event",
                "error": {"kind": "io", "message": io},
            }),
            serde_json::json!({"valid": true, "type": "webhook-event", "file": good, "errors": []}),
        ]
    );
    // An I/O failure is not a usage error: no usage text.
    assert_eq!(text(&out.stderr), "");

    let out = specmint(&["validate", "--spec", SPEC, "webhook-event", missing], b"");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stderr), format!("specmint: {io}\n"));
}

#[test]
fn an_own_spec_reads_stdin_and_reports_shape_errors_as_serde_words_them() {
    let out = specmint(
        &[
            "validate",
            "--spec",
            SPEC,
            "webhook-event",
            "-",
            "--format",
            "json",
        ],
        br#"{"id":"evt_1","kind":"moved","summary":"x"}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        verdict,
        serde_json::json!({
            "valid": false,
            "type": "webhook-event",
            "file": "<stdin>",
            "errors": [{
                "code": "bad_event",
                "path": "kind",
                "pointer": "/kind",
                "message": "unknown variant `moved`, expected `created` or `deleted` at line 1 column 28",
                "line": 1,
                "column": 28,
            }],
        })
    );
}

/// The acceptance crate's spec runs the branch's rules under `--spec` (its corpus holds the
/// interpreter to the compiled validator case by case; this is the command end to end).
const ACCEPTANCE: &str = "tests/acceptance/spec";

#[test]
fn an_own_spec_runs_ranges_minimums_formats_conditions_and_state_fields() {
    let event = |extra: &str| {
        format!(
            r#"{{"id":"evt_8f3kQ2pX","type":"order.paid","endpoint":"https://a.io","attempt":1,"payload_bytes":1,"headers":[{{"name":"A","value":"b"}}],"sent_at":"2024-05-01T09:30:00Z"{extra}}}"#
        )
    };
    let bad = event(
        r#","priority":-6,"history":["pending","failed","pending"],"contacts":["ops"],"retry":true"#,
    );
    let out = specmint(
        &["validate", "--spec", ACCEPTANCE, "webhook-event", "-"],
        bad.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:1:179: error[out_of_range]: `priority` is -6 (min -5)\n\
         <stdin>:1:212: error[duplicate_state]: `history[2]` `pending` repeats `history[0]`\n\
         <stdin>:1:235: error[bad_format]: `contacts[0]` `ops` is not a valid email\n\
         <stdin>:1:1: error[missing_field]: `retry_after` is required when `retry` is `true`\n\
         <stdin>: invalid webhook-event (4 errors)\n"
    );
    // `int32` and a states-typed field are read as serde reads the generated types.
    for (extra, error) in [
        (
            r#","priority":2147483648"#,
            "error[invalid_event]: invalid value: integer `2147483648`, expected i32",
        ),
        (
            r#","delivery":"lost""#,
            "error[invalid_event]: unknown variant `lost`, expected one of `pending`, `delivered`, `failed`",
        ),
    ] {
        let out = specmint(
            &["validate", "--spec", ACCEPTANCE, "webhook-event", "-"],
            event(extra).as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stdout).contains(error), "{}", text(&out.stdout));
    }
}

/// A key that cannot be a Rust identifier even raw (`self`, a HAL or JSON:API link) is a
/// field of the spec: read, checked and named by its key (the acceptance crate compiles the
/// same spec, whose Rust field is `self_`).
#[test]
fn a_self_link_is_a_field_named_by_its_key() {
    let event = |link: &str| {
        format!(
            r#"{{"id":"evt_8f3kQ2pX","type":"order.paid","endpoint":"https://a.io","attempt":1,"payload_bytes":1,"headers":[{{"name":"A","value":"b"}}],"sent_at":"2024-05-01T09:30:00Z","self":{link}}}"#
        )
    };
    let out = specmint(
        &["validate", "--spec", ACCEPTANCE, "webhook-event", "-"],
        event(r#""https://a.io/events/1""#).as_bytes(),
    );
    assert_eq!(
        (out.status.code(), text(&out.stdout).as_str()),
        (Some(0), "<stdin>: valid webhook-event\n")
    );
    let out = specmint(
        &["validate", "--spec", ACCEPTANCE, "webhook-event", "-"],
        event(r#""not a link""#).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:1:175: error[bad_format]: `self` `not a link` is not a valid uri\n\
         <stdin>: invalid webhook-event (1 error)\n"
    );
}

/// A scratch directory holding a copy of the own spec under `spec/`.
fn project_with_own_spec(name: &str) -> PathBuf {
    let dir = scratch(name, &[]);
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    for file in ["webhook_event.md", "webhook_event.toml"] {
        std::fs::copy(
            super::common::root().join(SPEC).join(file),
            dir.join("spec").join(file),
        )
        .unwrap();
    }
    dir
}

#[test]
fn schema_of_an_own_spec_is_what_generate_writes() {
    let project = project_with_own_spec("own_spec_generated");
    let out = specmint_in(
        &project,
        &["schema", "--spec", "spec", "webhook-event"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let gen = specmint_in(
        &project,
        &["generate", "--spec", "spec", "--out", "out"],
        b"",
    );
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    let written =
        std::fs::read_to_string(project.join("out/schema/webhook_event.schema.json")).unwrap();
    // The same schema; each `@generated` note names the command that refreshes it.
    let note = |command: &str| {
        format!(
            "\"$comment\": \"@generated by specmint from spec/webhook_event.md; do not edit, run `{command}`\""
        )
    };
    let printed_note = note("specmint schema --spec spec webhook-event");
    // `spec` is the default spec directory, so the command does not repeat it.
    let written_note = note("specmint generate --out out");
    assert!(
        text(&out.stdout).contains(&printed_note),
        "{}",
        text(&out.stdout)
    );
    assert!(written.contains(&written_note), "{written}");
    assert_eq!(
        text(&out.stdout).replace(&printed_note, &written_note),
        written
    );
    // The Rust file's note names the same command.
    let rust = std::fs::read_to_string(project.join("out/rust/webhook_event.rs")).unwrap();
    assert!(
        rust.starts_with(
            "// @generated by specmint from spec/webhook_event.md; do not edit, run \
             `specmint generate --out out`\n"
        ),
        "{}",
        rust.lines().next().unwrap_or_default()
    );
}

/// Issue 46: `schema --spec DIR` names DIR as seen from the current directory, so an absolute
/// path (what a binding is usually handed) prints the same `$comment` as the relative one, and
/// from elsewhere the note still names the directory that holds the spec.
#[test]
fn schema_names_the_spec_directory_as_seen_from_the_current_directory() {
    let project = project_with_own_spec("own_spec_schema_note");
    let note = |dir: &str| {
        format!(
            "\"$comment\": \"@generated by specmint from {dir}/webhook_event.md; do not edit, run `specmint schema --spec {dir} webhook-event`\""
        )
    };
    let relative = specmint_in(
        &project,
        &["schema", "--spec", "spec", "webhook-event"],
        b"",
    );
    assert_eq!(
        relative.status.code(),
        Some(0),
        "{}",
        text(&relative.stderr)
    );
    assert!(
        text(&relative.stdout).contains(&note("spec")),
        "{}",
        text(&relative.stdout)
    );
    let absolute_dir = project.join("spec");
    let absolute = specmint_in(
        &project,
        &[
            "schema",
            "--spec",
            absolute_dir.to_str().unwrap(),
            "webhook-event",
        ],
        b"",
    );
    assert_eq!(
        absolute.status.code(),
        Some(0),
        "{}",
        text(&absolute.stderr)
    );
    assert_eq!(text(&absolute.stdout), text(&relative.stdout));
    let from_spec = specmint_in(
        &absolute_dir,
        &["schema", "--spec", "./", "webhook-event"],
        b"",
    );
    assert!(
        text(&from_spec.stdout).contains(&note(".")),
        "{}",
        text(&from_spec.stdout)
    );
    let nested = project.join("nested");
    std::fs::create_dir_all(&nested).unwrap();
    let from_below = specmint_in(
        &nested,
        &[
            "schema",
            "--spec",
            absolute_dir.to_str().unwrap(),
            "webhook-event",
        ],
        b"",
    );
    assert!(
        text(&from_below.stdout).contains(&note("../spec")),
        "{}",
        text(&from_below.stdout)
    );
}

/// Issue 23, item 8: generated files name the spec and output directories as seen from the
/// output directory's parent, so `generate --check` does not depend on how the paths were
/// typed or where it runs (a CI job checking with absolute paths from elsewhere).
#[test]
fn generate_check_gives_the_same_answer_from_any_directory() {
    let project = project_with_own_spec("own_spec_check_anywhere");
    let gen = specmint_in(
        &project,
        &["generate", "--spec", "spec", "--out", "out"],
        b"",
    );
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    let real = std::fs::canonicalize(&project).unwrap();
    let abs_spec = real.join("spec");
    let abs_out = real.join("out");
    let (abs_spec, abs_out) = (abs_spec.to_str().unwrap(), abs_out.to_str().unwrap());
    let below = project.join("spec");
    let typings: [(&std::path::Path, [&str; 2]); 4] = [
        (&project, ["spec", "out"]),
        (&project, ["./spec/", "out/."]),
        (std::path::Path::new("/"), [abs_spec, abs_out]),
        (&below, ["../spec", "../out"]),
    ];
    for (cwd, [spec, out]) in typings {
        let check = specmint_in(
            cwd,
            &["generate", "--spec", spec, "--out", out, "--check"],
            b"",
        );
        assert_eq!(
            (check.status.code(), text(&check.stdout)),
            (Some(0), format!("{out}: up to date (3 files)\n")),
            "from {}: --spec {spec} --out {out}: {}",
            cwd.display(),
            text(&check.stderr)
        );
    }
    // Written from elsewhere with absolute paths, the files are byte for byte the same.
    let before = std::fs::read(project.join("out/rust/webhook_event.rs")).unwrap();
    std::fs::remove_dir_all(project.join("out")).unwrap();
    let again = specmint_in(
        std::path::Path::new("/"),
        &["generate", "--spec", abs_spec, "--out", abs_out],
        b"",
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(
        std::fs::read(project.join("out/rust/webhook_event.rs")).unwrap(),
        before
    );
    // A real difference is still one.
    std::fs::write(project.join("out/schema/webhook_event.schema.json"), "{}").unwrap();
    let check = specmint_in(
        std::path::Path::new("/"),
        &["generate", "--spec", abs_spec, "--out", abs_out, "--check"],
        b"",
    );
    assert_eq!(
        (check.status.code(), text(&check.stdout)),
        (
            Some(1),
            format!(
                "{abs_out}/schema/webhook_event.schema.json: out of date\n\
                 run `specmint generate --spec {abs_spec} --out {abs_out}` to refresh {abs_out}\n"
            )
        )
    );
}

#[test]
fn an_unknown_type_names_the_specs_of_the_directory() {
    let out = specmint(&["schema", "--spec", SPEC, "webhook"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(
            "specmint: unknown TYPE `webhook` (specs in `tests/fixtures/own_spec`: webhook-event)\nusage:\n"
        ),
        "{stderr}"
    );
}

#[test]
fn a_type_written_as_its_file_stem_or_misspelt_gets_a_did_you_mean() {
    let out = specmint(&["schema", "--spec", SPEC, "webhook_event"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with(
            "specmint: unknown TYPE `webhook_event` (did you mean `webhook-event`? specs in `tests/fixtures/own_spec`: webhook-event)\nusage:\n"
        ),
        "{}",
        text(&out.stderr)
    );
    for (typed, meant) in [
        ("task_packet", "task-packet"),
        ("action-envelpoe", "action-envelope"),
    ] {
        let out = specmint(&["schema", typed], b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).starts_with(&format!(
                "specmint: unknown TYPE `{typed}` (did you mean `{meant}`? one of: action-envelope, task-envelope, task-packet, taskpack)\nusage:\n"
            )),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_broken_own_spec_is_reported_without_usage_and_as_json() {
    let dir = scratch(
        "own_spec_broken",
        &[("broken.md", "# Broken\n"), ("broken.toml", "")],
    );
    let dir = dir.to_str().unwrap();
    let out = specmint(&["validate", "--spec", dir, "broken", "-"], b"{}");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("specmint: "), "{stderr}");
    assert!(!stderr.contains("usage:"), "{stderr}");
    let out = specmint(
        &["validate", "--spec", dir, "broken", "-", "--format", "json"],
        b"{}",
    );
    assert_eq!(out.status.code(), Some(2));
    let error: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(error["error"]["kind"], "spec");
    assert_eq!(
        error["error"]["message"].as_str().unwrap(),
        stderr.strip_prefix("specmint: ").unwrap().trim_end()
    );
}

#[test]
fn version_and_per_command_help() {
    let out = specmint(&["--version"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        format!("specmint {}\n", env!("CARGO_PKG_VERSION"))
    );
    let out = specmint(&["schema", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.starts_with("Print a spec's JSON Schema\n\nUsage: specmint schema [OPTIONS] <TYPE>\n"),
        "{help}"
    );
    assert!(help.contains("\n      --spec <DIR>  "), "{help}");
    assert!(help.contains("\n      --locale <TAG>  "), "{help}");
    assert!(
        help.ends_with(
            "TYPE: a bundled spec, or with --spec DIR the stem of a spec file in DIR in kebab case\n      \
             (DIR/webhook_event.md is `webhook-event`), read and checked when the command runs\n\
             bundled: action-envelope | task-envelope | task-packet | taskpack\n\n\
             With --locale TAG, each rule's keyword carries its message in that language as \
             ajv-errors reads it (`errorMessage`; docs/spec-format.md, \"Messages in a JSON \
             Schema\"); the verdicts are the plain schema's.\n\n\
             exit status: 0 printed, 2 a usage error (a --locale the spec has no messages in), or a \
             --spec spec that cannot be read or does not check\n"
        ),
        "{help}"
    );
    // A family's help lists its commands; each command's help, its options and the family's
    // exit status.
    let out = specmint(&["task", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    for command in [
        "submit", "claim", "move", "complete", "reject", "bind", "show", "list",
    ] {
        assert!(
            help.contains(&format!("\n  {command} ")),
            "{command}: {help}"
        );
    }
    let out = specmint(&["task", "claim", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    let help = text(&out.stdout);
    assert!(
        help.contains("Usage: specmint task claim [OPTIONS] --store <DB> [ID]\n"),
        "{help}"
    );
    for option in [
        "--next",
        "--context <ID>",
        "--store <DB>",
        "--format <FORMAT>",
    ] {
        assert!(
            help.contains(&format!("\n      {option}  ")),
            "{option}: {help}"
        );
    }
    assert!(help
        .ends_with("exit status: 0 done, 1 refused with the spec's code, 2 usage or I/O error\n"));
    let out = specmint(&["passport", "new", "--help"], b"");
    assert!(text(&out.stdout).contains("Usage: specmint passport new [OPTIONS]\n"));
}

#[test]
fn a_store_failure_is_shown_without_the_usage_text() {
    let dir = scratch("own_spec_store", &[]);
    // A directory where the database file should be: the store cannot open it.
    let out = specmint(
        &["task", "show", "--store", dir.to_str().unwrap(), "t-1"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("specmint: "), "{stderr}");
    assert!(!stderr.contains("usage:"), "{stderr}");
    // A usage error still shows it.
    let out = specmint(&["task", "show", "t-1"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("specmint: missing --store DB\nusage:\n"));
}

#[test]
fn taskpack_and_passport_io_failures_are_one_line_without_the_usage_text() {
    let dir = scratch("own_spec_io", &[]);
    let missing = dir.join("gone.taskpack");
    let missing = missing.to_str().unwrap();
    let out_file = dir.join("out.taskpack.json");
    // A file where the store's directory should be.
    let not_a_dir = dir.join("store-file");
    std::fs::write(&not_a_dir, b"x").unwrap();
    let io = "No such file or directory (os error 2)";
    let cases: [(&[&str], String); 4] = [
        (
            &["taskpack", "conformance", missing],
            format!("specmint: cannot read `{missing}`: {io}\n"),
        ),
        (
            &["taskpack", "convert", missing, out_file.to_str().unwrap()],
            format!("specmint: cannot access `{missing}`: {io}\n"),
        ),
        (
            &[
                "taskpack",
                "land",
                missing,
                "--store",
                dir.to_str().unwrap(),
            ],
            format!("specmint: cannot access `{missing}`: {io}\n"),
        ),
        (
            &["passport", "list", "--store", not_a_dir.to_str().unwrap()],
            format!(
                "specmint: `{}`: File exists (os error 17)\n",
                not_a_dir.display()
            ),
        ),
    ];
    for (args, expected) in cases {
        let out = specmint(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains("usage:"), "{args:?}: {stderr}");
        assert_eq!(stderr, expected, "{args:?}");
    }
}

#[test]
fn generate_check_names_the_flags_it_needs() {
    let out_dir = scratch("own_spec_check", &[]);
    let out_dir = out_dir.to_str().unwrap();
    let out = specmint(
        &["generate", "--spec", SPEC, "--out", out_dir, "--check"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "{out_dir}/corpus/webhook_event/cases.json: out of date\n\
             {out_dir}/rust/webhook_event.rs: out of date\n\
             {out_dir}/schema/webhook_event.schema.json: out of date\n\
             run `specmint generate --spec {SPEC} --out {out_dir}` to refresh {out_dir}\n"
        )
    );
}

/// A spec whose own examples are wrong is a spec error for every command that loads it,
/// at each fence, worded as the generated `spec_examples` tests word it: `generate` and
/// `generate --check` exit 1 and write nothing, `validate` and `schema` exit 2 (a spec
/// error, not an invalid document).
#[test]
fn wrong_examples_of_an_own_spec_are_spec_errors_and_nothing_is_written() {
    let md =
        std::fs::read_to_string(super::common::root().join(SPEC).join("webhook_event.md")).unwrap();
    let toml = std::fs::read_to_string(super::common::root().join(SPEC).join("webhook_event.toml"))
        .unwrap();
    let valid = r#"{"id": "evt_1", "kind": "created", "summary": "a user signed up"}"#;
    assert!(md.contains(valid));
    let md = md.replacen(valid, r#"{"id": "evt_1", "kind": "created", "summary": " "}"#, 1)
        + "\n```json invalid bad_id@id\n\
           {\"id\": \"evt_1\", \"kind\": \"created\", \"summary\": \"ok\", \"tags\": [\"a\", \"a\"]}\n\
           ```\n";
    let line = |prefix: &str| 1 + md.lines().position(|l| l.starts_with(prefix)).unwrap();
    let dir = scratch(
        "own_spec_wrong_examples",
        &[("webhook_event.md", &md), ("webhook_event.toml", &toml)],
    );
    let spec = dir.to_str().unwrap();
    let hint = "  hint: make the example what its fence says, or the fence what the spec \
                reports: a `json invalid` fence lists every violation as `code@path`, in order";
    let diagnostics = format!(
        "{spec}/webhook_event.md:{}:1: error: the `json valid` example is refused: \
         blank_field@summary (`summary` must not be blank)\n{hint}\n\
         {spec}/webhook_event.md:{}:1: error: the `json invalid bad_id@id` example fails with \
         duplicate_tag@tags[1] (`tags[1]` `a` repeats `tags[0]`)\n{hint}\n",
        line("```json valid"),
        line("```json invalid bad_id@id"),
    );
    let out_dir = dir.join("out");
    let out = out_dir.to_str().unwrap();
    for check in [false, true] {
        let mut args = vec!["generate", "--spec", spec, "--out", out];
        if check {
            args.push("--check");
        }
        let run = specmint(&args, b"");
        assert_eq!(run.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&run.stdout), "", "{args:?}");
        assert_eq!(text(&run.stderr), diagnostics, "{args:?}");
        assert!(!out_dir.exists(), "{args:?} wrote {}", out_dir.display());
    }
    for args in [
        vec!["validate", "--spec", spec, "webhook-event", "-"],
        vec!["schema", "--spec", spec, "webhook-event"],
    ] {
        let run = specmint(&args, GOOD.as_bytes());
        assert_eq!(run.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&run.stdout), "", "{args:?}");
        assert_eq!(
            text(&run.stderr),
            format!("specmint: {diagnostics}"),
            "{args:?}"
        );
    }
}

#[test]
fn completions_are_written_from_the_declared_command_line() {
    // bash runs the script it is given and completes from it: a command of a family, and the
    // options of a command.
    let out = specmint(&["completions", "bash"], b"");
    assert_eq!(out.status.code(), Some(0));
    let script = text(&out.stdout);
    let complete = |words: &[&str]| -> String {
        let program = format!(
            "{script}\nCOMP_WORDS=({}); COMP_CWORD={}; _specmint specmint {} {}; echo \"${{COMPREPLY[@]}}\"",
            words.join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &program])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout).trim().to_owned()
    };
    assert_eq!(complete(&["specmint", "task", "su"]), "submit");
    assert_eq!(
        complete(&["specmint", "task", "claim", "--"]),
        "--next --context --store --format --help"
    );
    assert_eq!(complete(&["specmint", "taskpack", "from"]), "from-a2a");
    // zsh and fish: their scripts name every family.
    for shell in ["zsh", "fish"] {
        let out = specmint(&["completions", shell], b"");
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        for family in ["validate", "taskpack", "passport", "completions"] {
            assert!(script.contains(family), "{shell}: {family}");
        }
    }
    let out = specmint(&["completions", "tcsh"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with(
        "specmint: SHELL takes `bash`, `elvish`, `fish`, `powershell` or `zsh`, got `tcsh`\nusage:\n"
    ));
}

#[test]
fn an_mcp_session_that_ends_before_it_starts_is_a_failure_without_the_usage_text() {
    // The client goes away before `initialize`: the server's own failure (exit 2, one line),
    // not bad usage.
    let dir = std::env::temp_dir().join(format!("specmint-mcp-closed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let home = dir.to_str().unwrap();
    let out = specmint(&["mcp", "--home", home, "--agent", "a"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("specmint: MCP server: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // The same command with an option missing is bad usage: the message, then the usage text.
    let out = specmint(&["mcp", "--home", home], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr)
        .starts_with("specmint: missing --agent ID\nusage:\n  specmint mcp [OPTIONS]\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_option_takes_its_value_after_an_equals_sign_and_a_repeated_one_keeps_its_last() {
    // README: `--flag VALUE` or `--flag=VALUE`; an option given twice keeps its last value.
    let packet = specmint::task_packet::MINIMAL_PACKET_EXAMPLE.as_bytes();
    let out = specmint(&["validate", "task-packet", "-", "--format=json"], packet);
    assert_eq!(out.status.code(), Some(0));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["valid"], true);
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "-",
            "--format",
            "json",
            "--format",
            "human",
        ],
        packet,
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "<stdin>: valid task-packet\n");
    let out = specmint(
        &[
            "validate",
            "task-packet",
            "-",
            "--max-input-bytes",
            "1",
            "--max-input-bytes=1048576",
        ],
        packet,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

const GROUP_MD: &str = include_str!("../../../codegen/tests/absent_groups/invoice.md");

const GROUP_TOML: &str = include_str!("../../../codegen/tests/absent_groups/invoice.toml");

/// Issue 46: "read as `{}` when absent" chains through a plain `✔` member table, so a
/// missing `seller` (its `name` coded `BR-06`, its plain `✔` `address`'s `country_code`
/// coded `BR-09`) reports both members' codes, not a parse error at the root.
#[test]
fn a_missing_group_reports_its_members_codes_through_a_plain_member_table() {
    let dir = scratch(
        "absent_group",
        &[
            ("no_seller.json", r#"{"number": "IN-1"}"#),
            (
                "no_address.json",
                r#"{"number": "IN-1", "seller": {"name": "Acme"}}"#,
            ),
            ("empty_seller.json", r#"{"number": "IN-1", "seller": {}}"#),
            ("null_seller.json", r#"{"number": "IN-1", "seller": null}"#),
        ],
    );
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::write(dir.join("spec/invoice.md"), GROUP_MD).unwrap();
    std::fs::write(dir.join("spec/invoice.toml"), GROUP_TOML).unwrap();
    let run = |file: &str| {
        let out = specmint_in(
            &dir,
            &[
                "validate", "--spec", "spec", "invoice", file, "--format", "json",
            ],
            b"",
        );
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
        (out.status.code(), common::codes_and_paths(&verdict))
    };
    let pair = |c: &str, p: &str| (c.to_owned(), p.to_owned());
    let both = vec![
        pair("BR-06", "seller.name"),
        pair("BR-09", "seller.address.country_code"),
    ];
    assert_eq!(run("no_seller.json"), (Some(1), both.clone()));
    assert_eq!(run("empty_seller.json"), (Some(1), both));
    assert_eq!(
        run("no_address.json"),
        (Some(1), vec![pair("BR-09", "seller.address.country_code")])
    );
    // `null` is no object: still the shape's error.
    assert_eq!(
        run("null_seller.json").1.first().map(|(c, _)| c.as_str()),
        Some("invalid_invoice")
    );
}

/// Issue 46's compound unique key and code-list code through `validate --spec` (the
/// interpreter): each out-of-list value with its own code at its place, the rest of the
/// document still judged (the breakdown's duplicate (category, rate) pair), the member read
/// as absent (no requirement, no condition).
#[test]
fn an_own_spec_with_a_compound_key_and_enum_codes() {
    let md = "# Einv v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `type_code` | type_code | ✔ `BR-04` | The type code. |
| `preceding_invoice` | string? | if `type_code` is `381` | The corrected invoice. |
| `vat` | vat_line[] | ✔ | The VAT breakdown. |

## Fields of a `vat_line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `category` | category | ✔ `BR-47` | The category. |
| `rate` | number | ✔ | The rate. |

## Type codes: `type_code`

| Value | Meaning |
|---|---|
| `380` | An invoice. |
| `381` | A credit note. |

## Categories: `category`

| Value | Meaning |
|---|---|
| `S` | Standard. |
| `E` | Exempt. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `BR-04` | No type code. |
| `BR-47` | No category. |
| `BR-55` | A credit note without the invoice it corrects. |
| `BR-CL-01` | A type code outside the list. |
| `BR-CL-17` | A category outside the list. |
| `BR-CO-17` | One category and rate twice. |
";
    let toml = r#"[spec]
root = "invoice"

[errors]
parse = "bad_invoice"
required_if = "BR-55"

[errors.rules]
"type_code" = { enum = "BR-CL-01" }
"vat[].category" = { enum = "BR-CL-17" }

[[unique]]
path = "vat"
key = ["category", "rate"]
code = "BR-CO-17"
"#;
    let dir = scratch("own_spec_einv", &[("einv.md", md), ("einv.toml", toml)]);
    let doc = r#"{"type_code": "999",
"vat": [{"category": "S", "rate": 21}, {"category": "X", "rate": 21}, {"category": "S", "rate": 21.0}]}"#;
    let out = specmint(
        &["validate", "--spec", dir.to_str().unwrap(), "einv", "-"],
        doc.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "<stdin>:1:15: error[BR-CL-01]: `type_code` is `999`, expected one of `380`, `381`\n\
         <stdin>:2:53: error[BR-CL-17]: `vat[1].category` is `X`, expected one of `S`, `E`\n\
         <stdin>:2:71: error[BR-CO-17]: `vat[2]` (`category` `S`, `rate` `21`) repeats `vat[0]`\n\
         <stdin>: invalid einv (3 errors)\n"
    );
    assert_eq!(text(&out.stderr), "");
}

/// A `decimal` reaches `validate --spec` (the door the bindings share) as the number's text:
/// `999999999999.99001` breaks a scale of 2 and the bound, `100.000` and `1e-2` do not.
#[test]
fn an_own_spec_judges_a_decimal_by_its_text() {
    let md = "# Ledger v1

## Fields of an `invoice`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `total` | decimal(2) 0..=999999999999.99 | ✔ | The total. |
| `rate` | decimal(5, 2)? 0<..<100 | — | A rate. |

## Error codes

| Code | When |
|---|---|
| `bad_invoice` | Not the shape. |
| `out_of_range` | Outside its bounds. |
| `bad_scale` | Too many digits. |
";
    let toml = "[spec]\nroot = \"invoice\"\n\n[errors]\nparse = \"bad_invoice\"\nrange = \"out_of_range\"\nscale = \"bad_scale\"\n";
    let dir = scratch("own-decimal", &[("ledger.md", md), ("ledger.toml", toml)]);
    let dir = dir.to_str().unwrap();
    let judge = |doc: &str| {
        let out = specmint(
            &["validate", "--spec", dir, "ledger", "-", "--format", "json"],
            doc.as_bytes(),
        );
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let errors: Vec<String> = verdict["errors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                format!(
                    "{}@{}: {}",
                    e["code"].as_str().unwrap(),
                    e["path"].as_str().unwrap(),
                    e["message"].as_str().unwrap()
                )
            })
            .collect();
        (out.status.code(), errors)
    };
    assert_eq!(
        judge(r#"{"total": 100.000, "rate": 1e-2}"#),
        (Some(0), vec![])
    );
    assert_eq!(
        judge(r#"{"total": 999999999999.99001, "rate": 0}"#),
        (
            Some(1),
            vec![
                "bad_scale@total: `total` is 999999999999.99001, with 5 fraction digits (max 2)"
                    .to_owned(),
                "out_of_range@total: `total` is 999999999999.99001 (max 999999999999.99)"
                    .to_owned(),
                "out_of_range@rate: `rate` is 0 (must be above 0)".to_owned(),
            ]
        )
    );
}

/// The fenced block of `text` that opens with `open` (the fence line and what follows it),
/// up to the next line that is `close`.
fn block_after<'a>(text: &'a str, open: &str, close: &str) -> &'a str {
    let start = text
        .find(open)
        .unwrap_or_else(|| panic!("no block opening with {open:?}"))
        + open.len();
    let len = text[start..]
        .find(&format!("\n{close}\n"))
        .unwrap_or_else(|| panic!("the block opening with {open:?} is not closed"));
    &text[start..start + len + 1]
}

#[test]
fn the_readme_own_spec_loads_and_judges_its_examples_as_its_fences_state() {
    // The README's "Your own spec in minutes", step 1 and 2, as a reader would run them.
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let md = block_after(&readme, "````markdown file=spec/order.md\n", "````");
    let toml = block_after(
        &readme,
        "```toml file=spec/order.toml\n# spec/order.toml\n",
        "```",
    );
    let valid = block_after(md, "```json valid\n", "```");
    let fence = "```json invalid ";
    let stated = &md[md.find(fence).expect("an invalid example") + fence.len()..];
    let stated = &stated[..stated.find('\n').unwrap()];
    let invalid = block_after(md, &format!("{fence}{stated}\n"), "```");
    let dir = scratch(
        "readme_own_spec",
        &[
            ("order.md", md),
            ("order.toml", toml),
            ("valid.json", valid),
            ("invalid.json", invalid),
        ],
    );
    let spec = dir.to_str().unwrap();
    let (valid, invalid) = (dir.join("valid.json"), dir.join("invalid.json"));

    // Step 2's transcript, run where the reader runs it: `spec/` beside `order.json`.
    let transcript = block_after(
        &readme,
        "```console status=1\n$ specmint validate --spec spec order order.json\n",
        "```",
    );
    let shown = &transcript[..transcript.find("\n$ ").expect("a second command") + 1];
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::write(dir.join("spec/order.md"), md).unwrap();
    std::fs::write(dir.join("spec/order.toml"), toml).unwrap();
    std::fs::copy(&invalid, dir.join("order.json")).unwrap();
    let out = specmint_in(
        &dir,
        &["validate", "--spec", "spec", "order", "order.json"],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), shown);

    let out = specmint(
        &[
            "validate",
            "--spec",
            spec,
            "order",
            valid.to_str().unwrap(),
            invalid.to_str().unwrap(),
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let verdicts: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(verdicts.len(), 2);
    assert_eq!(verdicts[0]["valid"], true, "{}", verdicts[0]);
    assert_eq!(verdicts[1]["valid"], false);
    let found: Vec<String> = verdicts[1]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            format!(
                "{}@{}",
                e["code"].as_str().unwrap(),
                e["path"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(found.join(" "), stated);
    assert_eq!(
        stated, "blank@customer out_of_range@lines[0].quantity",
        "the README's prose names these codes"
    );

    let out = specmint(&["schema", "--spec", spec, "order"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let schema: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(schema["$ref"], "#/$defs/order", "{schema}");
    assert_eq!(
        schema["$defs"]["order"]["properties"]["customer"]["maxLength"], 80,
        "{schema}"
    );
}
