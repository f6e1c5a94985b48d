//! The derive works on hand-written structs that have nothing to do with a bundled spec,
//! through the `specmint` facade alone.

use specmint::Validate;

const TITLE_MAX: usize = 10;

#[derive(serde::Serialize, specmint::Validate)]
#[validate(
    crate = "::specmint::runtime",
    max_json_bytes(max = 200, code = "order_too_large")
)]
#[validate(not_equal(a = buyer, b = seller, code = "self_trade"))]
struct Order {
    #[validate(non_blank, max_chars = TITLE_MAX)]
    title: String,
    buyer: String,
    seller: String,
    #[validate(max_items = 3, each(non_blank, max_chars = 4))]
    tags: Vec<String>,
    #[validate(nested, unique_by(key = sku, ignore_case, trim, code = "duplicate_sku"))]
    lines: Vec<Line>,
}

#[derive(serde::Serialize, specmint::Validate)]
#[validate(crate = "::specmint::runtime")]
struct Line {
    #[validate(non_blank(code = "sku_required"))]
    sku: String,
}

fn order() -> Order {
    Order {
        title: "Tea".into(),
        buyer: "ann".into(),
        seller: "bob".into(),
        tags: vec!["hot".into()],
        lines: vec![Line { sku: "T-1".into() }],
    }
}

#[test]
fn a_valid_hand_written_value_passes() {
    assert!(order().validate().is_ok());
}

#[test]
fn each_rule_reports_code_path_pointer_and_message() {
    let mut o = order();
    o.title = "ten chars!!".into();
    o.seller = "ann".into();
    o.tags = vec!["ok".into(), " ".into(), "toolong".into(), "x".into()];
    o.lines = vec![
        Line { sku: "a".into() },
        Line { sku: " ".into() },
        Line { sku: " A ".into() },
    ];
    let report = o.validate().unwrap_err();
    let got: Vec<(&str, &str, &str)> = report
        .iter()
        .map(|v| (&*v.code, v.path.as_str(), v.pointer.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("field_too_long", "title", "/title"),
            ("too_many_items", "tags", "/tags"),
            ("blank_field", "tags[1]", "/tags/1"),
            ("field_too_long", "tags[2]", "/tags/2"),
            ("sku_required", "lines[1].sku", "/lines/1/sku"),
            ("duplicate_sku", "lines[2].sku", "/lines/2/sku"),
            ("self_trade", "seller", "/seller"),
        ]
    );
    assert_eq!(report.as_slice()[0].message, "`title` is 11 chars (max 10)");
    assert_eq!(report.as_slice()[3].message, "`tags[2]` is 7 chars (max 4)");
}

#[test]
fn struct_level_byte_cap_applies_to_hand_written_types() {
    let mut o = order();
    o.buyer = "b".repeat(300);
    let report = o.validate().unwrap_err();
    assert_eq!(report.len(), 1);
    assert_eq!(report.as_slice()[0].code, "order_too_large");
    assert_eq!(report.as_slice()[0].path, "");
    assert_eq!(report.as_slice()[0].limit, Some(200));
}
