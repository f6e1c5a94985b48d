//! [`Json`]: any JSON value as written, objects in document order; and [`OpenMembers`], the
//! members of an open object that its table does not list, carried verbatim.
//!
//! Why not `serde_json::Value`: without `preserve_order` its objects are sorted, and a value
//! that comes back reordered is not the one that was sent (a spec that fixes a file's bytes
//! compares them). Enabling that feature would reorder every other `Value` in a workspace
//! (features unify), sorted schema output included. So this tree keeps members in document
//! order, parses with JavaScript's `JSON.parse` semantics and writes with
//! `JSON.stringify(value, null, 2)` ([`Json::to_js_pretty`]) or through serde.
//!
//! Duplicate keys follow `JSON.parse`: the last value wins, at the first key's position. They are
//! kept in the tree (see [`Json::duplicate_keys`]) so that a strict judge can say the file
//! needed that; serializing writes each key once, as `JSON.stringify` does.

use std::collections::HashMap;
use std::fmt::{self, Write as _};

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// One JSON value, objects in document order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number, as serde_json read it.
    Number(serde_json::Number),
    /// A string. (Not named `String`: a public variant of that name makes rustc spell
    /// `std::string::String` in full in every derive user's error messages.)
    Str(String),
    /// An array.
    Array(Vec<Json>),
    /// An object: every member as written, duplicates included.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses JSON text (no BOM; see [`strip_bom`]).
    pub fn parse(text: &str) -> Result<Json, serde_json::Error> {
        serde_json::from_str(text)
    }

    /// The member `key` of an object (the last one, as `JSON.parse` keeps it).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// JavaScript truthiness (`if (value)`); `None` is `undefined`.
    pub fn truthy(value: Option<&Json>) -> bool {
        match value {
            None | Some(Json::Null) => false,
            Some(Json::Bool(b)) => *b,
            Some(Json::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
            Some(Json::Str(s)) => !s.is_empty(),
            Some(Json::Array(_) | Json::Object(_)) => true,
        }
    }

    /// JavaScript's `String(value)`; `None` is `undefined`.
    pub fn js_string(value: Option<&Json>) -> String {
        match value {
            None => "undefined".to_owned(),
            Some(Json::Null) => "null".to_owned(),
            Some(Json::Bool(b)) => b.to_string(),
            Some(Json::Number(n)) => js_number(n),
            Some(Json::Str(s)) => s.clone(),
            Some(Json::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Json::Null => String::new(),
                    other => Json::js_string(Some(other)),
                })
                .collect::<Vec<_>>()
                .join(","),
            Some(Json::Object(_)) => "[object Object]".to_owned(),
        }
    }

    /// `JSON.stringify(self, null, 2)`.
    pub fn to_js_pretty(&self) -> String {
        let mut out = String::new();
        write_pretty(&mut out, self, Some(0));
        out
    }

    /// `JSON.stringify(self)`: one line, for messages.
    pub fn to_js_compact(&self) -> String {
        let mut out = String::new();
        write_pretty(&mut out, self, None);
        out
    }

    /// Every object key that appears more than once in its object, as RFC 6901 pointers.
    pub fn duplicate_keys(&self) -> Vec<String> {
        let mut found = Vec::new();
        self.walk(&mut String::new(), &mut |pointer, value| {
            if let Json::Object(members) = value {
                for (i, (key, _)) in members.iter().enumerate() {
                    if members[..i].iter().any(|(k, _)| k == key) {
                        found.push(format!("{pointer}/{}", escape_pointer(key)));
                    }
                }
            }
        });
        found
    }

    /// Calls `visit(pointer, value)` on this value and every value inside it, in document
    /// order (the members of an object as `JSON.parse` keeps them).
    pub fn walk(&self, pointer: &mut String, visit: &mut dyn FnMut(&str, &Json)) {
        visit(pointer, self);
        let len = pointer.len();
        match self {
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let _ = write!(pointer, "/{i}");
                    item.walk(pointer, visit);
                    pointer.truncate(len);
                }
            }
            Json::Object(members) => {
                for (key, value) in members {
                    pointer.push('/');
                    pointer.push_str(&escape_pointer(key));
                    value.walk(pointer, visit);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
}

/// The text without a leading UTF-8 byte order mark (files from Windows shells carry one;
/// the reference strips it on every read).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A line break and two spaces per level; nothing when compact (`depth` is `None`).
fn indent(out: &mut String, depth: Option<usize>) {
    if let Some(depth) = depth {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    }
}

fn write_pretty(out: &mut String, value: &Json, depth: Option<usize>) {
    let inner = depth.map(|d| d + 1);
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(n) => out.push_str(&js_number(n)),
        Json::Str(s) => write_js_string(out, s),
        Json::Array(items) if items.is_empty() => out.push_str("[]"),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, inner);
                write_pretty(out, item, inner);
            }
            indent(out, depth);
            out.push(']');
        }
        Json::Object(members) if members.is_empty() => out.push_str("{}"),
        Json::Object(members) => {
            out.push('{');
            let mut first = true;
            for (i, (key, _)) in members.iter().enumerate() {
                // JSON.parse keeps a repeated key at its first position with its last value.
                if members[..i].iter().any(|(k, _)| k == key) {
                    continue;
                }
                if !first {
                    out.push(',');
                }
                first = false;
                indent(out, inner);
                write_js_string(out, key);
                out.push_str(if depth.is_some() { ": " } else { ":" });
                let last = value_of_last(members, key);
                write_pretty(out, last, inner);
            }
            indent(out, depth);
            out.push('}');
        }
    }
}

