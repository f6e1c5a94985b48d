//! Mutation family: closed sets. Every enum value and near misses of it; every union form,
//! the short form and near misses of tags.

use serde_json::{json, Map, Value};

use super::*;
use crate::model::*;

/// Near misses of enum spellings: upper case, hyphen for underscore (or the reverse), a
/// trailing space. None of them is itself a value.
pub(super) fn near_misses(values: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for v in values {
        let mut cands = vec![
            (format!("{v}.upper"), v.to_uppercase()),
            (format!("{v}.capitalized"), {
                let mut c = v.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            }),
            (format!("{v}.trailing_space"), format!("{v} ")),
        ];
        if v.contains('_') {
            cands.push((format!("{v}.hyphen"), v.replace('_', "-")));
        } else if v.contains('-') {
            cands.push((format!("{v}.underscore"), v.replace('-', "_")));
        }
        for (label, miss) in cands {
            if !values.contains(&miss.as_str()) && miss != *v {
                out.push((label, miss));
            }
        }
    }
    out
}

impl<'a> Gen<'a> {
    /// A non-array enum field: every value, and near misses.
    pub(super) fn enums(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let parse = self.spec.errors.parse.as_str();
        let last = hops.last().expect("non-empty");
        let f = last.field;
        let Base::Enum(name) = &f.ty.base else {
            return;
        };
        let values = self.enum_values(name);
        let at = if f.ty.array {
            format!("{path}[0]")
        } else {
            path.to_owned()
        };
        let wrap = |g: &Self, v: Value| if f.ty.array { g.first_of(f, v) } else { v };
        // The other side of a `not_equal` moves out of the way of the value under test.
        let partner = last.owner.not_equal.iter().find_map(|n| {
            if n.a.key == f.key {
                Some(n.b.key.clone())
            } else if n.b.key == f.key {
                Some(n.a.key.clone())
            } else {
                None
            }
        });
        let add = |g: &mut Self, id: String, what: String, s: &str, ok: bool| {
            let value = wrap(g, json!(s));
            let mut doc = g.with(base, hops, value);
            if let Some(p) = &partner {
                let other = values.iter().find(|v| **v != s).copied().unwrap_or(s);
                g.owner_mut(&mut doc, hops).insert(p.clone(), json!(other));
            }
            // A value outside the list: the field's `enum` code where it has one (the member
            // then read as absent), else the parse code.
            let code = f.rules.enum_code.as_deref().unwrap_or(parse);
            let errors = unless(ok, code.to_owned(), at.clone());
            g.push(
                &loc.scope,
                Case::new(id, what, format!("enum:{name}"), doc).errors(errors),
            );
        };
        for v in &values {
            add(
                self,
                format!("enum.{path}.{v}"),
                format!("`{at}` = `{v}`"),
                v,
                true,
            );
        }
        for (label, miss) in near_misses(&values) {
            add(
                self,
                format!("enum.{path}.miss.{label}"),
                format!("`{at}` = `{miss}`: a near miss of an enum value"),
                &miss,
                false,
            );
        }
    }

    /// A union field: every tagged variant, the short form and its near misses.
    pub(super) fn unions(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let parse = self.spec.errors.parse.as_str();
        let f = hops.last().expect("non-empty").field;
        let Base::Union(name) = &f.ty.base else {
            return;
        };
        if f.ty.array {
            return;
        }
        let Some(TypeDef::Union(u)) = self.spec.type_def(name) else {
            return;
        };
        let mut cases = self.union_forms(u);
        // Tag near misses inside the tagged object (bare, most of them are valid short forms).
        let tags: Vec<&str> = u.variants.iter().map(|v| v.tag_value.as_str()).collect();
        for (label, miss) in near_misses(&tags) {
            cases.push((
                format!("tag_miss.{label}"),
                format!("tagged with `{miss}`: a near miss of a tag"),
                json!({ u.tag.clone(): miss }),
                false,
            ));
        }
        self.union_member_counts(base, loc, u);
        self.union_member_rules(base, loc, u);
        let tag_path = format!("{path}.{}", u.tag);
        for (label, what, value, ok) in cases {
            let doc = self.with(base, hops, value.clone());
            // A bad tag is reported at the tag's value, an unknown key at the key; anything
            // else at the union's value.
            let bad_tag = value
                .get(&u.tag)
                .and_then(Value::as_str)
                .is_some_and(|t| !tags.contains(&t));
            let at = if bad_tag {
                tag_path.clone()
            } else if value.get(UNKNOWN_KEY).is_some() {
                format!("{path}.{UNKNOWN_KEY}")
            } else {
                path.to_owned()
            };
            let errors = unless(ok, parse.to_owned(), at);
            self.push(
                &loc.scope,
                Case::new(
                    format!("union.{path}.{label}"),
                    format!("`{path}`: {what}"),
                    format!("union:{name}"),
                    doc,
                )
                .errors(errors),
            );
        }
    }

