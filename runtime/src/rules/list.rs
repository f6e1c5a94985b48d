//! Rules on a list: its length, its groups, duplicates and contradictions.

use core::fmt::Display;
use std::borrow::Cow;
use std::collections::HashMap;

use crate::path::Path;
use crate::report::{Report, Violation};

use super::{n, ListField, Named, TextField, SMALL_LIST};

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
    let (mut a, mut b) = (&a[start..], &b[start..]);
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    // Char by char while both chars lowercase to one char known without a table (ASCII, or
    // a caseless CJK or Hangul char): the first pair whose lowercase differs decides, as it
    // would in the sequences of lowercase chars. From the first char that may fold otherwise,
    // the rest is compared by its lowercase chars.
    loop {
        let (mut rest_a, mut rest_b) = (a.chars(), b.chars());
        match (rest_a.next(), rest_b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => match (caseless_lower(x), caseless_lower(y)) {
                (Some(x), Some(y)) if x != y => return false,
                (Some(_), Some(_)) => (a, b) = (rest_a.as_str(), rest_b.as_str()),
                _ => break,
            },
            _ => break,
        }
    }
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// `c`'s lowercase when it is one char known without Unicode's tables: an ASCII letter's
/// ASCII lowercase, or `c` itself for the caseless CJK symbols, kana and ideographs
/// (U+3000 to U+9FFF) and Hangul syllables (U+AC00 to U+D7A3). `None` for any other char.
#[inline]
fn caseless_lower(c: char) -> Option<char> {
    if c.is_ascii() {
        Some(c.to_ascii_lowercase())
    } else if matches!(c, '\u{3000}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7A3}') {
        Some(c)
    } else {
        None
    }
}

/// A hash of `key` as [`fold_eq`] compares it (untrimmed: trim first), so keys equal under the
/// fold have equal fingerprints and a pair whose fingerprints differ needs no comparison.
/// `fold_eq` with `ignore_case` compares the keys' lowercase chars (its ASCII shortcut and its
/// skipped common prefix agree with that), so that is what is hashed, an ASCII byte as its
/// char; without it, the bytes.
fn fingerprint(key: &str, ignore_case: bool) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut hash = 0u64;
    let mut feed = |unit: u32| hash = (hash.rotate_left(5) ^ u64::from(unit)).wrapping_mul(K);
    if !ignore_case {
        key.bytes().for_each(|b| feed(u32::from(b)));
    } else if key.is_ascii() {
        key.bytes()
            .for_each(|b| feed(u32::from(b.to_ascii_lowercase())));
    } else {
        key.chars()
            .flat_map(char::to_lowercase)
            .for_each(|c| feed(u32::from(c)));
    }
    hash
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

/// The list must have at most `max` items. `None` passes.
///
/// Message: `` `constraints` has 13 items (max 12) ``.
#[inline]
pub fn max_items<L: ListField + ?Sized>(
    list: &L,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) {
    max_items_len(list.items().map(<[L::Item]>::len), path, max, code, report);
}

/// [`max_items`] on the list's length, for `#[derive(Validate)]`, which takes the length
/// itself (through `crate::__private`).
pub fn max_items_len(
    len: Option<usize>,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) {
    let Some(len) = len else { return };
    if len > max {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` has {len} items (max {max})")
            })
            .with_numbers(n(len), n(max))
        });
    }
}

/// The list must have at least `min` items. `None` passes.
///
/// Message: `` `tags` has 1 items (min 2) ``.
pub fn min_items<L: ListField + ?Sized>(
    list: &L,
    path: &Path<'_>,
    min: usize,
    code: &str,
    report: &mut Report,
) {
    min_items_len(list.items().map(<[L::Item]>::len), path, min, code, report);
}

/// [`min_items`] on the list's length, for `#[derive(Validate)]` (see [`max_items_len`]).
pub fn min_items_len(
    len: Option<usize>,
    path: &Path<'_>,
    min: usize,
    code: &str,
    report: &mut Report,
) {
    let Some(len) = len else { return };
    if len < min {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                message!(at, "`{at}` has {len} items (min {min})")
            })
            .with_numbers(n(len), n(min))
        });
    }
}

