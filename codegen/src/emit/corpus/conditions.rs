//! Conditions read on a document's JSON (as the validators read the typed document: an
//! absent member is its default), and documents changed so that one holds or does not.

use serde_json::{json, Map, Value};

use super::{fit, Gen};
use crate::model::*;

impl<'a> Gen<'a> {
    /// The value of member `step` of `m` as the reader fills it in: the member, else its
    /// default (`null` for none).
    fn read(&self, m: &Map<String, Value>, step: &ConditionStep) -> Option<Value> {
        if let Some(v) = m.get(&step.member.key) {
            return Some(v.clone());
        }
        let o = self.object(&step.table)?;
        let f = o.fields.iter().find(|f| f.key == step.member.key)?;
        f.default_json()
    }

    /// What `c`'s path reaches from object `m` (see `interpret::check::reached`): one value
    /// per item of its last list, `None` for an absent one.
    fn reached(
        &self,
        m: &Map<String, Value>,
        steps: &[ConditionStep],
        out: &mut Vec<Option<Value>>,
    ) {
        let Some((step, rest)) = steps.split_first() else {
            return;
        };
        let v = self.read(m, step).filter(|v| !v.is_null());
        let lists_ahead = steps.iter().any(|s| s.items);
        match (v, step.items) {
            (None, _) if lists_ahead => {}
            (None, _) => out.push(None),
            (Some(v), false) if rest.is_empty() => out.push(Some(v)),
            (Some(Value::Object(o)), false) => self.reached(&o, rest, out),
            (Some(_), false) => out.push(None),
            (Some(Value::Array(items)), true) => {
                for item in items {
                    match (&item, rest.is_empty()) {
                        (_, true) => out.push(Some(item.clone())),
                        (Value::Object(o), false) => {
                            let mut one = Vec::new();
                            self.reached(o, rest, &mut one);
                            if !rest.iter().any(|s| s.items) && one.is_empty() {
                                one.push(None);
                            }
                            out.extend(one);
                        }
                        _ => {}
                    }
                }
            }
            (Some(_), true) => {}
        }
    }

    /// Whether `c`, read from object `m`, holds.
    pub(super) fn condition_holds(&self, m: &Map<String, Value>, c: &Condition) -> bool {
        let mut reached = Vec::new();
        self.reached(m, &c.steps, &mut reached);
        let hit = |v: &Option<Value>| v.as_ref().is_some_and(|v| c.when.contains(v));
        let matched = match c.quantifier {
            Quantifier::One | Quantifier::Any => reached.iter().any(hit),
            Quantifier::Every => !reached.is_empty() && reached.iter().all(hit),
        };
        matched != c.negated
    }

    /// A value the condition's field can hold that is none of its values: another enum
    /// value, the other bool, or other text that keeps the field's own rules.
    pub(super) fn condition_other(&self, c: &Condition) -> Option<Value> {
        let last = c.steps.last()?;
        let o = self.object(&last.table)?;
        let f = o.fields.iter().find(|f| f.key == last.member.key)?;
        match &f.ty.base {
            Base::Enum(e) => self
                .enum_values(e)
                .into_iter()
                .map(|v| json!(v))
                .find(|v| !c.when.contains(v)),
            Base::Bool => [json!(true), json!(false)]
                .into_iter()
                .find(|v| !c.when.contains(v)),
            Base::String => (0..4)
                .map(|i| self.synth_text(f, i))
                .find(|v| !c.when.contains(v) && v.as_str().is_some_and(|s| fit::keeps_all(f, s))),
            _ => None,
        }
    }

