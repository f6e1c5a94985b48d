//! The fast reader of the first, plain parse: a JSON [`Deserializer`] over a `&str` that
//! accepts exactly what `serde_json` under [`Strict`](crate::strict::Strict) accepts, and
//! gives each visitor what `serde_json` would give it, in fewer instructions.
//!
//! Where `serde_json` spends a verdict's instructions (issue 51's callgrind split): finding
//! each string's end (a byte-at-a-time test of eight bytes at once), peeking and skipping
//! between tokens, and the [`Strict`](crate::strict::Strict) adaptor's wrapping of every
//! call. This reader finds a string's end with `memchr` (vector instructions) and reads
//! structs from maps only by itself, with no adaptor.
//!
//! **Where it is not sure, `serde_json` answers.** It reads the common shapes itself (strings
//! without escapes, integers that fit, `true`, `false`, `null`, arrays, objects) and hands
//! every other token to `serde_json` itself (a string with an escape, a number with a
//! fraction or an exponent, an integer that does not fit): `serde_json` reads that token alone
//! and visits the visitor, so the value is the one `serde_json` gives. What it does not read at
//! all (bytes, 128-bit integers, map keys read as numbers, a nesting as deep as `serde_json`'s
//! limit) is [`ask`]: the caller ([`parse_strict`](super::parse_strict)) parses the text again
//! with `serde_json` and takes that answer. A refusal ([`refused`]) is final: the grammar here
//! is JSON's (RFC 8259) as `serde_json` reads it, a token of the wrong type is refused as
//! `serde_json` through `Strict` refuses it, and a visitor's refusal follows the same visits.
//! Debug builds (every test) parse each text with `serde_json` too and assert the same
//! verdict, both ways.
//!
//! `serde_json` built with `arbitrary_precision` (a dependent's build can turn it on)
//! visits numbers differently under `deserialize_any`; the reader is then not used
//! ([`usable`]).

use std::sync::OnceLock;

use serde::de::value::BorrowedStrDeserializer;

use crate::json_size::{escaped_in_word, smallest};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

type Error = serde_json::Error;
type Result<T> = std::result::Result<T, Error>;
type JsonDe<'de> = serde_json::Deserializer<serde_json::de::StrRead<'de>>;

/// `serde_json`'s nesting limit (`remaining_depth` starts at 128 and an array or object
/// that takes it to 0 is refused).
const DEPTH: u8 = 128;

/// The name `serde_json`'s `RawValue` asks a deserializer for.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// Whether the reader may stand in for `serde_json`: not when `serde_json` reads numbers
/// as its arbitrary-precision `Number` (`1.50` kept as written).
pub(super) fn usable() -> bool {
    static USABLE: OnceLock<bool> = OnceLock::new();
    *USABLE.get_or_init(|| {
        serde_json::from_str::<serde_json::Value>("1.50")
            .and_then(|value| serde_json::to_string(&value))
            .is_ok_and(|text| text == "1.5")
    })
}

/// Reads `text` as one value of `seed`, then only JSON whitespace. An `Err` that is
/// [`deferred`] means "ask `serde_json`"; any other is a refusal (see the module
/// documentation).
pub(super) fn read<'de, S: DeserializeSeed<'de>>(text: &'de str, seed: S) -> Result<S::Value> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: DEPTH,
    };
    let value = seed.deserialize(&mut reader)?;
    reader.skip_ws();
    if reader.pos == reader.bytes.len() {
        Ok(value)
    } else {
        Err(refused())
    }
}

/// "Ask `serde_json`": what this reader does not read itself (a nesting as deep as
/// `serde_json`'s limit, bytes, 128-bit integers, a map key read as a number). An I/O error,
/// so [`deferred`] tells it from a refusal.
fn ask() -> Error {
    Error::io(std::io::Error::other(
        "the fast reader defers to serde_json",
    ))
}

/// A refusal `serde_json` makes too: the text breaks JSON's grammar (RFC 8259: a token, a
/// separator, a control character in a string, a number's form, text after the value), or a
/// token is not of the type asked for (a string where a number is read, an array where a
/// struct is: what `Strict` refuses).
fn refused() -> Error {
    de::Error::custom("refused by the fast reader")
}

