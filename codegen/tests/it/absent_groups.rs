//! Issue 46: "read as `{}` when absent" chains through plain `✔` member tables. A spec of an
//! EN 16931-like invoice: a `seller` group (plain `✔`) with a coded `name` and a plain `✔`
//! `address` whose `country_code` is coded; a document without `seller` reports both
//! members' codes, in the model, the corpus, the interpreter and the generated Rust.

use specmint_codegen::{generate, load, Options};

use crate::common;
use crate::corpus_probes::{corpus, errors_of};

pub(crate) const GROUP_MD: &str = include_str!("../absent_groups/invoice.md");

pub(crate) const GROUP_TOML: &str = include_str!("../absent_groups/invoice.toml");

/// Issue 46: "read as `{}` when absent" chains through a plain `✔` member table (`address`),
/// so a missing `seller` reports `seller.name`'s and `seller.address.country_code`'s codes
/// (the spec's `json invalid` examples say so too, checked at load), in the model, the
/// interpreter and the corpus alike.
#[test]
fn an_absent_group_reads_as_empty_through_a_plain_member_table() {
    let spec = load(&common::source("invoice", GROUP_MD, GROUP_TOML)).unwrap();
    let object = |name: &str| {
        spec.types
            .iter()
            .find_map(|t| match t {
                specmint_codegen::model::TypeDef::Object(o) if o.name == name => Some(o),
                _ => None,
            })
            .unwrap()
    };
    assert!(object("seller").defaultable && object("address").defaultable);
    assert!(!object("invoice").defaultable);
    let c = corpus("invoice", GROUP_MD, GROUP_TOML);
    assert_eq!(
        errors_of(&c, "required.seller").unwrap(),
        ["BR-06@seller.name", "BR-09@seller.address.country_code"]
    );
    assert_eq!(
        errors_of(&c, "required.seller.address").unwrap(),
        ["BR-09@seller.address.country_code"]
    );
    assert_eq!(
        common::verdict("invoice", GROUP_MD, GROUP_TOML, r#"{"number":"IN-1"}"#),
        [
            "BR-06@seller.name: `seller.name` is required",
            "BR-09@seller.address.country_code: `seller.address.country_code` is required"
        ]
    );
}

/// The generated Rust reads the group alike: the spec's examples (a missing `seller`, a
/// missing `address`) become `spec_examples` tests of the generated module, and `cargo test`
/// runs them against the compiled validator (a scratch crate depending on
/// `specmint-runtime` alone, built in the scratch target directory `compiles` uses).
#[test]
fn generated_rust_reports_the_members_of_an_absent_group() {
    let dir = common::runtime_crate("absent_groups", "specmint-absent-groups");
    let source = common::source("invoice", GROUP_MD, GROUP_TOML);
    let files = generate(&[source], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let rust = &files["rust/invoice.rs"];
    assert!(rust.contains("impl ::core::default::Default for Address {"));
    std::fs::write(dir.join("src/invoice.rs"), rust).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "pub mod invoice;\n").unwrap();
    let out = common::scratch_cargo(&dir)
        .args(["test", "--offline", "--lib", "--quiet"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("3 passed; 0 failed"), "{stdout}");
}
