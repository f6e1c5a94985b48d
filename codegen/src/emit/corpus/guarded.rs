//! Mutation family: the sidecar's rules on an object under a condition (`[[required_if]]`,
//! `[[any_of]]`, `[[one_of]]`, `[[value_if]]`): each broken while its condition holds, kept,
//! and broken while the condition does not hold. Objects the corpus writes meet them.

use serde_json::{json, Map, Value};

use super::*;
use crate::model::*;

/// Whether a JSON value counts as given, as the runtime's `Filled` reads the typed one:
/// present, not `null`, text not blank, a list not empty.
fn given(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(_) => true,
    }
}

/// A number that breaks (`false`) or keeps (`true`) `op bound`.
fn number_for(op: CompareOp, bound: &serde_json::Number, keep: bool) -> Value {
    let b = bound.as_f64().unwrap_or_default();
    let integer = bound.is_i64() || bound.is_u64();
    let delta = if integer { 1.0 } else { 0.5 };
    let x = match (op, keep) {
        (CompareOp::Gt, true) | (CompareOp::Le, false) | (CompareOp::Eq, false) => b + delta,
        (CompareOp::Lt, true) | (CompareOp::Ge, false) => b - delta,
        (CompareOp::Gt, false) | (CompareOp::Lt, false) => b,
        (CompareOp::Ge | CompareOp::Le | CompareOp::Eq, true) => b,
    };
    if integer {
        json!(x as i64)
    } else {
        crate::emit::schema::number_json(x)
    }
}

impl<'a> Gen<'a> {
    /// A value of field `f` that counts as given (a list of one element).
    fn given_value(&self, f: &Field) -> Value {
        let one = self.synth_element(f, 0, 0, 1);
        if f.ty.array {
            json!([one])
        } else {
            one
        }
    }

    /// Makes object `m` (of table `o`) keep every [`Guarded`] rule whose condition holds,
    /// leaving member `except` (the one a mutation set) as it is.
    pub(super) fn meet_guarded(
        &self,
        o: &Object,
        m: &mut Map<String, Value>,
        except: Option<&str>,
    ) {
        // A rules table's row may read a member another row sets, here or in a member
        // object (`BR-S-08` sets the breakdowns' taxable amounts, which their own `BR-CO-17`
        // reads): with such rows, the member objects are settled first (all but `except`,
        // which a mutation set), and everything twice, so each rule sees the others' values
        // whatever their order.
        let expressions = self.has_expressions();
        for _ in 0..if expressions { 2 } else { 1 } {
            if expressions {
                self.settle_members(o, m, except);
            }
            for g in &o.guarded {
                if !g
                    .condition
                    .as_ref()
                    .is_none_or(|c| self.condition_holds(m, c))
                {
                    continue;
                }
                self.keep(o, g, m, except);
            }
        }
    }

