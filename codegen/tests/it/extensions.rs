//! The format's extensions on a small inline spec: literal, `matching` and `relative-path`
//! types, `object by`, coded and conditional requirements, states and transitions, and the
//! sidecar's overrides and rules. Each misuse is reported at its exact `file:LINE:COL`.

use specmint_codegen::model::{Base, Extract};
use specmint_codegen::{generate, load, Options, SpecSource};

const MD: &str = "# Ext v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `v` | \"1\" | ✔ | Version. |
| `id` | string matching `^a\\|b$` | ✔ | Id. |
| `op` | op | ✔ | What. |
| `body` | object by `op` | ✔ | Chosen by op. |
| `title` | string | ✔ `title_required` | Title. |
| `tags` | non-blank string[] | — | Tags. |
| `own` | string? | — | Own tag. |
| `check` | check | ✔ | Check. |

## Ops: `op`

| Value | Meaning |
|---|---|
| `put` | Put. |
| `drop` | Drop. |

## Body of `put_body`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `path` | relative-path string | ✔ | Where. |
| `mode` | mode | ✔ | Mode. |
| `why` | string? | if `mode` is `forced` | Why. |

## Modes: `mode`

| Value | Meaning |
|---|---|
| `normal` | Normal. |
| `forced` | Forced. |

## Members of a `check`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `cmd` | string | ✔ `cmd_required` | Command. |

## States: `phase`

| State | Terminal | Meaning |
|---|---|---|
| `open` | no | Open. |
| `done` | yes | Done. |

### Transitions of a `phase`

| From | To | On |
|---|---|---|
| `open` | `open` | `put` |
| * | `done` | `drop` |

## Error codes

| Code | When |
|---|---|
| `bad` | Not the shape. |
| `bad_body` | A body rule. |
| `title_required` | No title. |
| `cmd_required` | No command. |
| `dup` | A tag twice. |
| `self_tag` | Own tag listed. |
| `later` | Raised by an engine. |

```json valid
{\"v\": \"1\", \"id\": \"a\", \"op\": \"drop\", \"body\": {}, \"title\": \"t\", \"check\": {\"cmd\": \"x\"}}
```
";

const TOML: &str = "[spec]
root = \"doc\"
extract = \"outermost-object\"

[errors]
parse = \"bad\"
non_blank = \"bad\"
equals = \"bad\"
pattern = \"bad\"
engine = [\"later\"]

[errors.tables]
put_body = \"bad_body\"

[machines.phase]
on = \"op\"

[[unique]]
path = \"tags\"
ignore_case = true
code = \"dup\"

[[not_contains]]
list = \"tags\"
value = \"own\"
code = \"self_tag\"
";

fn source(md: &str, toml: &str) -> SpecSource {
    SpecSource {
        name: "ext".into(),
        md_path: "spec/ext.md".into(),
        md: md.into(),
        toml_path: "spec/ext.toml".into(),
        toml: toml.into(),
        locales: Vec::new(),
    }
}

fn diags(md: &str, toml: &str) -> String {
    load(&source(md, toml)).map_or_else(|d| d.to_string(), |_| "ok".into())
}

#[test]
fn the_extensions_load_and_generate() {
    let spec = load(&source(MD, TOML)).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.extract, Extract::OutermostObject);
    assert_eq!(spec.errors.engine, ["later"]);
    let root = spec.root_object();
    let sel = root.selector.as_ref().expect("selector");
    assert_eq!(sel.body_rust, "OpBody");
    assert_eq!(sel.cases[1].tables, ["drop_body"]);
    let body = root.fields.iter().find(|f| f.key == "body").unwrap();
    assert_eq!(body.ty.base, Base::Selected("op".into()));
    let id = root.fields.iter().find(|f| f.key == "id").unwrap();
    assert_eq!(id.ty.pattern.as_deref(), Some("^a|b$"));
    assert_eq!(spec.machines[0].transitions.len(), 2);
    let files = generate(&[source(MD, TOML)], &Options::default()).unwrap();
    let rust = &files["rust/ext.rs"];
    syn::parse_file(rust).expect("parses");
    for needle in [
        "equals(value = \"1\", code = \"bad\")",
        "pattern(regex = \"^a|b$\", code = \"bad\")",
        "relative_path(code = \"bad_body\")",
        "required(code = \"title_required\")",
        "required_if(field = mode, equals = Mode::Forced, code = \"bad_body\")",
        "unique(ignore_case, code = \"dup\")",
        "not_contains(list = tags, value = own, code = \"self_tag\")",
        "pub enum OpBody",
        "Put {\n        /// `body` of `put`.\n        body: PutBody,\n    }",
        "Drop {\n        /// `body` of `drop`.\n        body: DropBody,\n    }",
        "pub struct DropBody {}",
        "pub const fn on(self, event: Op) -> ::core::option::Option<Self>",
        ".with_extract(::specmint_runtime::document::Extract::OutermostObject)",
        "impl ::core::default::Default for Check",
    ] {
        assert!(rust.contains(needle), "missing `{needle}` in\n{rust}");
    }
    let schema: serde_json::Value = serde_json::from_str(&files["schema/ext.schema.json"]).unwrap();
    jsonschema::meta::validate(&schema).unwrap();
    let doc = &schema["$defs"]["doc"];
    assert_eq!(doc["properties"]["v"]["const"], "1");
    assert_eq!(doc["oneOf"][1]["properties"]["op"]["const"], "drop");
    assert_eq!(
        doc["oneOf"][1]["properties"]["body"]["additionalProperties"],
        false
    );
    assert_eq!(doc["properties"]["title"]["minLength"], 1);
    let put = &schema["$defs"]["put_body"];
    assert_eq!(
        put["allOf"][0]["if"]["properties"]["mode"]["const"],
        "forced"
    );
    assert_eq!(put["allOf"][0]["then"]["required"][0], "why");
    assert_eq!(schema["$defs"]["phase"]["x-terminal"][0], "done");
    let mmd = &files["diagrams/ext.phase.mmd"];
    assert!(mmd.contains("Open --> Done: drop\n"), "{mmd}");
    assert!(mmd.contains("Done --> [*]\n"), "{mmd}");
}

