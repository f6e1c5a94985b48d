//! Text formats: `date-time`, `date`, `uri` and `email`, as JSON Schema's `format`.
//!
//! JSON Schema leaves formats to each validator, and its consumers read them differently:
//! Python's jsonschema (with its format checker, `rfc3339-validator` and
//! `rfc3986-validator` installed) and ajv with `ajv-formats` disagree on a space between
//! date and time, a `+0100` offset, a leap second, and nearly every email address (Python
//! only asks for an `@`). A value is accepted here only when both accept it, so a document
//! this check passes passes both; the corpus marks the probes they disagree on as x-only.
//! Where only one consumer refuses a value (year 0000, which Python's `date.fromisoformat`
//! and `rfc3339-validator` refuse and ajv-formats accepts; a URI with nothing between the
//! scheme's `:` and the query or fragment, which ajv-formats refuses and Python accepts),
//! this check refuses it too.
//!
//! - `date`: `YYYY-MM-DD` (ASCII digits), a real calendar day (leap years counted) of a
//!   year from 0001 to 9999.
//! - `date-time`: RFC 3339 `date` `T` `HH:MM:SS[.fraction]` then `Z` or `±HH:MM`; `t` and
//!   `z` in either case; hours 00-23, minutes and seconds 00-59 (no leap second).
//! - `uri`: an RFC 3986 URI (a scheme, then `//authority` and a path, or a non-empty path;
//!   query and fragment), ASCII only, every `%` followed by two hex digits; an IP literal in brackets
//!   is an IPv6 address (as `std::net::Ipv6Addr` reads one) or `vX.…`.
//! - `email`: a dot-atom local part (letters, digits and ``!#$%&'*+/=?^_`{|}~-``, dots only
//!   between them) `@` a host name of at least two labels (letters, digits, inner hyphens).

use crate::path::Path;
use crate::report::{Report, Violation};

use super::{shown, TextField};

/// A text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// RFC 3339 date and time with an offset.
    DateTime,
    /// RFC 3339 full date.
    Date,
    /// RFC 3986 URI.
    Uri,
    /// An email address (dot-atom local part, host name).
    Email,
}

impl Format {
    /// Every format.
    pub const ALL: &'static [Format] =
        &[Format::DateTime, Format::Date, Format::Uri, Format::Email];

    /// The name JSON Schema's `format` uses.
    pub const fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Uri => "uri",
            Format::Email => "email",
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|f| f.name() == name)
    }

    /// Whether `s` is in this format.
    pub fn is_valid(self, s: &str) -> bool {
        match self {
            Format::DateTime => is_date_time(s),
            Format::Date => is_date(s),
            Format::Uri => is_uri(s),
            Format::Email => is_email(s),
        }
    }
}

