//! Struct rules: `not_equal`, `order`, `max_json_bytes`, `not_contains`, `digest`.

use super::*;

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
                "`title` must not be blank"
            ),
            v(
                "field_too_long",
                "audience[0]",
                "/audience/0",
                "`audience[0]` is 2100 chars (max 4)"
            )
            .with_numbers(2100, 4),
            v(
                "fields_equal",
                "to_role",
                "/to_role",
                "`to_role` must differ from `from_role` (both `planner`)"
            ),
            v(
                "document_too_large",
                "",
                "",
                &format!("the document is {bytes} bytes as compact JSON (max 2048)")
            )
            .with_numbers(bytes, 2048),
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
            "`inner` is 19 bytes as compact JSON (max 12)"
        )
        .with_numbers(19, 12)]
    );
    assert_eq!(
        report.to_string(),
        "inner_too_large: `inner` is 19 bytes as compact JSON (max 12)"
    );
}

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

/// Two `order` rules on one struct: a validity window (strict, date-times as instants) and
/// a version range (`<=`), each reported at its later field with both values.
#[derive(Serialize, Validate)]
#[validate(
    order(a = not_before, b = not_after, strict, code = "empty_window"),
    order(a = min_version, b = version)
)]
struct Release {
    not_before: String,
    not_after: Option<String>,
    min_version: u32,
    version: u32,
}

#[test]
fn order_compares_at_the_later_field() {
    let release = |not_after: Option<&str>, min_version, version| Release {
        not_before: "2024-05-01T10:00:00Z".into(),
        not_after: not_after.map(str::to_owned),
        min_version,
        version,
    };
    assert_eq!(violations(&release(None, 3, 3)), []);
    assert_eq!(
        violations(&release(Some("2024-05-01T10:00:00.5Z"), 2, 3)),
        []
    );
    assert_eq!(
        violations(&release(Some("2024-05-01T11:00:00+01:00"), 4, 3)),
        [
            v(
                "empty_window",
                "not_after",
                "/not_after",
                "`not_after` `2024-05-01T11:00:00+01:00` must be later than `not_before` `2024-05-01T10:00:00Z`"
            ),
            v(
                "out_of_order",
                "version",
                "/version",
                "`version` `3` must not be less than `min_version` `4`"
            ),
        ]
    );
}
