//! Reading one cell: the Type cell, a stated default, the Required cell. Free functions of
//! the cell's text (and the names they may refer to); the caller reports a [`Problem`].

use std::collections::BTreeMap;

use super::index::Kind;
use crate::diag::{Context, Pos};
use crate::loader::markdown::{Cell, CodeSpan};
use crate::model::*;
use crate::names::suggest;

/// A diagnostic on the Markdown, not yet reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Problem {
    pub pos: Pos,
    pub message: String,
    pub hint: String,
    /// The type named, when the problem is that no table has that name.
    pub unknown: Option<String>,
}

impl Problem {
    fn new(pos: Pos, message: impl Into<String>, hint: impl Into<String>) -> Self {
        Problem {
            pos,
            message: message.into(),
            hint: hint.into(),
            unknown: None,
        }
    }
}

/// Reports a problem; `None` for it, the value otherwise.
pub(super) fn report<T>(ctx: &mut Context, r: Result<T, Problem>) -> Option<T> {
    r.map_err(|p| ctx.md(p.pos, p.message, p.hint)).ok()
}

/// A parsed Required cell.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Req {
    /// `✔`, or `✔ `code`` with the code span.
    Yes(Option<CodeSpan>),
    /// `—`, or `— (default V)`.
    No(Option<String>),
    /// `if `field` is `value``, and the other forms of a condition ([`RawCondition`]).
    If(RawCondition),
}

/// A condition as a Required cell (or a sidecar `if`) writes it:
/// `[if|unless] [any|every] `path` is [not] `v1`[, `v2` …] [or `vn`]`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RawCondition {
    /// `unless`, or `is not`.
    pub negated: bool,
    /// `any` / `every` / neither.
    pub quantifier: Quantifier,
    /// The path read.
    pub path: CodeSpan,
    /// The values, in order.
    pub values: Vec<CodeSpan>,
}

/// Reads a condition: `text` is the cell's (or entry's) plain text, in which each code span
/// of `codes` appears as its bare text. `None` when it is not one.
pub(super) fn parse_condition(text: &str, codes: &[CodeSpan]) -> Option<RawCondition> {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let (unless, rest) = match (text.strip_prefix("if "), text.strip_prefix("unless ")) {
        (Some(rest), _) => (false, rest),
        (_, Some(rest)) => (true, rest),
        _ => return None,
    };
    let (path, values) = codes.split_first()?;
    if values.is_empty() {
        return None;
    }
    let (quantifier, rest) = match (rest.strip_prefix("any "), rest.strip_prefix("every ")) {
        (Some(r), _) => (Quantifier::Any, r),
        (_, Some(r)) => (Quantifier::Every, r),
        _ => (Quantifier::One, rest),
    };
    let rest = rest.strip_prefix(path.text.as_str())?;
    let (not, rest) = match (rest.strip_prefix(" is not "), rest.strip_prefix(" is ")) {
        (Some(r), _) => (true, r),
        (_, Some(r)) => (false, r),
        _ => return None,
    };
    if unless && not {
        return None;
    }
    let texts = values.iter().map(|v| v.text.clone());
    let listed = crate::model::list_with_or(texts.clone());
    // `a, b, or c` (a serial comma) reads the same.
    let serial = (values.len() > 2).then(|| {
        let all: Vec<String> = texts.collect();
        format!(
            "{}, or {}",
            all[..all.len() - 1].join(", "),
            all[all.len() - 1]
        )
    });
    if rest != listed && serial.as_deref() != Some(rest) {
        return None;
    }
    Some(RawCondition {
        negated: unless || not,
        quantifier,
        path: path.clone(),
        values: values.to_vec(),
    })
}

/// Reads a Required cell; `None` when it is none of the forms.
/// The words that open a Required cell saying "required".
const YES: [&str; 4] = ["✔", "✓", "yes", "Yes"];

/// The error codes a Required cell names, read or not: the code spans of a cell that opens
/// with `✔` (a coded requirement, ``✔ `code` ``). A broken row's codes count as produced,
/// so they are not also "produced by nothing" (a broken row is reported once).
pub(super) fn requirement_codes(cell: &Cell) -> &[CodeSpan] {
    let s = cell.plain.trim_start();
    if YES.iter().any(|p| s.starts_with(p)) {
        &cell.codes
    } else {
        &[]
    }
}

pub(super) fn parse_required(cell: &Cell) -> Option<Req> {
    let s = cell.plain.trim();
    match s {
        "✔" | "✓" | "yes" | "Yes" => return Some(Req::Yes(None)),
        "—" | "–" | "-" | "no" | "No" => return Some(Req::No(None)),
        _ => {}
    }
    if let Some(rest) = YES.iter().find_map(|p| s.strip_prefix(p)) {
        return match cell.codes.as_slice() {
            [code] if rest.trim() == code.text => Some(Req::Yes(Some(code.clone()))),
            _ => None,
        };
    }
    if s.starts_with("if ") || s.starts_with("unless ") {
        return parse_condition(s, &cell.codes).map(Req::If);
    }
    let rest = ["—", "–", "-", "no", "No"]
        .iter()
        .find_map(|p| s.strip_prefix(p))?
        .trim();
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?.trim();
    let v = inner.strip_prefix("default")?.trim();
    Some(Req::No(Some(v.to_owned())))
}