/// Whether `err` (from [`read`]) leaves the answer to `serde_json` ([`ask`]) rather than
/// refusing: a refusal by this reader, by a visitor it drove (whose visits are
/// `serde_json`'s) or by `serde_json` reading one token is final.
pub(super) fn deferred(err: &Error) -> bool {
    err.is_io()
}

struct Reader<'de> {
    text: &'de str,
    bytes: &'de [u8],
    pos: usize,
    depth: u8,
}

impl<'de> Reader<'de> {
    #[inline]
    fn skip_ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
                break;
            }
            self.pos += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Result<u8> {
        self.skip_ws();
        self.bytes.get(self.pos).copied().ok_or_else(refused)
    }

    #[inline]
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(refused())
        }
    }

    /// Enters an array or object: `serde_json`'s recursion check.
    #[inline]
    fn descend(&mut self) -> Result<()> {
        self.depth -= 1;
        if self.depth == 0 {
            return Err(ask());
        }
        self.pos += 1;
        Ok(())
    }

    /// Leaves an array or object: only whitespace, then `close`.
    #[inline]
    fn ascend(&mut self, close: u8) -> Result<()> {
        self.depth += 1;
        if self.peek()? == close {
            self.pos += 1;
            Ok(())
        } else {
            Err(refused())
        }
    }

    /// The string whose opening quote is at `self.pos`: `Some(text)` (without the quotes)
    /// when it holds no escape, consumed; `None` when it holds one, not consumed (the
    /// caller hands the token to `serde_json`, see [`Reader::escaped_end`]).
    #[inline]
    fn plain_string(&mut self) -> Result<Option<&'de str>> {
        let start = self.pos + 1;
        let end = special_byte(self.bytes, start).ok_or_else(refused)?;
        match self.bytes[end] {
            b'"' => {
                self.pos = end + 1;
                // The quotes are ASCII, so both ends are char boundaries of the `str`.
                Ok(Some(&self.text[start..end]))
            }
            b'\\' => Ok(None),
            // A control character inside a string is refused (RFC 8259 §7).
            _ => Err(refused()),
        }
    }

    /// The end (one past the closing quote) of the string at `self.pos` that holds an
    /// escape: every `\` skips the byte after it. What lies between is checked by
    /// `serde_json`, which reads the token.
    fn escaped_end(&self) -> Result<usize> {
        let mut at = self.pos + 1;
        loop {
            match *self.bytes.get(at).ok_or_else(refused)? {
                b'"' => return Ok(at + 1),
                b'\\' => at += 2,
                _ => at += 1,
            }
        }
    }

    /// The end of the number token at `self.pos` by JSON's grammar, and the value when it
    /// is an integer `serde_json` reads as a `u64` (positive) or an `i64` (negative, not
    /// `-0`) without overflow; `None` for every other number (a fraction, an exponent, `-0`,
    /// 19 digits or more), which `serde_json` reads.
    #[inline]
    fn number(&self) -> Result<(usize, Option<Integer>)> {
        let bytes = self.bytes;
        let mut at = self.pos;
        let negative = bytes[at] == b'-';
        if negative {
            at += 1;
        }
        let digits = at;
        match bytes.get(at) {
            Some(b'0') => at += 1,
            Some(b'1'..=b'9') => {
                while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                    at += 1;
                }
            }
            _ => return Err(refused()),
        }
        let integer_end = at;
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            let fraction = at;
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            if at == fraction {
                return Err(refused());
            }
        }
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            at += 1;
            if matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            let exponent = at;
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            if at == exponent {
                return Err(refused());
            }
        }
        // A leading `0` followed by a digit is not a number (serde_json refuses it too).
        if bytes.get(integer_end).is_some_and(u8::is_ascii_digit) {
            return Err(refused());
        }
        let len = integer_end - digits;
        if at != integer_end || len >= 19 {
            return Ok((at, None));
        }
        let magnitude = bytes[digits..integer_end]
            .iter()
            .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
        Ok((
            at,
            match (negative, magnitude) {
                (false, n) => Some(Integer::Unsigned(n)),
                (true, 0) => None,
                // Under 19 digits, the magnitude fits an `i64`.
                (true, n) => Some(Integer::Negative(-(n as i64))),
            },
        ))
    }

    /// The number at `self.pos` visited as `serde_json` visits it: an integer that fits
    /// here, any other number by `serde_json`'s `Deserializer` method `read` (the one the
    /// reader was asked for).
    #[inline]
    fn visit_number<V: Visitor<'de>>(
        &mut self,
        visitor: V,
        read: impl FnOnce(&mut JsonDe<'de>, V) -> Result<V::Value>,
    ) -> Result<V::Value> {
        let (end, integer) = self.number()?;
        let start = self.pos;
        self.pos = end;
        match integer {
            Some(Integer::Unsigned(n)) => visitor.visit_u64(n),
            Some(Integer::Negative(n)) => visitor.visit_i64(n),
            None => by_serde_json(&self.text[start..end], |de| read(de, visitor)),
        }
    }

    /// The string at `self.pos` visited as `serde_json` visits it.
    #[inline]
    fn visit_string<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        match self.plain_string()? {
            Some(text) => visitor.visit_borrowed_str(text),
            None => {
                let (start, end) = (self.pos, self.escaped_end()?);
                self.pos = end;
                by_serde_json(&self.text[start..end], |de| de.deserialize_str(visitor))
            }
        }
    }

    fn visit_seq<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.descend()?;
        let value = visitor.visit_seq(Items {
            reader: self,
            first: true,
        })?;
        self.ascend(b']')?;
        Ok(value)
    }

    fn visit_map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.descend()?;
        let value = visitor.visit_map(Members {
            reader: self,
            first: true,
        })?;
        self.ascend(b'}')?;
        Ok(value)
    }
}

