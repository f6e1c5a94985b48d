//! Locating: every field location the corpus probes (a path of hops from the root), and
//! the base document edited at one location with everything on the way kept consistent.

use serde_json::{json, Map, Value};

use super::*;
use crate::model::*;

/// One step from an object into a field; arrays are entered at element 0.
#[derive(Clone)]
pub(super) struct Hop<'a> {
    pub(super) field: &'a Field,
    /// The object type holding the field.
    pub(super) owner: &'a Object,
    /// For a chosen member (`object by`): the selector and the index of the chosen case.
    pub(super) case: Option<(&'a Selector, usize)>,
}

/// The id prefix of a location under chosen members: `kind=close:`.
pub(super) fn scope_of(hops: &[Hop<'_>]) -> String {
    hops.iter()
        .filter_map(|h| {
            h.case
                .map(|(sel, i)| format!("{}={}:", sel.by.key, sel.cases[i].value))
        })
        .collect()
}

/// Dotted path of a field location (`constraints[0].text`), arrays entered at 0 except the last.
pub(super) fn dotted(hops: &[Hop<'_>]) -> String {
    let mut s = String::new();
    for (i, h) in hops.iter().enumerate() {
        if i > 0 {
            s.push('.');
        }
        s.push_str(&h.field.key);
        if h.field.ty.array && i + 1 < hops.len() {
            s.push_str("[0]");
        }
    }
    s
}

/// Path of the object that holds the last hop's field (`constraints[0]`, `""` for the root).
pub(super) fn owner_path(hops: &[Hop<'_>]) -> String {
    dotted(&hops[..hops.len() - 1])
        + if hops.len() > 1 && hops[hops.len() - 2].field.ty.array {
            "[0]"
        } else {
            ""
        }
}

/// Joins an object path and a key.
pub(super) fn join(owner: &str, key: &str) -> String {
    if owner.is_empty() {
        key.to_owned()
    } else {
        format!("{owner}.{key}")
    }
}

impl<'a> Gen<'a> {
    /// The object type a hop enters: its field table, or the chosen case's table.
    pub(super) fn entered(&self, h: &Hop<'_>) -> Option<&'a Object> {
        match (&h.field.ty.base, h.case) {
            (Base::Object(n), _) => self.object(n),
            (Base::Selected(_), Some((sel, i))) => {
                let m = sel.members.iter().position(|m| *m == h.field.key)?;
                self.object(&sel.cases[i].tables[m])
            }
            _ => None,
        }
    }

    /// Every field location reachable from the root through objects (and arrays of objects)
    /// and through chosen members (once per case), not through unions; each object type is
    /// entered once per path, depth-limited.
    pub(super) fn locations(&self) -> Vec<Vec<Hop<'a>>> {
        let mut out = Vec::new();
        let mut stack: Vec<Vec<Hop<'a>>> = Vec::new();
        let root = self.spec.root_object();
        let push_fields = |stack: &mut Vec<Vec<Hop<'a>>>, prefix: &[Hop<'a>], o: &'a Object| {
            for f in o.fields.iter().rev() {
                let mut cases = vec![None];
                if let (Base::Selected(_), Some(sel)) = (&f.ty.base, &o.selector) {
                    cases = (0..sel.cases.len()).rev().map(|i| Some((sel, i))).collect();
                }
                for case in cases {
                    let mut next = prefix.to_vec();
                    next.push(Hop {
                        field: f,
                        owner: o,
                        case,
                    });
                    stack.push(next);
                }
            }
        };
        push_fields(&mut stack, &[], root);
        while let Some(hops) = stack.pop() {
            let last = hops.last().expect("non-empty");
            if let Some(o) = self.entered(last) {
                let seen = hops.iter().any(|h| h.owner.name == o.name);
                if !seen && hops.len() < 6 {
                    push_fields(&mut stack, &hops, o);
                }
            }
            out.push(hops);
        }
        out
    }

    /// Steps from the object `obj` through hop `h` (creating what is missing: a synthesized
    /// object, a one-element array, the chosen case) and returns the object entered.
    pub(super) fn step<'v>(&self, obj: &'v mut Map<String, Value>, h: &Hop<'_>) -> &'v mut Value {
        let o = self.entered(h);
        if let Some((sel, i)) = h.case {
            let value = &sel.cases[i].value;
            if obj.get(&sel.by.key).and_then(Value::as_str) != Some(value.as_str()) {
                obj.insert(sel.by.key.clone(), json!(value));
                self.choose(sel, obj, true);
            } else {
                self.choose(sel, obj, false);
            }
        }
        let synth = |g: &Self| o.map_or(json!({}), |o| g.synth_object(o, 0, 0));
        let slot = obj.entry(h.field.key.clone()).or_insert(Value::Null);
        if h.field.ty.array {
            if !matches!(slot.as_array(), Some(a) if !a.is_empty() && a[0].is_object()) {
                *slot = self.first_of(h.field, synth(self));
            }
            &mut slot.as_array_mut().expect("array")[0]
        } else {
            if !slot.is_object() {
                *slot = synth(self);
            }
            slot
        }
    }

    /// Makes sure every container on the way through `hops` exists and returns the last one.
    pub(super) fn walk_mut<'v>(
        &self,
        doc: &'v mut Value,
        hops: &[Hop<'_>],
    ) -> &'v mut Map<String, Value> {
        let mut cur = doc;
        for h in hops {
            let obj = cur.as_object_mut().expect("an object on the way");
            cur = self.step(obj, h);
        }
        cur.as_object_mut().expect("the container is an object")
    }

    /// Makes sure every container on the way to the last hop exists and returns the object
    /// that holds the last hop's field.
    pub(super) fn owner_mut<'v>(
        &self,
        doc: &'v mut Value,
        hops: &[Hop<'_>],
    ) -> &'v mut Map<String, Value> {
        let owner = self.walk_mut(doc, &hops[..hops.len() - 1]);
        if let Some((sel, i)) = hops.last().expect("non-empty").case {
            let value = &sel.cases[i].value;
            if owner.get(&sel.by.key).and_then(Value::as_str) != Some(value.as_str()) {
                owner.insert(sel.by.key.clone(), json!(value));
                self.choose(sel, owner, true);
            }
        }
        owner
    }

    /// The base with the last hop's field set to `value`; the object stays consistent where
    /// the value is not what is probed: a new choosing value brings its members' shapes, a
    /// condition that starts to hold brings its field, and digests follow changed content.
    pub(super) fn with(&self, base: &Value, hops: &[Hop<'_>], value: Value) -> Value {
        let mut doc = base.clone();
        let last = hops.last().expect("non-empty");
        let key = last.field.key.clone();
        let o = last.owner;
        let owner = self.owner_mut(&mut doc, hops);
        let before = owner.clone();
        let changed = before.get(&key) != Some(&value);
        owner.insert(key.clone(), value);
        if changed {
            if let Some(sel) = o.selector.as_ref().filter(|s| s.by.key == key) {
                self.choose(sel, owner, true);
            }
            self.meet_required_if_but(o, owner, Some(&key));
            super::synth::keep_order(o, owner, Some(&key));
            if o.digest
                .iter()
                .any(|d| d.data.key == key || d.encoding.key == key)
            {
                self.fix_digests(o, owner, Some(&before));
            }
            self.meet_enclosing(&mut doc, hops);
        }
        doc
    }

    /// Meets the conditional requirements of the objects enclosing the last hop's owner,
    /// innermost first: a condition may read what changed below it (`lines[].category`).
    pub(super) fn meet_enclosing(&self, doc: &mut Value, hops: &[Hop<'_>]) {
        for depth in (0..hops.len().saturating_sub(1)).rev() {
            let outer = self.walk_mut(doc, &hops[..depth]);
            // Where rules tables settle member objects, the one holding the mutation is
            // left as it is.
            let inner = self
                .has_expressions()
                .then_some(hops[depth].field.key.as_str());
            self.meet_required_if_but(hops[depth].owner, outer, inner);
        }
    }
}
