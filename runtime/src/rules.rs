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
use std::sync::OnceLock;

use crate::path::Path;
use crate::report::{Report, Violation};

/// A violation message that starts with the dotted path `at`, written into a string sized
/// for it up front (`format!` would start small and grow).
macro_rules! message {
    ($at:expr, $($fmt:tt)*) => {{
        use core::fmt::Write as _;
        let at: &str = $at;
        let mut out = String::with_capacity(at.len() * 2 + 64);
        // Writing to a String cannot fail.
        let _ = write!(out, $($fmt)*);
        out
    }};
}

/// Lists longer than this are checked by [`unique_by`] and [`contradiction`] with a hash
/// map (which allocates); shorter ones pairwise, without allocating.
pub const SMALL_LIST: usize = 64;

/// A field that holds text, or maybe no text (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text field",
    label = "text rules apply to `String`, `&str`, `Box<str>`, `Cow<str>` or an `Option` of one",
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
    // What `s.trim().is_empty()` says, stopping at the first char that is not whitespace
    // (almost always the first) instead of trimming from both ends.
    s.chars().all(char::is_whitespace)
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
    if !fold.ignore_case {
        return a == b;
    }
    // Identical bytes are identical chars: skip the common prefix (backed up to a char
    // boundary) and lowercase only from the first difference on.
    let common = common_prefix_len(a.as_bytes(), b.as_bytes());
    let start = (0..=common)
        .rev()
        .find(|&i| a.is_char_boundary(i))
        .unwrap_or(0);
    let (a, b) = (&a[start..], &b[start..]);
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// Length of the longest common prefix of `a` and `b`, 16 bytes at a time.
fn common_prefix_len(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 16 <= n {
        let word = |s: &[u8]| u128::from_le_bytes(s[i..i + 16].try_into().expect("16 bytes"));
        let diff = word(a) ^ word(b);
        if diff != 0 {
            // Little-endian: the lowest set bit is in the first differing byte.
            return i + (diff.trailing_zeros() / 8) as usize;
        }
        i += 16;
    }
    i + a[i..n]
        .iter()
        .zip(&b[i..n])
        .take_while(|(x, y)| x == y)
        .count()
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
#[inline]
pub fn non_blank<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    non_blank_text(value.text(), path, code, report);
}

// The generic rules are thin shells over non-generic cores, so a crate deriving `Validate` on
// many structs compiles each rule's body once, here, not once per field type.
fn non_blank_text(text: Option<&str>, path: &Path<'_>, code: &'static str, report: &mut Report) {
    if let Some(s) = text {
        if is_blank(s) {
            report.push(Violation::with_message(code, path, |at| {
                message!(at, "`{at}` must not be blank")
            }));
        }
    }
}

/// The text must have at most `max` chars (Unicode scalar values, untrimmed). `None` passes.
///
/// Message: `` `constraints[3].text` is 240 chars (max 200) ``.
#[inline]
pub fn max_chars<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    max_chars_text(value.text(), path, max, code, report);
}

fn max_chars_text(
    text: Option<&str>,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    let Some(s) = text else { return };
    // At most 4 bytes per char: a short string cannot be too long.
    if s.len() <= max {
        return;
    }
    let count = char_count(s);
    if count > max {
        let v = Violation::with_message(code, path, |at| {
            message!(at, "`{at}` is {count} chars (max {max})")
        });
        report.push(v.with_numbers(n(count), n(max)));
    }
}

/// The list must have at most `max` items. `None` passes.
///
/// Message: `` `constraints` has 13 items (max 12) ``.
#[inline]
pub fn max_items<L: ListField + ?Sized>(
    list: &L,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    max_items_len(list.items().map(<[L::Item]>::len), path, max, code, report);
}