/// The first byte at or after `from` that ends or interrupts a string's plain text: `"`,
/// `\\` or a control character. The first sixteen bytes (where keys and codes end) eight
/// at a time in a register ([`escaped_in_word`]); the rest by [`special_byte_far`].
#[inline]
fn special_byte(bytes: &[u8], from: usize) -> Option<usize> {
    for at in [from, from + 8] {
        let Some(word) = bytes.get(at..at + 8) else {
            return special_byte_far(bytes, at);
        };
        let found = escaped_in_word(u64::from_le_bytes(word.try_into().ok()?));
        if found != 0 {
            return Some(at + found.trailing_zeros() as usize / 8);
        }
    }
    special_byte_far(bytes, from + 16)
}

/// [`special_byte`] past the first sixteen bytes, or near the end of the text: `memchr`
/// finds the next `"` or `\\` with vector instructions, and the smallest byte before it
/// (vector `min`s) says whether a control character comes first.
#[inline(never)]
fn special_byte_far(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    let end = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
    if smallest(&rest[..end]) >= 0x20 {
        return (end < rest.len()).then_some(from + end);
    }
    rest.iter().position(|&b| b < 0x20).map(|at| from + at)
}

impl Reader<'_> {
    /// Skips the value after whitespace (`serde_json`'s `ignore_value`).
    fn skip_value(&mut self) -> Result<()> {
        match self.peek()? {
            b'"' => match self.plain_string()? {
                Some(_) => Ok(()),
                None => Err(ask()),
            },
            b'-' | b'0'..=b'9' => {
                self.pos = self.number()?.0;
                Ok(())
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            open @ (b'[' | b'{') => {
                // serde_json skips with no nesting limit: as deep as its limit is its to say.
                self.descend().map_err(|_| ask())?;
                let close = if open == b'[' { b']' } else { b'}' };
                if self.peek()? != close {
                    loop {
                        if open == b'{' {
                            if self.peek()? != b'"' {
                                return Err(refused());
                            }
                            self.skip_value()?;
                            if self.peek()? != b':' {
                                return Err(refused());
                            }
                            self.pos += 1;
                        }
                        self.skip_value()?;
                        match self.peek()? {
                            b',' => self.pos += 1,
                            next if next == close => break,
                            _ => return Err(refused()),
                        }
                    }
                }
                self.ascend(close)
            }
            _ => Err(refused()),
        }
    }
}

