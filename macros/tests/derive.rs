//! Behaviour of `#[derive(Validate)]` on hand-written structs: exact code, path, pointer,
//! message, measured and limit for every rule.

use serde::Serialize;
use specmint_macros::Validate;
use specmint_runtime::{Report, Validate as _, Violation};

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

fn v(
    code: &'static str,
    path: &str,
    pointer: &str,
    message: &str,
    numbers: Option<(u64, u64)>,
) -> Violation {
    let v = Violation::from_parts(code, path.into(), pointer.into(), message.into());
    match numbers {
        Some((measured, limit)) => v.with_numbers(measured, limit),
        None => v,
    }
}

fn violations(p: &Packet) -> Vec<Violation> {
    p.validate().err().map(Report::into_vec).unwrap_or_default()
}

#[test]
fn valid_value_passes() {
    assert_eq!(valid().validate(), Ok(()));
}

#[test]
fn non_blank_and_max_chars() {
    let mut p = valid();
    p.title = "\u{3000}".into();
    assert_eq!(
        violations(&p),
        [v(
            "blank_field",
            "title",
            "/title",
            "`title` must not be blank",
            None
        )]
    );
    p.title = "x".repeat(13);
    assert_eq!(
        violations(&p),
        [v(
            "title_too_long",
            "title",
            "/title",
            "`title` is 13 chars (max 12)",
            Some((13, 12))
        )]
    );
    p.title = "é".repeat(12);
    assert_eq!(violations(&p), []);
}

#[test]
fn option_text_checked_only_when_some() {
    let mut p = valid();
    p.note = Some("  ".into());
    assert_eq!(
        violations(&p),
        [v(
            "note_blank",
            "note",
            "/note",
            "`note` must not be blank",
            None
        )]
    );
    p.note = Some("toolong".into());
    assert_eq!(
        violations(&p),
        [v(
            "field_too_long",
            "note",
            "/note",
            "`note` is 7 chars (max 5)",
            Some((7, 5))
        )]
    );
}

#[test]
fn max_items_and_each() {
    let mut p = valid();
    p.audience = vec!["dev".into(), " ".into(), "ops".into(), "admins".into()];
    assert_eq!(
        violations(&p),
        [
            v(
                "too_many_items",
                "audience",
                "/audience",
                "`audience` has 4 items (max 3)",
                Some((4, 3))
            ),
            v(
                "blank_field",
                "audience[1]",
                "/audience/1",
                "`audience[1]` must not be blank",
                None
            ),
            v(
                "field_too_long",
                "audience[3]",
                "/audience/3",
                "`audience[3]` is 6 chars (max 4)",
                Some((6, 4))
            ),
        ]
    );
    p = valid();
    p.tags = Some(vec!["ok".into(), "".into()]);
    assert_eq!(
        violations(&p),
        [v(
            "blank_field",
            "tags[1]",
            "/tags/1",
            "`tags[1]` must not be blank",
            None
        )]
    );
    p.tags = None;
    assert_eq!(violations(&p), []);
}

#[test]
fn nested_and_unique_by() {
    let mut p = valid();
    p.constraints = vec![
        c("C1", "fine"),
        c("C2", "this text is too long"),
        c(" c1 ", "dup"),
        c("C4", ""),
        c("C2", "x"),
    ];
    assert_eq!(
        violations(&p),
        [
            v(
                "too_many_constraints",
                "constraints",
                "/constraints",
                "`constraints` has 5 items (max 4)",
                Some((5, 4))
            ),
            v(
                "field_too_long",
                "constraints[1].text",
                "/constraints/1/text",
                "`constraints[1].text` is 21 chars (max 10)",
                Some((21, 10))
            ),
            v(
                "blank_field",
                "constraints[3].text",
                "/constraints/3/text",
                "`constraints[3].text` must not be blank",
                None
            ),
            v(
                "duplicate_key",
                "constraints[2].id",
                "/constraints/2/id",
                "`constraints[2].id` ` c1 ` duplicates `constraints[0].id`",
                None
            ),
            v(
                "duplicate_key",
                "constraints[4].id",
                "/constraints/4/id",
                "`constraints[4].id` `C2` duplicates `constraints[1].id`",
                None
            ),
        ]
    );
}

