//! Mutation family: JSON types. The wrong JSON type, null where not nullable, and integer
//! ranges.

use serde_json::{json, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    pub(super) fn wrong_type(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let parse = self.spec.errors.parse.as_str();
        let f = hops.last().expect("non-empty").field;
        if f.ty.base == Base::Any && !f.ty.array {
            return; // every JSON value is one
        }
        let wrong = if f.ty.array {
            json!({})
        } else {
            match &f.ty.base {
                Base::String | Base::Enum(_) => json!(7),
                Base::Bool => json!("false"),
                Base::U32
                | Base::U64
                | Base::I32
                | Base::I64
                | Base::Number
                | Base::Decimal { .. } => json!("1"),
                Base::Object(_) => json!([]),
                Base::Union(_) => json!(true),
                Base::Selected(_) => json!([]),
                Base::Any => unreachable!("returned above"),
            }
        };
        let doc = self.with(base, hops, wrong.clone());
        self.push(
            &loc.scope,
            Case::new(
                format!("type.{path}"),
                format!("`{path}` = {wrong}: the wrong JSON type"),
                "type",
                doc,
            )
            .errors(vec![(parse.to_owned(), path.to_owned())]),
        );
        if !f.ty.nullable {
            let doc = self.with(base, hops, Value::Null);
            let code = f.rules.required.clone().unwrap_or_else(|| parse.to_owned());
            self.push(
                &loc.scope,
                Case::new(
                    format!("type.{path}.null"),
                    format!("`{path}` = null: not nullable"),
                    "type",
                    doc,
                )
                .errors(vec![(code, path.to_owned())]),
            );
        }
        if f.ty.array && !matches!(f.ty.base, Base::Bool | Base::Any) {
            let doc = self.with(base, hops, self.first_of(f, json!(true)));
            self.push(
                &loc.scope,
                Case::new(
                    format!("type.{path}.element"),
                    format!("`{path}[0]` = true: the wrong element type"),
                    "type",
                    doc,
                )
                .errors(vec![(parse.to_owned(), format!("{path}[0]"))]),
            );
        }
    }

    /// Integer widths and ranges, at values exact in an IEEE double (so every JSON
    /// consumer reads them exactly; a value beyond 2^53 is judged by the Rust reader only):
    /// `uint32` and `int32` at their ends and one past, every unsigned type at -1, a stated
    /// range at its bounds and one past each (an element of a list alone in it), and a
    /// fraction.
    pub(super) fn integers(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Some((lo, hi)) = f.ty.base.integer_width() else {
            return;
        };
        // (id, rule, value); the verdict comes from the width and the range.
        let mut probes: Vec<(String, &str, i128)> = Vec::new();
        if !f.ty.array {
            if matches!(f.ty.base, Base::U32 | Base::I32) {
                probes.push((format!("integer.{path}.max"), "type", hi));
                probes.push((format!("integer.{path}.max+1"), "type", hi + 1));
            }
            if f.ty.base == Base::I32 {
                probes.push((format!("integer.{path}.min"), "type", lo));
                probes.push((format!("integer.{path}.min-1"), "type", lo - 1));
            }
            if lo == 0 {
                probes.push((format!("integer.{path}.neg"), "type", -1));
            }
        }
        if let Some(r) = &f.ty.range {
            for (label, bound, step) in [("min", r.min, -1), ("max", r.max, 1)] {
                let Some(b) = bound else { continue };
                probes.push((format!("range.{path}.{label}"), "range", b));
                if (lo..=hi).contains(&(b + step)) {
                    let sign = if step < 0 { '-' } else { '+' };
                    probes.push((format!("range.{path}.{label}{sign}1"), "range", b + step));
                }
            }
        }
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        for (id, rule, n) in probes {
            let code = if !(lo..=hi).contains(&n) {
                Some(self.spec.errors.parse.clone())
            } else if f.ty.range.is_some_and(|r| !r.contains(n)) {
                f.rules.range.clone()
            } else {
                None
            };
            let v = crate::emit::schema::integer_json(n);
            let v = if f.ty.array { self.first_of(f, v) } else { v };
            let doc = self.with(base, hops, v);
            let mut case = Case::new(id, format!("`{at}` = {n}"), rule, doc)
                .errors(code.map(|c| vec![(c, at.clone())]).unwrap_or_default());
            if n.unsigned_abs() > 1 << 53 {
                case = case.because("the value is beyond 2^53: a consumer reading JSON numbers as IEEE doubles (JavaScript) cannot hold it exactly");
            }
            self.push(&loc.scope, case);
        }
        if f.ty.array {
            return;
        }
        let parse = self.spec.errors.parse.as_str();
        let mut vals = vec![("fraction", json!(1.5))];
        vals.push(("whole_float", json!(7.0)));
        for (label, v) in vals {
            let doc = self.with(base, hops, v.clone());
            let mut case = Case::new(
                format!("integer.{path}.{label}"),
                format!("`{path}` = {v}"),
                "type",
                doc,
            )
            .errors(vec![(parse.to_owned(), path.to_owned())]);
            if label == "whole_float" {
                case = case.because("JSON Schema's `integer` accepts a number with a zero fraction (7.0); the Rust reader refuses any float");
            }
            self.push(&loc.scope, case);
        }
    }

    /// A `number` range: each bound (valid), the nearest double past it and one whole unit
    /// past it (out of range), and `-0.0` where a bound is 0 (within it, as IEEE 754 and every
    /// JSON consumer compare). An element of a list is alone in it.
    pub(super) fn numbers(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let (Some(r), Some(code)) = (&f.ty.number_range, &f.rules.range) else {
            return;
        };
        let probes: Vec<(String, f64)> = number_probes(r)
            .into_iter()
            .map(|(label, n)| (format!("range.{path}.{label}"), n))
            .collect();
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        for (id, n) in probes {
            let errors = if r.contains(n) {
                Vec::new()
            } else {
                vec![(code.clone(), at.clone())]
            };
            let v = number_value(n);
            let v = if f.ty.array { self.first_of(f, v) } else { v };
            let doc = self.with(base, hops, v);
            let shown = if n == 0.0 && n.is_sign_negative() {
                "-0.0".to_owned()
            } else {
                specmint_runtime::rules::number_text(n)
            };
            let case = Case::new(id, format!("`{at}` = {shown}"), "range", doc).errors(errors);
            self.push(&loc.scope, case);
        }
    }
}

