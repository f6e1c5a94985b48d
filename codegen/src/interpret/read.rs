//! The typed read: the calls serde's derive makes for the generated types (and the calls
//! the generated `Deserialize` impls of unions and selector objects make), with the same
//! `expecting` texts, so serde and `serde_json` word every refusal, and place it, as they do
//! for the generated validator.
//!
//! serde's derive hands the deserializer and its errors `&'static` names (`FIELDS`,
//! `VARIANTS`); the spec's names here are owned by the compiled spec, so its reads pass no
//! names to `deserialize_struct` and `deserialize_enum` (every deserializer a document meets
//! here, `serde_json`'s, its `Value`'s and the runtime's `Strict`, ignores them) and word
//! their refusals with `specmint_runtime::interp`, in serde's words.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::Deserialize;
use specmint_runtime::decimal::Decimal;
use specmint_runtime::interp::{
    duplicate_field, missing_field, unknown_field, unknown_variant, AfterTag, Replay,
};
use specmint_runtime::json::Json;
use specmint_runtime::strict::Strict;

use super::compile::{BaseTy, Compiled, Field, Name, Object, Ty};
use super::node::{EnumValue, Node};

/// A whole document, read under the spec it belongs to.
pub(super) struct Interpreted {
    pub compiled: Arc<Compiled>,
    pub node: Node,
}

/// Reads a whole document under the compiled spec it holds (what the generated root type's
/// `Deserialize` does): the seed `parse_document_seed` runs.
#[derive(Clone, Copy)]
pub(super) struct DocumentSeed<'c>(pub &'c Arc<Compiled>);

impl<'de> DeserializeSeed<'de> for DocumentSeed<'_> {
    type Value = Interpreted;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Interpreted, D::Error> {
        let compiled = self.0;
        let node = ObjectSeed {
            c: compiled,
            t: compiled.root,
        }
        .deserialize(deserializer)?;
        Ok(Interpreted {
            compiled: Arc::clone(compiled),
            node,
        })
    }
}

/// A present member's value.
#[derive(Clone, Copy)]
pub(super) struct FieldSeed<'c> {
    pub c: &'c Compiled,
    pub field: &'c Field,
}

impl<'de> DeserializeSeed<'de> for FieldSeed<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        if self.field.present_any {
            return Json::deserialize(d).map(Node::Any);
        }
        let ty = TySeed {
            c: self.c,
            ty: &self.field.ty,
            list: self.field.ty.array,
        };
        if self.field.option {
            d.deserialize_option(OptionVisitor(ty))
        } else {
            ty.deserialize(d)
        }
    }
}

/// serde's `Option<T>`: `null` is `None`.
struct OptionVisitor<'c>(TySeed<'c>);

impl<'de> Visitor<'de> for OptionVisitor<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Absent)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Absent)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        self.0.deserialize(d)
    }
}

/// A value of a type: a list of it while `list`, else its base type.
#[derive(Clone, Copy)]
struct TySeed<'c> {
    c: &'c Compiled,
    ty: &'c Ty,
    list: bool,
}

impl<'de> DeserializeSeed<'de> for TySeed<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        if self.list {
            return d.deserialize_seq(ListVisitor(TySeed {
                list: false,
                ..self
            }));
        }
        let c = self.c;
        match self.ty.base {
            BaseTy::String => String::deserialize(d).map(Node::Text),
            BaseTy::Bool => bool::deserialize(d).map(Node::Bool),
            BaseTy::U32 => u32::deserialize(d).map(|n| Node::UInt(n.into())),
            BaseTy::U64 => u64::deserialize(d).map(Node::UInt),
            BaseTy::I32 => i32::deserialize(d).map(|n| Node::Int(n.into())),
            BaseTy::I64 => i64::deserialize(d).map(Node::Int),
            BaseTy::Number => f64::deserialize(d).map(Node::Float),
            BaseTy::Decimal => Decimal::deserialize(d).map(Node::Decimal),
            BaseTy::Any => Json::deserialize(d).map(Node::Any),
            BaseTy::Object(t) => ObjectSeed { c, t }.deserialize(d),
            BaseTy::Enum(t) => EnumSeed { c, t }.deserialize(d),
            BaseTy::Union(t) => UnionSeed { c, t }.deserialize(d),
            // A chosen member is read by its owner's selector, never on its own.
            BaseTy::Selected => Err(de::Error::custom("a chosen member read alone")),
        }
    }
}

/// serde's `Vec<T>`.
struct ListVisitor<'c>(TySeed<'c>);

impl<'de> Visitor<'de> for ListVisitor<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.0)? {
            items.push(item);
        }
        Ok(Node::List(items))
    }
}

/// A unit-only enum, as serde's derive reads it.
struct EnumSeed<'c> {
    c: &'c Compiled,
    t: usize,
}

impl<'de> DeserializeSeed<'de> for EnumSeed<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        let e = self.c.enum_def(self.t);
        d.deserialize_enum("", &[], EnumVisitor(&e.expecting, &e.values))
    }
}

