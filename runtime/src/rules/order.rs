//! `order`: one field of a struct comes before another (`a < b`, or `a <= b`).
//!
//! Integers and numbers compare as numbers; text compares as an RFC 3339 full date (day by
//! day) or date-time (as an instant: `2024-05-01T10:00:00Z` and
//! `2024-05-01T11:00:00+01:00` are equal). A side that is absent, or text that is neither a
//! valid date nor a valid date-time (its format rule reports it), or two sides of different
//! kinds (a date and a date-time) are not compared.

use core::cmp::Ordering;
use core::fmt;
use std::borrow::Cow;

use crate::path::Path;
use crate::report::{Report, Violation};

use super::format::{byte, digits, is_date, is_date_time};
use super::{shown, Named};

/// A value as [`order`] compares it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Ordered<'a> {
    /// An integer.
    Integer(i128),
    /// A number.
    Number(f64),
    /// A full date, `YYYY-MM-DD`.
    Date(&'a str),
    /// A date-time with its offset.
    DateTime(&'a str),
}

impl Ordered<'_> {
    /// The value read from text: a date, a date-time, or nothing.
    pub fn from_text(s: &str) -> Option<Ordered<'_>> {
        if is_date(s) {
            Some(Ordered::Date(s))
        } else if is_date_time(s) {
            Some(Ordered::DateTime(s))
        } else {
            None
        }
    }

    /// How `self` compares with `other`; `None` for values of different kinds.
    pub fn compare(&self, other: &Ordered<'_>) -> Option<Ordering> {
        match (*self, *other) {
            (Ordered::Integer(a), Ordered::Integer(b)) => Some(a.cmp(&b)),
            (Ordered::Number(a), Ordered::Number(b)) => a.partial_cmp(&b),
            // A whole number read into a number field may arrive as an integer.
            (Ordered::Integer(a), Ordered::Number(b)) => (a as f64).partial_cmp(&b),
            (Ordered::Number(a), Ordered::Integer(b)) => a.partial_cmp(&(b as f64)),
            // Valid dates are fixed-width digits: their text orders as the days do.
            (Ordered::Date(a), Ordered::Date(b)) => Some(a.cmp(b)),
            (Ordered::DateTime(a), Ordered::DateTime(b)) => Some(instant(a)?.cmp(&instant(b)?)),
            _ => None,
        }
    }

    fn is_time(&self) -> bool {
        matches!(self, Ordered::Date(_) | Ordered::DateTime(_))
    }
}

impl fmt::Display for Ordered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ordered::Integer(n) => n.fmt(f),
            Ordered::Number(n) => n.fmt(f),
            Ordered::Date(s) | Ordered::DateTime(s) => shown(s).fmt(f),
        }
    }
}

/// A valid RFC 3339 date-time as an instant: seconds since 1970-01-01T00:00:00Z, then the
/// fraction's digits without trailing zeros (which order as the fractions do).
fn instant(s: &str) -> Option<(i64, &str)> {
    let (year, r) = digits(s, 4)?;
    let (month, r) = digits(byte(r, b'-')?, 2)?;
    let (day, r) = digits(byte(r, b'-')?, 2)?;
    let (hour, r) = digits(&r[1..], 2)?;
    let (minute, r) = digits(byte(r, b':')?, 2)?;
    let (second, mut r) = digits(byte(r, b':')?, 2)?;
    let mut fraction = "";
    if let Some(f) = byte(r, b'.') {
        let n = f.bytes().take_while(u8::is_ascii_digit).count();
        fraction = f[..n].trim_end_matches('0');
        r = &f[n..];
    }
    let offset = match r.as_bytes().first()? {
        b'Z' | b'z' => 0,
        sign => {
            let (h, r) = digits(&r[1..], 2)?;
            let (m, _) = digits(byte(r, b':')?, 2)?;
            let minutes = i64::from(h * 60 + m);
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
    };
    let days = days_from_civil(i64::from(year), i64::from(month), i64::from(day));
    let local = days * 86_400 + i64::from(hour * 3600 + minute * 60 + second);
    Some((local - offset * 60, fraction))
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A field [`order`] compares: an integer, a number, or text holding a date or date-time,
/// each maybe absent.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a field `order` compares",
    label = "`order` compares integers, `f64`, or text holding a date or date-time (`String`, `&str`), or an `Option` of one"
)]
pub trait OrderField {
    /// The value, or `None` when there is nothing to compare.
    fn ordered(&self) -> Option<Ordered<'_>>;
}

macro_rules! integer_order {
    ($($t:ty),*) => {$(
        impl OrderField for $t {
            fn ordered(&self) -> Option<Ordered<'_>> {
                Some(Ordered::Integer(i128::from(*self)))
            }
        }
    )*};
}

integer_order!(u8, u16, u32, u64, i8, i16, i32, i64);