#[doc(hidden)] // called by `#[derive(Validate)]`, which hands it the length itself
pub fn max_items_len(
    len: Option<usize>,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    let Some(len) = len else { return };
    if len > max {
        let v = Violation::with_message(code, path, |at| {
            message!(at, "`{at}` has {len} items (max {max})")
        });
        report.push(v.with_numbers(n(len), n(max)));
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
            let v = Violation::with_message(code, path, |at| {
                message!(at, "`{at}` has {count} items of kind `{kind}` (max {max})")
            });
            report.push(v.with_numbers(n(count), n(max)));
        }
    }
}

/// Calls `found(j, i)` for every later item `j` whose key equals (under `fold`) the key of an
/// earlier item, with `i` the first such item. Items without a key are skipped. Pairwise
/// without allocating for at most [`SMALL_LIST`] items, through a hash map above.
fn each_duplicate<'a, I, F>(items: &'a [I], key: F, fold: Fold, mut found: impl FnMut(usize, usize))
where
    F: Fn(&'a I) -> Option<&'a str>,
{
    each_duplicate_index(items.len(), &|i| key(&items[i]), fold, &mut found);
}

/// The core of [`each_duplicate`], over item indexes (`key(i)` is item `i`'s key).
fn each_duplicate_index<'a>(
    len: usize,
    key: &dyn Fn(usize) -> Option<&'a str>,
    fold: Fold,
    found: &mut dyn FnMut(usize, usize),
) {
    let mut duplicates = Duplicates::new(len, fold);
    for j in 0..len {
        if let Some(i) = duplicates.push(key(j)) {
            found(j, i);
        }
    }
}

/// Finds duplicates one key at a time: for each key pushed, the first earlier key equal to
/// it under `fold`. Pairwise, each key trimmed once, on the stack, for lists of at most
/// [`SMALL_LIST`] keys; through a hash map of folded keys above (the map is also built if
/// more keys arrive than announced).
struct Duplicates<'a> {
    /// The keys so far, trimmed when `fold.trim` (pairwise mode).
    keys: [Option<&'a str>; SMALL_LIST],
    /// Folded key → first index (hash mode).
    first: Option<HashMap<Cow<'a, str>, usize>>,
    next: usize,
    fold: Fold,
}

impl<'a> Duplicates<'a> {
    /// For a list of about `len` keys.
    fn new(len: usize, fold: Fold) -> Self {
        Duplicates {
            keys: [None; SMALL_LIST],
            first: (len > SMALL_LIST).then(|| HashMap::with_capacity(len)),
            next: 0,
            fold,
        }
    }

    /// The next item's key (`None`: the item has none and is skipped); returns the index of
    /// the first earlier item with an equal key.
    fn push(&mut self, key: Option<&'a str>) -> Option<usize> {
        let j = self.next;
        self.next += 1;
        if self.first.is_none() && j >= SMALL_LIST {
            let mut first = HashMap::with_capacity(2 * SMALL_LIST);
            for (i, k) in self.keys.iter().enumerate() {
                if let Some(k) = k {
                    first.entry(fold_key(k, self.fold)).or_insert(i);
                }
            }
            self.first = Some(first);
        }
        let key = key?;
        match &mut self.first {
            Some(first) => match first.entry(fold_key(key, self.fold)) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(j);
                    None
                }
            },
            None => {
                let kj = if self.fold.trim { key.trim() } else { key };
                let fold = Fold {
                    trim: false,
                    ..self.fold
                };
                let found = (0..j).find(|&i| self.keys[i].is_some_and(|ki| fold_eq(ki, kj, fold)));
                self.keys[j] = Some(kj);
                found
            }
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
    unique_by_keys(
        items.len(),
        &|i| key(&items[i]),
        key_name,
        fold,
        path,
        code,
        report,
    );
}

/// The core of [`unique_by`], over item indexes.
fn unique_by_keys<'a>(
    len: usize,
    key: &dyn Fn(usize) -> &'a str,
    key_name: &'static str,
    fold: Fold,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    let mut keys = UniqueByKeys::new(len, key_name, fold, path, code, report);
    for i in 0..len {
        keys.key(key(i));
    }
}

