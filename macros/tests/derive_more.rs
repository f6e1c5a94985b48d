//! Behaviour of the newer `#[derive(Validate)]` rules and of JSON names in paths: exact code,
//! path, pointer and message for `equals`, `pattern`, `relative_path`, `required`,
//! `required_if`, `unique`, `not_contains`, `digest`, serde `rename` / `rename_all` and
//! `#[validate(rename)]`.

use serde::Serialize;
use specmint_macros::Validate;
use specmint_runtime::rules::Filled;
use specmint_runtime::{Report, Validate as _, Violation};

fn v(code: &'static str, path: &str, pointer: &str, message: &str) -> Violation {
    Violation::from_parts(code, path.into(), pointer.into(), message.into())
}

fn violations<T: specmint_runtime::Validate>(value: &T) -> Vec<Violation> {
    value
        .validate()
        .err()
        .map(Report::into_vec)
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// JSON names in paths.

#[derive(Serialize, Validate)]
#[serde(rename_all = "camelCase")]
struct Camel {
    #[validate(non_blank)]
    output_format: String,
    #[serde(rename = "taskID")]
    #[validate(non_blank)]
    task_id: String,
    #[validate(non_blank, rename = "explicit")]
    overridden: String,
    #[validate(max_items = 1, each(non_blank))]
    depends_on: Vec<String>,
    #[serde(rename(serialize = "out", deserialize = "inName"))]
    #[validate(non_blank)]
    two_names: String,
    #[validate(non_blank)]
    r#type: String,
}

#[test]
fn paths_use_serde_names() {
    let value = Camel {
        output_format: " ".into(),
        task_id: "".into(),
        overridden: "".into(),
        depends_on: vec!["a".into(), " ".into()],
        two_names: "".into(),
        r#type: "".into(),
    };
    let mut long = v(
        "too_many_items",
        "dependsOn",
        "/dependsOn",
        "`dependsOn` has 2 items (max 1)",
    );
    (long.measured, long.limit) = (Some(2), Some(1));
    assert_eq!(
        violations(&value),
        [
            v(
                "blank_field",
                "outputFormat",
                "/outputFormat",
                "`outputFormat` must not be blank"
            ),
            v(
                "blank_field",
                "taskID",
                "/taskID",
                "`taskID` must not be blank"
            ),
            v(
                "blank_field",
                "explicit",
                "/explicit",
                "`explicit` must not be blank"
            ),
            long,
            v(
                "blank_field",
                "dependsOn[1]",
                "/dependsOn/1",
                "`dependsOn[1]` must not be blank"
            ),
            v(
                "blank_field",
                "inName",
                "/inName",
                "`inName` must not be blank"
            ),
            v("blank_field", "type", "/type", "`type` must not be blank"),
        ]
    );
}

macro_rules! rename_all_case {
    ($name:ident, $rule:literal, $expected:literal) => {
        #[test]
        fn $name() {
            #[derive(Serialize, Validate)]
            #[serde(rename_all = $rule)]
            struct S {
                #[validate(non_blank)]
                the_field_name: String,
            }
            let got = violations(&S {
                the_field_name: String::new(),
            });
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].path, $expected);
            assert_eq!(got[0].pointer, concat!("/", $expected));
            // serde agrees.
            let json = serde_json::to_string(&S {
                the_field_name: "x".into(),
            })
            .unwrap();
            assert_eq!(json, concat!("{\"", $expected, "\":\"x\"}"));
        }
    };
}

rename_all_case!(rename_all_camel, "camelCase", "theFieldName");
rename_all_case!(rename_all_snake, "snake_case", "the_field_name");
rename_all_case!(rename_all_kebab, "kebab-case", "the-field-name");
rename_all_case!(
    rename_all_screaming,
    "SCREAMING_SNAKE_CASE",
    "THE_FIELD_NAME"
);
rename_all_case!(
    rename_all_screaming_kebab,
    "SCREAMING-KEBAB-CASE",
    "THE-FIELD-NAME"
);
rename_all_case!(rename_all_pascal, "PascalCase", "TheFieldName");
rename_all_case!(rename_all_lower, "lowercase", "the_field_name");
rename_all_case!(rename_all_upper, "UPPERCASE", "THE_FIELD_NAME");

