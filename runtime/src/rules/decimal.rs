//! Rules on an exact decimal ([`Decimal`]): its scale (and precision) and its bounds, which
//! may exclude their end.

use crate::decimal::Decimal;
use crate::path::Path;
use crate::report::{Report, Violation};

/// A decimal field: [`Decimal`], or an `Option` of one (`None` passes every rule).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a decimal field",
    label = "`scale` and `decimal_range` apply to `specmint_runtime::decimal::Decimal` or an `Option` of one"
)]
pub trait DecimalField {
    /// The value, when present.
    fn decimal(&self) -> Option<Decimal>;
}

impl DecimalField for Decimal {
    fn decimal(&self) -> Option<Decimal> {
        Some(*self)
    }
}

impl<T: DecimalField + ?Sized> DecimalField for &T {
    fn decimal(&self) -> Option<Decimal> {
        (**self).decimal()
    }
}

impl<T: DecimalField> DecimalField for Option<T> {
    fn decimal(&self) -> Option<Decimal> {
        self.as_ref().and_then(DecimalField::decimal)
    }
}

/// At most `scale` fraction digits (trailing zeros do not count: `100.000` has none) and,
/// with a `precision` P, at most P − `scale` integer digits (SQL's `NUMERIC(P, S)`). `None`
/// passes.
///
/// Messages: `` `amount` is 12.345, with 3 fraction digits (max 2) ``, and
/// `` `amount` is 1000.5, with 4 integer digits (max 3 in decimal(5, 2)) ``. The violation's
/// `measured` and `limit` are the digits counted and the most allowed.
///
/// ```
/// use specmint_runtime::decimal::Decimal;
/// use specmint_runtime::rules;
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::new();
/// let d: Decimal = "12.345".parse().unwrap();
/// rules::scale(&d, 2, None, &Path::ROOT.field("amount"), "bad_scale", &mut report);
/// assert_eq!(report.to_string(), "bad_scale: `amount` is 12.345, with 3 fraction digits (max 2)");
/// ```
#[inline]
pub fn scale<V: DecimalField + ?Sized>(
    value: &V,
    scale: u32,
    precision: Option<u32>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(d) = value.decimal() else { return };
    let fraction = d.fraction_digits();
    if fraction > scale {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(
                    at,
                    "`{at}` is {d}, with {fraction} fraction digit{} (max {scale})",
                    plural(fraction)
                )
            })
            .with_numbers(u64::from(fraction), u64::from(scale))
        });
        return;
    }
    let Some(p) = precision else { return };
    let integer = d.integer_digits();
    let most = p.saturating_sub(scale);
    if integer > most {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(
                    at,
                    "`{at}` is {d}, with {integer} integer digit{} (max {most} in decimal({p}, {scale}))",
                    plural(integer)
                )
            })
            .with_numbers(u64::from(integer), u64::from(most))
        });
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Bounds for [`decimal_range`], each the text of a decimal (`"0"`, `"999999999999.99"`) and
/// whether it is excluded; `None` leaves that end open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecimalBounds<'a> {
    /// The least value, as text.
    pub min: Option<&'a str>,
    /// The least value is not allowed itself (`0<..`).
    pub min_excluded: bool,
    /// The greatest value, as text.
    pub max: Option<&'a str>,
    /// The greatest value is not allowed itself (`..<100`).
    pub max_excluded: bool,
}