enum Integer {
    Unsigned(u64),
    Negative(i64),
}

/// One token read by `serde_json` alone, `read` calling the `Deserializer` method the
/// reader was asked for; the whole token must be read.
fn by_serde_json<'de, T>(
    token: &'de str,
    read: impl FnOnce(&mut JsonDe<'de>) -> Result<T>,
) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(token);
    let value = read(&mut de)?;
    de.end()?;
    Ok(value)
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.peek()? {
                b'-' | b'0'..=b'9' => self.visit_number(visitor, |de, v| de.$method(v)),
                _ => Err(refused()),
            }
        }
    )*};
}

macro_rules! ask_serde_json {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
            Err(ask())
        }
    )*};
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'"' => self.visit_string(visitor),
            b'{' => self.visit_map(visitor),
            b'[' => self.visit_seq(visitor),
            b'-' | b'0'..=b'9' => self.visit_number(visitor, |de, v| de.deserialize_any(v)),
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            _ => Err(refused()),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b't' | b'f' => self.deserialize_any(visitor),
            _ => Err(refused()),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    ask_serde_json! {
        deserialize_i128 deserialize_u128 deserialize_char deserialize_bytes deserialize_byte_buf
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'"' => self.visit_string(visitor),
            _ => Err(refused()),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? == b'n' {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'n' => self.deserialize_any(visitor),
            _ => Err(refused()),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            // serde_json's raw value: the value's text, whitespace before it left out, as
            // a one-member map whose key is the token (what `RawValue` reads).
            self.skip_ws();
            let start = self.pos;
            self.skip_value()?;
            let raw = &self.text[start..self.pos];
            return visitor.visit_map(RawValueMap { raw: Some(raw) });
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'[' => self.visit_seq(visitor),
            _ => Err(refused()),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.peek()? {
            b'{' => self.visit_map(visitor),
            _ => Err(refused()),
        }
    }

    /// A struct is read from an object only (what `Strict` makes of `serde_json`).
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.peek()? {
            b'"' => visitor.visit_enum(UnitVariant { reader: self }),
            b'{' => {
                self.descend()?;
                let value = visitor.visit_enum(Variant { reader: self })?;
                self.ascend(b'}')?;
                Ok(value)
            }
            _ => Err(refused()),
        }
    }

    /// The value skipped as `serde_json` skips it: its grammar checked, numbers not read
    /// (`1e400` is skipped), an escape not decoded (a string with one is `serde_json`'s).
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

/// The elements of an array (`serde_json`'s `SeqAccess`).
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let next = self.reader.peek()?;
        if next == b']' {
            return Ok(None);
        }
        if !std::mem::take(&mut self.first) {
            if next != b',' {
                return Err(refused());
            }
            self.reader.pos += 1;
            // A comma before the bracket (a trailing comma) is refused: the element's
            // read sees `]`, which no value starts with.
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

/// The members of an object (`serde_json`'s `MapAccess`).
struct Members<'a, 'de> {
    reader: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Members<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let mut next = self.reader.peek()?;
        if next == b'}' {
            return Ok(None);
        }
        if !std::mem::take(&mut self.first) {
            if next != b',' {
                return Err(refused());
            }
            self.reader.pos += 1;
            next = self.reader.peek()?;
        }
        if next != b'"' {
            return Err(refused());
        }
        seed.deserialize(Key {
            reader: &mut *self.reader,
        })
        .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        if self.reader.peek()? != b':' {
            return Err(refused());
        }
        self.reader.pos += 1;
        seed.deserialize(&mut *self.reader)
    }
}

