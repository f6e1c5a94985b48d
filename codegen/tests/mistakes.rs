//! Spec mistakes: each is reported at its exact `file:LINE:COL` with a hint, and several
//! mistakes are all reported together.

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
    }
}

/// Every diagnostic as its two lines.
fn errors(md: &str, toml: &str) -> Vec<(String, String)> {
    let d = load(&source(md, toml)).expect_err("the spec has a mistake");
    let text = d.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines.len(),
        2 * d.len(),
        "each diagnostic is two lines:\n{text}"
    );
    lines
        .chunks(2)
        .map(|c| {
            assert!(c[1].starts_with("  hint: ") && c[1].len() > 10, "{text}");
            (c[0].to_owned(), c[1].to_owned())
        })
        .collect()
}

/// Exactly one diagnostic, whose first line is `expected`.
fn one(md: &str, toml: &str, expected: &str) {
    let errs = errors(md, toml);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0].0, expected, "hint: {}", errs[0].1);
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
fn sidecar_key_naming_no_row() {
    let toml = format!("{TOML}\n[caps.NOPE]\nrule = \"document_bytes\"\n");
    one(
        MD,
        &toml,
        "spec/mini.toml:11:7: error: [caps.NOPE] names no cap row",
    );
}

#[test]
fn cap_row_bound_to_nothing() {
    let md = edit(
        MD,
        "| `tags` items | 3 | TAGS_MAX |",
        "| Tag count | 3 | TAGS_MAX |",
    );
    one(
        &md,
        TOML,
        "spec/mini.md:23:3: error: cap row `TAGS_MAX` is bound to nothing",
    );
}

#[test]
fn cap_with_no_unit_on_a_string() {
    let md = edit(MD, "| `name` | 10 chars |", "| `name` | 10 |");
    one(
        &md,
        TOML,
        "spec/mini.md:22:12: error: cap `NAME_MAX_CHARS` has no unit and `name` is not an array",
    );
}

#[test]
fn unknown_unit() {
    let md = edit(MD, "10 chars", "10 glyphs");
    one(
        &md,
        TOML,
        "spec/mini.md:22:12: error: unknown unit `glyphs` in `10 glyphs`",
    );
}

#[test]
fn unit_that_does_not_fit() {
    let md = edit(MD, "| `tags` items | 3 |", "| `tags` items | 3 chars |");
    one(&md, TOML, "spec/mini.md:23:18: error: unit `chars` does not fit `tags`: it is an array (write `[]` to cap its elements)");
}

#[test]
fn unknown_type() {
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | strng[] |");
    one(
        &md,
        TOML,
        "spec/mini.md:8:12: error: unknown type `strng` in `strng[]`",
    );
}

/// Exactly one diagnostic: its first line is `expected`, its hint line `hint`.
fn one_with_hint(md: &str, toml: &str, expected: &str, hint: &str) {
    let errs = errors(md, toml);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!((errs[0].0.as_str(), errs[0].1.as_str()), (expected, hint));
}

#[test]
fn a_misspelt_type_gets_a_suggestion() {
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | strng[] |");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:8:12: error: unknown type `strng` in `strng[]`",
        "  hint: did you mean `string`? use string, bool, uint32, uint64, int32, int64, number, any, date-time, date, uri, email, or a table of this spec: `doc`, `shade`",
    );
    // A table name is suggested as much as a built-in type.
    let md = edit(MD, "| `kind` | shade |", "| `kind` | shdae |");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:9:12: error: unknown type `shdae` in `shdae`",
        "  hint: did you mean `shade`? use string, bool, uint32, uint64, int32, int64, number, any, date-time, date, uri, email, or a table of this spec: `doc`, `shade`",
    );
}

#[test]
fn unit_words_are_chars_bytes_items_and_near_misses_get_a_suggestion() {
    let units = "units are `chars` (Unicode scalar values), `bytes` (compact JSON) and `items`";
    for (word, meant) in [
        ("char", "chars"),
        ("characters", "chars"),
        ("chrs", "chars"),
        ("Chars", "chars"),
        ("byte", "bytes"),
    ] {
        let md = edit(MD, "10 chars", &format!("10 {word}"));
        one_with_hint(
            &md,
            TOML,
            &format!("spec/mini.md:22:12: error: unknown unit `{word}` in `10 {word}`"),
            &format!("  hint: did you mean `{meant}`? {units}"),
        );
    }
    let md = edit(MD, "| `tags` items | 3 |", "| `tags` items | 3 item |");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:23:18: error: unknown unit `item` in `3 item`",
        &format!("  hint: did you mean `items`? {units}"),
    );
    // Nothing close: the plain hint.
    let md = edit(MD, "10 chars", "10 glyphs");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:22:12: error: unknown unit `glyphs` in `10 glyphs`",
        &format!("  hint: {units}"),
    );
}

