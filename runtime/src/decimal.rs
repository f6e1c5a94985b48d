//! [`Decimal`]: an exact decimal number read from the text of a JSON number, never through
//! `f64` (the spec format's `decimal(S)` and `decimal(P, S)`).
//!
//! serde_json turns every non-integer into an `f64` before a `Deserialize` impl sees it, so
//! `999999999999.99001` and `999999999999.99` would be one value. [`Decimal`] reads the
//! number's token instead (serde_json's `RawValue`, which changes no other number, unlike
//! `arbitrary_precision`), and holds it as a [`rust_decimal::Decimal`].
//!
//! - The value is the number the text states: `1e-2` is `0.01`, `-0` is `0`, `100.000` is
//!   `100`. It keeps the fraction digits it was written with (`12.50` is written back as
//!   `12.50`, `1e-2` as `0.01`, `1.5e3` as `1500`, `-0.0` as `0.0`): see [`Display`](fmt::Display).
//! - At most [`MAX_DIGITS`] (28) digits, counted from the first significant digit to the last
//!   fraction digit that is not zero, and at most 28 fraction digits once trailing zeros are
//!   dropped: every such value is exact in a `rust_decimal`. A number needing more
//!   (`12345678901234567890123456789`, `1e30`, 29 fraction digits) is not a decimal the
//!   document can carry: a shape error, as `1e400` is for `number`.
//! - A JSON string (`"12.50"`) is not a decimal: `invalid type: string "12.50", expected a
//!   decimal number`.
//!
//! ```
//! use specmint_runtime::decimal::Decimal;
//!
//! let d: Decimal = serde_json::from_str("12.50").unwrap();
//! assert_eq!(d.to_string(), "12.50");
//! assert_eq!(d.fraction_digits(), 1); // the trailing zero does not count
//! assert_eq!(serde_json::to_string(&d).unwrap(), "12.50");
//! let tiny: Decimal = serde_json::from_str("1e-2").unwrap();
//! assert_eq!(tiny.to_string(), "0.01");
//! let err = serde_json::from_str::<Decimal>("\"1\"").unwrap_err().to_string();
//! assert_eq!(err, "invalid type: string \"1\", expected a decimal number");
//! ```

use std::cmp::Ordering;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Unexpected};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

/// The most digits (and the most fraction digits) a [`Decimal`] holds.
pub const MAX_DIGITS: u32 = 28;

/// What a decimal is called where serde says what it expected.
const EXPECTED: &str = "a decimal number";

/// An exact decimal number, compared by value (`12.50 == 12.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Decimal(rust_decimal::Decimal);

/// Why a number's text is not a [`Decimal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalError {
    /// Not a JSON number's text.
    Syntax,
    /// More than [`MAX_DIGITS`] digits or fraction digits.
    TooManyDigits,
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecimalError::Syntax => f.write_str("not a JSON number"),
            DecimalError::TooManyDigits => write!(
                f,
                "a decimal of more than {MAX_DIGITS} digits or {MAX_DIGITS} fraction digits"
            ),
        }
    }
}

