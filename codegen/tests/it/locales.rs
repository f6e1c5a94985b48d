//! Messages in other languages (`<stem>.<locale>.md`): each locale file is checked when the
//! spec loads, every problem at its `file:line:col` naming the code or placeholder, and the
//! messages reach the model, the generated module and the spec directory reader.

use std::collections::BTreeMap;

use specmint_codegen::{generate, load, spec_sources, LocaleSource, Options, SpecSource};

const MD: &str = "# Mini v1

## Fields of a `doc`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `name` | non-blank string | ✔ | The name. |
| `tags` | string[] | — | Tags. |

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
| `sent_twice` | Raised by hand-written behaviour. |

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
engine = [\"sent_twice\"]
";

/// A German table with every code the rules raise (line 5 is `bad_doc`'s row).
const DE: &str = "# Meldungen (de)

| Code | Message |
|---|---|
| `bad_doc` | {path, select, empty {Das Dokument} other {`{path}`}} hat nicht die Form |
| `blank` | `{path}` darf nicht leer sein |
| `too_long` | `{path}` hat {measured, plural, one {# Zeichen} other {# Zeichen}} (höchstens {limit}) |
| `too_many` | `{path}` hat {measured, plural, one {einen Eintrag} other {# Einträge}} (höchstens {limit}) |
";

fn source(locales: &[(&str, &str)]) -> SpecSource {
    SpecSource {
        name: "mini".into(),
        md_path: "spec/mini.md".into(),
        md: MD.into(),
        toml_path: "spec/mini.toml".into(),
        toml: TOML.into(),
        locales: locales
            .iter()
            .map(|(tag, md)| LocaleSource {
                tag: (*tag).into(),
                path: format!("spec/mini.{tag}.md"),
                md: (*md).into(),
            })
            .collect(),
    }
}

fn diagnostics(locales: &[(&str, &str)]) -> String {
    load(&source(locales))
        .expect_err("the locale has a mistake")
        .to_string()
}

#[test]
fn a_complete_locale_loads_into_the_model_and_the_generated_module() {
    let spec = load(&source(&[("de", DE)])).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.messages.len(), 1);
    let de = &spec.messages[0];
    assert_eq!(
        (de.tag.as_str(), de.path.as_str()),
        ("de", "spec/mini.de.md")
    );
    let codes: Vec<&str> = de.templates.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["bad_doc", "blank", "too_long", "too_many"]);
    assert_eq!(de.templates[1].1, "`{path}` darf nicht leer sein");
    let files = generate(&[source(&[("de", DE)])], &Options::default()).unwrap();
    let rust = &files["rust/mini.rs"];
    assert!(
        rust.contains("pub const MESSAGES: &[(&str, &[(&str, &str)])] = &[")
            && rust.contains("\"`{path}` darf nicht leer sein\""),
        "{rust}"
    );
    // A spec without locale files has none, and says so.
    let files = generate(&[source(&[])], &Options::default()).unwrap();
    assert!(files["rust/mini.rs"].contains("pub const MESSAGES: &[(&str, &[(&str, &str)])] = &[];"));
}

#[test]
fn a_locale_missing_a_code_is_refused_at_its_table_naming_the_code() {
    let missing = DE.replace("| `blank` | `{path}` darf nicht leer sein |\n", "");
    assert_eq!(
        diagnostics(&[("de", &missing)]),
        "spec/mini.de.md:3:1: error: `blank` has no message in `de`\n  hint: add a row `| `blank` | … |` (every code the rules raise needs a message in every locale)"
    );
}

#[test]
fn an_unknown_placeholder_is_refused_at_its_column() {
    let typo = DE.replace("`{path}` darf nicht", "`{paht}` darf nicht");
    assert_eq!(
        diagnostics(&[("de", &typo)]),
        "spec/mini.de.md:6:15: error: the message of `blank`: unknown placeholder `{paht}`\n  hint: did you mean `{path}`? the placeholders are `{path}`, `{pointer}`, `{code}`, `{measured}`, `{limit}`, `{expected}`, `{other}`, `{message}`"
    );
}

#[test]
fn a_plural_without_other_is_refused() {
    let broken = DE.replace(
        "one {einen Eintrag} other {# Einträge}",
        "one {einen Eintrag}",
    );
    let d = diagnostics(&[("de", &broken)]);
    assert!(
        d.starts_with(
            "spec/mini.de.md:8:29: error: the message of `too_many`: a plural has no `other` arm"
        ),
        "{d}"
    );
}

#[test]
fn a_tag_that_is_not_bcp47_is_refused() {
    for tag in ["zh_TW", "chinese-traditional", "x-klingon", "zh-TWN"] {
        let d = diagnostics(&[(tag, DE)]);
        assert!(
            d.starts_with(&format!(
                "spec/mini.{tag}.md:1:1: error: the locale of `spec/mini.{tag}.md`: `{tag}`"
            )),
            "{d}"
        );
    }
}

#[test]
fn a_message_for_a_code_the_spec_lacks_is_refused_with_a_suggestion() {
    let extra = format!("{DE}| `too_lon` | zu lang |\n");
    assert_eq!(
        diagnostics(&[("de", &extra)]),
        "spec/mini.de.md:9:3: error: `too_lon` is not a code of `spec/mini.md`\n  hint: did you mean `too_long`? give a message to each code of the spec's error table, and to no other"
    );
    let twice = format!("{DE}| `blank` | leer |\n");
    let d = diagnostics(&[("de", &twice)]);
    assert!(
        d.starts_with(
            "spec/mini.de.md:9:3: error: `blank` has a second message (the first is on line 6)"
        ),
        "{d}"
    );
}

#[test]
fn a_locale_without_its_table_is_refused() {
    let d = diagnostics(&[("de", "# Meldungen\n\nNoch nichts.\n")]);
    assert!(
        d.starts_with(
            "spec/mini.de.md:1:1: error: `spec/mini.de.md` has no `| Code | Message |` table"
        ),
        "{d}"
    );
}

#[test]
fn engine_codes_may_have_a_message() {
    let with_engine = format!("{DE}| `sent_twice` | doppelt gesendet |\n");
    let spec = load(&source(&[("de", &with_engine)])).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.messages[0].templates.len(), 5);
}

#[test]
fn a_spec_directory_reads_locale_files_beside_their_spec() {
    let files: BTreeMap<String, String> = [
        ("mini.md", MD),
        ("mini.toml", TOML),
        ("mini.de.md", DE),
        ("notes.md", "# Notes\n"),
        ("notes.de.md", "# Notizen\n"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let sources = spec_sources(&files, "spec");
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["mini"], "a locale file is not a spec of its own");
    assert_eq!(sources[0].locales.len(), 1);
    assert_eq!(sources[0].locales[0].tag, "de");
    assert_eq!(sources[0].locales[0].path, "spec/mini.de.md");
}

#[test]
fn diff_reports_a_message_change_as_breaking_nothing() {
    use specmint_codegen::diff::diff;
    let reworded = DE.replace("darf nicht leer sein", "ist leer");
    let changes = diff(&[source(&[("de", DE)])], &[source(&[("de", &reworded)])]).unwrap();
    assert!(!changes.breaking());
    let found: Vec<(&str, String, String)> = changes
        .changes
        .iter()
        .map(|c| (c.id, c.message.clone(), c.new.to_string()))
        .collect();
    assert_eq!(
        found,
        [(
            "message-changed",
            "the `de` message of `blank` is now \"`{path}` ist leer\"".to_owned(),
            "spec/mini.de.md:6:1".to_owned()
        )]
    );
    let added = diff(&[source(&[])], &[source(&[("de", DE)])]).unwrap();
    assert!(!added.breaking());
    assert_eq!(added.changes.len(), 1);
    assert_eq!(added.changes[0].id, "locale-added");
    assert_eq!(added.changes[0].new.to_string(), "spec/mini.de.md:1:1");
    let removed = diff(&[source(&[("de", DE)])], &[source(&[])]).unwrap();
    assert_eq!(
        removed.changes.iter().map(|c| c.id).collect::<Vec<_>>(),
        ["locale-removed"]
    );
    assert!(!removed.breaking());
    // Nothing changed, nothing reported.
    assert!(diff(&[source(&[("de", DE)])], &[source(&[("de", DE)])])
        .unwrap()
        .changes
        .is_empty());
}

#[test]
fn the_schema_carries_the_messages_as_x_messages() {
    let files = generate(&[source(&[("de", DE)])], &Options::default()).unwrap();
    let schema: serde_json::Value =
        serde_json::from_str(&files["schema/mini.schema.json"]).unwrap();
    assert_eq!(
        schema["x-messages"]["de"]["blank"],
        "`{path}` darf nicht leer sein"
    );
    assert_eq!(schema["x-messages"]["de"].as_object().unwrap().len(), 4);
    // Without locale files, the schema is as it was: no `x-messages`.
    let files = generate(&[source(&[])], &Options::default()).unwrap();
    assert!(!files["schema/mini.schema.json"].contains("x-messages"));
}

#[test]
fn the_parse_code_may_have_a_message_per_problem_kind() {
    let kinds = format!("{DE}| `bad_doc` missing | `{{path}}` fehlt |\n| `bad_doc` unknown_key | `{{path}}` ist unbekannt |\n");
    let spec = load(&source(&[("de", &kinds)])).unwrap_or_else(|d| panic!("{d}"));
    let keys: Vec<&str> = spec.messages[0]
        .templates
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "bad_doc",
            "blank",
            "too_long",
            "too_many",
            "bad_doc missing",
            "bad_doc unknown_key"
        ]
    );
    let typo = format!("{DE}| `bad_doc` mising | fehlt |\n");
    assert_eq!(
        diagnostics(&[("de", &typo)]),
        "spec/mini.de.md:9:3: error: unknown problem kind `mising` after `bad_doc`\n  hint: did you mean `missing`? a kind is one of syntax, missing, unknown_key, duplicate_key, type, enum, value"
    );
    let not_parse = format!("{DE}| `blank` missing | fehlt |\n");
    let d = diagnostics(&[("de", &not_parse)]);
    assert!(
        d.starts_with("spec/mini.de.md:9:3: error: `blank` is not the parse code: only the parse code has a message per problem kind"),
        "{d}"
    );
    let twice = format!("{DE}| `bad_doc` missing | fehlt |\n| `bad_doc` missing | fehlt |\n");
    let d = diagnostics(&[("de", &twice)]);
    assert!(
        d.starts_with("spec/mini.de.md:10:3: error: `bad_doc missing` has a second message (the first is on line 9)"),
        "{d}"
    );
}

#[test]
fn a_locale_table_may_sit_in_the_spec_under_a_heading_naming_its_tag() {
    let table = DE.replace("# Meldungen (de)", "## Messages in `de`");
    let md = format!("{MD}\n{table}");
    let mut src = source(&[]);
    src.md = md.clone();
    let spec = load(&src).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.messages.len(), 1);
    assert_eq!(
        (
            spec.messages[0].tag.as_str(),
            spec.messages[0].path.as_str()
        ),
        ("de", "spec/mini.md")
    );
    // The same checks, at the spec's own lines: a missing code at the table.
    let line = md.lines().position(|l| l == "| Code | Message |").unwrap() + 1;
    src.md = md.replace("| `blank` | `{path}` darf nicht leer sein |\n", "");
    assert_eq!(
        load(&src).unwrap_err().to_string(),
        format!("spec/mini.md:{line}:1: error: `blank` has no message in `de`\n  hint: add a row `| `blank` | … |` (every code the rules raise needs a message in every locale)")
    );
    // A table naming no locale, and one given twice.
    src.md = format!("{MD}\n{}", DE);
    let d = load(&src).unwrap_err().to_string();
    assert!(
        d.contains("error: a `| Code | Message |` table names no locale"),
        "{d}"
    );
    let mut twice = source(&[("de", DE)]);
    twice.md = md;
    let d = load(&twice).unwrap_err().to_string();
    assert!(
        d.contains("error: the messages in `de` are given twice"),
        "{d}"
    );
}

