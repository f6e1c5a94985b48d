//! Decimal rules: `scale` (with and without `precision`) and `decimal_range` (inclusive and
//! excluded ends), on a field, through `Option`, and inside `each(..)`.

use specmint_runtime::decimal::Decimal;

use super::*;

const SCALE: u32 = 2;

#[derive(Clone, Debug, Validate)]
struct Money {
    #[validate(scale(max = SCALE), decimal_range(min = "0", max = "999999999999.99"))]
    amount: Decimal,
    #[validate(
        scale(max = 2, precision = 5, code = "too_precise"),
        decimal_range(above = "0", below = "100", code = "bad_rate")
    )]
    rate: Option<Decimal>,
    #[validate(each(scale(max = 0), decimal_range(max = "1e2")))]
    counts: Vec<Decimal>,
}

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn money() -> Money {
    Money {
        amount: d("999999999999.99"),
        rate: Some(d("99.99")),
        counts: vec![d("100.000"), d("-0")],
    }
}

#[test]
fn values_at_the_scale_and_bounds_pass() {
    assert_eq!(violations(&money()), []);
    let mut m = money();
    m.rate = None;
    m.amount = d("0.00");
    assert_eq!(violations(&m), []);
}

#[test]
fn a_digit_past_the_scale_or_a_bound_is_reported_where_it_is() {
    let mut m = money();
    m.amount = d("999999999999.99001");
    m.rate = Some(d("0"));
    m.counts = vec![d("1.5"), d("100.01")];
    assert_eq!(
        violations(&m),
        [
            v(
                "bad_scale",
                "amount",
                "/amount",
                "`amount` is 999999999999.99001, with 5 fraction digits (max 2)"
            )
            .with_numbers(5, 2),
            v(
                "out_of_range",
                "amount",
                "/amount",
                "`amount` is 999999999999.99001 (max 999999999999.99)"
            ),
            v("bad_rate", "rate", "/rate", "`rate` is 0 (must be above 0)"),
            v(
                "bad_scale",
                "counts[0]",
                "/counts/0",
                "`counts[0]` is 1.5, with 1 fraction digit (max 0)"
            )
            .with_numbers(1, 0),
            v(
                "bad_scale",
                "counts[1]",
                "/counts/1",
                "`counts[1]` is 100.01, with 2 fraction digits (max 0)"
            )
            .with_numbers(2, 0),
            v(
                "out_of_range",
                "counts[1]",
                "/counts/1",
                "`counts[1]` is 100.01 (max 100)"
            ),
        ]
    );
    m = money();
    m.rate = Some(d("100"));
    assert_eq!(
        violations(&m),
        [v(
            "bad_rate",
            "rate",
            "/rate",
            "`rate` is 100 (must be below 100)"
        )]
    );
    m.rate = Some(d("1000.5"));
    assert_eq!(
        violations(&m),
        [
            v(
                "too_precise",
                "rate",
                "/rate",
                "`rate` is 1000.5, with 4 integer digits (max 3 in decimal(5, 2))"
            )
            .with_numbers(4, 3),
            v(
                "bad_rate",
                "rate",
                "/rate",
                "`rate` is 1000.5 (must be below 100)"
            ),
        ]
    );
}
