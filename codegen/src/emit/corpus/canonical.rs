//! The canonical form of a document (defaults omitted, unions tagged), whose compact JSON
//! the document byte cap measures.

use serde_json::{json, Map, Value};

use super::*;
use crate::model::*;

impl<'a> Gen<'a> {
    /// Size of the document written back in canonical form (defaults omitted, unions tagged).
    pub(super) fn canonical_bytes(&self, doc: &Value) -> u64 {
        let c = self.canonical_object(self.spec.root_object(), doc);
        serde_json::to_string(&c).map_or(0, |s| s.len() as u64)
    }

    pub(super) fn canonical_object(&self, o: &Object, v: &Value) -> Value {
        let Some(m) = v.as_object() else {
            return v.clone();
        };
        let mut out = Map::new();
        for f in &o.fields {
            let absent;
            let x = match m.get(&f.key) {
                Some(x) => x,
                None if f.written_when_absent() => match f.default_json() {
                    Some(d) => {
                        absent = d;
                        &absent
                    }
                    None => continue,
                },
                None => continue,
            };
            if !f.required && !f.always_written {
                let omitted = match &f.default {
                    Some(DefaultValue::Bool(b)) => x == &json!(b),
                    Some(DefaultValue::UInt(n)) => x.as_u64() == Some(*n),
                    Some(DefaultValue::Int(n)) => x.as_i64() == Some(*n),
                    Some(DefaultValue::Number(n)) => x.as_f64() == Some(*n),
                    Some(DefaultValue::String(s)) => x.as_str() == Some(s),
                    Some(DefaultValue::Enum { value, .. }) => x.as_str() == Some(value),
                    None if f.ty.nullable => x.is_null(),
                    // Read as `{}` when absent: left out while written as `{}` would be.
                    None if f.absent_is_empty => {
                        self.canonical_field(&f.ty, x) == self.canonical_field(&f.ty, &json!({}))
                    }
                    None => x.as_array().is_some_and(|a| a.is_empty()),
                };
                if omitted {
                    continue;
                }
            }
            // A coded requirement reads `null` as absent (`None`), which is not written.
            if f.read_optional() && x.is_null() {
                continue;
            }
            out.insert(f.key.clone(), self.canonical_field(&f.ty, x));
        }
        if o.open {
            // Unlisted members are written back verbatim.
            for (k, x) in m {
                if !o.fields.iter().any(|f| &f.key == k) {
                    out.insert(k.clone(), x.clone());
                }
            }
        }
        Value::Object(out)
    }

    pub(super) fn canonical_field(&self, ty: &TypeRef, v: &Value) -> Value {
        if v.is_null() {
            return Value::Null;
        }
        if ty.array {
            return match v.as_array() {
                Some(a) => {
                    Value::Array(a.iter().map(|x| self.canonical_base(&ty.base, x)).collect())
                }
                None => v.clone(),
            };
        }
        self.canonical_base(&ty.base, v)
    }

    pub(super) fn canonical_base(&self, base: &Base, v: &Value) -> Value {
        match base {
            Base::Number => v.as_f64().map_or(v.clone(), |f| json!(f)),
            Base::Object(n) => match self.object(n) {
                Some(o) => self.canonical_object(o, v),
                None => v.clone(),
            },
            Base::Union(n) => {
                let Some(TypeDef::Union(u)) = self.spec.type_def(n) else {
                    return v.clone();
                };
                let (tag, given) = match v {
                    Value::String(s) => {
                        let t = s.trim();
                        let tv = u
                            .variants
                            .iter()
                            .find(|x| x.tag_value.eq_ignore_ascii_case(t))
                            .map_or(t.to_owned(), |x| x.tag_value.clone());
                        (tv, Map::new())
                    }
                    Value::Object(m) => (
                        m.get(&u.tag)
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned(),
                        m.clone(),
                    ),
                    _ => return v.clone(),
                };
                let mut out = Map::new();
                out.insert(u.tag.clone(), json!(tag));
                if let Some(var) = u.variants.iter().find(|x| x.tag_value == tag) {
                    for mem in &var.members {
                        let x = given.get(&mem.key).cloned().unwrap_or(Value::Null);
                        out.insert(mem.key.clone(), self.canonical_field(&mem.ty, &x));
                    }
                }
                Value::Object(out)
            }
            _ => v.clone(),
        }
    }
}
