//! List rules: `max_items`, `each`, `unique_by` (with `nested`), `max_items_per_group`,
//! `contradiction`, `unique`.

use super::*;

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
                "`audience` has 4 items (max 3)"
            )
            .with_numbers(4, 3),
            v(
                "blank_field",
                "audience[1]",
                "/audience/1",
                "`audience[1]` must not be blank"
            ),
            v(
                "field_too_long",
                "audience[3]",
                "/audience/3",
                "`audience[3]` is 6 chars (max 4)"
            )
            .with_numbers(6, 4),
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
            "`tags[1]` must not be blank"
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
                "`constraints` has 5 items (max 4)"
            )
            .with_numbers(5, 4),
            v(
                "field_too_long",
                "constraints[1].text",
                "/constraints/1/text",
                "`constraints[1].text` is 21 chars (max 10)"
            )
            .with_numbers(21, 10),
            v(
                "blank_field",
                "constraints[3].text",
                "/constraints/3/text",
                "`constraints[3].text` must not be blank"
            ),
            v(
                "duplicate_key",
                "constraints[2].id",
                "/constraints/2/id",
                "`constraints[2].id` ` c1 ` duplicates `constraints[0].id`"
            ),
            v(
                "duplicate_key",
                "constraints[4].id",
                "/constraints/4/id",
                "`constraints[4].id` `C2` duplicates `constraints[1].id`"
            ),
        ]
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
                "`acceptance` has 3 items of kind `must_use_tools` (max 2)"
            )
            .with_numbers(3, 2),
            v(
                "contradictory_values",
                "acceptance[2].value",
                "/acceptance/2/value",
                "`acceptance[2].value` `mail_send` (must_not_use_tools) contradicts \
                 `acceptance[1].value` (must_use_tools)"
            ),
        ]
    );
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

/// Issue 23, item 3: grouped by a field that is not `kind`, the message names that field
/// (the items here also have a real `kind`, which the old wording would have pointed at).
#[test]
fn max_items_per_group_names_the_grouping_field() {
    #[derive(Validate)]
    struct Image {
        hardware_rev: String,
        #[allow(dead_code)]
        kind: String,
    }
    #[derive(Validate)]
    struct Release {
        #[validate(nested, max_items_per_group(by = hardware_rev, max = 2))]
        images: Vec<Image>,
    }
    let image = |rev: &str| Image {
        hardware_rev: rev.into(),
        kind: "full".into(),
    };
    let r = Release {
        images: vec![
            image("rev_c"),
            image("rev_b"),
            image("rev_c"),
            image("rev_c"),
        ],
    };
    assert_eq!(
        violations(&r),
        [v(
            "too_many_items",
            "images",
            "/images",
            "`images` has 3 items whose `hardware_rev` is `rev_c` (max 2)"
        )
        .with_numbers(3, 2)]
    );
}

/// A key read as `Option` (a rule checks its presence): items without it are skipped, the
/// others compared as usual; an enum key (`AsRef<str>`) works as it is or optional.
#[test]
fn unique_by_skips_an_absent_key() {
    #[derive(Validate)]
    struct Entry {
        name: Option<String>,
        shade: Option<Shade>,
    }
    #[derive(Clone, Copy)]
    enum Shade {
        Dark,
        Light,
    }
    impl AsRef<str> for Shade {
        fn as_ref(&self) -> &str {
            match self {
                Shade::Dark => "dark",
                Shade::Light => "light",
            }
        }
    }
    #[derive(Validate)]
    struct Entries {
        #[validate(unique_by(key = name, ignore_case, code = "dup"))]
        by_name: Vec<Entry>,
        #[validate(unique_by(key = shade, code = "dup"))]
        by_shade: Vec<Entry>,
        #[validate(unique_by(key = kind, code = "dup"))]
        kinds: Vec<Kinded>,
    }
    #[derive(Validate)]
    struct Kinded {
        kind: Shade,
    }
    let e = |name: Option<&str>, shade: Option<Shade>| Entry {
        name: name.map(str::to_owned),
        shade,
    };
    let list = vec![
        e(None, None),
        e(Some("a"), Some(Shade::Dark)),
        e(None, None),
        e(Some("A"), Some(Shade::Light)),
        e(Some(""), Some(Shade::Dark)),
    ];
    let entries = Entries {
        by_name: list,
        by_shade: vec![e(None, None), e(None, Some(Shade::Light)), e(None, None)],
        kinds: vec![Kinded { kind: Shade::Dark }, Kinded { kind: Shade::Dark }],
    };
    assert_eq!(
        violations(&entries),
        [
            v(
                "dup",
                "by_name[3].name",
                "/by_name/3/name",
                "`by_name[3].name` `A` duplicates `by_name[1].name`"
            ),
            v(
                "dup",
                "kinds[1].kind",
                "/kinds/1/kind",
                "`kinds[1].kind` `dark` duplicates `kinds[0].kind`"
            ),
        ]
    );
}

/// A VAT category, a compound key member through `KeyMember` (compared as spelled).
#[derive(Clone, Copy)]
enum Category {
    S,
    Z,
}

impl specmint_runtime::rules::KeyMember for Category {
    fn key_value(&self) -> Option<specmint_runtime::rules::KeyValue<'_>> {
        Some(specmint_runtime::rules::KeyValue::Symbol(match self {
            Category::S => "S",
            Category::Z => "Z",
        }))
    }
}

#[derive(Validate)]
struct Breakdown {
    category: Category,
    rate: Option<f64>,
    note: String,
    count: u32,
    exempt: bool,
}

#[derive(Validate)]
struct Vat {
    #[validate(unique_by(key = (category, rate), code = "BR-CO-17"))]
    lines: Vec<Breakdown>,
    #[validate(unique_by(key = (note, count, exempt), ignore_case, trim))]
    other: Option<Vec<Breakdown>>,
}

fn b(category: Category, rate: Option<f64>, note: &str, count: u32, exempt: bool) -> Breakdown {
    Breakdown {
        category,
        rate,
        note: note.into(),
        count,
        exempt,
    }
}

#[test]
fn unique_by_compound_key() {
    use Category::{S, Z};
    let lines = vec![
        b(S, Some(21.0), "", 0, false),
        b(Z, Some(21.0), "", 0, false),
        b(S, Some(21.0), "", 0, false),
        b(S, None, "", 0, false),
        b(S, None, "", 0, false),
        b(Z, Some(0.0), "", 0, false),
        b(Z, Some(-0.0), "", 0, false),
        b(S, Some(21.5), "", 0, false),
    ];
    let other = vec![
        b(S, None, " Ab ", 1, true),
        b(S, None, "aB", 1, true),
        b(S, None, "aB", 2, true),
        b(S, None, "aB", 1, false),
    ];
    let p = Vat {
        lines,
        other: Some(other),
    };
    assert_eq!(
        violations(&p),
        [
            v(
                "BR-CO-17",
                "lines[2]",
                "/lines/2",
                "`lines[2]` (`category` `S`, `rate` `21`) repeats `lines[0]`"
            ),
            v(
                "BR-CO-17",
                "lines[6]",
                "/lines/6",
                "`lines[6]` (`category` `Z`, `rate` `-0`) repeats `lines[5]`"
            ),
            v(
                "duplicate_key",
                "other[1]",
                "/other/1",
                "`other[1]` (`note` `aB`, `count` `1`, `exempt` `true`) repeats `other[0]`"
            ),
        ]
    );
    let absent = Vat {
        lines: Vec::new(),
        other: None,
    };
    assert_eq!(violations(&absent), []);
}
