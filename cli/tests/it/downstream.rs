//! The README's second quickstart, for real: a new crate with its own spec tables uses
//! `specmint-codegen` in its build.rs (the README's recipe, read from the README) and
//! `specmint-runtime` alone at run time (the derive and serde come through it); `cargo test`
//! there runs the spec's examples, and a broken spec fails the build with each diagnostic
//! printed once. The `type_attribute` / `field_attribute` hooks are added to that recipe.

use crate::common;

use std::process::{Command, Output};

const SPEC_MD: &str = r#"# Orders v1

## Fields of an `order`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `order_id` | non-blank string | ✔ | The order. |
| `lines` | line[] | ✔ | What is ordered. |
| `priority` | priority | — (default normal) | How urgent. |

## Fields of a `line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `sku` | non-blank string | ✔ | Stock keeping unit. |
| `note` | string? | — | Free text. |

## Priorities: `priority`

| Value | Meaning |
|---|---|
| `normal` | Whenever. |
| `rush` | Today. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `lines` | 3 items | LINES_MAX |
| `lines[].note` | 10 chars | NOTE_MAX_CHARS |

## Errors

| Code | When |
|---|---|
| `bad_order` | Not an order. |
| `empty` | A blank value. |
| `too_long` | Over a char cap. |
| `too_many` | Over an item cap. |
| `duplicate_sku` | Two lines with one sku. |

```json valid
{"order_id":"o-1","lines":[{"sku":"A"},{"sku":"B","note":"gift"}]}
```

```json invalid duplicate_sku@lines[1].sku
{"order_id":"o-1","lines":[{"sku":"A"},{"sku":"a"}]}
```
"#;

const SPEC_TOML: &str = r#"
[spec]
root = "order"
document = "order"

[errors]
enum = "OrderError"
parse = "bad_order"
non_blank = "empty"
max_chars = "too_long"
max_items = "too_many"

[[unique]]
path = "lines"
key = "sku"
ignore_case = true
code = "duplicate_sku"
"#;

const MAIN_RS: &str = r##"
mod orders {
    include!(concat!(env!("OUT_DIR"), "/rust/orders.rs"));
}

// One import: the trait and the derive.
use specmint_runtime::Validate;

#[derive(Validate)]
struct Note {
    #[validate(non_blank(code = "empty"))]
    text: String,
}

