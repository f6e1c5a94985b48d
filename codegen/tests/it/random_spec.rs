//! The random-spec generator: small random but valid specs (`.md` + `.toml`), seeded so a
//! failure replays, with this file's own reading of each generated spec ([`RandomSpec::violations`],
//! an oracle written from the spec's rules, not from the model). Used by `random_specs` (the
//! corpus property) and `diff_random` (the `diff` property).
//!
//! What a spec may use:
//! - text: plain, `non-blank`, `string? matching` / `string matching` (portable patterns),
//!   with char caps and `at least N chars` minimums; lists of text with item caps,
//!   `at least N items` minimums and `[[unique]]` (with or without `ignore_case` / `trim`);
//! - formats `date-time`, `date`, `uri`, `email`: plain, nullable (`?`) and in lists (`[]`),
//!   with char caps and minimums, at the root and in the nested object and list of objects;
//! - enums: a field (required or `— (default dark)`), a list of enum values (`shade[]`,
//!   maybe `[[unique]]`, compared as spelled);
//! - a states table with its transitions, used as a field type: `phase`, `— (default new)`,
//!   `phase?`, `phase[]` (maybe `[[unique]]`), and as the kind of the list's objects;
//! - integers: `uint32`, `bool`, and ranges on `int32` / `uint32` / `int64` / `uint64`
//!   (one end open or both closed, bounds beyond 2^53 and at the 64-bit limits), plain,
//!   nullable or in lists;
//! - decimal ranges on `number` (`number -90..=90`, `number? 0..=359.5`, `number[] ..=1e3`:
//!   one end open or both closed, whole or fractional bounds, maybe 0), plain, nullable or in
//!   lists;
//! - `required_if`: a `string?`, `uint32?`, ranged integer `?`, `phase?` or format `?`
//!   field required while a sibling holds a value, the sibling a `bool` (required or `— (default false)`), text (plain,
//!   non-blank or patterned; required or with a stated default) or an enum (required or
//!   with a default), at the root and in the nested object;
//! - a list of objects unique by a key (text, patterned or enum; or compound, (`kind`, `name`)), a nested object, and a
//!   document byte cap;
//! - a per-group cap on the list of objects by its enum `kind` (its code maybe the item
//!   cap's own), coded requirements (``✔ `missing` ``) on non-blank or patterned text and
//!   on lists, and a byte cap where the first root text field cannot carry the padding (a fixed-length
//!   pattern or a char cap) but a later one can: the corpus must then have every byte-cap
//!   case.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{json, Value};
use specmint_codegen::SpecSource;

/// Portable patterns (see docs/spec-format.md) and a value each matches.
pub(crate) const PATTERNS: &[(&str, &str)] = &[
    ("^[A-Za-z0-9-]+$", "Ab-3"),
    (
        "^https?://[a-z0-9-]+(?:\\.[a-z0-9-]+)*(?:/[a-z0-9_-]*)*$",
        "https://ex.com/a",
    ),
    ("^pkg_[A-Za-z0-9_-]{1,63}$", "pkg_x1"),
    ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2024-01-31"),
    ("^[a-z]+(?:-[a-z]+)*$", "ab-cd"),
    ("^v[0-9]+\\.[0-9]+$", "v1.2"),
    ("^[A-Z]{3}$", "ABC"),
    ("^[a-z][a-z0-9_]*$", "a1"),
    ("[0-9]", "a1"),
    ("^(?:red|green|blue)$", "red"),
    ("^[^/\\n]+$", "a b"),
];

pub(crate) const SHADES: &[&str] = &["dark", "light", "dim"];

/// The states of the `phase` machine; `done` is terminal, `new` the default.
pub(crate) const PHASES: &[&str] = &["new", "active", "done"];

/// The format types, as spelled in a Type cell.
pub(crate) const FORMATS: &[&str] = &["date-time", "date", "uri", "email"];

/// 2^53: beyond it JavaScript reads a JSON integer as a neighbouring double.
pub(crate) const SAFE: i128 = 1 << 53;

/// splitmix64.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Ty {
    /// `string`, `non-blank string`, `string?` or `string matching`.
    Text {
        non_blank: bool,
        pattern: Option<usize>,
    },
    Shade,
    U32,
    /// `int32 A..=B` / `uint32 A..` / `int64? ..=B` / `uint64[] A..=B`: a bounded integer
    /// (`signed` and `wide` pick the width), maybe nullable, maybe a list.
    Ranged {
        signed: bool,
        wide: bool,
        min: Option<i128>,
        max: Option<i128>,
        list: bool,
    },
    /// `number A..=B` / `number? A..` / `number[] ..=B`: a number with decimal bounds.
    Decimal {
        min: Option<f64>,
        max: Option<f64>,
        list: bool,
    },
    /// `date-time` / `date` / `uri` / `email` (`FORMATS[kind]`): plain, `?` or `[]`.
    Format {
        kind: usize,
        list: bool,
    },
    /// A list of enum values (`shade[]`), or a field typed by the `phase` states table:
    /// `phase` (required, or `— (default new)`), `phase?`, `phase[]`.
    Choice {
        states: bool,
        list: bool,
        nullable: bool,
    },
    Bool,
    /// `string[]` / `non-blank string[]` / `string[] matching`.
    TextList {
        non_blank: bool,
        pattern: Option<usize>,
    },
    /// `entry[]`.
    Entries,
    /// `meta`.
    Meta,
}

#[derive(Clone, Debug)]
pub(crate) struct F {
    key: String,
    ty: Ty,
    required: bool,
    chars: Option<u64>,
    items: Option<u64>,
    /// `[[unique]]`: (ignore_case, trim).
    unique: Option<(bool, bool)>,
    /// `at least N chars` (of each element for a list).
    min_chars: Option<u64>,
    /// `at least N items` (required lists only: an optional one reads as `[]`).
    min_items: Option<u64>,
    /// ``if `sibling` is `v1` or `v2` `` (``unless …`` when the flag is set): required while
    /// the sibling (a bool, text or enum field of the same table) holds one of these JSON
    /// values (none of them, negated).
    when: Option<(String, Vec<Value>, bool)>,
    /// `— (default "V")` on an optional text field (no `?` then).
    default: Option<&'static str>,
    /// ``✔ `missing` ``: a coded requirement (absent, `null`, blank or empty is `missing`).
    coded: bool,
}

impl F {
    /// A field with no cap, minimum, uniqueness or condition.
    pub(crate) fn plain(key: impl Into<String>, ty: Ty, required: bool) -> F {
        F {
            key: key.into(),
            ty,
            required,
            chars: None,
            items: None,
            unique: None,
            min_chars: None,
            min_items: None,
            when: None,
            default: None,
            coded: false,
        }
    }
}

