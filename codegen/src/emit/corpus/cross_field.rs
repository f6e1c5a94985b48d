//! Mutation family: cross-field rules on one location. Unique items and keys,
//! contradictory pairs, two fields that must differ, two fields in order.

use serde_json::{json, Value};

use super::*;

impl<'a> Gen<'a> {
    /// Unique items of a list of text: exact repeats (the schema's `uniqueItems` when the
    /// comparison is exact), and the folds the rule applies.
    pub(super) fn unique_items(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Some(u) = f.rules.unique.clone() else {
            return;
        };
        let exact = !u.ignore_case && !u.trim;
        let cases: Vec<(&str, Vec<String>, bool)> = if let Base::Enum(name) = &f.ty.base {
            // Enum values, compared as spelled: one twice, and two different values.
            let values: Vec<String> = self
                .enum_values(name)
                .into_iter()
                .map(str::to_owned)
                .collect();
            let mut cases = vec![("repeat", vec![values[0].clone(), values[0].clone()], false)];
            if let Some(second) = values.get(1) {
                cases.push(("distinct", vec![values[0].clone(), second.clone()], true));
            }
            cases
        } else {
            // Values that keep the items' own rules (pattern, cap), and variants of them.
            let synth = |i| self.synth_text(f, i).as_str().unwrap_or("u").to_owned();
            let mut a = format!("Item{}", synth(20));
            let mut b = format!("{a}2");
            if !fit::keeps_all(f, &a) || !fit::keeps_all(f, &b) {
                (a, b) = (synth(1), synth(2));
            }
            vec![
                ("distinct", vec![a.clone(), b], true),
                ("repeat", vec![a.clone(), a.clone()], false),
                (
                    "case_differs",
                    vec![a.clone(), a.to_lowercase()],
                    !u.ignore_case,
                ),
                ("padded", vec![a.clone(), format!(" {a}\u{3000}")], !u.trim),
            ]
        };
        for (label, items, ok) in cases {
            // A variant that breaks the items' own rules, or is no variant, says nothing.
            if items[0] == items[1] && label != "repeat"
                || !items.iter().all(|s| fit::keeps_all(f, s))
            {
                self.notes.push(format!(
                    "unique.{path}.{label}: left out, no such pair keeps the items' own rules"
                ));
                continue;
            }
            let doc = self.with(base, hops, json!(items));
            self.push(
                &loc.scope,
                Case::new(
                    format!("unique.{path}.{label}"),
                    format!("`{path}` = {items:?}"),
                    "unique",
                    doc,
                )
                .expressible(exact || ok)
                .errors(unless(ok, u.code.clone(), format!("{path}[1]"))),
            );
        }
    }

    /// A compound unique key: two items equal on every member (a duplicate, at the second
    /// item), two that differ on the last member only, and two equal but for an absent
    /// optional member (not compared): both kept.
    fn unique_keys(&mut self, base: &Value, loc: &Loc<'a, '_>, u: &UniqueBy) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Some(o) = self.object_of(f) else { return };
        let members: Vec<&Field> = u
            .keys
            .iter()
            .filter_map(|k| o.fields.iter().find(|m| m.key == k.key))
            .collect();
        let mut items = self.spread(f, 2);
        for m in &members {
            if items[0].get(&m.key).is_none_or(Value::is_null) {
                items[0][&m.key] = self.synth_element(m, 0, 0, 0);
            }
            items[1][&m.key] = items[0][&m.key].clone();
        }
        let shown = |it: &Value| {
            members
                .iter()
                .map(|m| format!("`{}` {}", m.key, it[&m.key]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let doc = self.with(base, hops, Value::Array(items.clone()));
        self.push(
            &loc.scope,
            Case::new(
                format!("unique.{path}.duplicate"),
                format!(
                    "`{path}[1]` repeats the key ({}) of `{path}[0]`",
                    shown(&items[1])
                ),
                "unique",
                doc,
            )
            .x_only()
            .errors(vec![(u.code.clone(), format!("{path}[1]"))]),
        );
        // The last member another value: distinct.
        let last = members.last().expect("a key has a member");
        let was = items[0][&last.key].clone();
        let other = match &last.ty.base {
            Base::Bool => Some(json!(!was.as_bool().unwrap_or_default())),
            Base::Enum(name) => self
                .enum_values(name)
                .into_iter()
                .find(|v| json!(v) != was)
                .map(|v| json!(v)),
            _ => (1..4)
                .map(|i| self.synth_element(last, i, 1, 0))
                .find(|v| *v != was && v.as_f64().is_none_or(|x| Some(x) != was.as_f64())),
        };
        match other {
            Some(other) => {
                items[1][&last.key] = other;
                let doc = self.with(base, hops, Value::Array(items.clone()));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("unique.{path}.last_member_differs"),
                        format!("`{path}` keys differ in `{}` only: distinct", last.key),
                        "unique",
                        doc,
                    )
                    .x_only(),
                );
                items[1][&last.key] = was;
            }
            None => self.notes.push(format!(
                "unique.{path}.last_member_differs: left out, `{}` has no second value",
                last.key
            )),
        }
        // An optional member without a default absent from both items: neither is compared
        // (absent, a member with a default is that default).
        let optional = members.iter().find(|m| {
            !m.required
                && m.default.is_none()
                && m.rules.required.is_none()
                && m.rules.required_if.is_none()
        });
        if let Some(m) = optional {
            for it in &mut items {
                if let Some(map) = it.as_object_mut() {
                    map.remove(&m.key);
                }
            }
            let doc = self.with(base, hops, Value::Array(items));
            self.push(
                &loc.scope,
                Case::new(
                    format!("unique.{path}.member_absent"),
                    format!("`{path}` items without `{}` are compared with none", m.key),
                    "unique",
                    doc,
                )
                .x_only(),
            );
        }
    }

