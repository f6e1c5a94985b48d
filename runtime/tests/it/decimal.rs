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

/// A seeded property: random number texts (sign, digits, point, exponent) against an
/// independent reading by string arithmetic, for the value, its digits, its comparisons and
/// both rules under random scales, precisions, bounds and excluded ends.
mod property {
    use std::cmp::Ordering;

    use specmint_runtime::decimal::Decimal;
    use specmint_runtime::rules::{self, DecimalBounds};
    use specmint_runtime::{Path, Report};

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            // xorshift64*
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A JSON number's text with at most 12 significant digits and a small exponent.
    fn text(r: &mut Rng) -> String {
        let mut t = String::new();
        if r.below(3) == 0 {
            t.push('-');
        }
        let int_len = 1 + r.below(6);
        let first = if int_len == 1 {
            r.below(10)
        } else {
            1 + r.below(9)
        };
        t.push_str(&first.to_string());
        for _ in 1..int_len {
            t.push_str(&r.below(10).to_string());
        }
        if r.below(2) == 0 {
            t.push('.');
            for _ in 0..1 + r.below(6) {
                // Trailing zeros often.
                let d = if r.below(3) == 0 { 0 } else { r.below(10) };
                t.push_str(&d.to_string());
            }
        }
        if r.below(4) == 0 {
            t.push(if r.below(2) == 0 { 'e' } else { 'E' });
            match r.below(3) {
                0 => t.push('-'),
                1 => t.push('+'),
                _ => {}
            }
            t.push_str(&r.below(8).to_string());
        }
        t
    }

    /// The oracle: sign, significant digits (none for zero) and the power of ten of the last.
    fn read(t: &str) -> (bool, String, i64) {
        let (neg, rest) = t.strip_prefix('-').map_or((false, t), |r| (true, r));
        let (mant, exp) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().unwrap()),
            None => (rest, 0),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let mut digits: String = format!("{int}{frac}").trim_start_matches('0').to_owned();
        let mut power = exp - frac.len() as i64;
        while digits.ends_with('0') {
            digits.pop();
            power += 1;
        }
        let neg = neg && !digits.is_empty();
        (neg, digits, power)
    }

    fn fraction_digits(t: &str) -> u32 {
        let (_, digits, power) = read(t);
        if digits.is_empty() {
            0
        } else {
            (-power).max(0) as u32
        }
    }

    fn integer_digits(t: &str) -> u32 {
        let (_, digits, power) = read(t);
        if digits.is_empty() {
            return 0;
        }
        (digits.len() as i64 + power).max(0) as u32
    }

    fn compare(a: &str, b: &str) -> Ordering {
        let (na, da, pa) = read(a);
        let (nb, db, pb) = read(b);
        let sign = |neg: bool, d: &str| {
            if d.is_empty() {
                0
            } else if neg {
                -1
            } else {
                1
            }
        };
        let (sa, sb) = (sign(na, &da), sign(nb, &db));
        if sa != sb || sa == 0 {
            return sa.cmp(&sb);
        }
        // Both the same sign: align to the smaller power and compare as integers.
        let low = pa.min(pb);
        let a = format!("{da}{}", "0".repeat((pa - low) as usize));
        let b = format!("{db}{}", "0".repeat((pb - low) as usize));
        let magnitude = a.len().cmp(&b.len()).then_with(|| a.cmp(&b));
        if sa > 0 {
            magnitude
        } else {
            magnitude.reverse()
        }
    }

    #[test]
    fn reading_digits_and_order_agree_with_string_arithmetic() {
        let mut r = Rng(0x005e_edde_c1a1);
        for _ in 0..5000 {
            let (a, b) = (text(&mut r), text(&mut r));
            let (x, y) = (
                Decimal::from_json_text(&a).unwrap(),
                Decimal::from_json_text(&b).unwrap(),
            );
            assert_eq!(x.fraction_digits(), fraction_digits(&a), "{a}");
            assert_eq!(x.integer_digits(), integer_digits(&a), "{a}");
            assert_eq!(x.cmp(&y), compare(&a, &b), "{a} vs {b}");
            // Written back, it reads as the same value, in plain notation.
            let shown = x.to_string();
            let negative_zero = shown.starts_with('-') && compare(&shown, "0") == Ordering::Equal;
            assert!(
                !shown.contains(['e', 'E']) && !negative_zero,
                "{a} → {shown}"
            );
            assert_eq!(compare(&shown, &a), Ordering::Equal, "{a} → {shown}");
        }
    }

    #[test]
    fn both_rules_agree_with_string_arithmetic_under_random_bounds() {
        let mut r = Rng(0x000b_00d5_cafe);
        for _ in 0..5000 {
            let v = text(&mut r);
            let d = Decimal::from_json_text(&v).unwrap();
            let scale = r.below(5) as u32;
            let precision = (r.below(2) == 0)
                .then(|| scale + r.below(7) as u32)
                .filter(|p| *p > 0);
            let mut report = Report::new();
            rules::scale(
                &d,
                scale,
                precision,
                &Path::ROOT.field("v"),
                "s",
                &mut report,
            );
            let broken = fraction_digits(&v) > scale
                || precision.is_some_and(|p| integer_digits(&v) > p - scale);
            assert_eq!(
                !report.is_empty(),
                broken,
                "{v} scale {scale} precision {precision:?}"
            );

            let (lo, hi) = (text(&mut r), text(&mut r));
            let (lo, hi) = if compare(&lo, &hi) == Ordering::Greater {
                (hi, lo)
            } else {
                (lo, hi)
            };
            let min = (r.below(4) != 0).then_some(lo.as_str());
            let max = (r.below(4) != 0).then_some(hi.as_str());
            let (min_excluded, max_excluded) = (r.below(2) == 0, r.below(2) == 0);
            let bounds = DecimalBounds {
                min,
                min_excluded,
                max,
                max_excluded,
            };
            let mut report = Report::new();
            rules::decimal_range(&d, bounds, &Path::ROOT.field("v"), "r", &mut report);
            let below = min.is_some_and(|m| match compare(&v, m) {
                Ordering::Less => true,
                Ordering::Equal => min_excluded,
                Ordering::Greater => false,
            });
            let above = max.is_some_and(|m| match compare(&v, m) {
                Ordering::Greater => true,
                Ordering::Equal => max_excluded,
                Ordering::Less => false,
            });
            assert_eq!(!report.is_empty(), below || above, "{v} in {bounds:?}");
        }
    }
}

/// A byte cap measures a decimal as it is written (`12.50`, `0.01` for `1e-2`).
#[test]
fn a_byte_cap_measures_the_written_form() {
    let doc: Invoice =
        serde_json::from_str(r#"{"lines": [{"amount": 12.50, "discount": 1e-2}]}"#).unwrap();
    let written = to_canonical_json(&doc);
    assert_eq!(written, r#"{"lines":[{"amount":12.50,"discount":0.01}]}"#);
    assert_eq!(
        specmint_runtime::rules::json_bytes(&doc),
        Some(written.len() as u64)
    );
}