#[derive(Debug)]
pub(crate) struct RandomSpec {
    doc: Vec<F>,
    entry: Vec<F>,
    meta: Vec<F>,
    /// The entries' unique key, when any.
    entry_key: Option<String>,
    /// The key is compound, (`kind`, `name`) (issue 46): when the entries have a `kind` and
    /// the rule ignores case (no draw of its own, so the other specs stay as they were).
    entry_compound: bool,
    /// The document byte cap, set once the example is known.
    pub(crate) bytes: Option<u64>,
    /// `| per kind | N items |` on `entries` by their `kind` (a shade): N and its code.
    group_cap: Option<(u64, &'static str)>,
    /// The first root text field cannot carry the byte cap's padding and `body`, a later
    /// one, can: the spec always has a byte cap.
    pub(crate) pad_past_first: bool,
    /// A rules table with one row that always holds (issue 47): every struct of the spec then
    /// gives its members to the runtime's expressions, whatever its shape (set by
    /// [`random_sources`] with a draw of its own, so the other specs stay as they were).
    pub(crate) rules_row: bool,
}

/// A text field, patterned with `percent` chance.
pub(crate) fn text_field(rng: &mut Rng, key: String, percent: u64) -> F {
    let pattern = rng
        .chance(percent)
        .then(|| rng.below(PATTERNS.len() as u64) as usize);
    let non_blank = pattern.is_none() && rng.chance(50);
    let min = pattern.map_or(1, |p| PATTERNS[p].1.chars().count() as u64);
    F {
        key,
        ty: Ty::Text { non_blank, pattern },
        // A patterned text may be `string? matching` too.
        required: non_blank || rng.chance(if pattern.is_some() { 70 } else { 50 }),
        chars: rng.chance(70).then(|| min + rng.below(6)),
        items: None,
        unique: None,
        // At most the example value's length.
        min_chars: rng.chance(30).then(|| 1 + rng.below(min)),
        min_items: None,
        when: None,
        default: None,
        coded: false,
    }
}

/// A bounded integer field: one end or both, within the width, maybe below zero; a 64-bit
/// one may have an end beyond 2^53 (and the document still has a value within it).
pub(crate) fn ranged_field(rng: &mut Rng, key: String) -> F {
    let signed = rng.chance(50);
    let wide = rng.chance(40);
    let lo: i128 = match (signed, wide && rng.chance(40)) {
        (true, true) => {
            [-SAFE - 1 - rng.below(3) as i128, i128::from(i64::MIN)][rng.below(2) as usize]
        }
        (true, false) => -(rng.below(20) as i128),
        (false, _) => rng.below(5) as i128,
    };
    let hi = if lo < -SAFE || wide && rng.chance(40) {
        let top = if signed {
            i128::from(i64::MAX)
        } else {
            i128::from(u64::MAX)
        };
        [SAFE + 1 + rng.below(3) as i128, top - rng.below(2) as i128][rng.below(2) as usize]
    } else {
        lo + rng.below(30) as i128
    };
    let (min, max) = match rng.below(4) {
        // A lower end far below zero keeps its upper end: the example needs a small value.
        0 if lo >= -SAFE => (Some(lo), None),
        1 => (None, Some(hi)),
        _ => (Some(lo), Some(hi)),
    };
    let list = rng.chance(30);
    F::plain(
        key,
        Ty::Ranged {
            signed,
            wide,
            min,
            max,
            list,
        },
        !list && rng.chance(60),
    )
}

/// A number with decimal bounds (one end or both; whole, fractional, or 0), maybe
/// nullable, maybe a list.
pub(crate) fn decimal_field(rng: &mut Rng, key: String) -> F {
    const BOUNDS: &[f64] = &[-90.0, -0.5, 0.0, 0.25, 1.0, 359.5, 1e3, 1e-3];
    let pick = |rng: &mut Rng| BOUNDS[rng.below(BOUNDS.len() as u64) as usize];
    let (a, b) = (pick(rng), pick(rng));
    let (lo, hi) = (a.min(b), a.max(b));
    let (min, max) = match rng.below(4) {
        0 => (Some(lo), None),
        1 => (None, Some(hi)),
        _ => (Some(lo), Some(hi)),
    };
    let list = rng.chance(30);
    F::plain(key, Ty::Decimal { min, max, list }, !list && rng.chance(60))
}

/// A JSON number as a double, as the typed reader holds it and writes it back.
fn double(x: &Value) -> Value {
    x.as_f64().map_or_else(|| x.clone(), |n| json!(n))
}

/// A decimal bound as a Type cell writes it (`-90`, `359.5`, `0.001`).
fn decimal_text(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// A format field (`date`, `uri?`, `email[]`, ...), maybe capped or with a minimum length
/// (the example's values are 9 to 20 chars long, the corpus's samples 10 to 21).
pub(crate) fn format_field(rng: &mut Rng, key: String) -> F {
    let list = rng.chance(30);
    let mut f = F::plain(
        key,
        Ty::Format {
            kind: rng.below(FORMATS.len() as u64) as usize,
            list,
        },
        !list && rng.chance(50),
    );
    f.chars = rng.chance(30).then(|| 21 + rng.below(6));
    f.min_chars = rng.chance(20).then(|| 1 + rng.below(9));
    if list {
        f.items = rng.chance(50).then(|| 2 + rng.below(3));
    }
    f
}

/// A list of enum values or a states-typed field, lists maybe unique (compared as spelled).
pub(crate) fn choice_field(rng: &mut Rng, key: String) -> F {
    let states = rng.chance(60);
    let list = !states || rng.chance(40);
    let nullable = !list && rng.chance(40);
    let mut f = F::plain(
        key,
        Ty::Choice {
            states,
            list,
            nullable,
        },
        !list && !nullable && rng.chance(50),
    );
    if list {
        f.items = rng.chance(40).then(|| 2 + rng.below(3));
        f.unique = rng.chance(60).then_some((false, false));
    }
    f
}

/// A conditional field (`string?`, `uint32?`, a ranged `int64? A..=B`, `phase?` or a format
/// `?`) and the sibling it depends on: a bool (required, or `— (default false)`), text
/// (plain, non-blank or patterned; required, or with a stated default) or an enum
/// (required, or `— (default dark)`).
pub(crate) fn conditional_fields(rng: &mut Rng) -> [F; 2] {
    let (sibling, when) = match rng.below(3) {
        0 => (
            F::plain("c_on", Ty::Bool, rng.chance(50)),
            json!(rng.chance(50)),
        ),
        1 => {
            let pattern = rng
                .chance(30)
                .then(|| rng.below(PATTERNS.len() as u64) as usize);
            let non_blank = pattern.is_none() && rng.chance(50);
            let mut pick = || match pattern {
                Some(p) => PATTERNS[p].1,
                None if rng.chance(50) => "x",
                None => "shell",
            };
            let (when, default) = (pick(), pick());
            let mut sibling = F::plain("c_kind", Ty::Text { non_blank, pattern }, true);
            if rng.chance(40) {
                sibling.required = false;
                sibling.default = Some(default);
            }
            (sibling, json!(when))
        }
        _ => (
            F::plain("c_tone", Ty::Shade, rng.chance(50)),
            json!(SHADES[rng.below(SHADES.len() as u64) as usize]),
        ),
    };
    let ty = match rng.below(5) {
        0 => Ty::Text {
            non_blank: false,
            pattern: None,
        },
        1 => Ty::U32,
        2 => Ty::Choice {
            states: true,
            list: false,
            nullable: true,
        },
        3 => {
            let mut ranged = ranged_field(rng, String::new()).ty;
            if let Ty::Ranged { list, .. } = &mut ranged {
                *list = false;
            }
            ranged
        }
        _ => Ty::Format {
            kind: rng.below(FORMATS.len() as u64) as usize,
            list: false,
        },
    };
    // Text keeps its caps: a probe of them must not blank it while the condition holds.
    let shortest = match ty {
        Ty::Text { .. } => Some(1),
        Ty::Format { .. } => Some(21),
        _ => None,
    };
    let mut f = F::plain("c_val", ty, false);
    if let Some(n) = shortest {
        f.chars = rng.chance(30).then(|| n + rng.below(6));
        f.min_chars = rng.chance(30).then_some(1);
    }
    // A second value (another shade, the other text), and `unless`, now and then; drawn from
    // a side stream, so that the rest of every random spec stays what it was.
    let mut side = Rng(rng.0 ^ 0x5eed_c0de);
    let mut values = vec![when];
    if side.chance(30) {
        let second = match &sibling.ty {
            Ty::Shade => SHADES
                .iter()
                .map(|s| json!(s))
                .find(|s| !values.contains(s)),
            Ty::Text { pattern: None, .. } => Some(json!("other")),
            _ => None,
        };
        values.extend(second);
    }
    f.when = Some((sibling.key.clone(), values, side.chance(25)));
    [sibling, f]
}

pub(crate) fn random_spec(rng: &mut Rng) -> RandomSpec {
    let mut doc = vec![text_field(rng, "id".into(), 100)];
    for j in 0..1 + rng.below(5) {
        let key = format!("f{j}");
        let f = match rng.below(10) {
            0 | 1 => text_field(rng, key, 50),
            6 => ranged_field(rng, key),
            7 => format_field(rng, key),
            8 => choice_field(rng, key),
            2 => F::plain(key, Ty::Shade, rng.chance(50)),
            3 => F::plain(key, if rng.chance(50) { Ty::U32 } else { Ty::Bool }, true),
            _ => {
                // The example list has two items of one char each, or (patterned) one
                // item, the pattern's example value.
                let pattern = rng
                    .chance(30)
                    .then(|| rng.below(PATTERNS.len() as u64) as usize);
                let len = pattern.map_or(1, |p| PATTERNS[p].1.chars().count() as u64);
                let most = if pattern.is_some() { 1 } else { 2 };
                let min_items = rng.chance(30).then(|| 1 + rng.below(most));
                F {
                    chars: rng.chance(60).then(|| len + rng.below(6)),
                    items: rng.chance(70).then(|| 2 + rng.below(4)),
                    unique: rng.chance(50).then(|| (rng.chance(50), rng.chance(50))),
                    min_chars: rng.chance(30).then(|| 1 + rng.below(len)),
                    min_items,
                    ..F::plain(
                        key,
                        Ty::TextList {
                            non_blank: pattern.is_none() && rng.chance(50),
                            pattern,
                        },
                        min_items.is_some(),
                    )
                }
            }
        };
        doc.push(f);
    }
    if rng.chance(45) {
        doc.extend(conditional_fields(rng));
    }
    let mut entry = Vec::new();
    let mut entry_key = None;
    let mut entry_compound = false;
    if rng.chance(60) {
        let key = if rng.chance(50) {
            // The unique key of the entries is always there.
            let mut f = text_field(rng, "name".into(), 100);
            f.required = true;
            f
        } else {
            let mut f = text_field(rng, "name".into(), 0);
            f.ty = Ty::Text {
                non_blank: true,
                pattern: None,
            };
            f.required = true;
            f
        };
        if rng.chance(40) {
            let ty = if rng.chance(40) {
                Ty::Choice {
                    states: true,
                    list: false,
                    nullable: false,
                }
            } else {
                Ty::Shade
            };
            entry.push(F::plain("kind", ty, true));
        }
        entry.push(key);
        entry.push(if rng.chance(25) {
            format_field(rng, "note".into())
        } else {
            text_field(rng, "note".into(), 30)
        });
        doc.push(F {
            items: rng.chance(70).then(|| 2 + rng.below(4)),
            unique: rng.chance(70).then(|| (rng.chance(50), rng.chance(50))),
            ..F::plain("entries", Ty::Entries, false)
        });
        if let Some((ignore_case, _)) = doc.last().unwrap().unique {
            entry_key = Some("name".to_owned());
            entry_compound = ignore_case && entry.iter().any(|e| e.key == "kind");
        }
    }
    let mut meta = Vec::new();
    if rng.chance(40) {
        for j in 0..1 + rng.below(2) {
            let key = format!("m{j}");
            meta.push(if rng.chance(30) {
                format_field(rng, key)
            } else {
                text_field(rng, key, 50)
            });
        }
        if rng.chance(30) {
            meta.extend(conditional_fields(rng));
        }
        doc.push(F::plain("meta", Ty::Meta, true));
    }
    RandomSpec {
        doc,
        entry,
        meta,
        entry_key,
        entry_compound,
        bytes: None,
        group_cap: None,
        pad_past_first: false,
        rules_row: false,
    }
}

/// Patterns whose every match has one length (`PATTERNS` indexes): a field of one cannot
/// carry the byte cap's padding.
pub(crate) const FIXED_LENGTH: &[usize] = &[3, 6];

impl RandomSpec {
    /// The rules added from a second stream (`rng`), so the specs of the first stay as they
    /// were: coded requirements on required non-blank or patterned text and lists, a per-group cap on
    /// the entries by a shade `kind`, and a first root field that cannot carry the byte
    /// cap's padding before a `body` that can.
    pub(crate) fn extend(&mut self, rng: &mut Rng) {
        // A condition's sibling may be coded too (an `Option` in Rust, read by the struct's
        // own check; absent, the condition does not hold).
        for f in self.doc.iter_mut().chain(&mut self.entry) {
            let non_blank = matches!(
                f.ty,
                Ty::Text {
                    non_blank: true,
                    ..
                } | Ty::TextList {
                    non_blank: true,
                    ..
                }
            );
            // Patterned text too: blank text is missing and breaks the pattern as well
            // (`""`, unless the pattern matches it), so a probe of either states both.
            let patterned = matches!(
                f.ty,
                Ty::Text {
                    pattern: Some(_),
                    ..
                }
            );
            if (non_blank || patterned) && f.required && f.default.is_none() && f.when.is_none() {
                f.coded = rng.chance(40);
            }
        }
        if self
            .entry
            .iter()
            .any(|e| e.key == "kind" && matches!(e.ty, Ty::Shade))
            && rng.chance(60)
        {
            let shared = self
                .doc
                .iter()
                .any(|f| f.key == "entries" && f.items.is_some());
            let code = if shared && rng.chance(50) {
                "too_many"
            } else {
                "too_many_kind"
            };
            self.group_cap = Some((1 + rng.below(3), code));
        }
        if rng.chance(30) {
            self.pad_past_first = true;
            let id = &mut self.doc[0];
            if rng.chance(70) {
                id.ty = Ty::Text {
                    non_blank: false,
                    pattern: Some(FIXED_LENGTH[rng.below(FIXED_LENGTH.len() as u64) as usize]),
                };
                id.chars = None;
                id.min_chars = None;
            } else {
                // Any pattern, under a char cap: no candidate either.
                id.chars = Some(id.chars.unwrap_or(12));
            }
            let mut body = F::plain(
                "body",
                Ty::Text {
                    non_blank: rng.chance(50),
                    pattern: None,
                },
                true,
            );
            body.coded = matches!(
                body.ty,
                Ty::Text {
                    non_blank: true,
                    ..
                }
            ) && rng.chance(50);
            self.doc.push(body);
        }
        // Last: the draws above stay what they were before decimal ranges.
        if rng.chance(35) {
            self.doc.push(decimal_field(rng, "g0".into()));
        }
    }

    /// The root text fields that can carry the byte cap's padding for every byte-cap case of
    /// `example` under cap `n`: required plain text without a char cap or a condition, whose
    /// example value can be shortened to the cap less one byte and stay long enough.
    pub(crate) fn paddable(&self, example: &Value, n: u64) -> bool {
        let bytes = self.bytes_of(example);
        self.doc.iter().any(|f| {
            let sibling = self
                .doc
                .iter()
                .any(|g| g.when.as_ref().is_some_and(|(key, _, _)| *key == f.key));
            let Ty::Text {
                non_blank,
                pattern: None,
            } = f.ty
            else {
                return false;
            };
            let Some(value) = example.get(&f.key).and_then(Value::as_str) else {
                return false;
            };
            let shortest = f
                .min_chars
                .unwrap_or(0)
                .max(u64::from(non_blank || f.coded));
            let at_least = bytes + shortest;
            f.required
                && f.chars.is_none()
                && f.when.is_none()
                && f.default.is_none()
                && !sibling
                && value.is_ascii()
                && (n - 1) + value.len() as u64 >= at_least
        })
    }
}

impl RandomSpec {
    pub(crate) fn uses_shade(&self) -> bool {
        self.all()
            .any(|f| matches!(f.ty, Ty::Shade | Ty::Choice { states: false, .. }))
    }

    pub(crate) fn uses_phase(&self) -> bool {
        self.all()
            .any(|f| matches!(f.ty, Ty::Choice { states: true, .. }))
    }

    /// The spec-format features this spec uses, to show the generator reaches each.
    pub(crate) fn features(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        if self.entry_compound {
            out.insert("compound unique key".into());
        }
        if let Some((_, code)) = self.group_cap {
            out.insert("per-group cap".into());
            if code == "too_many" {
                out.insert("per-group cap sharing the item cap's code".into());
            }
        }
        for (table, f) in [&self.doc, &self.entry, &self.meta]
            .into_iter()
            .flat_map(|t| t.iter().map(move |f| (t, f)))
        {
            if !std::ptr::eq(table, &self.doc) && matches!(f.ty, Ty::Format { .. }) {
                out.insert("nested format".into());
            }
            if std::ptr::eq(table, &self.entry) && matches!(f.ty, Ty::Choice { .. }) {
                out.insert("states in a list of objects".into());
            }
            match &f.ty {
                Ty::Format { kind, list } => {
                    out.insert(format!("format {}", FORMATS[*kind]));
                    out.insert(
                        if *list {
                            "format[]"
                        } else if f.required {
                            "format"
                        } else {
                            "format?"
                        }
                        .into(),
                    );
                }
                Ty::Choice {
                    states,
                    list,
                    nullable,
                } => {
                    let name = if *states { "states" } else { "enum" };
                    let shape = match (list, nullable, f.required) {
                        (true, ..) if f.unique.is_some() => "[] unique",
                        (true, ..) => "[]",
                        (_, true, _) => "?",
                        (_, _, true) => "",
                        _ => " (default)",
                    };
                    out.insert(format!("{name}{shape}"));
                }
                Ty::Decimal { min, max, list } => {
                    out.insert(
                        if *list {
                            "number[] range"
                        } else {
                            "number range"
                        }
                        .into(),
                    );
                    if min.iter().chain(max).any(|n| n.fract() != 0.0) {
                        out.insert("fractional number bound".into());
                    }
                    if min.iter().chain(max).any(|&n| n == 0.0) {
                        out.insert("number bound 0".into());
                    }
                }
                Ty::Ranged {
                    signed,
                    wide: true,
                    min,
                    max,
                    ..
                } => {
                    out.insert(
                        if *signed {
                            "int64 range"
                        } else {
                            "uint64 range"
                        }
                        .into(),
                    );
                    if min.iter().chain(max).any(|n| n.abs() > SAFE) {
                        out.insert("range bound beyond 2^53".into());
                    }
                    if max.is_none() {
                        out.insert("64-bit range open above".into());
                    }
                }
                _ => {}
            }
            if let Some((key, values, negated)) = &f.when {
                let sibling = table.iter().find(|s| &s.key == key).expect("a sibling");
                if std::ptr::eq(table, &self.meta) {
                    out.insert("nested required_if".into());
                }
                if values.len() > 1 {
                    out.insert("required_if on a set of values".into());
                }
                if *negated {
                    out.insert("required_if unless".into());
                }
                let kind = match sibling.ty {
                    Ty::Bool => "bool",
                    Ty::Shade => "enum",
                    _ => "text",
                };
                let default = if sibling.required {
                    ""
                } else {
                    " with a default"
                };
                out.insert(format!("required_if on {kind}{default}"));
            }
            if f.min_chars.is_some() {
                out.insert("at least N chars".into());
            }
            if f.coded {
                out.insert(
                    if matches!(f.ty, Ty::TextList { .. }) {
                        "coded requirement on a non-blank list"
                    } else if matches!(
                        f.ty,
                        Ty::Text {
                            pattern: Some(_),
                            ..
                        }
                    ) {
                        "coded requirement on patterned text"
                    } else {
                        "coded requirement on non-blank text"
                    }
                    .into(),
                );
            }
            if f.min_items.is_some() {
                out.insert("at least N items".into());
            }
        }
        out
    }

    pub(crate) fn all(&self) -> impl Iterator<Item = &F> {
        self.doc.iter().chain(&self.entry).chain(&self.meta)
    }

    /// The root member the rules row reads: the first whose key a rule can name.
    fn rules_row_key(&self) -> Option<&str> {
        if !self.rules_row {
            return None;
        }
        self.doc.iter().map(|f| f.key.as_str()).find(|k| {
            k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !k.starts_with(|c: char| c.is_ascii_digit())
        })
    }

    pub(crate) fn codes(&self) -> BTreeSet<&'static str> {
        let mut c = BTreeSet::from(["bad_doc"]);
        if self.rules_row_key().is_some() {
            c.insert("always");
        }
        if self.bytes.is_some() {
            c.insert("too_big");
        }
        if let Some((_, code)) = self.group_cap {
            c.insert(code);
        }
        for f in self.all() {
            match f.ty {
                Ty::Text { non_blank, pattern } => {
                    if non_blank {
                        c.insert("blank");
                    }
                    if pattern.is_some() {
                        c.insert("bad_pattern");
                    }
                }
                Ty::TextList { non_blank, pattern } => {
                    if non_blank {
                        c.insert("blank");
                    }
                    if pattern.is_some() {
                        c.insert("bad_pattern");
                    }
                }
                Ty::Ranged { .. } | Ty::Decimal { .. } => {
                    c.insert("out_of_range");
                }
                Ty::Format { .. } => {
                    c.insert("bad_format");
                }
                _ => {}
            }
            if f.when.is_some() {
                c.insert("needed");
            }
            if f.coded {
                c.insert("missing");
            }
            if f.chars.is_some() {
                c.insert("too_long");
            }
            if f.items.is_some() {
                c.insert("too_many");
            }
            if f.min_chars.is_some() {
                c.insert("too_short");
            }
            if f.min_items.is_some() {
                c.insert("too_few");
            }
            if f.unique.is_some() {
                c.insert(if f.key == "entries" {
                    "dup_entry"
                } else {
                    "dup_item"
                });
            }
        }
        c
    }

    pub(crate) fn table(out: &mut String, heading: &str, fields: &[F]) {
        let req = |f: &F| if f.required { "✔" } else { "—" };
        writeln!(
            out,
            "## {heading}\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|"
        )
        .unwrap();
        for f in fields {
            let stated = f.default.map(|d| format!("— (default {})", json!(d)));
            let (ty, req) = match &f.ty {
                Ty::Text {
                    non_blank, pattern, ..
                } if stated.is_some() => (
                    match pattern {
                        Some(p) => {
                            format!("string matching `{}`", PATTERNS[*p].0.replace('|', "\\|"))
                        }
                        None if *non_blank => "non-blank string".into(),
                        None => "string".into(),
                    },
                    stated.as_deref().unwrap(),
                ),
                Ty::Text {
                    pattern: Some(p), ..
                } => (
                    format!(
                        "string{} matching `{}`",
                        if f.required { "" } else { "?" },
                        PATTERNS[*p].0.replace('|', "\\|")
                    ),
                    req(f),
                ),
                Ty::Text {
                    non_blank: true, ..
                } => ("non-blank string".into(), "✔"),
                Ty::Text { .. } if f.required => ("string".into(), "✔"),
                Ty::Text { .. } => ("string?".into(), "—"),
                Ty::Shade if f.required => ("shade".into(), "✔"),
                Ty::Shade => ("shade".into(), "— (default dark)"),
                Ty::U32 if f.required => ("uint32".into(), "✔"),
                Ty::U32 => ("uint32?".into(), "—"),
                Ty::Ranged {
                    signed,
                    wide,
                    min,
                    max,
                    list,
                } => {
                    let range = format!(
                        "{}..{}",
                        min.map_or(String::new(), |n| n.to_string()),
                        max.map_or(String::new(), |n| format!("={n}"))
                    );
                    let width = match (signed, wide) {
                        (true, false) => "int32",
                        (false, false) => "uint32",
                        (true, true) => "int64",
                        (false, true) => "uint64",
                    };
                    let shape = if *list {
                        "[]"
                    } else if f.required {
                        ""
                    } else {
                        "?"
                    };
                    (
                        format!("{width}{shape} {range}"),
                        if f.required { "✔" } else { "—" },
                    )
                }
                Ty::Decimal { min, max, list } => {
                    let range = format!(
                        "{}..{}",
                        min.map_or(String::new(), decimal_text),
                        max.map_or(String::new(), |n| format!("={}", decimal_text(n)))
                    );
                    let shape = if *list {
                        "[]"
                    } else if f.required {
                        ""
                    } else {
                        "?"
                    };
                    (
                        format!("number{shape} {range}"),
                        if f.required { "✔" } else { "—" },
                    )
                }
                Ty::Bool if f.required => ("bool".into(), "✔"),
                Ty::Bool => ("bool".into(), "— (default false)"),
                Ty::Format { kind, list } => {
                    let name = FORMATS[*kind];
                    if *list {
                        (format!("{name}[]"), "—")
                    } else if f.required {
                        (name.into(), "✔")
                    } else {
                        (format!("{name}?"), "—")
                    }
                }
                Ty::Choice {
                    states,
                    list,
                    nullable,
                } => {
                    let name = if *states { "phase" } else { "shade" };
                    if *list {
                        (format!("{name}[]"), "—")
                    } else if *nullable {
                        (format!("{name}?"), "—")
                    } else if f.required {
                        (name.into(), "✔")
                    } else {
                        (name.into(), "— (default new)")
                    }
                }
                Ty::TextList {
                    pattern: Some(p), ..
                } => (
                    format!("string[] matching `{}`", PATTERNS[*p].0.replace('|', "\\|")),
                    req(f),
                ),
                Ty::TextList {
                    non_blank: true, ..
                } => ("non-blank string[]".into(), req(f)),
                Ty::TextList { .. } => ("string[]".into(), req(f)),
                Ty::Entries => ("entry[]".into(), "—"),
                Ty::Meta => ("meta".into(), "✔"),
            };
            let req = match &f.when {
                None if f.coded => "✔ `missing`".to_owned(),
                Some((sibling, values, negated)) => {
                    let values: Vec<String> = values
                        .iter()
                        .map(|v| {
                            format!(
                                "`{}`",
                                v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                            )
                        })
                        .collect();
                    let values = match values.as_slice() {
                        [one] => one.clone(),
                        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
                        [] => unreachable!("a condition has a value"),
                    };
                    let word = if *negated { "unless" } else { "if" };
                    format!("{word} `{sibling}` is {values}")
                }
                None => req.to_owned(),
            };
            writeln!(out, "| `{}` | {ty} | {req} | The {}. |", f.key, f.key).unwrap();
        }
        out.push('\n');
    }

    pub(crate) fn markdown(&self, example: &Value) -> String {
        let mut md = String::from("# Random v1\n\n");
        Self::table(&mut md, "Fields of a `doc`", &self.doc);
        if !self.entry.is_empty() {
            Self::table(&mut md, "Fields of an `entry`", &self.entry);
        }
        if !self.meta.is_empty() {
            Self::table(&mut md, "Fields of a `meta`", &self.meta);
        }
        if self.uses_shade() {
            md.push_str("## Shades: `shade`\n\n| Value | Meaning |\n|---|---|\n");
            for s in SHADES {
                writeln!(md, "| `{s}` | {s}. |").unwrap();
            }
            md.push('\n');
        }
        if self.uses_phase() {
            md.push_str(
                "## States of a `phase`\n\n| State | Terminal | Meaning |\n|---|---|---|\n",
            );
            for s in PHASES {
                writeln!(
                    md,
                    "| `{s}` | {} | {s}. |",
                    if *s == "done" { "yes" } else { "no" }
                )
                .unwrap();
            }
            md.push_str("\n### Transitions of a `phase`\n\n| From | To |\n|---|---|\n| `new` | `active` |\n| * | `done` |\n\n");
        }
        md.push_str("## Caps\n\n| Cap | Value | Constant |\n|---|---|---|\n");
        for (prefix, fields) in [
            ("", &self.doc),
            ("entries[].", &self.entry),
            ("meta.", &self.meta),
        ] {
            for f in fields.iter() {
                let name = format!("{prefix}{}", f.key)
                    .replace('.', "_")
                    .replace("[]", "");
                let upper = name.to_uppercase();
                if let Some(n) = f.items {
                    writeln!(md, "| `{prefix}{}` items | {n} | {upper}_MAX |", f.key).unwrap();
                }
                let path = match f.ty {
                    Ty::TextList { .. } | Ty::Format { list: true, .. } => {
                        format!("{prefix}{}[]", f.key)
                    }
                    _ => format!("{prefix}{}", f.key),
                };
                if let Some(n) = f.chars {
                    writeln!(md, "| `{path}` | {n} chars | {upper}_MAX_CHARS |").unwrap();
                }
                if let Some(n) = f.min_chars {
                    writeln!(md, "| `{path}` | at least {n} chars | {upper}_MIN_CHARS |").unwrap();
                }
                if let Some(n) = f.min_items {
                    writeln!(
                        md,
                        "| `{prefix}{}` | at least {n} items | {upper}_MIN |",
                        f.key
                    )
                    .unwrap();
                }
            }
        }
        if let Some(n) = self.bytes {
            writeln!(
                md,
                "| Whole doc, compact JSON | {n} bytes | DOC_MAX_BYTES |"
            )
            .unwrap();
        }
        if let Some((n, _)) = self.group_cap {
            writeln!(md, "| Entries per kind | {n} items | PER_KIND_MAX |").unwrap();
        }
        if let Some(key) = self.rules_row_key() {
            writeln!(
                md,
                "\n## Rules\n\n| Code | On | Rule |\n|---|---|---|\n| `always` | — | `has({key}) or not has({key})` |"
            )
            .unwrap();
        }
        md.push_str("\n## Error codes\n\n| Code | When |\n|---|---|\n");
        for c in self.codes() {
            writeln!(md, "| `{c}` | {c}. |").unwrap();
        }
        writeln!(md, "\n```json valid\n{example}\n```").unwrap();
        md
    }

    pub(crate) fn toml(&self) -> String {
        let mut t = String::from(
            "[spec]\nroot = \"doc\"\n\n[errors]\nenum = \"DocError\"\nparse = \"bad_doc\"\n",
        );
        let codes = self.codes();
        for (rule, code) in [
            ("non_blank", "blank"),
            ("max_chars", "too_long"),
            ("max_items", "too_many"),
            ("pattern", "bad_pattern"),
            ("range", "out_of_range"),
            ("min_chars", "too_short"),
            ("min_items", "too_few"),
            ("max_bytes", "too_big"),
            ("format", "bad_format"),
            ("required_if", "needed"),
        ] {
            if codes.contains(code) {
                writeln!(t, "{rule} = \"{code}\"").unwrap();
            }
        }
        if let Some((_, code)) = self.group_cap {
            writeln!(t, "max_items_per_group = \"{code}\"").unwrap();
        }
        if self.bytes.is_some() {
            t.push_str("\n[caps.DOC_MAX_BYTES]\nrule = \"document_bytes\"\n");
        }
        if self.group_cap.is_some() {
            t.push_str(
                "\n[caps.PER_KIND_MAX]\nrule = \"max_items_per_group\"\npath = \"entries\"\nby = \"kind\"\n",
            );
        }
        for f in &self.doc {
            if let Some((ignore_case, trim)) = f.unique {
                let (code, key) = if f.key == "entries" && self.entry_compound {
                    ("dup_entry", "key = [\"kind\", \"name\"]\n")
                } else if f.key == "entries" {
                    ("dup_entry", "key = \"name\"\n")
                } else {
                    ("dup_item", "")
                };
                // Enum values are compared as spelled: no fold to state.
                let folds = if matches!(f.ty, Ty::Choice { .. }) {
                    String::new()
                } else {
                    format!("ignore_case = {ignore_case}\ntrim = {trim}\n")
                };
                write!(
                    t,
                    "\n[[unique]]\npath = \"{}\"\n{key}{folds}code = \"{code}\"\n",
                    f.key
                )
                .unwrap();
            }
        }
        t
    }

    /// A valid document: every required field, some optional ones.
    pub(crate) fn example(&self, rng: &mut Rng) -> Value {
        fn value(s: &RandomSpec, f: &F, rng: &mut Rng, i: usize) -> Value {
            match &f.ty {
                Ty::Text {
                    pattern: Some(p), ..
                } => json!(PATTERNS[*p].1),
                Ty::Text { .. } => json!(["x", "y", "z"][i % 3]),
                Ty::Shade => json!(SHADES[i % SHADES.len()]),
                Ty::U32 => json!(rng.below(1000)),
                Ty::Ranged {
                    signed,
                    wide,
                    min,
                    max,
                    list,
                } => {
                    // Values near zero (within 2^53 for JavaScript): every range has some.
                    let (floor, _) = width(*signed, *wide);
                    let lo = min.unwrap_or(max.unwrap_or(0) - 3).max(floor);
                    let hi = max.unwrap_or(lo + 10);
                    let from = 0.clamp(lo, hi);
                    let n = from + rng.below(((hi - from).min(30) + 1) as u64) as i128;
                    if *list {
                        json!([int(n), int(from)])
                    } else {
                        int(n)
                    }
                }
                Ty::Decimal { min, max, list } => {
                    // No draw: the stream of the specs after this one stays as it was.
                    let n = 0.5f64
                        .max(min.unwrap_or(f64::MIN))
                        .min(max.unwrap_or(f64::MAX));
                    if *list {
                        json!([n, min.or(*max).unwrap_or(n)])
                    } else {
                        json!(n)
                    }
                }
                Ty::Format { kind, list } => {
                    let one = |j: usize| match *kind {
                        0 => format!("2024-01-{:02}T12:00:00Z", 1 + j),
                        1 => format!("2024-02-{:02}", 1 + j),
                        2 => format!("https://ex.com/{j}"),
                        _ => format!("u{j}@ex.com"),
                    };
                    if *list {
                        json!([one(i), one(i + 1)])
                    } else {
                        json!(one(i))
                    }
                }
                Ty::Choice { states, list, .. } => {
                    let values = if *states { PHASES } else { SHADES };
                    if *list {
                        json!([values[i % 3], values[(i + 1) % 3]])
                    } else {
                        json!(values[(i + 1) % 3])
                    }
                }
                Ty::Bool => json!(rng.chance(50)),
                Ty::TextList {
                    pattern: Some(p), ..
                } => json!([PATTERNS[*p].1]),
                Ty::TextList { .. } => json!(["p", "q"]),
                Ty::Entries => {
                    let n = if s.entry.iter().any(|e| {
                        matches!(
                            e.ty,
                            Ty::Text {
                                pattern: Some(_),
                                ..
                            }
                        )
                    }) && s.entry_key.is_some()
                    {
                        1
                    } else {
                        2
                    };
                    Value::Array((0..n).map(|i| object(s, &s.entry, rng, i)).collect())
                }
                Ty::Meta => object(s, &s.meta, rng, 0),
            }
        }
        fn object(s: &RandomSpec, fields: &[F], rng: &mut Rng, i: usize) -> Value {
            let mut m = serde_json::Map::new();
            for f in fields {
                // A decimal field is always there: no draw, so the specs after this one are
                // what they were before decimal ranges.
                if f.required || matches!(f.ty, Ty::Decimal { .. }) || rng.chance(60) {
                    m.insert(f.key.clone(), value(s, f, rng, i));
                }
            }
            // A conditional field is there while its condition holds.
            for f in fields {
                if RandomSpec::condition_holds(fields, f, &m) && !m.contains_key(&f.key) {
                    m.insert(f.key.clone(), value(s, f, rng, i));
                }
            }
            Value::Object(m)
        }
        object(self, &self.doc, rng, 0)
    }

    /// This file's reading of the spec: the violations of `doc`, or `None` for a shape
    /// problem (the parse code, wherever serde stops).
    pub(crate) fn violations(&self, doc: &Value) -> Option<Vec<(String, String)>> {
        let mut out = Vec::new();
        self.object(&self.doc, doc, "", &mut out)?;
        if self.bytes.is_some_and(|n| self.bytes_of(doc) > n) {
            out.push(("too_big".into(), String::new()));
        }
        out.sort();
        Some(out)
    }

    /// The size of the document as written back: compact JSON, fields at their default
    /// (`null`, `[]`, the default shade) left out.
    pub(crate) fn bytes_of(&self, doc: &Value) -> u64 {
        fn canonical(s: &RandomSpec, fields: &[F], v: &Value) -> Value {
            let Some(m) = v.as_object() else {
                return v.clone();
            };
            let mut out = serde_json::Map::new();
            for f in fields {
                let Some(x) = m.get(&f.key) else { continue };
                let default = x.is_null()
                    || x.as_array().is_some_and(Vec::is_empty)
                    || matches!(f.ty, Ty::Shade) && x == "dark"
                    || matches!(f.ty, Ty::Bool) && x == false
                    || f.default.is_some_and(|d| x == d)
                    || matches!(
                        f.ty,
                        Ty::Choice {
                            list: false,
                            nullable: false,
                            ..
                        }
                    ) && x == "new";
                if (!f.required || f.coded) && default {
                    continue;
                }
                let x = match f.ty {
                    Ty::Meta => canonical(s, &s.meta, x),
                    Ty::Entries => Value::Array(
                        x.as_array()
                            .unwrap()
                            .iter()
                            .map(|e| canonical(s, &s.entry, e))
                            .collect(),
                    ),
                    // A number is written back as a double: `-1` counts as `-1.0`.
                    Ty::Decimal { .. } => match x {
                        Value::Array(items) => Value::Array(items.iter().map(double).collect()),
                        _ => double(x),
                    },
                    _ => x.clone(),
                };
                out.insert(f.key.clone(), x);
            }
            Value::Object(out)
        }
        serde_json::to_string(&canonical(self, &self.doc, doc))
            .unwrap()
            .len() as u64
    }

    pub(crate) fn object(
        &self,
        fields: &[F],
        v: &Value,
        at: &str,
        out: &mut Vec<(String, String)>,
    ) -> Option<()> {
        let m = v.as_object()?;
        if m.keys().any(|k| !fields.iter().any(|f| &f.key == k)) {
            return None;
        }
        for f in fields {
            let path = if at.is_empty() {
                f.key.clone()
            } else {
                format!("{at}.{}", f.key)
            };
            match m.get(&f.key) {
                // A coded requirement reports its own code, also for `null`.
                None | Some(Value::Null) if f.coded => out.push(("missing".into(), path.clone())),
                None if f.required => return None,
                None => {}
                Some(Value::Null)
                    if matches!(
                        f.ty,
                        Ty::Text { .. }
                            | Ty::U32
                            | Ty::Ranged { list: false, .. }
                            | Ty::Format { list: false, .. }
                            | Ty::Choice { nullable: true, .. }
                    ) && !f.required
                        && f.default.is_none() => {}
                Some(x) => self.field(f, x, &path, out)?,
            }
            // Given: present, not `null`, and (text) not blank.
            let given = m
                .get(&f.key)
                .is_some_and(|x| !x.is_null() && x.as_str().is_none_or(|s| !s.trim().is_empty()));
            if Self::condition_holds(fields, f, m) && !given {
                out.push(("needed".into(), path));
            }
        }
        Some(())
    }

    /// Whether `f` has a condition and its sibling holds the value (an absent optional
    /// sibling holds its default).
    pub(crate) fn condition_holds(fields: &[F], f: &F, m: &serde_json::Map<String, Value>) -> bool {
        let Some((key, when, negated)) = &f.when else {
            return false;
        };
        let sibling = fields.iter().find(|s| &s.key == key).expect("a sibling");
        let default = match sibling.ty {
            _ if sibling.required => None,
            _ if sibling.default.is_some() => sibling.default.map(|d| json!(d)),
            Ty::Bool => Some(json!(false)),
            Ty::Shade => Some(json!("dark")),
            _ => None,
        };
        let value = m.get(key).cloned().or(default);
        value.is_some_and(|v| when.contains(&v)) != *negated
    }

    pub(crate) fn field(
        &self,
        f: &F,
        v: &Value,
        path: &str,
        out: &mut Vec<(String, String)>,
    ) -> Option<()> {
        let push =
            |out: &mut Vec<(String, String)>, code: &str, p: String| out.push((code.to_owned(), p));
        match &f.ty {
            Ty::Text { non_blank, pattern } => {
                let s = v.as_str()?;
                if f.coded && s.trim().is_empty() {
                    push(out, "missing", path.to_owned());
                }
                text(f, *non_blank, *pattern, s, path, out)
            }
            Ty::Shade => SHADES.contains(&v.as_str()?).then_some(())?,
            Ty::U32 => (v.as_u64()? <= u64::from(u32::MAX)).then_some(())?,
            Ty::Ranged {
                signed,
                wide,
                min,
                max,
                list,
            } => {
                let one = |x: &Value| -> Option<bool> {
                    let n = x
                        .as_i64()
                        .map(i128::from)
                        .or_else(|| x.as_u64().map(i128::from))?;
                    let (lo, hi) = width(*signed, *wide);
                    (lo..=hi).contains(&n).then_some(())?;
                    Some(min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m))
                };
                out_of_range(v, *list, path, out, one)?
            }
            Ty::Decimal { min, max, list } => {
                let one = |x: &Value| -> Option<bool> {
                    let n = x.as_f64()?;
                    Some(min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m))
                };
                out_of_range(v, *list, path, out, one)?
            }
            Ty::Format { kind, list } => {
                let items: Vec<(String, &Value)> = if *list {
                    let items = v.as_array()?;
                    if f.items.is_some_and(|n| items.len() as u64 > n) {
                        push(out, "too_many", path.to_owned());
                    }
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, x)| (format!("{path}[{i}]"), x))
                        .collect()
                } else {
                    vec![(path.to_owned(), v)]
                };
                for (at, x) in items {
                    let s = x.as_str()?;
                    text(f, false, None, s, &at, out);
                    if !is_format(*kind, s) {
                        push(out, "bad_format", at);
                    }
                }
            }
            Ty::Choice { states, list, .. } => {
                let values = if *states { PHASES } else { SHADES };
                if *list {
                    let items = v.as_array()?;
                    let spelled: Vec<&str> = items
                        .iter()
                        .map(|x| x.as_str().filter(|s| values.contains(s)))
                        .collect::<Option<_>>()?;
                    if f.items.is_some_and(|n| items.len() as u64 > n) {
                        push(out, "too_many", path.to_owned());
                    }
                    if f.unique.is_some() {
                        for i in repeats(spelled.iter().map(|s| (*s).to_owned()).collect()) {
                            push(out, "dup_item", format!("{path}[{i}]"));
                        }
                    }
                } else {
                    values.contains(&v.as_str()?).then_some(())?;
                }
            }
            Ty::Bool => {
                v.as_bool()?;
            }
            Ty::Meta => self.object(&self.meta, v, path, out)?,
            Ty::TextList { non_blank, pattern } => {
                let items = v.as_array()?;
                let texts: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
                if f.coded && items.is_empty() {
                    push(out, "missing", path.to_owned());
                }
                if f.items.is_some_and(|n| items.len() as u64 > n) {
                    push(out, "too_many", path.to_owned());
                }
                if f.min_items.is_some_and(|n| (items.len() as u64) < n) {
                    push(out, "too_few", path.to_owned());
                }
                for (i, s) in texts.iter().enumerate() {
                    text(f, *non_blank, *pattern, s, &format!("{path}[{i}]"), out);
                }
                if let Some(u) = f.unique {
                    for i in repeats(texts.iter().map(|s| fold(s, u)).collect()) {
                        push(out, "dup_item", format!("{path}[{i}]"));
                    }
                }
            }
            Ty::Entries => self.entries(f, v, path, out)?,
        }
        Some(())
    }

    /// An `entries` list: every entry an object, the item cap, the per-kind cap and unique
    /// keys.
    fn entries(&self, f: &F, v: &Value, path: &str, out: &mut Vec<(String, String)>) -> Option<()> {
        let push =
            |out: &mut Vec<(String, String)>, code: &str, p: String| out.push((code.to_owned(), p));
        let items = v.as_array()?;
        for (i, it) in items.iter().enumerate() {
            self.object(&self.entry, it, &format!("{path}[{i}]"), out)?;
        }
        if f.items.is_some_and(|n| items.len() as u64 > n) {
            push(out, "too_many", path.to_owned());
        }
        // One violation per kind with more entries than the cap.
        if let Some((n, code)) = self.group_cap {
            let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
            for it in items {
                *kinds.entry(it.get("kind")?.as_str()?).or_default() += 1;
            }
            for _ in kinds.values().filter(|&&count| count > n) {
                push(out, code, path.to_owned());
            }
        }
        if let (Some(u), Some(key), true) = (f.unique, &self.entry_key, self.entry_compound) {
            // Compound: (`kind` as spelled, the folded key), reported at the later entry; an
            // entry without one of them is compared with none.
            let keys: Vec<(usize, String)> = items
                .iter()
                .enumerate()
                .filter_map(|(i, it)| {
                    let kind = it.get("kind")?.as_str()?;
                    Some((i, format!("{kind}\u{0}{}", fold(it.get(key)?.as_str()?, u))))
                })
                .collect();
            let (index, keys): (Vec<usize>, Vec<String>) = keys.into_iter().unzip();
            for i in repeats(keys) {
                push(out, "dup_entry", format!("{path}[{}]", index[i]));
            }
        } else if let (Some(u), Some(key)) = (f.unique, &self.entry_key) {
            // An entry without its key (a coded requirement reports it) is skipped.
            let keys: Vec<(usize, String)> = items
                .iter()
                .enumerate()
                .filter_map(|(i, it)| Some((i, it.get(key)?.as_str()?)))
                .map(|(i, s)| (i, fold(s, u)))
                .collect();
            let (index, keys): (Vec<usize>, Vec<String>) = keys.into_iter().unzip();
            for i in repeats(keys) {
                push(out, "dup_entry", format!("{path}[{}].{key}", index[i]));
            }
        }
        Some(())
    }
}

