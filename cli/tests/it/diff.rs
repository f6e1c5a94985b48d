//! `specmint diff` end to end on a spec nobody here wrote for another purpose
//! (tests/fixtures/diff/base: a parcel shipment notice with an enum, a states table, a
//! pattern, caps, a forbidden key and an `any` member): one edit of each kind, the categories
//! it must report, the exit status, and every witness re-judged with `validate --spec` on
//! both sides.

use crate::common;

use std::path::Path;

use common::{scratch, specmint};
use serde_json::{json, Value};

const BASE: &str = "tests/fixtures/diff/base";

/// The base fixture with `edits` (file, from, to) applied, in a fresh directory.
fn edited(tag: &str, edits: &[(&str, &str, &str)]) -> common::Scratch {
    let dir = scratch(&format!("diff-{tag}"));
    for file in ["shipment.md", "shipment.toml"] {
        let mut text = std::fs::read_to_string(common::root().join(BASE).join(file)).unwrap();
        for (f, from, to) in edits {
            if *f == file {
                assert!(text.contains(from), "{tag}: `{from}` not in {file}");
                text = text.replacen(from, to, 1);
            }
        }
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn diff_json(old: &Path, new: &Path, extra: &[&str]) -> (i32, Value) {
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let mut args = vec!["diff", old, new, "--format", "json"];
    args.extend(extra);
    let out = specmint(&args, b"");
    let text = String::from_utf8_lossy(&out.stdout);
    let value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), value)
}