/// At most `max` items may share one value of the `by` field, which is named `kind`
/// ([`max_items_per_group_named`] for any other name). One violation per offending group, in
/// order of the group's first item; the path is the list's.
///
/// Message: `` `acceptance` has 7 items of kind `must_use_tools` (max 6) ``.
pub fn max_items_per_group<L, K, F>(
    list: &L,
    by: F,
    path: &Path<'_>,
    max: usize,
    code: &str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    K: PartialEq + Display + ?Sized,
    F: Fn(&L::Item) -> &K,
{
    max_items_per_group_named(list, by, "kind", path, max, code, report);
}

/// [`max_items_per_group`] with the `by` field's name, which the message names: an item may
/// have a real field called `kind` beside the one it is grouped by.
///
/// Message: `` `images` has 3 items whose `hardware_rev` is `rev_c` (max 2) `` (for
/// `by_name` `kind`, `` items of kind `rev_c` ``).
pub fn max_items_per_group_named<L, K, F>(
    list: &L,
    by: F,
    by_name: &str,
    path: &Path<'_>,
    max: usize,
    code: &str,
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
            report.push_with(|| {
                Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                    if by_name == "kind" {
                        message!(at, "`{at}` has {count} items of kind `{kind}` (max {max})")
                    } else {
                        message!(
                            at,
                            "`{at}` has {count} items whose `{by_name}` is `{kind}` (max {max})"
                        )
                    }
                })
                .with_numbers(n(count), n(max))
                .with_other(format!("{}[].{by_name}", path.dotted()))
                .with_expected(super::quoted(kind))
            });
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
    seen: Seen<'a>,
    next: usize,
    fold: Fold,
}

/// The keys [`Duplicates`] has seen.
// The pairwise arrays are the point: on the stack, not behind an allocation.
#[allow(clippy::large_enum_variant)]
enum Seen<'a> {
    /// None yet, in pairwise mode: an empty list builds no arrays.
    Nothing,
    /// Pairwise mode: the keys so far, trimmed when `fold.trim`, and each one's
    /// [`fingerprint`] (only keys with equal fingerprints are compared).
    Pairwise {
        keys: [Option<&'a str>; SMALL_LIST],
        prints: [u64; SMALL_LIST],
    },
    /// Hash mode: folded key → first index.
    Hashed(HashMap<Cow<'a, str>, usize>),
}

impl<'a> Duplicates<'a> {
    /// For a list of about `len` keys.
    #[inline]
    fn new(len: usize, fold: Fold) -> Self {
        Duplicates {
            seen: if len > SMALL_LIST {
                Seen::Hashed(HashMap::with_capacity(len))
            } else {
                Seen::Nothing
            },
            next: 0,
            fold,
        }
    }

    /// The next item's key (`None`: the item has none and is skipped); returns the index of
    /// the first earlier item with an equal key.
    fn push(&mut self, key: Option<&'a str>) -> Option<usize> {
        let j = self.next;
        self.next += 1;
        // More keys than announced: on to hash mode.
        if j >= SMALL_LIST {
            match &self.seen {
                Seen::Pairwise { keys, .. } => {
                    let mut first = HashMap::with_capacity(2 * SMALL_LIST);
                    for (i, k) in keys.iter().enumerate() {
                        if let Some(k) = k {
                            first.entry(fold_key(k, self.fold)).or_insert(i);
                        }
                    }
                    self.seen = Seen::Hashed(first);
                }
                Seen::Nothing => self.seen = Seen::Hashed(HashMap::new()),
                Seen::Hashed(_) => {}
            }
        }
        let key = key?;
        if let Seen::Nothing = self.seen {
            self.seen = Seen::Pairwise {
                keys: [None; SMALL_LIST],
                prints: [0; SMALL_LIST],
            };
        }
        match &mut self.seen {
            Seen::Hashed(first) => match first.entry(fold_key(key, self.fold)) {
                std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(j);
                    None
                }
            },
            Seen::Pairwise { keys, prints } => {
                let kj = if self.fold.trim { key.trim() } else { key };
                let fold = Fold {
                    trim: false,
                    ..self.fold
                };
                let print = fingerprint(kj, fold.ignore_case);
                let found = (0..j).find(|&i| {
                    prints[i] == print && keys[i].is_some_and(|ki| fold_eq(ki, kj, fold))
                });
                keys[j] = Some(kj);
                prints[j] = print;
                found
            }
            Seen::Nothing => unreachable!("a key was just seen"),
        }
    }
}

/// A `unique_by` key as the derive reads it: a key field of a type that is `AsRef<str>`
/// (`String`, an enum) or an `Option` of one (a key read as optional because a rule checks
/// its presence; `None` is skipped). The derive writes `(&KeyProbe(&item.key)).unique_key()`
/// with both traits in scope: method lookup tries `&KeyProbe<Option<T>>` ([`OptionalKey`])
/// before `KeyProbe<T>` ([`PlainKey`]), so each concrete key type finds its reading.
pub struct KeyProbe<'a, T: ?Sized>(pub &'a T);