#[derive(Validate)]
#[validate(not_equal(a = from_role, b = to_role))]
struct Roles {
    #[validate(rename = "from")]
    from_role: String,
    #[validate(rename = "to")]
    to_role: String,
}

#[test]
fn struct_rules_name_fields_by_their_path_names() {
    let value = Roles {
        from_role: "x".into(),
        to_role: "x".into(),
    };
    assert_eq!(
        violations(&value),
        [v(
            "fields_equal",
            "to",
            "/to",
            "`to` must differ from `from` (both `x`)"
        )]
    );
}

// ---------------------------------------------------------------------------------------
// Field rules.

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

#[test]
fn equals_shows_the_actual_value() {
    let mut e = envelope();
    e.protocol_version = "0.2".into();
    e.kind = Some("y".into());
    assert_eq!(
        violations(&e),
        [
            v(
                "unexpected_value",
                "protocolVersion",
                "/protocolVersion",
                "`protocolVersion` is `0.2`, expected `0.1`"
            ),
            v("bad_kind", "kind", "/kind", "`kind` is `y`, expected `x`"),
        ]
    );
    e = envelope();
    e.protocol_version = "é".repeat(70);
    let got = violations(&e);
    assert_eq!(
        got[0].message,
        format!("`protocolVersion` is `{}…`, expected `0.1`", "é".repeat(64))
    );
    e.protocol_version = "0.1 ".into();
    assert_eq!(violations(&e).len(), 1, "no trimming");
}

#[test]
fn pattern_must_match() {
    let mut e = envelope();
    e.package_id = "pkg_".into();
    e.slug = Some("ABC".into());
    assert_eq!(
        violations(&e),
        [
            v(
                "pattern_mismatch",
                "packageId",
                "/packageId",
                "`packageId` `pkg_` does not match `^pkg_[A-Za-z0-9_-]{1,63}$`"
            ),
            v(
                "bad_slug",
                "slug",
                "/slug",
                "`slug` `ABC` does not match `^[a-z]+$`"
            ),
        ]
    );
    e = envelope();
    e.package_id = format!("pkg_{}", "a".repeat(64));
    assert_eq!(violations(&e).len(), 1);
    e.package_id = format!("pkg_{}", "a".repeat(63));
    e.slug = None;
    assert_eq!(violations(&e), []);
}

#[test]
fn relative_path_says_what_is_wrong() {
    let cases = [
        ("../x", "contains `..`"),
        ("a/../x", "contains `..`"),
        ("a\\..\\x", "contains `..`"),
        ("a/..", "contains `..`"),
        ("/x", "is absolute"),
        ("\\x", "is absolute"),
        ("C:\\x", "is absolute"),
        ("C:/x", "is absolute"),
        ("//server/share", "is absolute"),
        ("", "is empty"),
    ];
    for (bad, why) in cases {
        let mut e = envelope();
        e.payload.logical_path = bad.into();
        assert_eq!(
            violations(&e),
            [v(
                "invalid_path",
                "payload.logical_path",
                "/payload/logical_path",
                &format!(
                    "`payload.logical_path` `{bad}` must be a relative path without `..` (it {why})"
                )
            )],
            "{bad:?}"
        );
    }
    for good in ["a", "a/b/c.txt", "...", "a/.../b", "./a", "a..b"] {
        let mut e = envelope();
        e.payload.logical_path = good.into();
        e.path = Some(good.into());
        assert_eq!(violations(&e), [], "{good:?}");
    }
    let mut e = envelope();
    e.path = Some("../up".into());
    assert_eq!(violations(&e)[0].code, "bad_path");
}

