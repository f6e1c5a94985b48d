//! How many bytes longer a document's canonical compact JSON can be than the input it was
//! read from: the `canonical_growth` of the generated `DOCUMENT`.
//!
//! A document's byte cap is measured on its canonical form, which costs a walk over the
//! whole value. When the input was `N` bytes, its canonical form is at most `N + growth`
//! bytes, so an input short enough that `N + growth` is within the cap needs no walk.
//!
//! The bound follows from how the generated types read and write JSON:
//!
//! * strings, integers, booleans and enum values are written in their shortest spelling,
//!   and reading accepts no shorter one (integers take integer tokens only; enum values
//!   are matched exactly);
//! * whitespace, escapes, `null` for an optional member and members holding their default
//!   are dropped or shortened, never lengthened;
//! * unknown and repeated keys are refused, so every member written was read;
//! * what can grow:
//!   * a union's bare token, written as its tagged object (`"json"` →
//!     `{"kind":"json","schema":null}`);
//!   * a union's optional member left out of the input, written as `null`;
//!   * an absent member written anyway: a required object read as `{}` (`"key":{}`), or
//!     a member the sidecar's `[canonical] always_written` lists, written at its default
//!     (`"irreversible":false`);
//!   * a `number`, written as `serde_json` spells an `f64`: at most 24 bytes, from an input
//!     of at least 1 (`5` → `5.0`, `1e15` → `1000000000000000.0`);
//!   * inside a list, each element, so the list's item cap multiplies the element's growth.
//!
//! Where no bound is known (objects whose members an enum chooses, open objects and `any`
//! values, growing elements in a list without an item cap, recursive tables), the growth is `None` and the byte cap is
//! always measured.

use std::collections::BTreeSet;

use crate::model::{Base, Field, Object, Spec, TypeDef, TypeRef, Union};

/// The growth bound of the spec's root document, `None` when none is known.
pub(crate) fn canonical_growth(spec: &Spec) -> Option<u64> {
    Growth {
        spec,
        visiting: BTreeSet::new(),
    }
    .object(&spec.root)
}

struct Growth<'a> {
    spec: &'a Spec,
    /// Tables on the current path: a table reached again is recursive, with no bound.
    visiting: BTreeSet<String>,
}

/// Length of `s` as a JSON string, quotes included.
fn quoted(s: &str) -> u64 {
    serde_json::to_string(s).map_or(u64::MAX / 4, |q| q.len() as u64)
}

/// `,"key":null`: an optional member left out of the input and written as `null`.
fn null_member(key: &str) -> u64 {
    1 + quoted(key) + 1 + 4
}

impl<'a> Growth<'a> {
    fn object(&mut self, name: &str) -> Option<u64> {
        let o = self.find_object(name)?;
        if o.selector.is_some() || o.open || !self.visiting.insert(name.to_owned()) {
            return None;
        }
        let total = o
            .fields
            .iter()
            .try_fold(0u64, |sum, f| sum.checked_add(self.field(f)?));
        self.visiting.remove(name);
        total
    }

    /// The most a field can add: when present, its value's growth; when absent, what is
    /// written in its place (nothing, except `,"key":` and its default for a field written
    /// when absent).
    fn field(&mut self, f: &Field) -> Option<u64> {
        let present = self.value(&f.ty, f)?;
        let absent = if f.written_when_absent() {
            1 + quoted(&f.key) + 1 + self.default_len(f)?
        } else {
            0
        };
        Some(present.max(absent))
    }

    /// Canonical length of the default an absent field is written as.
    fn default_len(&mut self, f: &Field) -> Option<u64> {
        match &f.ty.base {
            Base::Object(name) if f.absent_is_empty => self.empty_len(name),
            _ => serde_json::to_string(&f.default_json()?)
                .ok()
                .map(|s| s.len() as u64),
        }
    }

    /// Canonical length of an object read from `{}`: its members written when absent are
    /// written as their defaults, every other member is left out.
    fn empty_len(&mut self, name: &str) -> Option<u64> {
        let o = self.find_object(name)?;
        if o.selector.is_some() || !self.visiting.insert(name.to_owned()) {
            return None;
        }
        let mut len = 2u64;
        let mut first = true;
        for f in &o.fields {
            if f.written_when_absent() {
                len += u64::from(!first) + quoted(&f.key) + 1 + self.default_len(f)?;
                first = false;
            }
        }
        self.visiting.remove(name);
        Some(len)
    }

    /// Growth of a value of type `ty` (a list: each element's growth times the item cap).
    fn value(&mut self, ty: &TypeRef, f: &Field) -> Option<u64> {
        let element = match &ty.base {
            Base::String
            | Base::Bool
            | Base::U32
            | Base::U64
            | Base::I32
            | Base::I64
            | Base::Enum(_) => 0,
            // `serde_json` writes an `f64` in at most 24 bytes (`ryu`'s buffer); the input
            // spelled it in at least 1 (`5` comes back as `5.0`, `1e15` as
            // `1000000000000000.0`).
            Base::Number => 23,
            // Written in plain notation: `1e-28` (5 bytes) comes back as `0.` and 28 fraction
            // digits (30 bytes), the most a decimal writes for the least it is spelled in.
            Base::Decimal { .. } => 25,
            // Kept verbatim, numbers as `serde_json` writes them, with no item cap: unbounded.
            Base::Selected(_) | Base::Any => return None,
            Base::Object(name) => self.object(name)?,
            Base::Union(name) => self.union(name)?,
        };
        if !ty.array || element == 0 {
            return Some(element);
        }
        element.checked_mul(f.rules.max_items.as_ref()?.value)
    }

    /// The larger of: a bare token written as its tagged object (every member `null`), or
    /// a tagged object whose optional members were left out and whose members grow.
    fn union(&mut self, name: &str) -> Option<u64> {
        let spec: &'a Spec = self.spec;
        let u: &'a Union = spec.types.iter().find_map(|t| match t {
            TypeDef::Union(u) if u.name == name => Some(u),
            _ => None,
        })?;
        if !self.visiting.insert(name.to_owned()) {
            return None;
        }
        let mut most = 0u64;
        for v in &u.variants {
            let mut tagged = 0u64;
            for m in &v.members {
                let absent = if m.ty.nullable {
                    null_member(&m.key)
                } else {
                    0
                };
                tagged = tagged.checked_add(self.value(&m.ty, m)?.max(absent))?;
            }
            let short = if u.short_form && v.all_optional() {
                // `{"tag":"value",...}` written for `"value"`.
                let written = 1
                    + quoted(&u.tag)
                    + 1
                    + quoted(&v.tag_value)
                    + v.members.iter().map(|m| null_member(&m.key)).sum::<u64>()
                    + 1;
                written - quoted(&v.tag_value)
            } else {
                0
            };
            most = most.max(tagged).max(short);
        }
        self.visiting.remove(name);
        Some(most)
    }

    fn find_object(&self, name: &str) -> Option<&'a Object> {
        let spec: &'a Spec = self.spec;
        spec.types.iter().find_map(|t| match t {
            TypeDef::Object(o) if o.name == name => Some(o),
            _ => None,
        })
    }
}
