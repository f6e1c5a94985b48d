//! Synthesis: valid values for every type, valid objects with their required fields, chosen
//! members, met conditions and matching digests.

use serde_json::{json, Map, Value};

use super::*;
use crate::model::*;

/// A short distinct token for item `i`: `a`, `b`, .., `z`, `ba`, ..
pub(super) fn token(mut i: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'a' + (i % 26) as u8);
        i /= 26;
        if i == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ascii")
}

/// Every string value under the key `key` anywhere in `v`.
pub(super) fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k == key {
                    if let Some(s) = x.as_str() {
                        out.push(s.to_owned());
                    }
                }
                strings_under(x, key, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| strings_under(x, key, out)),
        _ => {}
    }
}

/// Every string anywhere in `v`.
fn all_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Object(m) => m.values().for_each(|x| all_strings(x, out)),
        Value::Array(a) => a.iter().for_each(|x| all_strings(x, out)),
        _ => {}
    }
}

pub(super) const B64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The bytes of `data` held in `encoding` (`utf8` or canonical standard base64).
pub(super) fn decode(encoding: &str, data: &str) -> Option<Vec<u8>> {
    match encoding {
        "utf8" => Some(data.as_bytes().to_vec()),
        "base64" => {
            let bytes = data.as_bytes();
            if bytes.len() % 4 != 0 {
                return None;
            }
            let mut out = Vec::new();
            for chunk in bytes.chunks(4) {
                let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
                if pad > 2 {
                    return None;
                }
                let mut n = 0u32;
                for &c in &chunk[..4 - pad] {
                    n = n << 6 | B64.iter().position(|&x| x == c)? as u32;
                }
                n <<= 6 * pad as u32;
                let got = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
                out.extend_from_slice(&got[..3 - pad]);
            }
            (encode("base64", &out).as_deref() == Some(data)).then_some(out)
        }
        _ => None,
    }
}

/// `bytes` written in `encoding` (`None` when `utf8` and they are not UTF-8).
pub(super) fn encode(encoding: &str, bytes: &[u8]) -> Option<String> {
    match encoding {
        "utf8" => String::from_utf8(bytes.to_vec()).ok(),
        "base64" => {
            let mut s = String::new();
            for chunk in bytes.chunks(3) {
                let mut b = [0u8; 3];
                b[..chunk.len()].copy_from_slice(chunk);
                let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
                for i in 0..4 {
                    if i <= chunk.len() {
                        s.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
                    } else {
                        s.push('=');
                    }
                }
            }
            Some(s)
        }
        _ => None,
    }
}