#[test]
fn required_refuses_none_blank_and_empty() {
    let mut e = envelope();
    e.objective = None;
    e.boundaries = None;
    e.budget = None;
    e.count = None;
    assert_eq!(
        violations(&e),
        [
            v(
                "required",
                "objective",
                "/objective",
                "`objective` is required"
            ),
            v(
                "need_boundaries",
                "boundaries",
                "/boundaries",
                "`boundaries` is required"
            ),
            v("required", "budget", "/budget", "`budget` is required"),
            v("required", "count", "/count", "`count` is required"),
        ]
    );
    e = envelope();
    e.objective = Some(" \u{3000}".into());
    e.boundaries = Some(vec![]);
    assert_eq!(
        violations(&e),
        [
            v(
                "required",
                "objective",
                "/objective",
                "`objective` is required (it is blank)"
            ),
            v(
                "need_boundaries",
                "boundaries",
                "/boundaries",
                "`boundaries` is required (it is empty)"
            ),
        ]
    );
    e.objective = Some(String::new());
    e.boundaries = Some(vec![String::new()]); // a list with an element is filled
    assert_eq!(
        violations(&e),
        [v(
            "required",
            "objective",
            "/objective",
            "`objective` is required (it is empty)"
        )]
    );
}

#[test]
fn required_if_checks_only_when_the_sibling_matches() {
    let mut e = envelope();
    e.payload.disposition = Disposition::Excluded;
    assert_eq!(
        violations(&e),
        [v(
            "required",
            "payload.exclusion_reason",
            "/payload/exclusion_reason",
            "`payload.exclusion_reason` is required when `disposition` is `excluded`"
        )]
    );
    e.payload.exclusion_reason = Some("  ".into());
    assert_eq!(
        violations(&e)[0].message,
        "`payload.exclusion_reason` is required when `disposition` is `excluded` (it is blank)"
    );
    e.payload.exclusion_reason = Some("out of scope".into());
    assert_eq!(violations(&e), []);
    e.payload.disposition = Disposition::Included;
    e.payload.exclusion_reason = None;
    assert_eq!(violations(&e), []);
}

#[test]
fn unique_reports_each_later_repeat() {
    let mut e = envelope();
    e.depends_on = vec![
        "t-1".into(),
        "t-2".into(),
        "t-1".into(),
        "T-1".into(),
        "t-1".into(),
    ];
    e.tags = Some(vec!["A".into(), " a ".into(), "b".into()]);
    assert_eq!(
        violations(&e),
        [
            v(
                "duplicate_item",
                "dependsOn[2]",
                "/dependsOn/2",
                "`dependsOn[2]` `t-1` repeats `dependsOn[0]`"
            ),
            v(
                "duplicate_item",
                "dependsOn[4]",
                "/dependsOn/4",
                "`dependsOn[4]` `t-1` repeats `dependsOn[0]`"
            ),
            v(
                "dup_tag",
                "tags[1]",
                "/tags/1",
                "`tags[1]` ` a ` repeats `tags[0]`"
            ),
        ]
    );
}

#[test]
fn unique_on_long_lists_gives_the_same_verdicts() {
    let mut e = envelope();
    e.depends_on = (0..100).map(|i| format!("t-{}", i % 70)).collect();
    let got = violations(&e);
    assert_eq!(got.len(), 30);
    assert_eq!(
        got[0].message,
        "`dependsOn[70]` `t-0` repeats `dependsOn[0]`"
    );
    assert_eq!(got[29].path, "dependsOn[99]");
}

// ---------------------------------------------------------------------------------------
// Struct rules.

#[derive(Serialize, Validate)]
#[serde(rename_all = "camelCase")]
#[validate(not_contains(list = depends_on, value = task_id))]
struct Task {
    #[serde(rename = "taskID")]
    task_id: Option<String>,
    depends_on: Vec<String>,
}

#[derive(Validate)]
#[validate(not_contains(list = parents, value = id, code = "cycle"))]
struct WorkItem {
    id: String,
    parents: Option<Vec<String>>,
}

#[derive(Validate)]
struct Plan {
    #[validate(nested)]
    tasks: Vec<Task>,
}

