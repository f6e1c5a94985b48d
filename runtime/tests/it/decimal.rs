//! A `Decimal` field read through the document reader (its `Strict` adaptor and path
//! tracking): the number's text reaches it, and a refusal is placed at the field.

use serde::{Deserialize, Serialize};
use specmint_runtime::decimal::Decimal;
use specmint_runtime::document::{parse_document, to_canonical_json, DocumentSpec};
use specmint_runtime::Validate;

#[derive(Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Line {
    amount: Decimal,
    #[serde(default)]
    discount: Option<Decimal>,
}

#[derive(Debug, Deserialize, Serialize, Validate)]
#[serde(deny_unknown_fields)]
struct Invoice {
    lines: Vec<Line>,
}

const INVOICE: DocumentSpec = DocumentSpec::new("invoice", "bad_invoice");

#[test]
fn a_decimal_reads_the_numbers_text_through_the_document_reader() {
    let doc: Invoice = parse_document(
        br#"{"lines": [{"amount": 999999999999.99001, "discount": 1e-2}, {"amount": -0, "discount": null}]}"#,
        &INVOICE,
    )
    .unwrap();
    assert_eq!(doc.lines[0].amount.to_string(), "999999999999.99001");
    assert_eq!(
        to_canonical_json(&doc),
        r#"{"lines":[{"amount":999999999999.99001,"discount":0.01},{"amount":0,"discount":null}]}"#
    );
}

#[test]
fn a_string_or_too_many_digits_is_refused_at_the_field() {
    let report =
        parse_document::<Invoice>(br#"{"lines": [{"amount": "12.50"}]}"#, &INVOICE).unwrap_err();
    let v = &report.as_slice()[0];
    assert_eq!(
        (v.code.as_ref(), v.path.as_str()),
        ("bad_invoice", "lines[0].amount")
    );
    assert!(
        v.message
            .contains("invalid type: string \"12.50\", expected a decimal number"),
        "{}",
        v.message
    );
    let report = parse_document::<Invoice>(
        br#"{"lines": [{"amount": 1, "discount": 12345678901234567890123456789}]}"#,
        &INVOICE,
    )
    .unwrap_err();
    let v = &report.as_slice()[0];
    assert_eq!(
        (v.code.as_ref(), v.path.as_str()),
        ("bad_invoice", "lines[0].discount")
    );
    assert!(v.message.contains("at most 28 digits"), "{}", v.message);
}