/// No two elements of a list of text may be equal (compared under `fold`); `None` elements
/// are skipped. Each later duplicate is reported once, against the first equal element,
/// showing the later element verbatim; the path is the later element (`list[j]`).
///
/// Message: `` `dependsOn[2]` `t-1` repeats `dependsOn[0]` ``.
pub fn unique<L>(list: &L, fold: Fold, path: &Path<'_>, code: &'static str, report: &mut Report)
where
    L: ListField + ?Sized,
    L::Item: TextField,
{
    let Some(items) = list.items() else { return };
    each_duplicate(items, TextField::text, fold, |j, i| {
        let later = path.index(j);
        let first = path.index(i);
        report.push(Violation::with_message(code, &later, |at| {
            let text = items[j].text().unwrap_or_default();
            message!(at, "`{at}` `{text}` repeats `{first}`")
        }));
    });
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
        report.push(Violation::with_message(code, &later, |at| {
            message!(
                at,
                "`{at}` `{}` ({}) contradicts `{first}` ({})",
                value(&items[j]),
                by(&items[j]),
                by(&items[i]),
            )
        }));
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
        report.push(Violation::with_message(code, &pb, |at| {
            message!(at, "`{at}` must differ from `{pa}` (both `{a}`)")
        }));
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
    // Computed without running serde_json's per-byte escape loop; the same number.
    crate::json_size::compact_len(value).ok()
}

/// The compact JSON serialization of `value` must be at most `max` bytes. A value that fails
/// to serialize is not measured (serialization will report it), nor is one the report
/// already knows to be short enough ([`Report::assume_json_bytes_at_most`]).
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
    if report.json_bytes_within(max) {
        return;
    }
    if let Some(bytes) = json_bytes(value) {
        max_json_bytes_len(bytes, path, max, code, report);
    }
}

/// The core of [`max_json_bytes`], on the measured length.
fn max_json_bytes_len(
    bytes: u64,
    path: &Path<'_>,
    max: usize,
    code: &'static str,
    report: &mut Report,
) {
    if bytes > n(max) {
        let v = Violation::with_message(code, path, |at| {
            if path.is_root() {
                format!("the document is {bytes} bytes as compact JSON (max {max})")
            } else {
                message!(at, "`{at}` is {bytes} bytes as compact JSON (max {max})")
            }
        });
        report.push(v.with_numbers(bytes, n(max)));
    }
}

/// Longest prefix of a value (in chars) that messages quote; longer values end in `…`.
pub const SHOWN_CHARS: usize = 64;

/// `s` as messages quote it: at most [`SHOWN_CHARS`] chars, then `…` if it was longer.
pub fn shown(s: &str) -> Shown<'_> {
    Shown(s, SHOWN_CHARS)
}

/// A value quoted in a message, cut to a number of chars (see [`shown`]).
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a>(&'a str, usize);

impl Display for Shown<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.char_indices().nth(self.1) {
            Some((cut, _)) => {
                f.write_str(&self.0[..cut])?;
                f.write_str("…")
            }
            None => f.write_str(self.0),
        }
    }
}

/// The text must equal `expected` exactly (no trimming, case-sensitive). `None` passes.
///
/// Message: `` `protocol_version` is `0.2`, expected `0.1` `` (the actual value cut to
/// [`SHOWN_CHARS`] chars).
pub fn equals<V: TextField + ?Sized>(
    value: &V,
    expected: &str,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    if s != expected {
        report.push(Violation::with_message(code, path, |at| {
            message!(at, "`{at}` is `{}`, expected `{expected}`", shown(s))
        }));
    }
}

