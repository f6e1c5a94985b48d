//! The rules tables' rows in the corpus: a document the corpus writes keeps each rule by
//! solving it for its left side (`total = sum(lines[].net)`: `total` set to the sum), and a
//! case breaks it by one unit of the left member's scale past the bound (`0.01` for a
//! `decimal(2)`, `1` for an integer), past the tolerance for `= … ± t`. The rule is computed
//! on the document's JSON by the runtime's own evaluator ([`specmint_runtime::expr`]), read
//! as the validators read it (a default for an absent member that has one).

use rust_decimal::Decimal as Dec;
use serde_json::{Map, Value};
use specmint_runtime::decimal::Decimal;
use specmint_runtime::expr::{
    Aggregate, Cmp, Computed, Expr, Items, PathExpr, Subject, Value as V,
};

use super::*;
use crate::model::*;

/// An object of a corpus document, read as its table says.
pub(super) struct Json<'g, 'a> {
    pub gen: &'g Gen<'a>,
    pub o: &'g Object,
    pub m: &'g Map<String, Value>,
}

struct List<'g, 'a> {
    gen: &'g Gen<'a>,
    f: &'g Field,
    items: &'g [Value],
}

impl Items for List<'_, '_> {
    fn count(&self) -> usize {
        self.items.len()
    }

    fn item(&self, i: usize) -> V<'_> {
        value_of(self.gen, self.f, &self.items[i])
    }
}

fn number(n: &serde_json::Number) -> V<'static> {
    if let Some(i) = n.as_i64() {
        V::Int(i.into())
    } else if let Some(u) = n.as_u64() {
        V::Int(u.into())
    } else {
        match Decimal::from_json_text(&n.to_string()) {
            Ok(d) => V::Decimal(d),
            Err(_) => V::Float(n.as_f64().unwrap_or_default()),
        }
    }
}

fn value_of<'g>(gen: &'g Gen<'_>, f: &'g Field, v: &'g Value) -> V<'g> {
    match v {
        Value::Null => V::Absent,
        Value::Bool(b) => V::Bool(*b),
        Value::Number(n) => number(n),
        Value::String(s) => V::Text(s),
        Value::Array(items) => V::List(Box::new(List { gen, f, items })),
        Value::Object(m) => match gen.object_of(f) {
            Some(o) => V::Object(Box::new(Json { gen, o, m })),
            None => V::Absent,
        },
    }
}

impl Subject for Json<'_, '_> {
    fn member(&self, name: &str) -> V<'_> {
        let Some(f) = self.o.fields.iter().find(|f| f.key == name) else {
            return V::Absent;
        };
        match (self.m.get(name), &f.default) {
            (Some(v), _) if !v.is_null() => value_of(self.gen, f, v),
            (_, Some(d)) => match d {
                DefaultValue::Bool(b) => V::Bool(*b),
                DefaultValue::UInt(n) => V::Int((*n).into()),
                DefaultValue::Int(n) => V::Int((*n).into()),
                DefaultValue::Number(x) => V::Float(*x),
                DefaultValue::String(s) => V::Text(s),
                DefaultValue::Enum { value, .. } => V::Text(value),
            },
            _ => V::Absent,
        }
    }
}

/// A rule of the form `member op right` whose left side is a number member of the object
/// that the right side does not read: the corpus solves for it.
fn solvable(expr: &Expr) -> Option<(&PathExpr, Cmp, &Expr, Option<&Expr>)> {
    let Expr::Cmp(left, op, right, tolerance) = expr else {
        return None;
    };
    let Expr::Path(p) = &**left else {
        return None;
    };
    if right.paths().iter().any(|(q, _)| q.steps == p.steps) {
        return None;
    }
    Some((p, *op, right, tolerance.as_deref()))
}

/// How the corpus sets a number to keep (`keep`) or break `x op r ± t`, one unit of the
/// member's scale past the bound.
fn target(op: Cmp, r: Dec, t: Dec, unit: Dec, keep: bool) -> Option<Dec> {
    match (op, keep) {
        (Cmp::Eq | Cmp::Le | Cmp::Ge, true) | (Cmp::Ne, false) => Some(r),
        (Cmp::Lt, true) | (Cmp::Ge, false) => r.checked_sub(unit),
        (Cmp::Gt, true) | (Cmp::Le, false) => r.checked_add(unit),
        (Cmp::Ne, true) => r.checked_add(unit),
        (Cmp::Lt, false) | (Cmp::Gt, false) => Some(r),
        (Cmp::Eq, false) => r.checked_add(t).and_then(|x| x.checked_add(unit)),
    }
}