#[test]
fn misspelt_sidecar_keys_and_tables_get_a_suggestion() {
    // Read as the rule kind it is close to: no knock-on "no error code for item caps" or
    // "`too_many` is produced by nothing".
    let toml = edit(TOML, "max_items = ", "max_itmes = ");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:9:1: error: unknown key `max_itmes` in [errors]",
        "  hint: did you mean `max_items`? expected one of: enum, engine, tables, paths, \
         rules, parse, forbidden_key, non_blank, max_chars, max_items, min_chars, min_items, \
         max_items_per_group, max_bytes, equals, pattern, relative_path, range, format, \
         required_if",
    );
    let toml = edit(
        TOML,
        "[spec]\nroot = \"doc\"",
        "[spec]\nroot = \"doc\"\ndocumnet = \"doc\"",
    );
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:3:1: error: unknown key `documnet` in [spec]",
        "  hint: did you mean `document`? expected one of: root, document, extract, max_input_bytes, bom",
    );
    let toml = edit(TOML, "root = \"doc\"", "root = \"dco\"");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:2:8: error: root `dco` is not a field table",
        "  hint: did you mean `doc`? field tables: `doc`",
    );
    let toml = format!("{TOML}\n[caps.TAGS_MAXX]\nrule = \"max_items\"\n");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:11:7: error: [caps.TAGS_MAXX] names no cap row",
        "  hint: did you mean `TAGS_MAX`? the Constant column of the cap table has: \
         NAME_MAX_CHARS, TAGS_MAX",
    );
    let toml = format!("{TOML}\n[types]\nshdae = \"Shade\"\n");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:12:1: error: [types] names `shdae`, which is no table in the spec",
        "  hint: did you mean `shade`? known tables: `doc`, `shade`",
    );
    let toml = format!("{TOML}\n[open]\nobjects = [\"dox\"]\n");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:12:12: error: [open] objects names `dox`, which is no field table",
        "  hint: did you mean `doc`? name a field table of this spec (the `name` in its heading)",
    );
}

#[test]
fn an_unparsable_sidecar_is_reported_alone() {
    // One character off (a missing quote): nothing of the sidecar can be read, and no
    // knock-on error (no root, codes produced by nothing, ...) hides the real one.
    let toml = edit(TOML, "parse = \"bad_doc\"", "parse = \"bad_doc");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:6:17: error: the sidecar is not valid TOML: invalid basic string, expected `\"`",
        "  hint: fix the TOML syntax",
    );
}

#[test]
fn a_broken_required_cell_is_reported_alone() {
    let md = edit(
        MD,
        "| `name` | non-blank string | ✔ |",
        "| `name` | non-blank string | ✗ |",
    );
    one(
        &md,
        TOML,
        "spec/mini.md:7:31: error: cannot read the Required cell `✗`",
    );
}

#[test]
fn path_that_does_not_resolve() {
    let md = edit(MD, "| `name` | 10 chars |", "| `nmae` | 10 chars |");
    one(&md, TOML, "spec/mini.md:22:3: error: path `nmae` does not resolve: `doc` has no field `nmae` (fields: `name`, `tags`, `kind`)");
}

#[test]
fn code_used_but_not_in_the_table() {
    let toml = edit(TOML, "max_items = \"too_many\"", "max_items = \"too_mny\"");
    let errs = errors(MD, &toml);
    let lines: Vec<&str> = errs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        lines,
        [
            // The table row nothing produces any more, then the misspelt sidecar code.
            "spec/mini.md:32:3: error: error code `too_many` is produced by nothing",
            "spec/mini.toml:9:13: error: code `too_mny` is not in the error table",
        ]
    );
}

#[test]
fn code_in_the_table_produced_by_nothing() {
    let md = edit(
        MD,
        "| `too_many` | Too many. |",
        "| `too_many` | Too many. |\n| `unused` | Never. |",
    );
    one(
        &md,
        TOML,
        "spec/mini.md:33:3: error: error code `unused` is produced by nothing",
    );
}

#[test]
fn unmarked_json_fence() {
    let md = edit(MD, "```json valid", "```json");
    one(
        &md,
        TOML,
        "spec/mini.md:34:4: error: a `json` example does not say what it is",
    );
}

#[test]
fn missing_sidecar() {
    one(
        MD,
        "",
        "spec/mini.md:1:1: error: the sidecar `spec/mini.toml` is missing or empty",
    );
}

