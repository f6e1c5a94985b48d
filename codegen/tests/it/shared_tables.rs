//! Issue 46: codes and caps that differ per use of a shared table, by path. An
//! EN 16931-like invoice whose `party` table is used at `seller` and `buyer`, and whose
//! `address` table at `seller.address`, `buyer.address` and `lines[].ship_to`: the buyer's
//! missing name and country code are `BR-07` and `BR-11` (the seller's `BR-06` and `BR-09`,
//! from the Required cells), its pattern code `BR-CL-15`, and each address line its own cap.
//! The loader gives each use whose overrides differ its own copy of the table, so the
//! interpreter, the generated Rust, the schema, the corpus and diff see distinct tables.

use serde_json::Value;
use specmint_codegen::model::{Object, Spec, TypeDef};
use specmint_codegen::{generate, load, Options};

use crate::common::{self, assert_holds, error_lines, source, verdict};
use crate::corpus_probes::{corpus, errors_of};

/// The spec (also read by the language server's test in `cli/tests/it/lsp.rs`).
pub(crate) const MD: &str = include_str!("../shared_tables/inv.md");

pub(crate) const TOML: &str = include_str!("../shared_tables/inv.toml");

fn object<'s>(spec: &'s Spec, name: &str) -> &'s Object {
    spec.types
        .iter()
        .find_map(|t| match t {
            TypeDef::Object(o) if o.name == name => Some(o),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no table `{name}`"))
}

fn table_of(o: &Object, key: &str) -> String {
    match &o.fields.iter().find(|f| f.key == key).unwrap().ty.base {
        specmint_codegen::model::Base::Object(n) => n.clone(),
        other => panic!("{other:?}"),
    }
}

/// The copies: the uses no override reaches keep the table (`address` at
/// `lines[].ship_to`); when every use has overrides the first keeps it (`party` at
/// `seller`); the others are named after their first use's path.
#[test]
fn each_use_whose_overrides_differ_gets_its_own_table() {
    let spec = load(&source("inv", MD, TOML)).unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "invoice",
            "party",
            "buyer_party",
            "address",
            "seller_address",
            "buyer_address",
            "line"
        ]
    );
    let root = object(&spec, "invoice");
    assert_eq!(table_of(root, "seller"), "party");
    assert_eq!(table_of(root, "buyer"), "buyer_party");
    assert_eq!(
        table_of(object(&spec, "party"), "address"),
        "seller_address"
    );
    assert_eq!(
        table_of(object(&spec, "buyer_party"), "address"),
        "buyer_address"
    );
    assert_eq!(table_of(object(&spec, "line"), "ship_to"), "address");
    let copy = object(&spec, "buyer_address");
    assert_eq!(copy.rust_name, "BuyerAddress");
    assert_eq!(
        copy.copy_of,
        Some(("address".to_owned(), "buyer.address".to_owned()))
    );
    let cc = |t: &str| object(&spec, t).fields[1].rules.clone();
    assert_eq!(cc("address").required.as_deref(), Some("BR-09"));
    assert_eq!(cc("seller_address").required.as_deref(), Some("BR-09"));
    assert_eq!(cc("buyer_address").required.as_deref(), Some("BR-11"));
    assert_eq!(cc("buyer_address").pattern.as_deref(), Some("BR-CL-15"));
    assert_eq!(cc("address").pattern.as_deref(), Some("BR-CL-14"));
    let line = |t: &str| {
        object(&spec, t).fields[0]
            .rules
            .max_chars
            .clone()
            .map(|c| c.constant)
    };
    assert_eq!(line("seller_address").as_deref(), Some("SELLER_LINE_MAX"));
    assert_eq!(line("buyer_address").as_deref(), Some("BUYER_LINE_MAX"));
    assert_eq!(line("address"), None);
}

