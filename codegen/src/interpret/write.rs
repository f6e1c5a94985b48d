//! The canonical form of a read document, as the generated types serialize it: members in
//! table order, left out while they hold what an absent key means, unions tagged, an open
//! object's other members last.

use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;
use specmint_runtime::json::Json;

use super::compile::{Compiled, Skip};
use super::node::Node;
use super::read::Interpreted;

/// A value with the spec it belongs to.
pub(super) struct Written<'a> {
    pub c: &'a Compiled,
    pub node: &'a Node,
}

impl Serialize for Interpreted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Written {
            c: &self.compiled,
            node: &self.node,
        }
        .serialize(s)
    }
}

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = self.c;
        let at = |node| Written { c, node };
        match self.node {
            Node::Absent => s.serialize_none(),
            Node::Bool(b) => s.serialize_bool(*b),
            Node::UInt(n) => s.serialize_u64(*n),
            Node::Int(n) => s.serialize_i64(*n),
            Node::Float(n) => s.serialize_f64(*n),
            Node::Decimal(d) => d.serialize(s),
            Node::Text(t) => s.serialize_str(t),
            Node::Enum(e) => s.serialize_str(&e.spelled),
            Node::Any(json) => json.serialize(s),
            Node::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&at(item))?;
                }
                seq.end()
            }
            Node::Object(t, values, open) => {
                let o = c.object(*t);
                let mut map = s.serialize_map(None)?;
                for (f, value) in o.fields.iter().zip(values) {
                    let skipped = match &f.skip {
                        Skip::Never => false,
                        Skip::IfAbsent => *value == Node::Absent,
                        Skip::IfEmpty => value.items().is_some_and(<[Node]>::is_empty),
                        Skip::IfEqual(default) => value == default,
                    };
                    if !skipped {
                        map.serialize_entry(&*f.key, &at(value))?;
                    }
                }
                // `OpenMembers`: each key once, at its first place, with its last value.
                for (i, (key, _)) in open.iter().enumerate() {
                    if open[..i].iter().any(|(k, _)| k == key) {
                        continue;
                    }
                    map.serialize_entry(key, last(open, key))?;
                }
                map.end()
            }
            Node::Union(t, v, values) => {
                let u = c.union(*t);
                let mut map = s.serialize_map(None)?;
                map.serialize_entry(&*u.tag, &*u.tag_values[*v])?;
                for (f, value) in u.variants[*v].members.iter().zip(values) {
                    map.serialize_entry(&*f.key, &at(value))?;
                }
                map.end()
            }
        }
    }
}

fn last<'a>(members: &'a [(String, Json)], key: &str) -> &'a Json {
    members
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map_or(&Json::Null, |(_, v)| v)
}