/// A plain type: nothing but its base.
fn plain(base: Base) -> TypeRef {
    TypeRef {
        base,
        array: false,
        nullable: false,
        non_blank: false,
        literal: None,
        pattern: None,
        relative_path: false,
        range: None,
        number_range: None,
        format: None,
        decimal_range: None,
    }
}

/// The base types a Type cell may name besides the spec's tables (the hint of an unknown
/// type lists them; `parse_type` matches each).
pub(crate) const BUILTIN_TYPES: &[&str] = &[
    "string",
    "bool",
    "uint32",
    "uint64",
    "int32",
    "int64",
    "number",
    "decimal",
    "any",
    "date-time",
    "date",
    "uri",
    "email",
];

/// The qualifiers a Type cell may start with, in any order: `non-blank `, `relative-path `.
#[derive(Debug, Clone, Copy, Default)]
struct Qualifiers {
    non_blank: bool,
    relative_path: bool,
}

impl Qualifiers {
    /// Whether the cell has any qualifier.
    fn any(self) -> bool {
        self.non_blank || self.relative_path
    }
}

/// Reads the qualifiers at the start of `s`; returns them and the rest of the cell.
fn split_qualifiers(mut s: &str) -> (&str, Qualifiers) {
    let mut q = Qualifiers::default();
    loop {
        if let Some(rest) = s.strip_prefix("non-blank ") {
            q.non_blank = true;
            s = rest.trim_start();
        } else if let Some(rest) = s.strip_prefix("relative-path ") {
            q.relative_path = true;
            s = rest.trim_start();
        } else {
            return (s, q);
        }
    }
}

/// A quoted literal `s` (the whole cell after its qualifiers): a string that must equal it.
fn parse_literal(s: &str, q: Qualifiers, pos: Pos) -> Result<TypeRef, Problem> {
    match serde_json::from_str::<String>(s) {
        Ok(lit) if !q.any() => Ok(TypeRef {
            literal: Some(lit),
            ..plain(Base::String)
        }),
        Ok(_) => Err(Problem::new(
            pos,
            format!("a literal type `{s}` takes no qualifier"),
            "remove `non-blank` / `relative-path`: the literal says the exact value",
        )),
        Err(_) => Err(Problem::new(
            pos,
            format!("cannot read the literal type `{s}`"),
            "write a JSON string literal such as `\"0.1\"` (the whole cell)",
        )),
    }
}

/// Reads a Type cell (`text`, its code spans `codes`, at `pos`); `kinds` are the spec's
/// tables, which a type may name.
pub(super) fn parse_type(
    text: &str,
    codes: &[CodeSpan],
    pos: Pos,
    kinds: &BTreeMap<String, Kind>,
) -> Result<TypeRef, Problem> {
    let (mut s, q) = split_qualifiers(text.trim());
    if s.starts_with('"') {
        return parse_literal(s, q, pos);
    }
    let (rest, pattern) = split_matching(s, codes, pos)?;
    s = rest;
    let mut bounds = None;
    if pattern.is_none() {
        let (rest, b) = split_range(s, pos)?;
        s = rest;
        bounds = b;
    }
    // `object by `field``.
    if let Some(rest) = s.strip_prefix("object by") {
        let by = rest.trim();
        let ok = codes.len() == 1 && codes[0].text == by && !by.is_empty();
        if !ok || q.any() {
            return Err(Problem::new(
                pos,
                format!("cannot read the type `{}`", text.trim()),
                "write `object by `field`` with the name of an enum field of this table in a code span",
            ));
        }
        return Ok(plain(Base::Selected(by.to_owned())));
    }
    let mut nullable = false;
    if let Some(rest) = s.strip_suffix('?') {
        nullable = true;
        s = rest.trim_end();
    }
    let mut array = false;
    if let Some(rest) = s.strip_suffix("[]") {
        array = true;
        s = rest.trim_end();
    }
    let format = Format::from_name(s);
    if format.is_some() && q.any() {
        return Err(Problem::new(
            pos,
            format!("a format type `{s}` takes no qualifier"),
            "remove `non-blank` / `relative-path`: the format says what the text is",
        ));
    }
    let base = if format.is_some() {
        Base::String
    } else if s == "decimal" || s.starts_with("decimal(") {
        parse_decimal(s, pos)?
    } else {
        parse_base(s, text, nullable, pos, kinds)?
    };
    check_qualifiers(q, &base, s, pos)?;
    let (mut range, mut number_range, mut decimal_range) = (None, None, None);
    match bounds {
        Some(b) if matches!(base, Base::Decimal { .. }) => {
            decimal_range = Some(read_decimal_range(b, &base, s, pos)?);
        }
        Some(b) => (range, number_range) = read_range(b, &base, s, pos)?,
        None => {}
    }
    Ok(TypeRef {
        base,
        array,
        nullable,
        non_blank: q.non_blank,
        literal: None,
        pattern,
        relative_path: q.relative_path,
        range,
        number_range,
        format,
        decimal_range,
    })
}