/// A regular expression for [`pattern`], compiled on first use and kept for the life of
/// the program. Declare one per call site as a `static`:
///
/// ```
/// use specmint_runtime::rules::{self, Pattern};
/// use specmint_runtime::{Path, Report};
///
/// static ID: Pattern = Pattern::new("^pkg_[a-z]+$");
/// let mut report = Report::new();
/// rules::pattern("pkg_", &ID, &Path::ROOT.field("id"), "pattern_mismatch", &mut report);
/// assert_eq!(report.to_string(), "`id` `pkg_` does not match `^pkg_[a-z]+$`");
/// ```
///
/// The syntax is `regex-lite`'s (Perl-like, Unicode-aware, no look-around); the regex is
/// anchored only by its own `^` and `$`. `#[derive(Validate)]` checks it at compile time.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Option<regex_lite::Regex>>,
}

impl Pattern {
    /// A pattern that is compiled the first time it is used.
    pub const fn new(source: &'static str) -> Self {
        Pattern {
            source,
            compiled: OnceLock::new(),
        }
    }

    /// The regular expression as written.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// `Some(true)` when `s` matches, `None` when the pattern is not a valid regex.
    pub fn is_match(&self, s: &str) -> Option<bool> {
        self.compiled
            .get_or_init(|| regex_lite::Regex::new(self.source).ok())
            .as_ref()
            .map(|re| re.is_match(s))
    }
}

/// The text must match `pattern` (anchored only by the pattern's own `^`/`$`). `None`
/// passes. After the first call through a given [`Pattern`], checking allocates nothing.
///
/// Message: `` `package_id` `pkg_` does not match `^pkg_[A-Za-z0-9_-]{1,63}$` `` (the value
/// cut to [`SHOWN_CHARS`] chars). A pattern that does not compile (the derive refuses those
/// at compile time) gives `` `package_id` cannot be checked: `(` is not a valid regex ``.
pub fn pattern<V: TextField + ?Sized>(
    value: &V,
    pattern: &Pattern,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    let matched = pattern.is_match(s);
    if matched == Some(true) {
        return;
    }
    let source = pattern.source();
    report.push(Violation::with_message(code, path, |at| match matched {
        Some(_) => message!(at, "`{at}` `{}` does not match `{source}`", shown(s)),
        None => message!(
            at,
            "`{at}` cannot be checked: `{source}` is not a valid regex"
        ),
    }));
}

/// Why `s` is not a safe relative path, if it is not: `"is empty"`, `"is absolute"` (starts
/// with `/` or `\`, or with a drive letter and `:` as in `C:\x`, `C:/x`, `C:x`), or
/// `` "contains `..`" `` (a segment, split on `/` and `\`, equal to `..`).
pub fn relative_path_problem(s: &str) -> Option<&'static str> {
    let b = s.as_bytes();
    if b.is_empty() {
        Some("is empty")
    } else if b[0] == b'/'
        || b[0] == b'\\'
        || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
    {
        Some("is absolute")
    } else if s.split(['/', '\\']).any(|seg| seg == "..") {
        Some("contains `..`")
    } else {
        None
    }
}

/// The text must be a relative path that cannot leave its base: not empty, not absolute,
/// no `..` segment (see [`relative_path_problem`]). `None` passes.
///
/// Message: `` `payload.logical_path` `../x` must be a relative path without `..` (it contains `..`) ``,
/// likewise `(it is absolute)` and `(it is empty)`; the value cut to [`SHOWN_CHARS`] chars.
pub fn relative_path<V: TextField + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    let Some(s) = value.text() else { return };
    if let Some(problem) = relative_path_problem(s) {
        report.push(Violation::with_message(code, path, |at| {
            message!(
                at,
                "`{at}` `{}` must be a relative path without `..` (it {problem})",
                shown(s)
            )
        }));
    }
}