impl<T: ?Sized> Clone for KeyProbe<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for KeyProbe<'_, T> {}

/// [`KeyProbe`]'s reading of an optional key.
pub trait OptionalKey<'a> {
    /// The key's text, `None` when absent.
    fn unique_key(self) -> Option<&'a str>;
}

impl<'a, T: AsRef<str>> OptionalKey<'a> for &KeyProbe<'a, Option<T>> {
    fn unique_key(self) -> Option<&'a str> {
        self.0.as_ref().map(AsRef::as_ref)
    }
}

/// [`KeyProbe`]'s reading of a key that is always there.
pub trait PlainKey<'a> {
    /// The key's text.
    fn unique_key(self) -> Option<&'a str>;
}

impl<'a, T: AsRef<str> + ?Sized> PlainKey<'a> for KeyProbe<'a, T> {
    fn unique_key(self) -> Option<&'a str> {
        Some(self.0.as_ref())
    }
}

/// No two items may have equal keys (compared under `fold`). Each later duplicate is
/// reported once, against the first item with that key; the path is the later item's key
/// (`list[j].key_name`).
///
/// Message: `` `constraints[2].id` `C1` duplicates `constraints[0].id` ``.
pub fn unique_by<L, F>(
    list: &L,
    key_name: &str,
    key: F,
    fold: Fold,
    path: &Path<'_>,
    code: &str,
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
    key_name: &str,
    fold: Fold,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    let mut keys = UniqueByKeys::new(len, key_name, fold, path, code, report);
    for i in 0..len {
        keys.key(Some(key(i)));
    }
}

/// No two elements of a list of text may be equal (compared under `fold`); `None` elements
/// are skipped. Each later duplicate is reported once, against the first equal element,
/// showing the later element verbatim; the path is the later element (`list[j]`).
///
/// Message: `` `dependsOn[2]` `t-1` repeats `dependsOn[0]` ``.
pub fn unique<L>(list: &L, fold: Fold, path: &Path<'_>, code: &str, report: &mut Report)
where
    L: ListField + ?Sized,
    L::Item: TextField,
{
    let Some(items) = list.items() else { return };
    each_duplicate(items, TextField::text, fold, |j, i| {
        let later = path.index(j);
        let first = path.index(i);
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), &later, |at| {
                let text = items[j].text().unwrap_or_default();
                message!(at, "`{at}` `{text}` repeats `{first}`")
            })
            .with_other(first.dotted())
        });
    });
}

/// An accessor reading a text member from a list item (`contradiction`'s value), taken as a
/// trait object so that a [`Named`] can carry it: a closure in a struct field gets no
/// signature from the rule's bounds.
pub type TextOf<'f, I> = &'f dyn Fn(&I) -> &str;

