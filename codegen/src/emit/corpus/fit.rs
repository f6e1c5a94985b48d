//! Values that keep a field's text rules while a probe changes one thing: a length, or
//! which item it is. A patterned value is found by editing a matching seed; where no edit
//! gives one, the probe is left out and the corpus notes why.

use std::collections::BTreeSet;

use regex_lite::Regex;
use specmint_runtime::rules::Ordered;

use crate::model::*;

/// What an edited value may use besides the seed's own characters.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

/// The most candidates tried for one distinct variant.
const TRIES: usize = 20_000;

/// `seed` with the chars `at..at + del` replaced by `ins`.
fn splice(seed: &[char], at: usize, del: usize, ins: &str) -> String {
    let mut s: String = seed[..at].iter().collect();
    s.push_str(ins);
    s.extend(&seed[at + del..]);
    s
}

/// `n` chars of `unit` repeated (a partial unit at the end).
fn fill(unit: &str, n: usize) -> String {
    unit.chars().cycle().take(n).collect()
}

/// The field's own text rules, other than its caps: literal, pattern, relative path,
/// non-blank, format. Blank text is refused too where a requirement (coded, or conditional
/// whose condition may hold) counts it as missing.
pub(super) struct TextRules<'f> {
    f: &'f Field,
    re: Option<Regex>,
}

impl<'f> TextRules<'f> {
    pub(super) fn of(f: &'f Field) -> Self {
        let re = f.ty.pattern.as_deref().and_then(|p| Regex::new(p).ok());
        TextRules { f, re }
    }

    /// Whether `s` keeps them.
    pub(super) fn keep(&self, s: &str) -> bool {
        let ty = &self.f.ty;
        if let Some(lit) = &ty.literal {
            return s == lit;
        }
        let blank = s.trim().is_empty();
        let rules = &self.f.rules;
        let missing = rules.required.is_some() || rules.required_if.is_some();
        let refused = ((ty.non_blank || missing) && blank)
            || (ty.relative_path && s.is_empty())
            || ty.format.is_some_and(|f| !f.is_valid(s));
        !refused && self.re.as_ref().is_none_or(|re| re.is_match(s))
    }
}

/// Whether `s` keeps every rule of the text field `f`: its text rules, its char cap and
/// its minimum length.
pub(super) fn keeps_all(f: &Field, s: &str) -> bool {
    TextRules::of(f).keep(s) && length_violation(f, "", s).is_none()
}

/// The length violation of `s` at `at`, if `s` is over `f`'s char cap or under its
/// minimum length (never both: the check refuses a minimum over the cap): a probe of
/// another text rule that also breaks one says so.
pub(super) fn length_violation(f: &Field, at: &str, s: &str) -> Option<(String, String)> {
    let len = s.chars().count() as u64;
    let over = f.rules.max_chars.as_ref().filter(|c| len > c.value);
    let under = f.rules.min_chars.as_ref().filter(|c| len < c.value);
    over.or(under).map(|c| (c.code.clone(), at.to_owned()))
}

/// Every code the text `s` breaks as `f`'s value at `at` (as an element of `f`'s list when
/// `f` is a list), in the order the validator checks a text: a coded requirement (blank text
/// counts as missing; an element of a list is not the list), then not blank, the cap or
/// minimum, literal, pattern, relative path and format. A probe of one rule states them all,
/// so a case that expects one code lists every code its document breaks (a patterned field
/// with a coded requirement reports both for `""`). A conditional requirement depends on a
/// sibling, so its probes state it themselves.
pub(super) fn text_violations(f: &Field, at: &str, s: &str) -> Vec<(String, String)> {
    use specmint_runtime::rules::{is_blank, relative_path_problem};
    let (rules, ty) = (&f.rules, &f.ty);
    let blank = is_blank(s);
    let re = ty.pattern.as_deref().and_then(|p| Regex::new(p).ok());
    let broken = [
        (blank && !ty.array, &rules.required),
        (blank, &rules.non_blank),
    ];
    let after = [
        (ty.literal.as_ref().is_some_and(|l| s != l), &rules.equals),
        (re.is_some_and(|re| !re.is_match(s)), &rules.pattern),
        (relative_path_problem(s).is_some(), &rules.relative_path),
        (ty.format.is_some_and(|k| !k.is_valid(s)), &rules.format),
    ];
    let code =
        |(b, c): (bool, &Option<String>)| c.clone().filter(|_| b).map(|c| (c, at.to_owned()));
    let mut out: Vec<_> = broken.into_iter().filter_map(code).collect();
    out.extend(length_violation(f, at, s));
    out.extend(after.into_iter().filter_map(code));
    out
}