#[test]
fn nested_option() {
    let mut p = valid();
    p.lead = Some(c("", "ok"));
    assert_eq!(
        violations(&p),
        [v(
            "blank_field",
            "lead.id",
            "/lead/id",
            "`lead.id` must not be blank",
            None
        )]
    );
}

#[test]
fn max_items_per_group_and_contradiction() {
    let mut p = valid();
    p.acceptance = vec![
        check(Kind::MustUseTools, "grep"),
        check(Kind::MustUseTools, "Mail_Send"),
        check(Kind::MustNotUseTools, "mail_send"),
        check(Kind::MustUseTools, "sed"),
        check(Kind::Note, "mail_send"),
    ];
    assert_eq!(
        violations(&p),
        [
            v(
                "too_many_items",
                "acceptance",
                "/acceptance",
                "`acceptance` has 3 items of kind `must_use_tools` (max 2)",
                Some((3, 2))
            ),
            v(
                "contradictory_values",
                "acceptance[2].value",
                "/acceptance/2/value",
                "`acceptance[2].value` `mail_send` (must_not_use_tools) contradicts \
                 `acceptance[1].value` (must_use_tools)",
                None
            ),
        ]
    );
}

#[test]
fn not_equal_and_max_json_bytes_run_last() {
    let mut p = valid();
    p.to_role = "planner".into();
    p.title = String::new();
    p.audience = vec!["x".repeat(2100)];
    let got = violations(&p);
    let bytes = serde_json::to_string(&p).unwrap().len() as u64;
    assert_eq!(
        got,
        [
            v(
                "blank_field",
                "title",
                "/title",
                "`title` must not be blank",
                None
            ),
            v(
                "field_too_long",
                "audience[0]",
                "/audience/0",
                "`audience[0]` is 2100 chars (max 4)",
                Some((2100, 4))
            ),
            v(
                "fields_equal",
                "to_role",
                "/to_role",
                "`to_role` must differ from `from_role` (both `planner`)",
                None
            ),
            v(
                "document_too_large",
                "",
                "",
                &format!("the document is {bytes} bytes as compact JSON (max 2048)"),
                Some((bytes, 2048))
            ),
        ]
    );
}

#[derive(Serialize, Validate)]
#[validate(max_json_bytes(max = 12, code = "inner_too_large"))]
struct Inner {
    text: String,
}

#[derive(Serialize, Validate)]
struct Outer {
    #[validate(nested)]
    inner: Inner,
    #[validate(nested)]
    list: Vec<Inner>,
}

#[test]
fn max_json_bytes_on_nested_struct() {
    let o = Outer {
        inner: Inner {
            text: "abcdefgh".into(),
        },
        list: vec![Inner { text: "a".into() }],
    };
    let report: Report = o.validate().unwrap_err();
    assert_eq!(
        report.as_slice(),
        [v(
            "inner_too_large",
            "inner",
            "/inner",
            "`inner` is 19 bytes as compact JSON (max 12)",
            Some((19, 12))
        )]
    );
    assert_eq!(
        report.to_string(),
        "`inner` is 19 bytes as compact JSON (max 12)"
    );
}

#[derive(Validate)]
#[validate(not_equal(a = r#type, b = other, code = "same"))]
struct Raw {
    #[validate(non_blank)]
    r#type: String,
    other: String,
}

#[test]
fn raw_identifiers_are_unprefixed_in_paths() {
    let r = Raw {
        r#type: " ".into(),
        other: " ".into(),
    };
    let got = r.validate().unwrap_err();
    assert_eq!(
        got.as_slice(),
        [
            v(
                "blank_field",
                "type",
                "/type",
                "`type` must not be blank",
                None
            ),
            v(
                "same",
                "other",
                "/other",
                "`other` must differ from `type` (both ` `)",
                None
            ),
        ]
    );
}