#[test]
fn not_contains_refuses_the_own_value() {
    let t = Task {
        task_id: Some("t-9".into()),
        depends_on: vec!["t-1".into(), "t-9".into(), "T-9".into(), "t-9".into()],
    };
    assert_eq!(
        violations(&t),
        [
            v(
                "contains_self",
                "dependsOn[1]",
                "/dependsOn/1",
                "`dependsOn[1]` is the task's own `taskID` `t-9`"
            ),
            v(
                "contains_self",
                "dependsOn[3]",
                "/dependsOn/3",
                "`dependsOn[3]` is the task's own `taskID` `t-9`"
            ),
        ]
    );
    let plan = Plan { tasks: vec![t] };
    assert_eq!(violations(&plan)[0].path, "tasks[0].dependsOn[1]");
    assert_eq!(
        violations(&plan)[0].message,
        "`tasks[0].dependsOn[1]` is the task's own `taskID` `t-9`"
    );
    // No value: nothing to compare.
    let t = Task {
        task_id: None,
        depends_on: vec!["t-9".into()],
    };
    assert_eq!(violations(&t), []);
    let w = WorkItem {
        id: "w".into(),
        parents: Some(vec!["w".into()]),
    };
    assert_eq!(
        violations(&w),
        [v(
            "cycle",
            "parents[0]",
            "/parents/0",
            "`parents[0]` is the work item's own `id` `w`"
        )]
    );
    let w = WorkItem {
        id: "w".into(),
        parents: None,
    };
    assert_eq!(violations(&w), []);
}

#[derive(Clone, Copy, Debug)]
enum Encoding {
    Utf8,
    Base64,
    Hex,
}

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Encoding::Utf8 => "utf8",
            Encoding::Base64 => "base64",
            Encoding::Hex => "hex",
        })
    }
}

#[derive(Clone, Debug, Validate)]
#[validate(digest(sha256 = sha256, data = data, encoding = encoding, label = name, length = bytes))]
struct Attachment {
    name: String,
    encoding: Encoding,
    data: String,
    sha256: Option<String>,
    bytes: Option<u64>,
}

#[derive(Clone, Debug, Validate)]
#[validate(digest(sha256 = sha256, data = data, encoding = encoding, code = "bad_digest"))]
struct Blob {
    encoding: Encoding,
    data: Option<String>,
    sha256: String,
}

#[derive(Validate)]
struct Message {
    #[validate(nested)]
    attachments: Vec<Attachment>,
}

const EMPTY_SHA: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// sha256("hello world")
const HELLO_SHA: &str = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";

fn attachment(encoding: Encoding, data: &str) -> Attachment {
    Attachment {
        name: "brief.txt".into(),
        encoding,
        data: data.into(),
        sha256: Some(HELLO_SHA.into()),
        bytes: Some(11),
    }
}

#[test]
fn digest_accepts_matching_content() {
    let ok = [
        attachment(Encoding::Utf8, "hello world"),
        attachment(Encoding::Base64, "aGVsbG8gd29ybGQ="),
        Attachment {
            sha256: Some(HELLO_SHA.to_uppercase()),
            ..attachment(Encoding::Utf8, "hello world")
        },
        Attachment {
            sha256: None,
            bytes: None,
            ..attachment(Encoding::Base64, "not base64!")
        },
        // Unknown encodings are not checked.
        attachment(Encoding::Hex, "00"),
    ];
    for a in ok {
        assert_eq!(violations(&a), [], "{a:?}");
    }
    // A long base64 payload is decoded chunk by chunk with the same result.
    let long = Blob {
        encoding: Encoding::Base64,
        data: Some("A".repeat(4000)),
        sha256: "x".into(),
    };
    let got = violations(&long);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].path, "sha256");
}

#[test]
fn digest_mismatch_and_length() {
    let m = Message {
        attachments: vec![
            attachment(Encoding::Utf8, "hello world"),
            Attachment {
                sha256: Some(EMPTY_SHA.into()),
                bytes: Some(10),
                ..attachment(Encoding::Utf8, "hello world!")
            },
        ],
    };
    let mut length = v(
        "digest_mismatch",
        "attachments[1].bytes",
        "/attachments/1/bytes",
        "`attachments[1].bytes` is 10 but `brief.txt` has 12 bytes",
    );
    (length.measured, length.limit) = (Some(12), Some(10));
    assert_eq!(
        violations(&m),
        [
            v(
                "digest_mismatch",
                "attachments[1].sha256",
                "/attachments/1/sha256",
                "`attachments[1]` (`brief.txt`): declared sha256 `e3b0c442…` does not match its bytes (`7509e5bd…`)"
            ),
            length,
        ]
    );
}