fn assert_diag(md: &str, toml: &str, expected: &str) {
    let got = diags(md, toml);
    assert!(got.contains(expected), "expected\n{expected}\nin\n{got}");
}

#[test]
fn misuses_are_reported_where_they_are() {
    // A literal with a qualifier.
    assert_diag(
        &MD.replace("| `v` | \"1\" |", "| `v` | non-blank \"1\" |"),
        TOML,
        "spec/ext.md:7:9: error: a literal type `\"1\"` takes no qualifier",
    );
    // `matching` on something else than a string.
    assert_diag(
        &MD.replace("string matching `^a\\|b$`", "bool matching `x`"),
        TOML,
        "spec/ext.md:8:10: error: `matching` applies to `string`, not `bool`",
    );
    // `relative-path` on a number.
    assert_diag(
        &MD.replace("relative-path string", "relative-path uint32"),
        TOML,
        "spec/ext.md:27:12: error: `relative-path` applies to strings only, not `uint32`",
    );
    // `object by` naming a field that is not an enum.
    assert_diag(
        &MD.replace("object by `op`", "object by `title`"),
        TOML,
        "spec/ext.md:10:12: error: `title` is not a required plain enum field",
    );
    // A coded requirement with a code not in the table.
    assert_diag(
        &MD.replace("✔ `title_required`", "✔ `no_title`"),
        TOML,
        "spec/ext.md:11:24: error: code `no_title` is not in the error table",
    );
    // A condition on a field that is not `T?`, and on an unknown value.
    assert_diag(
        &MD.replace("| `why` | string? |", "| `why` | string |"),
        TOML,
        "spec/ext.md:29:20: error: `why` is required only sometimes, so its type must be `T?`",
    );
    assert_diag(
        &MD.replace("if `mode` is `forced`", "if `mode` is `wild`"),
        TOML,
        "spec/ext.md:29:34: error: `wild` is not a value of `mode`",
    );
    // Machines: an unknown state, a terminal state with a move, two targets, a bad event.
    assert_diag(
        &MD.replace(
            "| `open` | `open` | `put` |",
            "| `opened` | `open` | `put` |",
        ),
        TOML,
        "spec/ext.md:55:3: error: `opened` is no state of `phase`",
    );
    assert_diag(
        &MD.replace("| `open` | `open` | `put` |", "| `done` | `open` | `put` |"),
        TOML,
        "spec/ext.md:55:3: error: terminal state `done` has an outgoing move",
    );
    assert_diag(
        &MD.replace("| * | `done` | `drop` |", "| * | `done` | `put` |"),
        TOML,
        "spec/ext.md:56:1: error: `open` on `put` goes to both `open` and `done`",
    );
    assert_diag(
        &MD.replace("| * | `done` | `drop` |", "| * | `done` | `stop` |"),
        TOML,
        "spec/ext.md:56:16: error: `stop` is not a value of `op`",
    );
    assert_diag(
        &MD.replace("### Transitions of a `phase`", "### Moves of a `phase`")
            .replace("| From | To | On |\n|---|---|---|\n| `open` | `open` | `put` |\n| * | `done` | `drop` |\n", ""),
        &TOML.replace("[machines.phase]\non = \"op\"\n", ""),
        "spec/ext.md:44:12: error: the machine `phase` has no transitions",
    );
    // Sidecar: unknown extract, an engine code not in the table, an override naming no
    // table, a path that does not resolve, a machine's `on` that is no enum.
    let toml = TOML
        .replace("\"outermost-object\"", "\"first-object\"")
        .replace("[\"later\"]", "[\"later\", \"never\"]")
        .replace("put_body = ", "putbody = ")
        .replace("on = \"op\"", "on = \"mode2\"");
    let got = diags(MD, &toml);
    for expected in [
        "spec/ext.toml:3:11: error: unknown extract `first-object`",
        "spec/ext.toml:10:20: error: code `never` is not in the error table",
        "spec/ext.toml:13:1: error: [errors.tables] names `putbody`, which is no field table",
        "spec/ext.toml:16:6: error: `on = \"mode2\"` names no enum table",
    ] {
        assert!(got.contains(expected), "expected\n{expected}\nin\n{got}");
    }
    // [[unique]] without key on a list of objects, [[not_contains]] with a non-text value.
    let toml = TOML
        .replace("path = \"tags\"", "path = \"check\"")
        .replace("value = \"own\"", "value = \"check\"");
    let got = diags(MD, &toml);
    for expected in [
        "spec/ext.toml:19:8: error: `check` is not a list of text",
        "spec/ext.toml:25:9: error: `check` is not a text field",
    ] {
        assert!(got.contains(expected), "expected\n{expected}\nin\n{got}");
    }
}