/// The interpreter reports each path's own code, cap and message.
#[test]
fn the_interpreter_reports_each_uses_own_codes_and_caps() {
    let doc = r#"{"number": "1", "seller": {"address": {"line": "12345678901", "country_code": "de"}}, "buyer": {"address": {"line": "12345678901"}}, "lines": [{"id": "1", "ship_to": {"line": "123456789012345678901"}}]}"#;
    assert_eq!(
        verdict("inv", MD, TOML, doc),
        [
            "BR-06@seller.name: `seller.name` is required",
            "too_long@seller.address.line: `seller.address.line` is 11 chars (max 10)",
            "BR-CL-14@seller.address.country_code: `seller.address.country_code` `de` does not match `^[A-Z]{2}$`",
            "BR-07@buyer.name: `buyer.name` is required",
            "BR-11@buyer.address.country_code: `buyer.address.country_code` is required",
            "BR-09@lines[0].ship_to.country_code: `lines[0].ship_to.country_code` is required",
        ]
    );
    let buyer_long = r#"{"number": "1", "seller": {"name": "A", "address": {"country_code": "DE"}}, "buyer": {"name": "B", "address": {"line": "123456789012345678901", "country_code": "fr"}}, "lines": []}"#;
    assert_eq!(
        verdict("inv", MD, TOML, buyer_long),
        [
            "too_long@buyer.address.line: `buyer.address.line` is 21 chars (max 20)",
            "BR-CL-15@buyer.address.country_code: `buyer.address.country_code` `fr` does not match `^[A-Z]{2}$`",
        ]
    );
}

/// The schema has one `$defs` entry per copy, each with its own cap; the corpus probes
/// both paths with their own codes.
#[test]
fn the_schema_and_the_corpus_see_each_use() {
    let files = generate(&[source("inv", MD, TOML)], &Options::default()).unwrap();
    let schema: Value = serde_json::from_str(&files["schema/inv.schema.json"]).unwrap();
    let max = |t: &str| {
        schema["$defs"][t]["properties"]["line"]
            .get("maxLength")
            .cloned()
    };
    assert_eq!(max("seller_address"), Some(10.into()));
    assert_eq!(max("buyer_address"), Some(20.into()));
    assert_eq!(max("address"), None);
    assert_eq!(
        schema["$defs"]["buyer_party"]["properties"]["address"]["$ref"],
        "#/$defs/buyer_address"
    );
    let c = corpus("inv", MD, TOML);
    assert_eq!(
        errors_of(&c, "required.seller.address.country_code").unwrap(),
        ["BR-09@seller.address.country_code"]
    );
    assert_eq!(
        errors_of(&c, "required.buyer.address.country_code").unwrap(),
        ["BR-11@buyer.address.country_code"]
    );
    assert_eq!(
        errors_of(&c, "pattern.buyer.address.country_code.lower").unwrap(),
        ["BR-CL-15@buyer.address.country_code"]
    );
    assert_eq!(
        errors_of(&c, "max_chars.buyer.address.line.ascii.n+1").unwrap(),
        ["too_long@buyer.address.line"]
    );
    assert!(errors_of(&c, "max_chars.buyer.address.line.ascii.n")
        .unwrap()
        .is_empty());
}

/// The generated Rust compiles (a scratch crate depending on `specmint-runtime` alone) and
/// agrees with the interpreter: the spec's examples become its `spec_examples` tests, and a
/// test of the crate compares each violation's code, path and message with the
/// interpreter's.
#[test]
fn generated_rust_reports_each_uses_own_codes() {
    let docs = [
        (
            "inv",
            MD,
            TOML,
            "inv::Invoice",
            r#"{"number": "1", "seller": {"address": {"line": "12345678901", "country_code": "de"}}, "buyer": {"address": {"line": "12345678901"}}, "lines": [{"id": "1", "ship_to": {"line": "123456789012345678901"}}]}"#,
        ),
        (
            "inv",
            MD,
            TOML,
            "inv::Invoice",
            r#"{"number": "1", "seller": {"name": "A", "address": {"country_code": "DE"}}, "buyer": {"name": "B", "address": {"line": "123456789012345678901", "country_code": "fr"}}, "lines": []}"#,
        ),
        ("ship", SHIP_MD, SHIP_TOML, "ship::Shipment", SHIP_DOC),
    ];
    let mut agree = String::from("#[test]\nfn agrees_with_the_interpreter() {\n");
    for (name, md, toml, ty, doc) in docs {
        let expected = verdict(name, md, toml, doc);
        assert!(!expected.is_empty());
        agree.push_str(&format!(
            "    let got: Vec<String> = specmint_runtime::document::parse_document_str::<{ty}>({doc:?}, &{name}::DOCUMENT).err().unwrap_or_default().iter().map(|v| format!(\"{{}}@{{}}: {{}}\", v.code, v.path, v.message)).collect();\n    assert_eq!(got, {expected:?});\n"
        ));
    }
    agree.push_str("}\n");
    let dir = common::runtime_crate("shared_tables", "specmint-shared-tables");
    let files = generate(&[source("inv", MD, TOML)], &Options::default()).unwrap();
    let rust = &files["rust/inv.rs"];
    assert!(rust.contains("pub struct BuyerAddress {"));
    assert!(rust.contains("pub address: SellerAddress,"), "{rust}");
    std::fs::write(dir.join("src/inv.rs"), rust).unwrap();
    // The shipments spec too: a copy with a conditional requirement of its own code.
    let files = generate(&[source("ship", SHIP_MD, SHIP_TOML)], &Options::default()).unwrap();
    let ship = &files["rust/ship.rs"];
    assert_holds(
        ship,
        &[
            "pub struct LinesToPlace {",
            "required_if(field = kind, equals = \"port\", code = \"line_needs_code\")",
            "required_if(field = kind, equals = \"port\", code = \"needs_code\")",
        ],
    );
    std::fs::write(dir.join("src/ship.rs"), ship).unwrap();
    // And the recursive ones: copies of a table that contains itself, boxed as it is.
    let quoting = quoting_md();
    for (name, md, toml) in [
        ("tree", TREE_MD, TREE_TOML),
        ("comments", ROOT_MD, ROOT_TOML),
        ("quoting", quoting.as_str(), ROOT_TOML),
    ] {
        let files = generate(&[source(name, md, toml)], &Options::default()).unwrap();
        std::fs::write(
            dir.join(format!("src/{name}.rs")),
            &files[&format!("rust/{name}.rs")],
        )
        .unwrap();
    }
    std::fs::write(
        dir.join("src/lib.rs"),
        format!("pub mod comments;\npub mod inv;\npub mod quoting;\npub mod ship;\npub mod tree;\n{agree}"),
    )
    .unwrap();
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
    assert!(stdout.contains("8 passed; 0 failed"), "{stdout}");
}