impl std::error::Error for DecimalError {}

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal(rust_decimal::Decimal::ZERO);

    /// Reads the text of a JSON number (`-12.50`, `1e-2`, `0`), exactly.
    ///
    /// # Errors
    ///
    /// [`DecimalError::Syntax`] when `text` is not a JSON number (`+1`, `.5`, `01`, `1.`),
    /// [`DecimalError::TooManyDigits`] when the value needs more than [`MAX_DIGITS`] digits.
    pub fn from_json_text(text: &str) -> Result<Decimal, DecimalError> {
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (int, frac) = match mantissa.split_once('.') {
            Some((int, frac)) => (int, Some(frac)),
            None => (mantissa, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || (int.len() > 1 && int.starts_with('0')) {
            return Err(DecimalError::Syntax);
        }
        let frac = frac.unwrap_or("");
        if mantissa.contains('.') && !digits(frac) {
            return Err(DecimalError::Syntax);
        }
        let exp: i64 = match exponent {
            None => 0,
            Some(e) => {
                let unsigned = e.strip_prefix(['+', '-']).unwrap_or(e);
                if !digits(unsigned) {
                    return Err(DecimalError::Syntax);
                }
                // Any exponent past this makes a value no decimal holds (or zero).
                let magnitude: i64 = if unsigned.len() > 6 {
                    1_000_000
                } else {
                    unsigned.parse().map_err(|_| DecimalError::Syntax)?
                };
                if e.starts_with('-') {
                    -magnitude
                } else {
                    magnitude
                }
            }
        };
        // The value is `all × 10^(exp − frac.len())`, `all` the digits without the point.
        let all: String = int.bytes().chain(frac.bytes()).map(char::from).collect();
        let significant = all.trim_start_matches('0');
        if significant.is_empty() {
            // Zero, with the fraction digits it was written with (at most 28): `-0.00` is `0.00`.
            let scale = (frac.len() as i64 - exp).clamp(0, i64::from(MAX_DIGITS));
            return Ok(Decimal(rust_decimal::Decimal::new(0, scale as u32)));
        }
        let mut scale = frac.len() as i64 - exp;
        let mut kept = significant;
        // Trailing zeros of the fraction go first when the value needs the room.
        while (scale > i64::from(MAX_DIGITS) || kept.len() > MAX_DIGITS as usize)
            && scale > 0
            && kept.ends_with('0')
        {
            kept = &kept[..kept.len() - 1];
            scale -= 1;
        }
        let zeros = if scale < 0 { (-scale) as usize } else { 0 };
        if scale > i64::from(MAX_DIGITS) || kept.len() + zeros > MAX_DIGITS as usize {
            return Err(DecimalError::TooManyDigits);
        }
        let mut m: i128 = 0;
        for b in kept.bytes().chain(std::iter::repeat_n(b'0', zeros)) {
            m = m * 10 + i128::from(b - b'0');
        }
        if negative {
            m = -m;
        }
        let scale = scale.max(0) as u32;
        rust_decimal::Decimal::try_from_i128_with_scale(m, scale)
            .map(Decimal)
            .map_err(|_| DecimalError::TooManyDigits)
    }

    /// The value as a [`rust_decimal::Decimal`] (its scale the fraction digits as written).
    pub fn to_rust_decimal(self) -> rust_decimal::Decimal {
        self.0
    }

    /// The fraction digits the value needs: trailing zeros do not count (`12.50` needs 1,
    /// `100.000` none).
    pub fn fraction_digits(&self) -> u32 {
        self.0.normalize().scale()
    }

    /// The digits before the point, leading zeros aside (`0.5` has none, `-120.5` three).
    pub fn integer_digits(&self) -> u32 {
        let int = self.0.trunc().abs().normalize();
        if int.is_zero() {
            0
        } else {
            int.to_string().len() as u32
        }
    }

    /// Compares with another value (by value: `12.50` equals `12.5`).
    pub fn cmp_value(&self, other: &Decimal) -> Ordering {
        self.0.cmp(&other.0)
    }
}

impl From<rust_decimal::Decimal> for Decimal {
    fn from(d: rust_decimal::Decimal) -> Self {
        Decimal(d)
    }
}

impl std::str::FromStr for Decimal {
    type Err = DecimalError;

    /// The text of a JSON number, as [`Decimal::from_json_text`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decimal::from_json_text(s)
    }
}

/// The value in plain notation with the fraction digits it was read with (`12.50`, `0.01`,
/// `1500`), never an exponent and never `-0`.
impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = self.0;
        if d.is_zero() {
            d.set_sign_positive(true);
        }
        fmt::Display::fmt(&d, f)
    }
}

