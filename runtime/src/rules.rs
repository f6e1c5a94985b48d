//! One function per rule. `#[derive(Validate)]` only wires fields to these functions.
//!
//! Every function takes the value (and, for list rules, accessors for the item fields it
//! compares), the [`Path`] of the value, the limit where the rule has one, the violation
//! code and the [`Report`] to push to. None of them allocates unless it records a violation
//! (or, for [`unique_by`] and [`contradiction`], the list has more than
//! [`SMALL_LIST`] items).
//!
//! Field shapes are abstracted by [`TextField`] (`String`, `&str`, `Option<String>`, ...)
//! and [`ListField`] (`Vec<T>`, slices, `Option<Vec<T>>`, ...); a `None` is never checked.

use core::fmt::Display;
use std::borrow::Cow;
use std::collections::HashMap;
use std::io;

use crate::path::Path;
use crate::report::{Report, Violation};

/// Lists longer than this are checked by [`unique_by`] and [`contradiction`] with a hash
/// map (which allocates); shorter ones pairwise, without allocating.
pub const SMALL_LIST: usize = 64;

/// A field that holds text, or maybe no text (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text field",
    label = "`non_blank` and `max_chars` apply to `String`, `&str`, `Box<str>`, `Cow<str>` or an `Option` of one",
    note = "for a list of strings, use `each(non_blank, max_chars = N)`"
)]
pub trait TextField {
    /// The text, or `None` when there is nothing to check.
    fn text(&self) -> Option<&str>;
}

impl TextField for str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for Box<str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for Cow<'_, str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl<T: TextField + ?Sized> TextField for &T {
    fn text(&self) -> Option<&str> {
        (**self).text()
    }
}

impl<T: TextField> TextField for Option<T> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(TextField::text)
    }
}

/// A field that holds a list, or maybe no list (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list field",
    label = "list rules apply to `Vec<T>`, `[T]`, `[T; N]` or an `Option` of one"
)]
pub trait ListField {
    /// The element type.
    type Item;
    /// The elements, or `None` when there is nothing to check.
    fn items(&self) -> Option<&[Self::Item]>;
}

impl<T> ListField for [T] {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T, const N: usize> ListField for [T; N] {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T> ListField for Vec<T> {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<L: ListField + ?Sized> ListField for &L {
    type Item = L::Item;
    fn items(&self) -> Option<&[L::Item]> {
        (**self).items()
    }
}

impl<L: ListField> ListField for Option<L> {
    type Item = L::Item;
    fn items(&self) -> Option<&[L::Item]> {
        self.as_ref().and_then(ListField::items)
    }
}

/// How [`unique_by`] compares keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fold {
    /// Compare after `str::trim` (Unicode whitespace).
    pub trim: bool,
    /// Compare after Unicode lowercasing, char by char (`char::to_lowercase`).
    pub ignore_case: bool,
}

/// Two values of the `by` field that contradict each other when the items' `value`s match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair<P> {
    /// One side.
    pub a: P,
    /// The other side.
    pub b: P,
    /// Compare the `value`s ignoring case (Unicode lowercase) instead of verbatim.
    pub ignore_case: bool,
}

/// `true` when `s` is empty after trimming Unicode whitespace (U+3000 alone is blank).
pub fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Number of Unicode scalar values, on the untrimmed value.
pub fn char_count(s: &str) -> usize {
    s.chars().count()
}

/// Compares `a` and `b` under `fold`, without allocating.
pub fn fold_eq(a: &str, b: &str, fold: Fold) -> bool {
    let (a, b) = if fold.trim {
        (a.trim(), b.trim())
    } else {
        (a, b)
    };
    if fold.ignore_case {
        a.chars()
            .flat_map(char::to_lowercase)
            .eq(b.chars().flat_map(char::to_lowercase))
    } else {
        a == b
    }
}

/// The key `fold_eq` compares, materialised (used for long lists only).
fn fold_key(s: &str, fold: Fold) -> Cow<'_, str> {
    let s = if fold.trim { s.trim() } else { s };
    if fold.ignore_case {
        Cow::Owned(s.chars().flat_map(char::to_lowercase).collect())
    } else {
        Cow::Borrowed(s)
    }
}

fn n(x: usize) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// `blank_field`-style rule: the text must not be blank. `None` passes.
///
/// Message: `` `audience[1]` must not be blank ``.
pub fn non_blank<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    if let Some(s) = value.text() {
        if is_blank(s) {
            let message = format!("`{}` must not be blank", path.dotted());
            report.push(Violation::new(code, path, message));
        }
    }
}

