//! Spec mistakes: each is reported at its exact `file:LINE:COL` with a hint, and several
//! mistakes are all reported together. The diagnostics are golden files (`tests/mistakes/`,
//! [`every_mistake_reports_its_golden_diagnostics`]); the tests below hold what a spec that
//! loads must then generate, beside the mistake cases they border.

use std::path::{Path, PathBuf};

use specmint_codegen::{generate, load, Options, SpecSource};

const MD: &str = "# Mini v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | The name. |
| `tags` | string[] | — | Tags. |
| `kind` | shade | — (default dark) | The shade. |

## Shades: `shade`

| Value | Meaning |
|---|---|
| `dark` | Dark. |
| `light` | Light. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `name` | 10 chars | NAME_MAX_CHARS |
| `tags` items | 3 | TAGS_MAX |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `blank` | Blank. |
| `too_long` | Too long. |
| `too_many` | Too many. |

```json valid
{\"name\": \"x\"}
```
";

const TOML: &str = "[spec]
root = \"doc\"

[errors]
enum = \"DocError\"
parse = \"bad_doc\"
non_blank = \"blank\"
max_chars = \"too_long\"
max_items = \"too_many\"
";

fn source(md: &str, toml: &str) -> SpecSource {
    SpecSource {
        name: "mini".into(),
        md_path: "spec/mini.md".into(),
        md: md.into(),
        toml_path: "spec/mini.toml".into(),
        toml: toml.into(),
        locales: Vec::new(),
    }
}

/// Every diagnostic of a spec that does not load, as the CLI prints it. Each is two lines,
/// the second a hint.
fn diagnostics(md: &str, toml: &str) -> String {
    let d = load(&source(md, toml)).expect_err("the spec has a mistake");
    let text = d.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        2 * d.len(),
        "each diagnostic is two lines:\n{text}"
    );
    for pair in lines.chunks(2) {
        assert!(
            pair[1].starts_with("  hint: ") && pair[1].len() > 10,
            "{text}"
        );
    }
    text
}

/// The spec mistakes of `tests/mistakes/`: each case is `<case>.md` and `<case>.toml`, loaded
/// as `spec/mini.md` and `spec/mini.toml`, and `<case>.stderr`, every diagnostic they give,
/// exactly. A case is named after what it shows (`_2`, `_3`: more of the same). Add a case by
/// writing its `.md` and `.toml`; `SPECMINT_OVERWRITE=1 cargo test -p specmint-codegen --test it
/// mistakes::` then writes (or rewrites) every `.stderr`, to be read in the diff before it is
/// committed.
#[test]
fn every_mistake_reports_its_golden_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mistakes");
    let overwrite = std::env::var_os("SPECMINT_OVERWRITE").is_some();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for path in &cases {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default();
        let sibling = |ext: &str| path.with_extension(ext);
        assert!(
            matches!(ext, "md" | "toml" | "stderr") && sibling("md").is_file(),
            "{}: a case is <case>.md, <case>.toml and <case>.stderr",
            path.display()
        );
        if ext != "md" {
            continue;
        }
        let read = |ext: &str| {
            std::fs::read_to_string(sibling(ext))
                .unwrap_or_else(|e| panic!("{}: {e}", sibling(ext).display()))
        };
        let got = diagnostics(&read("md"), &read("toml"));
        if overwrite {
            std::fs::write(sibling("stderr"), &got).unwrap();
        } else if read("stderr") != got {
            wrong.push(format!(
                "{}:\n--- expected\n{}--- got\n{got}",
                sibling("stderr").display(),
                read("stderr")
            ));
        }
        checked += 1;
    }
    assert!(checked >= 99, "only {checked} cases in {}", dir.display());
    assert!(
        wrong.is_empty(),
        "{} of {checked} cases differ (SPECMINT_OVERWRITE=1 rewrites them):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn edit(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in the base spec");
    text.replacen(from, to, 1)
}

#[test]
fn base_spec_loads() {
    let spec = load(&source(MD, TOML)).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.caps.len(), 2);
    let files = generate(&[source(MD, TOML)], &Options::default()).unwrap();
    assert!(files["rust/mini.rs"].contains("pub const NAME_MAX_CHARS: usize = 10;"));
}

