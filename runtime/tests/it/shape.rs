//! The shape walker on a description built at run time (owned slices): every kind of value,
//! unions with and without their short form, a selector, an open object; exact messages.

use std::borrow::Cow;

use specmint_runtime::json::Json;
use specmint_runtime::shape::{
    check, FieldShape, Kind, ObjectShape, SelectorCaseShape, SelectorShape, Shapes, TypeShape,
    UnionShape, ValueShape, VariantShape,
};

const FORMAT: usize = 1;
const PLAIN: usize = 2;
const MODE: usize = 3;
const BY_MAIL: usize = 4;
const BY_HAND: usize = 5;
const EXTRA: usize = 6;

fn fields(list: Vec<FieldShape<'static>>) -> Cow<'static, [FieldShape<'static>]> {
    Cow::Owned(list)
}

/// A `job` with every kind of member, built the way a run-time model would build it.
fn shapes() -> Shapes<'static> {
    let job = ObjectShape {
        name: "job",
        fields: fields(vec![
            FieldShape::new("id", ValueShape::new(Kind::Str), true),
            FieldShape::new("count", ValueShape::new(Kind::U32), true),
            FieldShape::new("offset", ValueShape::new(Kind::I64), false),
            FieldShape::new("ratio", ValueShape::new(Kind::Number).nullable(), false),
            FieldShape::new("tags", ValueShape::new(Kind::Str).array(), false),
            FieldShape::new("done", ValueShape::new(Kind::Bool), false),
            FieldShape::new("format", ValueShape::new(Kind::Type(FORMAT)), true),
            FieldShape::new("plain", ValueShape::new(Kind::Type(PLAIN)).array(), false),
            FieldShape::new("mode", ValueShape::new(Kind::Type(MODE)), true),
            FieldShape::new("delivery", ValueShape::new(Kind::Selected), true),
            FieldShape::new("extra", ValueShape::new(Kind::Type(EXTRA)), false),
            FieldShape::new("note", ValueShape::new(Kind::Any), false),
        ]),
        open: false,
        selector: Some(SelectorShape {
            by: "mode",
            members: Cow::Owned(vec!["delivery"]),
            cases: Cow::Owned(vec![
                SelectorCaseShape::new("mail", &[BY_MAIL]),
                SelectorCaseShape::new("hand", &[BY_HAND]),
            ]),
        }),
    };
    let format = UnionShape {
        name: "format",
        tag: "kind",
        short_form: true,
        variants: Cow::Owned(vec![
            VariantShape::new("text", &[]),
            VariantShape {
                tag_value: "json",
                fields: fields(vec![FieldShape::new(
                    "schema",
                    ValueShape::new(Kind::Str).nullable(),
                    false,
                )]),
            },
            VariantShape {
                tag_value: "table",
                fields: fields(vec![FieldShape::new(
                    "columns",
                    ValueShape::new(Kind::U64),
                    true,
                )]),
            },
        ]),
    };
    let plain = UnionShape {
        name: "plain",
        tag: "kind",
        short_form: false,
        variants: Cow::Owned(vec![VariantShape::new("a", &[])]),
    };
    let extra = ObjectShape {
        name: "extra",
        fields: fields(vec![FieldShape::new(
            "size",
            ValueShape::new(Kind::U32),
            true,
        )]),
        open: true,
        selector: None,
    };
    Shapes {
        root: 0,
        types: Cow::Owned(vec![
            TypeShape::Object(job),
            TypeShape::Union(format),
            TypeShape::Union(plain),
            TypeShape::enumeration("mode", &["mail", "hand"]),
            TypeShape::Object(ObjectShape {
                name: "by_mail",
                fields: fields(vec![FieldShape::new(
                    "address",
                    ValueShape::new(Kind::Str),
                    true,
                )]),
                open: false,
                selector: None,
            }),
            TypeShape::object("by_hand", &[]),
            TypeShape::Object(extra),
        ]),
    }
}

fn problems(text: &str) -> Vec<String> {
    check(&Json::parse(text).unwrap(), &shapes(), "job", "bad_job")
        .iter()
        .map(|v| format!("{} | {}", v.pointer, v.message))
        .collect()
}

#[test]
fn a_document_of_the_shape_has_no_problem() {
    let ok = [
        r#"{"id":"j","count":4294967295,"offset":-3,"ratio":null,"tags":["a"],"done":true,
            "format":" JSON ","plain":[{"kind":"a"}],"mode":"mail","delivery":{"address":"x"},
            "extra":{"size":1,"anything":[1]},"note":{"k":[null]}}"#,
        r#"{"id":"j","count":0,"format":{"kind":"table","columns":3},"mode":"hand","delivery":{}}"#,
        r#"{"id":"j","count":0,"format":{"kind":"json","schema":null},"mode":"hand","delivery":{},"ratio":1.5}"#,
    ];
    for text in ok {
        assert_eq!(problems(text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn every_problem_is_listed_in_document_order_with_its_pointer() {
    let text = r#"{"id":7,"count":4294967296,"offset":1.5,"ratio":"x","tags":"a","done":"yes",
        "format":"table","plain":["a"],"mode":"mail","delivery":{"adress":"x"},
        "extra":{"anything":1},"zz":0}"#;
    assert_eq!(
        problems(text),
        [
            "/id | `id` must be a string, found the number 7",
            "/count | `count` must be an integer from 0 to 4294967295, found the number 4294967296",
            "/offset | `offset` must be an integer from -9223372036854775808 to 9223372036854775807, found the number 1.5",
            "/ratio | `ratio` must be a number or null, found a string",
            "/tags | `tags` must be an array (each item a string), found a string",
            "/done | `done` must be a boolean, found a string",
            "/format | `format` is `table`, expected a `format` object tagged by `kind` or one of `text`, `json`",
            "/plain/0 | `plain[0]` must be a `plain` object tagged by `kind`, found a string",
            "/delivery/adress | `delivery.adress` is an unknown key (expected one of `address`)",
            "/delivery/address | `delivery.address` is required but missing",
            "/extra/size | `extra.size` is required but missing",
            "/zz | `zz` is an unknown key (expected one of `id`, `count`, `offset`, `ratio`, `tags`, `done`, `format`, `plain`, `mode`, `delivery`, `extra`, `note`)",
        ]
    );
}

#[test]
fn unions_selectors_and_the_root_have_their_own_messages() {
    assert_eq!(
        problems(
            r#"{"id":"j","count":1,"format":{"kind":"table","rows":1},"mode":"post","delivery":{"x":1}}"#
        ),
        [
            "/format/rows | `format.rows` is an unknown key (expected one of `kind`, `columns`)",
            "/format/columns | `format.columns` is required but missing",
            // An unknown selector value chooses no table: its members are not looked into.
            "/mode | `mode` is `post`, expected one of `mail`, `hand`",
        ]
    );
    assert_eq!(
        problems(r#"{"id":"j","count":1,"format":{"kind":"csv"},"mode":"hand","delivery":{}}"#),
        ["/format/kind | `format.kind` is `csv`, expected one of `text`, `json`, `table`"]
    );
    assert_eq!(
        problems(r#"{"id":"j","count":1,"format":{"columns":1},"mode":"hand"}"#),
        [
            "/format/kind | `format.kind` is required but missing",
            "/delivery | `delivery` is required but missing",
        ]
    );
    assert_eq!(
        problems("[]"),
        [" | the job must be a `job` object, found an array"]
    );
}