/// Uses whose overrides agree share one table, and a table used once keeps its overrides
/// (as before): no copy.
#[test]
fn uses_that_agree_share_one_table() {
    let toml = TOML.replace(
        r#""buyer.name" = { required = "BR-07" }
"buyer.address.country_code" = { required = "BR-11", pattern = "BR-CL-15" }"#,
        r#""seller.address.country_code" = { required = "BR-11" }
"buyer.address.country_code" = { required = "BR-11" }
"lines[].ship_to.country_code" = { required = "BR-11" }"#,
    );
    let md = MD
        .replace("| `seller.address.line` | 10 chars | SELLER_LINE_MAX |\n| `buyer.address.line` | 20 chars | BUYER_LINE_MAX |\n", "| `number` | 30 chars | NUMBER_MAX |\n")
        .replace("| `BR-07` | No buyer name. |\n", "")
        .replace("| `BR-CL-15` | A buyer country code is not one. |\n", "");
    let md = md.split("```json").next().unwrap().to_owned();
    let spec = load(&source("inv", &md, &toml)).unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["invoice", "party", "address", "line"]);
    assert_eq!(
        object(&spec, "address").fields[1].rules.required.as_deref(),
        Some("BR-11")
    );
}

/// `[errors.tables]` holds for every copy of its table; a copy's name that is taken gets
/// `_2`.
#[test]
fn table_codes_hold_for_copies_and_taken_names_get_a_number() {
    let md = MD
        .replace(
            "## Error codes",
            "## Fields of a `buyer_address`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `x` | string? | — | Unused. |\n\n## Error codes",
        )
        .replace(
            "| `lines` | line[] | ✔ | The lines. |",
            "| `lines` | line[] | ✔ | The lines. |\n| `other` | buyer_address? | — | Another table. |",
        )
        .replace(
            "| `seller.address.line` | 10 chars | SELLER_LINE_MAX |\n| `buyer.address.line` | 20 chars | BUYER_LINE_MAX |\n",
            "| `number` | 30 chars | NUMBER_MAX |\n",
        )
        .replace("| `BR-CL-15` | A buyer country code is not one. |\n", "")
        .replace("| `BR-CL-14` | A country code is not one. |\n", "| `bad_address` | An address is wrong. |\n");
    let md = md.split("```json").next().unwrap().to_owned();
    let toml = format!("{TOML}\n[errors.tables]\naddress = \"bad_address\"\n")
        .replace(", pattern = \"BR-CL-15\" }", " }")
        .replace("pattern = \"BR-CL-14\"\n", "");
    let spec = load(&source("inv", &md, &toml)).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(table_of(object(&spec, "party"), "address"), "address");
    assert_eq!(
        table_of(object(&spec, "buyer_party"), "address"),
        "buyer_address_2"
    );
    assert_eq!(object(&spec, "buyer_address_2").rust_name, "BuyerAddress2");
    for t in ["address", "buyer_address_2"] {
        let rules = &object(&spec, t).fields[1].rules;
        assert_eq!(rules.pattern.as_deref(), Some("bad_address"), "{t}");
    }
    assert_eq!(
        object(&spec, "buyer_address_2").fields[1]
            .rules
            .required
            .as_deref(),
        Some("BR-11")
    );
    assert_eq!(
        object(&spec, "address").fields[1].rules.required.as_deref(),
        Some("BR-09")
    );
}