/// `out_of_range` at `path`, or at each item of a `list`, where `in_range` says no; `None`
/// when a value is not one `in_range` reads.
fn out_of_range(
    v: &Value,
    list: bool,
    path: &str,
    out: &mut Vec<(String, String)>,
    in_range: impl Fn(&Value) -> Option<bool>,
) -> Option<()> {
    if list {
        for (i, x) in v.as_array()?.iter().enumerate() {
            if !in_range(x)? {
                out.push(("out_of_range".to_owned(), format!("{path}[{i}]")));
            }
        }
    } else if !in_range(v)? {
        out.push(("out_of_range".to_owned(), path.to_owned()));
    }
    Some(())
}

pub(crate) fn text(
    f: &F,
    non_blank: bool,
    pattern: Option<usize>,
    s: &str,
    path: &str,
    out: &mut Vec<(String, String)>,
) {
    if non_blank && s.trim().is_empty() {
        out.push(("blank".into(), path.into()));
    }
    if f.chars.is_some_and(|n| s.chars().count() as u64 > n) {
        out.push(("too_long".into(), path.into()));
    }
    if f.min_chars.is_some_and(|n| (s.chars().count() as u64) < n) {
        out.push(("too_short".into(), path.into()));
    }
    if let Some(p) = pattern {
        if !regex_lite::Regex::new(PATTERNS[p].0).unwrap().is_match(s) {
            out.push(("bad_pattern".into(), path.into()));
        }
    }
}