/// Whether a value counts as given, for [`required`] and [`required_if`].
///
/// Implemented for `Option<T>` (`None` is `"missing"`, `Some(x)` is whatever `x` is), text
/// (`str`, `String`, `Cow<str>`, and `Box<str>` through `Box<T>`: `""` is `"empty"`,
/// other blank text `"blank"`), lists (`Vec<T>`, `[T]`,
/// `[T; N]`: empty is `"empty"`), `&T`, `Box<T>`, and numbers, `bool` and `char` (always
/// given). Any other type opts in with an empty impl, which counts every value as given:
///
/// ```
/// struct Budget { tokens: u32 }
/// impl specmint_runtime::rules::Filled for Budget {}
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `Filled`",
    label = "`required` and `required_if` need `Filled`",
    note = "opt in with an empty `impl specmint_runtime::rules::Filled for {Self} {{}}` (every value counts as given)"
)]
pub trait Filled {
    /// `None` when the value counts as given; otherwise why not: `"missing"`, `"empty"` or
    /// `"blank"`.
    fn unfilled(&self) -> Option<&'static str> {
        None
    }
}

fn text_unfilled(s: &str) -> Option<&'static str> {
    if s.is_empty() {
        Some("empty")
    } else if is_blank(s) {
        Some("blank")
    } else {
        None
    }
}

impl Filled for str {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl Filled for String {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl Filled for Cow<'_, str> {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl<T> Filled for [T] {
    fn unfilled(&self) -> Option<&'static str> {
        self.is_empty().then_some("empty")
    }
}

impl<T, const N: usize> Filled for [T; N] {
    fn unfilled(&self) -> Option<&'static str> {
        self.as_slice().unfilled()
    }
}

impl<T> Filled for Vec<T> {
    fn unfilled(&self) -> Option<&'static str> {
        self.as_slice().unfilled()
    }
}

impl<T: Filled> Filled for Option<T> {
    fn unfilled(&self) -> Option<&'static str> {
        match self {
            Some(value) => value.unfilled(),
            None => Some("missing"),
        }
    }
}

impl<T: Filled + ?Sized> Filled for &T {
    fn unfilled(&self) -> Option<&'static str> {
        (**self).unfilled()
    }
}

impl<T: Filled + ?Sized> Filled for Box<T> {
    fn unfilled(&self) -> Option<&'static str> {
        (**self).unfilled()
    }
}

macro_rules! always_filled {
    ($($t:ty),*) => { $(impl Filled for $t {})* };
}
always_filled!(
    bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64
);

/// `` `at` is required[ when `name` is `value`][ (it is why)] ``.
fn required_message(at: &str, why: &str, when: Option<(&str, &dyn Display)>) -> String {
    use core::fmt::Write as _;
    let mut message = message!(at, "`{at}` is required");
    // Writing to a String cannot fail.
    if let Some((name, value)) = when {
        let _ = write!(message, " when `{name}` is `{value}`");
    }
    if why != "missing" {
        let _ = write!(message, " (it is {why})");
    }
    message
}

/// The value must be given (see [`Filled`]): not `None`, and when it is text not blank,
/// when it is a list not empty.
///
/// Message: `` `objective` is required ``; for a value that is present but unfilled
/// `` `boundaries` is required (it is empty) `` or `` `objective` is required (it is blank) ``
/// (`empty` for `""`).
pub fn required<V: Filled + ?Sized>(
    value: &V,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) {
    if let Some(why) = value.unfilled() {
        report.push(Violation::with_message(code, path, |at| {
            required_message(at, why, None)
        }));
    }
}

/// When the sibling field `sibling_name` equals `equals`, the value must be given as for
/// [`required`]; otherwise nothing is checked.
///
/// Message: `` `payload.exclusion_reason` is required when `disposition` is `excluded` ``
/// (the sibling by its bare name and its `Display`), plus ` (it is empty)` / ` (it is blank)`
/// as for [`required`].
#[allow(clippy::too_many_arguments)]
pub fn required_if<V, S, E>(
    value: &V,
    sibling_name: &'static str,
    sibling: &S,
    equals: &E,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) where
    V: Filled + ?Sized,
    S: PartialEq<E> + Display + ?Sized,
    E: ?Sized,
{
    if *sibling != *equals {
        return;
    }
    if let Some(why) = value.unfilled() {
        report.push(Violation::with_message(code, path, |at| {
            required_message(at, why, Some((sibling_name, &sibling)))
        }));
    }
}

