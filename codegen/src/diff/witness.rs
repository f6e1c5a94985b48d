//! Proving a break: a document one side accepts and the other refuses, judged by both
//! models' interpreters, found among both sides' corpora or synthesized from them by
//! mutating the changed member.

use serde_json::{Map, Value};

use super::compare::{Found, Hint};
use super::{locate, Break, Change, Loaded, Proof, Verdict, Witness};
use crate::interpret::Validator;

/// How many valid corpus documents each synthesis starts from.
const BASES: usize = 24;
/// How many of the longest valid corpus documents it starts from too.
const LONGEST: usize = 4;

fn verdict(v: &Validator, text: &str) -> Verdict {
    Verdict {
        errors: match v.validate(text.as_bytes()) {
            Ok(_) => Vec::new(),
            Err(report) => report
                .iter()
                .map(|x| (x.code.to_string(), x.path.clone()))
                .collect(),
        },
    }
}

/// `items[3].name` → `items.name`.
fn unindexed(path: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for ch in path.chars() {
        match ch {
            '[' => skipping = true,
            ']' => skipping = false,
            _ if !skipping => out.push(ch),
            _ => {}
        }
    }
    out
}

/// Whether a refusal concerns the member at `path` (or, at document level, anything).
fn concerns(refusal: &Verdict, path: Option<&str>) -> bool {
    let Some(path) = path else { return true };
    let leaf = path.rsplit('.').next().unwrap_or(path);
    refusal.errors.iter().any(|(_, at)| {
        let at = unindexed(at);
        at.is_empty()
            || at == path
            || at.starts_with(&format!("{path}."))
            || path.starts_with(&format!("{at}."))
            || at.rsplit('.').next() == Some(leaf)
    })
}

/// The change, located and with a proof for each `documents`/`readers` break.
pub(super) fn prove(mut found: Found, old: &Loaded<'_>, new: &Loaded<'_>) -> Change {
    // The search walks members by key: `items[].name` is `items.name` to it.
    found.hint.path = found.hint.path.map(|p| p.replace("[]", ""));
    let old_v = Validator::new(&old.spec);
    let new_v = Validator::new(&new.spec);
    let mut candidates: Vec<(String, String)> = Vec::new();
    for (side, l) in [("old", old), ("new", new)] {
        for (id, doc) in &l.corpus {
            candidates.push((
                format!("corpus of the {side} spec: case `{id}`"),
                doc.clone(),
            ));
        }
    }
    let corpus_count = candidates.len();
    let wanted: Vec<Break> = if found.undirected.is_some() {
        vec![Break::Documents, Break::Readers]
    } else {
        found
            .breaks
            .iter()
            .copied()
            .filter(|b| b.needs_witness())
            .collect()
    };
    let mut proofs = Vec::new();
    let mut synthesized: Option<Vec<(String, String)>> = None;
    for want in &wanted {
        let (accepts, refuses) = match want {
            Break::Documents => (&old_v, &new_v),
            _ => (&new_v, &old_v),
        };
        let flips = |text: &str| {
            let a = verdict(accepts, text);
            if !a.valid() {
                return None;
            }
            let r = verdict(refuses, text);
            let path = found
                .hint
                .path
                .as_deref()
                .filter(|_| found.hint.anywhere.is_none());
            // A refusal for this change reports only its rule's codes (when known).
            let this_change = found.hint.codes.is_empty()
                || r.errors.iter().all(|(c, _)| found.hint.codes.contains(c));
            (!r.valid() && concerns(&r, path) && this_change).then_some((a, r))
        };
        let mut hit = candidates
            .iter()
            .find_map(|(src, text)| flips(text).map(|v| (src.clone(), text.clone(), v)));
        if hit.is_none() {
            let synth = synthesized
                .get_or_insert_with(|| synthesize(&found.hint, &candidates, &old_v, &new_v));
            hit = synth
                .iter()
                .find_map(|(src, text)| flips(text).map(|v| (src.clone(), text.clone(), v)));
        }
        proofs.push(match hit {
            Some((source, document, (a, r))) => {
                let (old, new) = if *want == Break::Documents { (a, r) } else { (r, a) };
                Proof::Found(Witness {
                    proves: *want,
                    document,
                    source,
                    old,
                    new,
                })
            }
            None => Proof::Missing {
                proves: *want,
                reason: format!(
                    "no document among the {corpus_count} corpus cases of both sides and the {} synthesized from them is accepted by the {} spec and refused by the {} for this change",
                    synthesized.as_ref().map_or(0, Vec::len),
                    if *want == Break::Documents { "old" } else { "new" },
                    if *want == Break::Documents { "new" } else { "old" },
                ),
            },
        });
    }
    if let Some(moved) = &found.moved {
        proofs.extend(code_witness(moved, &candidates, &old_v, &new_v));
    }
    let mut breaks = found.breaks.clone();
    let mut id = found.id;
    if let Some([narrowed, widened, both]) = found.undirected {
        let got: Vec<Break> = proofs
            .iter()
            .filter(|p| matches!(p, Proof::Found(_)))
            .map(Proof::proves)
            .collect();
        let rest = breaks.iter().copied().filter(|b| !b.needs_witness());
        let (new_id, keep): (&'static str, Vec<Break>) = match got.as_slice() {
            [Break::Documents] => (narrowed, vec![Break::Documents]),
            [Break::Readers] => (widened, vec![Break::Readers]),
            _ => (both, vec![Break::Documents, Break::Readers]),
        };
        id = new_id;
        breaks = keep.into_iter().chain(rest).collect();
        if got.len() == 1 {
            proofs.retain(|p| matches!(p, Proof::Found(_)));
        }
    }
    breaks.sort();
    breaks.dedup();
    proofs.sort_by_key(Proof::proves);
    Change {
        id,
        breaks,
        message: found.message,
        old: locate::find(old.source, &found.old),
        new: locate::find(new.source, &found.new),
        proofs,
    }
}