#[test]
fn generate_reports_every_spec() {
    let bad = source(&edit(MD, "10 chars", "10 glyphs"), TOML);
    let mut other = source(MD, "");
    other.name = "other".into();
    other.md_path = "spec/other.md".into();
    other.toml_path = "spec/other.toml".into();
    let d = generate(&[bad, other], &Options::default()).unwrap_err();
    assert_eq!(d.len(), 2, "{d}");
}

#[test]
fn always_written_fields_have_no_skip() {
    let toml = format!("{TOML}\n[canonical]\nalways_written = [\"kind\", \"tags\"]\n");
    let files = generate(&[source(MD, &toml)], &Options::default()).unwrap();
    let rust = &files["rust/mini.rs"];
    assert!(
        rust.contains("#[serde(default = \"default_doc_kind\")]\n    pub kind: Shade,"),
        "{rust}"
    );
    assert!(
        rust.contains("#[serde(default)]\n    #[validate(max_items(max = TAGS_MAX"),
        "{rust}"
    );
    assert!(!rust.contains("is_default_doc_kind"), "{rust}");
}

#[test]
fn input_size_guard_takes_the_byte_caps_code_or_the_parse_code() {
    // Without a document byte cap, DocumentSpec::new's default (the parse code) stands.
    let files = generate(&[source(MD, TOML)], &Options::default()).unwrap();
    let rust = &files["rust/mini.rs"];
    assert!(
        rust.contains("DocumentSpec::new(\n        \"doc\",\n        \"bad_doc\",\n    )"),
        "{rust}"
    );
    assert!(!rust.contains("with_too_large_code"), "{rust}");
    let md = edit(
        MD,
        "| `tags` items | 3 | TAGS_MAX |",
        "| `tags` items | 3 | TAGS_MAX |\n| Whole doc | 100 bytes | DOC_MAX_BYTES |",
    )
    .replace(
        "| `too_many` | Too many. |",
        "| `too_many` | Too many. |\n| `too_big` | Too big. |",
    );
    let toml = format!(
        "{}\n[caps.DOC_MAX_BYTES]\nrule = \"document_bytes\"\n",
        TOML.replace(
            "max_items = \"too_many\"",
            "max_items = \"too_many\"\nmax_bytes = \"too_big\""
        )
    );
    let files =
        generate(&[source(&md, &toml)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let rust = &files["rust/mini.rs"];
    assert!(rust.contains(".with_too_large_code(\"too_big\")"), "{rust}");
}

/// A table with exactly a known kind's columns in another order is a mistake (its rows would
/// be read by position), not prose to skip: a cap table written `Constant | Cap | Value` would
/// otherwise drop its caps without a word.
#[test]
fn a_table_sharing_only_some_of_a_kinds_columns_is_prose() {
    // A table that shares only some of a kind's columns (fewer than most of them in
    // place) is prose.
    for table in [
        "| Constant | Cap | Why |\n|---|---|---|\n| X | y | z |",
        "| Limit | Amount | Constant |\n|---|---|---|\n| X | y | z |",
        "| Value | Notes |\n|---|---|\n| X | y |",
        "| Refusal | When |\n|---|---|\n| X | y |",
    ] {
        let md = edit(
            MD,
            "## Error codes",
            &format!("## Notes\n\n{table}\n\n## Error codes"),
        );
        generate(&[source(&md, TOML)], &Options::default())
            .unwrap_or_else(|d| panic!("{table}: {d}"));
    }
}

/// A table with an `object by` field cannot be open: its enum chooses its members (the case
/// `an_object_by_table_cannot_be_open`); closed, the same spec is a spec.
#[test]
fn an_object_by_table_closed_is_a_spec() {
    let md = r#"# Mini v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `action` | act | ✔ | The action. |
| `payload` | object by `action` | ✔ | The payload. |

## Fields of a `go_payload`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `speed` | uint32 | ✔ | Speed. |

## Acts: `act`

| Value | Meaning |
|---|---|
| `go` | Go. |
| `stop` | Stop. |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |

```json valid
{"action": "stop", "payload": {}}
```
"#;
    let toml = "[spec]\nroot = \"doc\"\n\n[errors]\nenum = \"DocError\"\nparse = \"bad_doc\"\n\n[open]\nobjects = [\"doc\"]\n";
    // The same spec with the table closed is a spec.
    let closed = toml.replace("\n[open]\nobjects = [\"doc\"]\n", "\n");
    generate(&[source(md, &closed)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
}

/// An open object: no `deny_unknown_fields`, a flattened carrier, no `additionalProperties:
/// false` in the schema, and no unknown-key case in the corpus; `any` is `{}`-like.
#[test]
fn an_open_object_is_open_everywhere() {
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | any[] |");
    let toml = format!("{TOML}\n[open]\nobjects = [\"doc\"]\n");
    let files =
        generate(&[source(&md, &toml)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let rust = &files["rust/mini.rs"];
    assert!(!rust.contains("deny_unknown_fields"), "{rust}");
    assert!(
        rust.contains(
            "#[serde(flatten)]\n    pub unlisted_members: ::specmint_runtime::json::OpenMembers,"
        ),
        "{rust}"
    );
    assert!(
        rust.contains("pub tags: ::std::vec::Vec<::specmint_runtime::json::Json>,"),
        "{rust}"
    );
    let schema: serde_json::Value =
        serde_json::from_str(&files["schema/mini.schema.json"]).unwrap();
    assert_eq!(schema["$defs"]["doc"].get("additionalProperties"), None);
    assert_eq!(
        schema["$defs"]["doc"]["properties"]["tags"]["items"],
        serde_json::json!({"$ref": "#/$defs/any"})
    );
    let corpus = &files["corpus/mini/cases.json"];
    assert!(
        !corpus.contains("\"unknown_key."),
        "an open object keeps unknown keys"
    );
    // Closed as before without `[open]`.
    let closed = generate(&[source(MD, TOML)], &Options::default()).unwrap();
    assert!(closed["rust/mini.rs"].contains("deny_unknown_fields"));
    assert!(closed["corpus/mini/cases.json"].contains("\"unknown_key."));
}

/// The spec with `name` typed `string matching` the pattern written `cell` in the table.
fn with_pattern(cell: &str) -> (String, String) {
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        &format!(
            "| `tags` | string[] | — | Tags. |\n| `slug` | string matching `{cell}` | ✔ | Slug. |"
        ),
    )
    .replace(
        "| `too_many` | Too many. |",
        "| `too_many` | Too many. |\n| `bad_slug` | Not a slug. |",
    )
    .replace("{\"name\": \"x\"}", "{\"name\": \"x\", \"slug\": \"ab\"}");
    let toml = TOML.replace(
        "max_items = \"too_many\"",
        "max_items = \"too_many\"\npattern = \"bad_slug\"",
    );
    (md, toml)
}

#[test]
fn a_well_formed_portable_pattern_loads() {
    let (md, toml) = with_pattern("^[a-z0-9]+(?:-[a-z0-9]+)*$");
    let files =
        generate(&[source(&md, &toml)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    // `$` is the end of the text for every consumer: Python's `re` is told too.
    let schema: serde_json::Value =
        serde_json::from_str(&files["schema/mini.schema.json"]).unwrap();
    let slug = &schema["$defs"]["doc"]["properties"]["slug"];
    assert_eq!(slug["pattern"], "^[a-z0-9]+(?:-[a-z0-9]+)*$", "{slug}");
    assert_eq!(
        slug["allOf"],
        serde_json::json!([{"not": {"pattern": "\n$"}}]),
        "{slug}"
    );
}

#[test]
fn a_negated_class_without_the_line_feed_is_one_meaning_everywhere() {
    // The same class with the line feed excluded is fine.
    let (md, toml) = with_pattern("^[^/\\n]+$");
    load(&source(&md, &toml)).unwrap_or_else(|d| panic!("{d}"));
}

/// A `Constant | Value | Meaning` table: each row an exact `&str` constant.
const TEXTS: &str = "
## Section headers

| Constant | Value | Meaning |
|---|---|---|
| HEADER_ZH | `## 約束` | The constraints header. |
| HEADER_EN | `## Constraints` | Also recognised. |
";

#[test]
fn text_rows_become_str_constants() {
    let md = format!("{MD}{TEXTS}");
    let spec = load(&source(&md, TOML)).unwrap_or_else(|d| panic!("{d}"));
    let texts: Vec<(&str, &str)> = spec
        .texts
        .iter()
        .map(|t| (t.constant.as_str(), t.value.as_str()))
        .collect();
    assert_eq!(
        texts,
        [("HEADER_ZH", "## 約束"), ("HEADER_EN", "## Constraints")]
    );
    let files = generate(&[source(&md, TOML)], &Options::default()).unwrap();
    let rust = &files["rust/mini.rs"];
    assert!(
        rust.contains("/// The constraints header.\npub const HEADER_ZH: &str = \"## 約束\";"),
        "{rust}"
    );
    assert!(rust.contains("pub const HEADER_EN: &str = \"## Constraints\";"));
}

#[test]
fn attribute_hooks_naming_nothing_or_not_attributes_are_reported_together() {
    let options = Options {
        type_attributes: vec![
            ("mini.doc".into(), "#[derive(Hash)]".into()),
            ("mini.dco".into(), "#[derive(Hash)]".into()),
            ("mini.shade".into(), "derive(Hash)".into()),
        ],
        field_attributes: vec![
            ("mini.doc.name".into(), "#[serde(alias = \"title\")]".into()),
            ("mini.doc.nmae".into(), "#[allow(unused)]".into()),
        ],
        ..Options::default()
    };
    let d = generate(&[source(MD, TOML)], &options).unwrap_err();
    assert_eq!(
        d.to_string(),
        "<options>: error: type_attribute path `mini.dco` names no generated type\n  \
         hint: write `<spec>.<table>` (`orders.line_item`), `<spec>` or `.`\n\
         <options>: error: type_attribute `derive(Hash)` for `mini.shade` is not outer attributes (`#[..]`)\n  \
         hint: write attributes as in Rust: `#[derive(Hash)]`\n\
         <options>: error: field_attribute path `mini.doc.nmae` names no generated struct field\n  \
         hint: write `<spec>.<table>.<key>` (`orders.line_item.sku`)"
    );
}

#[test]
fn attribute_hooks_land_on_their_type_and_field_and_the_header_names_the_build_script() {
    let options = Options {
        type_attributes: vec![
            ("mini.shade".into(), "#[non_exhaustive]".into()),
            (".".into(), "#[allow(dead_code)]".into()),
        ],
        field_attributes: vec![("mini.doc.name".into(), "#[serde(alias = \"title\")]".into())],
        ..Options::default()
    };
    let files = generate(&[source(MD, TOML)], &options).unwrap();
    let rust = &files["rust/mini.rs"];
    assert!(rust.starts_with(
        "// @generated by specmint from spec/mini.md; do not edit, edit the spec: the build \
         script (specmint_codegen::Config) writes this file again on every build\n"
    ));
    assert_eq!(rust.matches("#[allow(dead_code)]").count(), 2, "{rust}");
    // After the derives (and their helpers' settings), so that a derive's helper attribute
    // given this way (`#[validate(custom = ..)]`) follows its derive.
    assert!(
        rust.contains(
            "#[serde(crate = \"::specmint_runtime::__private::serde\")]\n#[non_exhaustive]\n#[allow(dead_code)]\npub enum Shade {\n"
        ),
        "{rust}"
    );
    assert!(
        rust.contains("    #[serde(alias = \"title\")]\n    pub name: ::std::string::String,"),
        "{rust}"
    );
    let regenerated = Options {
        regenerate_with: Some("make specs".into()),
        ..Options::default()
    };
    let files = generate(&[source(MD, TOML)], &regenerated).unwrap();
    for (name, text) in &files {
        assert!(
            text.contains(
                "@generated by specmint from spec/mini.md; do not edit, run `make specs`"
            ),
            "{name}"
        );
    }
}

/// A union member carries no rule but `non-blank`: nothing checks a member's literal,
/// `relative-path`, format or range, so each is refused at its code span rather than stated
/// in the schema and never enforced.
#[test]
fn a_union_member_carries_no_rule_but_non_blank() {
    let union = |members: &str| {
        let md = edit(
            MD,
            "## Error codes",
            &format!("## Sinks: `sink`\n\n| kind | Fields | Meaning |\n|---|---|---|\n| `file` | {members} | A file. |\n\n## Error codes"),
        );
        edit(
            &md,
            "| `kind` | shade |",
            "| `out` | sink? | — | Where it goes. |\n| `kind` | shade |",
        )
    };
    // `non-blank`, plain text and tables stay allowed.
    let md = union("`name: non-blank string`, `note: string?`, `kind2: shade`");
    generate(&[source(&md, TOML)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
}

const RULES_MD: &str = "# Rules v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `s1` | string | ✔ | Text. |
| `s2` | string | ✔ | Text. |
| `n1` | string? | — | Maybe text. |
| `n2` | string? | — | Maybe text. |
| `l1` | string[] | ✔ | Texts. |
| `l2` | string[] | ✔ | Texts. |
| `x1` | any | ✔ | Anything. |
| `x2` | any | ✔ | Anything. |
| `u1` | sink | ✔ | A sink. |
| `u2` | sink | ✔ | A sink. |
| `o1` | item | ✔ | An item. |
| `o2` | item | ✔ | An item. |
| `k1` | shade | ✔ | A shade. |
| `k2` | shade | ✔ | A shade. |
| `i1` | int64 | ✔ | A count. |
| `i2` | int64 | ✔ | A count. |
| `f1` | number | ✔ | A number. |
| `f2` | number | ✔ | A number. |
| `b1` | bool | ✔ | A flag. |
| `b2` | bool | ✔ | A flag. |
| `blob` | blob | ✔ | Content. |

## Fields of an `item`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `id` | string | ✔ | Id. |

## Fields of a `blob`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `sha` | string? | — | Digest. |
| `data` | string | ✔ | Content. |
| `enc` | shade | ✔ | Encoding. |
| `enc2` | string? | — | Encoding. |

## Shades: `shade`

| Value | Meaning |
|---|---|
| `utf8` | Text. |
| `base64` | Bytes. |

## Sinks: `sink`

| kind | Fields | Meaning |
|---|---|---|
| `out` | — | Standard output. |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `same` | Two fields equal. |
| `listed` | A value listed. |
| `digest` | Content does not match. |
";

const RULES_TOML: &str = "[spec]
root = \"doc\"

[errors]
parse = \"bad_doc\"

[[not_equal]]
a = \"s1\"
b = \"s2\"
code = \"same\"

[[not_contains]]
list = \"l1\"
value = \"n1\"
code = \"listed\"

[[digest]]
path = \"blob\"
sha256 = \"sha\"
data = \"data\"
encoding = \"enc\"
code = \"digest\"
";

/// `[[not_equal]]` compares two plain text, number, bool or enum fields: its message shows
/// the value (`Display`), and two absent `T?` fields would count as equal. Every other type
/// is refused at the entry, where it would otherwise check and then not compile.
#[test]
fn not_equal_compares_plain_scalar_fields_only() {
    generate(&[source(RULES_MD, RULES_TOML)], &Options::default())
        .unwrap_or_else(|d| panic!("{d}"));
    for (a, b) in [("k1", "k2"), ("i1", "i2"), ("f1", "f2"), ("b1", "b2")] {
        let toml = edit(
            RULES_TOML,
            "a = \"s1\"\nb = \"s2\"",
            &format!("a = \"{a}\"\nb = \"{b}\""),
        );
        let files = generate(&[source(RULES_MD, &toml)], &Options::default())
            .unwrap_or_else(|d| panic!("{a}: {d}"));
        let needle = format!("not_equal(a = {a}, b = {b}, code = \"same\")");
        assert!(files["rust/mini.rs"].contains(&needle), "{a}");
    }
}

/// A JSON key that is a keyword not even a raw identifier can be (`self`, `Self`, `crate`,
/// `super`) becomes the field `<keyword>_`, renamed back by serde, so a HAL or JSON:API
/// `self` link can be specified; a key with no ASCII letter or digit cannot be a field.
#[test]
fn keys_that_are_not_raw_identifiers_become_fields_with_a_trailing_underscore() {
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        "| `tags` | string[] | — | Tags. |\n| `self` | string? | — | Its own link. |\n| `crate` | string? | — | A crate. |\n| `super` | link? | — | The parent. |",
    );
    let md = edit(
        &md,
        "## Error codes",
        "## Links: `link`\n\n| kind | Fields | Meaning |\n|---|---|---|\n| `href` | `Self: string` | A link. |\n\n## Error codes",
    );
    let files =
        generate(&[source(&md, TOML)], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
    let rust = &files["rust/mini.rs"];
    syn::parse_file(rust).expect("the generated Rust parses");
    for needle in [
        "rename = \"self\",",
        "pub self_: ::core::option::Option<::std::string::String>,",
        "rename = \"crate\",",
        "pub crate_: ::core::option::Option<::std::string::String>,",
        "rename = \"super\",",
        "pub super_: ::core::option::Option<Link>,",
        "#[serde(rename = \"Self\")]\n        self_: ::std::string::String,",
    ] {
        assert!(rust.contains(needle), "{needle}\nin\n{rust}");
    }
}

/// Every example is judged when the spec loads (with the interpreter, the validator the CLI
/// runs): a `json valid` example the spec refuses, a `json invalid` one that fails with
/// other violations than its fence lists (or in another order), and one the spec accepts
/// are spec errors at their fences, worded as the generated `spec_examples` tests word
/// them; `generate` then emits nothing.
#[test]
fn wrong_examples_are_spec_errors_at_their_fence() {
    let md = edit(MD, "{\"name\": \"x\"}", "{\"name\": \" \"}")
        + "\n```json invalid too_many@tags too_long@name\n\
           {\"name\": \"abcdefghijk\", \"tags\": [\"a\", \"b\", \"c\", \"d\"]}\n```\n\
           \n```json invalid blank@name\n{\"name\": \"y\"}\n```\n";
    let refused = generate(&[source(&md, TOML)], &Options::default()).unwrap_err();
    assert_eq!(refused.len(), 3, "{refused}");
    // Each stated right, the spec loads.
    let right = md
        .replacen("{\"name\": \" \"}", "{\"name\": \"x\"}", 1)
        .replacen(
            "too_many@tags too_long@name",
            "too_long@name too_many@tags",
            1,
        )
        .replacen("{\"name\": \"y\"}", "{\"name\": \"\\u3000\"}", 1);
    load(&source(&right, TOML)).unwrap_or_else(|d| panic!("{d}"));
}

/// Issue 23, item 5: `[errors.rules]` gives one rule on one field its own code, beside
/// `[errors.paths]` (every rule on the field), which it beats; an entry naming no rule kind,
/// or a rule the field does not have, is an error at the entry.
#[test]
fn one_code_per_rule_on_one_path() {
    let md = edit(
        MD,
        "| `too_many` | Too many. |",
        "| `too_many` | Too many. |\n| `bad_name` | A bad name. |\n| `name_too_long` | A long name. |",
    );
    let rules = "\n[errors.rules]\n\"name\" = { max_chars = \"name_too_long\" }\n";
    // Every rule on `name` has an override, so [errors] maps neither kind (it would be
    // "taken by no rule"), and the table has no `blank` / `too_long`.
    let toml = format!("{TOML}{rules}\n[errors.paths]\n\"name\" = \"bad_name\"\n")
        .replace("non_blank = \"blank\"\n", "")
        .replace("max_chars = \"too_long\"\n", "");
    let md_both = edit(&md, "| `blank` | Blank. |\n", "");
    let md_both = edit(&md_both, "| `too_long` | Too long. |\n", "");
    let spec = load(&source(&md_both, &toml)).unwrap_or_else(|d| panic!("{d}"));
    let v = specmint_codegen::Validator::new(&spec);
    let codes = |doc: &str| {
        v.validate(doc.as_bytes())
            .unwrap_err()
            .iter()
            .map(|e| e.code.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(r#"{"name": " "}"#), ["bad_name"]);
    assert_eq!(codes(r#"{"name": "abcdefghijk"}"#), ["name_too_long"]);
    // Alone it leaves the field's other rules to [errors].
    let toml = format!("{TOML}{rules}").replace("max_chars = \"too_long\"\n", "");
    let md_alone = edit(&md, "| `bad_name` | A bad name. |\n", "");
    let md_alone = edit(&md_alone, "| `too_long` | Too long. |\n", "");
    let spec = load(&source(&md_alone, &toml)).unwrap_or_else(|d| panic!("{d}"));
    let v = specmint_codegen::Validator::new(&spec);
    let codes = |doc: &str| {
        v.validate(doc.as_bytes())
            .unwrap_err()
            .iter()
            .map(|e| e.code.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(r#"{"name": " "}"#), ["blank"]);
    assert_eq!(codes(r#"{"name": "abcdefghijk"}"#), ["name_too_long"]);
    let files = generate(&[source(&md_alone, &toml)], &Options::default()).unwrap();
    assert!(
        files["rust/mini.rs"].contains("code = \"name_too_long\""),
        "the derive gets the code"
    );
}