/// `decimal(S)` or `decimal(P, S)` (`s` the type as written, without `?` and `[]`).
fn parse_decimal(s: &str, pos: Pos) -> Result<Base, Problem> {
    const HINT: &str = "write `decimal(S)` (at most S fraction digits, `decimal(2)` for amounts) or `decimal(P, S)` (at most P digits in all, S of them after the point: `decimal(12, 2)`)";
    let args = s
        .strip_prefix("decimal(")
        .and_then(|rest| rest.strip_suffix(')'));
    let Some(args) = args else {
        let message = if s == "decimal" {
            "`decimal` needs a scale".to_owned()
        } else {
            format!("cannot read the decimal type `{s}`")
        };
        return Err(Problem::new(pos, message, HINT));
    };
    let numbers: Option<Vec<u32>> = args
        .split(',')
        .map(|n| {
            let n = n.trim();
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && n.len() <= 3)
                .then(|| n.parse().ok())
                .flatten()
        })
        .collect();
    let max = specmint_runtime::decimal::MAX_DIGITS;
    let (precision, scale) = match numbers.as_deref() {
        Some([scale]) => (None, *scale),
        Some([precision, scale]) => (Some(*precision), *scale),
        _ => {
            return Err(Problem::new(
                pos,
                format!("cannot read the decimal type `{s}`"),
                HINT,
            ))
        }
    };
    let too_big = |what: &str, n: u32| {
        Problem::new(
            pos,
            format!("the {what} {n} of `{s}` is more than {max}"),
            format!("a decimal holds at most {max} digits (and {max} fraction digits)"),
        )
    };
    if scale > max {
        return Err(too_big("scale", scale));
    }
    if let Some(p) = precision {
        if p > max {
            return Err(too_big("precision", p));
        }
        if p == 0 || scale > p {
            return Err(Problem::new(
                pos,
                format!("the precision {p} of `{s}` is less than its scale {scale}"),
                "the precision counts every digit, the scale those after the point: write the precision first, `decimal(12, 2)`",
            ));
        }
    }
    Ok(Base::Decimal { scale, precision })
}

/// The exact bounds of a range on a decimal `base` (`ty` as written): each a JSON number the
/// type can hold, the lower one first.
fn read_decimal_range(
    r: RangeText<'_>,
    base: &Base,
    ty: &str,
    pos: Pos,
) -> Result<DecimalRange, Problem> {
    let Base::Decimal { scale, precision } = *base else {
        unreachable!("called on a decimal")
    };
    if let Some(hi) = r.bare_max {
        let lo = r.min.unwrap_or("");
        return Err(Problem::new(
            pos,
            format!(
                "the range `{}` does not say whether it includes {hi}",
                r.word
            ),
            format!("write `{lo}..={hi}` to include {hi} or `{lo}..<{hi}` to exclude it"),
        ));
    }
    let bound = |t: Option<&str>, excluded: bool| -> Result<Option<DecimalBound>, Problem> {
        let Some(t) = t else { return Ok(None) };
        let value = Decimal::from_json_text(t).map_err(|_| {
            Problem::new(
                pos,
                format!("cannot read the bound `{t}` of `{}`", r.word),
                "write each bound as a JSON number: `0`, `999999999999.99`, `1e3`",
            )
        })?;
        if value.fraction_digits() > scale {
            return Err(Problem::new(
                pos,
                format!(
                    "the bound `{t}` has more fraction digits than the scale {scale} of `{ty}`"
                ),
                "write bounds the type can hold: a value with more fraction digits is refused by the scale already",
            ));
        }
        if let Some(p) = precision {
            // An excluded bound may be the first value past the type (`..<100` on
            // `decimal(4, 2)`, whose values stop at 99.99).
            let first_past = Decimal::from_json_text(&format!("1e{}", p - scale)).ok();
            let at_first_past = excluded
                && first_past
                    .is_some_and(|f| value == f || Some(value) == decimal_sub(Decimal::ZERO, f));
            if value.integer_digits() > p - scale && !at_first_past {
                return Err(Problem::new(
                    pos,
                    format!(
                        "the bound `{t}` is outside `{ty}` (at most {} integer digits)",
                        p - scale
                    ),
                    "choose bounds the type can hold, or a larger precision",
                ));
            }
        }
        Ok(Some(DecimalBound { value, excluded }))
    };
    let min = bound(r.min, r.min_excluded)?;
    let max = bound(r.max, r.max_excluded)?;
    if let (Some(lo), Some(hi)) = (min, max) {
        let empty = match lo.value.cmp(&hi.value) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Equal => lo.excluded || hi.excluded,
            std::cmp::Ordering::Less => false,
        };
        if empty {
            return Err(Problem::new(
                pos,
                format!("the range `{}` is empty", r.word),
                "write the lower bound first",
            ));
        }
    }
    Ok(DecimalRange { min, max })
}