#[test]
fn digest_bad_base64_is_its_own_violation() {
    let a = attachment(Encoding::Base64, "aGVsbG8gd29ybGQ");
    assert_eq!(
        violations(&a),
        [v(
            "digest_mismatch",
            "data",
            "/data",
            "`data` (`brief.txt`) is not valid base64"
        )]
    );
    let b = Blob {
        encoding: Encoding::Base64,
        data: Some("@@@@".into()),
        sha256: EMPTY_SHA.into(),
    };
    assert_eq!(
        violations(&b),
        [v(
            "bad_digest",
            "data",
            "/data",
            "`data` is not valid base64"
        )]
    );
}

#[test]
fn digest_at_the_root_and_without_label() {
    let b = Blob {
        encoding: Encoding::Utf8,
        data: Some("hello world".into()),
        sha256: "abc".into(),
    };
    assert_eq!(
        violations(&b),
        [v(
            "bad_digest",
            "sha256",
            "/sha256",
            "the document: declared sha256 `abc` does not match its bytes (`b94d27b9…`)"
        )]
    );
    let b = Blob { data: None, ..b };
    assert_eq!(violations(&b), []);
}

#[derive(Validate)]
#[validate(digest(sha256 = sum, data = body, encoding = enc, length = size))]
struct NoLabel {
    enc: Encoding,
    body: String,
    sum: Option<String>,
    size: usize,
}

#[test]
fn digest_length_without_label_names_the_data() {
    let n = NoLabel {
        enc: Encoding::Utf8,
        body: "abc".into(),
        sum: None,
        size: 4,
    };
    let got = violations(&n);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].path, "size");
    assert_eq!(got[0].message, "`size` is 4 but `body` has 3 bytes");
}

/// A module that shadows prelude names: the new rules must still expand.
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
    struct OnceLock;
    struct Pattern;

    #[derive(Validate)]
    #[validate(not_contains(list = list, value = a))]
    #[validate(digest(sha256 = sum, data = a, encoding = a, label = a, length = n))]
    pub struct Shadowed {
        #[validate(equals(value = "x"), pattern(regex = "^x$"), relative_path)]
        pub a: ::std::string::String,
        #[validate(required, unique)]
        pub list: ::std::option::Option<::std::vec::Vec<::std::string::String>>,
        #[validate(required_if(field = a, equals = "y"))]
        pub sum: ::std::option::Option<::std::string::String>,
        pub n: ::std::option::Option<u64>,
    }
}

#[test]
fn hygiene_with_shadowed_prelude() {
    let s = hygiene::Shadowed {
        a: "x".into(),
        list: Some(vec!["x".into(), "x".into()]),
        sum: Some("0".into()),
        n: None,
    };
    let codes: Vec<_> = s.validate().unwrap_err().codes().collect();
    // The encoding (`x`) is neither `utf8` nor `base64`: `digest` checks nothing.
    assert_eq!(codes, ["duplicate_item", "contains_self", "contains_self"]);
}

mod flatten {
    use specmint_runtime::Validate;

    /// Members that sit beside the owner's own in the JSON (a flattened or hand-read value).
    struct Body {
        inner: Inner,
    }

    #[derive(specmint_macros::Validate)]
    struct Inner {
        #[validate(non_blank)]
        name: String,
    }

    impl Validate for Body {
        fn validate_at(
            &self,
            path: &specmint_runtime::Path<'_>,
            report: &mut specmint_runtime::Report,
        ) {
            Validate::validate_at(&self.inner, &path.field("inner"), report);
        }
    }

    #[derive(specmint_macros::Validate)]
    struct Owner {
        #[validate(nested(flatten))]
        body: Body,
        #[validate(nested)]
        kept: Inner,
    }

    #[test]
    fn nested_flatten_reports_at_the_owners_path_not_the_fields() {
        let owner = Owner {
            body: Body {
                inner: Inner { name: " ".into() },
            },
            kept: Inner {
                name: String::new(),
            },
        };
        let report = owner.validate().unwrap_err();
        let paths: Vec<&str> = report.iter().map(|v| v.path.as_str()).collect();
        assert_eq!(paths, ["inner.name", "kept.name"]);
        assert_eq!(report.as_slice()[0].pointer, "/inner/name");
        assert_eq!(
            report.as_slice()[0].message,
            "`inner.name` must not be blank"
        );
    }
}