struct EnumVisitor<'c>(&'c str, &'c [Name]);

impl<'de> Visitor<'de> for EnumVisitor<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Node, A::Error> {
        let (value, variant) = data.variant_seed(VariantName(self.1))?;
        de::VariantAccess::unit_variant(variant)?;
        Ok(Node::Enum(value))
    }
}

/// A variant identifier (an enum value, a union's tag): refused with `unknown variant`.
#[derive(Clone, Copy)]
struct VariantName<'c>(&'c [Name]);

impl<'de> DeserializeSeed<'de> for VariantName<'_> {
    type Value = EnumValue;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<EnumValue, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for VariantName<'_> {
    type Value = EnumValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<EnumValue, E> {
        let index = TagIndex(self.0).visit_str(v)?;
        Ok(EnumValue {
            index,
            spelled: Name::clone(&self.0[index]),
        })
    }
}

/// A union's tag value: the index of the variant it names (the runtime's `TagSeed`, which
/// generated code uses, for names that are not `'static`).
#[derive(Clone, Copy)]
struct TagIndex<'c>(&'c [Name]);

impl<'de> DeserializeSeed<'de> for TagIndex<'_> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for TagIndex<'_> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|x| **x == *v)
            .ok_or_else(|| unknown_variant(v, self.0))
    }
}

/// A member name: a field's index, or (an open object's) another key.
enum Key {
    Field(usize),
    Other(String),
}

/// Reads a member name, refusing an unknown one unless the object is `open`.
#[derive(Clone, Copy)]
struct KeySeed<'c> {
    keys: &'c [Name],
    open: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for KeySeed<'_> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        match self.keys.iter().position(|k| **k == *v) {
            Some(i) => Ok(Key::Field(i)),
            None if self.open => Ok(Key::Other(v.to_owned())),
            None => Err(unknown_field(v, self.keys)),
        }
    }
}

/// An object of a field table.
#[derive(Clone, Copy)]
pub(super) struct ObjectSeed<'c> {
    pub c: &'c Compiled,
    pub t: usize,
}

impl<'de> DeserializeSeed<'de> for ObjectSeed<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        // `Strict` reads a struct from a map only, as the generated validator's parse does.
        d.deserialize_struct("", &[], self)
    }
}

impl<'de> Visitor<'de> for ObjectSeed<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.c.object(self.t).expecting)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Node, A::Error> {
        let o = self.c.object(self.t);
        if o.selector.is_some() {
            return selector::visit(self.c, self.t, o, map);
        }
        let (fields, open) = members(self.c, &o.keys, &o.fields, o.open, map)?;
        Ok(Node::Object(self.t, fields, open))
    }
}

/// The members of an open object its table does not list, in document order.
type OpenMembers = Vec<(String, Json)>;

/// The members of a derived struct: each key once (`duplicate field`), an unknown key
/// refused unless `open` (then kept), an absent one read as its default or refused
/// (`missing field`, the first in table order).
fn members<'de, A: MapAccess<'de>>(
    c: &Compiled,
    keys: &[Name],
    fields: &[Field],
    open: bool,
    mut map: A,
) -> Result<(Vec<Node>, OpenMembers), A::Error> {
    let mut slots: Vec<Option<Node>> = vec![None; fields.len()];
    let mut others = Vec::new();
    while let Some(key) = map.next_key_seed(KeySeed { keys, open })? {
        match key {
            Key::Field(i) => {
                if slots[i].is_some() {
                    return Err(duplicate_field(&keys[i]));
                }
                slots[i] = Some(map.next_value_seed(FieldSeed {
                    c,
                    field: &fields[i],
                })?);
            }
            Key::Other(name) => others.push((name, map.next_value::<Json>()?)),
        }
    }
    let values = slots
        .into_iter()
        .zip(fields)
        .map(|(slot, f)| match slot {
            Some(value) => Ok(value),
            None => absent(f),
        })
        .collect::<Result<_, _>>()?;
    Ok((values, others))
}

/// What an absent member reads as, or `missing field`.
fn absent<E: de::Error>(f: &Field) -> Result<Node, E> {
    f.absent.clone().ok_or_else(|| missing_field(&f.key))
}

/// A union: its short form (a bare tag) or an object tagged by its tag member.
struct UnionSeed<'c> {
    c: &'c Compiled,
    t: usize,
}