#[test]
fn unknown_sidecar_key() {
    let toml = edit(TOML, "root = \"doc\"", "root = \"doc\"\nrot = \"doc\"");
    one(
        MD,
        &toml,
        "spec/mini.toml:3:1: error: unknown key `rot` in [spec]",
    );
}

#[test]
fn optional_field_without_default() {
    let md = edit(MD, "| shade | — (default dark) |", "| shade | — |");
    one(
        &md,
        TOML,
        "spec/mini.md:9:20: error: optional field `kind` has no default",
    );
}

#[test]
fn duplicate_constant() {
    let md = edit(MD, "| 3 | TAGS_MAX |", "| 3 | NAME_MAX_CHARS |");
    one(
        &md,
        TOML,
        "spec/mini.md:23:22: error: duplicate constant `NAME_MAX_CHARS`",
    );
}

#[test]
fn several_mistakes_are_all_reported_in_order() {
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | strng[] |");
    let md = edit(&md, "```json valid", "```json");
    let md = edit(&md, "10 chars", "10 glyphs");
    // A broken row is reported once: the cap on `tags` stays silent.
    let toml = format!("{TOML}unknown = 1\n");
    let errs = errors(&md, &toml);
    let lines: Vec<&str> = errs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        lines,
        [
            "spec/mini.md:8:12: error: unknown type `strng` in `strng[]`",
            "spec/mini.md:22:12: error: unknown unit `glyphs` in `10 glyphs`",
            "spec/mini.md:34:4: error: a `json` example does not say what it is",
            "spec/mini.toml:10:1: error: unknown key `unknown` in [errors]",
        ]
    );
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
fn sidecar_rule_naming_no_field() {
    let md = edit(
        MD,
        "| `bad_doc` | Not the shape. |",
        "| `bad_doc` | Not the shape. |\n| `same` | Equal. |",
    );
    let toml = format!("{TOML}\n[[not_equal]]\na = \"name\"\nb = \"nmae\"\ncode = \"same\"\n");
    one(
        &md,
        &toml,
        "spec/mini.toml:13:5: error: `nmae` is no field of `doc`",
    );
}

#[test]
fn sidecar_code_missing_from_the_table_in_a_rule() {
    let toml = format!("{TOML}\n[[unique]]\npath = \"tags\"\nkey = \"id\"\ncode = \"dup\"\n");
    let errs = errors(MD, &toml);
    let lines: Vec<&str> = errs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        lines,
        [
            "spec/mini.toml:12:8: error: `tags` is not an array of objects",
            "spec/mini.toml:14:8: error: code `dup` is not in the error table",
        ]
    );
}

#[test]
fn optional_object_whose_table_cannot_read_empty() {
    // `—` on a field table without `?` means `{}`, which a table with a required member is not.
    let md = edit(MD, "| `tags` | string[] | — | Tags. |", "| `tags` | string[] | — | Tags. |\n| `box` | box | — | A box. |")
        + "\n## Members of a `box`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `lid` | string | ✔ | The lid. |\n";
    one(
        &md,
        TOML,
        "spec/mini.md:9:17: error: optional field `box` has no default: `{}` is not a `box` (`lid` of `box` is required)",
    );
    // A table that would contain itself has no `{}` either.
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        "| `tags` | string[] | — | Tags. |\n| `again` | doc | — | Recursion. |",
    );
    one(
        &md,
        TOML,
        "spec/mini.md:9:19: error: optional field `again` has no default: `{}` is not a `doc` (`doc` would contain itself)",
    );
}

