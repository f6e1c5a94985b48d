//! Minimums: `min_chars` (also through `Option` and inside `each(..)`) and `min_items`; and
//! `pattern` and `format` on each element of a list.

use super::*;

#[derive(Clone, Debug, Validate)]
struct Form {
    #[validate(min_chars = 3, max_chars = 5)]
    name: String,
    #[validate(min_chars(min = 2, code = "nick_too_short"))]
    nick: Option<String>,
    #[validate(min_items = 2, each(min_chars = 1))]
    tags: Vec<String>,
    #[validate(min_items(min = 1, code = "need_one"))]
    owners: Option<Vec<String>>,
}

fn form() -> Form {
    Form {
        name: "字字字".into(),
        nick: None,
        tags: vec!["a".into(), "b".into()],
        owners: None,
    }
}

#[test]
fn at_the_minimum_passes() {
    assert_eq!(violations(&form()), []);
}

#[test]
fn under_each_minimum_is_reported_with_its_numbers() {
    let mut f = form();
    f.name = "ab".into();
    f.nick = Some("x".into());
    f.tags = vec![String::new()];
    f.owners = Some(vec![]);
    assert_eq!(
        violations(&f),
        [
            v(
                "field_too_short",
                "name",
                "/name",
                "`name` is 2 chars (min 3)"
            )
            .with_numbers(2, 3),
            v(
                "nick_too_short",
                "nick",
                "/nick",
                "`nick` is 1 chars (min 2)"
            )
            .with_numbers(1, 2),
            v(
                "too_few_items",
                "tags",
                "/tags",
                "`tags` has 1 items (min 2)"
            )
            .with_numbers(1, 2),
            v(
                "field_too_short",
                "tags[0]",
                "/tags/0",
                "`tags[0]` is 0 chars (min 1)"
            )
            .with_numbers(0, 1),
            v(
                "need_one",
                "owners",
                "/owners",
                "`owners` has 0 items (min 1)"
            )
            .with_numbers(0, 1),
        ]
    );
}

#[derive(Clone, Debug, Validate)]
struct Links {
    #[validate(
        min_items = 1,
        each(pattern(regex = "^https://[a-z.]+$", code = "bad_link"))
    )]
    urls: Vec<String>,
    #[validate(pattern(regex = "^[a-z]+$"))]
    label: Option<String>,
}

#[test]
fn pattern_applies_to_each_element_and_skips_none() {
    let ok = Links {
        urls: vec!["https://a.b".into()],
        label: None,
    };
    assert_eq!(violations(&ok), []);
    let bad = Links {
        urls: vec!["https://a.b".into(), "http://a".into()],
        label: Some("A".into()),
    };
    assert_eq!(
        violations(&bad),
        [
            v(
                "bad_link",
                "urls[1]",
                "/urls/1",
                "`urls[1]` `http://a` does not match `^https://[a-z.]+$`"
            ),
            v(
                "pattern_mismatch",
                "label",
                "/label",
                "`label` `A` does not match `^[a-z]+$`"
            ),
        ]
    );
}

#[derive(Clone, Debug, Validate)]
struct Stamp {
    #[validate(format(kind = "date-time"))]
    at: String,
    #[validate(format(kind = "email", code = "bad_email"))]
    contact: Option<String>,
    #[validate(each(format(kind = "uri")))]
    links: Vec<String>,
}

#[test]
fn formats_check_each_value_and_skip_none() {
    let ok = Stamp {
        at: "2024-01-31T12:00:00Z".into(),
        contact: None,
        links: vec!["https://example.com/a".into()],
    };
    assert_eq!(violations(&ok), []);
    let bad = Stamp {
        at: "2024-01-31 12:00:00Z".into(),
        contact: Some("a@b".into()),
        links: vec!["https://example.com/a".into(), "not a uri".into()],
    };
    assert_eq!(
        violations(&bad),
        [
            v(
                "bad_format",
                "at",
                "/at",
                "`at` `2024-01-31 12:00:00Z` is not a valid date-time"
            ),
            v(
                "bad_email",
                "contact",
                "/contact",
                "`contact` `a@b` is not a valid email"
            ),
            v(
                "bad_format",
                "links[1]",
                "/links/1",
                "`links[1]` `not a uri` is not a valid uri"
            ),
        ]
    );
}