/// The base type named `s` (the Type cell `text` without qualifiers, range, `?` and `[]`):
/// a built-in one or a table of the spec (`kinds`). A format name is read by the caller.
fn parse_base(
    s: &str,
    text: &str,
    nullable: bool,
    pos: Pos,
    kinds: &BTreeMap<String, Kind>,
) -> Result<Base, Problem> {
    Ok(match s {
        "string" => Base::String,
        "bool" => Base::Bool,
        "uint32" => Base::U32,
        "uint64" => Base::U64,
        "int32" => Base::I32,
        "int64" => Base::I64,
        "number" => Base::Number,
        "any" if nullable => {
            return Err(Problem::new(
                pos,
                format!(
                    "`any` already admits `null`; `?` in `{}` says nothing",
                    text.trim()
                ),
                "write `any` (or `any[]`)",
            ));
        }
        "any" => Base::Any,
        "object" => {
            return Err(Problem::new(
                pos,
                format!("`object` alone is not a type in `{}`", text.trim()),
                "name a field table, or write `object by `field`` for members chosen by an enum field",
            ));
        }
        other => match kinds.get(other) {
            Some(Kind::Object) => Base::Object(other.to_owned()),
            Some(Kind::Enum | Kind::States) => Base::Enum(other.to_owned()),
            Some(Kind::Union) => Base::Union(other.to_owned()),
            None => return Err(unknown_type(other, text, pos, kinds)),
        },
    })
}

/// The problem of a Type cell `text` naming `other`, neither built in nor a table of the spec.
fn unknown_type(other: &str, text: &str, pos: Pos, kinds: &BTreeMap<String, Kind>) -> Problem {
    let known: Vec<String> = kinds.keys().map(|k| format!("`{k}`")).collect();
    let hint = format!(
        "use {}, or a table of this spec: {}",
        BUILTIN_TYPES.join(", "),
        known.join(", ")
    );
    let candidates = BUILTIN_TYPES.iter().copied();
    Problem {
        unknown: Some(other.to_owned()),
        ..Problem::new(
            pos,
            format!("unknown type `{other}` in `{}`", text.trim()),
            suggest(
                other,
                candidates.chain(kinds.keys().map(String::as_str)),
                hint,
            ),
        )
    }
}

/// `non-blank` and `relative-path` qualify strings only (`s` names the base in the message).
fn check_qualifiers(q: Qualifiers, base: &Base, s: &str, pos: Pos) -> Result<(), Problem> {
    if q.non_blank && *base != Base::String {
        return Err(Problem::new(
            pos,
            format!("`non-blank` applies to strings only, not `{s}`"),
            "remove `non-blank`",
        ));
    }
    if q.relative_path && *base != Base::String {
        return Err(Problem::new(
            pos,
            format!("`relative-path` applies to strings only, not `{s}`"),
            "remove `relative-path`",
        ));
    }
    Ok(())
}

/// A range as written: the bounds' text (`None`: that end is open) and the word they came in.
#[derive(Clone, Copy)]
struct RangeText<'s> {
    min: Option<&'s str>,
    max: Option<&'s str>,
    word: &'s str,
    /// `0<..`: the lower bound is excluded (decimals only).
    min_excluded: bool,
    /// `..<100`: the upper bound is excluded (decimals only).
    max_excluded: bool,
    /// `0..100` on a decimal: an upper bound that says neither `=` nor `<` (refused by
    /// [`read_decimal_range`] with the two readings).
    bare_max: Option<&'s str>,
}

/// `BASE 1..=10`, `number 0..=359.5`: the cell's last word, when it holds `..`, is an
/// inclusive range (`A..=B`, `A..` or `..=B`). Returns the type text before it and the bounds
/// as written (read by [`read_range`] once the type is known), or `s` unchanged when the cell
/// has no range.
fn split_range(s: &str, pos: Pos) -> Result<(&str, Option<RangeText<'_>>), Problem> {
    let Some((head, word)) = s.rsplit_once(char::is_whitespace) else {
        return Ok((s, None));
    };
    let Some((lo, hi)) = word.split_once("..") else {
        return Ok((s, None));
    };
    if head.trim_start().starts_with("decimal") {
        return split_decimal_range(head, word, lo, hi, pos);
    }
    let bad = || {
        Problem::new(
            pos,
            format!("cannot read the range `{word}`"),
            "write inclusive bounds after the type: `uint32 1..=10`, `int64 -5..`, `int32 ..=100`, `number 0..=359.5`",
        )
    };
    let max = match hi.strip_prefix('=') {
        Some(hi) if !hi.is_empty() => Some(hi),
        Some(_) => return Err(bad()),
        None if hi.is_empty() => None,
        None => {
            // Both readings: Rust's (`0..100` stops at 99) and the one a spec often means
            // (`0..100` for a percent, 100 included).
            let hint = hi.parse::<i128>().map_or_else(
                |_| format!("bounds are inclusive: write `{lo}..={hi}` to allow {hi}"),
                |h| {
                    format!(
                        "bounds are inclusive: write `{lo}..={}` to exclude {h}, as Rust reads `{word}`, or `{lo}..={h}` to allow it",
                        h - 1
                    )
                },
            );
            return Err(Problem::new(
                pos,
                format!("the range `{word}` excludes its upper end"),
                hint,
            ));
        }
    };
    let min = (!lo.is_empty()).then_some(lo);
    if min.is_none() && max.is_none() {
        return Err(bad());
    }
    Ok((
        head.trim_end(),
        Some(RangeText {
            min,
            max,
            word,
            min_excluded: false,
            max_excluded: false,
            bare_max: None,
        }),
    ))
}