/// An item whose `by` is one side of a [`Pair`] and whose `value` equals (verbatim, or
/// ignoring case when the pair says so) the `value` of an earlier item on the other side is
/// refused. Each later item is reported once, against the first earlier item it contradicts;
/// the path is the later item's value (`list[j].value`, by the name [`Named`] gives it).
///
/// Message: `` `acceptance[1].value` `mail_send` (must_not_use_tools) contradicts
/// `acceptance[0].value` (must_use_tools) ``.
pub fn contradiction<L, K, P, FB>(
    list: &L,
    by: FB,
    value: Named<TextOf<'_, L::Item>>,
    pairs: &[Pair<P>],
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) where
    L: ListField + ?Sized,
    K: PartialEq<P> + Display + ?Sized,
    FB: Fn(&L::Item) -> &K,
{
    // One item contradicts nothing.
    let Some(items) = list.items().filter(|items| items.len() > 1) else {
        return;
    };
    let Named {
        name: value_name,
        value,
    } = value;
    let sides = |k: &K, p: &Pair<P>| (*k == p.a, *k == p.b);
    let found = |j: usize, i: usize, report: &mut Report| {
        let later_item = path.index(j);
        let later = later_item.field(value_name);
        let first_item = path.index(i);
        let first = first_item.field(value_name);
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), &later, |at| {
                message!(
                    at,
                    "`{at}` `{}` ({}) contradicts `{first}` ({})",
                    value(&items[j]),
                    by(&items[j]),
                    by(&items[i]),
                )
            })
            .with_other(first.dotted())
        });
    };
    if items.len() <= SMALL_LIST && pairs.len() <= 32 {
        // Each item's sides, read once: bit 2p when its `by` is pair p's `a`, bit 2p + 1
        // when it is its `b`. Two items stand opposed on pair p when one has bit 2p and the
        // other bit 2p + 1; only then are their values compared.
        const A: u64 = 0x5555_5555_5555_5555;
        let mut sides_of = [0u64; SMALL_LIST];
        for (bits, item) in sides_of.iter_mut().zip(items) {
            let kind = by(item);
            for (p, pair) in pairs.iter().enumerate() {
                let (on_a, on_b) = sides(kind, pair);
                *bits |= (u64::from(on_a) | u64::from(on_b) << 1) << (2 * p);
            }
        }
        for j in 1..items.len() {
            let sj = sides_of[j];
            if sj == 0 {
                continue;
            }
            let first = (0..j).find(|&i| {
                let si = sides_of[i];
                let opposed = (si & (sj >> 1) & A) | ((si >> 1) & sj & A);
                opposed != 0
                    && pairs.iter().enumerate().any(|(p, pair)| {
                        opposed >> (2 * p) & 1 == 1
                            && fold_eq(
                                value(&items[i]),
                                value(&items[j]),
                                Fold {
                                    trim: false,
                                    ignore_case: pair.ignore_case,
                                },
                            )
                    })
            });
            if let Some(i) = first {
                found(j, i, report);
            }
        }
        return;
    }
    // A long list, or more pairs than the bits hold: per pair, one map per side from value key
    // to the first item with it.
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

/// [`unique_by`] for `#[derive(Validate)]`, fed one key at a time: the derived code pushes
/// each item's key itself, so no key accessor (a closure and its `dyn Fn` vtable) is
/// compiled per item type. Same comparisons, order and messages as [`unique_by`]: keys are
/// trimmed once, compared pairwise without allocating for at most [`SMALL_LIST`] items,
/// through a hash map above. Reached through `crate::__private` (generated code) and
/// [`crate::interp`] (a spec loaded at run time).
pub struct UniqueByKeys<'a, 'r> {
    duplicates: Duplicates<'a>,
    key_name: &'r str,
    path: &'r Path<'r>,
    code: &'r str,
    report: &'r mut Report,
}

impl<'a, 'r> UniqueByKeys<'a, 'r> {
    /// Starts checking a list of `len` items (the number of keys that will be pushed).
    // Inlined where the derive calls it, so the key arrays are built in the caller's frame,
    // not built and then moved.
    #[inline]
    pub fn new(
        len: usize,
        key_name: &'r str,
        fold: Fold,
        path: &'r Path<'r>,
        code: &'r str,
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

    /// The next item's key; reports it if it duplicates an earlier one. `None` (an item
    /// without its key: a requirement on the key reports that) duplicates nothing and nothing
    /// duplicates it.
    pub fn key(&mut self, key: Option<&'a str>) {
        let j = self.duplicates.next;
        let Some(key) = key else {
            self.duplicates.push(None);
            return;
        };
        if let Some(i) = self.duplicates.push(Some(key)) {
            let later_item = self.path.index(j);
            let later = later_item.field(self.key_name);
            let first_item = self.path.index(i);
            let first = first_item.field(self.key_name);
            self.report.push_with(|| {
                Violation::with_message(crate::report::Code::copy_of(self.code), &later, |at| {
                    message!(at, "`{at}` `{}` duplicates `{first}`", key)
                })
                .with_other(first.dotted())
            });
        }
    }
}

/// One member of a compound `unique_by` key, as [`UniqueKeys`] compares it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyValue<'a> {
    /// Text, compared under the rule's [`Fold`].
    Text(&'a str),
    /// An enum value as spelled, compared as spelled (no fold).
    Symbol(&'a str),
    /// An integer.
    Integer(i128),
    /// A number, compared as `f64` (`-0` equals `0`).
    Number(f64),
    /// A `bool`.
    Bool(bool),
}

impl Display for KeyValue<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            KeyValue::Text(s) | KeyValue::Symbol(s) => f.write_str(s),
            KeyValue::Integer(n) => write!(f, "{n}"),
            KeyValue::Number(x) => write!(f, "{x}"),
            KeyValue::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// A key member of a compound `unique_by(key = (a, b, ..))`: its value as compared, `None`
/// when absent (an item with an absent key member is compared with no other).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a member of a compound unique key",
    label = "key members are text, integers, `f64`, `bool`, an enum implementing `KeyMember` (`KeyValue::Symbol(self.as_str())`) or an `Option` of one"
)]
pub trait KeyMember {
    /// The value, `None` when absent.
    fn key_value(&self) -> Option<KeyValue<'_>>;
}