const TREE_MD: &str = "# Tree

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `tree` | node | ✔ | The tree. |

## Fields of a `node`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | The name. |
| `children` | node[] | — | The children. |

## Error codes

| Code | When |
|---|---|
| `bad_tree` | Not the shape. |
| `blank` | Blank. |
| `blank_child` | A child's name is blank. |

```json invalid blank@tree.name blank_child@tree.children[0].name blank@tree.children[0].children[0].name
{\"tree\": {\"name\": \" \", \"children\": [{\"name\": \" \", \"children\": [{\"name\": \" \"}]}]}}
```
";

const TREE_TOML: &str = "[spec]
root = \"doc\"

[errors]
parse = \"bad_tree\"
non_blank = \"blank\"

[errors.paths]
\"tree.children[].name\" = \"blank_child\"
";

/// The root table itself used inside itself: the root keeps its name; the uses inside,
/// which no override reaches, get `children_node` (and `meta` there stays `meta`).
const ROOT_MD: &str = "# Comments

## Fields of a `node`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | string | ✔ | The name. |
| `meta` | meta | ✔ | Its metadata. |
| `children` | node[] | — | The replies. |

## Fields of a `meta`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `note` | non-blank string | ✔ | A note. |

## Error codes

| Code | When |
|---|---|
| `bad_comment` | Not the shape. |
| `blank` | Blank. |
| `bad_meta` | The top note is blank. |

```json invalid bad_meta@meta.note blank@children[0].meta.note
{\"name\": \"a\", \"meta\": {\"note\": \" \"}, \"children\": [{\"name\": \"b\", \"meta\": {\"note\": \" \"}}]}
```
";

const ROOT_TOML: &str = "[spec]
root = \"node\"

[errors]
parse = \"bad_comment\"
non_blank = \"blank\"

[errors.paths]
\"meta.note\" = \"bad_meta\"
";

/// The comments spec with a union member typed by the root table.
fn quoting_md() -> String {
    ROOT_MD
        .replace(
            "| `children` | node[] | — | The replies. |",
            "| `children` | node[] | — | The replies. |\n| `quote` | quote? | — | A quoted comment. |",
        )
        .replace(
            "## Error codes",
            "## Kinds of a `quote`\n\n| kind | Fields | Meaning |\n|---|---|---|\n| `inline` | `of: node` | A quoted comment. |\n\n## Error codes",
        )
        .split("```json")
        .next()
        .unwrap()
        .to_owned()
}