#[test]
fn the_schema_in_a_locale_carries_error_messages_as_ajv_errors_reads_them() {
    use specmint_codegen::{emit_schema, emit_schema_in};
    let spec = load(&source(&[("de", DE)])).unwrap_or_else(|d| panic!("{d}"));
    let options = Options::default();
    let text = emit_schema_in(&spec, &options, "de-AT").expect("de serves de-AT");
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    // The root table stays a `$ref`; its members' messages say which member, with the limit;
    // `{measured}` is unknown to a schema, so the plural takes `other` with no number.
    let doc = &schema["$defs"]["doc"];
    assert_eq!(
        doc["properties"]["name"]["errorMessage"],
        serde_json::json!({
            "maxLength": "`name` hat  Zeichen (höchstens 10)",
            "minLength": "`name` darf nicht leer sein",
            "pattern": "`name` darf nicht leer sein",
            "type": "`name` hat nicht die Form",
        })
    );
    assert_eq!(
        doc["properties"]["tags"]["items"]["errorMessage"]["type"],
        "`tags[${0#}]` hat nicht die Form",
        "an item's index is ajv-errors' `${{0#}}`"
    );
    assert_eq!(
        doc["properties"]["tags"]["errorMessage"]["maxItems"],
        "`tags` hat  Einträge (höchstens 3)"
    );
    // `additionalProperties: false` is `{"not": true}` with the message naming the key.
    assert_eq!(
        doc["additionalProperties"],
        serde_json::json!({"not": true, "errorMessage": "`${0#}` hat nicht die Form"})
    );
    assert_eq!(
        schema["errorMessage"]["_"],
        "Das Dokument hat nicht die Form"
    );
    // A locale the spec lacks: none; without a locale the schema is as generated.
    assert_eq!(emit_schema_in(&spec, &options, "fr"), None);
    assert_eq!(emit_schema_in(&spec, &options, "C"), None);
    assert!(!emit_schema(&spec, &options).contains("errorMessage"));
    // Everything else is the plain schema's.
    let mut stripped = schema.clone();
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.remove("errorMessage");
                m.values_mut().for_each(strip);
                if m.get("additionalProperties") == Some(&serde_json::json!({"not": true})) {
                    m.insert("additionalProperties".into(), serde_json::json!(false));
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut stripped);
    let plain: serde_json::Value = serde_json::from_str(&emit_schema(&spec, &options)).unwrap();
    assert_eq!(stripped, plain);
}