/// The decimal lies within `bounds`, compared exactly (`999999999999.99001` is above
/// `999999999999.99`). `None` passes. A bound that is not a decimal's text is ignored (the
/// spec checker and the derive refuse one).
///
/// Messages: `` `amount` is 1000.001 (max 1000) ``, `` `rate` is 0 (must be above 0) ``,
/// `` `rate` is 100 (must be below 100) ``, `` `amount` is -1 (min 0) ``.
///
/// ```
/// use specmint_runtime::decimal::Decimal;
/// use specmint_runtime::rules::{self, DecimalBounds};
/// use specmint_runtime::{Path, Report};
///
/// let bounds = DecimalBounds { min: Some("0"), min_excluded: true, max: Some("999.99"), max_excluded: false };
/// let mut report = Report::new();
/// let d: Decimal = "999.99001".parse().unwrap();
/// rules::decimal_range(&d, bounds, &Path::ROOT.field("amount"), "out_of_range", &mut report);
/// let zero: Decimal = "-0".parse().unwrap();
/// rules::decimal_range(&zero, bounds, &Path::ROOT.field("amount"), "out_of_range", &mut report);
/// assert_eq!(
///     report.to_string(),
///     "out_of_range: `amount` is 999.99001 (max 999.99)\nout_of_range: `amount` is 0 (must be above 0)"
/// );
/// ```
#[inline]
pub fn decimal_range<V: DecimalField + ?Sized>(
    value: &V,
    bounds: DecimalBounds<'_>,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(d) = value.decimal() else { return };
    let bound = |t: Option<&str>| t.and_then(|t| Decimal::from_json_text(t).ok());
    let low = bound(bounds.min).and_then(|min| {
        let out = if bounds.min_excluded {
            d <= min
        } else {
            d < min
        };
        out.then_some((
            if bounds.min_excluded {
                "must be above"
            } else {
                "min"
            },
            min,
        ))
    });
    let crossed = low.or_else(|| {
        bound(bounds.max).and_then(|max| {
            let out = if bounds.max_excluded {
                d >= max
            } else {
                d > max
            };
            out.then_some((
                if bounds.max_excluded {
                    "must be below"
                } else {
                    "max"
                },
                max,
            ))
        })
    });
    let Some((word, limit)) = crossed else { return };
    report.push_with(|| {
        Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
            message!(at, "`{at}` is {d} ({word} {limit})")
        })
        .with_expected(limit.to_string())
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(t: &str) -> Decimal {
        t.parse().unwrap()
    }

    fn scale_of(v: &str, s: u32, p: Option<u32>) -> String {
        let mut report = Report::new();
        scale(
            &d(v),
            s,
            p,
            &Path::ROOT.field("n"),
            "bad_scale",
            &mut report,
        );
        report.to_string()
    }

    fn range_of(v: &str, b: DecimalBounds<'_>) -> String {
        let mut report = Report::new();
        decimal_range(&d(v), b, &Path::ROOT.field("n"), "out", &mut report);
        report.to_string()
    }

    #[test]
    fn the_scale_counts_fraction_digits_that_are_not_trailing_zeros() {
        for ok in ["12.34", "12.3", "12", "100.000", "1e-2", "-0", "12.340000"] {
            assert_eq!(scale_of(ok, 2, None), "", "{ok}");
        }
        assert_eq!(
            scale_of("999999999999.99001", 2, None),
            "bad_scale: `n` is 999999999999.99001, with 5 fraction digits (max 2)"
        );
        assert_eq!(
            scale_of("0.001", 2, None),
            "bad_scale: `n` is 0.001, with 3 fraction digits (max 2)"
        );
        assert_eq!(
            scale_of("1.5", 0, None),
            "bad_scale: `n` is 1.5, with 1 fraction digit (max 0)"
        );
        let mut report = Report::new();
        scale(&None::<Decimal>, 0, Some(1), &Path::ROOT, "c", &mut report);
        assert!(report.is_empty());
    }

    #[test]
    fn the_precision_bounds_the_integer_digits() {
        assert_eq!(scale_of("999.99", 2, Some(5)), "");
        assert_eq!(scale_of("-999.99", 2, Some(5)), "");
        assert_eq!(scale_of("0.5", 2, Some(2)), "");
        assert_eq!(
            scale_of("1000.5", 2, Some(5)),
            "bad_scale: `n` is 1000.5, with 4 integer digits (max 3 in decimal(5, 2))"
        );
        assert_eq!(
            scale_of("1", 2, Some(2)),
            "bad_scale: `n` is 1, with 1 integer digit (max 0 in decimal(2, 2))"
        );
        let mut report = Report::new();
        scale(&d("1000.5"), 2, Some(5), &Path::ROOT, "c", &mut report);
        let v = &report.as_slice()[0];
        assert_eq!((v.measured, v.limit), (Some(4), Some(3)));
    }

    #[test]
    fn bounds_are_exact_and_may_exclude_their_end() {
        let inclusive = DecimalBounds {
            min: Some("0"),
            min_excluded: false,
            max: Some("999999999999.99"),
            max_excluded: false,
        };
        assert_eq!(range_of("999999999999.99", inclusive), "");
        assert_eq!(range_of("999999999999.990", inclusive), "");
        assert_eq!(range_of("-0", inclusive), "");
        assert_eq!(
            range_of("999999999999.99001", inclusive),
            "out: `n` is 999999999999.99001 (max 999999999999.99)"
        );
        assert_eq!(range_of("-0.01", inclusive), "out: `n` is -0.01 (min 0)");
        let exclusive = DecimalBounds {
            min: Some("0"),
            min_excluded: true,
            max: Some("1e2"),
            max_excluded: true,
        };
        assert_eq!(range_of("0.01", exclusive), "");
        assert_eq!(range_of("99.99", exclusive), "");
        assert_eq!(
            range_of("0.00", exclusive),
            "out: `n` is 0.00 (must be above 0)"
        );
        assert_eq!(
            range_of("100.0", exclusive),
            "out: `n` is 100.0 (must be below 100)"
        );
        let open = DecimalBounds {
            min: None,
            min_excluded: false,
            max: Some("5"),
            max_excluded: false,
        };
        assert_eq!(range_of("-1e20", open), "");
        let mut report = Report::new();
        decimal_range(&None::<Decimal>, exclusive, &Path::ROOT, "c", &mut report);
        assert!(report.is_empty());
    }
}