    /// Cross-field rules on the array or object at this location.
    pub(super) fn cross_field(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let last = hops.last().expect("non-empty");
        let f = last.field;
        for u in &f.rules.unique_by {
            if u.compound {
                self.unique_keys(base, loc, u);
                continue;
            }
            let mut items = self.spread(f, 2);
            // The key member, when it is text: its folds must keep its own rules.
            let member = self
                .object_of(f)
                .and_then(|o| o.fields.iter().find(|m| m.key == u.key.key))
                .filter(|m| m.ty.base == Base::String && !m.ty.array);
            let Some(member) = member else {
                // Not text: an exact repeat of the first item's key.
                let first = items[0][&u.key.key].clone();
                items[1][&u.key.key] = first.clone();
                let doc = self.with(base, hops, Value::Array(items));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("unique.{path}.duplicate"),
                        format!("`{path}[1].{}` {first} duplicates the first", u.key.key),
                        "unique",
                        doc,
                    )
                    .x_only()
                    .errors(vec![(u.code.clone(), format!("{path}[1].{}", u.key.key))]),
                );
                continue;
            };
            let mut first = "Key1".to_owned();
            if !fit::keeps_all(member, &first) {
                first = items[0][&u.key.key].as_str().unwrap_or_default().to_owned();
            }
            let mut second = first.clone();
            if u.ignore_case && fit::keeps_all(member, &second.to_lowercase()) {
                second = second.to_lowercase();
            }
            let padded = format!(" {second}\u{3000}");
            if u.trim && fit::keeps_all(member, &padded) {
                second = padded;
            }
            items[0][&u.key.key] = json!(first);
            items[1][&u.key.key] = json!(second);
            let doc = self.with(base, hops, Value::Array(items.clone()));
            self.push(
                &loc.scope,
                Case::new(
                    format!("unique.{path}.duplicate"),
                    format!("`{path}[1].{}` `{second}` duplicates `{first}`", u.key.key),
                    "unique",
                    doc,
                )
                .x_only()
                .errors(vec![(u.code.clone(), format!("{path}[1].{}", u.key.key))]),
            );
            let lower = first.to_lowercase();
            if !u.ignore_case && lower != first && fit::keeps_all(member, &lower) {
                items[1][&u.key.key] = json!(lower);
                let doc = self.with(base, hops, Value::Array(items));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("unique.{path}.case_differs"),
                        format!("`{path}` keys differ in case only: distinct"),
                        "unique",
                        doc,
                    )
                    .x_only(),
                );
            }
        }
        for c in &f.rules.contradiction {
            for (k, p) in c.pairs.iter().enumerate() {
                let mut items = self.elements(f, 2);
                items[0][&c.by.key] = json!(p.a.key);
                items[1][&c.by.key] = json!(p.b.key);
                items[0][&c.value.key] = json!("Value1");
                items[1][&c.value.key] = json!(if p.ignore_case { "value1" } else { "Value1" });
                let doc = self.with(base, hops, Value::Array(items.clone()));
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("contradiction.{path}.pair{k}"),
                        format!(
                            "`{path}`: one value under both `{}` and `{}`",
                            p.a.key, p.b.key
                        ),
                        "contradiction",
                        doc,
                    )
                    .x_only()
                    .errors(vec![(c.code.clone(), format!("{path}[1].{}", c.value.key))]),
                );
                if !p.ignore_case {
                    items[1][&c.value.key] = json!("value1");
                    let doc = self.with(base, hops, Value::Array(items));
                    self.push(
                        &loc.scope,
                        Case::new(
                            format!("contradiction.{path}.pair{k}.case_differs"),
                            format!(
                                "`{path}`: `{}` and `{}` values differ in case: compared verbatim",
                                p.a.key, p.b.key
                            ),
                            "contradiction",
                            doc,
                        )
                        .x_only(),
                    );
                }
            }
        }
        for n in last.owner.order.iter().filter(|n| n.b.key == f.key) {
            self.order_cases(base, loc, n);
        }
        for n in &last.owner.not_equal {
            if n.b.key != f.key {
                continue;
            }
            let mut doc = base.clone();
            let owner = self.owner_mut(&mut doc, hops);
            let Some(a) = owner.get(&n.a.key).cloned() else {
                continue;
            };
            owner.insert(n.b.key.clone(), a);
            self.push(
                &loc.scope,
                Case::new(
                    format!("not_equal.{path}"),
                    format!("`{path}` equals `{}`", n.a.key),
                    "not_equal",
                    doc,
                )
                .x_only()
                .errors(vec![(n.code.clone(), path.to_owned())]),
            );
        }
    }

    /// `[[order]]` at its `b` side: `b` just before `a`, equal to it and just after it
    /// (equal is refused only when strict); date-times also as one instant in two offsets.
    fn order_cases(&mut self, base: &Value, loc: &Loc<'a, '_>, n: &Order) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let owner = hops.last().expect("non-empty").owner;
        let Some(fa) = owner.fields.iter().find(|x| x.key == n.a.key) else {
            return;
        };
        let mut probe = base.clone();
        let a = match self.owner_mut(&mut probe, hops).get(&n.a.key) {
            Some(v) if !v.is_null() => v.clone(),
            _ => self.synth_field(fa, 0, 0, 1),
        };
        let equal = !n.strict;
        let cases: Vec<(&str, Value, Value, bool)> = match (fa.ty.format, a.as_i64(), a.as_u64()) {
            _ if fa.ty.base == Base::Number => {
                let a = json!(1.5);
                vec![
                    ("before", a.clone(), json!(1.25), false),
                    ("equal", a.clone(), a.clone(), equal),
                    ("after", a, json!(1.75), true),
                ]
            }
            (Some(Format::Date), ..) => {
                let a = json!("2024-05-01");
                vec![
                    ("before", a.clone(), json!("2024-04-30"), false),
                    ("equal", a.clone(), a.clone(), equal),
                    ("after", a, json!("2024-05-02"), true),
                ]
            }
            (Some(Format::DateTime), ..) => {
                let a = json!("2024-05-01T10:00:00Z");
                vec![
                    (
                        "before",
                        a.clone(),
                        json!("2024-05-01T10:59:59+01:00"),
                        false,
                    ),
                    ("equal", a.clone(), a.clone(), equal),
                    (
                        "equal_other_offset",
                        a.clone(),
                        json!("2024-05-01T11:00:00+01:00"),
                        equal,
                    ),
                    ("after", a, json!("2024-05-01T10:00:00.001Z"), true),
                ]
            }
            (_, Some(i), _) => vec![
                ("before", a.clone(), json!(i.saturating_sub(1)), false),
                ("equal", a.clone(), a.clone(), equal),
                ("after", a.clone(), json!(i.saturating_add(1)), true),
            ],
            (_, _, Some(u)) => vec![
                ("before", a.clone(), json!(u - 1), false),
                ("equal", a.clone(), a.clone(), equal),
                ("after", a.clone(), json!(u.saturating_add(1)), true),
            ],
            _ => return,
        };
        for (label, va, vb, ok) in cases {
            let mut doc = base.clone();
            let o = self.owner_mut(&mut doc, hops);
            o.insert(n.a.key.clone(), va.clone());
            o.insert(n.b.key.clone(), vb.clone());
            let relation = if n.strict { "<" } else { "<=" };
            self.push(
                &loc.scope,
                Case::new(
                    format!("order.{path}.{label}"),
                    format!("`{}` {va} {relation} `{path}` {vb}", n.a.key),
                    "order",
                    doc,
                )
                .x_only()
                .errors(unless(ok, n.code.clone(), path.to_owned())),
            );
        }
    }
}