/// A value of exactly `want` chars that keeps `f`'s text rules and holds `unit`: `seed`
/// with one run replaced by `unit`s (or, for `want` under the seed's length, cut), the
/// smallest edit nearest the end first. `None` when no such edit gives one.
pub(super) fn fit(f: &Field, seed: &str, unit: &str, want: usize) -> Option<String> {
    let rules = TextRules::of(f);
    if f.ty.pattern.is_none() && f.ty.literal.is_none() {
        let s = fill(unit, want);
        return rules.keep(&s).then_some(s);
    }
    let seed: Vec<char> = seed.chars().collect();
    let len = seed.len();
    for del in 0..=len {
        let Some(ins) = (want + del).checked_sub(len) else {
            continue;
        };
        let ins = fill(unit, ins);
        for at in (0..=len - del).rev() {
            let s = splice(&seed, at, del, &ins);
            if (ins.is_empty() || s.contains(unit)) && rules.keep(&s) {
                return Some(s);
            }
        }
    }
    None
}

/// [`fit`] with `unit`, then (`own`) with each ASCII letter or digit of the seed.
pub(super) fn fit_any(f: &Field, seed: &str, unit: &str, own: bool, want: usize) -> Option<String> {
    let own: BTreeSet<char> = if own {
        seed.chars().filter(char::is_ascii_alphanumeric).collect()
    } else {
        BTreeSet::new()
    };
    std::iter::once(unit.to_owned())
        .chain(own.into_iter().map(String::from))
        .find_map(|u| fit(f, seed, &u, want))
}

/// How two texts compare for the strictest uniqueness rule: trimmed, ignoring case.
pub(super) fn folded(s: &str) -> String {
    s.trim().to_lowercase()
}

/// Variant `i` of `seed` (variant 0 is the seed) that keeps `f`'s text rules and has its
/// length, all variants distinct even ignoring case and surrounding space: one or two
/// chars replaced, nearest the end first.
pub(super) fn variant(f: &Field, seed: &str, i: usize) -> Option<String> {
    if i == 0 {
        return Some(seed.to_owned());
    }
    let rules = TextRules::of(f);
    let chars: Vec<char> = seed.chars().collect();
    let mut seen = BTreeSet::from([folded(seed)]);
    let mut found = 0;
    let mut tries = 0;
    for width in 1..=2.min(chars.len()) {
        for at in (0..=chars.len() - width).rev() {
            for a in ALPHABET.chars() {
                for b in ALPHABET
                    .chars()
                    .take(if width == 2 { ALPHABET.len() } else { 1 })
                {
                    tries += 1;
                    if tries > TRIES {
                        return None;
                    }
                    let ins: String = if width == 2 {
                        [a, b].iter().collect()
                    } else {
                        a.to_string()
                    };
                    let s = splice(&chars, at, width, &ins);
                    if rules.keep(&s) && seen.insert(folded(&s)) {
                        found += 1;
                        if found == i {
                            return Some(s);
                        }
                    }
                }
            }
        }
    }
    None
}

/// The first value that repeats among `items` under a uniqueness rule of `f` (compared
/// trimmed and ignoring case, the strictest fold), for a probe that must not break it.
pub(super) fn repeated(f: &Field, items: &[serde_json::Value]) -> Option<String> {
    let key = |v: &serde_json::Value| match v.as_str() {
        Some(s) => folded(s),
        None => v.to_string(),
    };
    let mut lists: Vec<Vec<String>> = Vec::new();
    if f.rules.unique.is_some() {
        lists.push(items.iter().map(key).collect());
    }
    for u in &f.rules.unique_by {
        // Every member, joined; an item without one of them is compared with none.
        lists.push(
            items
                .iter()
                .filter_map(|it| {
                    u.keys
                        .iter()
                        .map(|k| it.get(&k.key).filter(|v| !v.is_null()).map(key))
                        .collect::<Option<Vec<_>>>()
                })
                .map(|parts| parts.join("\u{0}"))
                .collect(),
        );
    }
    lists.into_iter().find_map(|l| {
        let mut seen = BTreeSet::new();
        l.into_iter().find(|k| !seen.insert(k.clone()))
    })
}

