//! `matching` on each element of a list (`string[] matching`) and on a nullable string
//! (`string? matching`): the Rust rule, the schema (a `null` stays valid under the `$`
//! guard) and the corpus probes.

use crate::common;
use serde_json::{json, Value};

const MD: &str = "# Links v1

## Fields of a `page`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `urls` | string[] matching `^https://[a-z]+\\.[a-z]+$` | ✔ | Links. |
| `slug` | string? matching `^[a-z]+$` | — | Slug. |
| `aliases` | string[]? matching `^[a-z]+$` | — | Other slugs. |

## Caps

| Cap | Value | Constant |
|---|---|---|
| `urls` | at least 2 items | URLS_MIN |

## Error codes

| Code | When |
|---|---|
| `bad_page` | Not the shape. |
| `bad_text` | A text does not match. |
| `too_few` | Too few. |

```json valid
{\"urls\": [\"https://a.io\", \"https://b.io\"], \"slug\": \"home\"}
```
";

const TOML: &str = "[spec]
root = \"page\"

[errors]
enum = \"PageError\"
parse = \"bad_page\"
pattern = \"bad_text\"
min_items = \"too_few\"
";

fn files() -> std::collections::BTreeMap<String, String> {
    common::generated("links", MD, TOML).unwrap_or_else(|d| panic!("{d}"))
}

#[test]
fn rust_checks_each_element_and_a_present_value() {
    let rust = &files()["rust/links.rs"];
    common::assert_holds(
        rust,
        &[
        "each(pattern(regex = \"^https://[a-z]+\\\\.[a-z]+$\", code = \"bad_text\"))\n    )]\n    pub urls: ::std::vec::Vec<::std::string::String>,",
        "#[validate(pattern(regex = \"^[a-z]+$\", code = \"bad_text\"))]\n    pub slug: ::core::option::Option<::std::string::String>,",
        "#[validate(each(pattern(regex = \"^[a-z]+$\", code = \"bad_text\")))]\n    pub aliases: ::core::option::Option<::std::vec::Vec<::std::string::String>>,",
        ],
    );
}

#[test]
fn schema_patterns_the_items_and_lets_null_through() {
    let schema: Value = serde_json::from_str(&files()["schema/links.schema.json"]).unwrap();
    let p = &schema["$defs"]["page"]["properties"];
    assert_eq!(p["urls"]["items"]["pattern"], "^https://[a-z]+\\.[a-z]+$");
    assert_eq!(
        p["urls"]["items"]["allOf"],
        json!([{"not": {"pattern": "\n$"}}])
    );
    assert_eq!(p["slug"]["type"], json!(["string", "null"]));
    assert_eq!(
        p["slug"]["allOf"],
        json!([{"not": {"type": "string", "pattern": "\n$"}}])
    );
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let doc = |slug: Value| json!({"urls": ["https://a.io", "https://b.io"], "slug": slug});
    assert!(v.is_valid(&doc(Value::Null)));
    assert!(!v.is_valid(&doc(json!("home\n"))));
    assert!(!v.is_valid(&json!({"urls": ["https://a.io", "http://b.io"]})));
}

#[test]
fn corpus_probes_an_element_and_null() {
    let corpus: Value = serde_json::from_str(&files()["corpus/links/cases.json"]).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    let case = |id: &str| {
        let c = cases
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id}"));
        (c["document"].clone(), c["errors"].clone())
    };
    let bad = |path: &str| json!([{"code": "bad_text", "path": path}]);
    assert_eq!(
        case("pattern.urls.trailing_lf"),
        (
            // The filler keeps the list at its minimum, a variant of the first URL.
            json!({"urls": ["https://a.io\n", "https://a.ia"], "slug": "home"}),
            bad("urls[0]")
        )
    );
    assert_eq!(
        case("pattern.urls.valid"),
        (
            json!({"urls": ["https://a.io", "https://a.ia"], "slug": "home"}),
            json!([])
        )
    );
    assert_eq!(
        case("pattern.slug.null"),
        (
            json!({"urls": ["https://a.io", "https://b.io"], "slug": null}),
            json!([])
        )
    );
    assert_eq!(case("pattern.aliases.upper").1, bad("aliases[0]"));
    assert_eq!(corpus["notes"], json!([]));
}