/// A `number` range's probes: each bound, the nearest double past it, one past it, and
/// `-0.0` at a bound of 0; labelled `min`, `min-ulp`, `min-1`, `min.negative_zero`, ...
pub(super) fn number_probes(r: &NumberRange) -> Vec<(String, f64)> {
    let mut probes = Vec::new();
    for (label, bound) in [("min", r.min), ("max", r.max)] {
        let Some(b) = bound else { continue };
        let (past, unit, sign) = if label == "min" {
            (-next_up(-b), b - 1.0, '-')
        } else {
            (next_up(b), b + 1.0, '+')
        };
        probes.push((label.to_owned(), b));
        probes.push((format!("{label}{sign}ulp"), past));
        probes.push((format!("{label}{sign}1"), unit));
        if b == 0.0 {
            probes.push((format!("{label}.negative_zero"), -0.0));
        }
    }
    probes
}

/// A number as the corpus writes it: `-0.0` as written, others as [`number_json`]
/// (crate::emit::schema::number_json) writes them.
pub(super) fn number_value(n: f64) -> Value {
    if n == 0.0 && n.is_sign_negative() {
        json!(-0.0)
    } else {
        crate::emit::schema::number_json(n)
    }
}

/// The least double above the finite `x` (`f64::next_up`, stable only since Rust 1.86).
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