    /// Every form of union `u` as a value: each variant tagged (with and without each
    /// optional member), an upper-case tag, an unknown key, and the short form with its near
    /// misses; with whether it is valid.
    fn union_forms(&self, u: &Union) -> Vec<(String, String, Value, bool)> {
        let mut cases = Vec::new();
        for v in &u.variants {
            let mut m = Map::new();
            m.insert(u.tag.clone(), json!(v.tag_value));
            for mem in v.members.iter().filter(|m| !m.ty.nullable) {
                m.insert(mem.key.clone(), self.synth_field(mem, 0, 0, 0));
            }
            let tv = &v.tag_value;
            cases.push((
                format!("tagged.{tv}"),
                format!("tagged `{tv}`"),
                Value::Object(m.clone()),
                true,
            ));
            for mem in v.members.iter().filter(|m| m.ty.nullable) {
                let mut full = m.clone();
                // A list member is a list (of as many items as its minimum asks).
                let value = if mem.ty.array {
                    self.synth_field(mem, 0, 0, 0)
                } else {
                    // Within the member's range, pattern and format.
                    self.synth_element(mem, 0, 0, 0)
                };
                full.insert(mem.key.clone(), value);
                cases.push((
                    format!("tagged.{tv}.{}", mem.key),
                    format!("tagged `{tv}` with `{}`", mem.key),
                    Value::Object(full),
                    true,
                ));
                let mut null = m.clone();
                null.insert(mem.key.clone(), Value::Null);
                cases.push((
                    format!("tagged.{tv}.{}_null", mem.key),
                    format!("tagged `{tv}` with `{}` null", mem.key),
                    Value::Object(null),
                    true,
                ));
            }
            let mut upper = m.clone();
            upper.insert(u.tag.clone(), json!(tv.to_uppercase()));
            cases.push((
                format!("tagged.{tv}.upper_tag"),
                format!("tagged with `{}`: tags are exact", tv.to_uppercase()),
                Value::Object(upper),
                false,
            ));
            let mut unknown = m.clone();
            unknown.insert(UNKNOWN_KEY.into(), json!(1));
            cases.push((
                format!("tagged.{tv}.unknown_key"),
                format!("tagged `{tv}` with an unknown key"),
                Value::Object(unknown),
                false,
            ));
            if u.short_form && v.all_optional() {
                for (label, s) in [
                    ("exact", tv.clone()),
                    ("upper", tv.to_uppercase()),
                    ("padded", format!(" {} ", tv.to_uppercase())),
                    ("ideographic_padded", format!("\u{3000}{tv}\u{3000}")),
                ] {
                    cases.push((
                        format!("short.{tv}.{label}"),
                        format!("short form `{s}`"),
                        json!(s),
                        true,
                    ));
                }
                for (label, s) in [
                    ("bom_padded", format!("\u{feff}{tv}")),
                    ("inner_space", format!("{} {}", &tv[..1], &tv[1..])),
                    ("suffix", format!("{tv}s")),
                ] {
                    cases.push((
                        format!("short.{tv}.miss.{label}"),
                        format!("short form near miss `{s}`"),
                        json!(s),
                        false,
                    ));
                }
            }
        }
        cases
    }