/// A witness of one rule's code changed (`codes`): a corpus document the old spec refuses
/// with the old code and the new spec with the new code at the same path (a field with
/// `key`), where the new spec no longer reports the old code. None when no corpus case
/// shows it (a code change needs no proof to be reported).
fn code_witness(
    (was, now, key): &(String, String, Option<String>),
    candidates: &[(String, String)],
    old_v: &Validator,
    new_v: &Validator,
) -> Option<Proof> {
    let leaf_is_key = |path: &str| {
        key.as_deref()
            .is_none_or(|k| unindexed(path).rsplit('.').next() == Some(k))
    };
    candidates.iter().find_map(|(source, text)| {
        let old = verdict(old_v, text);
        let at = old
            .errors
            .iter()
            .find(|(c, p)| c == was && leaf_is_key(p))
            .map(|(_, p)| p.clone())?;
        let new = verdict(new_v, text);
        let moved = new.errors.iter().any(|(c, p)| c == now && *p == at)
            && !new.errors.iter().any(|(c, p)| c == was && *p == at);
        moved.then(|| {
            Proof::Found(Witness {
                proves: Break::Codes,
                document: text.clone(),
                source: source.clone(),
                old,
                new,
            })
        })
    })
}

/// Documents made from the corpus documents either side accepts by replacing, removing or
/// adding the member at the hint's path, or (at document level) by padding the text.
fn synthesize(
    hint: &Hint,
    candidates: &[(String, String)],
    old_v: &Validator,
    new_v: &Validator,
) -> Vec<(String, String)> {
    let valid: Vec<&String> = candidates
        .iter()
        .map(|(_, t)| t)
        .filter(|t| verdict(old_v, t).valid() || verdict(new_v, t).valid())
        .collect();
    // The first ones, and the longest (at a byte cap: a member changed there tips it over).
    let mut longest = valid.clone();
    longest.sort_by_key(|t| std::cmp::Reverse(t.len()));
    let mut bases: Vec<Value> = Vec::new();
    for t in valid.iter().take(BASES).chain(longest.iter().take(LONGEST)) {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            if !bases.contains(&v) {
                bases.push(v);
            }
        }
    }
    let mut out: Vec<(String, String)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut add = |what: &str, text: String| {
        if seen.insert(text.clone()) {
            out.push((format!("synthesized: {what}"), text));
        }
    };
    if let Some(key) = &hint.anywhere {
        for base in &bases {
            for doc in with_key_everywhere(base, key) {
                add(
                    &format!("`{key}` added in a corpus document"),
                    specmint_runtime::json_text::compact(&doc),
                );
            }
        }
        return out;
    }
    let Some(path) = &hint.path else {
        for base in &bases {
            let text = specmint_runtime::json_text::compact(base);
            add("behind a byte order mark", format!("\u{feff}{text}"));
            for &n in &hint.lengths {
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                if n > text.len() && n - text.len() < 1 << 20 {
                    add(
                        &format!("padded to {n} bytes"),
                        format!("{text}{}", " ".repeat(n - text.len())),
                    );
                }
            }
        }
        return out;
    };
    let segments: Vec<&str> = path.split('.').collect();
    // Values seen at the path anywhere in the corpora, plus the hint's samples.
    let mut pool: Vec<Value> = hint.samples.clone();
    for base in &bases {
        collect(base, &segments, &mut pool);
    }
    pool.dedup();
    pool.truncate(48);
    let mut padded = 0;
    for base in &bases {
        let replace = |current: Option<&Value>| replacements(current, &pool, &hint.lengths);
        for doc in mutate(base, &segments, &replace) {
            add(
                &format!("`{path}` changed in a corpus document"),
                specmint_runtime::json_text::compact(&doc),
            );
            if hint.pad && padded < PADDED {
                padded += 1;
                for v in [old_v, new_v] {
                    if let Some(long) = padded_to_the_cap(&doc, v) {
                        add(
                            &format!(
                                "`{path}` changed in a corpus document, padded to the byte cap"
                            ),
                            long,
                        );
                    }
                }
            }
        }
    }
    out
}

