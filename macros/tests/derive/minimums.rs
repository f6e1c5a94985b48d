//! Minimums: `min_chars` (also through `Option` and inside `each(..)`) and `min_items`.

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