fn main() {
    let ok = orders::Order::from_json_str(r#"{"order_id":"o-1","lines":[{"sku":"A","note":"ten chars!"}]}"#);
    assert_eq!(ok.unwrap().priority, orders::Priority::Normal);
    let bad = orders::Order::from_json_str(r#"{"order_id":" ","lines":[{"sku":"A","note":"eleven char"},{"sku":"a"}]}"#);
    for v in bad.unwrap_err() {
        println!("{} {} {}", v.code, v.path, v.message);
    }
    println!("{}", orders::LINES_MAX);
    // field_attribute: `id` is read as `order_id`.
    let aliased = orders::Order::from_json_str(r#"{"id":"o-2","lines":[]}"#).unwrap();
    println!("{}", aliased.order_id);
    // type_attribute: lines are `Eq + Hash`.
    let set: std::collections::HashSet<orders::Line> = aliased.lines.into_iter().collect();
    println!("{}", set.len());
    // Every shape problem, after serde's message.
    println!("{}", orders::Order::from_json_str(r#"{"lines":[{"sku":1}],"priority":"soon"}"#).unwrap_err());
    println!("{}", Note { text: String::new() }.validate().unwrap_err());
    let header = include_str!(concat!(env!("OUT_DIR"), "/rust/orders.rs")).lines().next().unwrap();
    println!("{header}");
}
"##;

/// The README's build.rs recipe: the Rust block that starts with `// build.rs` (`no_run`: the
/// README's doc test compiles it; cargo runs it in a crate's build).
fn readme_build_rs() -> String {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let start = readme
        .find("```rust no_run\n// build.rs")
        .expect("README has a build.rs block")
        + "```rust no_run\n".len();
    let len = readme[start..].find("```").unwrap();
    readme[start..start + len].to_owned()
}

#[test]
fn the_crate_docs_show_the_readme_recipe() {
    let lib = std::fs::read_to_string(common::root().join("codegen/src/lib.rs")).unwrap();
    let docs: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .skip_while(|l| *l != "```no_run")
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    let readme = readme_build_rs();
    let readme: Vec<&str> = readme.lines().skip(1).collect(); // after `// build.rs`
    assert_eq!(docs, readme);
}

#[test]
fn the_guide_shows_the_readme_recipe() {
    let guide = std::fs::read_to_string(common::root().join("guide/src/own-spec.md")).unwrap();
    assert!(
        guide.contains(&format!("```rust no_run\n{}```", readme_build_rs())),
        "guide/src/own-spec.md's build.rs block is not the README's"
    );
}

/// A new crate `specmint-<tag>` in a scratch directory: `spec/orders.md` and `.toml`,
/// `src/main.rs`, and the README's build.rs.
fn downstream_crate(tag: &str, spec_md: &str, main_rs: &str) -> common::Scratch {
    let dir = common::scratch(&format!("downstream-{tag}"));
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = common::root();
    // Each crate has its own name: in the shared target directory, two root packages of one
    // name would share their build script's OUT_DIR.
    let manifest = format!(
        r#"[package]
name = "specmint-{tag}"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
{runtime}

[build-dependencies]
{codegen}
"#,
        runtime = common::readme_dependency("specmint-runtime"),
        codegen = common::readme_dependency("specmint-codegen"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The lock file pins the same dependency versions as this workspace, so the build is offline.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("spec/orders.md"), spec_md).unwrap();
    std::fs::write(dir.join("spec/orders.toml"), SPEC_TOML).unwrap();
    // Prose beside the specs (no sidecar, no field table) is not a spec and breaks nothing.
    std::fs::write(
        dir.join("spec/README.md"),
        "# Our specs\n\n| Spec | Owner |\n|---|---|\n| orders | sales |\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), main_rs).unwrap();
    // The README's recipe, with the attribute hooks the crate's main.rs relies on.
    let build_rs = readme_build_rs().replacen(
        r#".spec_dir("spec")"#,
        r##".spec_dir("spec").type_attribute("orders.line", "#[derive(Eq, Hash)]").field_attribute("orders.order.order_id", "#[serde(alias = \"id\")]")"##,
        1,
    );
    assert_ne!(
        build_rs,
        readme_build_rs(),
        "the recipe sets the spec directory"
    );
    std::fs::write(dir.join("build.rs"), build_rs).unwrap();
    dir
}

/// `cargo <command> --offline` in `dir`, into the tests' shared scratch target directory
/// (cargo's own messages go to stderr: stdout is the program's or the test harness's).
fn cargo(dir: &std::path::Path, command: &str) -> Output {
    common::scratch_cargo(dir)
        .args([command, "--offline"])
        .output()
        .unwrap()
}

/// What the failed build script printed to stderr, as cargo shows it after `--- stderr`:
/// the lines cargo indents, indent taken off. cargo may follow them with its own
/// `warning: build failed, waiting for other jobs to finish...` and no empty line between,
/// when other crates are still compiling (a cold target), so the indent is what tells.
fn build_script_stderr(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .skip_while(|l| l.trim() != "--- stderr")
        .skip(1)
        .map_while(|l| l.strip_prefix("  ").filter(|l| !l.trim().is_empty()))
        .collect()
}

/// The 1-based line of the first line of `text` equal to `line`.
fn line_of(text: &str, line: &str) -> usize {
    1 + text
        .lines()
        .position(|l| l == line)
        .unwrap_or_else(|| panic!("{line:?} is not a line"))
}

#[test]
fn a_downstream_crate_generates_and_validates_its_own_spec() {
    let dir = downstream_crate("orders", SPEC_MD, MAIN_RS);
    let out = cargo(&dir, "run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "empty order_id `order_id` must not be blank\n\
         too_long lines[0].note `lines[0].note` is 11 chars (max 10)\n\
         duplicate_sku lines[1].sku `lines[1].sku` `a` duplicates `lines[0].sku`\n\
         3\n\
         o-2\n\
         0\n\
         bad_order: invalid type: integer `1`, expected a string at line 1 column 18\n\
         bad_order: `priority` is `soon`, expected one of `normal`, `rush`\n\
         bad_order: `order_id` is required but missing\n\
         empty: `text` must not be blank\n\
         // @generated by specmint from spec/orders.md; do not edit, edit the spec: the build \
         script (specmint_codegen::Config) writes this file again on every build\n"
    );

    // `cargo test` runs the spec's two examples, named by their lines.
    let out = cargo(&dir, "test");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut tests: Vec<&str> = stdout.lines().filter(|l| l.contains(" ... ")).collect();
    tests.sort_unstable();
    let valid = line_of(SPEC_MD, "```json valid");
    let invalid = line_of(SPEC_MD, "```json invalid duplicate_sku@lines[1].sku");
    assert_eq!(
        tests,
        [
            format!("test orders::spec_examples::invalid_example_at_line_{invalid} ... ok"),
            format!("test orders::spec_examples::valid_example_at_line_{valid} ... ok"),
        ]
    );
    assert!(
        stdout.contains("test result: ok. 2 passed; 0 failed"),
        "{stdout}"
    );
}

/// A wrong example is a spec error, judged when build.rs loads the spec: the build fails
/// with each diagnostic once, worded as the generated `spec_examples` tests word it (those
/// tests then check that the compiled validator gives every example its stated verdict too).
#[test]
fn a_wrong_spec_example_fails_the_build_of_the_users_crate() {
    // A `valid` example that breaks a cap, and an `invalid` one naming the wrong path.
    let md = SPEC_MD
        .replacen(
            r#"{"sku":"B","note":"gift"}"#,
            r#"{"sku":"B","note":"gift wrapped"}"#,
            1,
        )
        .replacen(
            "```json invalid duplicate_sku@lines[1].sku",
            "```json invalid duplicate_sku@lines[0].sku",
            1,
        );
    assert_ne!(md, SPEC_MD);
    let dir = downstream_crate("wrong-examples", &md, MAIN_RS);
    let out = cargo(&dir, "build");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    let valid = line_of(&md, "```json valid");
    let invalid = line_of(&md, "```json invalid duplicate_sku@lines[0].sku");
    let hint = "  hint: make the example what its fence says, or the fence what the spec \
                reports: a `json invalid` fence lists every violation as `code@path`, in order";
    let diagnostics = [
        format!(
            "spec/orders.md:{valid}:1: error: the `json valid` example is refused: \
             too_long@lines[1].note (`lines[1].note` is 12 chars (max 10))"
        ),
        hint.to_owned(),
        format!(
            "spec/orders.md:{invalid}:1: error: the `json invalid duplicate_sku@lines[0].sku` \
             example fails with duplicate_sku@lines[1].sku (`lines[1].sku` `a` duplicates \
             `lines[0].sku`)"
        ),
        hint.to_owned(),
    ];
    let script_stderr = build_script_stderr(&stderr);
    assert_eq!(script_stderr, diagnostics, "{stderr}");
    assert_eq!(
        stderr.matches(diagnostics[0].as_str()).count(),
        1,
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_broken_spec_fails_the_build_with_each_diagnostic_printed_once() {
    let cap_row = "| `lines[].note` | 10 chars | NOTE_MAX_CHARS |";
    let broken_row = "| `lines[].note` | 10 chrs | NOTE_MAX_CHARS |";
    let md = SPEC_MD.replacen(cap_row, broken_row, 1).replacen(
        "| `note` | string? |",
        "| `note` | strng? |",
        1,
    );
    let dir = downstream_crate("broken-spec", &md, MAIN_RS);
    let out = cargo(&dir, "build");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(101), "{stderr}");
    let unit_at = line_of(&md, broken_row);
    let type_at = line_of(&md, "| `note` | strng? | — | Free text. |");
    let diagnostics = [
        format!("spec/orders.md:{type_at}:12: error: unknown type `strng` in `strng?`"),
        "  hint: did you mean `string`? use string, bool, uint32, uint64, int32, int64, number, decimal, any, \
         date-time, date, uri, email, or a table of this spec: `line`, `order`, `priority`"
            .to_owned(),
        format!("spec/orders.md:{unit_at}:20: error: unknown unit `chrs` in `10 chrs`"),
        "  hint: did you mean `chars`? units are `chars` (Unicode scalar values), `bytes` \
         (compact JSON) and `items`"
            .to_owned(),
    ];
    // The build script's stderr is the diagnostics, in order, each once, and nothing else:
    // no panic, no backtrace.
    let script_stderr = build_script_stderr(&stderr);
    assert_eq!(script_stderr, diagnostics, "{stderr}");
    for d in &diagnostics {
        assert_eq!(stderr.matches(d.as_str()).count(), 1, "{d}\n{stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Output independent of feature unification (issue 45): a crate that turns on serde_json's
/// `preserve_order` in the same build as specmint-codegen (Cargo unifies features, so the
/// generator's `Map` then keeps insertion order) gets the same bytes: the bundled specs
/// generate exactly the committed snapshot (schemas, corpora, Rust), as `generate --check`
/// compares it.
#[test]
fn preserve_order_in_the_build_changes_no_generated_byte() {
    let dir = common::scratch("preserve-order");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = common::root();
    let manifest = format!(
        r#"[package]
name = "specmint-preserve-order"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
{codegen}
serde_json = {{ version = "1", features = ["preserve_order"] }}
"#,
        codegen = common::readme_dependency("specmint-codegen"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        r##"
fn main() {
    // The build really has the feature: a map keeps the order its keys were inserted in.
    let mut map = serde_json::Map::new();
    map.insert("b".into(), 1.into());
    map.insert("a".into(), 2.into());
    assert_eq!(serde_json::Value::Object(map).to_string(), r#"{"b":1,"a":2}"#);

    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap());
    let sources = specmint_codegen::read_spec_dir(&root.join("spec"), "spec").unwrap();
    let options = specmint_codegen::Options {
        spec_dir_in_files: Some("spec".to_owned()),
        ..specmint_codegen::Options::for_specmint_library()
    };
    let files = specmint_codegen::generate(&sources, &options).unwrap();
    println!("{} files", files.len());
    for path in specmint_codegen::check_dir(&root.join("generated"), &files) {
        println!("differs: {path}");
    }
}
"##,
    )
    .unwrap();
    let build = cargo(&dir, "build");
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let exe = common::scratch_target_dir().join("debug/specmint-preserve-order");
    let run = Command::new(exe).arg(&root).output().unwrap();
    assert!(run.status.success(), "{run:?}");
    let stdout = String::from_utf8(run.stdout).unwrap();
    let files = std::fs::read_dir(root.join("generated/schema"))
        .unwrap()
        .count();
    assert!(files >= 4, "{files}");
    assert!(!stdout.contains("differs"), "{stdout}");
    assert!(stdout.ends_with(" files\n"), "{stdout}");
}
