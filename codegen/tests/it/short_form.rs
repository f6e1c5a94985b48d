//! A union's short form (`[unions.<name>] short_form = true`): a bare tag stands for a variant
//! whose members are all optional. The refusal of any other bare token offers only those tags,
//! and a tag whose variant has a required member is told to write the tagged object instead of
//! being called unknown. The interpreter and the generated Rust share the texts.

use crate::common;

use specmint_codegen::{load, Validator};

const MD: &str = r#"# Job

## Fields of a `job`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `out` | sink | ✔ | Where output goes. |

## Kinds of a `sink`

| kind | Fields | Meaning |
|---|---|---|
| `stdout` | — | The terminal. |
| `file` | `path: string` | A file. |
| `http` | `url: string?` | A web hook. |

## Error codes

| Code | When |
|---|---|
| `bad_job` | Not JSON, or not the shape of a job. |

## Examples

```json valid
{"out": "stdout"}
```
"#;

const TOML: &str = r#"[spec]
root = "job"

[errors]
parse = "bad_job"

[unions.sink]
short_form = true
"#;

/// The one message of the refusal of `doc`.
fn refusal(validator: &Validator, doc: &str) -> String {
    let report = validator.validate(doc.as_bytes()).unwrap_err();
    let all: Vec<_> = report.iter().collect();
    assert_eq!(all.len(), 1, "{doc}: {report}");
    assert_eq!(
        (&*all[0].code, all[0].path.as_str()),
        ("bad_job", "out"),
        "{doc}"
    );
    all[0].message.clone()
}

#[test]
fn bare_tags_offer_only_the_variants_that_can_be_written_bare() {
    let spec = load(&common::source("job", MD, TOML)).unwrap();
    let validator = Validator::new(&spec);
    assert_eq!(
        validator.validate(br#"{"out": "stdout"}"#).unwrap(),
        r#"{"out":{"kind":"stdout"}}"#
    );
    assert_eq!(
        validator.validate(br#"{"out": " HTTP "}"#).unwrap(),
        r#"{"out":{"kind":"http","url":null}}"#
    );
    let told = "is not a sink that can be written bare, expected one of `stdout`, `http` \
                (the other kinds are written as a tagged `sink` object)";
    for token in ["file", "ftp"] {
        let message = refusal(&validator, &format!(r#"{{"out": "{token}"}}"#));
        assert!(
            message.starts_with(&format!("`{token}` {told} at line 1 column ")),
            "{message}"
        );
    }
    assert!(
        refusal(&validator, r#"{"out": 7}"#)
            .contains("expected a tagged `sink` object or one of `stdout`, `http`"),
        "the expectation names only the bare tags"
    );
    assert!(
        validator
            .validate(br#"{"out": {"kind": "file", "path": "a.txt"}}"#)
            .is_ok(),
        "the tagged object is the way to write `file`"
    );

    // The generated Rust reader says the same.
    let files = common::generated("job", MD, TOML).unwrap();
    let rust = &files["rust/job.rs"];
    common::assert_holds(
        rust,
        &[
            "is not a sink that can be written bare, expected one of `stdout`, `http`",
            "a tagged `sink` object or one of `stdout`, `http`",
        ],
    );
}
