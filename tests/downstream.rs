//! The README's second quickstart, for real: a new crate with its own spec tables uses
//! `specmint-codegen` in its build.rs and `specmint-runtime` alone at run time (the derive
//! and serde come through it), with `type_attribute` / `field_attribute` hooks.

mod common;

use std::process::Command;

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

#[test]
fn a_downstream_crate_generates_and_validates_its_own_spec() {
    let dir = std::env::temp_dir().join(format!("specmint-downstream-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = common::root();
    let manifest = format!(
        r#"[package]
name = "orders-demo"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
specmint-runtime = {{ path = "{root}/runtime" }}

[build-dependencies]
specmint-codegen = {{ path = "{root}/codegen" }}
"#,
        root = root.display()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The lock file pins the same dependency versions as this workspace, so the build is offline.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("spec/orders.md"), SPEC_MD).unwrap();
    std::fs::write(dir.join("spec/orders.toml"), SPEC_TOML).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN_RS).unwrap();
    std::fs::write(
        dir.join("build.rs"),
        r##"fn main() {
    if let Err(diagnostics) = specmint_codegen::Config::new()
        .spec_dir("spec")
        .type_attribute("orders.line", "#[derive(Eq, Hash)]")
        .field_attribute("orders.order.order_id", "#[serde(alias = \"id\")]")
        .out_dir(std::env::var("OUT_DIR").unwrap())
        .run()
    {
        eprintln!("{diagnostics}");
        std::process::exit(1);
    }
}
"##,
    )
    .unwrap();

    let out = Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--offline"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", common::scratch_target_dir())
        .output()
        .unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
}