/// The value of field `f` as JSON, when `x` is one the field holds (its scale, an integer
/// for an integer field).
fn as_field_value(f: &Field, x: Dec) -> Option<Value> {
    let number = f.ty.base.integer_width().is_some()
        || matches!(f.ty.base, Base::Number | Base::Decimal { .. });
    if f.ty.array || !number {
        return None;
    }
    match f.ty.base {
        Base::Decimal { scale, .. } if x.normalize().scale() > scale => None,
        Base::Decimal { .. } | Base::Number => serde_json::from_str::<Value>(&x.to_string()).ok(),
        _ if !x.fract().is_zero() => None,
        _ => i64::try_from(x.normalize().mantissa())
            .ok()
            .map(Value::from),
    }
}

/// One unit of a number field's scale: `0.01` for `decimal(2)`, `1` otherwise.
fn unit(f: &Field) -> Dec {
    match f.ty.base {
        Base::Decimal { scale, .. } => Dec::new(1, scale),
        _ => Dec::ONE,
    }
}

impl Gen<'_> {
    /// The field at `keys` from object `o`.
    fn field_at<'o>(&'o self, o: &'o Object, keys: &[String]) -> Option<&'o Field> {
        let (last, before) = keys.split_last()?;
        let mut cur = o;
        for k in before {
            cur = self.object_of(cur.fields.iter().find(|f| f.key == *k)?)?;
        }
        cur.fields.iter().find(|f| f.key == *last)
    }

    /// `x` solved for `left op right ± t` on `subject` (with `name` bound to `item` inside
    /// an `all`), for field `f`; `None` where the right side does not compute to a number or
    /// the value is no value of the field.
    #[allow(clippy::too_many_arguments)]
    fn solved(
        &self,
        subject: &dyn Subject,
        bound: Option<(&str, &V<'_>)>,
        f: &Field,
        (op, right, tolerance): (Cmp, &Expr, Option<&Expr>),
        keep: bool,
    ) -> Option<Value> {
        let compute = |e: &Expr| match bound {
            Some((name, item)) => e.compute_with(subject, name, item),
            None => e.compute(subject),
        };
        let Ok(Computed::Number(r)) = compute(right) else {
            return None;
        };
        let t = match tolerance.map(compute) {
            None => Dec::ZERO,
            Some(Ok(Computed::Number(t))) => t.abs(),
            Some(_) => return None,
        };
        as_field_value(f, target(op, r, t, unit(f), keep)?)
    }

    /// Sets (to keep, or to break: only the first item an `all` reads) the left members of
    /// rule `expr` in object `m`, unless `except` is that member (its dotted path) or the
    /// member of `m` it is in; `false` when nothing could be set.
    fn settle(
        &self,
        o: &Object,
        expr: &Expr,
        m: &mut Map<String, Value>,
        except: Option<&str>,
        keep: bool,
    ) -> bool {
        let frozen = |keys: &[String]| {
            except
                .is_some_and(|e| Some(e) == keys.first().map(String::as_str) || e == keys.join("."))
        };
        if let Some((p, op, right, tolerance)) = solvable(expr) {
            let keys: Vec<String> = p.steps.iter().map(|s| s.name.clone()).collect();
            let Some(f) = self.field_at(o, &keys) else {
                return false;
            };
            // Keeping sets a member that is there, where the rule does not hold already: an
            // absent one leaves the rule unknown, which holds, and a mutation may have removed
            // it on purpose.
            if keep
                && (get_at(m, &keys).is_none_or(Value::is_null)
                    || expr.holds(&Json { gen: self, o, m }) == Ok(true))
            {
                return false;
            }
            let v = self.solved(
                &Json { gen: self, o, m },
                None,
                f,
                (op, right, tolerance),
                keep,
            );
            return match v {
                Some(v) if !frozen(&keys) => set_at(m, &keys, v),
                _ => false,
            };
        }
        // `all(b in list[] [if f], b.x op right)`: each item of the object's own list.
        let Expr::Over(over) = expr else { return false };
        let (Aggregate::All, Some(body), Some(list)) = (over.what, &over.body, over.own_list())
        else {
            return false;
        };
        let Some((p, op, right, tolerance)) = solvable(body) else {
            return false;
        };
        if p.steps.len() < 2 || p.steps[0].name != over.name {
            return false;
        }
        let list: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
        let Some(list_field) = self.field_at(o, &list) else {
            return false;
        };
        let (Some(item_table), false) = (self.object_of(list_field), frozen(&list)) else {
            return false;
        };
        let keys: Vec<String> = p.steps[1..].iter().map(|s| s.name.clone()).collect();
        let Some(f) = self.field_at(item_table, &keys) else {
            return false;
        };
        let count = get_at(m, &list)
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        let mut set = false;
        for i in 0..count {
            // The value to set, computed on the document as it is.
            let v = {
                let subject = Json { gen: self, o, m };
                let item = &get_at(m, &list).and_then(Value::as_array).expect("counted")[i];
                let item = value_of(self, list_field, item);
                let kept = match &over.filter {
                    Some(filter) => matches!(
                        filter.compute_with(&subject, &over.name, &item),
                        Ok(Computed::Bool(true))
                    ),
                    None => true,
                };
                // An item the filter leaves out, or that keeps the rule already, stays.
                let holds = !matches!(
                    body.compute_with(&subject, &over.name, &item),
                    Ok(Computed::Bool(false))
                );
                if !kept || (keep && holds) {
                    continue;
                }
                self.solved(
                    &subject,
                    Some((&over.name, &item)),
                    f,
                    (op, right, tolerance),
                    keep,
                )
            };
            let Some(v) = v else { continue };
            if let Some(Value::Object(item)) = get_at_mut(m, &list)
                .and_then(Value::as_array_mut)
                .and_then(|a| a.get_mut(i))
            {
                if keep && get_at(item, &keys).is_none_or(Value::is_null) {
                    continue;
                }
                set |= set_at(item, &keys, v);
            }
            if !keep && set {
                break;
            }
        }
        set
    }

    /// Makes `m` keep rule `expr` by setting its left members, except `except`.
    pub(super) fn keep_expression(
        &self,
        o: &Object,
        expr: &Expr,
        m: &mut Map<String, Value>,
        except: Option<&str>,
    ) {
        self.settle(o, expr, m, except, true);
    }

    /// Breaks rule `expr` in `m` (a left member one unit past its bound); `false` when it
    /// cannot.
    pub(super) fn break_expression(
        &self,
        o: &Object,
        expr: &Expr,
        m: &mut Map<String, Value>,
    ) -> bool {
        self.settle(o, expr, m, None, false)
    }

    /// Where object `m` (at `at`) breaks rule `expr`: the paths the runtime's own check
    /// reports, read on the document's JSON.
    pub(super) fn expression_violations(
        &self,
        o: &Object,
        expr: &Expr,
        m: &Map<String, Value>,
        at: &str,
    ) -> Vec<String> {
        let mut report = specmint_runtime::Report::default();
        specmint_runtime::expr::check(
            expr,
            &Json { gen: self, o, m },
            None,
            &specmint_runtime::Path::ROOT,
            "",
            &mut report,
        );
        report
            .iter()
            .map(|v| {
                if v.path.is_empty() {
                    at.to_owned()
                } else if v.path.starts_with('[') || at.is_empty() {
                    format!("{at}{}", v.path)
                } else {
                    join(at, &v.path)
                }
            })
            .collect()
    }
}

