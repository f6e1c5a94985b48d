//! Mutation family: formats (`date-time`, `date`, `uri`, `email`). Each format's probes are
//! judged by the runtime's own check; where JSON Schema's consumers disagree with each other
//! (Python jsonschema's format checker and ajv-formats), the probe is x-only and says why.

use serde_json::json;

use super::*;
use crate::model::*;

/// A valid value of `format`, variant `i` (distinct for distinct `i`).
pub(super) fn sample(format: Format, i: usize) -> String {
    let day = 1 + i % 28;
    match format {
        Format::DateTime => format!("2024-01-{day:02}T12:00:00Z"),
        Format::Date => format!("2024-01-{day:02}"),
        Format::Uri => format!("https://example.com/{i}"),
        Format::Email => format!("user{i}@example.com"),
        _ => unreachable!("a format the corpus has no sample of"),
    }
}

/// The probes of `format`: (label, value, why the consumers disagree on it).
pub(super) fn probes(format: Format) -> Vec<(&'static str, &'static str, Option<&'static str>)> {
    const AJV_DT: &str = "ajv-formats accepts it, Python's RFC 3339 check refuses it";
    const PY_EMAIL: &str = "Python's format checker only asks for an `@`; ajv-formats refuses it";
    match format {
        Format::DateTime => vec![
            ("valid", "2024-01-31T12:00:00Z", None),
            ("lowercase", "2024-01-31t12:00:00z", None),
            ("fraction_offset", "2024-01-31T12:00:00.125+01:00", None),
            ("feb_30", "2024-02-30T12:00:00Z", None),
            ("hour_24", "2024-01-31T24:00:00Z", None),
            ("no_offset", "2024-01-31T12:00:00", None),
            ("date_only", "2024-01-31", None),
            ("arabic_indic_digit", "2024-01-31T1\u{662}:00:00Z", None),
            ("space", "2024-01-31 12:00:00Z", Some(AJV_DT)),
            ("leap_second", "2024-12-31T23:59:60Z", Some(AJV_DT)),
            (
                "offset_without_colon",
                "2024-01-31T12:00:00+0100",
                Some(AJV_DT),
            ),
        ],
        Format::Date => vec![
            ("valid", "2024-02-29", None),
            ("not_leap", "2023-02-29", None),
            ("month_13", "2024-13-01", None),
            ("one_digit_month", "2024-1-01", None),
            ("basic", "20240131", None),
            ("date_time", "2024-01-31T12:00:00Z", None),
            ("arabic_indic_digit", "2024-01-3\u{661}", None),
        ],
        Format::Uri => vec![
            ("valid", "https://example.com/a?b=1#c", None),
            ("urn", "urn:isbn:0451450523", None),
            ("ipv6", "http://[::1]/", None),
            ("port", "https://example.com:8080/p", None),
            ("relative", "//example.com/a", None),
            ("no_scheme", "example.com", None),
            ("space", "http://example.com/a b", None),
            ("bad_escape", "http://example.com/%zz", None),
            ("non_ascii", "http://example.com/\u{e9}", None),
        ],
        Format::Email => vec![
            ("valid", "dev.team+ops@example.com", None),
            ("no_at", "example.com", None),
            ("single_label", "a@b", Some(PY_EMAIL)),
            ("space", "a b@example.com", Some(PY_EMAIL)),
            ("no_local", "@example.com", Some(PY_EMAIL)),
            ("double_dot", "a..b@example.com", Some(PY_EMAIL)),
        ],
        _ => Vec::new(),
    }
}

impl<'a> Gen<'a> {
    /// A format field: its probes, each judged by the runtime's check (and its char cap or
    /// minimum), as the field's value or the first element of its list.
    pub(super) fn formats(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let (Some(format), Some(_)) = (f.ty.format, &f.rules.format) else {
            return;
        };
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        for (label, v, disagree) in probes(format) {
            let ok = format.is_valid(v);
            let value = if f.ty.array {
                self.first_of(f, json!(v))
            } else {
                json!(v)
            };
            let doc = self.with(base, hops, value);
            let mut case = Case::new(
                format!("format.{path}.{label}"),
                format!(
                    "`{at}` = `{v}`: {} {}",
                    if ok { "a" } else { "not a" },
                    format.name()
                ),
                "format",
                doc,
            )
            .errors(fit::text_violations(f, &at, v));
            if let Some(why) = disagree {
                case = case.because(why);
            }
            self.push(&loc.scope, case);
        }
    }
}
