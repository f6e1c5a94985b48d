//! Text rules: `non_blank`, `max_chars` (also through `Option`), `equals`, `pattern`,
//! `relative_path`.

use super::*;

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
            "`title` must not be blank"
        )]
    );
    p.title = "x".repeat(13);
    assert_eq!(
        violations(&p),
        [v(
            "title_too_long",
            "title",
            "/title",
            "`title` is 13 chars (max 12)"
        )
        .with_numbers(13, 12)]
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
        [v("note_blank", "note", "/note", "`note` must not be blank")]
    );
    p.note = Some("toolong".into());
    assert_eq!(
        violations(&p),
        [v(
            "field_too_long",
            "note",
            "/note",
            "`note` is 7 chars (max 5)"
        )
        .with_numbers(7, 5)]
    );
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