/// A table that contains itself splits as any other: the overrides below a use are finite,
/// so the copies are (`tree` → `tree_node`, `tree.children[]` → `tree_children_node`, deeper
/// the plain `node`); the examples (judged at load) say each path's code.
#[test]
fn a_table_that_contains_itself_splits_into_finitely_many_copies() {
    let spec = load(&source("tree", TREE_MD, TREE_TOML)).unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["doc", "node", "tree_node", "tree_children_node"]);
    assert_eq!(
        table_of(object(&spec, "tree_node"), "children"),
        "tree_children_node"
    );
    assert_eq!(
        table_of(object(&spec, "tree_children_node"), "children"),
        "node"
    );
    assert_eq!(table_of(object(&spec, "node"), "children"), "node");
    let spec = load(&source("comments", ROOT_MD, ROOT_TOML)).unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    assert_eq!(names, ["node", "children_node", "meta", "meta_2"]);
    assert_eq!(spec.root, "node");
    assert_eq!(table_of(object(&spec, "node"), "meta"), "meta_2");
    assert_eq!(table_of(object(&spec, "node"), "children"), "children_node");
    assert_eq!(table_of(object(&spec, "children_node"), "meta"), "meta");
    assert_eq!(
        table_of(object(&spec, "children_node"), "children"),
        "children_node"
    );
    // A union member typed by the root table is a use no override reaches: it names the
    // copy without the root's overrides.
    let md = quoting_md();
    let doc = r#"{"name": "a", "meta": {"note": " "}, "quote": {"kind": "inline", "of": {"name": "b", "meta": {"note": " "}}}}"#;
    assert_eq!(
        verdict("comments", &md, ROOT_TOML, doc),
        [
            "bad_meta@meta.note: `meta.note` must not be blank",
            "blank@quote.of.meta.note: `quote.of.meta.note` must not be blank"
        ]
    );
    // A path of one member names the root's field at the root only.
    let md = ROOT_MD
        .replace("| `name` | string |", "| `name` | non-blank string |")
        .split("```json")
        .next()
        .unwrap()
        .to_owned();
    let toml = format!("{ROOT_TOML}\"name\" = \"bad_meta\"\n");
    let doc = r#"{"name": " ", "meta": {"note": "n"}, "children": [{"name": " ", "meta": {"note": "n"}}]}"#;
    assert_eq!(
        verdict("comments", &md, &toml, doc),
        [
            "bad_meta@name: `name` must not be blank",
            "blank@children[0].name: `children[0].name` must not be blank"
        ]
    );
}

/// `required` in `[errors.rules]` gives a coded requirement's code; on a field without
/// one it is a spec error at the entry. A second cap row on one path names the first.
#[test]
fn required_needs_a_coded_requirement_and_a_second_cap_names_the_first() {
    let toml = TOML.replace("\"buyer.name\" = { required = \"BR-07\" }", "\"buyer.address.line\" = { required = \"BR-07\" }\n\"buyer.name\" = { required = \"BR-07\" }");
    let text = error_lines("inv", MD, &toml).join("\n");
    assert_holds(&text, &["error: [errors.rules] `buyer.address.line` gives a code to `required`, which is no rule of that field"]);
    let md = MD.replace(
        "| `buyer.address.line` | 20 chars | BUYER_LINE_MAX |",
        "| `seller.address.line` | 20 chars | BUYER_LINE_MAX |",
    );
    let md = md.split("```json").next().unwrap().to_owned();
    let text = error_lines("inv", &md, TOML).join("\n");
    assert_holds(
        &text,
        &["error: `seller.address.line` already has a char cap: `SELLER_LINE_MAX` on line 37"],
    );
}