#[derive(Validate)]
struct Generic<T: specmint_runtime::Validate> {
    #[validate(nested)]
    inner: T,
    #[validate(non_blank)]
    name: &'static str,
}

#[test]
fn generic_struct() {
    let g = Generic {
        inner: vec![c("", "x")],
        name: "",
    };
    let codes: Vec<_> = g.validate().unwrap_err().codes().collect();
    assert_eq!(codes, ["blank_field", "blank_field"]);
}

/// A module that shadows prelude names: the derive must still expand.
mod hygiene {
    #![allow(dead_code)]
    use specmint_macros::Validate;

    struct Result;
    struct Option;
    struct Vec;
    struct String;
    struct Some;
    struct None;
    struct Ok;
    mod core {}
    mod std {}
    fn drop() {}

    #[derive(Validate)]
    #[validate(not_equal(a = a, b = b))]
    pub struct Shadowed {
        #[validate(non_blank, max_chars = 3)]
        pub a: ::std::string::String,
        #[validate(each(non_blank))]
        pub list: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
        #[validate(unique_by(key = a))]
        pub items: ::std::vec::Vec<Shadowed>,
        pub b: ::std::string::String,
    }
}

#[test]
fn hygiene_with_shadowed_prelude() {
    let s = hygiene::Shadowed {
        a: "abcd".into(),
        list: Some(vec!["".into()]),
        items: vec![],
        b: "abcd".into(),
    };
    let codes: Vec<_> = s.validate().unwrap_err().codes().collect();
    assert_eq!(codes, ["field_too_long", "blank_field", "fields_equal"]);
}

/// A facade re-exporting the runtime under another path.
mod facade {
    pub use specmint_runtime as runtime;
}

#[derive(Validate)]
#[validate(crate = "facade::runtime")]
struct ViaFacade {
    #[validate(non_blank)]
    name: String,
}

#[test]
fn crate_attribute_points_at_a_reexport() {
    let e = ViaFacade {
        name: String::new(),
    }
    .validate()
    .unwrap_err();
    assert_eq!(e.to_string(), "`name` must not be blank");
}

#[derive(Validate)]
struct Keyed {
    #[validate(unique_by(key = id, ignore_case, trim))]
    folded: Vec<Constraint>,
    #[validate(unique_by(key = id))]
    exact: Option<Vec<Constraint>>,
}

/// The derive feeds `unique_by` its keys one by one (`__private::UniqueByKeys`): it must report
/// exactly what `rules::unique_by` does, pairwise on short lists and through the hash map on
/// lists longer than `SMALL_LIST`.
#[test]
fn derived_unique_by_matches_the_rule_on_short_and_long_lists() {
    use specmint_runtime::{rules, Path};
    let mut seen_duplicates = false;
    for n in [0, 1, 5, rules::SMALL_LIST, rules::SMALL_LIST + 1, 150] {
        let list: Vec<Constraint> = (0..n)
            .map(|i| match i % 3 {
                0 => c(&format!("K{}", i % 7), "t"),
                1 => c(&format!(" k{} ", i % 5), "t"),
                _ => c(&format!("X{i}"), "t"),
            })
            .collect();
        let keyed = Keyed {
            folded: list.clone(),
            exact: Some(list.clone()),
        };
        let mut expected = Report::default();
        fn key(x: &Constraint) -> &str {
            &x.id
        }
        let folded = rules::Fold {
            trim: true,
            ignore_case: true,
        };
        let exact = rules::Fold::default();
        let (f, e) = (Path::ROOT.field("folded"), Path::ROOT.field("exact"));
        rules::unique_by(&list, "id", key, folded, &f, "duplicate_key", &mut expected);
        rules::unique_by(&list, "id", key, exact, &e, "duplicate_key", &mut expected);
        let got = keyed
            .validate()
            .err()
            .map(Report::into_vec)
            .unwrap_or_default();
        seen_duplicates |= !got.is_empty();
        assert_eq!(got, expected.into_vec(), "{n} items");
    }
    assert!(seen_duplicates);
}