/// [`split_range`] on a decimal type: `A..=B` and `A..` as on a number, and the exclusive
/// ends `A<..` and `..<B` (`0<..<1`).
fn split_decimal_range<'s>(
    head: &'s str,
    word: &'s str,
    lo: &'s str,
    hi: &'s str,
    pos: Pos,
) -> Result<(&'s str, Option<RangeText<'s>>), Problem> {
    let bad = || {
        Problem::new(
            pos,
            format!("cannot read the range `{word}`"),
            "write bounds after the type, `<` on the side of an excluded one: `decimal(2) 0..=999.99`, `decimal(2) 0<..`, `decimal(2) ..<100`, `decimal(4) 0<..<1`",
        )
    };
    let (lo, min_excluded) = match lo.strip_suffix('<') {
        Some(lo) => (lo, true),
        None => (lo, false),
    };
    let (max, max_excluded, bare_max) = if let Some(hi) = hi.strip_prefix('=') {
        (Some(hi), false, None)
    } else if let Some(hi) = hi.strip_prefix('<') {
        (Some(hi), true, None)
    } else if hi.is_empty() {
        (None, false, None)
    } else {
        (None, false, Some(hi))
    };
    let min = (!lo.is_empty()).then_some(lo);
    let empty = |b: Option<&str>| b.is_some_and(str::is_empty);
    if (min.is_none() && min_excluded)
        || empty(max)
        || (min.is_none() && max.is_none() && bare_max.is_none())
    {
        return Err(bad());
    }
    Ok((
        head.trim_end(),
        Some(RangeText {
            min,
            max,
            word,
            min_excluded,
            max_excluded,
            bare_max,
        }),
    ))
}

/// The bounds of a range on `base` (`ty` as written): integers within an integer type's
/// width, or finite decimals on `number`; the lower bound first.
fn read_range(
    r: RangeText<'_>,
    base: &Base,
    ty: &str,
    pos: Pos,
) -> Result<(Option<IntRange>, Option<NumberRange>), Problem> {
    if r.word.contains('<') && (base.integer_width().is_some() || *base == Base::Number) {
        return Err(Problem::new(
            pos,
            format!("the range `{}` excludes a bound, which `{ty}` cannot", r.word),
            "write inclusive bounds (`1..=9`), or make the field a `decimal(S)`, whose bounds may exclude their end (`0<..`)",
        ));
    }
    if *base == Base::Number {
        let bound = |t: Option<&str>| -> Result<Option<f64>, Problem> {
            let Some(t) = t else { return Ok(None) };
            match t.parse::<f64>() {
                // `-0` is `0`: one bound, one schema keyword value.
                Ok(n) if n.is_finite() => Ok(Some(n + 0.0)),
                _ => Err(Problem::new(
                    pos,
                    format!("cannot read the bound `{t}` of `{}`", r.word),
                    "write each bound as a finite decimal number: `-90`, `359.5`, `1e3`",
                )),
            }
        };
        let (min, max) = (bound(r.min)?, bound(r.max)?);
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo > hi {
                return Err(Problem::new(
                    pos,
                    format!("the range `{}` is empty", r.word),
                    "write the lower bound first",
                ));
            }
        }
        return Ok((None, Some(NumberRange { min, max })));
    }
    let Some((lo, hi)) = base.integer_width() else {
        return Err(Problem::new(
            pos,
            format!("a range applies to integers, `number` and `decimal` only, not `{ty}`"),
            "bound a `uint32`, `uint64`, `int32`, `int64`, `number` or `decimal(S)`; for text lengths use a cap row",
        ));
    };
    let bound = |t: Option<&str>| -> Result<Option<i128>, Problem> {
        let Some(t) = t else { return Ok(None) };
        t.parse::<i128>().map(Some).map_err(|_| {
            Problem::new(
                pos,
                format!("cannot read the range `{}`", r.word),
                format!("`{ty}` takes integer bounds: `1..=10`, `-5..`, `..=100` (decimal bounds are for `number`)"),
            )
        })
    };
    let (min, max) = (bound(r.min)?, bound(r.max)?);
    if let (Some(min), Some(max)) = (min, max) {
        if min > max {
            return Err(Problem::new(
                pos,
                format!("the range `{min}..={max}` is empty"),
                "write the lower bound first",
            ));
        }
    }
    for n in [min, max].into_iter().flatten() {
        if n < lo || n > hi {
            return Err(Problem::new(
                pos,
                format!("the bound `{n}` is outside `{ty}` ({lo}..={hi})"),
                "choose bounds the type can hold, or a wider type",
            ));
        }
    }
    Ok((Some(IntRange { min, max }), None))
}