#[test]
fn always_written_misuses() {
    let toml = |paths: &str| format!("{TOML}\n[canonical]\nalways_written = [{paths}]\n");
    let errs = errors(MD, &toml(r#""name", "tags[]", "nope", "kind", "kind""#));
    let firsts: Vec<&str> = errs.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(
        firsts,
        [
            "spec/mini.toml:12:19: error: [canonical] always_written names `name`, which is required",
            "spec/mini.toml:12:27: error: [canonical] always_written `tags[]` ends in `[]`",
            "spec/mini.toml:12:37: error: path `nope` does not resolve: `doc` has no field `nope` (fields: `name`, `tags`, `kind`)",
            "spec/mini.toml:12:53: error: [canonical] always_written names the field of `kind` twice",
        ]
    );
    one(
        MD,
        &toml(r#"1"#),
        "spec/mini.toml:12:19: error: `always_written` in [canonical] must list strings, found integer",
    );
    one(
        MD,
        &format!("{TOML}\n[canonical]\nalways = []\n"),
        "spec/mini.toml:12:1: error: unknown key `always` in [canonical]",
    );
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

/// `[open] objects` naming what is not a field table, twice, or with a member that takes the
/// carrier's Rust name; `any?` and a default on `any`; a bad `bom` or `max_input_bytes`.
#[test]
fn open_objects_misused() {
    let open = |list: &str| format!("{TOML}\n[open]\nobjects = {list}\n");
    one(
        MD,
        &open("[\"nope\"]"),
        "spec/mini.toml:12:12: error: [open] objects names `nope`, which is no field table",
    );
    one(
        MD,
        &open("[\"shade\"]"),
        "spec/mini.toml:12:12: error: [open] objects names `shade`, which is no field table",
    );
    one(
        MD,
        &open("[\"doc\", \"doc\"]"),
        "spec/mini.toml:12:19: error: [open] objects names `doc` twice",
    );
    let md = edit(
        MD,
        "| `tags` | string[] | — | Tags. |",
        "| `tags` | string[] | — | Tags. |\n| `unlisted_members` | string[] | — | Clash. |",
    );
    one(
        &md,
        &open("[\"doc\"]"),
        "spec/mini.toml:12:12: error: open `doc` lists `unlisted_members`, whose Rust name `unlisted_members` carries its unlisted members",
    );
    one(
        &edit(MD, "| `tags` | string[] |", "| `tags` | any? |"),
        TOML,
        "spec/mini.md:8:12: error: `any` already admits `null`; `?` in `any?` says nothing",
    );
    one(
        &edit(
            MD,
            "| `kind` | shade | — (default dark) |",
            "| `kind` | any | — (default dark) |",
        ),
        TOML,
        "spec/mini.md:9:18: error: a stated default (`dark`) on an `any` field",
    );
    one(
        MD,
        &TOML.replace("root = \"doc\"\n", "root = \"doc\"\nbom = \"strip\"\n"),
        "spec/mini.toml:3:7: error: unknown bom `strip`",
    );
    one(
        MD,
        &TOML.replace("root = \"doc\"\n", "root = \"doc\"\nmax_input_bytes = 0\n"),
        "spec/mini.toml:3:19: error: `max_input_bytes` in [spec] must be a positive integer",
    );
}

/// A table with exactly a known kind's columns in another order is a mistake (its rows would
/// be read by position), not prose to skip: a cap table written `Constant | Cap | Value` would
/// otherwise drop its caps without a word.
#[test]
fn a_known_tables_columns_in_another_order_are_an_error() {
    let md = edit(
        MD,
        "## Error codes",
        "## More caps\n\n| Constant | Cap | Value |\n|---|---|---|\n| TAGS_ITEM_MAX | `tags[]` | 5 chars |\n\n## Error codes",
    );
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:27:1: error: the columns `Constant | Cap | Value` are those of a cap table, in another order",
        "  hint: the columns of a cap table are `Cap | Value | Constant`, in that order (they are read by position)",
    );
    let md = edit(
        MD,
        "| Value | Meaning |\n|---|---|\n| `dark` |",
        "| meaning | VALUE |\n|---|---|\n| `dark` |",
    );
    // The table is not read; the field typed by it is not also an unknown type.
    let errs: Vec<String> = errors(&md, TOML).into_iter().map(|e| e.0).collect();
    assert_eq!(
        errs,
        ["spec/mini.md:13:1: error: the columns `meaning | VALUE` are those of an enum table, in another order"]
    );
    // An error table not read: the codes it would hold are not each reported missing.
    let md = edit(MD, "| Code | When |", "| When | Code |");
    let errs: Vec<String> = errors(&md, TOML).into_iter().map(|e| e.0).collect();
    assert_eq!(
        errs,
        ["spec/mini.md:27:1: error: the columns `When | Code` are those of an error table, in another order"]
    );
    // A table still unknown is reported, even beside a refused one.
    let md = edit(MD, "| Code | When |", "| When | Code |");
    let md = edit(&md, "| `kind` | shade |", "| `kind` | shdae |");
    let errs: Vec<String> = errors(&md, TOML).into_iter().map(|e| e.0).collect();
    assert_eq!(
        errs,
        [
            "spec/mini.md:9:12: error: unknown type `shdae` in `shdae`",
            "spec/mini.md:27:1: error: the columns `When | Code` are those of an error table, in another order",
        ]
    );
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

/// An `[errors]` mapping no rule of the spec asks for is an error, so a cap table whose
/// header is prose (only `Constant` in place) is still caught by the mappings of the
/// rules it held.
#[test]
fn an_errors_mapping_no_rule_asks_for_is_an_error() {
    let md = edit(
        MD,
        "| Cap | Value | Constant |",
        "| Limit | Amount | Constant |",
    );
    let errs = errors(&md, TOML);
    assert_eq!(
        errs,
        [
            (
                "spec/mini.toml:8:1: error: no rule of the spec is a `max_chars` rule".to_owned(),
                "  hint: remove the line, or find the table that should hold one: a table whose header is no kind's is prose".to_owned(),
            ),
            (
                "spec/mini.toml:9:1: error: no rule of the spec is a `max_items` rule".to_owned(),
                "  hint: remove the line, or find the table that should hold one: a table whose header is no kind's is prose".to_owned(),
            ),
        ]
    );
    // Not while another error is the cause: the broken table is reported alone.
    let md = edit(
        MD,
        "| Cap | Value | Constant |",
        "| Cap | Vaule | Constant |",
    );
    let errs: Vec<String> = errors(&md, TOML).into_iter().map(|e| e.0).collect();
    assert_eq!(
        errs,
        ["spec/mini.md:20:1: error: the columns `Cap | Vaule | Constant` are nearly those of a cap table"]
    );
}

/// A table with every column of a known kind and others as well, or with a kind's columns
/// one of them misspelt, is a mistake, not prose: its rows (caps, forbidden keys) would
/// otherwise be dropped without a word.
#[test]
fn a_known_tables_columns_with_others_or_misspelt_are_an_error() {
    let cases = [
        (
            "| Cap | Value | Constant | Note |\n|---|---|---|---|\n| `tags[]` | 5 chars | TAG_MAX_CHARS | Short. |",
            "the columns `Cap | Value | Constant | Note` are those of a cap table and `Note`",
            "a cap table has exactly the columns `Cap | Value | Constant`: remove the others (a table that shares only some of them is prose)",
        ),
        (
            "| Forbidden key | Why | Since |\n|---|---|---|\n| `password` | A secret. | v1 |",
            "the columns `Forbidden key | Why | Since` are those of a forbidden-key table and `Since`",
            "a forbidden-key table has exactly the columns `Forbidden key | Why`: remove the others (a table that shares only some of them is prose)",
        ),
        (
            // The widest kind whose columns are all there is named: a text table, not an enum.
            "| Note | Constant | Value | Meaning |\n|---|---|---|---|\n| x | A | `a` | A. |",
            "the columns `Note | Constant | Value | Meaning` are those of a text table and `Note`",
            "a text table has exactly the columns `Constant | Value | Meaning`: remove the others (a table that shares only some of them is prose)",
        ),
        (
            "| Forbidden keys | Why |\n|---|---|\n| `password` | A secret. |",
            "the columns `Forbidden keys | Why` are nearly those of a forbidden-key table",
            "did you mean `Forbidden key | Why`? a header that is no kind's is prose, and its rows would be dropped",
        ),
        (
            "| Cap | Vaule | Constant |\n|---|---|---|\n| `tags[]` | 5 chars | TAG_MAX_CHARS |",
            "the columns `Cap | Vaule | Constant` are nearly those of a cap table",
            "did you mean `Cap | Value | Constant`? a header that is no kind's is prose, and its rows would be dropped",
        ),
        // Issue 23, item 2: most of a kind's columns in place, one a word away.
        (
            "| Cap | Limit | Constant |\n|---|---|---|\n| `tags[]` | 5 chars | TAG_MAX_CHARS |",
            "the columns `Cap | Limit | Constant` are nearly those of a cap table",
            "did you mean `Cap | Value | Constant`? a header that is no kind's is prose, and its rows would be dropped",
        ),
        (
            "| Error code | When |\n|---|---|\n| `gone` | Gone. |",
            "the columns `Error code | When` are nearly those of an error table",
            "did you mean `Code | When`? a header that is no kind's is prose, and its rows would be dropped",
        ),
    ];
    for (table, message, hint) in cases {
        let md = edit(
            MD,
            "## Error codes",
            &format!("## More\n\n{table}\n\n## Error codes"),
        );
        one_with_hint(
            &md,
            TOML,
            &format!("spec/mini.md:27:1: error: {message}"),
            &format!("  hint: {hint}"),
        );
    }
}

/// A table with an `object by` field cannot be open: its enum chooses its members.
#[test]
fn an_object_by_table_cannot_be_open() {
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
    one_with_hint(
        md,
        toml,
        "spec/mini.toml:9:12: error: [open] objects names `doc`, whose members an enum field chooses",
        "  hint: an `object by` table is closed by its enum: open the tables it chooses instead",
    );
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
fn a_malformed_pattern_is_reported_at_its_cell() {
    let (md, toml) = with_pattern("^[a-z+$");
    let errs = errors(&md, &toml);
    assert_eq!(
        errs,
        [(
            "spec/mini.md:9:28: error: the regex `^[a-z+$` does not compile: non-empty character class has no closing bracket".to_owned(),
            "  hint: write a regex-lite regex (https://docs.rs/regex-lite), e.g. `^[a-z][a-z0-9-]*$`".to_owned(),
        )]
    );
}

#[test]
fn patterns_whose_meaning_differs_between_engines_are_refused() {
    for (cell, col, message) in [
        (
            "^\\d{4}$",
            30,
            "`\\d` in the regex `^\\d{4}$` is Unicode in Python (and in Rust's `regex`, under Pydantic) but ASCII in JavaScript and the Rust check",
        ),
        (
            "^https?://\\S+$",
            39,
            "`\\S` in the regex `^https?://\\S+$` is Unicode in Python and JavaScript but ASCII in the Rust check",
        ),
        (
            "^a\\|b.$",
            34,
            "`.` in the regex `^a|b.$` stops at different characters in Rust, Python and JavaScript",
        ),
        (
            "^[^/]+$",
            30,
            "the negated class in the regex `^[^/]+$` also matches a line feed",
        ),
        (
            "(?i)^ab$",
            29,
            "inline flags in the regex `(?i)^ab$` are not JavaScript",
        ),
    ] {
        let (md, toml) = with_pattern(cell);
        one(&md, &toml, &format!("spec/mini.md:9:{col}: error: {message}"));
    }
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
fn text_constant_not_screaming_snake() {
    let md = format!("{MD}{}", edit(TEXTS, "| HEADER_EN |", "| HeaderEn |"));
    one(
        &md,
        TOML,
        "spec/mini.md:43:3: error: constant `HeaderEn` is not SCREAMING_SNAKE_CASE",
    );
}

#[test]
fn text_constant_repeating_a_cap_constant() {
    let md = format!("{MD}{}", edit(TEXTS, "| HEADER_EN |", "| TAGS_MAX |"));
    one(
        &md,
        TOML,
        "spec/mini.md:43:3: error: duplicate constant `TAGS_MAX`",
    );
}

#[test]
fn text_value_not_one_code_span() {
    let md = format!(
        "{MD}{}",
        edit(TEXTS, "| `## Constraints` |", "| ## Constraints |")
    );
    one(
        &md,
        TOML,
        "spec/mini.md:43:15: error: the value of `HEADER_EN` is not one code span",
    );
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
    assert!(
        rust.contains("/// Shades: `shade`\n#[non_exhaustive]\n#[allow(dead_code)]\n#[derive(\n"),
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

#[test]
fn the_shapes_constant_name_is_reserved() {
    one(
        &edit(MD, "| NAME_MAX_CHARS |", "| SHAPES |"),
        TOML,
        "spec/mini.md:22:23: error: constant `SHAPES` is reserved",
    );
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
    let cases = [
        (
            "`path: relative-path string`",
            "`path` of a union cannot have `relative-path`",
        ),
        ("`at: date-time`", "`at` of a union cannot have a format"),
        ("`on: date?`", "`on` of a union cannot have a format"),
        ("`home: uri[]`", "`home` of a union cannot have a format"),
        ("`who: email`", "`who` of a union cannot have a format"),
        ("`v: \"1\"`", "`v` of a union cannot have a literal"),
        ("`n: uint32 1..=3`", "`n` of a union cannot have a range"),
    ];
    for (members, message) in cases {
        one_with_hint(
            &union(&format!("`name: non-blank string`, {members}")),
            TOML,
            &format!("spec/mini.md:30:38: error: member {message}"),
            "  hint: a union member carries no rule but `non-blank`: move the ruled value into a field table",
        );
    }
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
    for (a, b) in [
        ("n1", "n2"),
        ("l1", "l2"),
        ("x1", "x2"),
        ("u1", "u2"),
        ("o1", "o2"),
    ] {
        let toml = edit(
            RULES_TOML,
            "a = \"s1\"\nb = \"s2\"",
            &format!("a = \"{a}\"\nb = \"{b}\""),
        );
        one_with_hint(
            RULES_MD,
            &toml,
            &format!("spec/mini.toml:8:5: error: `{a}` and `{b}` are not plain text, number, bool or enum fields"),
            "  hint: not_equal compares two fields of one text, number, bool or enum type, not a list, `T?`, `any`, table or union: its message shows the value, and two absent fields would count as equal",
        );
    }
}

/// The derive takes one struct rule of each kind, so a second `not_equal`, `not_contains` or
/// `digest` on one object is refused at its entry (the first one stays).
#[test]
fn one_struct_rule_of_each_kind_per_object() {
    let cases = [
        (
            "[[not_equal]]\na = \"k1\"\nb = \"k2\"\ncode = \"same\"\n",
            "spec/mini.toml:24:1: error: a second [[not_equal]] on `doc`",
            "  hint: one `not_equal` per object: the derive takes one struct rule of each kind",
        ),
        (
            "[[not_contains]]\nlist = \"l2\"\nvalue = \"s1\"\ncode = \"listed\"\n",
            "spec/mini.toml:24:1: error: a second [[not_contains]] on `doc`",
            "  hint: one `not_contains` per object: the derive takes one struct rule of each kind",
        ),
        (
            "[[digest]]\npath = \"blob\"\nsha256 = \"sha\"\ndata = \"data\"\nencoding = \"enc2\"\ncode = \"digest\"\n",
            "spec/mini.toml:24:1: error: a second [[digest]] on `blob`",
            "  hint: one `digest` per object: the derive takes one struct rule of each kind",
        ),
    ];
    for (extra, expected, hint) in cases {
        one_with_hint(RULES_MD, &format!("{RULES_TOML}\n{extra}"), expected, hint);
    }
}

/// A digest reads its `encoding` by `Display`, which a `T?` has not.
#[test]
fn a_digests_encoding_is_not_optional() {
    let toml = edit(RULES_TOML, "encoding = \"enc\"", "encoding = \"enc2\"");
    one_with_hint(
        RULES_MD,
        &toml,
        "spec/mini.toml:21:12: error: `enc2` cannot be the digest's `encoding`",
        "  hint: `sha256`, `data` and `label` name text members, `encoding` a text or enum member that is not `T?` (`utf8` / `base64`), `length` an integer member",
    );
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
    // Two keys that become one Rust field, and a key with no letter or digit.
    let clash = edit(&md, "| `crate` | string? |", "| `self_` | string? |");
    one(
        &clash,
        TOML,
        "spec/mini.md:10:3: error: fields `self` and `self_` both become the Rust field `self_`",
    );
    let md = edit(MD, "| `kind` | shade |", "| `_` | shade |");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:9:3: error: `_` cannot be a Rust field name",
        "  hint: use a key with at least one ASCII letter or digit (the Rust name is its snake_case)",
    );
}

/// The 1-based line of the first line of `text` that starts with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    1 + text
        .lines()
        .position(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{prefix:?} not in the spec"))
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
    let valid = line_of(&md, "```json valid");
    let reordered = line_of(&md, "```json invalid too_many@tags");
    let accepted = line_of(&md, "```json invalid blank@name");
    let hint = "  hint: make the example what its fence says, or the fence what the spec \
                reports: a `json invalid` fence lists every violation as `code@path`, in order";
    let want = [
        format!(
            "spec/mini.md:{valid}:1: error: the `json valid` example is refused: \
             blank@name (`name` must not be blank)"
        ),
        format!(
            "spec/mini.md:{reordered}:1: error: the `json invalid too_many@tags too_long@name` \
             example fails with too_long@name (`name` is 11 chars (max 10)); \
             too_many@tags (`tags` has 4 items (max 3))"
        ),
        format!("spec/mini.md:{accepted}:1: error: the `json invalid blank@name` example is valid"),
    ];
    let got = errors(&md, TOML);
    assert_eq!(
        got,
        want.iter()
            .map(|w| (w.clone(), hint.to_owned()))
            .collect::<Vec<_>>()
    );
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

/// Issue 23, item 1: a misspelt or unknown sidecar section is the first error and its
/// knock-ons (the codes its keys would have mapped, now "produced by nothing"; the rule
/// kinds left without a code; here 25 errors in all) are not reported at all. Other key
/// problems of the sidecar still are, since they are not knock-ons.
#[test]
fn a_misspelt_sidecar_section_is_reported_alone() {
    let toml = edit(TOML, "[errors]", "[erors]");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:4:2: error: unknown key `erors` in the sidecar",
        "  hint: did you mean `errors`? expected one of: spec, types, errors, unions, caps, \
         unique, not_equal, order, contradiction, not_contains, digest, machines, canonical, open",
    );
    // Even with a Markdown mistake that is not one (it is reported once the section is
    // fixed), and beside another sidecar key problem.
    let md = edit(MD, "| `tags` | string[] |", "| `tags` | strng[] |");
    let toml = edit(&toml, "root = \"doc\"", "root = \"doc\"\nrot = 1");
    let errs: Vec<String> = errors(&md, &toml).into_iter().map(|e| e.0).collect();
    assert_eq!(
        errs,
        [
            "spec/mini.toml:3:1: error: unknown key `rot` in [spec]",
            "spec/mini.toml:5:2: error: unknown key `erors` in the sidecar",
        ]
    );
    // An array of tables too: `[[not_equl]]`.
    let toml = format!("{TOML}\n[[not_equl]]\na = \"name\"\nb = \"kind\"\ncode = \"blank\"\n");
    one(
        MD,
        &toml,
        "spec/mini.toml:11:3: error: unknown key `not_equl` in the sidecar",
    );
}

/// Issue 23, item 2: a near-miss header swallows its follow-ons. The cap table's rows are not
/// read, so the sidecar's `[caps.*]` naming one of them is not "names no cap row" (with an
/// empty hint); the error table's codes are not read, so no code is "not in the error table".
#[test]
fn a_near_miss_cap_or_error_header_is_the_one_error() {
    let md = edit(
        MD,
        "| Cap | Value | Constant |",
        "| Cap | Limit | Constant |",
    );
    let toml = format!("{TOML}\n[caps.NAME_MAX_CHARS]\nrule = \"max_chars\"\n");
    one_with_hint(
        &md,
        &toml,
        "spec/mini.md:20:1: error: the columns `Cap | Limit | Constant` are nearly those of a cap table",
        "  hint: did you mean `Cap | Value | Constant`? a header that is no kind's is prose, and its rows would be dropped",
    );
    let md = edit(MD, "| Code | When |", "| Error code | When |");
    one_with_hint(
        &md,
        TOML,
        "spec/mini.md:27:1: error: the columns `Error code | When` are nearly those of an error table",
        "  hint: did you mean `Code | When`? a header that is no kind's is prose, and its rows would be dropped",
    );
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
            .map(|e| e.code)
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
            .map(|e| e.code)
            .collect::<Vec<_>>()
    };
    assert_eq!(codes(r#"{"name": " "}"#), ["blank"]);
    assert_eq!(codes(r#"{"name": "abcdefghijk"}"#), ["name_too_long"]);
    let files = generate(&[source(&md_alone, &toml)], &Options::default()).unwrap();
    assert!(
        files["rust/mini.rs"].contains("code = \"name_too_long\""),
        "the derive gets the code"
    );
    // Mistakes.
    let toml = format!("{TOML}\n[errors.rules]\n\"name\" = {{ max_chrs = \"too_long\" }}\n");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:12:12: error: unknown key `max_chrs` in [errors.rules] `name`",
        "  hint: did you mean `max_chars`? expected one of: non_blank, max_chars, max_items, \
         min_chars, min_items, equals, pattern, relative_path, range, format, required_if",
    );
    let toml = format!("{TOML}\n[errors.rules]\n\"tags\" = {{ max_chars = \"too_long\" }}\n");
    one_with_hint(
        MD,
        &toml,
        "spec/mini.toml:12:12: error: [errors.rules] `tags` gives a code to `max_chars`, which is no rule of that field",
        "  hint: name a rule the field has (its Type, Required and cap rows say which), or remove the entry",
    );
}

/// Issue 23, item 3: an `[errors]` mapping no rule takes because an override gave every rule
/// of its kind a code names the override, not "no rule of the spec is a `non_blank` rule".
#[test]
fn a_mapping_an_override_took_names_the_override() {
    let toml = format!("{TOML}\n[errors.paths]\n\"name\" = \"blank\"\n");
    let toml = toml.replace("max_chars = \"too_long\"\n", "");
    let md = edit(MD, "| `too_long` | Too long. |\n", "");
    one_with_hint(
        &md,
        &toml,
        "spec/mini.toml:7:1: error: no `non_blank` rule of the spec takes its code from [errors]: \
         [errors.paths] `name` gives one its code",
        "  hint: remove the line (the override gives the code), or the override",
    );
}

/// Issue 23, items 3 and 4: a cap path into a union says what stops it, not that the union
/// "has no members": a member takes item caps and minimums (`union_members.rs`), not a
/// char cap.
#[test]
fn a_cap_path_into_a_union_says_why_it_stops() {
    let md = edit(
        MD,
        "## Error codes",
        "## Sinks: `sink`\n\n| kind | Fields | Meaning |\n|---|---|---|\n| `file` | `name: string` | A file. |\n\n## Error codes",
    );
    let md = edit(
        &md,
        "| `kind` | shade |",
        "| `out` | sink? | — | Where it goes. |\n| `kind` | shade |",
    );
    let md = edit(
        &md,
        "| `tags` items | 3 | TAGS_MAX |",
        "| `tags` items | 3 | TAGS_MAX |\n| `out.name` | 5 chars | OUT_NAME_MAX |",
    );
    one(
        &md,
        TOML,
        "spec/mini.md:25:16: error: unit `chars` does not fit `out.name`: a union member takes \
         item caps and minimums only",
    );
}