/// A member's key (a string at `reader.pos`): read as text, or as what `serde_json`'s
/// key deserializer makes of a few hints; every other hint (a number or a bool read from
/// the key's text) asks `serde_json`.
struct Key<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> Deserializer<'de> for Key<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.reader.visit_string(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == RAW_VALUE_TOKEN {
            return Err(ask());
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_enum(UnitVariant {
            reader: self.reader,
        })
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    ask_serde_json! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char deserialize_bytes
        deserialize_byte_buf deserialize_unit deserialize_seq deserialize_map
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(ask())
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(ask())
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(ask())
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(ask())
    }
}

/// An enum given as a string: a unit variant (`serde_json`'s `UnitVariantAccess`).
struct UnitVariant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> de::EnumAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let variant = seed.deserialize(&mut *self.reader)?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, _seed: T) -> Result<T::Value> {
        Err(refused())
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(refused())
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(refused())
    }
}

/// An enum given as a one-member object (`serde_json`'s `VariantAccess`).
struct Variant<'a, 'de> {
    reader: &'a mut Reader<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let variant = seed.deserialize(&mut *self.reader)?;
        if self.reader.peek()? != b':' {
            return Err(refused());
        }
        self.reader.pos += 1;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self.reader)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self.reader)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.reader.deserialize_seq(visitor)
    }

    /// A struct variant is read from an object only (`Strict`).
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.reader.deserialize_map(visitor)
    }
}

/// `serde_json`'s raw value handed to `RawValue`'s visitor: one member, the token as its
/// key, the value's text as its value.
struct RawValueMap<'de> {
    raw: Option<&'de str>,
}

