//! specmint as a dependency (issue 33): a crate that wants `TaskPacket` gets the types and
//! their validators, not the program. A probe crate outside the workspace depends on the
//! library by path at its default features (README's line), builds, and judges a packet; its dependency tree
//! and each binding's hold none of the program's or the stores' crates; and no publishable
//! library pins a dependency to one exact version.

use std::path::Path;
use std::process::{Command, Output};

use super::common;

/// Crates only the program, the stores or TaskPack's behaviour bring.
const HEAVY: &[&str] = &[
    "clap",
    "tokio",
    "hyper",
    "rmcp",
    "postgres",
    "tokio-postgres",
    "rusqlite",
    "zip",
];

/// Crates only the code generator brings (`interpret`, `from-spec`): a crate that wants the
/// types builds none of them. (syn itself is in every tree: the derives, serde's and
/// `specmint-macros`, are built with it.)
const GENERATOR: &[&str] = &["specmint-codegen", "prettyplease", "pulldown-cmark", "toml"];

/// The probe's `main.rs`: a packet read and judged as README's first quickstart does.
const PROBE_MAIN: &str = r#"
fn main() {
    let input = std::env::args().nth(1).unwrap();
    match specmint::task_packet::TaskPacket::from_json_slice(input.as_bytes()) {
        Ok(packet) => println!("ok {}", packet.packet_id),
        Err(report) => {
            for v in report {
                println!("{} {}", v.code, v.path);
            }
        }
    }
}
"#;

/// `cargo <args> --offline` in `dir`, into the tests' shared scratch target directory.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let out = common::scratch_cargo(dir)
        .args(args)
        .arg("--offline")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cargo {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The package names of a `cargo tree --prefix none` listing, each once, sorted.
fn names(tree: &Output) -> Vec<String> {
    let mut names: Vec<String> = String::from_utf8_lossy(&tree.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect();
    names.sort();
    names.dedup();
    names
}

fn heavy_in(names: &[String]) -> Vec<&str> {
    listed_in(HEAVY, names)
}

fn listed_in<'a>(list: &[&'a str], names: &[String]) -> Vec<&'a str> {
    list.iter()
        .copied()
        .filter(|h| names.iter().any(|n| n == h))
        .collect()
}

#[test]
fn a_crate_that_wants_task_packet_builds_the_types_alone() {
    let dir = common::scratch("probe");
    let root = common::root();
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            r#"[package]
name = "specmint-probe"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
{}
"#,
            common::readme_dependency("specmint")
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), PROBE_MAIN).unwrap();
    // The workspace's lock file: the same versions, offline.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

    let normal = names(&cargo(&dir, &["tree", "-e", "normal", "--prefix", "none"]));
    assert!(
        normal.len() <= 40,
        "{} crates (at most 40): {normal:?}",
        normal.len()
    );
    assert_eq!(heavy_in(&normal), Vec::<&str>::new(), "{normal:?}");
    assert_eq!(
        listed_in(GENERATOR, &normal),
        Vec::<&str>::new(),
        "{normal:?}"
    );
    // No C: nothing in the build, build scripts included, uses the `cc` crate.
    let all = names(&cargo(
        &dir,
        &["tree", "-e", "normal,build", "--prefix", "none"],
    ));
    assert!(!all.iter().any(|n| n == "cc"), "{all:?}");

    cargo(&dir, &["build", "--quiet"]);
    let exe = common::scratch_target_dir().join("debug/specmint-probe");
    let run = |packet: &str| {
        let out = Command::new(&exe).arg(packet).output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let packet = common::packet_with("");
    assert_eq!(run(&packet), "ok pk-1\n");
    let blank = packet.replace(r#""objective":"do it""#, r#""objective":"  ""#);
    assert_ne!(blank, packet);
    assert_eq!(run(&blank), "blank_field objective\n");
}

#[test]
fn the_bindings_hold_none_of_the_programs_crates() {
    for binding in ["specmint-python", "specmint-node", "specmint-wasm"] {
        let tree = cargo(
            &common::root(),
            &["tree", "-p", binding, "-e", "normal", "--prefix", "none"],
        );
        let names = names(&tree);
        assert_eq!(heavy_in(&names), Vec::<&str>::new(), "{binding}: {names:?}");
    }
}

#[test]
fn no_publishable_library_pins_an_exact_version() {
    let out = cargo(
        &common::root(),
        &["metadata", "--format-version", "1", "--no-deps"],
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut libraries = 0;
    for package in metadata["packages"].as_array().unwrap() {
        let unpublished = package["publish"].as_array().is_some_and(Vec::is_empty);
        let library = package["targets"].as_array().unwrap().iter().any(|t| {
            t["kind"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k == "lib" || k == "proc-macro")
        });
        if unpublished || !library {
            continue;
        }
        libraries += 1;
        for dep in package["dependencies"].as_array().unwrap() {
            if dep["kind"].is_null() {
                let req = dep["req"].as_str().unwrap();
                assert!(
                    !req.starts_with('='),
                    "{}: {} = \"{req}\"",
                    package["name"],
                    dep["name"]
                );
            }
        }
    }
    // specmint, -build, -cli (the program's library), -codegen, -fs, -macros, -runtime, -suggest.
    assert_eq!(libraries, 8);
}