/// `specmint diff` from one shared code to per-path codes reports the code changed at the
/// buyer's path (the old spec's table at that path is compared with the new copy), not a
/// new table or a changed field type, with a witness document whose code flips there.
#[test]
fn diff_reports_a_per_path_code_at_its_path() {
    // The valid example stays (the corpus, where witnesses are found, is built on it).
    let strip = |md: &str| md.split("```json invalid").next().unwrap().to_owned();
    let old_md = strip(&MD.replace("| `BR-07` | No buyer name. |\n", "").replace("| `BR-11` | No buyer country code. |\n", "").replace("| `BR-CL-15` | A buyer country code is not one. |\n", "").replace("| `seller.address.line` | 10 chars | SELLER_LINE_MAX |\n| `buyer.address.line` | 20 chars | BUYER_LINE_MAX |\n", "| `number` | 30 chars | NUMBER_MAX |\n"));
    let old_toml = TOML.split("[errors.rules]").next().unwrap().to_owned();
    let new_md = strip(&MD.replace("| `BR-07` | No buyer name. |\n", "").replace("| `seller.address.line` | 10 chars | SELLER_LINE_MAX |\n| `buyer.address.line` | 20 chars | BUYER_LINE_MAX |\n", "| `number` | 30 chars | NUMBER_MAX |\n"));
    let new_toml = TOML.replace("\"buyer.name\" = { required = \"BR-07\" }\n", "");
    let report = specmint_codegen::diff::diff(
        &[source("inv", &old_md, &old_toml)],
        &[source("inv", &new_md, &new_toml)],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let messages: Vec<String> = report
        .changes
        .iter()
        .map(|c| format!("{}: {}", c.id, c.message))
        .collect();
    assert_eq!(
        messages,
        [
            "type-renamed: the Rust type at `buyer` (table `buyer_party`, `party` with that path's own codes or caps) is `BuyerParty`, was `Party`",
            "type-renamed: the Rust type at `buyer.address` (table `buyer_address`, `address` with that path's own codes or caps) is `BuyerAddress`, was `Address`",
            "error-code-changed: the required rule on `buyer.address.country_code` is reported as `BR-11`, was `BR-09`",
            "error-code-changed: the pattern rule on `buyer.address.country_code` is reported as `BR-CL-15`, was `BR-CL-14`",
            "error-code-added: error code `BR-11` added",
            "error-code-added: error code `BR-CL-15` added",
        ]
    );
    // Each code change has a witness: a document the old spec refuses with the old code and
    // the new one with the new code, at the buyer's path (the seller's stays `BR-09`).
    let at = "buyer.address.country_code".to_owned();
    for (change, was, now) in [(2, "BR-09", "BR-11"), (3, "BR-CL-14", "BR-CL-15")] {
        let proofs = &report.changes[change].proofs;
        let [specmint_codegen::diff::Proof::Found(w)] = proofs.as_slice() else {
            panic!("{proofs:#?}");
        };
        assert_eq!(w.proves, specmint_codegen::diff::Break::Codes);
        assert!(
            w.old.errors.contains(&(was.to_owned(), at.clone())),
            "{w:#?}"
        );
        assert!(
            w.new.errors.contains(&(now.to_owned(), at.clone())),
            "{w:#?}"
        );
        assert!(
            !w.new.errors.contains(&(was.to_owned(), at.clone())),
            "{w:#?}"
        );
    }
}

const SHIP_MD: &str = "# Shipments v1

## Fields of a `shipment`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `origin` | place | ✔ | Where it leaves. |
| `lines` | line[] | ✔ | The lines. |
| `via` | hop? | — | A hop. |

## Fields of a `line`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string | ✔ | The line. |
| `to` | place | ✔ | Where it goes. |

## Fields of a `place`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `kind` | string | ✔ | `port` or `city`. |
| `code` | string? | if `kind` is `port` | The port code. |
| `name` | string | ✔ | The name. |

## Kinds of a `hop`

| type | Fields | Meaning |
|---|---|---|
| `stop` | `at: place` | A stop. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| Names of the lines' places | 5 chars | LINE_NAME_MAX |

## Error codes

| Code | When |
|---|---|
| `bad_shipment` | Not the shape. |
| `needs_code` | A port has no code. |
| `line_needs_code` | A line's port has no code. |
| `too_long` | A name is too long. |

```json valid
{\"origin\": {\"kind\": \"city\", \"name\": \"Ghent\"}, \"lines\": []}
```
";

const SHIP_TOML: &str = "[spec]
root = \"shipment\"

[errors]
parse = \"bad_shipment\"
required_if = \"needs_code\"
max_chars = \"too_long\"

[errors.rules]
\"lines[].to.code\" = { required_if = \"line_needs_code\" }

[caps.LINE_NAME_MAX]
rule = \"max_chars\"
path = \"lines[].to.name\"
";

const SHIP_DOC: &str = r#"{"origin": {"kind": "port", "name": "Antwerp"}, "lines": [{"id": "1", "to": {"kind": "port", "name": "Rotterdam"}}], "via": {"type": "stop", "at": {"kind": "port", "name": "Vlissingen"}}}"#;

/// Paths through `[]` and `[caps.X] path` split a table too; a conditional requirement of a
/// copy takes its path's code; a union member's table keeps the original (paths stop at a
/// union), as does every use no override reaches.
#[test]
fn paths_through_lists_caps_in_the_sidecar_and_union_members() {
    let spec = load(&source("ship", SHIP_MD, SHIP_TOML)).unwrap_or_else(|d| panic!("{d}"));
    let names: Vec<&str> = spec.types.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        ["shipment", "line", "place", "lines_to_place", "hop"]
    );
    assert_eq!(table_of(object(&spec, "line"), "to"), "lines_to_place");
    assert_eq!(table_of(object(&spec, "shipment"), "origin"), "place");
    let got = verdict("ship", SHIP_MD, SHIP_TOML, SHIP_DOC);
    assert_eq!(
        got,
        [
            "needs_code@origin.code: `origin.code` is required when `kind` is `port`",
            "line_needs_code@lines[0].to.code: `lines[0].to.code` is required when `kind` is `port`",
            "too_long@lines[0].to.name: `lines[0].to.name` is 9 chars (max 5)",
            "needs_code@via.at.code: `via.at.code` is required when `kind` is `port`",
        ]
    );
}