/// No element of the list field `list_name` (of the struct at `path`) may equal, verbatim,
/// the text of the field `value_name`; a `None` value or element is not checked. Every such
/// element is reported, at its own path (`list[j]`). `owner` names what the struct is
/// (`#[derive(Validate)]` passes the struct's name in lowercase words: `Task` → `task`).
///
/// Message: `` `dependsOn[1]` is the task's own `taskID` `t-9` `` (the value by its bare
/// name, cut to [`SHOWN_CHARS`] chars).
#[allow(clippy::too_many_arguments)]
pub fn not_contains<L, V>(
    list: &L,
    list_name: &'static str,
    value: &V,
    value_name: &'static str,
    owner: &'static str,
    path: &Path<'_>,
    code: &'static str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    L::Item: TextField,
    V: TextField + ?Sized,
{
    let (Some(items), Some(own)) = (list.items(), value.text()) else {
        return;
    };
    let list_path = path.field(list_name);
    for (j, item) in items.iter().enumerate() {
        if item.text() == Some(own) {
            let at = list_path.index(j);
            report.push(Violation::with_message(code, &at, |at| {
                message!(
                    at,
                    "`{at}` is the {owner}'s own `{value_name}` `{}`",
                    shown(own)
                )
            }));
        }
    }
}

/// A declared byte count, for [`digest`]'s `length`: any integer, or an `Option` of one
/// (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a byte count",
    label = "`length` must name an integer field (or an `Option` of one)"
)]
pub trait ByteCount {
    /// The declared count, `None` when nothing is declared.
    fn byte_count(&self) -> Option<i128>;
}

macro_rules! byte_count {
    ($($t:ty),*) => {$(
        impl ByteCount for $t {
            fn byte_count(&self) -> Option<i128> {
                Some(i128::from(*self))
            }
        }
    )*};
}
byte_count!(u8, u16, u32, u64, i8, i16, i32, i64);

impl ByteCount for usize {
    fn byte_count(&self) -> Option<i128> {
        Some(i128::try_from(*self).unwrap_or(i128::MAX))
    }
}

impl ByteCount for isize {
    fn byte_count(&self) -> Option<i128> {
        Some(i128::try_from(*self).unwrap_or(i128::MAX))
    }
}

impl<T: ByteCount> ByteCount for Option<T> {
    fn byte_count(&self) -> Option<i128> {
        self.as_ref().and_then(ByteCount::byte_count)
    }
}

impl<T: ByteCount + ?Sized> ByteCount for &T {
    fn byte_count(&self) -> Option<i128> {
        (**self).byte_count()
    }
}

/// The fields [`digest`] reads, already taken out of the struct (the derive fills this in
/// with [`TextField::text`] and [`ByteCount::byte_count`]). Names are the fields' names in
/// paths.
#[derive(Clone, Copy)]
pub struct DigestFields<'a> {
    /// The declared SHA-256, hex (either case); `None`: the digest is not checked.
    pub sha256: Option<&'a str>,
    /// Name of the `sha256` field.
    pub sha256_name: &'static str,
    /// The content; `None`: nothing is checked.
    pub data: Option<&'a str>,
    /// Name of the `data` field.
    pub data_name: &'static str,
    /// How `data` is encoded, by its `Display`: `utf8` (its UTF-8 bytes) or `base64`
    /// (standard alphabet, padded). Any other encoding: nothing is checked.
    pub encoding: &'a dyn Display,
    /// A name for the content in messages (e.g. a file name), if any.
    pub label: Option<&'a str>,
    /// The declared byte count, if any.
    pub length: Option<i128>,
    /// Name of the `length` field (`""` when the rule has none).
    pub length_name: &'static str,
}

