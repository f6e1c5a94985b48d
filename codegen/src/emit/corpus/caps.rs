//! Mutation family: caps. Char caps and minimum lengths at N-1, N, N+1 in several scripts
//! (with the naive counters each case traps), item caps and minimum item counts, per-group
//! caps, and the document byte cap.

use serde_json::{json, Value};

use super::*;
use crate::model::*;

/// The violations of a list of `len` valid items at `path` under `f`'s count rules, in the
/// order the validator checks them: a coded requirement (an empty list is missing), the
/// cap, the minimum.
pub(super) fn item_count_violations(f: &Field, path: &str, len: usize) -> Expected {
    let len = len as u64;
    let mut out = Vec::new();
    if let Some(code) = f.rules.required.as_ref().filter(|_| len == 0) {
        out.push((code.clone(), path.to_owned()));
    }
    if let Some(c) = f.rules.max_items.as_ref().filter(|c| len > c.value) {
        out.push((c.code.clone(), path.to_owned()));
    }
    if let Some(c) = f.rules.min_items.as_ref().filter(|c| len < c.value) {
        out.push((c.code.clone(), path.to_owned()));
    }
    out
}

/// Scripts a char cap is exercised in: (name, unit). The unit's chars are repeated (a
/// combining pair may end cut after its base letter).
const SCRIPTS: &[(&str, &str)] = &[
    ("ascii", "a"),
    ("latin", "\u{e9}"),
    ("cjk", "\u{5b57}"),
    ("emoji", "\u{1f600}"),
    ("combining", "e\u{301}"),
];

impl<'a> Gen<'a> {
    /// Char caps and minimum lengths at N-1, N, N+1 chars in each script; the expected
    /// errors come from the value's length against both.
    pub(super) fn char_caps(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let f = loc.hops.last().expect("non-empty").field;
        for (cap, rule) in [
            (&f.rules.max_chars, "max_chars"),
            (&f.rules.min_chars, "min_chars"),
        ] {
            if let Some(cap) = cap {
                self.char_bound(base, loc, cap, rule);
            }
        }
    }