fn value_of_last<'a>(members: &'a [(String, Json)], key: &str) -> &'a Json {
    members
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .expect("the key is a member")
}

/// A string as `JSON.stringify` writes it: only `"`, `\` and C0 controls are escaped.
fn write_js_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A number as JavaScript prints it (`Number.prototype.toString`): JSON.parse reads every
/// number as a double, so an integer beyond 2^53 comes back rounded, and `1.0` comes back `1`.
fn js_number(n: &serde_json::Number) -> String {
    const EXACT: u64 = 1 << 53;
    if let Some(u) = n.as_u64().filter(|u| *u <= EXACT) {
        return u.to_string();
    }
    if let Some(i) = n.as_i64().filter(|i| i.unsigned_abs() <= EXACT) {
        return i.to_string();
    }
    js_double(n.as_f64().unwrap_or(0.0))
}

fn js_double(f: f64) -> String {
    if f == 0.0 {
        return "0".to_owned();
    }
    // Rust's `{:e}` gives the shortest digits that round-trip, as JavaScript uses.
    let sci = format!("{:e}", f.abs());
    let (mantissa, exponent) = sci.split_once('e').expect("`{:e}` has an exponent");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    let k = digits.len() as i32;
    let n = exponent + 1; // the decimal point sits after `n` digits
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let sign = if n - 1 < 0 { '-' } else { '+' };
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!("{}{rest}e{sign}{}", &digits[..1], (n - 1).abs())
    };
    if f < 0.0 {
        format!("-{body}")
    } else {
        body
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Json>()? {
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::Str(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => serialize_members(members, serializer),
        }
    }
}

/// The members as `JSON.parse` keeps them: each key once, at its first place, with its last
/// value. A small object is searched in place (no allocation); a large one through an index of
/// each key's first and last place, so that a wide object costs linear time, not quadratic.
fn each_key_once(members: &[(String, Json)]) -> impl Iterator<Item = (&str, &Json)> {
    const SEARCHED: usize = 16;
    let places: Option<HashMap<&str, (usize, usize)>> = (members.len() > SEARCHED).then(|| {
        let mut places = HashMap::with_capacity(members.len());
        for (i, (key, _)) in members.iter().enumerate() {
            places.entry(key.as_str()).or_insert((i, i)).1 = i;
        }
        places
    });
    members
        .iter()
        .enumerate()
        .filter_map(move |(i, (key, _))| match &places {
            None => (!members[..i].iter().any(|(k, _)| k == key))
                .then(|| (key.as_str(), value_of_last(members, key))),
            Some(places) => {
                let (first, last) = places[key.as_str()];
                (first == i).then(|| (key.as_str(), &members[last].1))
            }
        })
}