impl core::fmt::Debug for DigestFields<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DigestFields")
            .field("sha256", &self.sha256)
            .field("data", &self.data.map(shown))
            .field("encoding", &format_args!("{}", self.encoding))
            .field("label", &self.label)
            .field("length", &self.length)
            .finish_non_exhaustive()
    }
}

/// `true` when `value`'s `Display` is exactly `expected`, without allocating.
pub fn display_eq(value: &dyn Display, expected: &str) -> bool {
    struct Eq<'e> {
        rest: &'e str,
        ok: bool,
    }
    impl core::fmt::Write for Eq<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            match self.rest.strip_prefix(s) {
                Some(rest) if self.ok => self.rest = rest,
                _ => self.ok = false,
            }
            Ok(())
        }
    }
    let mut w = Eq {
        rest: expected,
        ok: true,
    };
    core::fmt::write(&mut w, format_args!("{value}")).is_ok() && w.ok && w.rest.is_empty()
}

/// Feeds the bytes `data` encodes into `sink`, chunk by chunk on the stack; `None` when the
/// encoding is unknown, `Some(Err(()))` when base64 does not decode.
fn decode_into(
    data: &str,
    encoding: &dyn Display,
    mut sink: impl FnMut(&[u8]),
) -> Option<Result<(), ()>> {
    use base64::Engine as _;
    if display_eq(encoding, "utf8") {
        sink(data.as_bytes());
        return Some(Ok(()));
    }
    if !display_eq(encoding, "base64") {
        return None;
    }
    // Standard alphabet with canonical padding: cutting the input at multiples of 4 chars
    // gives the same bytes (and the same verdict) as decoding it whole.
    const CHUNK: usize = 1024;
    let mut buf = [0u8; CHUNK / 4 * 3];
    let bytes = data.as_bytes();
    if bytes.len() % 4 != 0 {
        return Some(Err(()));
    }
    for chunk in bytes.chunks(CHUNK) {
        match base64::engine::general_purpose::STANDARD.decode_slice(chunk, &mut buf) {
            Ok(n) => sink(&buf[..n]),
            Err(_) => return Some(Err(())),
        }
    }
    Some(Ok(()))
}

fn hex_lower(bytes: &[u8; 32]) -> [u8; 64] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 64];
    for (i, b) in bytes.iter().enumerate() {
        out[2 * i] = HEX[usize::from(b >> 4)];
        out[2 * i + 1] = HEX[usize::from(b & 15)];
    }
    out
}

/// Cuts `s` to 8 chars, then `…`, for digests in messages.
fn short_hex(s: &str) -> Shown<'_> {
    Shown(s, 8)
}

