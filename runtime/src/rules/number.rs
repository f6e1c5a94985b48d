//! Rules on one integer value.

use crate::path::Path;
use crate::report::{Report, Violation};

use super::IntegerField;

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
    code: &'static str,
    report: &mut Report,
) {
    range_integer(value.integer(), bounds, path, code, report);
}

fn range_integer(
    value: Option<i128>,
    bounds: Bounds,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    let Some(n) = value else { return };
    let crossed = match bounds {
        Bounds { min: Some(min), .. } if n < min => ("min", min),
        Bounds { max: Some(max), .. } if n > max => ("max", max),
        _ => return,
    };
    let (word, limit) = crossed;
    let v = Violation::with_message(code, path, |at| {
        message!(at, "`{at}` is {n} ({word} {limit})")
    });
    let v = match (u64::try_from(n), u64::try_from(limit)) {
        (Ok(n), Ok(limit)) => v.with_numbers(n, limit),
        _ => v,
    };
    report.push(v);
}

#[cfg(test)]
mod tests {
    use super::{range, Bounds};
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
}