/// `string matching `REGEX``: the regex is the cell's last code span. Returns the type text
/// before `matching` (`string`, `string?`, `string[]` or `string[]?`) and the vetted regex, or `s` unchanged and no
/// regex when the cell has no `matching`.
fn split_matching<'s>(
    s: &'s str,
    codes: &[CodeSpan],
    pos: Pos,
) -> Result<(&'s str, Option<String>), Problem> {
    let Some(code) = codes.last() else {
        return Ok((s, None));
    };
    let Some(head) = s
        .strip_suffix(code.text.as_str())
        .and_then(|head| head.trim_end().strip_suffix("matching"))
    else {
        return Ok((s, None));
    };
    if code.text.trim().is_empty() {
        return Err(Problem::new(
            code.pos,
            "`matching` has an empty regex",
            "write the regex in a code span: string matching `^[a-z]+$`",
        ));
    }
    if let Err(r) = crate::model::pattern::vet(&code.text) {
        // At the construct (after the opening backtick; a `|` is written `\\|` in a table
        // cell), or at the code span.
        let col = r.offset.map_or(0, |o| {
            1 + o + code.text.chars().take(o).filter(|&c| c == '|').count()
        });
        let pos = Pos {
            line: code.pos.line,
            col: code.pos.col + col,
        };
        return Err(Problem::new(pos, r.message, r.hint));
    }
    // `string`, `string?`, `string[]` or `string[]?`: the rest of the cell reads the
    // shape, the regex applies to each string.
    let head = head.trim_end();
    let shape = head.strip_suffix('?').unwrap_or(head).trim_end();
    let base = shape.strip_suffix("[]").unwrap_or(shape).trim_end();
    if base != "string" {
        return Err(Problem::new(
            pos,
            format!("`matching` applies to `string`, not `{head}`"),
            "write `string matching `REGEX`` (or `string?`, `string[]`, `string[]?`)",
        ));
    }
    Ok((head, Some(code.text.clone())))
}

/// Reads the default `v` stated for a field of type `ty` (the Required cell at `pos`);
/// `enums` holds the values an enum default may take.
pub(super) fn parse_default(
    ty: &TypeRef,
    v: &str,
    pos: Pos,
    enums: &[Enum],
) -> Result<DefaultValue, Problem> {
    let d = default_value(ty, v, pos, enums)?;
    let within = match (d.clone(), ty.range, ty.number_range) {
        (DefaultValue::UInt(n), Some(r), _) => r.contains(n.into()),
        (DefaultValue::Int(n), Some(r), _) => r.contains(n.into()),
        (DefaultValue::Number(n), _, Some(r)) => r.contains(n),
        _ => true,
    };
    if within {
        Ok(d)
    } else {
        Err(Problem::new(
            pos,
            format!(
                "default `{v}` is outside the field's range",
                v = v.trim().trim_matches('`')
            ),
            "write a default within the bounds of the Type cell",
        ))
    }
}