    /// Changes object `m` so that `c` holds (`holds`) or does not; `false` when it cannot.
    /// Lists on the path keep their items (one is added to an empty one); each reached value
    /// is set to one of the condition's values or to [`Self::condition_other`].
    pub(super) fn set_condition(
        &self,
        m: &mut Map<String, Value>,
        c: &Condition,
        holds: bool,
    ) -> bool {
        let matched = holds != c.negated;
        let value = if matched {
            c.when.first().cloned()
        } else {
            self.condition_other(c)
        };
        let Some(value) = value else {
            return false;
        };
        // What the first value reached becomes, and what the others become (`None`: kept).
        let (first, rest) = match (c.quantifier, matched) {
            (Quantifier::One | Quantifier::Every, true)
            | (Quantifier::One | Quantifier::Any, false) => (value.clone(), Some(value)),
            (Quantifier::Any, true) | (Quantifier::Every, false) => (value, None),
        };
        let mut seen = false;
        self.set_path(m, &c.steps, false, &mut |old| {
            let v = if seen {
                rest.clone().unwrap_or(old)
            } else {
                first.clone()
            };
            seen = true;
            v
        });
        self.condition_holds(m, c) == holds
    }

    /// Changes object `m` so that the last list on `c`'s path holds two items or more, the
    /// first matching the condition's value and the others not: `any` holds there and
    /// `every` does not. `None` when the path has no list or no other value exists; else
    /// whether `c` then holds.
    pub(super) fn set_condition_mixed(
        &self,
        m: &mut Map<String, Value>,
        c: &Condition,
    ) -> Option<bool> {
        if c.quantifier == Quantifier::One {
            return None;
        }
        let member = c.when.first().cloned()?;
        let other = self.condition_other(c)?;
        let mut seen = false;
        self.set_path(m, &c.steps, true, &mut |_| {
            let v = if seen { other.clone() } else { member.clone() };
            seen = true;
            v
        });
        Some(self.condition_holds(m, c))
    }

    /// Sets each value `steps` reaches from `m` to `value(old value)`, creating what is
    /// absent on the way (a new object from the table, one item in an empty list).
    /// With `pair`, the path's last list is given a second item (a copy of its first) when
    /// it has fewer.
    fn set_path(
        &self,
        m: &mut Map<String, Value>,
        steps: &[ConditionStep],
        pair: bool,
        value: &mut dyn FnMut(Value) -> Value,
    ) {
        let Some((step, rest)) = steps.split_first() else {
            return;
        };
        let key = step.member.key.clone();
        let table = self.object(&step.table).and_then(|o| {
            o.fields
                .iter()
                .find(|f| f.key == key)
                .and_then(|f| match &f.ty.base {
                    Base::Object(t) => self.object(t),
                    _ => None,
                })
        });
        let fresh = |this: &Self| match table {
            Some(t) => this.synth_object(t, 0, 1),
            None => json!({}),
        };
        if rest.is_empty() && !step.items {
            let old = m.remove(&key).unwrap_or(Value::Null);
            m.insert(key, value(old));
            return;
        }
        let slot = m.entry(key).or_insert(Value::Null);
        if step.items {
            if !slot.is_array() {
                *slot = json!([]);
            }
            let items = slot.as_array_mut().expect("an array");
            if items.is_empty() {
                items.push(if rest.is_empty() {
                    Value::Null
                } else {
                    fresh(self)
                });
            }
            if pair && items.len() < 2 && !rest.iter().any(|s| s.items) {
                // A second item unlike the first (its own keys: `spread`), or a second value.
                let list = self
                    .object(&step.table)
                    .and_then(|o| o.fields.iter().find(|f| f.key == step.member.key));
                let second = match list {
                    Some(f) if table.is_some() => self.spread(f, 2).pop(),
                    _ => None,
                };
                items.push(second.unwrap_or_else(|| items[0].clone()));
            }
            for item in items.iter_mut() {
                if rest.is_empty() {
                    *item = value(std::mem::take(item));
                } else if let Value::Object(o) = item {
                    self.set_path(o, rest, pair, value);
                }
            }
        } else {
            if !slot.is_object() {
                *slot = fresh(self);
            }
            if let Value::Object(o) = slot {
                self.set_path(o, rest, pair, value);
            }
        }
    }
}
