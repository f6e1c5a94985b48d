//! Reading a union's tagged object in place, for the generated `Deserialize` of a union and
//! the interpreter's reading of one, so that both word and place every refusal alike.
//!
//! serde's internally tagged enums buffer the whole object before they know the variant, so
//! an error inside a member (a wrong type, an unknown key) is reported at the union, not at
//! the member. When the tag is the object's first key (as every writer here puts it), the
//! variant is known before any member is read: the tag is read with [`TagSeed`], and the
//! rest of the object as the variant's struct through [`AfterTag`], in place, so a path
//! tracker (`serde_path_to_error`) sees each member's key and places an error in a member's
//! value at it (`signature.chain`, `signature.chain[0]`). A second tag and a missing member
//! stay refused at the union; a key that is no member is refused here at the union too, and
//! `parse_document` places it at the key, as an unknown key anywhere else. When the tag comes later, the
//! members before it cannot be typed yet: [`Replay`] gives the first key back and the reader
//! buffers as serde does, and an error is reported at the union.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::Deserialize;

/// A union's tag value: the index of the variant it names, refused with serde's
/// `unknown variant` (expected "variant identifier", as serde reads a tag).
#[derive(Clone, Copy, Debug)]
pub struct TagSeed(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for TagSeed {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for TagSeed {
    type Value = usize;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|&x| x == v)
            .ok_or_else(|| E::unknown_variant(v, self.0))
    }
}

/// The members of a tagged object after its tag, read in place: each key is read inside the
/// inner map's own key read (so a path tracker records it and places an error in its value
/// at it); an unknown key and a second tag key (`duplicate field`) are refused at the
/// union, as serde's internally tagged reading refuses them (`parse_document` then places
/// the unknown key's refusal at the key).
#[derive(Debug)]
pub struct AfterTag<'t, A> {
    tag: &'t str,
    /// `tag` where it is `'static` (generated code): a second tag is then refused with
    /// serde's own `duplicate_field`, else with the same words ([`crate::interp::duplicate_field`]).
    static_tag: Option<&'static str>,
    map: A,
}

impl<A> AfterTag<'static, A> {
    /// The rest of `map`, whose tag key `tag` was just read.
    pub fn new(tag: &'static str, map: A) -> Self {
        AfterTag {
            tag,
            static_tag: Some(tag),
            map,
        }
    }
}

impl<'t, A> AfterTag<'t, A> {
    /// [`AfterTag::new`] of a tag key read at run time.
    pub fn with_tag(tag: &'t str, map: A) -> Self {
        AfterTag {
            tag,
            static_tag: None,
            map,
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for AfterTag<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.map.next_key_seed(NotTag {
            seed,
            tag: self.tag,
        })? {
            None => Ok(None),
            Some(Key::Member(key)) => Ok(Some(key)),
            Some(Key::Tag) => Err(match self.static_tag {
                Some(tag) => de::Error::duplicate_field(tag),
                None => crate::interp::duplicate_field(self.tag),
            }),
            Some(Key::Refused(message)) => Err(de::Error::custom(message)),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}

/// A key as [`NotTag`] reads it.
enum Key<T> {
    /// A member's key, as the variant's reader reads it.
    Member(T),
    /// The tag again.
    Tag,
    /// A key the variant's reader refuses, with its refusal (raised at the union).
    Refused(String),
}

/// A key that is not the tag, read as `seed` reads it.
struct NotTag<'t, K> {
    seed: K,
    tag: &'t str,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for NotTag<'_, K> {
    type Value = Key<K::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let key = String::deserialize(d)?;
        if key == self.tag {
            return Ok(Key::Tag);
        }
        let read: Result<K::Value, D::Error> = self.seed.deserialize(key.into_deserializer());
        Ok(match read {
            Ok(member) => Key::Member(member),
            Err(refused) => Key::Refused(refused.to_string()),
        })
    }
}

/// A map whose first key was already read (`first`), given back before the rest.
#[derive(Debug)]
pub struct Replay<A> {
    first: Option<String>,
    map: A,
}

impl<A> Replay<A> {
    /// `map` with `first` (the key read from it, if any) in front again.
    pub fn new(first: Option<String>, map: A) -> Self {
        Replay { first, map }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(key) => seed.deserialize(key.into_deserializer()).map(Some),
            None => self.map.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
}