/// The content of a struct must match its declared SHA-256 (and byte count). `path` is the
/// struct's. Nothing is checked when `data` is `None` or the encoding is neither `utf8` nor
/// `base64`; otherwise, when `sha256` or `length` is declared, the content is decoded
/// (without allocating) and hashed, and in this order:
///
/// - base64 that does not decode: `` `attachments[1].data` is not valid base64 `` (with a
///   label: `` `attachments[1].data` (`brief.txt`) is not valid base64 ``), path the data
///   field's; nothing else is checked;
/// - a declared digest that differs (hex compared ignoring ASCII case):
///   `` `attachments[1]` (`brief.txt`): declared sha256 `abcdef01…` does not match its bytes (`e3b0c442…`) ``
///   (without a label: `` `attachments[1]`: declared ... ``; at the root: `the document: ...`;
///   both digests cut to 8 chars), path the `sha256` field's;
/// - a declared byte count that differs:
///   `` `attachments[1].bytes` is 10 but `brief.txt` has 12 bytes `` (without a label, the
///   data field's path in backticks instead of the label), path the `length` field's.
pub fn digest(fields: &DigestFields<'_>, path: &Path<'_>, code: &'static str, report: &mut Report) {
    use sha2::Digest as _;
    let Some(data) = fields.data else { return };
    if fields.sha256.is_none() && fields.length.is_none() {
        return;
    }
    let mut hasher = sha2::Sha256::new();
    let mut len: u64 = 0;
    let decoded = decode_into(data, fields.encoding, |bytes| {
        hasher.update(bytes);
        len += n(bytes.len());
    });
    let label = fields.label.map(shown);
    match decoded {
        None => return,
        Some(Ok(())) => {}
        Some(Err(())) => {
            let at = path.field(fields.data_name);
            report.push(Violation::with_message(code, &at, |at| match label {
                Some(label) => message!(at, "`{at}` (`{label}`) is not valid base64"),
                None => message!(at, "`{at}` is not valid base64"),
            }));
            return;
        }
    }
    let actual: [u8; 32] = hasher.finalize().into();
    let actual = hex_lower(&actual);
    if let Some(declared) = fields.sha256 {
        if !declared.as_bytes().eq_ignore_ascii_case(&actual) {
            let at = path.field(fields.sha256_name);
            let subject = if path.is_root() {
                "the document".to_owned()
            } else {
                format!("`{path}`")
            };
            let actual = core::str::from_utf8(&actual).unwrap_or_default();
            let message = match label {
                Some(label) => format!(
                    "{subject} (`{label}`): declared sha256 `{}` does not match its bytes (`{}`)",
                    short_hex(declared),
                    short_hex(actual)
                ),
                None => format!(
                    "{subject}: declared sha256 `{}` does not match its bytes (`{}`)",
                    short_hex(declared),
                    short_hex(actual)
                ),
            };
            report.push(Violation::new(code, &at, message));
        }
    }
    if let Some(declared) = fields.length {
        if declared != i128::from(len) {
            let at = path.field(fields.length_name);
            let data = path.field(fields.data_name);
            let mut v = Violation::with_message(code, &at, |at| match label {
                Some(label) => message!(at, "`{at}` is {declared} but `{label}` has {len} bytes"),
                None => message!(at, "`{at}` is {declared} but `{data}` has {len} bytes"),
            });
            v.measured = Some(len);
            v.limit = u64::try_from(declared).ok();
            report.push(v);
        }
    }
}

/// [`unique_by`] for `#[derive(Validate)]`, fed one key at a time: the derived code pushes
/// each item's key itself, so no key accessor (a closure and its `dyn Fn` vtable) is
/// compiled per item type. Same comparisons, order and messages as [`unique_by`]: keys are
/// trimmed once, compared pairwise without allocating for at most [`SMALL_LIST`] items,
/// through a hash map above.
#[doc(hidden)]
pub struct UniqueByKeys<'a, 'r> {
    duplicates: Duplicates<'a>,
    key_name: &'static str,
    path: &'r Path<'r>,
    code: &'static str,
    report: &'r mut Report,
}

impl<'a, 'r> UniqueByKeys<'a, 'r> {
    /// Starts checking a list of `len` items (the number of keys that will be pushed).
    #[doc(hidden)]
    pub fn new(
        len: usize,
        key_name: &'static str,
        fold: Fold,
        path: &'r Path<'r>,
        code: &'static str,
        report: &'r mut Report,
    ) -> Self {
        UniqueByKeys {
            duplicates: Duplicates::new(len, fold),
            key_name,
            path,
            code,
            report,
        }
    }

    /// The next item's key; reports it if it duplicates an earlier one.
    #[doc(hidden)]
    pub fn key(&mut self, key: &'a str) {
        let j = self.duplicates.next;
        if let Some(i) = self.duplicates.push(Some(key)) {
            let later_item = self.path.index(j);
            let later = later_item.field(self.key_name);
            let first_item = self.path.index(i);
            let first = first_item.field(self.key_name);
            self.report
                .push(Violation::with_message(self.code, &later, |at| {
                    message!(at, "`{at}` `{}` duplicates `{first}`", key)
                }));
        }
    }
}