macro_rules! key_members {
    ($variant:ident($via:ty): $($t:ty),*) => {$(
        impl KeyMember for $t {
            fn key_value(&self) -> Option<KeyValue<'_>> {
                Some(KeyValue::$variant(<$via>::from(*self)))
            }
        }
    )*};
}

key_members!(Integer(i128): u8, u16, u32, u64, i8, i16, i32, i64);
key_members!(Number(f64): f32, f64);
key_members!(Bool(bool): bool);

impl KeyMember for str {
    fn key_value(&self) -> Option<KeyValue<'_>> {
        Some(KeyValue::Text(self))
    }
}

impl KeyMember for String {
    fn key_value(&self) -> Option<KeyValue<'_>> {
        Some(KeyValue::Text(self))
    }
}

impl<T: KeyMember + ?Sized> KeyMember for &T {
    fn key_value(&self) -> Option<KeyValue<'_>> {
        (**self).key_value()
    }
}

impl<T: KeyMember> KeyMember for Option<T> {
    fn key_value(&self) -> Option<KeyValue<'_>> {
        self.as_ref().and_then(KeyMember::key_value)
    }
}

/// `member`'s [`KeyMember::key_value`], as the derive calls it (a type that is no key member
/// is then an error at the member, not at the derive).
pub fn key_value<T: KeyMember + ?Sized>(member: &T) -> Option<KeyValue<'_>> {
    member.key_value()
}

/// A key member as hashed: text folded, a number with `-0` made `0`.
#[derive(PartialEq, Eq, Hash)]
enum Canon<'a> {
    Text(Cow<'a, str>),
    Symbol(&'a str),
    Integer(i128),
    Number(u64),
    Bool(bool),
}

/// The compound form of [`unique_by`]: items are duplicates when every key member is equal
/// (text under the fold, enum values as spelled, numbers as `f64` with `-0` equal to `0`).
/// An item with an absent member duplicates nothing and nothing duplicates it (SQL's
/// `UNIQUE` over nullable columns). Fed one item at a time, as [`UniqueByKeys`]; each later
/// duplicate is reported once, against the first item with its key, at the later item's
/// path (`list[j]`), naming every member and the later item's values.
///
/// Message: `` `vat_breakdown[2]` (`category` `S`, `rate` `21`) repeats `vat_breakdown[0]` ``.
pub struct UniqueKeys<'a, 'r> {
    names: &'r [&'r str],
    fold: Fold,
    first: HashMap<Vec<Canon<'a>>, usize>,
    next: usize,
    path: &'r Path<'r>,
    code: &'r str,
    report: &'r mut Report,
}

