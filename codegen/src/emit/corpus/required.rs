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
        let owner = self.owner_mut(&mut doc, hops);
        owner.remove(&f.key);
        // A condition reading the field may hold now that it is absent (`unless`); a rule
        // requiring a member of it (`[[required_if]] field = "seller.vat_id"`) must not
        // bring it back.
        self.meet_required_if_but(hops.last().expect("non-empty").owner, owner, Some(&f.key));
        self.meet_enclosing(&mut doc, hops);
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
                // Blank text breaks a pattern or a format as well. Missing text reports the
                // requirement's code; text that is not missing may report it too, where the
                // spec gives its format the same code (`BR-03` for both, as EN 16931 does).
                let errors = fit::text_violations(f, path, v.as_str().unwrap_or_default());
                debug_assert!(!missing || errors.iter().any(|(c, _)| *c == code));
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
        let c = &ri.condition;
        // The plain form names the sibling's value in its id (`absent_when_false`).
        let otherwise = match (c.sibling_value(), self.condition_other(c)) {
            (Some(_), Some(o)) => {
                let shown = o.as_str().map_or_else(|| o.to_string(), str::to_owned);
                format!("absent_when_{shown}")
            }
            _ => "absent_otherwise".to_owned(),
        };
        // `None`: the list made to hold one matching item and one that does not.
        let cases: Vec<(String, Option<bool>, Option<Value>)> = vec![
            ("absent".into(), Some(true), None),
            ("null".into(), Some(true), Some(Value::Null)),
            (otherwise, Some(false), None),
            ("absent_mixed".into(), None, None),
        ];
        for (label, holds, v) in cases {
            let mut doc = base.clone();
            let owner = self.owner_mut(&mut doc, hops);
            let holds = match holds {
                Some(holds) if self.set_condition(owner, c, holds) => holds,
                Some(_) => continue,
                None => match self.set_condition_mixed(owner, c) {
                    Some(holds) => holds,
                    None => continue,
                },
            };
            // Other conditions the change makes hold are met, here and in enclosing objects.
            self.meet_required_if(last.owner, owner);
            self.meet_enclosing(&mut doc, hops);
            let owner = self.owner_mut(&mut doc, hops);
            match v {
                Some(v) => owner.insert(f.key.clone(), v),
                None => owner.remove(&f.key),
            };
            let description = match c.sibling_value() {
                Some((sibling, _, _)) => {
                    let now = owner.get(&sibling.key).cloned().unwrap_or(Value::Null);
                    let now = now.as_str().map_or_else(|| now.to_string(), str::to_owned);
                    format!("`{path}` {label} with `{}` = `{now}`", sibling.key)
                }
                None => {
                    let not = if holds { "" } else { " not" };
                    let mixed = if label.ends_with("mixed") {
                        ", one item matching and one not,"
                    } else {
                        ""
                    };
                    format!(
                        "`{path}` {label}{mixed} while it does{not} hold that {}",
                        c.describe()
                    )
                }
            };
            self.push(
                &loc.scope,
                Case::new(
                    format!("required_if.{path}.{label}"),
                    description,
                    "required_if",
                    doc,
                )
                .errors(unless(!holds, ri.code.clone(), path.to_owned())),
            );
        }
    }
}