impl<'de> MapAccess<'de> for RawValueMap<'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.raw.is_none() {
            return Ok(None);
        }
        seed.deserialize(BorrowedStrDeserializer::new(RAW_VALUE_TOKEN))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let raw = self.raw.take().ok_or_else(ask)?;
        seed.deserialize(BorrowedStrDeserializer::new(raw))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::marker::PhantomData;

    use serde::Deserialize;
    use serde_json::Value;

    use super::super::json_parse_strict;
    use super::{deferred, read};
    use crate::test_rng::Rng;

    /// A typed document as the generated types are: structs (objects only), an optional
    /// member, an enum given as a string or an object, numbers of several widths, a free
    /// map and a raw decimal text.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        id: String,
        #[serde(default)]
        n: Option<u32>,
        #[serde(default)]
        i: Option<i64>,
        #[serde(default)]
        f: Option<f64>,
        #[serde(default)]
        items: Vec<Item>,
        #[serde(default)]
        kind: Option<Kind>,
        #[serde(default)]
        free: Option<BTreeMap<String, Value>>,
        #[serde(default)]
        flag: Option<bool>,
        #[serde(default)]
        raw: Option<Raw>,
    }

    /// A raw value (what the runtime's `decimal` reads), compared by its text.
    #[derive(Debug, Deserialize)]
    struct Raw(Box<serde_json::value::RawValue>);

    impl PartialEq for Raw {
        fn eq(&self, other: &Self) -> bool {
            self.0.get() == other.0.get()
        }
    }

    /// A struct that ignores the members it does not name (serde skips them as
    /// `deserialize_ignored_any`).
    #[derive(Debug, PartialEq, Deserialize)]
    struct Loose {
        #[serde(default)]
        id: Option<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Item {
        text: String,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    enum Kind {
        #[serde(rename = "a")]
        A,
        #[serde(rename = "b")]
        B(u8),
        #[serde(rename = "c")]
        C { x: u8 },
    }

    /// The reader's contract on one text, for one target type: what it accepts, serde_json
    /// accepts, with the same value; what it refuses (not deferred), serde_json refuses.
    /// Returns whether the reader answered itself.
    fn agrees<T: for<'de> Deserialize<'de> + PartialEq + std::fmt::Debug>(text: &str) -> bool {
        let fast = read(text, PhantomData::<T>);
        let json = json_parse_strict(text, PhantomData::<T>);
        match (fast, json) {
            (Ok(fast), Ok(json)) => {
                assert_eq!(fast, json, "{text:?}");
                true
            }
            (Ok(fast), Err(err)) => panic!("the reader accepted {text:?} as {fast:?}: {err}"),
            (Err(err), Ok(json)) if !deferred(&err) => {
                panic!("the reader refused {text:?} ({err}), serde_json reads {json:?}")
            }
            (Err(err), Err(_)) => !deferred(&err),
            (Err(_), Ok(_)) => false,
        }
    }

    #[test]
    fn every_shape_it_reads_itself_gives_serde_jsons_value() {
        let read_here = [
            r#"{"id": "a"}"#,
            " \t\r\n{\"id\":\"a\"} \n",
            r#"{"id": "é中🙂", "n": 0, "i": -5, "f": 2, "flag": true}"#,
            r#"{"id": "a", "n": 4294967295, "i": -999999999999999999}"#,
            r#"{"id": "a\n\u00e9\ud83d\ude42\"\\\/", "items": [{"text": "x\ty", "tags": []}]}"#,
            r#"{"id": "a", "f": 1.5e3, "i": 1000000000000000000}"#,
            r#"{"id": "a", "f": 100000000000000000000, "i": -1000000000000000000}"#,
            r#"{"id": "a", "f": -0, "kind": "a"}"#,
            r#"{"id": "a", "kind": {"b": 7}}"#,
            r#"{"id": "a", "kind": {"c": {"x": 1}}}"#,
            r#"{"id": "a", "free": {"k\u0041": [1, -2.5, "s", null, true, {"z": []}]}}"#,
            r#"{"id": "a", "raw":  12.50 , "n": null}"#,
            r#"{"id": "a", "raw": {"x": [1, "y"]}}"#,
            r#"{"id": "a", "items": [{"text": "long string past sixteen bytes, with ünïcödé"}]}"#,
        ];
        for text in read_here {
            assert!(
                agrees::<Doc>(text),
                "the reader left {text:?} to serde_json"
            );
            assert!(
                agrees::<Value>(text),
                "the reader left {text:?} to serde_json"
            );
        }
        // Skipped members are not read: a number out of range or a lone surrogate in an
        // escape is skipped as serde_json skips it.
        let skipped = r#"{"id": "a", "x": [1e400, {"k": "\ud800", "m": -0.5e-3}], "y": null}"#;
        assert!(json_parse_strict(skipped, PhantomData::<Loose>).is_ok());
        agrees::<Loose>(skipped);
    }

    #[test]
    fn what_serde_json_refuses_the_reader_refuses() {
        let refused = [
            "",
            " ",
            r#"{"id": "a",}"#,
            r#"{"id": "a"} x"#,
            r#"{"id": "a"}{}"#,
            r#"{"id": "a", "items": [{"text": "x"},]}"#,
            r#"{"id": "a", "items": [,]}"#,
            r#"["a"]"#,
            r#"{"id": "a", "items": [["x"]]}"#,
            r#"{"id": "a", "kind": {"c": [1]}}"#,
            r#"{"id": "a", "kind": {"a": 1}}"#,
            r#"{"id": "a", "kind": "b"}"#,
            r#"{"id": "a", "kind": {"b": 7, "c": 1}}"#,
            r#"{"id": "a", "n": 01}"#,
            r#"{"id": "a", "n": -1}"#,
            r#"{"id": "a", "n": 1.0}"#,
            r#"{"id": "a", "n": 4294967296}"#,
            r#"{"id": "a", "n": "1"}"#,
            r#"{"id": "a", "f": 1.}"#,
            r#"{"id": "a", "f": .5}"#,
            r#"{"id": "a", "f": +1}"#,
            r#"{"id": "a", "f": 1e}"#,
            r#"{"id": "a", "f": -}"#,
            r#"{"id": "a", "i": 9223372036854775808}"#,
            r#"{"id": "a", "flag": tru}"#,
            r#"{"id": "a", "flag": True}"#,
            r#"{"id": "a", "flag": nul}"#,
            "{\"id\": \"a\tb\"}",
            "{\"id\": \"a string longer than sixteen bytes\u{1}\"}",
            r#"{"id": "a\x"}"#,
            r#"{"id": "a\ud800"}"#,
            r#"{"id": "a"#,
            r#"{"id": "a", "id": "b"}"#,
            r#"{"id": "a", "other": 1}"#,
            r#"{"id" "a"}"#,
            r#"{id: "a"}"#,
            "{\"id\": \"a\"}\u{a0}",
            "\u{feff}{\"id\": \"a\"}",
        ];
        for text in refused {
            assert!(
                json_parse_strict(text, PhantomData::<Doc>).is_err(),
                "serde_json accepts {text:?}"
            );
            assert!(agrees::<Doc>(text), "{text:?} left to serde_json");
        }
    }

    #[test]
    fn nesting_stops_where_serde_json_stops() {
        for depth in [126, 127, 128, 129, 400] {
            let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            agrees::<Value>(&text);
            let json = json_parse_strict(&text, PhantomData::<Value>).is_ok();
            assert_eq!(json, depth < 128, "serde_json at depth {depth}");
            assert_eq!(
                read(&text, PhantomData::<Value>).is_ok(),
                json,
                "depth {depth}"
            );
        }
    }

    /// Texts near valid documents, each changed at up to three places by a piece of JSON's
    /// syntax, a digit, a letter, an escape, a control or a non-ASCII character: the reader
    /// never accepts what serde_json refuses, and reads the unchanged documents itself.
    #[test]
    fn mutated_documents_are_never_accepted_beyond_serde_json() {
        let seeds = [
            r#"{"id": "a", "n": 12, "i": -3, "f": 0.5, "flag": false, "kind": "a"}"#,
            r#"{"id": "abcdefghijklmnopqrstuvwxyz", "items": [{"text": "t", "tags": ["u", "v"]}]}"#,
            r#"{"id": "x", "kind": {"c": {"x": 3}}, "free": {"a": [1, {"b": null}]}}"#,
            r#"{"id": "x", "raw": 1.25, "kind": {"b": 2}, "n": null}"#,
        ];
        let pieces = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "\\",
            " ",
            "\n",
            "0",
            "7",
            "-",
            "+",
            ".",
            "e",
            "E",
            "a",
            "t",
            "n",
            "true",
            "null",
            "\\u00e9",
            "\\ud800",
            "\\n",
            "\t",
            "\u{1}",
            "é",
            "中",
            "1e400",
            "18446744073709551616",
            "-0",
            "\"\"",
            "[]",
            "{}",
            "\u{a0}",
        ];
        let mut rng = Rng(0x5eed_2026_1205);
        let (mut cases, mut accepted, mut read_here) = (0, 0, 0);
        for seed in seeds {
            assert!(agrees::<Doc>(seed), "{seed:?}");
            for _ in 0..3000 {
                let mut text = seed.to_owned();
                for _ in 0..=rng.below(3) {
                    let mut at = rng.below(text.len() + 1);
                    while !text.is_char_boundary(at) {
                        at -= 1;
                    }
                    let piece = rng.pick(&pieces);
                    match rng.below(3) {
                        0 => text.insert_str(at, piece),
                        1 => {
                            let mut end = (at + 1 + rng.below(4)).min(text.len());
                            while !text.is_char_boundary(end) {
                                end += 1;
                            }
                            text.replace_range(at..end, piece);
                        }
                        _ => {
                            let mut end = (at + 1).min(text.len());
                            while !text.is_char_boundary(end) {
                                end += 1;
                            }
                            text.replace_range(at..end, "");
                        }
                    }
                }
                cases += 1;
                accepted += usize::from(json_parse_strict(&text, PhantomData::<Doc>).is_ok());
                read_here += usize::from(agrees::<Doc>(&text));
                agrees::<Value>(&text);
                agrees::<Loose>(&text);
            }
        }
        // The mutations reach both sides: some are still documents, most are not.
        assert!(accepted > cases / 50, "{accepted} of {cases} accepted");
        assert!(
            read_here > accepted / 2,
            "{read_here} of {accepted} read here"
        );
    }
}