/// Lower-case hex SHA-256.
pub(super) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl<'a> Gen<'a> {
    pub(super) fn object(&self, name: &str) -> Option<&'a Object> {
        match self.spec.type_def(name) {
            Some(TypeDef::Object(o)) => Some(o),
            _ => None,
        }
    }

    /// The table of an object-typed field's items or value.
    pub(super) fn object_of(&self, f: &Field) -> Option<&'a Object> {
        match &f.ty.base {
            Base::Object(n) => self.object(n),
            _ => None,
        }
    }

    pub(super) fn enum_values(&self, name: &str) -> Vec<&'a str> {
        self.spec.enum_spellings(name)
    }

    /// A valid value of the element type of `ty` (item `i`, `shift` for enum choice).
    pub(super) fn synth_base(&self, base: &Base, i: usize, shift: usize, depth: usize) -> Value {
        match base {
            Base::String => json!(token(i)),
            Base::Bool => json!(false),
            Base::U32 | Base::U64 | Base::I32 | Base::I64 => json!(i),
            Base::Number => json!(i),
            // Without its Type cell's rules: `synth_element` keeps them.
            Base::Decimal { .. } => json!(i),
            Base::Enum(n) => {
                let vs = self.enum_values(n);
                json!(vs[(i + shift) % vs.len()])
            }
            Base::Union(n) => match self.spec.type_def(n) {
                Some(TypeDef::Union(u)) => {
                    let v = &u.variants[0];
                    let mut m = Map::new();
                    m.insert(u.tag.clone(), json!(v.tag_value));
                    for f in &v.members {
                        if !f.ty.nullable {
                            m.insert(f.key.clone(), self.synth_field(f, i, 0, depth + 1));
                        }
                    }
                    Value::Object(m)
                }
                _ => Value::Null,
            },
            Base::Object(n) => match self.object(n) {
                Some(o) if depth < 8 => self.synth_object(o, i, depth + 1),
                _ => json!({}),
            },
            // Filled in by `synth_object` once the choosing field has its value.
            Base::Selected(_) => json!({}),
            Base::Any => json!(token(i)),
        }
    }

    /// A valid text value of a field (item `i`): its literal, a value matching its pattern
    /// (taken from the spec's valid examples, variant `i` of it), or a token.
    pub(super) fn synth_text(&self, f: &Field, i: usize) -> Value {
        if let Some(lit) = &f.ty.literal {
            return json!(lit);
        }
        if let Some(format) = f.ty.format {
            return json!(super::formats::sample(format, i));
        }
        if let Some(p) = &f.ty.pattern {
            if let Some(v) = self.example_text(f, p) {
                // Distinct items stay distinct under the strictest uniqueness rule.
                return json!(fit::variant(f, &v, i).unwrap_or(v));
            }
            if let Some(v) = fit::invent(p).filter(|v| fit::keeps_all(f, v)) {
                return json!(fit::variant(f, &v, i).unwrap_or(v));
            }
        }
        // Long enough for a char minimum.
        let mut t = token(i);
        let least = f.rules.min_chars.as_ref().map_or(0, |c| c.value as usize);
        while t.chars().count() < least {
            t.push('x');
        }
        json!(t)
    }

    /// A string under `f`'s key in the spec's examples that matches `pattern`.
    pub(super) fn example_text(&self, f: &Field, pattern: &str) -> Option<String> {
        let re = regex_lite::Regex::new(pattern).ok()?;
        let mut found = Vec::new();
        for e in &self.spec.examples {
            if let Ok(v) = serde_json::from_str::<Value>(&e.text) {
                strings_under(&v, &f.key, &mut found);
            }
        }
        let fits = |s: &String| re.is_match(s) && fit::keeps_all(f, s);
        if let Some(s) = found.into_iter().find(fits) {
            return Some(s);
        }
        // Under another key: any string of the examples that keeps the field's rules.
        let mut all = Vec::new();
        for e in &self.spec.examples {
            if let Ok(v) = serde_json::from_str::<Value>(&e.text) {
                all_strings(&v, &mut all);
            }
        }
        all.into_iter().find(fits)
    }

    /// A valid value of a required field's full type.
    pub(super) fn synth_field(&self, f: &Field, i: usize, shift: usize, depth: usize) -> Value {
        if f.ty.array {
            if f.rules.required.is_some() || f.rules.min_items.is_some() {
                let need = f.rules.min_items.as_ref().map_or(1, |c| c.value as usize);
                (0..need)
                    .map(|k| self.synth_element(f, i + k, shift, depth))
                    .collect()
            } else {
                json!([])
            }
        } else {
            self.synth_element(f, i, shift, depth)
        }
    }

    /// A valid value of one element of `f` (the value itself when `f` is no array): text
    /// that keeps its rules, an integer within its range, or any value of its base.
    pub(super) fn synth_element(&self, f: &Field, i: usize, shift: usize, depth: usize) -> Value {
        if let Base::Decimal { .. } = f.ty.base {
            return decimal_json(decimal_sample(&f.ty, i));
        }
        if let Some(r) = &f.ty.number_range {
            // `i` when within the bounds, else the bound it crosses.
            let mut n = i as f64;
            if let Some(min) = r.min.filter(|&m| m > n) {
                n = min;
            }
            if let Some(max) = r.max.filter(|&m| m < n) {
                n = max;
            }
            return crate::emit::schema::number_json(n);
        }
        match &f.ty.range {
            _ if f.ty.base == Base::String => self.synth_text(f, i),
            Some(r) => {
                let mut n = i128::try_from(i).unwrap_or(0);
                if let Some(min) = r.min.filter(|&m| m > n) {
                    n = min.saturating_add(n);
                }
                if let Some(max) = r.max.filter(|&m| m < n) {
                    n = max;
                }
                crate::emit::schema::integer_json(n)
            }
            None => self.synth_base(&f.ty.base, i, shift, depth),
        }
    }

    /// A valid object with its required fields only; `b` sides of `not_equal` get another
    /// value, and of `order` a later one, chosen members get the shape their choosing field picks, conditional
    /// requirements that hold are met, and declared digests match.
    pub(super) fn synth_object(&self, o: &Object, i: usize, depth: usize) -> Value {
        let mut m = Map::new();
        for f in o.fields.iter().filter(|f| f.required) {
            let shift = usize::from(o.not_equal.iter().any(|n| n.b.key == f.key));
            m.insert(f.key.clone(), self.synth_field(f, i, shift, depth));
        }
        if let Some(sel) = &o.selector {
            self.choose(sel, &mut m, true);
        }
        self.meet_required_if(o, &mut m);
        keep_order(o, &mut m, None);
        self.fix_digests(o, &mut m, None);
        Value::Object(m)
    }

    /// Gives the chosen members the shape of the case the choosing field holds (`force`:
    /// even when they are already objects).
    pub(super) fn choose(&self, sel: &Selector, m: &mut Map<String, Value>, force: bool) {
        let Some(value) = m.get(&sel.by.key).and_then(Value::as_str) else {
            return;
        };
        let Some(case) = sel.cases.iter().find(|c| c.value == value) else {
            return;
        };
        for (member, table) in sel.members.iter().zip(&case.tables) {
            if force || !m.get(member).is_some_and(Value::is_object) {
                let v = match self.object(table) {
                    Some(t) => self.synth_object(t, 0, 1),
                    None => json!({}),
                };
                m.insert(member.clone(), v);
            }
        }
    }

    /// Fills every conditionally required field whose condition holds and that is absent,
    /// then keeps the object's guarded rules ([`Gen::meet_guarded`]).
    pub(super) fn meet_required_if(&self, o: &Object, m: &mut Map<String, Value>) {
        self.meet_required_if_but(o, m, None);
    }

    /// [`Gen::meet_required_if`], leaving member `except` (the one a mutation set) as it is.
    pub(super) fn meet_required_if_but(
        &self,
        o: &Object,
        m: &mut Map<String, Value>,
        except: Option<&str>,
    ) {
        self.meet_conditional_fields(o, m);
        self.meet_guarded(o, m, except);
    }

    /// Fills every conditionally required field whose condition holds and that is absent.
    fn meet_conditional_fields(&self, o: &Object, m: &mut Map<String, Value>) {
        for f in &o.fields {
            let Some(ri) = &f.rules.required_if else {
                continue;
            };
            let holds = self.condition_holds(m, &ri.condition);
            if holds && m.get(&f.key).is_none_or(Value::is_null) {
                let v = self.synth_field(f, 0, 0, 1);
                m.insert(f.key.clone(), v);
            }
        }
    }

    /// Makes each declared digest (and length) match the content. With `old`, the object as
    /// it was before one member changed: a changed encoding re-encodes the same bytes.
    pub(super) fn fix_digests(
        &self,
        o: &Object,
        m: &mut Map<String, Value>,
        old: Option<&Map<String, Value>>,
    ) {
        for d in &o.digest {
            let enc = |m: &Map<String, Value>| {
                m.get(&d.encoding.key)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            let data = |m: &Map<String, Value>| {
                m.get(&d.data.key)
                    .and_then(Value::as_str)
                    .map(str::to_owned)
            };
            if let Some(old) = old {
                if let (Some(oe), Some(ne), Some(od), Some(nd)) =
                    (enc(old), enc(m), data(old), data(m))
                {
                    if oe != ne && od == nd {
                        if let Some(text) = decode(&oe, &od).and_then(|b| encode(&ne, &b)) {
                            m.insert(d.data.key.clone(), json!(text));
                        }
                    }
                }
            }
            let (Some(e), Some(text)) = (enc(m), data(m)) else {
                continue;
            };
            let Some(bytes) = decode(&e, &text) else {
                continue;
            };
            if let Some(Member { key: len, .. }) = &d.length {
                m.insert(len.clone(), json!(bytes.len()));
            }
            if m.get(&d.sha256.key).is_some_and(Value::is_string) {
                m.insert(d.sha256.key.clone(), json!(sha256_hex(&bytes)));
            }
        }
    }

    /// The base document: the spec's first valid example.
    pub(super) fn base(&self) -> Option<Value> {
        self.spec
            .examples
            .iter()
            .find(|e| e.kind == ExampleKind::Valid)
            .and_then(|e| serde_json::from_str(&e.text).ok())
    }

    /// `count` distinct valid elements of an array field.
    pub(super) fn elements(&self, f: &Field, count: usize) -> Vec<Value> {
        (0..count)
            .map(|i| match &f.ty.base {
                Base::Object(n) => match self.object(n) {
                    Some(o) => self.synth_object(o, i, 0),
                    None => Value::Null,
                },
                _ => self.synth_element(f, i, 0, 0),
            })
            .collect()
    }

    /// `v` as the first element of array field `f`, followed by as many valid elements as
    /// its minimum item count asks for (just `[v]` when it has none, or when the filler
    /// would repeat `v` under a uniqueness rule: the probe is then left out as stray).
    pub(super) fn first_of(&self, f: &Field, v: Value) -> Value {
        let need = f.rules.min_items.as_ref().map_or(1, |c| c.value as usize);
        let mut items = vec![v];
        items.extend(self.elements(f, need).into_iter().skip(1));
        if items.len() > 1 && fit::repeated(f, &items).is_some() {
            items.truncate(1);
        }
        Value::Array(items)
    }

    /// Enum values of member `by` of the items of array field `f`.
    pub(super) fn group_values(&self, f: &Field, by: &str) -> Vec<String> {
        let Base::Object(n) = &f.ty.base else {
            return vec![];
        };
        let Some(o) = self.object(n) else {
            return vec![];
        };
        match o.fields.iter().find(|m| m.key == by).map(|m| &m.ty.base) {
            Some(Base::Enum(e)) => self.enum_values(e).iter().map(|s| s.to_string()).collect(),
            _ => vec![],
        }
    }

    /// `len` elements with every grouping member round-robin, so no per-group cap is hit.
    pub(super) fn spread(&self, f: &Field, len: usize) -> Vec<Value> {
        let mut items = self.elements(f, len);
        for g in &f.rules.max_items_per_group {
            let groups = self.group_values(f, &g.by.key);
            if groups.is_empty() {
                continue;
            }
            for (i, it) in items.iter_mut().enumerate() {
                it[&g.by.key] = json!(groups[i % groups.len()]);
            }
        }
        items
    }
}