/// The text must have at most `max` chars (Unicode scalar values, untrimmed). `None` passes.
///
/// Message: `` `constraints[3].text` is 240 chars (max 200) ``.
pub fn max_chars<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    // At most 4 bytes per char: a short string cannot be too long.
    if s.len() <= max {
        return;
    }
    let count = char_count(s);
    if count > max {
        let message = format!("`{}` is {count} chars (max {max})", path.dotted());
        report.push(Violation::new(code, path, message).with_numbers(n(count), n(max)));
    }
}

/// The list must have at most `max` items. `None` passes.
///
/// Message: `` `constraints` has 13 items (max 12) ``.
pub fn max_items<L: ListField + ?Sized>(
    list: &L,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    let Some(items) = list.items() else { return };
    if items.len() > max {
        let message = format!("`{}` has {} items (max {max})", path.dotted(), items.len());
        report.push(Violation::new(code, path, message).with_numbers(n(items.len()), n(max)));
    }
}

/// At most `max` items may share one value of the `by` field. One violation per offending
/// group, in order of the group's first item; the path is the list's.
///
/// Message: `` `acceptance` has 7 items of kind `must_use_tools` (max 6) ``.
pub fn max_items_per_group<L, K, F>(
    list: &L,
    by: F,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    K: PartialEq + Display + ?Sized,
    F: Fn(&L::Item) -> &K,
{
    let Some(items) = list.items() else { return };
    if items.len() <= max {
        return;
    }
    for (i, item) in items.iter().enumerate() {
        let kind = by(item);
        if items[..i].iter().any(|earlier| by(earlier) == kind) {
            continue; // group already counted at its first item
        }
        let count = 1 + items[i + 1..].iter().filter(|x| by(x) == kind).count();
        if count > max {
            let message = format!(
                "`{}` has {count} items of kind `{kind}` (max {max})",
                path.dotted()
            );
            report.push(Violation::new(code, path, message).with_numbers(n(count), n(max)));
        }
    }
}

/// No two items may have equal keys (compared under `fold`). Each later duplicate is
/// reported once, against the first item with that key; the path is the later item's key
/// (`list[j].key_name`).
///
/// Message: `` `constraints[2].id` `C1` duplicates `constraints[0].id` ``.
pub fn unique_by<L, F>(
    list: &L,
    key_name: &'static str,
    key: F,
    fold: Fold,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    F: Fn(&L::Item) -> &str,
{
    let Some(items) = list.items() else { return };
    let found = |j: usize, i: usize, report: &mut Report| {
        let later_item = path.index(j);
        let later = later_item.field(key_name);
        let first_item = path.index(i);
        let first = first_item.field(key_name);
        let message = format!(
            "`{}` `{}` duplicates `{}`",
            later.dotted(),
            key(&items[j]),
            first.dotted()
        );
        report.push(Violation::new(code, &later, message));
    };
    if items.len() <= SMALL_LIST {
        for j in 1..items.len() {
            let kj = key(&items[j]);
            if let Some(i) = (0..j).find(|&i| fold_eq(key(&items[i]), kj, fold)) {
                found(j, i, report);
            }
        }
    } else {
        let mut first: HashMap<Cow<'_, str>, usize> = HashMap::with_capacity(items.len());
        for (j, item) in items.iter().enumerate() {
            match first.entry(fold_key(key(item), fold)) {
                std::collections::hash_map::Entry::Occupied(e) => found(j, *e.get(), report),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(j);
                }
            }
        }
    }
}

/// An item whose `by` is one side of a [`Pair`] and whose `value` equals (verbatim, or
/// ignoring case when the pair says so) the `value` of an earlier item on the other side is
/// refused. Each later item is reported once, against the first earlier item it contradicts;
/// the path is the later item's value (`list[j].value_name`).
///
/// Message: `` `acceptance[1].value` `mail_send` (must_not_use_tools) contradicts
/// `acceptance[0].value` (must_use_tools) ``.
#[allow(clippy::too_many_arguments)]
pub fn contradiction<L, K, P, FB, FV>(
    list: &L,
    by: FB,
    value_name: &'static str,
    value: FV,
    pairs: &[Pair<P>],
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    K: PartialEq<P> + Display + ?Sized,
    FB: Fn(&L::Item) -> &K,
    FV: Fn(&L::Item) -> &str,
{
    let Some(items) = list.items() else { return };
    let sides = |k: &K, p: &Pair<P>| (*k == p.a, *k == p.b);
    let contradicts = |i: usize, j: usize| -> bool {
        let (x, y) = (&items[i], &items[j]);
        // Several pairs may oppose the same kinds; any one with a match counts.
        pairs.iter().any(|p| {
            let ((xa, xb), (ya, yb)) = (sides(by(x), p), sides(by(y), p));
            ((xa && yb) || (xb && ya))
                && fold_eq(
                    value(x),
                    value(y),
                    Fold {
                        trim: false,
                        ignore_case: p.ignore_case,
                    },
                )
        })
    };
    let found = |j: usize, i: usize, report: &mut Report| {
        let later_item = path.index(j);
        let later = later_item.field(value_name);
        let first_item = path.index(i);
        let first = first_item.field(value_name);
        let message = format!(
            "`{}` `{}` ({}) contradicts `{}` ({})",
            later.dotted(),
            value(&items[j]),
            by(&items[j]),
            first.dotted(),
            by(&items[i]),
        );
        report.push(Violation::new(code, &later, message));
    };
    if items.len() <= SMALL_LIST {
        for j in 1..items.len() {
            if let Some(i) = (0..j).find(|&i| contradicts(i, j)) {
                found(j, i, report);
            }
        }
        return;
    }
    // Long list: per pair, one map per side from value key to the first item with it.
    let mut maps: Vec<[HashMap<Cow<'_, str>, usize>; 2]> = pairs
        .iter()
        .map(|_| [HashMap::new(), HashMap::new()])
        .collect();
    for (j, item) in items.iter().enumerate() {
        let kind = by(item);
        let mut earliest: Option<usize> = None;
        for (p, side_maps) in pairs.iter().zip(maps.iter_mut()) {
            let (on_a, on_b) = sides(kind, p);
            if !on_a && !on_b {
                continue;
            }
            let key = fold_key(
                value(item),
                Fold {
                    trim: false,
                    ignore_case: p.ignore_case,
                },
            );
            // Look up the opposite sides before recording this item (a pair may have a == b).
            let hits = [
                on_a.then(|| side_maps[1].get(&key)),
                on_b.then(|| side_maps[0].get(&key)),
            ];
            for &i in hits.into_iter().flatten().flatten() {
                earliest = Some(earliest.map_or(i, |e| e.min(i)));
            }
            if on_a {
                side_maps[0].entry(key.clone()).or_insert(j);
            }
            if on_b {
                side_maps[1].entry(key).or_insert(j);
            }
        }
        if let Some(i) = earliest {
            found(j, i, report);
        }
    }
}

/// `a` must differ from `b` (fields `a_name` and `b_name` of the struct at `path`); the
/// violation's path is `b`'s.
///
/// Message: `` `to_role` must differ from `from_role` (both `planner`) ``.
#[allow(clippy::too_many_arguments)]
pub fn not_equal<A, B>(
    a: &A,
    a_name: &'static str,
    b: &B,
    b_name: &'static str,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) where
    A: PartialEq<B> + Display + ?Sized,
    B: ?Sized,
{
    if *a == *b {
        let pa = path.field(a_name);
        let pb = path.field(b_name);
        let message = format!(
            "`{}` must differ from `{}` (both `{a}`)",
            pb.dotted(),
            pa.dotted()
        );
        report.push(Violation::new(code, &pb, message));
    }
}

/// An `io::Write` that only counts bytes.
#[derive(Debug, Default)]
pub struct ByteCounter {
    /// Bytes written so far.
    pub bytes: u64,
}

impl io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += n(buf.len());
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.bytes += n(buf.len());
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Size of the compact `serde_json` serialization of `value`, measured without allocating.
/// `None` when `value` fails to serialize.
pub fn json_bytes<T: serde::Serialize + ?Sized>(value: &T) -> Option<u64> {
    let mut counter = ByteCounter::default();
    serde_json::to_writer(&mut counter, value).ok()?;
    Some(counter.bytes)
}

/// The compact JSON serialization of `value` must be at most `max` bytes. A value that fails
/// to serialize is not measured (serialization will report it).
///
/// Message at the root: `the document is 17020 bytes as compact JSON (max 16384)`;
/// elsewhere: `` `x` is 17020 bytes as compact JSON (max 16384) ``.
pub fn max_json_bytes<T: serde::Serialize + ?Sized>(
    value: &T,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    let Some(bytes) = json_bytes(value) else {
        return;
    };
    if bytes > n(max) {
        let message = if path.is_root() {
            format!("the document is {bytes} bytes as compact JSON (max {max})")
        } else {
            format!(
                "`{}` is {bytes} bytes as compact JSON (max {max})",
                path.dotted()
            )
        };
        report.push(Violation::new(code, path, message).with_numbers(bytes, n(max)));
    }
}
