//! The README's second quickstart, for real: a new crate with its own spec tables uses
//! `specmint-codegen` in its build.rs and `specmint-runtime` + `specmint-macros` at run time.

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

fn main() {
    let ok = orders::Order::from_json_str(r#"{"order_id":"o-1","lines":[{"sku":"A","note":"ten chars!"}]}"#);
    assert_eq!(ok.unwrap().priority, orders::Priority::Normal);
    let bad = orders::Order::from_json_str(r#"{"order_id":" ","lines":[{"sku":"A","note":"eleven char"},{"sku":"a"}]}"#);
    for v in bad.unwrap_err() {
        println!("{} {} {}", v.code, v.path, v.message);
    }
    println!("{}", orders::LINES_MAX);
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
specmint-macros = {{ path = "{root}/macros" }}
serde = {{ version = "1", features = ["derive"] }}

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
        r#"fn main() {
    if let Err(diagnostics) = specmint_codegen::Config::new()
        .spec_dir("spec")
        .out_dir(std::env::var("OUT_DIR").unwrap())
        .run()
    {
        eprintln!("{diagnostics}");
        std::process::exit(1);
    }
}
"#,
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
         3\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