/// Puts the members of `m` back in every `[[order]]` of `o` they break: the side that was
/// not just set (`set`, the key a mutation wrote; `None`: the `b` side) moves a step past
/// the other, so a probe of one side is not also an order violation.
pub(super) fn keep_order(o: &Object, m: &mut Map<String, Value>, set: Option<&str>) {
    for n in &o.order {
        if !super::fit::order_broken(n, m) {
            continue;
        }
        let (from, to, later) = if set == Some(n.b.key.as_str()) {
            (&n.b.key, &n.a.key, false)
        } else {
            (&n.a.key, &n.b.key, true)
        };
        // Equal is in order unless strict; a value the other side's type or range does not
        // hold is not written (the case that needs it is left out as breaking the order).
        let Some(v) = m.get(from) else { continue };
        let v = if n.strict {
            step(v, later)
        } else {
            Some(v.clone())
        };
        let field = o.fields.iter().find(|f| f.key == *to);
        if let (Some(v), Some(field)) = (v, field) {
            if holds(field, &v) {
                m.insert(to.clone(), v);
            }
        }
    }
}

/// Whether `v` can be held by an integer field `f` (an integer within its width and range)
/// or a ranged number field (a number within its range); any value for any other field.
fn holds(f: &Field, v: &Value) -> bool {
    if let Base::Decimal { .. } = f.ty.base {
        return json_decimal(v).is_some_and(|d| decimal_breaks(&f.ty, d) == (false, false));
    }
    if let (Some(r), Base::Number) = (&f.ty.number_range, &f.ty.base) {
        return v.as_f64().is_some_and(|n| r.contains(n));
    }
    let n = v.as_i64().map(i128::from).or(v.as_u64().map(i128::from));
    match (n, f.ty.base.integer_width()) {
        (Some(n), Some((lo, hi))) => {
            (lo..=hi).contains(&n) && f.ty.range.is_none_or(|r| r.contains(n))
        }
        (None, Some(_)) => false,
        _ => true,
    }
}

/// A value one step after (`later`) or before `v`: an integer ±1, a number ±1, a date or
/// date-time on the first day of the next or previous year.
fn step(v: &Value, later: bool) -> Option<Value> {
    let sign: i64 = if later { 1 } else { -1 };
    match v {
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Some(json!(i.checked_add(sign)?)),
            (_, Some(u)) => Some(json!(if later { u.checked_add(1)? } else { u - 1 })),
            _ => Some(json!(n.as_f64()? + sign as f64)),
        },
        Value::String(s) => {
            let year: i64 = s.get(..4)?.parse().ok()?;
            let year = year + sign;
            if !(0..=9999).contains(&year) {
                return None;
            }
            Some(json!(if s.len() == 10 {
                format!("{year:04}-01-01")
            } else {
                format!("{year:04}-01-01T00:00:00Z")
            }))
        }
        _ => None,
    }
}