/// The value-rule violations (blank, char cap, pattern; integer and number range) and list-count
/// violations (minimum, cap, one per over-full group of a per-group cap) of the fields in
/// `v`, read as object `o` at `at`: a probe's document is checked for violations its
/// mutation did not mean, so a case never carries one by accident.
pub(super) fn value_violations(
    spec: &Spec,
    o: &Object,
    v: &serde_json::Value,
    at: &str,
    out: &mut Vec<(String, String)>,
) {
    let Some(m) = v.as_object() else {
        return;
    };
    for n in o.order.iter().filter(|n| order_broken(n, m)) {
        out.push((n.code.clone(), super::join(at, &n.b.key)));
    }
    for f in &o.fields {
        let Some(x) = m.get(&f.key) else {
            continue;
        };
        let path = super::join(at, &f.key);
        if let Some(a) = x.as_array() {
            if let Some(max) = f
                .rules
                .max_items
                .as_ref()
                .filter(|c| a.len() as u64 > c.value)
            {
                out.push((max.code.clone(), path.clone()));
            }
            if let Some(min) = f
                .rules
                .min_items
                .as_ref()
                .filter(|c| (a.len() as u64) < c.value)
            {
                out.push((min.code.clone(), path.clone()));
            }
            for g in &f.rules.max_items_per_group {
                let mut groups: Vec<(&serde_json::Value, u64)> = Vec::new();
                for key in a.iter().filter_map(|it| it.get(&g.by.key)) {
                    match groups.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, count)) => *count += 1,
                        None => groups.push((key, 1)),
                    }
                }
                for _ in groups.iter().filter(|(_, count)| *count > g.cap.value) {
                    out.push((g.cap.code.clone(), path.clone()));
                }
            }
        }
        let items: Vec<(String, &serde_json::Value)> = match (f.ty.array, x.as_array()) {
            (true, Some(a)) => a
                .iter()
                .enumerate()
                .map(|(i, e)| (format!("{path}[{i}]"), e))
                .collect(),
            (true, None) => continue,
            (false, _) => vec![(path, x)],
        };
        for (p, e) in items {
            match &f.ty.base {
                Base::String => {
                    let Some(s) = e.as_str() else { continue };
                    if let Some(code) = &f.rules.non_blank {
                        if f.ty.non_blank && s.trim().is_empty() {
                            out.push((code.clone(), p.clone()));
                        }
                    }
                    out.extend(length_violation(f, &p, s));
                    if let (Some(code), Some(re)) = (&f.rules.pattern, &f.ty.pattern) {
                        if Regex::new(re).is_ok_and(|re| !re.is_match(s)) {
                            out.push((code.clone(), p.clone()));
                        }
                    }
                    if let (Some(code), Some(fmt)) = (&f.rules.format, &f.ty.format) {
                        if !fmt.is_valid(s) {
                            out.push((code.clone(), p.clone()));
                        }
                    }
                }
                Base::Object(n) => {
                    if let Some(TypeDef::Object(inner)) = spec.type_def(n) {
                        value_violations(spec, inner, e, &p, out);
                    }
                }
                Base::Decimal { .. } => {
                    let Some(d) = crate::emit::corpus::json_decimal(e) else {
                        continue;
                    };
                    out.extend(f.decimal_errors(d, &p));
                }
                Base::Number => {
                    if let (Some(code), Some(r), Some(n)) =
                        (&f.rules.range, &f.ty.number_range, e.as_f64())
                    {
                        if !r.contains(n) {
                            out.push((code.clone(), p.clone()));
                        }
                    }
                }
                _ => {
                    // A value outside the type's width is a parse error, not a range one.
                    let n = e.as_i64().map(i128::from).or(e.as_u64().map(i128::from));
                    let width = f.ty.base.integer_width();
                    if let (Some(code), Some(r), Some(n), Some((lo, hi))) =
                        (&f.rules.range, &f.ty.range, n, width)
                    {
                        if (lo..=hi).contains(&n) && !r.contains(n) {
                            out.push((code.clone(), p.clone()));
                        }
                    }
                }
            }
        }
    }
}

