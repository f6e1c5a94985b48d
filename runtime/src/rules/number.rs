//! Rules on one number: integer bounds and decimal bounds.

use crate::path::Path;
use crate::report::{Report, Violation};

use super::{IntegerField, NumberField};

/// Inclusive bounds for [`range`]; `None` leaves that end open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The least value allowed.
    pub min: Option<i128>,
    /// The greatest value allowed.
    pub max: Option<i128>,
}

/// The integer must lie within `bounds` (inclusive). `None` passes.
///
/// Message: `` `retries` is 12 (max 10) `` or `` `retries` is 0 (min 1) ``. The violation's
/// `measured` and `limit` are the value and the bound it crosses when both are
/// non-negative (they are `u64`), else absent.
///
/// ```
/// use specmint_runtime::rules::{self, Bounds};
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::new();
/// let bounds = Bounds { min: Some(1), max: Some(10) };
/// rules::range(&12u32, bounds, &Path::ROOT.field("retries"), "out_of_range", &mut report);
/// assert_eq!(report.to_string(), "out_of_range: `retries` is 12 (max 10)");
/// ```
#[inline]
pub fn range<V: IntegerField + ?Sized>(
    value: &V,
    bounds: Bounds,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    range_integer(value.integer(), bounds, path, code, report);
}

fn range_integer(
    value: Option<i128>,
    bounds: Bounds,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(n) = value else { return };
    let crossed = match bounds {
        Bounds { min: Some(min), .. } if n < min => ("min", min),
        Bounds { max: Some(max), .. } if n > max => ("max", max),
        _ => return,
    };
    let (word, limit) = crossed;
    report.push_with(|| {
        let v = Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
            message!(at, "`{at}` is {n} ({word} {limit})")
        })
        .with_expected(limit.to_string());
        match (u64::try_from(n), u64::try_from(limit)) {
            (Ok(n), Ok(limit)) => v.with_numbers(n, limit),
            _ => v,
        }
    });
}

/// Inclusive decimal bounds for [`number_range`]; `None` leaves that end open. The bounds
/// are finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NumberBounds {
    /// The least value allowed.
    pub min: Option<f64>,
    /// The greatest value allowed.
    pub max: Option<f64>,
}

/// The number must lie within `bounds` (inclusive, as IEEE 754 compares: `-0.0` is within
/// `0..`). `None` passes.
///
/// Message: `` `lat` is 91.5 (max 90) ``, each number written by [`number_text`]. The
/// violation carries no `measured`/`limit` (they are integers).
///
/// ```
/// use specmint_runtime::rules::{self, NumberBounds};
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::new();
/// let bounds = NumberBounds { min: Some(-90.0), max: Some(90.0) };
/// rules::number_range(&91.5f64, bounds, &Path::ROOT.field("lat"), "out_of_range", &mut report);
/// assert_eq!(report.to_string(), "out_of_range: `lat` is 91.5 (max 90)");
/// ```
#[inline]
pub fn number_range<V: NumberField + ?Sized>(
    value: &V,
    bounds: NumberBounds,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(n) = value.number() else { return };
    let (word, limit) = match bounds {
        NumberBounds { min: Some(min), .. } if n < min => ("min", min),
        NumberBounds { max: Some(max), .. } if n > max => ("max", max),
        _ => return,
    };
    let (n, limit) = (number_text(n), number_text(limit));
    report.push_with(|| {
        Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
            message!(at, "`{at}` is {n} ({word} {limit})")
        })
        .with_expected(limit.as_str())
    });
}

/// A number as a message writes it: integral values without a fraction (`90`, not `90.0`),
/// others in the shortest form that reads back exactly (`359.5`, `1e-7`, `1e300`).
pub fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        // Exact: an integral value below 2^53 (`-0` is written `0`).
        format!("{}", n as i64)
    } else {
        format!("{n:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::{number_range, number_text, range, Bounds, NumberBounds};
    use crate::{Path, Report};

    fn check<V: super::IntegerField + ?Sized>(
        v: &V,
        min: Option<i128>,
        max: Option<i128>,
    ) -> Report {
        let mut report = Report::new();
        range(
            v,
            Bounds { min, max },
            &Path::ROOT.field("n"),
            "out_of_range",
            &mut report,
        );
        report
    }

    #[test]
    fn bounds_are_inclusive_and_either_end_may_be_open() {
        assert!(check(&1u32, Some(1), Some(10)).is_empty());
        assert!(check(&10u32, Some(1), Some(10)).is_empty());
        assert_eq!(
            check(&0u32, Some(1), Some(10)).to_string(),
            "out_of_range: `n` is 0 (min 1)"
        );
        assert_eq!(
            check(&11u64, None, Some(10)).to_string(),
            "out_of_range: `n` is 11 (max 10)"
        );
        assert!(check(&i64::MIN, None, Some(0)).is_empty());
        assert_eq!(
            check(&-6i32, Some(-5), None).to_string(),
            "out_of_range: `n` is -6 (min -5)"
        );
        assert!(check(&None::<i32>, Some(1), None).is_empty());
        assert_eq!(
            check(&Some(3i64), Some(4), None).as_slice()[0].code,
            "out_of_range"
        );
    }

    #[test]
    fn numbers_are_recorded_when_they_fit_u64() {
        let r = check(&12u32, Some(1), Some(10));
        let v = &r.as_slice()[0];
        assert_eq!(
            (v.measured, v.limit, v.path.as_str()),
            (Some(12), Some(10), "n")
        );
        let r = check(&-6i32, Some(-5), None);
        assert_eq!(
            (r.as_slice()[0].measured, r.as_slice()[0].limit),
            (None, None)
        );
    }

    #[test]
    fn decimal_bounds_are_inclusive_and_ieee() {
        let check = |n: f64, min: Option<f64>, max: Option<f64>| {
            let mut report = Report::new();
            let bounds = NumberBounds { min, max };
            number_range(
                &n,
                bounds,
                &Path::ROOT.field("n"),
                "out_of_range",
                &mut report,
            );
            report.to_string()
        };
        assert_eq!(check(359.5, Some(0.0), Some(359.5)), "");
        assert_eq!(check(-0.0, Some(0.0), None), "");
        assert_eq!(
            check(359.50000000000006, Some(0.0), Some(359.5)),
            "out_of_range: `n` is 359.50000000000006 (max 359.5)"
        );
        assert_eq!(
            check(-90.5, Some(-90.0), Some(90.0)),
            "out_of_range: `n` is -90.5 (min -90)"
        );
        assert_eq!(
            check(1e300, None, Some(1e3)),
            "out_of_range: `n` is 1e300 (max 1000)"
        );
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(1e-7), "1e-7");
        assert!(check_none());
    }

    fn check_none() -> bool {
        let mut report = Report::new();
        let bounds = NumberBounds {
            min: Some(1.0),
            max: None,
        };
        number_range(&None::<f64>, bounds, &Path::ROOT, "c", &mut report);
        report.is_empty()
    }
}
