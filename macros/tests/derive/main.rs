//! Behaviour of `#[derive(Validate)]` on hand-written structs, one module per rule family:
//! exact code, path, pointer, message, measured and limit for every rule. The fixtures
//! several families share (`Packet`, `Envelope`) are here; each module holds its own.

mod custom;
mod decimals;
mod expansion;
mod lists;
mod minimums;
mod nested;
mod numbers;
mod paths;
mod presence;
mod struct_rules;
mod text;

use serde::Serialize;
use specmint_macros::Validate;
use specmint_runtime::rules::Filled;
use specmint_runtime::{Report, Validate as _, Violation};

/// A violation with no numbers (add them with `.with_numbers(measured, limit)`).
fn v(code: &'static str, path: &str, pointer: &str, message: &str) -> Violation {
    Violation::from_parts(code, path.into(), pointer.into(), message.into())
}

/// Every violation of `value`, in order (none when it is valid).
fn violations<T: specmint_runtime::Validate>(value: &T) -> Vec<Violation> {
    value
        .validate()
        .err()
        .map(Report::into_vec)
        .unwrap_or_default()
}

const TEXT_MAX: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
enum Kind {
    MustUseTools,
    MustNotUseTools,
    Note,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::MustUseTools => "must_use_tools",
            Kind::MustNotUseTools => "must_not_use_tools",
            Kind::Note => "note",
        })
    }
}

#[derive(Clone, Debug, Serialize, Validate)]
struct Constraint {
    #[validate(non_blank)]
    id: String,
    #[validate(non_blank, max_chars = TEXT_MAX)]
    text: String,
}

#[derive(Clone, Debug, Serialize, Validate)]
struct Check {
    kind: Kind,
    #[validate(non_blank)]
    value: String,
}

#[derive(Clone, Debug, Serialize, Validate)]
#[validate(not_equal(a = from_role, b = to_role), max_json_bytes = 2048)]
struct Packet {
    #[validate(non_blank, max_chars(max = 12, code = "title_too_long"))]
    title: String,
    #[validate(non_blank(code = "note_blank"), max_chars = 5)]
    note: Option<String>,
    #[validate(max_items = 3, each(non_blank, max_chars = 4))]
    audience: Vec<String>,
    #[validate(each(non_blank))]
    tags: Option<Vec<String>>,
    #[validate(max_items(max = 4, code = "too_many_constraints"), nested)]
    #[validate(unique_by(key = id, ignore_case, trim))]
    constraints: Vec<Constraint>,
    #[validate(nested, max_items_per_group(by = kind, max = 2))]
    #[validate(contradiction(
        by = kind,
        value = value,
        pair(Kind::MustUseTools, Kind::MustNotUseTools, ignore_case)
    ))]
    acceptance: Vec<Check>,
    #[validate(nested)]
    lead: Option<Constraint>,
    from_role: String,
    to_role: String,
}

fn c(id: &str, text: &str) -> Constraint {
    Constraint {
        id: id.into(),
        text: text.into(),
    }
}

fn check(kind: Kind, value: &str) -> Check {
    Check {
        kind,
        value: value.into(),
    }
}

fn valid() -> Packet {
    Packet {
        title: "Ship it".into(),
        note: None,
        audience: vec!["dev".into(), "ops".into()],
        tags: Some(vec!["a".into()]),
        constraints: vec![c("C1", "short"), c("C2", "also")],
        acceptance: vec![
            check(Kind::MustUseTools, "grep"),
            check(Kind::MustNotUseTools, "mail"),
            check(Kind::Note, "grep"),
        ],
        lead: Some(c("L", "lead")),
        from_role: "planner".into(),
        to_role: "coder".into(),
    }
}

#[test]
fn valid_value_passes() {
    assert_eq!(valid().validate(), Ok(()));
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Disposition {
    Included,
    Excluded,
}

impl std::fmt::Display for Disposition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Disposition::Included => "included",
            Disposition::Excluded => "excluded",
        })
    }
}

#[derive(Clone, Debug, Serialize)]
struct Budget;

impl Filled for Budget {}

const PACKAGE_ID: &str = "^pkg_[A-Za-z0-9_-]{1,63}$";

#[derive(Clone, Debug, Validate)]
struct Payload {
    #[validate(relative_path)]
    logical_path: String,
    disposition: Disposition,
    #[validate(required_if(field = disposition, equals = Disposition::Excluded))]
    exclusion_reason: Option<String>,
}

#[derive(Clone, Debug, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
struct Envelope {
    #[validate(equals(value = "0.1"))]
    protocol_version: String,
    #[validate(equals(value = "x", code = "bad_kind"))]
    kind: Option<String>,
    #[validate(pattern(regex = "^pkg_[A-Za-z0-9_-]{1,63}$"))]
    package_id: String,
    #[validate(pattern(regex = "^[a-z]+$", code = "bad_slug"))]
    slug: Option<String>,
    #[validate(relative_path(code = "bad_path"))]
    path: Option<String>,
    #[validate(required)]
    objective: Option<String>,
    #[validate(required(code = "need_boundaries"))]
    boundaries: Option<Vec<String>>,
    #[validate(required)]
    budget: Option<Budget>,
    #[validate(required)]
    count: Option<u32>,
    #[serde(skip)]
    #[validate(nested)]
    payload: Payload,
    #[validate(unique)]
    depends_on: Vec<String>,
    #[validate(unique(ignore_case, trim, code = "dup_tag"))]
    tags: Option<Vec<String>>,
}

impl Serialize for Payload {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_unit()
    }
}

fn envelope() -> Envelope {
    Envelope {
        protocol_version: "0.1".into(),
        kind: None,
        package_id: "pkg_abc-1".into(),
        slug: Some("abc".into()),
        path: Some("a/b.txt".into()),
        objective: Some("do it".into()),
        boundaries: Some(vec!["b".into()]),
        budget: Some(Budget),
        count: Some(0),
        payload: Payload {
            logical_path: "docs/a..b/c".into(),
            disposition: Disposition::Included,
            exclusion_reason: None,
        },
        depends_on: vec!["t-1".into(), "t-2".into()],
        tags: None,
    }
}

#[test]
fn valid_envelope_passes() {
    assert!(PACKAGE_ID.starts_with('^'));
    assert_eq!(envelope().validate(), Ok(()));
}
