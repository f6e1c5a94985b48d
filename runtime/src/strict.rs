//! [`Strict`]: a deserializer adaptor under which a struct can only be read from a map.
//!
//! Serde's derived `Deserialize` for a struct accepts a sequence as well as a map: fed to
//! `serde_json`, `{"id": "a", "n": 1}` and `["a", 1]` give the same value, and `[]` fails
//! with "invalid length 0, expected struct X with 2 elements". Our documents are JSON
//! objects all the way down (JSON Schema `type: object`), so an array where a struct is
//! expected must be refused, at any depth.
//!
//! [`Strict`] wraps any [`Deserializer`] and forwards every call to it, except that
//! [`deserialize_struct`](Deserializer::deserialize_struct) becomes
//! [`deserialize_map`](Deserializer::deserialize_map); a struct variant of an enum likewise
//! refuses a sequence. The refusal is the inner format's own "wrong type" error, e.g.
//! `serde_json`'s `invalid type: sequence, expected struct Item at line 1 column 0`
//! (`serde_json` places a wrong-type value it found by peeking, as for any map given an
//! array, at the character before the value).
//!
//! The adaptor applies recursively: the visitor handed to the inner deserializer is
//! wrapped, and so is every [`SeqAccess`], [`MapAccess`], [`EnumAccess`] and
//! [`VariantAccess`] it receives, so each nested value (struct field, sequence element,
//! map value, `Option` content, newtype content, enum variant content) is again read
//! through a [`Strict`] deserializer. Wrapping allocates nothing.
//!
//! ```
//! use serde::Deserialize;
//! use specmint_runtime::strict::Strict;
//!
//! #[derive(Deserialize, Debug)]
//! struct Item {
//!     id: String,
//! }
//!
//! let read = |text: &str| {
//!     let mut de = serde_json::Deserializer::from_str(text);
//!     Item::deserialize(Strict::new(&mut de)).map_err(|err| err.to_string())
//! };
//! assert_eq!(read(r#"{"id": "a"}"#).unwrap().id, "a");
//! assert_eq!(
//!     read(r#"["a"]"#).unwrap_err(),
//!     "invalid type: sequence, expected struct Item at line 1 column 0"
//! );
//! ```
//!
//! # Limitations
//!
//! * The inner format must be self-describing (JSON, YAML, ...): formats such as bincode
//!   that encode a struct as a bare sequence of fields cannot be read through [`Strict`].
//! * Serde reads internally tagged enums (`#[serde(tag = "...")]`), adjacently tagged
//!   enums, untagged enums and the remaining fields of a struct with `#[serde(flatten)]`
//!   by first buffering the input into serde's private `Content` tree and then
//!   deserializing from that tree with serde's own `ContentDeserializer`, outside this
//!   adaptor. Structs reached that way still accept a sequence. Types read through
//!   [`Strict`] that must refuse arrays everywhere should avoid those attributes (or
//!   check the shape themselves).

use std::fmt;

use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// A [`Deserializer`] that reads structs only from maps, recursively. See the
/// [module documentation](self).
#[derive(Clone, Copy, Debug)]
pub struct Strict<D> {
    inner: D,
}

impl<D> Strict<D> {
    /// Wraps `inner`; pass `&mut serde_json::Deserializer` to keep using it afterwards
    /// (e.g. for `end()`).
    pub const fn new(inner: D) -> Self {
        Self { inner }
    }

    /// The wrapped deserializer.
    pub fn into_inner(self) -> D {
        self.inner
    }
}

/// Forwards `deserialize_*` methods that take only a visitor.
macro_rules! forward_visitor_only {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
            self.inner.$method(StrictVisitor::new(visitor))
        }
    )*};
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Strict<D> {
    type Error = D::Error;

    forward_visitor_only! {
        deserialize_any deserialize_bool
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64 deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit
        deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner
            .deserialize_unit_struct(name, StrictVisitor::new(visitor))
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner
            .deserialize_newtype_struct(name, StrictVisitor::new(visitor))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner
            .deserialize_tuple(len, StrictVisitor::new(visitor))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner
            .deserialize_tuple_struct(name, len, StrictVisitor::new(visitor))
    }

    /// The one change: a struct is read as a map, so the inner deserializer refuses a
    /// sequence with its usual "invalid type" error (naming the struct via the visitor).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        let visitor = StrictVisitor {
            inner: visitor,
            refuse_seq: true,
        };
        self.inner.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.inner
            .deserialize_enum(name, variants, StrictVisitor::new(visitor))
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Wraps a visitor so that every deserializer or access it is given is [`Strict`].
///
/// With `refuse_seq` set (a struct's visitor), `visit_seq` is refused with the usual
/// "invalid type" error instead of being forwarded. That is the whole check for a struct
/// variant, which `VariantAccess` gives no way to read as a map, and a backstop for
/// formats whose `deserialize_map` would still hand a sequence to the visitor.
struct StrictVisitor<V> {
    inner: V,
    refuse_seq: bool,
}

impl<V> StrictVisitor<V> {
    const fn new(inner: V) -> Self {
        Self {
            inner,
            refuse_seq: false,
        }
    }
}

/// Forwards `visit_*` methods whose argument is a plain value.
macro_rules! forward_visit_value {
    ($($method:ident: $ty:ty)*) => {$(
        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        }
    )*};
}

impl<'de, V: Visitor<'de>> Visitor<'de> for StrictVisitor<V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit_value! {
        visit_bool: bool
        visit_i8: i8 visit_i16: i16 visit_i32: i32 visit_i64: i64 visit_i128: i128
        visit_u8: u8 visit_u16: u16 visit_u32: u32 visit_u64: u64 visit_u128: u128
        visit_f32: f32 visit_f64: f64 visit_char: char
        visit_str: &str visit_borrowed_str: &'de str visit_string: String
        visit_bytes: &[u8] visit_borrowed_bytes: &'de [u8] visit_byte_buf: Vec<u8>
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.inner.visit_some(Strict::new(deserializer))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        self.inner.visit_newtype_struct(Strict::new(deserializer))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        if self.refuse_seq {
            return Err(de::Error::invalid_type(de::Unexpected::Seq, &self));
        }
        self.inner.visit_seq(StrictSeq(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_map(StrictMap(map))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        self.inner.visit_enum(StrictEnum(data))
    }
}

/// Wraps a seed so that it deserializes from a [`Strict`] deserializer.
struct StrictSeed<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for StrictSeed<S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(Strict::new(deserializer))
    }
}

struct StrictSeq<A>(A);

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for StrictSeq<A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        self.0.next_element_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictMap<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for StrictMap<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.0.next_key_seed(StrictSeed(seed))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(StrictSeed(seed))
    }

    fn size_hint(&self) -> Option<usize> {
        self.0.size_hint()
    }
}

struct StrictEnum<A>(A);

impl<'de, A: EnumAccess<'de>> EnumAccess<'de> for StrictEnum<A> {
    type Error = A::Error;
    type Variant = StrictVariant<A::Variant>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, Self::Variant), A::Error> {
        let (value, variant) = self.0.variant_seed(StrictSeed(seed))?;
        Ok((value, StrictVariant(variant)))
    }
}

struct StrictVariant<A>(A);

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for StrictVariant<A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.0.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        self.0.newtype_variant_seed(StrictSeed(seed))
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        self.0.tuple_variant(len, StrictVisitor::new(visitor))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = StrictVisitor {
            inner: visitor,
            refuse_seq: true,
        };
        self.0.struct_variant(fields, visitor)
    }
}