    /// A member's caps and minimums at N-1, N and N+1, in each variant with the member: item
    /// counts of a list member, char counts (ASCII) of a text member. A member with a pattern
    /// or a format takes no char probe (a run of `a` would break those too): their own probes
    /// cover it.
    fn union_member_counts(&mut self, base: &Value, loc: &Loc<'a, '_>, u: &Union) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        for v in &u.variants {
            for mem in &v.members {
                let plain_text = mem.ty.base == Base::String
                    && !mem.ty.array
                    && mem.ty.pattern.is_none()
                    && mem.ty.format.is_none();
                let caps = [
                    (&mem.rules.max_items, "max_items", mem.ty.array),
                    (&mem.rules.min_items, "min_items", mem.ty.array),
                    (&mem.rules.max_chars, "max_chars", plain_text),
                    (&mem.rules.min_chars, "min_chars", plain_text),
                ];
                for (cap, rule, probed) in caps {
                    let Some(cap) = cap.as_ref().filter(|_| probed) else {
                        continue;
                    };
                    let n = cap.value as usize;
                    let at = format!("{path}.{}", mem.key);
                    let unit = if mem.ty.array { "items" } else { "chars" };
                    for (label, len) in [("n-1", n.saturating_sub(1)), ("n", n), ("n+1", n + 1)] {
                        let (value, errors) = if mem.ty.array {
                            let value = Value::Array(self.elements(mem, len));
                            (value, super::caps::item_count_violations(mem, &at, len))
                        } else {
                            let t = "a".repeat(len);
                            let errors = fit::text_violations(mem, &at, &t);
                            (json!(t), errors)
                        };
                        let doc = self.with(base, hops, self.tagged(u, v, mem, value));
                        let tv = &v.tag_value;
                        self.push(
                            &loc.scope,
                            Case::new(
                                format!("{rule}.{path}.{tv}.{}.{label}", mem.key),
                                format!("`{at}` of `{tv}` with {len} {unit} ({})", cap.constant),
                                format!("{rule}:{}", cap.constant),
                                doc,
                            )
                            .errors(errors),
                        );
                    }
                }
            }
        }
    }

    /// Variant `v` of `u` tagged, its required members synthesized, and `mem` set to `value`.
    fn tagged(&self, u: &Union, v: &Variant, mem: &Field, value: Value) -> Value {
        let mut m = Map::new();
        m.insert(u.tag.clone(), json!(v.tag_value));
        for other in v.members.iter().filter(|o| !o.ty.nullable) {
            m.insert(other.key.clone(), self.synth_field(other, 0, 0, 0));
        }
        m.insert(mem.key.clone(), value);
        Value::Object(m)
    }

    /// The rules a union member's Type cell states, probed at the member's path as a field's
    /// are at its own: an integer range at each bound and one past it, a `number` range as
    /// `numbers` probes it, a pattern with its near misses, a format with its probes (each
    /// value the first element of a list member).
    fn union_member_rules(&mut self, base: &Value, loc: &Loc<'a, '_>, u: &Union) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        for v in &u.variants {
            let tv = &v.tag_value;
            for mem in &v.members {
                let at = if mem.ty.array {
                    format!("{path}.{}[0]", mem.key)
                } else {
                    format!("{path}.{}", mem.key)
                };
                // (rule, label, value, the rule's code when the value breaks it).
                let mut probes: Vec<(&str, String, Value, Option<String>)> = Vec::new();
                if let (Some(code), Some(r), Some((lo, hi))) =
                    (&mem.rules.range, mem.ty.range, mem.ty.base.integer_width())
                {
                    for (label, bound, step) in [("min", r.min, -1), ("max", r.max, 1)] {
                        let Some(b) = bound else { continue };
                        let sign = if step < 0 { '-' } else { '+' };
                        for (label, n) in
                            [(label.to_owned(), b), (format!("{label}{sign}1"), b + step)]
                        {
                            if (lo..=hi).contains(&n) {
                                let broken = (!r.contains(n)).then(|| code.clone());
                                probes.push((
                                    "range",
                                    label,
                                    crate::emit::schema::integer_json(n),
                                    broken,
                                ));
                            }
                        }
                    }
                }
                if let (Some(code), Some(r)) = (&mem.rules.range, &mem.ty.number_range) {
                    for (label, n) in super::types::number_probes(r) {
                        let broken = (!r.contains(n)).then(|| code.clone());
                        probes.push(("range", label, super::types::number_value(n), broken));
                    }
                }
                if let (Some(code), Some(p)) = (&mem.rules.pattern, &mem.ty.pattern) {
                    if let Ok(re) = regex_lite::Regex::new(p) {
                        let good = self.synth_text(mem, 0);
                        let good = good.as_str().unwrap_or_default();
                        let mut seen = std::collections::BTreeSet::new();
                        for (label, t) in super::strings::pattern_candidates(good, mem.ty.non_blank)
                        {
                            if seen.insert(t.clone()) && (label == "valid" || t != good) {
                                let broken = (!re.is_match(&t)).then(|| code.clone());
                                probes.push(("pattern", label.to_owned(), json!(t), broken));
                            }
                        }
                    }
                }
                if let (Some(code), Some(format)) = (&mem.rules.format, mem.ty.format) {
                    for (label, t, disagree) in super::formats::probes(format) {
                        // Probes the consumers judge differently stay with the fields' probes.
                        if disagree.is_none() {
                            let broken = (!format.is_valid(t)).then(|| code.clone());
                            probes.push(("format", label.to_owned(), json!(t), broken));
                        }
                    }
                }
                for (rule, label, value, broken) in probes {
                    let shown = value.to_string();
                    let errors = match value.as_str() {
                        Some(t) => {
                            let errors = fit::text_violations(mem, &at, t);
                            debug_assert!(broken
                                .iter()
                                .all(|b| errors.iter().any(|(c, _)| c == b)));
                            errors
                        }
                        None => unless(
                            broken.is_none(),
                            broken.clone().unwrap_or_default(),
                            at.clone(),
                        ),
                    };
                    let value = if mem.ty.array { json!([value]) } else { value };
                    let doc = self.with(base, hops, self.tagged(u, v, mem, value));
                    self.push(
                        &loc.scope,
                        Case::new(
                            format!("{rule}.{path}.{tv}.{}.{label}", mem.key),
                            format!("`{at}` of `{tv}` = {shown}"),
                            rule,
                            doc,
                        )
                        .errors(errors),
                    );
                }
            }
        }
    }
}