impl<'a, 'r> UniqueKeys<'a, 'r> {
    /// Starts checking a list of about `len` items whose key members are `names`.
    pub fn new(
        len: usize,
        names: &'r [&'r str],
        fold: Fold,
        path: &'r Path<'r>,
        code: &'r str,
        report: &'r mut Report,
    ) -> Self {
        UniqueKeys {
            names,
            fold,
            first: HashMap::with_capacity(len),
            next: 0,
            path,
            code,
            report,
        }
    }

    /// The next item's key members, in the order of `names`.
    pub fn item(&mut self, values: &[Option<KeyValue<'a>>]) {
        let j = self.next;
        self.next += 1;
        let mut key = Vec::with_capacity(values.len());
        for v in values {
            let Some(v) = v else { return };
            key.push(match *v {
                KeyValue::Text(s) => Canon::Text(fold_key(s, self.fold)),
                KeyValue::Symbol(s) => Canon::Symbol(s),
                KeyValue::Integer(n) => Canon::Integer(n),
                KeyValue::Number(x) => Canon::Number((x + 0.0).to_bits()),
                KeyValue::Bool(b) => Canon::Bool(b),
            });
        }
        let i = match self.first.entry(key) {
            std::collections::hash_map::Entry::Occupied(e) => *e.get(),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(j);
                return;
            }
        };
        let later = self.path.index(j);
        let first = self.path.index(i);
        let names = self.names;
        self.report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(self.code), &later, |at| {
                let shown = names
                    .iter()
                    .zip(values)
                    .map(|(n, v)| {
                        format!(
                            "`{n}` `{}`",
                            v.as_ref().map(ToString::to_string).unwrap_or_default()
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                message!(at, "`{at}` ({shown}) repeats `{first}`")
            })
            .with_other(first.dotted())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// Keys built from pieces whose case folds are tricky: the Kelvin sign folds to ASCII `k`,
    /// `İ` to two chars, final and medial sigma, `ß`, full-width letters, spaces to trim.
    fn key(rng: &mut Rng) -> String {
        const PIECES: &[&str] = &[
            "k", "K", "\u{212A}", "i", "I", "\u{130}", "i\u{307}", "\u{3A3}", "\u{3C3}", "\u{3C2}",
            "ß", "SS", "ss", "\u{FF21}", "\u{FF41}", "c1", "C1", " ", "\u{3000}", "整理", "-", "é",
            "E\u{301}", "\u{C9}", "理", "한", "\u{9FFF}", "\u{A000}",
        ];
        (0..rng.below(4)).map(|_| rng.pick(PIECES)).collect()
    }

    #[test]
    fn keys_equal_under_the_fold_have_equal_fingerprints() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut equal_pairs = 0;
        for _ in 0..20_000 {
            let (a, b) = (key(&mut rng), key(&mut rng));
            for ignore_case in [false, true] {
                let fold = Fold {
                    trim: false,
                    ignore_case,
                };
                if fold_eq(&a, &b, fold) {
                    equal_pairs += 1;
                    assert_eq!(
                        fingerprint(&a, ignore_case),
                        fingerprint(&b, ignore_case),
                        "{a:?} and {b:?} (ignore_case {ignore_case})"
                    );
                }
            }
        }
        // Enough pairs equal only under the fold (`K` and the Kelvin sign, `SS` and `ss`).
        assert!(equal_pairs > 2_000, "only {equal_pairs} equal pairs");
    }

    #[test]
    fn the_chars_taken_as_caseless_lowercase_to_themselves() {
        for c in ('\u{0}'..='\u{10FFFF}').filter(|&c| caseless_lower(c).is_some()) {
            let lower: Vec<char> = c.to_lowercase().collect();
            assert_eq!(lower, [caseless_lower(c).unwrap()], "{c:?}");
        }
    }

    #[test]
    fn fold_eq_compares_the_lowercase_chars() {
        let mut rng = Rng(0x0123_4567_89ab_cdef);
        let lower = |s: &str| -> Vec<char> { s.chars().flat_map(char::to_lowercase).collect() };
        let mut equal = 0;
        for _ in 0..50_000 {
            let (a, b) = (key(&mut rng), key(&mut rng));
            let fold = Fold {
                trim: false,
                ignore_case: true,
            };
            let want = lower(&a) == lower(&b);
            assert_eq!(fold_eq(&a, &b, fold), want, "{a:?} and {b:?}");
            equal += usize::from(want);
        }
        assert!(equal > 2_000, "only {equal} equal pairs");
    }

    #[test]
    fn keys_after_more_keyless_items_than_announced_are_compared() {
        let mut duplicates = Duplicates::new(
            0,
            Fold {
                trim: true,
                ignore_case: true,
            },
        );
        for _ in 0..SMALL_LIST + 3 {
            assert_eq!(duplicates.push(None), None);
        }
        assert_eq!(duplicates.push(Some("A")), None);
        assert_eq!(duplicates.push(Some(" a ")), Some(SMALL_LIST + 3));
    }

    #[test]
    fn duplicates_are_found_as_comparing_every_pair_finds_them() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..2_000 {
            let len = rng.below(SMALL_LIST + 8);
            let keys: Vec<Option<String>> = (0..len)
                .map(|_| (rng.below(8) != 0).then(|| key(&mut rng)))
                .collect();
            let fold = Fold {
                trim: round % 2 == 0,
                ignore_case: round % 3 != 0,
            };
            let mut duplicates = Duplicates::new(if round % 5 == 0 { 0 } else { len }, fold);
            for (j, kj) in keys.iter().enumerate() {
                let want = kj.as_deref().and_then(|kj| {
                    (0..j).find(|&i| keys[i].as_deref().is_some_and(|ki| fold_eq(ki, kj, fold)))
                });
                assert_eq!(
                    duplicates.push(kj.as_deref()),
                    want,
                    "key {j} of {keys:?} under {fold:?}"
                );
            }
        }
    }
}