/// The default `v` read by the field's type, before its range is checked.
fn default_value(ty: &TypeRef, v: &str, pos: Pos, enums: &[Enum]) -> Result<DefaultValue, Problem> {
    let v = v.trim().trim_matches('`');
    let bad = |what: &str| {
        Problem::new(
            pos,
            format!("default `{v}` is not {what}"),
            "write a default that the field's type can hold",
        )
    };
    if ty.array || ty.nullable {
        return Err(Problem::new(
            pos,
            format!("a stated default (`{v}`) on an array or `?` field"),
            "arrays default to `[]` and `?` fields to `null`: write just `—`",
        ));
    }
    match &ty.base {
        Base::Bool => match v {
            "true" => Ok(DefaultValue::Bool(true)),
            "false" => Ok(DefaultValue::Bool(false)),
            _ => Err(bad("a bool")),
        },
        Base::U32 | Base::U64 => v
            .parse::<u64>()
            .ok()
            .filter(|n| ty.base == Base::U64 || *n <= u64::from(u32::MAX))
            .map(DefaultValue::UInt)
            .ok_or_else(|| bad("an unsigned integer in range")),
        Base::I32 => v
            .parse::<i32>()
            .map(|n| DefaultValue::Int(n.into()))
            .map_err(|_| bad("an int32")),
        Base::I64 => v
            .parse()
            .map(DefaultValue::Int)
            .map_err(|_| bad("an int64")),
        Base::Number => match v.parse::<f64>() {
            Ok(n) if n.is_finite() => Ok(DefaultValue::Number(n)),
            _ => Err(bad("a number")),
        },
        Base::String => {
            let s = serde_json::from_str::<String>(v).unwrap_or_else(|_| v.to_owned());
            if ty.non_blank && s.trim().is_empty() {
                return Err(bad("non-blank"));
            }
            Ok(DefaultValue::String(s))
        }
        Base::Enum(name) => {
            let values: &[EnumValue] = enums
                .iter()
                .find(|e| &e.name == name)
                .map_or(&[], |e| &e.values);
            match values.iter().find(|x| x.value == v) {
                Some(x) => Ok(DefaultValue::Enum {
                    value: x.value.clone(),
                    variant: x.variant.clone(),
                }),
                None => {
                    let vals: Vec<String> =
                        values.iter().map(|x| format!("`{}`", x.value)).collect();
                    Err(Problem::new(
                        pos,
                        format!("default `{v}` is not a value of `{name}`"),
                        format!("use one of {}", vals.join(", ")),
                    ))
                }
            }
        }
        Base::Object(_) | Base::Union(_) | Base::Selected(_) => Err(Problem::new(
            pos,
            format!("a stated default (`{v}`) on an object or union field"),
            "make the field `T?` (default null) or required",
        )),
        Base::Decimal { .. } => Err(Problem::new(
            pos,
            format!("a stated default (`{v}`) on a decimal field"),
            "make the field `decimal(S)?` (absent reads as `null`) or required",
        )),
        Base::Any => Err(Problem::new(
            pos,
            format!("a stated default (`{v}`) on an `any` field"),
            "an absent `any` member is simply absent: write just `—`",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: Pos = Pos { line: 3, col: 5 };

    fn span(text: &str) -> CodeSpan {
        CodeSpan {
            text: text.to_owned(),
            pos: AT,
        }
    }

    fn kinds() -> BTreeMap<String, Kind> {
        [
            ("line_item", Kind::Object),
            ("status", Kind::Enum),
            ("shape", Kind::Union),
        ]
        .into_iter()
        .map(|(n, k)| (n.to_owned(), k))
        .collect()
    }

    fn status() -> Vec<Enum> {
        vec![Enum {
            name: "status".into(),
            rust_name: "Status".into(),
            doc: String::new(),
            values: ["open", "done"]
                .into_iter()
                .map(|v| EnumValue {
                    value: v.into(),
                    variant: crate::names::upper_camel(v),
                    doc: String::new(),
                })
                .collect(),
        }]
    }

    /// The type a cell reads as, or the message of its problem.
    fn ty(text: &str, codes: &[&str]) -> Result<TypeRef, String> {
        let codes: Vec<CodeSpan> = codes.iter().map(|c| span(c)).collect();
        parse_type(text, &codes, AT, &kinds()).map_err(|p| p.message)
    }

    #[test]
    fn type_cells_read_as_their_type() {
        let cases: &[(&str, &[&str], TypeRef)] = &[
            ("string", &[], plain(Base::String)),
            ("uint32", &[], plain(Base::U32)),
            ("int64", &[], plain(Base::I64)),
            ("number", &[], plain(Base::Number)),
            ("any", &[], plain(Base::Any)),
            (
                "string[]?",
                &[],
                TypeRef {
                    array: true,
                    nullable: true,
                    ..plain(Base::String)
                },
            ),
            (
                "non-blank string[]",
                &[],
                TypeRef {
                    array: true,
                    non_blank: true,
                    ..plain(Base::String)
                },
            ),
            (
                "relative-path string",
                &[],
                TypeRef {
                    relative_path: true,
                    ..plain(Base::String)
                },
            ),
            (
                "\"0.1\"",
                &[],
                TypeRef {
                    literal: Some("0.1".into()),
                    ..plain(Base::String)
                },
            ),
            (
                "string matching ^[a-z]+$",
                &["^[a-z]+$"],
                TypeRef {
                    pattern: Some("^[a-z]+$".into()),
                    ..plain(Base::String)
                },
            ),
            (
                "line_item?",
                &[],
                TypeRef {
                    nullable: true,
                    ..plain(Base::Object("line_item".into()))
                },
            ),
            (
                "status[]",
                &[],
                TypeRef {
                    array: true,
                    ..plain(Base::Enum("status".into()))
                },
            ),
            ("shape", &[], plain(Base::Union("shape".into()))),
            ("object by op", &["op"], plain(Base::Selected("op".into()))),
        ];
        for (text, codes, want) in cases {
            assert_eq!(ty(text, codes).as_ref(), Ok(want), "{text}");
        }
    }

    #[test]
    fn type_cells_that_cannot_be_read_say_why() {
        let cases: &[(&str, &[&str], &str)] = &[
            (
                "non-blank \"x\"",
                &[],
                "a literal type `\"x\"` takes no qualifier",
            ),
            ("\"x", &[], "cannot read the literal type `\"x`"),
            ("string matching", &[""], "`matching` has an empty regex"),
            (
                "bool matching ^a$",
                &["^a$"],
                "`matching` applies to `string`, not `bool`",
            ),
            ("object by", &[], "cannot read the type `object by`"),
            (
                "non-blank object by op",
                &["op"],
                "cannot read the type `non-blank object by op`",
            ),
            ("object", &[], "`object` alone is not a type in `object`"),
            (
                "any?",
                &[],
                "`any` already admits `null`; `?` in `any?` says nothing",
            ),
            (
                "non-blank any",
                &[],
                "`non-blank` applies to strings only, not `any`",
            ),
            ("text[]", &[], "unknown type `text` in `text[]`"),
            (
                "non-blank bool",
                &[],
                "`non-blank` applies to strings only, not `bool`",
            ),
            (
                "relative-path status",
                &[],
                "`relative-path` applies to strings only, not `status`",
            ),
        ];
        for (text, codes, want) in cases {
            assert_eq!(ty(text, codes), Err((*want).to_owned()), "{text}");
        }
    }

    #[test]
    fn an_unknown_type_lists_the_tables() {
        let p = parse_type("text", &[], AT, &kinds()).unwrap_err();
        assert_eq!(p.pos, AT);
        assert_eq!(
            p.hint,
            "use string, bool, uint32, uint64, int32, int64, number, decimal, any, date-time, date, uri, email, or a table of this spec: `line_item`, `shape`, `status`"
        );
    }

    #[test]
    fn defaults_read_as_the_field_type_holds_them() {
        let t = |text: &str| parse_type(text, &[], AT, &kinds()).unwrap();
        let cases: &[(&str, &str, Result<DefaultValue, &str>)] = &[
            ("bool", "true", Ok(DefaultValue::Bool(true))),
            ("bool", "`false`", Ok(DefaultValue::Bool(false))),
            ("bool", "yes", Err("default `yes` is not a bool")),
            ("uint32", "7", Ok(DefaultValue::UInt(7))),
            (
                "uint32",
                "4294967296",
                Err("default `4294967296` is not an unsigned integer in range"),
            ),
            (
                "uint64",
                "4294967296",
                Ok(DefaultValue::UInt(4_294_967_296)),
            ),
            ("int64", "-3", Ok(DefaultValue::Int(-3))),
            ("int64", "x", Err("default `x` is not an int64")),
            ("number", "1.5", Ok(DefaultValue::Number(1.5))),
            ("number", "inf", Err("default `inf` is not a number")),
            ("string", "\"a b\"", Ok(DefaultValue::String("a b".into()))),
            ("string", "plain", Ok(DefaultValue::String("plain".into()))),
            (
                "non-blank string",
                "\" \"",
                Err("default `\" \"` is not non-blank"),
            ),
            (
                "status",
                "done",
                Ok(DefaultValue::Enum {
                    value: "done".into(),
                    variant: "Done".into(),
                }),
            ),
            (
                "status",
                "gone",
                Err("default `gone` is not a value of `status`"),
            ),
            (
                "string[]",
                "x",
                Err("a stated default (`x`) on an array or `?` field"),
            ),
            (
                "line_item",
                "{}",
                Err("a stated default (`{}`) on an object or union field"),
            ),
        ];
        for (ty_text, v, want) in cases {
            let got = parse_default(&t(ty_text), v, AT, &status()).map_err(|p| p.message);
            assert_eq!(got, want.clone().map_err(str::to_owned), "{ty_text} {v}");
        }
    }

    #[test]
    fn required_cells_read_as_their_form() {
        let cell = |plain: &str, codes: &[&str]| Cell {
            plain: plain.to_owned(),
            md: plain.to_owned(),
            codes: codes.iter().map(|c| span(c)).collect(),
            pos: AT,
        };
        let cases: &[(&str, &[&str], Option<Req>)] = &[
            ("✔", &[], Some(Req::Yes(None))),
            ("yes", &[], Some(Req::Yes(None))),
            (
                "✔ missing",
                &["missing"],
                Some(Req::Yes(Some(span("missing")))),
            ),
            ("✔ missing", &[], None),
            ("—", &[], Some(Req::No(None))),
            ("no", &[], Some(Req::No(None))),
            ("— (default 3)", &[], Some(Req::No(Some("3".into())))),
            ("— (3)", &[], None),
            (
                "if kind is file",
                &["kind", "file"],
                Some(Req::If(RawCondition {
                    negated: false,
                    quantifier: Quantifier::One,
                    path: span("kind"),
                    values: vec![span("file")],
                })),
            ),
            (
                "unless any lines[].kind is a, b, or c",
                &["lines[].kind", "a", "b", "c"],
                Some(Req::If(RawCondition {
                    negated: true,
                    quantifier: Quantifier::Any,
                    path: span("lines[].kind"),
                    values: vec![span("a"), span("b"), span("c")],
                })),
            ),
            (
                "if every tags[] is not  a or b",
                &["tags[]", "a", "b"],
                Some(Req::If(RawCondition {
                    negated: true,
                    quantifier: Quantifier::Every,
                    path: span("tags[]"),
                    values: vec![span("a"), span("b")],
                })),
            ),
            ("if kind is", &["kind"], None),
            ("if kind is a b", &["kind", "a", "b"], None),
            ("if kind is a, b", &["kind", "a", "b"], None),
            ("unless kind is not a", &["kind", "a"], None),
            ("if kind equals a", &["kind", "a"], None),
            ("maybe", &[], None),
        ];
        for (plain, codes, want) in cases {
            assert_eq!(&parse_required(&cell(plain, codes)), want, "{plain}");
        }
    }
}