impl<'a> Gen<'a> {
    /// A decimal's scale, precision and exact bounds: a value at the scale (valid) and one
    /// digit past it, `-0.0` (zero), `100.0` on a scale of 0 (a trailing zero, which does not
    /// count), one integer digit past the precision, and each bound with one unit of the
    /// scale on either side of it. An element of a list is alone in it. Only values whose
    /// text a double keeps are probed (the corpus holds JSON values, which a reader takes
    /// as doubles); the exact readings past a double (`999999999999.99001`, `1e-2`,
    /// `100.000`, 28 digits) are the interpreter's and the derive's tests'.
    pub(super) fn decimals(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Base::Decimal { scale, precision } = f.ty.base else {
            return;
        };
        let unit = decimal_unit(scale);
        let tenth = decimal_unit(scale + 1);
        let start = decimal_sample(&f.ty, 1);
        let mut probes: Vec<(String, &str, String)> = Vec::new();
        let at_scale = decimal_add(start, unit)
            .filter(|d| decimal_breaks(&f.ty, *d) == (false, false))
            .or_else(|| decimal_sub(start, unit));
        if let Some(at) = at_scale.filter(|_| scale > 0) {
            probes.push((format!("scale.{path}.at"), "scale", at.to_string()));
            if scale < specmint_runtime::decimal::MAX_DIGITS {
                if let Some(past) = decimal_add(at, tenth) {
                    probes.push((format!("scale.{path}.past"), "scale", past.to_string()));
                }
            }
        }
        if scale == 0 {
            probes.push((
                format!("scale.{path}.trailing_zero"),
                "scale",
                format!("{start}.0"),
            ));
        }
        probes.push((
            format!("scale.{path}.negative_zero"),
            "scale",
            "-0.0".to_owned(),
        ));
        if let Some(p) = precision.filter(|p| p - scale < 27) {
            let text = format!("1{}", "0".repeat((p - scale) as usize));
            // The most the precision allows (`999.99` in `decimal(5, 2)`), then one past it.
            if let Some(most) = Decimal::from_json_text(&text)
                .ok()
                .and_then(|d| decimal_sub(d, unit))
            {
                probes.push((
                    format!("scale.{path}.integer_digits_at"),
                    "scale",
                    most.to_string(),
                ));
            }
            probes.push((format!("scale.{path}.integer_digits"), "scale", text));
        }
        if let Some(r) = &f.ty.decimal_range {
            for (label, bound) in [("min", r.min), ("max", r.max)] {
                let Some(b) = bound else { continue };
                probes.push((
                    format!("range.{path}.{label}"),
                    "range",
                    b.value.to_string(),
                ));
                if let Some(d) = decimal_sub(b.value, unit) {
                    probes.push((format!("range.{path}.{label}-unit"), "range", d.to_string()));
                }
                if let Some(d) = decimal_add(b.value, unit) {
                    probes.push((format!("range.{path}.{label}+unit"), "range", d.to_string()));
                }
            }
        }
        // The readings past a double, carried as the document's exact text.
        let mut exact: Vec<(String, &str, String)> = vec![
            (
                format!("scale.{path}.exponent"),
                "scale",
                format!("{start}e0"),
            ),
            (
                format!("scale.{path}.negative_zero_integer"),
                "scale",
                "-0".to_owned(),
            ),
        ];
        if scale > 0 {
            exact.push((
                format!("scale.{path}.exponent_fraction"),
                "scale",
                format!("1e-{scale}"),
            ));
        }
        let zeros = "0".repeat(scale as usize + 1);
        exact.push((
            format!("scale.{path}.trailing_zeros"),
            "scale",
            format!("{start}.{zeros}"),
        ));
        if scale < 16 {
            // 17 fraction digits: a double reads `1.00000000000000001` as 1.
            let digits = format!("{}1", "0".repeat(16));
            exact.push((
                format!("scale.{path}.past_a_double"),
                "scale",
                format!("{start}.{digits}"),
            ));
        }
        exact.push((
            format!("scale.{path}.digits_29"),
            "type",
            "1".repeat(specmint_runtime::decimal::MAX_DIGITS as usize + 1),
        ));
        if let Some(r) = &f.ty.decimal_range {
            for (label, bound) in [("min", r.min), ("max", r.max)] {
                let Some(b) = bound else { continue };
                // A digit past the scale beyond the bound: a double reads it as the bound.
                if scale + 4 <= specmint_runtime::decimal::MAX_DIGITS {
                    let tiny = decimal_unit(scale + 4);
                    let past = if label == "min" {
                        decimal_sub(b.value, tiny)
                    } else {
                        decimal_add(b.value, tiny)
                    };
                    if let Some(d) = past {
                        exact.push((
                            format!("range.{path}.{label}.past_a_double"),
                            "range",
                            d.to_string(),
                        ));
                    }
                }
            }
        }
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        for (id, rule, text) in exact {
            let parse = self.spec.errors.parse.clone();
            let (errors, read) = match Decimal::from_json_text(&text) {
                Ok(d) => (f.decimal_errors(d, &at), true),
                Err(_) => (vec![(parse, at.clone())], false),
            };
            // The document with a marker where the number goes, written as the corpus
            // writes documents, then the marker replaced by the number's text.
            const MARK: &str = "\u{1}specmint-decimal\u{1}";
            let v = if f.ty.array {
                self.first_of(f, json!(MARK))
            } else {
                json!(MARK)
            };
            let doc = self.with(base, hops, v);
            let written = specmint_runtime::json_text::compact(&doc);
            let mark = serde_json::to_string(MARK).expect("a string");
            if written.matches(&mark).count() != 1 {
                continue;
            }
            let exact_text = written.replacen(&mark, &text, 1);
            let Ok(document) = serde_json::from_str::<Value>(&exact_text) else {
                continue;
            };
            let mut case = Case::new(
                id,
                format!("`{at}` = {text} (the exact text)"),
                rule,
                document,
            )
            .errors(errors)
            .text(exact_text);
            if !case.errors.is_empty() || !read {
                case = case.because(
                    "the number's exact text decides: JSON Schema's consumers read it as a double",
                );
            }
            self.push(&loc.scope, case);
        }
        for (id, rule, text) in probes {
            // A value whose text a double does not keep cannot be carried in the corpus's
            // JSON values (`1.000` would be written `1.0`).
            let Ok(d) = Decimal::from_json_text(&text) else {
                continue;
            };
            // The same value without trailing zeros when the text as written is not kept.
            let kept = |t: &str| {
                let v: Value = serde_json::from_str(t).ok()?;
                // The text serde_json writes back (not `v == t`: that compares a JSON string).
                let written = v.to_string();
                (written == t).then_some(v)
            };
            let plain = Decimal::from(d.to_rust_decimal().normalize()).to_string();
            let Some((v, text)) = kept(&text)
                .map(|v| (v, text.clone()))
                .or_else(|| kept(&plain).map(|v| (v, plain)))
            else {
                continue;
            };
            let (scale_broken, range_broken) = decimal_breaks(&f.ty, d);
            let errors = f.decimal_errors(d, &at);
            let v = if f.ty.array { self.first_of(f, v) } else { v };
            let doc = self.with(base, hops, v);
            let mut case = Case::new(id, format!("`{at}` = {text}"), rule, doc).errors(errors);
            if scale_broken && !range_broken {
                // JSON Schema states bounds, not a scale (`x-decimal`).
                case = case.x_only();
            }
            self.push(&loc.scope, case);
        }
    }
}