impl OrderField for f64 {
    fn ordered(&self) -> Option<Ordered<'_>> {
        Some(Ordered::Number(*self))
    }
}

macro_rules! text_order {
    ($($t:ty),*) => {$(
        impl OrderField for $t {
            fn ordered(&self) -> Option<Ordered<'_>> {
                Ordered::from_text(self)
            }
        }
    )*};
}

text_order!(str, String, Box<str>, Cow<'_, str>);

impl<T: OrderField + ?Sized> OrderField for &T {
    fn ordered(&self) -> Option<Ordered<'_>> {
        (**self).ordered()
    }
}

impl<T: OrderField> OrderField for Option<T> {
    fn ordered(&self) -> Option<Ordered<'_>> {
        self.as_ref().and_then(OrderField::ordered)
    }
}

/// `a` must come before `b` (`a < b` when `strict`, else `a <= b`), both fields of the
/// struct at `path`; the violation's path is `b`'s. Checked only when both are present and
/// comparable (see the module doc).
///
/// Messages: `` `not_after` `2024-01-01` must be later than `not_before` `2024-02-01` ``,
/// `` `max` `3` must not be less than `min` `5` ``.
///
/// ```
/// use specmint_runtime::rules::{self, Named};
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::default();
/// let (from, until) = ("2024-05-01T11:00:00+01:00", "2024-05-01T10:00:00Z");
/// rules::order(
///     Named { name: "from", value: from },
///     Named { name: "until", value: until },
///     true,
///     &Path::ROOT,
///     "empty_window",
///     &mut report,
/// );
/// assert_eq!(
///     report.as_slice()[0].message,
///     "`until` `2024-05-01T10:00:00Z` must be later than `from` `2024-05-01T11:00:00+01:00`"
/// );
/// ```
pub fn order<A, B>(
    a: Named<&A>,
    b: Named<&B>,
    strict: bool,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) where
    A: OrderField + ?Sized,
    B: OrderField + ?Sized,
{
    let (Some(va), Some(vb)) = (a.value.ordered(), b.value.ordered()) else {
        return;
    };
    let Some(ord) = va.compare(&vb) else { return };
    let wrong = match ord {
        Ordering::Less => false,
        Ordering::Equal => strict,
        Ordering::Greater => true,
    };
    if !wrong {
        return;
    }
    let relation = match (strict, va.is_time()) {
        (true, true) => "be later than",
        (true, false) => "be greater than",
        (false, true) => "not be earlier than",
        (false, false) => "not be less than",
    };
    let pa = path.field(a.name);
    let pb = path.field(b.name);
    report.push_with(|| {
        Violation::with_message(crate::report::Code::copy_of(code), &pb, |at| {
            message!(at, "`{at}` `{vb}` must {relation} `{pa}` `{va}`")
        })
        .with_other(pa.dotted())
        .with_expected(super::quoted(va))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(a: Ordered<'_>, b: Ordered<'_>) -> Option<Ordering> {
        a.compare(&b)
    }

    #[test]
    fn date_times_compare_as_instants_across_offsets() {
        let dt = Ordered::DateTime;
        let z = "2024-05-01T10:00:00Z";
        assert_eq!(
            check(dt(z), dt("2024-05-01T11:00:00+01:00")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            check(dt(z), dt("2024-05-01t10:00:00z")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            check(dt(z), dt("2024-05-01T10:30:00+01:00")),
            Some(Ordering::Greater)
        );
        assert_eq!(
            check(dt(z), dt("2024-05-01T05:00:00-05:00")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            check(dt("2024-05-01T10:00:00.5Z"), dt("2024-05-01T10:00:00.45Z")),
            Some(Ordering::Greater)
        );
        assert_eq!(
            check(dt("2024-05-01T10:00:00.50Z"), dt("2024-05-01T10:00:00.5Z")),
            Some(Ordering::Equal)
        );
        assert_eq!(
            check(dt("2024-05-01T10:00:00Z"), dt("2024-05-01T10:00:00.001Z")),
            Some(Ordering::Less)
        );
        // Across a day, a month and a leap day.
        assert_eq!(
            check(dt("2024-03-01T00:30:00+01:00"), dt("2024-02-29T23:45:00Z")),
            Some(Ordering::Less)
        );
        assert_eq!(
            check(dt("1969-12-31T23:59:59Z"), dt("1970-01-01T00:00:00Z")),
            Some(Ordering::Less)
        );
    }

    #[test]
    fn kinds_that_differ_are_not_compared() {
        assert_eq!(
            check(
                Ordered::Date("2024-05-01"),
                Ordered::DateTime("2024-05-01T00:00:00Z")
            ),
            None
        );
        assert_eq!(Ordered::from_text("2024-02-30"), None);
        assert_eq!(
            Ordered::from_text("2024-02-29"),
            Some(Ordered::Date("2024-02-29"))
        );
    }
}