    /// Keeps the guarded rules of every member object of `m` but `except` (and theirs).
    fn settle_members(&self, o: &Object, m: &mut Map<String, Value>, except: Option<&str>) {
        for f in &o.fields {
            if except == Some(f.key.as_str()) {
                continue;
            }
            let Some(t) = self.object_of(f) else {
                continue;
            };
            match m.get_mut(&f.key) {
                Some(Value::Object(inner)) => self.meet_guarded(t, inner, None),
                Some(Value::Array(items)) => {
                    for item in items {
                        if let Value::Object(inner) = item {
                            self.meet_guarded(t, inner, None);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether the spec has a rules table's row: then [`Gen::meet_guarded`] settles member
    /// objects too, and the objects around a mutated one leave it as the mutation set it.
    pub(super) fn has_expressions(&self) -> bool {
        self.spec.has_rules_tables()
    }

    /// Makes `m` keep rule `g` (its condition aside), leaving member `except` as it is.
    fn keep(&self, o: &Object, g: &Guarded, m: &mut Map<String, Value>, except: Option<&str>) {
        let field = |key: &str| o.fields.iter().find(|f| f.key == key);
        let free = |key: &str| except != Some(key);
        match &g.rule {
            GuardedRule::Required { steps, .. } => {
                if steps.first().is_some_and(|s| free(&s.member.key)) {
                    self.give_path(m, steps);
                }
            }
            GuardedRule::AnyOf(ms) => {
                if !ms.iter().any(|x| given(m.get(&x.key))) {
                    if let Some(f) = ms
                        .iter()
                        .filter(|x| free(&x.key))
                        .find_map(|x| field(&x.key))
                    {
                        m.insert(f.key.clone(), self.given_value(f));
                    }
                }
            }
            GuardedRule::OneOf(ms) => {
                // The member the mutation gave stays the one given.
                let keep = ms
                    .iter()
                    .find(|x| !free(&x.key) && given(m.get(&x.key)))
                    .or_else(|| ms.iter().find(|x| given(m.get(&x.key))))
                    .map(|x| x.key.clone());
                for x in ms {
                    if Some(&x.key) != keep.as_ref() && free(&x.key) && given(m.get(&x.key)) {
                        m.remove(&x.key);
                    }
                }
                if keep.is_none() {
                    if let Some(f) = ms
                        .iter()
                        .filter(|x| free(&x.key))
                        .find_map(|x| field(&x.key))
                    {
                        m.insert(f.key.clone(), self.given_value(f));
                    }
                }
            }
            GuardedRule::Compare { field, op, bound } => {
                if free(&field.key) && m.get(&field.key).is_some_and(Value::is_number) {
                    m.insert(field.key.clone(), number_for(*op, bound, true));
                }
            }
            GuardedRule::Absent(field) => {
                if free(&field.key) {
                    m.remove(&field.key);
                }
            }
            GuardedRule::Expression { expr, .. } => self.keep_expression(o, expr, m, except),
        }
    }

    /// The guarded rules the document `v` (an object of table `o` at `at`) breaks, read
    /// on its JSON as the validators read it: `(code, path)` each. With `rows`, only the
    /// rules tables' rows; without, only the others.
    pub(super) fn guarded_violations(
        &self,
        o: &Object,
        v: &Value,
        at: &str,
        rows: bool,
        out: &mut Expected,
    ) {
        let Some(m) = v.as_object() else {
            return;
        };
        for g in &o.guarded {
            if rows != matches!(g.rule, GuardedRule::Expression { .. }) {
                continue;
            }
            if !g
                .condition
                .as_ref()
                .is_none_or(|c| self.condition_holds(m, c))
            {
                continue;
            }
            let count = |ms: &[Member]| ms.iter().filter(|x| given(m.get(&x.key))).count();
            let broken = match &g.rule {
                GuardedRule::Required { path, steps } => {
                    let mut cur = Some(m);
                    for step in &steps[..steps.len() - 1] {
                        cur = cur
                            .and_then(|c| c.get(&step.member.key))
                            .and_then(Value::as_object);
                    }
                    let last = steps
                        .last()
                        .map(|s| s.member.key.as_str())
                        .unwrap_or_default();
                    (!given(cur.and_then(|c| c.get(last)))).then(|| join(at, path))
                }
                GuardedRule::AnyOf(ms) => (count(ms) == 0).then(|| at.to_owned()),
                GuardedRule::OneOf(ms) => (count(ms) != 1).then(|| at.to_owned()),
                GuardedRule::Compare { field, op, bound } => {
                    let b = bound.as_f64().unwrap_or_default();
                    m.get(&field.key)
                        .and_then(Value::as_f64)
                        .filter(|x| {
                            let holds = match op {
                                CompareOp::Lt => *x < b,
                                CompareOp::Le => *x <= b,
                                CompareOp::Eq => *x == b,
                                CompareOp::Ge => *x >= b,
                                CompareOp::Gt => *x > b,
                            };
                            !holds
                        })
                        .map(|_| join(at, &field.key))
                }
                GuardedRule::Absent(field) => m
                    .get(&field.key)
                    .filter(|x| !x.is_null())
                    .map(|_| join(at, &field.key)),
                GuardedRule::Expression { expr, .. } => {
                    for path in self.expression_violations(o, expr, m, at) {
                        out.push((g.code.clone(), path));
                    }
                    None
                }
            };
            if let Some(path) = broken {
                out.push((g.code.clone(), path));
            }
        }
        for f in &o.fields {
            let (Some(x), Some(t)) = (m.get(&f.key), self.object_of(f)) else {
                continue;
            };
            let path = join(at, &f.key);
            match x {
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        self.guarded_violations(t, item, &format!("{path}[{i}]"), rows, out);
                    }
                }
                _ => self.guarded_violations(t, x, &path, rows, out),
            }
        }
    }

    /// Gives the field at `steps` (member tables on the way created) a value.
    fn give_path(&self, m: &mut Map<String, Value>, steps: &[ConditionStep]) {
        let Some((step, rest)) = steps.split_first() else {
            return;
        };
        let Some(f) = self
            .object(&step.table)
            .and_then(|o| o.fields.iter().find(|f| f.key == step.member.key))
        else {
            return;
        };
        if rest.is_empty() {
            if !given(m.get(&f.key)) {
                m.insert(f.key.clone(), self.given_value(f));
            }
            return;
        }
        if !m.get(&f.key).is_some_and(Value::is_object) {
            let fresh = match self.object_of(f) {
                Some(t) => self.synth_object(t, 0, 1),
                None => json!({}),
            };
            m.insert(f.key.clone(), fresh);
        }
        if let Some(Value::Object(inner)) = m.get_mut(&f.key) {
            self.give_path(inner, rest);
        }
    }

    /// The cases of each guarded rule of object `o`, found at `loc` in `doc`.
    pub(super) fn guarded(&mut self, doc: &Value, loc: &Loc<'a, '_>, o: &'a Object, level: &str) {
        let (hops, at) = (loc.hops, loc.path.as_str());
        for (k, g) in o.guarded.iter().enumerate() {
            // (label, condition holds, break the rule how, expected violation path)
            let target = match &g.rule {
                GuardedRule::Required { path, .. } => join(at, path),
                GuardedRule::AnyOf(_) | GuardedRule::OneOf(_) => at.to_owned(),
                GuardedRule::Compare { field, .. } | GuardedRule::Absent(field) => {
                    join(at, &field.key)
                }
                GuardedRule::Expression { .. } => at.to_owned(),
            };
            let mut variants: Vec<(&str, bool, &str)> =
                vec![("broken", true, "break"), ("kept", true, "keep")];
            if matches!(g.rule, GuardedRule::OneOf(_)) {
                variants.push(("two_given", true, "two"));
            }
            if g.condition.is_some() {
                variants.push(("broken_otherwise", false, "break"));
            }
            for (label, holds, how) in variants {
                // Where a broken rules-table row is reported, found once it is broken.
                let mut broken_at: Option<String> = None;
                let mut d = doc.clone();
                let m = self.walk_mut(&mut d, hops);
                if let Some(c) = &g.condition {
                    if !self.set_condition(m, c, holds) {
                        continue;
                    }
                }
                self.meet_required_if(o, m);
                let ok = match (how, &g.rule) {
                    // A rule solved for its left member keeps or breaks it by one unit:
                    // both edges of the bound; where it cannot be solved, no case.
                    ("keep", GuardedRule::Expression { expr, .. }) => {
                        self.keep_expression(o, expr, m, None);
                        self.expression_violations(o, expr, m, at).is_empty()
                    }
                    (_, GuardedRule::Expression { expr, .. }) => {
                        self.break_expression(o, expr, m) && {
                            // The rules that read the member just set follow it.
                            let left = expressions::left_member(expr);
                            self.meet_guarded(o, m, left.as_deref());
                            match self.expression_violations(o, expr, m, at).as_slice() {
                                [one] => {
                                    broken_at = Some(one.clone());
                                    true
                                }
                                _ => false,
                            }
                        }
                    }
                    _ => match how {
                        "keep" => true,
                        "two" => self.two_given(o, g, m),
                        _ => self.break_rule(o, g, m),
                    },
                };
                if !ok {
                    continue;
                }
                // The objects around it: the one holding the level's field, and outwards.
                for depth in (0..hops.len()).rev() {
                    let outer = self.walk_mut(&mut d, &hops[..depth]);
                    let inner = self
                        .has_expressions()
                        .then_some(hops[depth].field.key.as_str());
                    self.meet_required_if_but(hops[depth].owner, outer, inner);
                }
                let refused = holds && how != "keep";
                let rule = g.kind();
                let describe = match &g.condition {
                    Some(c) if holds => format!(" while {} holds", c.describe()),
                    Some(c) => format!(" while {} does not hold", c.describe()),
                    None => String::new(),
                };
                self.push(
                    &loc.scope,
                    Case::new(
                        format!("{rule}.{level}.{k}.{label}"),
                        format!("the [[{rule}]] rule #{k} on `{level}` {label}{describe}"),
                        rule,
                        d,
                    )
                    .errors(unless(
                        !refused,
                        g.code.clone(),
                        broken_at.clone().unwrap_or_else(|| target.clone()),
                    )),
                );
            }
        }
    }

    /// Breaks rule `g` in `m`: the required field or every member absent, a number past
    /// the bound, a value where none may be; `false` when it cannot.
    fn break_rule(&self, o: &Object, g: &Guarded, m: &mut Map<String, Value>) -> bool {
        match &g.rule {
            GuardedRule::Required { steps, .. } => {
                let mut cur = m;
                for step in &steps[..steps.len() - 1] {
                    match cur.get_mut(&step.member.key) {
                        Some(Value::Object(inner)) => cur = inner,
                        _ => return true,
                    }
                }
                cur.remove(&steps.last().expect("a path").member.key);
                true
            }
            GuardedRule::AnyOf(ms) | GuardedRule::OneOf(ms) => {
                for x in ms {
                    m.remove(&x.key);
                }
                true
            }
            GuardedRule::Compare { field, op, bound } => {
                m.insert(field.key.clone(), number_for(*op, bound, false));
                o.fields.iter().any(|f| f.key == field.key)
            }
            GuardedRule::Absent(field) => {
                let Some(f) = o.fields.iter().find(|f| f.key == field.key) else {
                    return false;
                };
                m.insert(f.key.clone(), self.given_value(f));
                true
            }
            GuardedRule::Expression { expr, .. } => self.break_expression(o, expr, m),
        }
    }

    /// Gives two members of a `[[one_of]]`.
    fn two_given(&self, o: &Object, g: &Guarded, m: &mut Map<String, Value>) -> bool {
        let GuardedRule::OneOf(ms) = &g.rule else {
            return false;
        };
        for x in ms.iter().take(2) {
            let Some(f) = o.fields.iter().find(|f| f.key == x.key) else {
                return false;
            };
            m.insert(f.key.clone(), self.given_value(f));
        }
        true
    }
}
