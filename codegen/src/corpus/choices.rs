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
            let errors = unless(ok, parse.to_owned(), at.clone());
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
        let tag_path = format!("{path}.{}", u.tag);
        for (label, what, value, ok) in cases {
            let doc = self.with(base, hops, value.clone());
            // A bad tag is reported at the tag's value; anything else at the union's value.
            let bad_tag = value
                .get(&u.tag)
                .and_then(Value::as_str)
                .is_some_and(|t| !tags.contains(&t));
            let at = if bad_tag {
                tag_path.clone()
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
                    self.synth_base(&mem.ty.base, 0, 0, 0)
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

    /// Item caps and minimums on a member list of union `u`, in each variant that has one:
    /// one under, at and one over the bound, reported at the member (`signature.chain`).
    fn union_member_counts(&mut self, base: &Value, loc: &Loc<'a, '_>, u: &Union) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        for v in &u.variants {
            for mem in v.members.iter().filter(|m| m.ty.array) {
                for (cap, rule) in [
                    (&mem.rules.max_items, "max_items"),
                    (&mem.rules.min_items, "min_items"),
                ] {
                    let Some(cap) = cap else { continue };
                    let n = cap.value as usize;
                    let at = format!("{path}.{}", mem.key);
                    for (label, len) in [("n-1", n.saturating_sub(1)), ("n", n), ("n+1", n + 1)] {
                        let mut m = Map::new();
                        m.insert(u.tag.clone(), json!(v.tag_value));
                        for other in v.members.iter().filter(|o| !o.ty.nullable) {
                            m.insert(other.key.clone(), self.synth_field(other, 0, 0, 0));
                        }
                        m.insert(mem.key.clone(), Value::Array(self.elements(mem, len)));
                        let doc = self.with(base, hops, Value::Object(m));
                        let tv = &v.tag_value;
                        self.push(
                            &loc.scope,
                            Case::new(
                                format!("{rule}.{path}.{tv}.{}.{label}", mem.key),
                                format!("`{at}` of `{tv}` with {len} items ({})", cap.constant),
                                format!("{rule}:{}", cap.constant),
                                doc,
                            )
                            .errors(super::caps::item_count_violations(mem, &at, len)),
                        );
                    }
                }
            }
        }
    }
}