/// A JSON number, its text [`Display`](fmt::Display)'s (through serde_json, the number's
/// text as is; another serializer gets serde_json's raw-value form).
impl Serialize for Decimal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw = RawValue::from_string(self.to_string()).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Decimal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        let text = raw.get();
        let unexpected = |what: Unexpected<'_>| de::Error::invalid_type(what, &EXPECTED);
        match text.as_bytes().first() {
            Some(b'-' | b'0'..=b'9') => {}
            Some(b'"') => {
                let s: String = serde_json::from_str(text).map_err(de::Error::custom)?;
                return Err(unexpected(Unexpected::Str(&s)));
            }
            Some(b't') => return Err(unexpected(Unexpected::Bool(true))),
            Some(b'f') => return Err(unexpected(Unexpected::Bool(false))),
            Some(b'n') => return Err(unexpected(Unexpected::Unit)),
            Some(b'[') => return Err(unexpected(Unexpected::Seq)),
            _ => return Err(unexpected(Unexpected::Map)),
        }
        Decimal::from_json_text(text).map_err(|err| match err {
            DecimalError::Syntax => de::Error::invalid_value(Unexpected::Other(text), &EXPECTED),
            DecimalError::TooManyDigits => de::Error::invalid_value(
                Unexpected::Other(text),
                &"a decimal of at most 28 digits and 28 fraction digits",
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<String, DecimalError> {
        Decimal::from_json_text(text).map(|d| d.to_string())
    }

    #[test]
    fn numbers_read_exactly_as_written() {
        for (text, shown) in [
            ("12.50", "12.50"),
            ("0", "0"),
            ("-0", "0"),
            ("-0.00", "0.00"),
            ("1e-2", "0.01"),
            ("1E+3", "1000"),
            ("1.5e3", "1500"),
            ("100.000", "100.000"),
            ("999999999999.99001", "999999999999.99001"),
            ("-7.25", "-7.25"),
            (
                "1234567890123456789012345678",
                "1234567890123456789012345678",
            ),
            (
                "0.0000000000000000000000000001",
                "0.0000000000000000000000000001",
            ),
            // Trailing zeros beyond 28 digits are dropped; the value is kept.
            (
                "1.00000000000000000000000000000000",
                "1.000000000000000000000000000",
            ),
            ("0e-999999999", "0.0000000000000000000000000000"),
        ] {
            assert_eq!(read(text).as_deref(), Ok(shown), "{text}");
        }
    }

    #[test]
    fn what_a_decimal_cannot_hold_is_refused() {
        for text in [
            "12345678901234567890123456789",
            "1e30",
            "0.00000000000000000000000000001",
            "1.0000000000000000000000000001",
            "1e9999999999",
        ] {
            assert_eq!(read(text), Err(DecimalError::TooManyDigits), "{text}");
        }
        for text in [
            "", "-", "+1", ".5", "1.", "01", "1e", "1e+", "1x", "--1", "0x10",
        ] {
            assert_eq!(read(text), Err(DecimalError::Syntax), "{text}");
        }
    }

    #[test]
    fn digits_count_what_the_value_needs() {
        let d = |t: &str| Decimal::from_json_text(t).unwrap();
        assert_eq!(d("12.50").fraction_digits(), 1);
        assert_eq!(d("100.000").fraction_digits(), 0);
        assert_eq!(d("999999999999.99001").fraction_digits(), 5);
        assert_eq!(d("1e-2").fraction_digits(), 2);
        assert_eq!(d("-120.5").integer_digits(), 3);
        assert_eq!(d("0.5").integer_digits(), 0);
        assert_eq!(d("1e3").integer_digits(), 4);
        assert_eq!(d("12.50"), d("12.5"));
        assert!(d("999999999999.99001") > d("999999999999.99"));
        assert_eq!(d("-0"), d("0"));
    }

    #[test]
    fn json_reads_and_writes_the_text() {
        let v: Vec<Decimal> = serde_json::from_str("[12.50, 1e-2, -0, 100.000]").unwrap();
        assert_eq!(serde_json::to_string(&v).unwrap(), "[12.50,0.01,0,100.000]");
        for (text, err) in [
            ("\"1\"", "invalid type: string \"1\", expected a decimal number"),
            ("true", "invalid type: boolean `true`, expected a decimal number"),
            ("null", "invalid type: null, expected a decimal number"),
            ("[1]", "invalid type: sequence, expected a decimal number"),
            ("{}", "invalid type: map, expected a decimal number"),
            (
                "1e30",
                "invalid value: 1e30, expected a decimal of at most 28 digits and 28 fraction digits",
            ),
        ] {
            let got = serde_json::from_str::<Decimal>(text).unwrap_err().to_string();
            assert_eq!(got, err, "{text}");
        }
    }
}
