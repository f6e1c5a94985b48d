//! Mutation family: presence. A required field missing, coded requirements (blank or
//! empty counts as missing), and conditional requirements.

use serde_json::{json, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    /// A required field missing.
    pub(super) fn required(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        if !f.required {
            return;
        }
        let mut doc = base.clone();
        self.owner_mut(&mut doc, hops).remove(&f.key);
        let parse = self.spec.errors.parse.as_str();
        let errors = self.missing(f, path, &owner_path(hops), parse);
        let what = format!("required `{path}` missing");
        self.push(
            &loc.scope,
            Case::new(format!("required.{path}"), what, "required", doc).errors(errors),
        );
    }

    /// What a missing required field is reported as: its own code (coded requirement), the
    /// codes of its members (an object read as `{}` when absent), or a parse error at the
    /// object holding it.
    pub(super) fn missing(
        &self,
        f: &Field,
        path: &str,
        owner: &str,
        parse: &str,
    ) -> Vec<(String, String)> {
        if let Some(code) = &f.rules.required {
            return vec![(code.clone(), path.to_owned())];
        }
        if f.absent_is_empty {
            if let Base::Object(n) = &f.ty.base {
                if let Some(o) = self.object(n) {
                    // Each member's code, in field order, through members that read as `{}`
                    // in turn (a plain `✔` member table: `seller.address.country_code`).
                    return o
                        .fields
                        .iter()
                        .filter(|m| m.rules.required.is_some() || (m.absent_is_empty && m.required))
                        .flat_map(|m| self.missing(m, &join(path, &m.key), path, parse))
                        .collect();
                }
            }
        }
        vec![(parse.to_owned(), owner.to_owned())]
    }

    /// A coded requirement: blank text or an empty list is missing too.
    pub(super) fn coded_required(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let f = hops.last().expect("non-empty").field;
        let Some(code) = f.rules.required.clone() else {
            return;
        };
        let cases: Vec<(&str, Value, bool)> = if f.ty.array {
            vec![("empty_list", json!([]), true)]
        } else if f.ty.base == Base::String && !f.ty.non_blank {
            vec![
                ("empty", json!(""), true),
                ("spaces", json!(" \t "), true),
                ("ideographic_space", json!("\u{3000}"), true),
                ("bom", json!("\u{feff}"), false),
            ]
        } else {
            vec![]
        };
        for (label, v, missing) in cases {
            let doc = self.with(base, hops, v.clone());
            let errors = if v.is_array() {
                super::caps::item_count_violations(f, path, 0)
            } else {
                // Blank text breaks a pattern or a format as well.
                let errors = fit::text_violations(f, path, v.as_str().unwrap_or_default());
                debug_assert_eq!(missing, errors.iter().any(|(c, _)| *c == code));
                errors
            };
            self.push(
                &loc.scope,
                Case::new(
                    format!("required_coded.{path}.{label}"),
                    format!("`{path}` = {v}: counts as missing ({code})"),
                    "required",
                    doc,
                )
                .errors(errors),
            );
        }
    }

    /// A conditional requirement: absent or null while the condition holds, and absent
    /// while it does not.
    pub(super) fn required_if(&mut self, base: &Value, loc: &Loc<'a, '_>) {
        let (hops, path) = (loc.hops, loc.path.as_str());
        let last = hops.last().expect("non-empty");
        let f = last.field;
        let Some(ri) = f.rules.required_if.clone() else {
            return;
        };
        // A value of the sibling under which the condition does not hold: another enum
        // value, the other bool, or other text that keeps the sibling's own rules.
        let sibling = last.owner.fields.iter().find(|x| x.key == ri.field.key);
        let other: Option<Value> = sibling.and_then(|x| match &x.ty.base {
            Base::Enum(e) => self
                .enum_values(e)
                .into_iter()
                .find(|v| *v != ri.value.key)
                .map(|v| json!(v)),
            Base::Bool => ri.when.as_bool().map(|b| json!(!b)),
            Base::String => (0..4)
                .map(|i| self.synth_text(x, i))
                .find(|v| *v != ri.when && v.as_str().is_some_and(|s| fit::keeps_all(x, s))),
            _ => None,
        });
        let mut cases: Vec<(String, Value, Option<Value>, bool)> = vec![
            ("absent".into(), ri.when.clone(), None, false),
            ("null".into(), ri.when.clone(), Some(Value::Null), false),
        ];
        if let Some(o) = other {
            let shown = o.as_str().map_or_else(|| o.to_string(), str::to_owned);
            cases.push((format!("absent_when_{shown}"), o, None, true));
        }
        for (label, trigger, v, ok) in cases {
            let mut doc = base.clone();
            let owner = self.owner_mut(&mut doc, hops);
            owner.insert(ri.field.key.clone(), trigger.clone());
            // Text as written (`excluded`), other values as JSON (`true`).
            let trigger = trigger
                .as_str()
                .map_or_else(|| trigger.to_string(), str::to_owned);
            match v {
                Some(v) => owner.insert(f.key.clone(), v),
                None => owner.remove(&f.key),
            };
            self.push(
                &loc.scope,
                Case::new(
                    format!("required_if.{path}.{label}"),
                    format!("`{path}` {label} with `{}` = `{trigger}`", ri.field.key),
                    "required_if",
                    doc,
                )
                .errors(unless(ok, ri.code.clone(), path.to_owned())),
            );
        }
    }
}