    /// The N-1, N, N+1 probes of one char bound (`max_chars` or `min_chars`).
    fn char_bound(&mut self, base: &Value, loc: &Loc<'a, '_>, cap: &CapUse, rule: &str) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let n = cap.value as usize;
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        let seed = self
            .synth_text(f, 0)
            .as_str()
            .unwrap_or_default()
            .to_owned();
        // Whether a count refuses the value under this bound.
        let refused = |count: usize| {
            if rule == "min_chars" {
                count < n
            } else {
                count > n
            }
        };
        let mut missing = Vec::new();
        for (script, unit) in SCRIPTS {
            for (label, len) in [("n-1", n.saturating_sub(1)), ("n", n), ("n+1", n + 1)] {
                if len == 0 && f.ty.non_blank {
                    continue;
                }
                // A value of `len` chars in the script that keeps the field's other rules
                // (its pattern, for one); ASCII may also reuse the seed's own characters.
                let Some(s) = fit::fit_any(f, &seed, unit, *script == "ascii", len) else {
                    missing.push(format!("{script} {label}"));
                    continue;
                };
                let value = if f.ty.array {
                    self.first_of(f, json!(s))
                } else {
                    json!(s)
                };
                let doc = self.with(base, hops, value);
                let errors: Vec<_> = fit::length_violation(f, &at, &s).into_iter().collect();
                // Which naive counters get this case wrong.
                let mut traps = Vec::new();
                let bytes = s.len();
                let utf16 = s.encode_utf16().count();
                let graphemes = len - s.chars().filter(|&c| c == '\u{301}').count();
                if refused(bytes) != refused(len) {
                    traps.push("bytes");
                }
                if refused(utf16) != refused(len) {
                    traps.push("utf16");
                }
                if refused(graphemes) != refused(len) {
                    traps.push("graphemes");
                }
                let bound = if rule == "min_chars" {
                    "minimum"
                } else {
                    "cap"
                };
                self.push(&loc.scope, Case::new(format!("{rule}.{path}.{script}.{label}"), format!(
                        "`{at}` of {len} chars ({script}; {bytes} bytes, {utf16} UTF-16 units), {bound} {n} ({})",
                        cap.constant
                    ), format!("{rule}:{}", cap.constant), doc).errors(errors).traps(traps));
            }
        }
        if !missing.is_empty() {
            self.notes.push(format!(
                "{rule}.{path}: no value keeps the other rules of `{at}` for {}",
                missing.join(", ")
            ));
        }
    }

    pub(super) fn item_caps(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        for (cap, rule) in [
            (&f.rules.max_items, "max_items"),
            (&f.rules.min_items, "min_items"),
        ] {
            let Some(cap) = cap else { continue };
            let n = cap.value as usize;
            let bound = if rule == "min_items" {
                "minimum"
            } else {
                "cap"
            };
            for (label, len) in [("n-1", n.saturating_sub(1)), ("n", n), ("n+1", n + 1)] {
                let items = self.spread(f, len);
                let id = format!("{rule}.{path}.{label}");
                if !self.distinct(f, &id, &items) {
                    continue;
                }
                let doc = self.with(base, hops, Value::Array(items));
                self.push(
                    &loc.scope,
                    Case::new(
                        id,
                        format!("`{path}` with {len} items, {bound} {n} ({})", cap.constant),
                        format!("{rule}:{}", cap.constant),
                        doc,
                    )
                    .errors(item_count_violations(f, path, len)),
                );
            }
        }
        for g in &f.rules.max_items_per_group {
            let n = g.cap.value as usize;
            let groups = self.group_values(f, &g.by.key);
            let Some(first) = groups.first().cloned() else {
                continue;
            };
            for (label, len) in [("n", n), ("n+1", n + 1)] {
                let mut items = self.elements(f, len);
                for it in &mut items {
                    it[&g.by.key] = json!(first);
                }
                if !self.distinct(f, &format!("max_items_per_group.{path}.{label}"), &items) {
                    continue;
                }
                let doc = self.with(base, hops, Value::Array(items));
                let errors = if len > n {
                    vec![(g.cap.code.clone(), path.to_owned())]
                } else {
                    vec![]
                };
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("max_items_per_group.{path}.{label}"),
                        format!(
                            "`{path}` with {len} items of {} `{first}`, cap {n} per group ({})",
                            g.by.key, g.cap.constant
                        ),
                        format!("max_items_per_group:{}", g.cap.constant),
                        doc,
                    )
                    .x_only()
                    .errors(errors),
                );
            }
            if groups.len() > 1
                && f.rules
                    .max_items
                    .as_ref()
                    .is_none_or(|c| c.value > n as u64)
            {
                let items = self.spread(f, n + 1);
                if !self.distinct(f, &format!("max_items_per_group.{path}.spread"), &items) {
                    continue;
                }
                let doc = self.with(base, hops, Value::Array(items));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("max_items_per_group.{path}.spread"),
                        format!(
                        "`{path}` with {} items spread over the {} values of {}: no group over {n}",
                        n + 1,
                        groups.len(),
                        g.by.key
                    ),
                        format!("max_items_per_group:{}", g.cap.constant),
                        doc,
                    )
                    .x_only(),
                );
            }
        }
    }

    /// Whether `items` keep the uniqueness rules of `f`; when not, the probe `id` is left
    /// out and the corpus notes why.
    fn distinct(&mut self, f: &Field, id: &str, items: &[Value]) -> bool {
        let Some(k) = fit::repeated(f, items) else {
            return true;
        };
        self.notes.push(format!(
            "{id}: left out, its {} items cannot all differ under the uniqueness rule (`{k}` repeats)",
            items.len()
        ));
        false
    }

    /// The document byte cap at N-1, N, N+1 (compact JSON of the normalized document), padded
    /// through a root string field without rules of its own; without one, through a root
    /// text field without a char cap, with a value that keeps its other rules (ASCII). Every
    /// such field is tried, in table order, until one gives all the cases (a patterned
    /// first field may not have the room another has); when none does, the one that gives
    /// the most, and the corpus notes the rest.
    pub(super) fn byte_cap(&mut self, base: &Value) {
        let root = self.spec.root_object();
        let Some(cap) = root.max_json_bytes.clone() else {
            return;
        };
        const BOTH: &[(&str, &str)] = &[("ascii", "a"), ("cjk", "\u{5b57}")];
        const ASCII: &[(&str, &str)] = &[("ascii", "a")];
        let unruled = root.fields.iter().filter(|f| {
            !f.required
                && f.ty.base == Base::String
                && !f.ty.non_blank
                && f.rules == FieldRules::default()
                && base.get(&f.key).is_none()
        });
        let ruled = root.fields.iter().filter(|f| {
            f.ty.base == Base::String
                && !f.ty.array
                && f.ty.literal.is_none()
                && f.rules.max_chars.is_none()
        });
        // A field a condition reads is not padded: its new value could make the condition
        // hold (or stop holding) and the case say nothing of the cap.
        let read = |f: &Field| {
            root.fields.iter().any(|g| {
                g.rules.required_if.as_ref().is_some_and(|ri| {
                    ri.condition
                        .steps
                        .first()
                        .is_some_and(|s| s.member.key == f.key)
                })
            })
        };
        let candidates = unruled
            .map(|f| (f, BOTH))
            .chain(ruled.map(|f| (f, ASCII)))
            .filter(|(f, _)| !read(f));
        let mut best: Option<(&Field, Vec<Case>, Vec<String>)> = None;
        for (pad, scripts) in candidates {
            let (cases, missing) = self.byte_cap_cases(base, &cap, pad, scripts);
            let done = missing.is_empty();
            if best
                .as_ref()
                .is_none_or(|(_, most, _)| cases.len() > most.len())
            {
                best = Some((pad, cases, missing));
            }
            if done {
                break;
            }
        }
        let Some((pad, cases, missing)) = best else {
            self.notes.push(format!(
                "no root text field without a char cap to pad with: the byte cap {} has no N-1/N/N+1 cases",
                cap.constant
            ));
            return;
        };
        for case in cases {
            self.push("", case);
        }
        if !missing.is_empty() {
            self.notes.push(format!(
                "max_bytes: no value of `{}` keeps its rules and gives {}",
                pad.key,
                missing.join(", ")
            ));
        }
    }

    /// The byte-cap cases padded through `pad`, in each script, and the `script label`s no
    /// value of `pad` gives.
    fn byte_cap_cases(
        &self,
        base: &Value,
        cap: &CapUse,
        pad: &Field,
        scripts: &[(&str, &str)],
    ) -> (Vec<Case>, Vec<String>) {
        let n = cap.value;
        let seed = match base.get(&pad.key).and_then(Value::as_str) {
            Some(s) => s.to_owned(),
            None => self
                .synth_text(pad, 0)
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        };
        let probe = |s: String| {
            let mut d = base.clone();
            d[&pad.key] = if pad.ty.array { json!([s]) } else { json!(s) };
            d
        };
        let mut missing = Vec::new();
        let mut cases = Vec::new();
        for (script, unit) in scripts {
            for (label, target) in [("n-1", n - 1), ("n", n), ("n+1", n + 1)] {
                let at_seed = self.canonical_bytes(&probe(seed.clone()));
                let value = if pad.rules == FieldRules::default() && !pad.ty.non_blank {
                    // Unruled: any text; `unit`s then ASCII for the rest.
                    let empty = self.canonical_bytes(&probe(String::new()));
                    target.checked_sub(empty).map(|room| {
                        let room = room as usize;
                        let k = room / unit.len();
                        unit.repeat(k) + &"a".repeat(room - k * unit.len())
                    })
                } else {
                    // One ASCII byte per char added to (or cut from) the seed.
                    let len = seed.chars().count() as u64;
                    (len + target)
                        .checked_sub(at_seed)
                        .and_then(|want| fit::fit_any(pad, &seed, unit, true, want as usize))
                };
                let Some(doc) = value.map(probe) else {
                    missing.push(format!("{script} {label}"));
                    continue;
                };
                if self.canonical_bytes(&doc) != target {
                    missing.push(format!("{script} {label}"));
                    continue;
                }
                let errors = if target > n {
                    vec![(cap.code.clone(), String::new())]
                } else {
                    vec![]
                };
                cases.push(Case::new(format!("max_bytes.{script}.{label}"), format!(
                        "the normalized document is {target} bytes as compact JSON ({script} padding in `{}`), cap {n} ({})",
                        pad.key, cap.constant
                    ), format!("max_bytes:{}", cap.constant), doc).x_only().errors(errors));
            }
        }
        (cases, missing)
    }
}