/// How many changed documents are padded to the byte cap (each on both sides).
const PADDED: usize = 32;

/// `doc` with one of its text values lengthened as far as `v` still accepts it (the
/// longest such document: one byte more of the written form and `v`'s byte cap refuses
/// it), as compact JSON; `None` when `v` refuses `doc` or no text can grow.
fn padded_to_the_cap(doc: &Value, v: &Validator) -> Option<String> {
    let text = |k: usize, at: &str| {
        let mut d = doc.clone();
        if let Some(Value::String(s)) = d.pointer_mut(at) {
            s.push_str(&"a".repeat(k));
        }
        specmint_runtime::json_text::compact(&d)
    };
    let accepted = |t: &str| verdict(v, t).valid();
    if !accepted(&text(0, "")) {
        return None;
    }
    let mut leaves = Vec::new();
    string_leaves(doc, String::new(), &mut leaves);
    leaves.into_iter().take(8).find_map(|at| {
        // The first length refused (doubling), then the longest accepted below it.
        let (mut lo, mut hi) = (0usize, 64usize);
        while accepted(&text(hi, &at)) {
            lo = hi;
            hi *= 2;
            if hi > 1 << 20 {
                return None;
            }
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if accepted(&text(mid, &at)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo > 0).then(|| text(lo, &at))
    })
}

/// The JSON pointers of the text values in `v`.
fn string_leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::String(_) => out.push(at),
        Value::Object(m) => {
            for (k, child) in m {
                let key = k.replace('~', "~0").replace('/', "~1");
                string_leaves(child, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                string_leaves(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// `v` with `key` (holding 1) added to one of its objects, once per object at any depth.
fn with_key_everywhere(v: &Value, key: &str) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Object(m) => {
            let mut copy = m.clone();
            copy.insert(key.to_owned(), Value::from(1));
            out.push(Value::Object(copy));
            for (k, child) in m {
                for changed in with_key_everywhere(child, key) {
                    let mut copy = m.clone();
                    copy.insert(k.clone(), changed);
                    out.push(Value::Object(copy));
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                for changed in with_key_everywhere(item, key) {
                    let mut copy = items.clone();
                    copy[i] = changed;
                    out.push(Value::Array(copy));
                }
            }
        }
        _ => {}
    }
    out
}

/// The values at `segments` in `v` (every element of a list on the way).
fn collect(v: &Value, segments: &[&str], out: &mut Vec<Value>) {
    match v {
        Value::Array(items) => items.iter().for_each(|i| collect(i, segments, out)),
        Value::Object(m) => {
            if let Some((first, rest)) = segments.split_first() {
                if let Some(child) = m.get(*first) {
                    if rest.is_empty() {
                        if !out.contains(child) {
                            out.push(child.clone());
                        }
                    } else {
                        collect(child, rest, out);
                    }
                }
            }
        }
        _ => {}
    }
}

/// What to put at a member (`None`: remove it).
fn replacements(current: Option<&Value>, pool: &[Value], lengths: &[u64]) -> Vec<Option<Value>> {
    let mut out: Vec<Option<Value>> = Vec::new();
    if current.is_some() {
        out.push(None);
    }
    out.extend(pool.iter().cloned().map(Some));
    let texts = |s: &str| -> Vec<String> {
        let seed: Vec<char> = if s.is_empty() {
            vec!['a']
        } else {
            s.chars().collect()
        };
        let mut t: Vec<String> = lengths
            .iter()
            .filter(|&&n| n <= 1 << 16)
            .map(|&n| seed.iter().cycle().take(n as usize).collect())
            .collect();
        t.extend([
            String::new(),
            " ".into(),
            s.to_uppercase(),
            s.to_lowercase(),
            format!("{s}-"),
            format!("{s}0"),
            format!("{s}_"),
            format!("{s} "),
            format!("0{s}"),
            shifted(s, usize::MAX),
            shifted(s, 1),
        ]);
        t
    };
    match current {
        Some(Value::String(s)) => out.extend(texts(s).into_iter().map(|t| Some(Value::String(t)))),
        Some(Value::Array(items)) => {
            for &n in lengths.iter().filter(|&&n| n <= 1 << 12) {
                if !items.is_empty() {
                    out.push(Some(Value::Array(
                        items.iter().cycle().take(n as usize).cloned().collect(),
                    )));
                }
            }
            out.push(Some(Value::Array(Vec::new())));
            if let Some(Value::String(s)) = items.first() {
                for t in texts(s) {
                    out.push(Some(Value::Array(vec![Value::String(t)])));
                }
            }
        }
        Some(Value::Number(_)) | None => {
            for &n in lengths {
                out.push(Some(Value::from(n)));
            }
            out.push(Some(Value::from(-1)));
        }
        _ => {}
    }
    out
}

/// `s` with its first `n` ASCII letters and digits each moved one on in its class (`A`→`B`,
/// `z`→`a`, `9`→`0`): same shape, other characters, for a narrowed pattern.
fn shifted(s: &str, n: usize) -> String {
    let mut left = n;
    s.chars()
        .map(|c| {
            let next = |lo: u8, hi: u8| {
                let c = c as u8;
                char::from(if c == hi { lo } else { c + 1 })
            };
            if left == 0 || !c.is_ascii_alphanumeric() {
                return c;
            }
            left -= 1;
            match c {
                'a'..='z' => next(b'a', b'z'),
                'A'..='Z' => next(b'A', b'Z'),
                _ => next(b'0', b'9'),
            }
        })
        .collect()
}

/// `v` with the member at `segments` replaced as `replace` says, once per replacement and
/// per place (the first two items of each list on the way).
fn mutate(
    v: &Value,
    segments: &[&str],
    replace: &dyn Fn(Option<&Value>) -> Vec<Option<Value>>,
) -> Vec<Value> {
    let mut out = Vec::new();
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate().take(2) {
                for changed in mutate(item, segments, replace) {
                    let mut copy = items.clone();
                    copy[i] = changed;
                    out.push(Value::Array(copy));
                }
            }
        }
        Value::Object(m) => {
            let Some((first, rest)) = segments.split_first() else {
                return out;
            };
            if rest.is_empty() {
                for r in replace(m.get(*first)) {
                    let mut copy: Map<String, Value> = m.clone();
                    match r {
                        Some(value) => {
                            copy.insert((*first).to_owned(), value);
                        }
                        None => {
                            copy.remove(*first);
                        }
                    }
                    out.push(Value::Object(copy));
                }
            } else if let Some(child) = m.get(*first) {
                for changed in mutate(child, rest, replace) {
                    let mut copy = m.clone();
                    copy.insert((*first).to_owned(), changed);
                    out.push(Value::Object(copy));
                }
            }
        }
        _ => {}
    }
    out
}