/// The dotted path of what the corpus sets to keep a rule: its left member, or for an
/// `all` over the object's own list, that list.
pub(super) fn left_member(expr: &Expr) -> Option<String> {
    if let Expr::Over(over) = expr {
        return over.own_list().map(|names| names.join("."));
    }
    solvable(expr).map(|(p, ..)| p.to_string())
}

fn get_at<'m>(m: &'m Map<String, Value>, keys: &[String]) -> Option<&'m Value> {
    let (first, rest) = keys.split_first()?;
    let v = m.get(first)?;
    if rest.is_empty() {
        Some(v)
    } else {
        get_at(v.as_object()?, rest)
    }
}

fn get_at_mut<'m>(m: &'m mut Map<String, Value>, keys: &[String]) -> Option<&'m mut Value> {
    let (first, rest) = keys.split_first()?;
    let v = m.get_mut(first)?;
    if rest.is_empty() {
        Some(v)
    } else {
        get_at_mut(v.as_object_mut()?, rest)
    }
}

/// Sets the member at `keys` of `m` (member objects on the way must be there).
fn set_at(m: &mut Map<String, Value>, keys: &[String], v: Value) -> bool {
    let Some((last, before)) = keys.split_last() else {
        return false;
    };
    let mut cur = m;
    for k in before {
        match cur.get_mut(k) {
            Some(Value::Object(inner)) => cur = inner,
            _ => return false,
        }
    }
    cur.insert(last.clone(), v);
    true
}