/// The text must be in `format`. `None` passes.
///
/// Message: `` `sent_at` `yesterday` is not a valid date-time ``.
///
/// ```
/// use specmint_runtime::rules::{self, Format};
/// use specmint_runtime::{Path, Report};
///
/// let mut report = Report::new();
/// let at = Path::ROOT.field("day");
/// rules::format("2024-02-29", Format::Date, &at, "bad_format", &mut report);
/// rules::format("2023-02-29", Format::Date, &at, "bad_format", &mut report);
/// assert_eq!(report.to_string(), "bad_format: `day` `2023-02-29` is not a valid date");
/// ```
pub fn format<V: TextField + ?Sized>(
    value: &V,
    format: Format,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    if !format.is_valid(s) {
        let name = format.name();
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` `{}` is not a valid {name}", shown(s))
            })
            .with_expected(name)
        });
    }
}

/// `n` ASCII digits at the start of `s`, as a number, and the rest.
pub(super) fn digits(s: &str, n: usize) -> Option<(u32, &str)> {
    let head = s.get(..n)?;
    if !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((head.parse().ok()?, &s[n..]))
}

/// `s` starts with `c`: the rest.
pub(super) fn byte(s: &str, c: u8) -> Option<&str> {
    (s.as_bytes().first() == Some(&c)).then(|| &s[1..])
}

/// `YYYY-MM-DD` at the start of `s`, a real day of a year from 0001 on: the rest.
fn full_date(s: &str) -> Option<&str> {
    let (year, s) = digits(s, 4)?;
    // Year 0000: Python's `date.fromisoformat` (jsonschema's `date`) and
    // `rfc3339-validator` (its `date-time`) refuse it; ajv-formats accepts it.
    if year == 0 {
        return None;
    }
    let (month, s) = digits(byte(s, b'-')?, 2)?;
    let (day, s) = digits(byte(s, b'-')?, 2)?;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=days).contains(&day).then_some(s)
}

pub(super) fn is_date(s: &str) -> bool {
    full_date(s).is_some_and(str::is_empty)
}

/// `HH:MM` (hours 00-23, minutes 00-59) at the start of `s`: the rest.
fn hours_minutes(s: &str) -> Option<&str> {
    let (h, s) = digits(s, 2)?;
    let (m, s) = digits(byte(s, b':')?, 2)?;
    (h < 24 && m < 60).then_some(s)
}

pub(super) fn is_date_time(s: &str) -> bool {
    let check = || -> Option<()> {
        let s = full_date(s)?;
        let s = byte(s, b'T').or_else(|| byte(s, b't'))?;
        let s = hours_minutes(s)?;
        let (sec, mut s) = digits(byte(s, b':')?, 2)?;
        if sec >= 60 {
            return None;
        }
        if let Some(frac) = byte(s, b'.') {
            let n = frac.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 {
                return None;
            }
            s = &frac[n..];
        }
        if s == "Z" || s == "z" {
            return Some(());
        }
        let offset = byte(s, b'+').or_else(|| byte(s, b'-'))?;
        hours_minutes(offset)?.is_empty().then_some(())
    };
    check().is_some()
}

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether every char of `s` is unreserved, a sub-delim, one of `extra`, or a `%` and two
/// hex digits.
fn uri_chars(s: &str, extra: &[u8]) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if i + 2 >= b.len() || !b[i + 1].is_ascii_hexdigit() || !b[i + 2].is_ascii_hexdigit() {
                return false;
            }
            i += 3;
            continue;
        }
        if !(is_unreserved(c) || is_sub_delim(c) || extra.contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// An RFC 3986 authority: `[userinfo@]host[:port]`.
fn is_authority(a: &str) -> bool {
    let (userinfo, hostport) = match a.rfind('@') {
        Some(i) => (Some(&a[..i]), &a[i + 1..]),
        None => (None, a),
    };
    if userinfo.is_some_and(|u| !uri_chars(u, b":")) {
        return false;
    }
    let (host, port) = if let Some(rest) = hostport.strip_prefix('[') {
        let Some(end) = rest.find(']') else {
            return false;
        };
        let literal = &rest[..end];
        let ok = literal.parse::<std::net::Ipv6Addr>().is_ok() || is_ip_future(literal);
        if !ok {
            return false;
        }
        ("", &rest[end + 1..])
    } else {
        match hostport.find(':') {
            Some(i) => (&hostport[..i], &hostport[i..]),
            None => (hostport, ""),
        }
    };
    let port_ok = port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
    port_ok && uri_chars(host, b"")
}

/// `vX.y`: RFC 3986's IPvFuture.
fn is_ip_future(s: &str) -> bool {
    let Some(rest) = s.strip_prefix(['v', 'V']) else {
        return false;
    };
    let Some((hex, tail)) = rest.split_once('.') else {
        return false;
    };
    !hex.is_empty()
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && !tail.is_empty()
        && tail
            .bytes()
            .all(|b| is_unreserved(b) || is_sub_delim(b) || b == b':')
}

fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut sb = scheme.bytes();
    let scheme_ok = sb.next().is_some_and(|b| b.is_ascii_alphabetic())
        && sb.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !scheme_ok {
        return false;
    }
    let (rest, fragment) = match rest.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (rest, None),
    };
    let (hier, query) = match rest.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (rest, None),
    };
    // Query and fragment: pchar, `/` and `?`.
    let tail_ok = [query, fragment]
        .into_iter()
        .flatten()
        .all(|t| uri_chars(t, b":@/?"));
    let hier_ok = match hier.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            is_authority(&after[..end]) && uri_chars(&after[end..], b":@/")
        }
        // An empty path (`a:`, `a:?q`, `a:#f`): RFC 3986 and Python accept it, ajv-formats
        // refuses it.
        None => !hier.is_empty() && uri_chars(hier, b":@/"),
    };
    tail_ok && hier_ok
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let atext = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+/=?^_`{|}~-".contains(&b);
    let local_ok = local
        .split('.')
        .all(|atom| !atom.is_empty() && atom.bytes().all(atext));
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        let b = l.as_bytes();
        !b.is_empty()
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
    };
    local_ok && labels.len() >= 2 && labels.iter().all(label_ok)
}

#[cfg(test)]
mod tests {
    use super::Format;

    fn check(f: Format, cases: &[(&str, bool)]) {
        for (s, ok) in cases {
            assert_eq!(f.is_valid(s), *ok, "{} {s:?}", f.name());
        }
    }

    #[test]
    fn dates_are_real_calendar_days() {
        check(
            Format::Date,
            &[
                ("2024-02-29", true),
                ("2023-02-29", false),
                ("2000-02-29", true),
                ("1900-02-29", false),
                ("2024-04-31", false),
                ("2024-13-01", false),
                ("2024-00-10", false),
                ("2024-1-01", false),
                ("20240131", false),
                ("\u{662}024-01-31", false),
                ("2024-01-31 ", false),
                // Issue 46: year 0000 is refused by Python (ajv-formats accepts it).
                ("0000-01-01", false),
                ("0000-02-29", false),
                ("0000-12-31", false),
                ("0001-01-01", true),
                ("9999-12-31", true),
                ("2024-01-00", false),
                ("2024-01-31\n", false),
                ("+2024-01-31", false),
                ("12024-01-01", false),
            ],
        );
    }

    #[test]
    fn date_times_are_rfc_3339_with_an_offset() {
        check(
            Format::DateTime,
            &[
                ("2024-01-31T12:00:00Z", true),
                ("2024-01-31t12:00:00z", true),
                ("2024-01-31T12:00:00.125+01:00", true),
                ("2024-01-31T12:00:00-23:59", true),
                ("2024-01-31 12:00:00Z", false),
                ("2024-01-31T23:59:60Z", false),
                ("2024-01-31T24:00:00Z", false),
                ("2024-01-31T12:00:00", false),
                ("2024-01-31T12:00:00+0100", false),
                ("2024-01-31T12:00:00+01", false),
                ("2024-01-31T12:00:00.Z", false),
                ("2024-02-30T12:00:00Z", false),
                // Issue 46: what either consumer refuses.
                ("0000-01-01T00:00:00Z", false),
                ("0000-02-29T00:00:00Z", false),
                ("0001-01-01T00:00:00Z", true),
                ("2024-02-29T00:00:00Z", true),
                ("2024-01-31t12:00:00Z", true),
                ("2024-01-31T12:00:00z", true),
                ("2024-01-31T12:00:00.5z", true),
                ("2024-01-31T12:00:00.1234567890123Z", true),
                ("2024-01-31T12:00:00+00:00", true),
                ("2024-01-31T12:00:00-00:00", true),
                ("2024-01-31T12:00:00+24:00", false),
                ("2024-01-31T12:00:00+23:60", false),
                ("2024-12-31T23:59:60Z", false),
                ("2024-06-30T23:59:60Z", false),
                ("2024-01-31T22:59:60-01:00", false),
                ("2024-01-31T12:60:00Z", false),
                ("2024-01-31T12:00Z", false),
                ("2024-01-31T12:00:00,5Z", false),
                ("2024-01-31T1:00:00Z", false),
                ("2024-01-31T12:00:00Z\n", false),
                ("2024-01-31T12:00:00+01:00\n", false),
                ("2024-01-31T12:00:00 Z", false),
                ("2024-01-31_12:00:00Z", false),
                ("2024-01-31T12:00:00.\u{662}Z", false),
            ],
        );
    }

    #[test]
    fn uris_follow_rfc_3986() {
        check(
            Format::Uri,
            &[
                ("https://example.com/a?b=1#c", true),
                ("https://user:pw@example.com:8080/p", true),
                ("http://[::1]/", true),
                ("http://[v1.x]/", true),
                ("urn:isbn:0451450523", true),
                ("mailto:a@b", true),
                ("HTTP://X.IO", true),
                ("a:b", true),
                ("x", false),
                ("//example.com", false),
                ("1a:b", false),
                ("http://x.io/a b", false),
                ("http://x.io/%zz", false),
                ("http://x.io/%4", false),
                ("http://x.io/\u{e9}", false),
                ("http://[::g]/", false),
                ("http://x.io:80a/", false),
                // Issue 46: an empty path after the scheme, which ajv-formats refuses.
                ("http:", false),
                ("a:", false),
                ("a:?q", false),
                ("a:#f", false),
                ("http://", true),
                ("http://x.io:/", true),
                ("http://x.io/?a?b", true),
                ("http://x.io/#a#b", false),
                ("http://x.io\n", false),
                ("http://user@@x.io/", false),
            ],
        );
    }

    #[test]
    fn emails_are_a_dot_atom_at_a_host_name() {
        check(
            Format::Email,
            &[
                ("dev.team+ops@example.com", true),
                ("x@sub.example.co", true),
                ("a@b", false),
                ("a b@c.com", false),
                ("@example.com", false),
                ("a..b@example.com", false),
                ("x@-example.com", false),
                ("x@exa_mple.com", false),
                ("no", false),
                ("a@b.c", true),
                ("a@1.2.3.4", true),
                ("a@[1.2.3.4]", false),
                ("\"a b\"@c.com", false),
                (".a@b.com", false),
                ("a.@b.com", false),
                ("a@b.com.", false),
                ("a@b..c", false),
                ("x@\u{e9}.com", false),
                ("a@b.com\n", false),
            ],
        );
    }
}