/// The members as one map, each key once (its first place, its last value).
fn serialize_members<S: Serializer>(
    members: &[(String, Json)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(None)?;
    for (key, value) in each_key_once(members) {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// Reading a [`Json`] tree as any `Deserialize` type, without writing it out as text and parsing
/// that: `T::deserialize(&json)` reads what `serde_json::from_str(&serde_json::to_string(&json))`
/// reads. A number comes to the visitor as serde_json holds it (`u64`, else `i64`, else `f64`);
/// an object as its members each key once, at its first place with its last value (what the
/// serializer writes, so a repeated key is never a `duplicate field`); an enum from a string
/// (a unit variant) or from an object of one member (`{"variant": value}`), as serde_json reads
/// one.
impl<'de> Deserializer<'de> for &'de Json {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Number(n) => {
                if let Some(u) = n.as_u64() {
                    visitor.visit_u64(u)
                } else if let Some(i) = n.as_i64() {
                    visitor.visit_i64(i)
                } else {
                    visitor.visit_f64(n.as_f64().unwrap_or_default())
                }
            }
            Json::Str(s) => visitor.visit_borrowed_str(s),
            Json::Array(items) => {
                let mut seq = de::value::SeqDeserializer::new(items.iter());
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Json::Object(members) => {
                let mut map = members_deserializer(members);
                let value = visitor.visit_map(&mut map)?;
                map.end()?;
                Ok(value)
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Json::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self {
            Json::Str(s) => visitor.visit_enum(de::value::BorrowedStrDeserializer::new(s)),
            Json::Object(members) if each_key_once(members).count() == 1 => visitor.visit_enum(
                de::value::MapAccessDeserializer::new(members_deserializer(members)),
            ),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self {
            Json::Str(s) => visitor.visit_borrowed_bytes(s.as_bytes()),
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

impl<'de> de::IntoDeserializer<'de, de::value::Error> for &'de Json {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

/// An object's members as a serde map: each key once, its last value.
fn members_deserializer<'de>(
    members: &'de [(String, Json)],
) -> de::value::MapDeserializer<
    'de,
    impl Iterator<
        Item = (
            de::value::BorrowedStrDeserializer<'de, de::value::Error>,
            &'de Json,
        ),
    >,
    de::value::Error,
> {
    de::value::MapDeserializer::new(
        each_key_once(members)
            .map(|(key, value)| (de::value::BorrowedStrDeserializer::new(key), value)),
    )
}

impl Json {
    /// What the value is, for a type error.
    fn unexpected(&self) -> de::Unexpected<'_> {
        match self {
            Json::Null => de::Unexpected::Unit,
            Json::Bool(b) => de::Unexpected::Bool(*b),
            Json::Number(n) => match (n.as_u64(), n.as_i64()) {
                (Some(u), _) => de::Unexpected::Unsigned(u),
                (None, Some(i)) => de::Unexpected::Signed(i),
                (None, None) => de::Unexpected::Float(n.as_f64().unwrap_or_default()),
            },
            Json::Str(s) => de::Unexpected::Str(s),
            Json::Array(_) => de::Unexpected::Seq,
            Json::Object(_) => de::Unexpected::Map,
        }
    }
}

/// Reads an optional `any` member: present, it is `Some` whatever it holds, `null` included
/// (serde's own `Option` reads `null` as absent). Use with `#[serde(default)]`.
///
/// # Errors
///
/// The deserializer's, when the input is not JSON.
pub fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Json>, D::Error> {
    Json::deserialize(deserializer).map(Some)
}

/// The members of an open object that its table does not list, in document order, values
/// verbatim. Generated code reads them with `#[serde(flatten)]`, so the listed members are
/// typed and checked and everything else is written back unchanged, in its original order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenMembers(pub Vec<(String, Json)>);

impl OpenMembers {
    /// The member `key`, if the object carries it (the last one, as `JSON.parse` keeps it).
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for OpenMembers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_members(&self.0, serializer)
    }
}

impl<'de> Deserialize<'de> for OpenMembers {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OpenMembers, D::Error> {
        match deserializer.deserialize_map(JsonVisitor)? {
            Json::Object(members) => Ok(OpenMembers(members)),
            _ => Err(de::Error::custom("expected an object's members")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_json_stringify_writes() {
        let text = r#"{"b":[1,2.5,{}],"a":{"x":[],"y":"q\"\\\n\u0001é"},"n":1e21,"m":1.0,"s":1e-7,"t":0.000001}"#;
        let written = Json::parse(text).unwrap().to_js_pretty();
        // The exact output of `JSON.stringify(JSON.parse(text), null, 2)` in Node 20.
        let node = "{\n  \"b\": [\n    1,\n    2.5,\n    {}\n  ],\n  \"a\": {\n    \"x\": [],\n    \"y\": \"q\\\"\\\\\\n\\u0001é\"\n  },\n  \"n\": 1e+21,\n  \"m\": 1,\n  \"s\": 1e-7,\n  \"t\": 0.000001\n}";
        assert_eq!(written, node);
    }

    #[test]
    fn numbers_are_read_as_json_parse_reads_them_correctly_rounded() {
        // Found by fuzzing the flat reader: serde_json's default float parsing may be one
        // unit in the last place off for long inputs, so a pack's number read back from its
        // own written form came out different. The expected text is Node 20's
        // `JSON.stringify(JSON.parse(text))`.
        let text = "[2222222200000000000000000000000000000000000000000000000000000000000000000000000000008198552921648689607, 0.30000000000000004441, 1.7976931348623157e308, 9007199254740993, 2.4703282292062328e-324]";
        let json = Json::parse(text).unwrap();
        let node =
            "[2.2222222e+102,0.30000000000000004,1.7976931348623157e+308,9007199254740992,5e-324]";
        assert_eq!(json.to_js_compact(), node);
        assert_eq!(Json::parse(node).unwrap().to_js_compact(), node);
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_last_value() {
        let json = Json::parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(json.to_js_pretty(), "{\n  \"a\": 3,\n  \"b\": 2\n}");
        assert_eq!(json.duplicate_keys(), vec!["/a".to_owned()]);
        assert_eq!(json.get("a"), Some(&Json::Number(3.into())));
    }

    /// What `lenient::typed` read before this deserializer: the value written out as text by
    /// serde_json and parsed back.
    fn through_text<T: serde::de::DeserializeOwned>(json: &Json) -> Option<T> {
        serde_json::from_str(&serde_json::to_string(json).unwrap()).ok()
    }

    fn direct<'de, T: Deserialize<'de>>(json: &'de Json) -> Option<T> {
        T::deserialize(json).ok()
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Pair {
        a: u64,
        #[serde(default)]
        b: Option<String>,
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    enum Shape {
        #[serde(rename = "dot")]
        Dot,
        Line(f64),
        Box {
            w: i64,
        },
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Id(String);

    #[test]
    fn a_tree_reads_as_its_text_reads() {
        let texts = [
            "null",
            "true",
            "false",
            "0",
            "18446744073709551615",
            "-9223372036854775808",
            "-1",
            "1.0",
            "-0.0",
            "2.5e-7",
            "1e21",
            "123456789012345678901234567890",
            r#""x\"y\u00e9""#,
            "[]",
            "{}",
            r#"[1,[2,[{"a":[null,{"b":"c"}]}]],-3,4.5,"s"]"#,
            r#"{"z":1,"a":{"y":[true,false],"x":{}},"m":-2}"#,
        ];
        for text in texts {
            let json = Json::parse(text).unwrap();
            let value: Option<serde_json::Value> = direct(&json);
            assert!(value.is_some(), "{text}");
            assert_eq!(value, through_text(&json), "{text}");
            assert_eq!(direct::<Json>(&json), Some(json.clone()), "{text}");
        }
        let number = |text: &str| Json::parse(text).unwrap();
        assert_eq!(
            direct::<u64>(&number("18446744073709551615")),
            Some(u64::MAX)
        );
        assert_eq!(direct::<i64>(&number("-5")), Some(-5));
        assert_eq!(direct::<f64>(&number("7")), Some(7.0));
        assert_eq!(
            direct::<u64>(&number("1.0")),
            None,
            "a float is not an integer"
        );
        assert_eq!(through_text::<u64>(&number("1.0")), None);
        assert_eq!(direct::<i8>(&number("300")), None);
    }

    #[test]
    fn a_repeated_key_reads_once_with_its_last_value() {
        // `serde_json::to_string` writes the key once, so a struct read through text never
        // sees a `duplicate field`; read directly it must not either.
        let json = Json::parse(r#"{"a":1,"b":"x","a":3}"#).unwrap();
        assert_eq!(serde_json::to_string(&json).unwrap(), r#"{"a":3,"b":"x"}"#);
        let pair = Pair {
            a: 3,
            b: Some("x".into()),
        };
        assert_eq!(direct::<Pair>(&json), Some(pair));
        assert_eq!(direct::<Pair>(&json), through_text::<Pair>(&json));
        let value: serde_json::Value = direct(&json).unwrap();
        assert_eq!(value.to_string(), r#"{"a":3,"b":"x"}"#);
        let shape = Json::parse(r#"{"Line":1,"Line":2}"#).unwrap();
        assert_eq!(direct::<Shape>(&shape), Some(Shape::Line(2.0)));
        assert_eq!(direct::<Shape>(&shape), through_text::<Shape>(&shape));
    }

    #[test]
    fn a_wide_object_keeps_each_key_once_as_a_narrow_one_does() {
        let mut text = String::from("{");
        for i in 0..40 {
            text.push_str(&format!("\"k{}\":{i},", i % 25));
        }
        text.push_str("\"a\":1}");
        let json = Json::parse(&text).unwrap();
        let written = serde_json::to_string(&json).unwrap();
        let mut expected = String::from("{");
        for k in 0..25 {
            let last = if k < 15 { k + 25 } else { k };
            expected.push_str(&format!("\"k{k}\":{last},"));
        }
        expected.push_str("\"a\":1}");
        assert_eq!(written, expected);
        let value: serde_json::Value = direct(&json).unwrap();
        assert_eq!(Some(value), through_text(&json));
    }

    #[test]
    fn options_structs_enums_and_newtypes_read_as_serde_json_reads_them() {
        let cases: Vec<(&str, Option<Pair>)> = vec![
            (r#"{"a":1}"#, Some(Pair { a: 1, b: None })),
            (r#"{"a":1,"b":null}"#, Some(Pair { a: 1, b: None })),
            (
                r#"{"a":1,"b":"s","extra":[1]}"#,
                Some(Pair {
                    a: 1,
                    b: Some("s".into()),
                }),
            ),
            (
                r#"[2,"t"]"#,
                Some(Pair {
                    a: 2,
                    b: Some("t".into()),
                }),
            ),
            (r#"{"b":"s"}"#, None),
            (r#"{"a":"1"}"#, None),
            (r#"{"a":1,"b":2}"#, None),
            (r#"[1,"t",3]"#, None),
            ("7", None),
        ];
        for (text, expected) in cases {
            let json = Json::parse(text).unwrap();
            assert_eq!(direct::<Pair>(&json), expected, "{text}");
            assert_eq!(through_text::<Pair>(&json), expected, "{text}");
        }
        let shapes: Vec<(&str, Option<Shape>)> = vec![
            (r#""dot""#, Some(Shape::Dot)),
            (r#"{"Line":0.5}"#, Some(Shape::Line(0.5))),
            (r#"{"Box":{"w":-1}}"#, Some(Shape::Box { w: -1 })),
            (r#""Dot""#, None),
            (r#"{"Line":1,"Box":{"w":1}}"#, None),
            (r#"{}"#, None),
            ("1", None),
        ];
        for (text, expected) in shapes {
            let json = Json::parse(text).unwrap();
            assert_eq!(direct::<Shape>(&json), expected, "{text}");
            assert_eq!(through_text::<Shape>(&json), expected, "{text}");
        }
        let null = Json::Null;
        assert_eq!(direct::<Option<u64>>(&null), Some(None));
        assert_eq!(
            direct::<Option<u64>>(&Json::Number(4.into())),
            Some(Some(4))
        );
        assert_eq!(direct::<()>(&null), Some(()));
        assert_eq!(direct::<Id>(&Json::Str("i".into())), Some(Id("i".into())));
        assert_eq!(direct::<char>(&Json::Str("é".into())), Some('é'));
        // A string is borrowed from the tree, not copied.
        let text = Json::Str("kept".into());
        let borrowed: &str = direct(&text).unwrap();
        assert!(std::ptr::eq(borrowed, text.as_str().unwrap()));
    }

    #[test]
    fn strings_and_truthiness_follow_javascript() {
        assert_eq!(Json::js_string(None), "undefined");
        assert_eq!(
            Json::js_string(Some(&Json::parse("[1,null,\"x\"]").unwrap())),
            "1,,x"
        );
        assert!(!Json::truthy(Some(&Json::Str(String::new()))));
        assert!(!Json::truthy(Some(&Json::parse("0").unwrap())));
        assert!(Json::truthy(Some(&Json::parse("[]").unwrap())));
        assert_eq!(
            js_number(&serde_json::Number::from(9_007_199_254_740_993u64)),
            "9007199254740992"
        );
    }
}