/// A value matching `pattern` with no example to start from: the pattern read as a string,
/// each class taken as its first allowed character, each group as its first alternative,
/// each repeat at its least count (`+` once); then single characters repeated. `None` when
/// neither matches.
pub(super) fn invent(pattern: &str) -> Option<String> {
    let re = Regex::new(pattern).ok()?;
    let first_of = |class: &str| {
        let re = Regex::new(&format!("^{class}$")).ok()?;
        ALPHABET
            .chars()
            .chain(" ./:".chars())
            .find(|c| re.is_match(&c.to_string()))
    };
    // Frames: (atoms, still taking atoms: false after the first `|`).
    let mut frames: Vec<(Vec<String>, bool)> = vec![(Vec::new(), true)];
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let (atoms, taking) = frames.last_mut()?;
        let taking = *taking;
        match c {
            '^' | '$' => {}
            '\\' => {
                i += 1;
                if taking {
                    atoms.push(chars.get(i)?.to_string());
                }
            }
            '[' => {
                let start = i;
                i += 1;
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                if chars.get(i) == Some(&']') {
                    i += 1;
                }
                while *chars.get(i)? != ']' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                if taking {
                    let class: String = chars[start..=i].iter().collect();
                    atoms.push(first_of(&class)?.to_string());
                }
            }
            '(' => {
                if chars.get(i + 1) == Some(&'?') {
                    i += 2;
                }
                frames.push((Vec::new(), taking));
            }
            '|' => frames.last_mut()?.1 = false,
            ')' => {
                let (inner, _) = frames.pop()?;
                let (atoms, taking) = frames.last_mut()?;
                if *taking {
                    atoms.push(inner.concat());
                }
            }
            '*' | '?' => {
                if taking {
                    atoms.pop();
                }
            }
            '+' => {}
            '{' => {
                let end = i + chars[i..].iter().position(|&c| c == '}')?;
                let body: String = chars[i + 1..end].iter().collect();
                let least: usize = body.split(',').next()?.trim().parse().ok()?;
                if taking {
                    let last = atoms.pop()?;
                    atoms.push(last.repeat(least));
                }
                i = end;
            }
            _ => {
                if taking {
                    atoms.push(c.to_string());
                }
            }
        }
        i += 1;
    }
    let s = frames.pop()?.0.concat();
    if re.is_match(&s) {
        return Some(s);
    }
    (1..=8)
        .flat_map(|n| ALPHABET.chars().map(move |c| c.to_string().repeat(n)))
        .find(|s| re.is_match(s))
}

/// A JSON value as `[[order]]` compares it (as the runtime's `rules::order` does).
fn ordered(v: &serde_json::Value) -> Option<Ordered<'_>> {
    match v {
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Some(Ordered::Integer(i128::from(i))),
            (_, Some(u)) => Some(Ordered::Integer(i128::from(u))),
            _ => n.as_f64().map(Ordered::Number),
        },
        serde_json::Value::String(s) => Ordered::from_text(s),
        _ => None,
    }
}

/// Whether the members of object `m` break the order rule `n` (both present, comparable,
/// `b` before `a`, or equal to it when strict).
pub(super) fn order_broken(n: &Order, m: &serde_json::Map<String, serde_json::Value>) -> bool {
    let (Some(a), Some(b)) = (m.get(&n.a.key), m.get(&n.b.key)) else {
        return false;
    };
    let (Some(a), Some(b)) = (ordered(a), ordered(b)) else {
        return false;
    };
    match a.compare(&b) {
        Some(std::cmp::Ordering::Greater) => true,
        Some(std::cmp::Ordering::Equal) => n.strict,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invented_values_match_their_pattern() {
        for (p, want) in [
            ("^pkg_[A-Za-z0-9_-]{1,63}$", "pkg_a"),
            ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "0000-00-00"),
            ("^https?://[a-z0-9-]+(?:\\.[a-z0-9-]+)*(?:/[a-z0-9_-]*)*$", "http://a"),
            ("^(?:red|green|blue)$", "red"),
            ("^v[0-9]+\\.[0-9]+$", "v0.0"),
            ("^[^/\\n]+$", "a"),
            ("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$", "0000-00-00T00:00:00Z"),
        ] {
            assert_eq!(invent(p).as_deref(), Some(want), "{p}");
        }
    }
}