/// The bounds of an integer type: `int32`, `uint32`, `int64` or `uint64`.
pub(crate) fn width(signed: bool, wide: bool) -> (i128, i128) {
    match (signed, wide) {
        (true, false) => (i32::MIN.into(), i32::MAX.into()),
        (false, false) => (0, u32::MAX.into()),
        (true, true) => (i64::MIN.into(), i64::MAX.into()),
        (false, true) => (0, u64::MAX.into()),
    }
}

/// An integer in range of `uint64` or `int64` as JSON.
pub(crate) fn int(n: i128) -> Value {
    match u64::try_from(n) {
        Ok(n) => json!(n),
        Err(_) => json!(i64::try_from(n).expect("within int64")),
    }
}

/// This file's reading of the formats of docs/spec-format.md: what both Python jsonschema
/// and ajv-formats accept.
pub(crate) fn is_format(kind: usize, s: &str) -> bool {
    const DATE: &str = "([0-9]{4})-([0-9]{2})-([0-9]{2})";
    const HOST_LABEL: &str = "[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
    // A real calendar day.
    let real_day = |y: &str, m: &str, d: &str| {
        let (y, m, d): (u32, u32, u32) =
            (y.parse().unwrap(), m.parse().unwrap(), d.parse().unwrap());
        let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        let days = [
            31,
            if leap { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        // Year 0000: Python refuses it (ajv-formats accepts it).
        y != 0 && (1..=12).contains(&m) && (1..=days[m as usize - 1]).contains(&d)
    };
    let re = |p: String| regex_lite::Regex::new(&p).unwrap();
    match FORMATS[kind] {
        "date" | "date-time" => {
            let time = "[Tt](?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])";
            let tail = if FORMATS[kind] == "date" { "" } else { time };
            re(format!("^{DATE}{tail}$"))
                .captures(s)
                .is_some_and(|c| real_day(&c[1], &c[2], &c[3]))
        }
        "email" => {
            let atom = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
            re(format!(
                "^{atom}(?:\\.{atom})*@{HOST_LABEL}(?:\\.{HOST_LABEL})+$"
            ))
            .is_match(s)
        }
        _ => {
            // RFC 3986: scheme `:` then `//authority path` or a non-empty path (ajv-formats
            // refuses an empty one), `?query`, `#fragment`; ASCII only, `%` then two hex digits.
            let ch = "(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})";
            let authority = format!(
                "(?:(?:{ch}|:)*@)?(?:\\[(?:[0-9A-Fa-f:.]+|[vV][0-9A-Fa-f]+\\.(?:{ch}|:)+)\\]|{ch}*)(?::[0-9]*)?"
            );
            let path = format!("(?:{ch}|[:@/])*");
            let tail = format!("(?:\\?(?:{ch}|[:@/?])*)?(?:#(?:{ch}|[:@/?])*)?");
            let Some(c) = re(format!(
                "^[A-Za-z][A-Za-z0-9+.-]*:(?://({authority})(?:/{path})?|(?:{ch}|[:@/])+){tail}$"
            ))
            .captures(s) else {
                return false;
            };
            // An IPv6 literal must be one.
            c.get(1).is_none_or(|a| {
                let a = a.as_str();
                match (a.find('['), a.find(']')) {
                    (Some(i), Some(j)) if !a[i + 1..].starts_with(['v', 'V']) => {
                        a[i + 1..j].parse::<std::net::Ipv6Addr>().is_ok()
                    }
                    _ => true,
                }
            })
        }
    }
}

pub(crate) fn fold(s: &str, (ignore_case, trim): (bool, bool)) -> String {
    let s = if trim { s.trim() } else { s };
    if ignore_case {
        s.to_lowercase()
    } else {
        s.to_owned()
    }
}

/// Indices of the items equal to an earlier one.
pub(crate) fn repeats(keys: Vec<String>) -> Vec<usize> {
    let mut seen = BTreeSet::new();
    keys.into_iter()
        .enumerate()
        .filter(|(_, k)| !seen.insert(k.clone()))
        .map(|(i, _)| i)
        .collect()
}

/// The first `n` random specs exactly as the property test below makes them, for other
/// tests over random specs (`diff_random.rs` includes this file as a module).
#[allow(dead_code)]
pub(crate) fn random_sources(n: u64) -> Vec<SpecSource> {
    let mut rng = Rng(0x5eed_0016);
    (0..n)
        .map(|k| {
            let mut spec = random_spec(&mut rng);
            spec.extend(&mut Rng(0xc0de_0000 + k));
            spec.rules_row = Rng(0x7ab1_0000 + k).chance(50);
            let example = spec.example(&mut rng);
            if rng.chance(40) {
                spec.bytes = Some(spec.bytes_of(&example) + rng.below(40));
            } else if spec.pad_past_first {
                spec.bytes = Some(spec.bytes_of(&example) + Rng(0xb17e_0000 + k).below(40));
            }
            let name = format!("rnd_{k:03}");
            SpecSource {
                name: name.clone(),
                md_path: format!("spec/{name}.md"),
                md: spec.markdown(&example),
                toml_path: format!("spec/{name}.toml"),
                toml: spec.toml(),
                locales: Vec::new(),
            }
        })
        .collect()
}