impl<'de> DeserializeSeed<'de> for UnionSeed<'_> {
    type Value = Node;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for UnionSeed<'_> {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.c.union(self.t).expecting)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Node, E> {
        let u = self.c.union(self.t);
        if !u.short_form {
            return Err(E::invalid_type(Unexpected::Str(value), &self));
        }
        let token = value.trim();
        for (i, v) in u.variants.iter().enumerate() {
            if v.all_optional && token.eq_ignore_ascii_case(&u.tag_values[i]) {
                let members = vec![Node::Absent; v.members.len()];
                return Ok(Node::Union(self.t, i, members));
            }
        }
        Err(E::custom(u.unknown.replacen("{}", value, 1)))
    }

    /// As the generated reader (`emit/rust/union.rs`): a tag first is read, then the variant's
    /// members in place (their errors at their paths); otherwise serde's internally tagged
    /// enum: the tag (once, a known value) and the other members buffered, then the
    /// variant's struct read from them.
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let u = self.c.union(self.t);
        let first = map.next_key::<String>()?;
        if first.as_deref() == Some(&*u.tag) {
            let tag = map.next_value_seed(TagIndex(&u.tag_values))?;
            let v = &u.variants[tag];
            let rest = AfterTag::with_tag(&u.tag, map);
            let (values, _) = members(self.c, &v.keys, &v.members, false, rest)?;
            return Ok(Node::Union(self.t, tag, values));
        }
        let mut map = Replay::new(first, map);
        let mut tag = None;
        let mut content = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if *key == *u.tag {
                if tag.is_some() {
                    return Err(duplicate_field(&u.tag));
                }
                tag = Some(map.next_value_seed(VariantName(&u.tag_values))?);
            } else {
                content.push((key, map.next_value::<serde_json::Value>()?));
            }
        }
        let tag = tag.ok_or_else(|| missing_field(&u.tag))?;
        let v = &u.variants[tag.index];
        let buffered = de::value::MapDeserializer::new(content.into_iter());
        let (values, _) = members(self.c, &v.keys, &v.members, false, buffered)
            .map_err(|e: serde_json::Error| de::Error::custom(e))?;
        Ok(Node::Union(self.t, tag.index, values))
    }
}

mod selector {
    //! An object whose members an enum field chooses (`emit/rust/selector.rs`): members in any
    //! order; a chosen member read before the choosing field is buffered and read at the
    //! end, its errors prefixed with its name.

    use super::*;

    pub(super) fn visit<'de, A: MapAccess<'de>>(
        c: &Compiled,
        t: usize,
        o: &Object,
        mut map: A,
    ) -> Result<Node, A::Error> {
        let sel = o.selector.as_ref().expect("a selector object");
        let n = o.fields.len();
        let mut slots: Vec<Option<Node>> = vec![None; n];
        let mut by: Option<EnumValue> = None;
        let mut raw: Vec<Option<serde_json::Value>> = vec![None; n];
        let mut seen = vec![false; n];
        let keys = &o.keys;
        while let Some(key) = map.next_key_seed(KeySeed { keys, open: false })? {
            let Key::Field(i) = key else { continue };
            if i == sel.by {
                if by.is_some() {
                    return Err(duplicate_field(&keys[i]));
                }
                let values = &c.enum_def(sel.by_enum).values;
                by = Some(
                    map.next_value_seed(EnumValueSeed(EnumSeed { c, t: sel.by_enum }, values))?,
                );
            } else if let Some(m) = sel.members.iter().position(|&x| x == i) {
                if seen[i] {
                    return Err(duplicate_field(&keys[i]));
                }
                seen[i] = true;
                match &by {
                    Some(case) => {
                        let t = sel.cases[case.index][m];
                        slots[i] = Some(map.next_value_seed(ObjectSeed { c, t })?);
                    }
                    None => raw[i] = Some(map.next_value()?),
                }
            } else {
                if slots[i].is_some() {
                    return Err(duplicate_field(&keys[i]));
                }
                slots[i] = Some(map.next_value_seed(FieldSeed {
                    c,
                    field: &o.fields[i],
                })?);
            }
        }
        for (i, f) in o.fields.iter().enumerate() {
            if i != sel.by && !sel.members.contains(&i) && slots[i].is_none() {
                slots[i] = Some(absent(f)?);
            }
        }
        let by = by.ok_or_else(|| missing_field(&keys[sel.by]))?;
        let case = by.index;
        slots[sel.by] = Some(Node::Enum(by));
        for (m, &i) in sel.members.iter().enumerate() {
            if slots[i].is_some() {
                continue;
            }
            let Some(value) = raw[i].take() else {
                return Err(missing_field(&keys[i]));
            };
            let t = sel.cases[case][m];
            let read = ObjectSeed { c, t }
                .deserialize(Strict::new(value))
                .map_err(|e| de::Error::custom(format_args!("`{}`: {e}", keys[i])))?;
            slots[i] = Some(read);
        }
        let fields = slots
            .into_iter()
            .map(|s| s.unwrap_or(Node::Absent))
            .collect();
        Ok(Node::Object(t, fields, Vec::new()))
    }

    /// The choosing field's value, as an [`EnumValue`].
    struct EnumValueSeed<'c>(EnumSeed<'c>, &'c [Name]);

    impl<'de> DeserializeSeed<'de> for EnumValueSeed<'_> {
        type Value = EnumValue;

        fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<EnumValue, D::Error> {
            match self.0.deserialize(d)? {
                Node::Enum(e) => Ok(e),
                _ => Err(de::Error::custom(format_args!(
                    "expected one of {:?}",
                    self.1
                ))),
            }
        }
    }
}