/// `validate --spec DIR shipment` on `document`: (valid, [(code, path)]).
fn judge(dir: &Path, document: &str) -> (bool, Vec<(String, String)>) {
    let out = specmint(
        &[
            "validate",
            "--spec",
            dir.to_str().unwrap(),
            "shipment",
            "-",
            "--format",
            "json",
        ],
        document.as_bytes(),
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (v["valid"].as_bool().unwrap(), errors)
}

fn verdict_of(v: &Value) -> (bool, Vec<(String, String)>) {
    let errors = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["code"].as_str().unwrap().to_owned(),
                e["path"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (v["valid"].as_bool().unwrap(), errors)
}

/// One edit: the change ids and categories reported, each witness re-judged.
fn check(tag: &str, edits: &[(&str, &str, &str)], want: &[(&str, &[&str])]) {
    let new = edited(tag, edits);
    let base = Path::new(BASE);
    let (code, report) = diff_json(base, &new, &[]);
    let changes = report["changes"].as_array().unwrap();
    let got: Vec<(String, Vec<String>)> = changes
        .iter()
        .map(|c| {
            let breaks = c["breaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b.as_str().unwrap().to_owned())
                .collect();
            (c["id"].as_str().unwrap().to_owned(), breaks)
        })
        .collect();
    let want: Vec<(String, Vec<String>)> = want
        .iter()
        .map(|(id, b)| (id.to_string(), b.iter().map(|s| s.to_string()).collect()))
        .collect();
    assert_eq!(got, want, "{tag}: {report:#}");
    let breaking = want.iter().any(|(_, b)| !b.is_empty());
    assert_eq!(report["breaking"], json!(breaking), "{tag}");
    assert_eq!(code, i32::from(breaking), "{tag}: exit status");
    for c in changes {
        proved(tag, base, &new, c);
    }
}

/// Every `documents`/`readers` break of change `c` has a witness, and `validate --spec` on
/// both sides gives the verdicts the report states, which flip; the change has every key.
fn proved(tag: &str, base: &Path, new: &Path, c: &Value) {
    let breaks = c["breaks"].as_array().unwrap();
    let proved: Vec<&Value> = c["witnesses"].as_array().unwrap().iter().collect();
    for category in ["documents", "readers"] {
        if !breaks.contains(&json!(category)) {
            continue;
        }
        let w = proved
            .iter()
            .find(|w| w["proves"] == json!(category))
            .unwrap_or_else(|| panic!("{tag}: no proof for {category}: {c:#}"));
        assert!(
            !w["document"].is_null(),
            "{tag}: {category} witness missing: {c:#}"
        );
        let document = match &w["document"] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let old = judge(base, &document);
        let new_verdict = judge(new, &document);
        // The verdicts the report states are the ones `validate --spec` gives, and flip.
        assert_eq!(
            old,
            verdict_of(&w["old"]),
            "{tag}: old verdict of {document}"
        );
        assert_eq!(
            new_verdict,
            verdict_of(&w["new"]),
            "{tag}: new verdict of {document}"
        );
        if category == "documents" {
            assert!(
                old.0 && !new_verdict.0,
                "{tag}: {document} does not prove documents"
            );
        } else {
            assert!(
                !old.0 && new_verdict.0,
                "{tag}: {document} does not prove readers"
            );
        }
    }
    // The first witness is `witness`.
    if let Some(first) = proved.iter().find(|w| !w["document"].is_null()) {
        assert_eq!(&c["witness"], *first, "{tag}");
    }
    let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
    for key in ["id", "breaks", "message", "old", "new", "witness"] {
        assert!(keys.contains(&key), "{tag}: change lacks `{key}`");
    }
}

#[test]
fn cap_tightened_breaks_stored_documents() {
    check(
        "cap-tightened",
        &[("shipment.md", "| 20 chars |", "| 10 chars |")],
        &[("cap-tightened", &["documents"])],
    );
}

#[test]
fn cap_loosened_breaks_old_readers() {
    check(
        "cap-loosened",
        &[("shipment.md", "| 20 chars |", "| 30 chars |")],
        &[("cap-loosened", &["readers"])],
    );
}

#[test]
fn optional_field_added_breaks_old_readers_only() {
    check(
        "optional-added",
        &[(
            "shipment.md",
            "| `stage` | stage |",
            "| `weight` | uint32? | — | Grams. |\n| `stage` | stage |",
        )],
        &[("field-added-optional", &["readers"])],
    );
}

#[test]
fn required_field_added_breaks_both_directions() {
    check(
        "required-added",
        &[
            (
                "shipment.md",
                "| `stage` | stage |",
                "| `weight` | uint32 | ✔ | Grams. |\n| `stage` | stage |",
            ),
            (
                "shipment.md",
                "\"stage\": \"booked\",",
                "\"stage\": \"booked\", \"weight\": 5,",
            ),
        ],
        &[("field-added-required", &["documents", "readers"])],
    );
}

#[test]
fn enum_value_removed_breaks_documents_and_the_rust_api() {
    check(
        "enum-removed",
        &[("shipment.md", "| `freight` | Pallets. |\n", "")],
        &[("enum-value-removed", &["documents", "rust-api"])],
    );
}

#[test]
fn pattern_narrowed_is_proved_by_a_synthesized_document() {
    check(
        "pattern-narrowed",
        &[("shipment.md", "^[A-Z]{2}[0-9]{6}$", "^AB[0-9]{6}$")],
        &[("pattern-narrowed", &["documents"])],
    );
}

#[test]
fn forbidden_key_added_breaks_documents_that_hold_it_in_a_free_member() {
    check(
        "forbidden-added",
        &[(
            "shipment.md",
            "| `price` | Prices travel on invoices, never on the parcel. |",
            "| `price` | Prices travel on invoices, never on the parcel. |\n| `cost` | Costs too. |",
        )],
        &[("forbidden-key-added", &["documents"])],
    );
}

#[test]
fn error_code_renamed_breaks_code_matchers_and_the_rust_api() {
    check(
        "code-renamed",
        &[
            ("shipment.md", "| `too_long` |", "| `over_cap` |"),
            ("shipment.toml", "\"too_long\"", "\"over_cap\""),
        ],
        &[("error-code-renamed", &["rust-api", "codes"])],
    );
}

#[test]
fn constant_renamed_breaks_the_rust_api_only() {
    check(
        "constant-renamed",
        &[("shipment.md", "RECIPIENT_MAX_CHARS", "RECIPIENT_CHARS_MAX")],
        &[("constant-renamed", &["rust-api"])],
    );
}

#[test]
fn transition_removed_strands_machines() {
    check(
        "transition-removed",
        &[("shipment.md", "| `booked` | `delivered` |\n", "")],
        &[("transition-removed", &["machines"])],
    );
}

#[test]
fn a_prose_edit_is_no_change() {
    check(
        "prose",
        &[
            (
                "shipment.md",
                "Who receives it.",
                "The person the parcel is for.",
            ),
            (
                "shipment.md",
                "A courier's shipment notice",
                "A parcel courier's shipment notice",
            ),
            ("shipment.md", "| Ground, slow. |", "| By road; slow. |"),
        ],
        &[],
    );
    let new = edited(
        "prose-human",
        &[("shipment.md", "Who receives it.", "Whom it is for.")],
    );
    let out = specmint(&["diff", BASE, new.to_str().unwrap()], b"");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "no change\n");
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn human_and_github_output_point_into_both_files() {
    let new = edited("human", &[("shipment.md", "| 20 chars |", "| 10 chars |")]);
    let new_md = format!("{}/shipment.md", new.display());
    let out = specmint(&["diff", BASE, new.to_str().unwrap()], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    let first = text.lines().next().unwrap();
    assert_eq!(
        first,
        format!("{BASE}/shipment.md:51:28 → {new_md}:51:28: cap-tightened [documents]: the char cap of `recipient` is 10, was 20")
    );
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("    documents witness {"),
        "{text}"
    );
    assert!(
        text.contains("old valid, new invalid (too_long@recipient)"),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("1 changes, 1 breaking"));
    assert_eq!(out.status.code(), Some(1));

    let out = specmint(
        &["diff", BASE, new.to_str().unwrap(), "--format", "github"],
        b"",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(&format!("::error file={new_md},line=51,col=28,title=specmint diff%3A cap-tightened::cap-tightened [documents]: ")),
        "{text}"
    );
    assert_eq!(
        text.lines().count(),
        1,
        "one annotation per change, its witness on %0A lines"
    );
    assert!(text.contains("%0Adocuments witness: "), "{text}");
}

#[test]
fn fail_on_picks_what_makes_the_exit_status_1() {
    let new = edited(
        "fail-on",
        &[("shipment.md", "RECIPIENT_MAX_CHARS", "RECIPIENT_CHARS_MAX")],
    );
    let (code, _) = diff_json(Path::new(BASE), &new, &["--fail-on", "documents,readers"]);
    assert_eq!(code, 0, "a rust-api break is not selected");
    let (code, report) = diff_json(Path::new(BASE), &new, &["--fail-on", "rust-api"]);
    assert_eq!(code, 1);
    assert_eq!(
        report["breaking"],
        json!(true),
        "breaking says whether anything breaks"
    );
    let out = specmint(
        &["diff", BASE, new.to_str().unwrap(), "--fail-on", "docs"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with(
        "specmint: --fail-on: unknown category `docs` (one of: documents, readers, rust-api, codes, machines)\n"
    ));
}

#[test]
fn a_side_that_does_not_load_is_exit_2() {
    let new = edited(
        "broken",
        &[("shipment.toml", "pattern = \"bad_tracking\"\n", "")],
    );
    let out = specmint(&["diff", BASE, new.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("specmint: the new spec does not load:\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}/shipment.md:", new.display())),
        "{err}"
    );
    for args in [
        vec!["diff"],
        vec!["diff", BASE],
        vec!["diff", "--against", "HEAD", BASE, BASE],
        vec!["diff", BASE, BASE, "--format", "xml"],
    ] {
        let out = specmint(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

/// `git ARGS` in `cwd` (a throwaway identity, no signing), asserting success: its stdout.
fn git_in(cwd: &Path, args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn against_a_revision_reads_the_spec_dir_from_git() {
    let repo = scratch("diff-against");
    let git = |args: &[&str]| {
        git_in(&repo, args);
    };
    git(&["init", "-q"]);
    std::fs::create_dir_all(repo.join("spec")).unwrap();
    for file in ["shipment.md", "shipment.toml"] {
        std::fs::copy(
            common::root().join(BASE).join(file),
            repo.join("spec").join(file),
        )
        .unwrap();
    }
    git(&["add", "spec"]);
    git(&["commit", "-qm", "base"]);
    let md = repo.join("spec/shipment.md");
    let text = std::fs::read_to_string(&md)
        .unwrap()
        .replace("| 20 chars |", "| 10 chars |");
    std::fs::write(&md, text).unwrap();
    let out = common::specmint_in(&repo, &["diff", "--against", "HEAD"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "HEAD:spec/shipment.md:51:28 → spec/shipment.md:51:28: cap-tightened [documents]"
        ),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1));
    let out = common::specmint_in(&repo, &["diff", "--against", "no-such-rev"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("specmint: git ls-tree"));
}

/// Every rule id the comparison can report (a kebab-case string literal of
/// codegen/src/diff/) is in docs/diff.md's table, as a code span.
#[test]
fn docs_list_every_rule_id() {
    let docs = std::fs::read_to_string(common::root().join("docs/diff.md")).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    // Every source of the diff (the comparison is split by concern under compare/).
    let diff_dir = common::root().join("codegen/src/diff");
    let mut files = vec![diff_dir.join("mod.rs")];
    for entry in std::fs::read_dir(diff_dir.join("compare")).unwrap() {
        files.push(entry.unwrap().path());
    }
    for file in files {
        let src = std::fs::read_to_string(file).unwrap();
        for literal in src.split('"').skip(1).step_by(2) {
            let kebab = literal.contains('-')
                && literal
                    .split('-')
                    .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()));
            if kebab && literal != "rust-api" {
                ids.insert(literal.to_owned());
            }
        }
    }
    assert!(ids.len() > 60, "{ids:?}");
    let missing: Vec<&String> = ids
        .iter()
        .filter(|id| !docs.contains(&format!("`{id}`")))
        .collect();
    assert!(missing.is_empty(), "docs/diff.md lacks {missing:?}");
}

/// The bundled specs' own history (tests/fixtures/diff/spec-history.bundle, one commit per
/// commit of this repository that changed spec/, made by scripts/spec_history.sh): `specmint
/// diff OLD NEW` over each consecutive pair, human output and exit status, against the golden
/// file beside the bundle, which was read by hand once. `SPECMINT_BLESS=1` rewrites it.
#[test]
fn the_bundled_specs_history_is_the_golden_output() {
    let fixtures = common::root().join("tests/fixtures/diff");
    let dir = scratch("diff-history");
    let repo = dir.join("repo");
    let git = git_in;
    let bundle = fixtures.join("spec-history.bundle");
    git(
        &dir,
        &[
            "clone",
            "-q",
            bundle.to_str().unwrap(),
            repo.to_str().unwrap(),
        ],
    );
    let log = String::from_utf8(git(&repo, &["log", "--reverse", "--format=%H %s"])).unwrap();
    let commits: Vec<(&str, &str)> = log
        .lines()
        .map(|line| line.split_once(' ').unwrap())
        .collect();
    // Each commit's spec/ in a folder of its own, named by its place in the history.
    for (i, (hash, _)) in commits.iter().enumerate() {
        let target = dir.join(format!("{i:02}"));
        std::fs::create_dir_all(&target).unwrap();
        let tar = git(&repo, &["archive", hash, "spec"]);
        let mut untar = std::process::Command::new("tar")
            .args(["-x", "-C", target.to_str().unwrap()])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(untar.stdin.as_mut().unwrap(), &tar).unwrap();
        assert!(untar.wait().unwrap().success());
    }
    let pairs: Vec<usize> = (1..commits.len()).collect();
    let outputs: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = pairs
            .chunks(pairs.len().div_ceil(4).max(1))
            .map(|chunk| {
                let (dir, commits) = (&dir, &commits);
                scope.spawn(move || {
                    chunk
                        .iter()
                        .map(|&i| {
                            let (old, new) = (format!("{:02}/spec", i - 1), format!("{i:02}/spec"));
                            let out = common::specmint_in(dir, &["diff", &old, &new], b"");
                            format!(
                                "== {} → {} (exit {})\n{}{}",
                                commits[i - 1].1,
                                commits[i].1,
                                out.status.code().unwrap(),
                                String::from_utf8_lossy(&out.stdout),
                                String::from_utf8_lossy(&out.stderr),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let actual = outputs.concat();
    let golden = fixtures.join("spec-history.txt");
    if std::env::var_os("SPECMINT_BLESS").is_some() {
        std::fs::write(&golden, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    if actual != expected {
        let first = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, e)| a != e)
            .unwrap_or(actual.lines().count().min(expected.lines().count()));
        panic!(
            "specmint diff over the spec history differs from {} at line {} (SPECMINT_BLESS=1 \
             rewrites it):\n  got:      {}\n  expected: {}",
            golden.display(),
            first + 1,
            actual.lines().nth(first).unwrap_or("(end)"),
            expected.lines().nth(first).unwrap_or("(end)"),
        );
    }
}

/// `Config::check_against` (issue 24 item 3): a build script that pins a compatibility policy
/// fails on an edit that breaks a pinned category, with the diff in the error, and builds when
/// the edit breaks only what it did not pin, or nothing.
#[test]
fn a_build_script_checking_against_a_released_spec_fails_on_what_it_pins() {
    use specmint_codegen::diff::Break;
    use specmint_codegen::{Config, Error};
    let new = edited("config", &[("shipment.md", "| 20 chars |", "| 10 chars |")]);
    let out = scratch("diff-config-out");
    let config = |spec: &Path| {
        Config::new()
            .spec_dir(spec)
            .out_dir(&*out)
            .check_against(common::root().join(BASE))
    };
    match config(&new).fail_on(&[Break::Documents]).run() {
        Err(Error::Breaking(found)) => {
            let shown = Error::Breaking(found).to_string();
            assert!(
                shown.starts_with(
                    "specmint: the spec change breaks what this project must not break:\n"
                ),
                "{shown}"
            );
            assert!(
                shown.contains(
                    "cap-tightened [documents]: the char cap of `recipient` is 10, was 20"
                ),
                "{shown}"
            );
        }
        other => panic!("a tightened cap with documents pinned: {other:?}"),
    }
    // Every category unless told.
    assert!(matches!(config(&new).run(), Err(Error::Breaking(_))));
    // A tightened cap breaks stored documents, not old readers: a readers-only policy builds.
    config(&new).fail_on(&[Break::Readers]).run().unwrap();
    assert!(
        std::fs::read_dir(&*out).unwrap().next().is_some(),
        "a build that passes writes its files"
    );
    // The released spec itself builds under every category.
    config(&common::root().join(BASE)).run().unwrap();
}

/// The base fixture grown for the replays of issue 35's diff edits: two ordered days
/// (`[[order]]`), a free-text remark (what the corpus pads to the byte cap), a size with a
/// stated default, a list of stops unique by name ignoring case with bounded hours, a
/// document byte cap, and events labelling the moves (an enum no document holds).
const RICH: &[(&str, &str, &str)] = &[
    (
        "shipment.md",
        "| `carrier_data` | any | — | The carrier's own data, kept as sent. |",
        "| `carrier_data` | any | — | The carrier's own data, kept as sent. |\n\
         | `picked_up` | uint32? | — | Day picked up. |\n\
         | `due` | uint32? | — | Day due. |\n\
         | `remark` | string? | — | Free text. |\n\
         | `size` | uint32 | — (default 3) | Box size. |\n\
         | `waypoints` | waypoint[] | — | Stops. |",
    ),
    (
        "shipment.md",
        "## Services: `service`",
        "## Stops: `waypoint`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n\
         | `name` | string | ✔ | Stop name. |\n| `hours` | uint32? 1..=10 | — | Hours. |\n\n\
         ## Services: `service`",
    ),
    (
        "shipment.md",
        "| From | To |\n|---|---|\n| `booked` | `in_transit` |\n| `in_transit` | `delivered` |\n| `booked` | `delivered` |",
        "| From | To | On |\n|---|---|---|\n| `booked` | `in_transit` | `scan` |\n\
         | `in_transit` | `delivered` | `hand_over` |\n| `booked` | `delivered` | `hand_over` |\n\n\
         ## Events: `stage_event`\n\n| Value | Meaning |\n|---|---|\n\
         | `scan` | Scanned at a depot. |\n| `hand_over` | Handed to the recipient. |",
    ),
    (
        "shipment.md",
        "| `notes` items | 3 | NOTES_MAX |",
        "| `notes` items | 3 | NOTES_MAX |\n| document | 200 bytes | DOC_MAX_BYTES |",
    ),
    (
        "shipment.md",
        "| `too_many` | Over an item cap. |",
        "| `too_many` | Over an item cap. |\n| `bad_window` | Out of order. |\n\
         | `dup_stop` | A stop twice. |\n| `out_of_range` | Out of range. |\n| `too_big` | Too big. |",
    ),
    (
        "shipment.toml",
        "forbidden_key = \"forbidden_field\"",
        "forbidden_key = \"forbidden_field\"\nrange = \"out_of_range\"\nmax_bytes = \"too_big\"\n\n\
         [caps.DOC_MAX_BYTES]\nrule = \"document_bytes\"\n\n\
         [[order]]\na = \"picked_up\"\nb = \"due\"\nstrict = true\ncode = \"bad_window\"\n\n\
         [[unique]]\npath = \"waypoints\"\nkey = \"name\"\nignore_case = true\ncode = \"dup_stop\"\n\n\
         [machines.stage]\non = \"stage_event\"",
    ),
];

/// Issue 35's diff edits replayed on [`RICH`]: the change `id` comes out with exactly
/// `breaks`, `message`, and the old and new `file:line:col` (file names only), its witnesses
/// re-judged by `validate --spec` on both sides; `others` are the ids of the rest of the report.
fn replay(
    tag: &str,
    edits: &[(&str, &str, &str)],
    (id, breaks, message): (&str, &[&str], &str),
    (old_at, new_at): (&str, &str),
    others: &[&str],
) {
    let old = edited(&format!("{tag}-old"), RICH);
    let new = edited(tag, &[RICH, edits].concat());
    let (code, report) = diff_json(&old, &new, &[]);
    let changes = report["changes"].as_array().unwrap();
    let ids: Vec<&str> = changes.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let mut want_ids = vec![id];
    want_ids.extend(others);
    assert_eq!(ids, want_ids, "{tag}: {report:#}");
    let c = &changes[0];
    assert_eq!(c["breaks"], json!(breaks), "{tag}: {c:#}");
    assert_eq!(c["message"], json!(message), "{tag}");
    let file = |at: &Value| {
        let at = at.as_str().unwrap();
        at.rsplit('/').next().unwrap().to_owned()
    };
    assert_eq!(
        (file(&c["old"]), file(&c["new"])),
        (old_at.to_owned(), new_at.to_owned()),
        "{tag}"
    );
    proved(tag, &old, &new, c);
    let breaking = changes
        .iter()
        .any(|c| !c["breaks"].as_array().unwrap().is_empty());
    assert_eq!(code, i32::from(breaking), "{tag}: exit status");
}

#[test]
fn order_strict_loosened_is_a_readers_break_at_its_entry() {
    replay(
        "strict",
        &[("shipment.toml", "strict = true", "strict = false")],
        (
            "rule-loosened",
            &["readers"],
            "an order rule ([[order]]) `picked_up` before `due` at the top level: `strict` is false, was true",
        ),
        ("shipment.toml:18:1", "shipment.toml:18:1"),
        &[],
    );
}

#[test]
fn unique_ignore_case_unset_is_a_readers_break_at_its_entry() {
    replay(
        "ignore-case",
        &[("shipment.toml", "ignore_case = true", "ignore_case = false")],
        (
            "rule-loosened",
            &["readers"],
            "a uniqueness rule ([[unique]]) by `name` on `waypoints`: `ignore_case` is false, was true",
        ),
        ("shipment.toml:24:1", "shipment.toml:24:1"),
        &[],
    );
}

#[test]
fn a_default_read_by_the_byte_cap_flips_both_ways() {
    replay(
        "default",
        &[("shipment.md", "(default 3)", "(default 4)")],
        (
            "default-changed",
            &["documents", "readers"],
            "what an absent `size` means is 4, was 3, read by the byte cap of `shipment` (200)",
        ),
        ("shipment.md:19:3", "shipment.md:19:3"),
        &[],
    );
}

#[test]
fn an_event_only_enum_value_added_is_a_machines_change() {
    replay(
        "event",
        &[(
            "shipment.md",
            "| `hand_over` | Handed to the recipient. |",
            "| `hand_over` | Handed to the recipient. |\n| `return` | Sent back. |",
        )],
        (
            "enum-value-added",
            &["machines"],
            "`stage_event` value `return` added (an event of `stage`'s transitions: no document holds a `stage_event`)",
        ),
        ("shipment.md:53:12", "shipment.md:59:3"),
        &[],
    );
}

#[test]
fn removed_order_and_unique_entries_are_located_at_their_entries() {
    replay(
        "order-removed",
        &[
            (
                "shipment.toml",
                "[[order]]\na = \"picked_up\"\nb = \"due\"\nstrict = true\ncode = \"bad_window\"\n\n",
                "",
            ),
            ("shipment.md", "| `bad_window` | Out of order. |\n", ""),
        ],
        (
            "rule-removed",
            &["readers"],
            "an order rule ([[order]]) `picked_up` before `due` at the top level removed",
        ),
        ("shipment.toml:18:1", "shipment.md:6:16"),
        &["error-code-removed"],
    );
    replay(
        "unique-removed",
        &[
            (
                "shipment.toml",
                "[[unique]]\npath = \"waypoints\"\nkey = \"name\"\nignore_case = true\ncode = \"dup_stop\"\n\n",
                "",
            ),
            ("shipment.md", "| `dup_stop` | A stop twice. |\n", ""),
        ],
        (
            "rule-removed",
            &["readers"],
            "a uniqueness rule ([[unique]]) by `name` on `waypoints` removed",
        ),
        ("shipment.toml:24:1", "shipment.md:6:16"),
        &["error-code-removed"],
    );
}

#[test]
fn an_added_transition_is_located_at_its_row() {
    replay(
        "transition-added",
        &[(
            "shipment.md",
            "| `booked` | `in_transit` | `scan` |\n",
            "| `booked` | `in_transit` | `scan` |\n| `in_transit` | `booked` | `scan` |\n",
        )],
        (
            "transition-added",
            &[],
            "`stage` move `in_transit` → `booked` on `scan` added",
        ),
        ("shipment.md:37:12", "shipment.md:50:1"),
        &[],
    );
}

#[test]
fn a_widened_range_of_a_nested_list_member_says_both_bounds_and_its_path() {
    replay(
        "range-widened",
        &[("shipment.md", "1..=10", "0..=12")],
        (
            "range-widened",
            &["readers"],
            "the bounds of `waypoints[].hours` are 0..=12, were 1..=10",
        ),
        ("shipment.md:27:3", "shipment.md:27:3"),
        &[],
    );
}

/// [`RICH`] with `old` and `new` edits applied on each side: the report and the sides.
fn rich_pair(
    tag: &str,
    old: &[(&str, &str, &str)],
    new: &[(&str, &str, &str)],
) -> (Value, common::Scratch, common::Scratch) {
    let old_dir = edited(&format!("{tag}-old"), &[RICH, old].concat());
    let new_dir = edited(tag, &[RICH, new].concat());
    let (_, report) = diff_json(&old_dir, &new_dir, &[]);
    (report, old_dir, new_dir)
}

fn change<'r>(report: &'r Value, id: &str) -> &'r Value {
    report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no `{id}`: {report:#}"))
}

/// The location's file name, line and column (`shipment.md:77:1`).
fn at(v: &Value) -> String {
    v.as_str().unwrap().rsplit('/').next().unwrap().to_owned()
}

/// A removed error code is located at its row of the old error table, however the table is
/// aligned, and on the new side at the error table's heading; an added one the other way.
#[test]
fn a_removed_error_code_is_located_at_its_row_and_the_other_sides_error_table() {
    let aligned = (
        "shipment.md",
        "| `out_of_range` | Out of range. |",
        "| `out_of_range`   | Out of range.   |",
    );
    let removed = [
        ("shipment.md", "| `out_of_range` | Out of range. |\n", ""),
        (
            "shipment.md",
            "| `hours` | uint32? 1..=10 | — | Hours. |\n",
            "",
        ),
        ("shipment.toml", "range = \"out_of_range\"\n", ""),
    ];
    let (report, old, new) = rich_pair("code-removed", &[aligned], &removed);
    let c = change(&report, "error-code-removed");
    let old_md = std::fs::read_to_string(old.join("shipment.md")).unwrap();
    let row = old_md
        .lines()
        .position(|l| l.starts_with("| `out_of_range`   |"))
        .unwrap();
    assert_eq!(at(&c["old"]), format!("shipment.md:{}:1", row + 1), "{c:#}");
    let new_md = std::fs::read_to_string(new.join("shipment.md")).unwrap();
    let heading = new_md.lines().position(|l| l == "## Error codes").unwrap();
    assert_eq!(
        at(&c["new"]),
        format!("shipment.md:{}:1", heading + 1),
        "{c:#}"
    );
    // The other way round: an added code, at the old error table's heading.
    let (_, back) = diff_json(&new, &old, &[]);
    let c = change(&back, "error-code-added");
    assert_eq!(
        at(&c["old"]),
        format!("shipment.md:{}:1", heading + 1),
        "{c:#}"
    );
    assert_eq!(at(&c["new"]), format!("shipment.md:{}:1", row + 1), "{c:#}");
}

/// One edit, two tightenings of one field (its char cap lowered and a pattern added): each
/// change gets a witness refused for that change alone, re-judged on both sides.
#[test]
fn two_tightenings_of_one_edit_each_get_a_witness_for_that_change() {
    let (report, old, new) = rich_pair(
        "two-tightenings",
        &[],
        &[
            (
                "shipment.md",
                "| `recipient` | 20 chars |",
                "| `recipient` | 10 chars |",
            ),
            (
                "shipment.md",
                "| `recipient` | non-blank string |",
                "| `recipient` | non-blank string matching `^[A-Z]` |",
            ),
        ],
    );
    for (id, code) in [
        ("pattern-added", "bad_tracking"),
        ("cap-tightened", "too_long"),
    ] {
        let c = change(&report, id);
        proved(id, &old, &new, c);
        let refused = verdict_of(&c["witness"]["new"]);
        assert!(!refused.0, "{id}: {c:#}");
        assert!(
            refused.1.iter().all(|(c, p)| c == code && p == "recipient"),
            "{id}: the witness is refused for this change alone: {refused:?}"
        );
    }
}

/// A default in a list's items, which the byte cap reads (the written form leaves a field at
/// its default out): no corpus document sits at the cap with such an item, so the witness
/// is a changed document padded up to the cap, which flips both ways.
#[test]
fn a_nested_default_read_by_the_byte_cap_is_proved_by_a_padded_document() {
    let kind = |default: &str| {
        (
            "shipment.md",
            "| `hours` | uint32? 1..=10 | — | Hours. |",
            format!("| `hours` | uint32? 1..=10 | — | Hours. |\n| `kind` | uint32 | — (default {default}) | Kind. |"),
        )
    };
    let (o, n) = (kind("1"), kind("2"));
    let (report, old, new) = rich_pair(
        "nested-default",
        &[(o.0, o.1, o.2.as_str())],
        &[(n.0, n.1, n.2.as_str())],
    );
    let c = change(&report, "default-changed");
    assert_eq!(c["breaks"], json!(["documents", "readers"]), "{c:#}");
    proved("nested-default", &old, &new, c);
    for w in c["witnesses"].as_array().unwrap() {
        assert!(
            w["source"]
                .as_str()
                .unwrap()
                .ends_with("padded to the byte cap"),
            "{w:#}"
        );
        let refused = if w["proves"] == "documents" {
            &w["new"]
        } else {
            &w["old"]
        };
        assert_eq!(
            verdict_of(refused).1,
            [("too_big".to_owned(), String::new())]
        );
    }
}
