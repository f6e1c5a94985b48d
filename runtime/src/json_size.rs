//! The length of `serde_json`'s compact serialization of a value, computed by a
//! [`serde::Serializer`] that writes nothing.
//!
//! [`crate::rules::json_bytes`] calls this; nothing here depends on the rules. It gives the same number as serializing with
//! `serde_json::to_writer` into a byte counter, without `serde_json`'s per-byte escape loop:
//! a string's length is its byte length plus what escaping adds, found with one scan for the
//! bytes JSON escapes. Floats and map keys, where `serde_json`'s exact spelling matters, are
//! measured by `serde_json` itself. Types that use `serde_json`'s private magic struct names
//! (`arbitrary_precision` numbers, `RawValue`) are measured as `serde_json` writes them: their
//! string verbatim when `serde_json` was built with the feature that makes them special (asked
//! of `serde_json` itself), a plain struct otherwise.
//!
//! Nothing else is needed: with no `serde_json` fallback, a type with a byte cap compiles
//! its `Serialize` for [`Size`] only, not a second time for `serde_json`'s serializer.

use core::fmt::{self, Display, Write as _};

use serde::ser::{self, Serialize};

/// Why a value was not measured: its own `Serialize` failed, or a map key `serde_json`
/// refuses.
#[derive(Debug)]
pub(crate) enum SizeError {
    /// Raised by the value's `Serialize` impl, or a map key `serde_json` refuses.
    Custom,
}

impl Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("value not measured")
    }
}

impl std::error::Error for SizeError {}

impl ser::Error for SizeError {
    fn custom<T: Display>(_msg: T) -> Self {
        SizeError::Custom
    }
}

type Result<T = ()> = core::result::Result<T, SizeError>;

/// Compact `serde_json` length of `value`.
pub(crate) fn compact_len<T: Serialize + ?Sized>(value: &T) -> Result<u64> {
    let mut size = Size {
        bytes: 0,
        mode: Mode::Json,
    };
    value.serialize(&mut size)?;
    Ok(size.bytes)
}

/// `serde_json`'s private struct names (`arbitrary_precision` numbers, `RawValue`).
const SERDE_JSON_TOKENS: [&str; 2] = [
    "$serde_json::private::Number",
    "$serde_json::private::RawValue",
];

/// Whether `serde_json`, as built, writes struct `name` as its field's string verbatim
/// (`name` is one of [`SERDE_JSON_TOKENS`] and its feature is on), rather than as an object.
fn serde_json_special(name: &'static str) -> bool {
    struct Probe(&'static str);
    impl Serialize for Probe {
        fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
            use ser::SerializeStruct as _;
            let mut st = s.serialize_struct(self.0, 1)?;
            st.serialize_field(self.0, "0")?;
            st.end()
        }
    }
    SERDE_JSON_TOKENS.contains(&name) && matches!(by_serde_json(&Probe(name)), Ok(1))
}

/// Bytes `serde_json` adds when escaping `b` inside a string (0 for most bytes).
const fn escape_extra(b: u8) -> u8 {
    match b {
        // \b \t \n \f \r
        0x08 | 0x09 | 0x0A | 0x0C | 0x0D => 1,
        // \u00XX
        0x00..=0x1F => 5,
        // \" \\
        b'"' | b'\\' => 1,
        _ => 0,
    }
}

const ESCAPE_EXTRA: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = escape_extra(i as u8);
        i += 1;
    }
    table
};

const ONES: u64 = u64::MAX / 255;
const HIGHS: u64 = ONES << 7;

/// The high bit of each byte of the 8 in `word` (little-endian) that JSON escapes (below
/// 0x20, `"` or `\\`), by the classic SWAR tests: exact for the lowest such byte (a byte
/// above it may be flagged too), so exact as a yes/no answer for the whole word.
#[inline]
pub(crate) fn escaped_in_word(word: u64) -> u64 {
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x;
    let below_0x20 = word.wrapping_sub(ONES * 0x20) & !word;
    (below_0x20
        | zero_in(word ^ (ONES * u64::from(b'"')))
        | zero_in(word ^ (ONES * u64::from(b'\\'))))
        & HIGHS
}

/// The smallest byte of `bytes` (255 for none): one pass of vector `min`s, so
/// `smallest(bytes) < 0x20` finds a control character at a fraction of a byte-by-byte test.
#[inline]
pub(crate) fn smallest(bytes: &[u8]) -> u8 {
    bytes.iter().fold(u8::MAX, |least, &b| least.min(b))
}

/// Whether any byte of `bytes` is one JSON escapes. From 16 bytes on, `memchr` looks for
/// `"` and `\\` and [`smallest`] for a control character, both with vector instructions
/// (measured against one pass testing all three: fewer instructions); 8 to 15 bytes are two
/// overlapping words; shorter ones byte by byte.
fn needs_escape(bytes: &[u8]) -> bool {
    let len = bytes.len();
    if len >= 16 {
        return memchr::memchr2(b'"', b'\\', bytes).is_some() || smallest(bytes) < 0x20;
    }
    if len >= 8 {
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        return escaped_in_word(word(&bytes[..8])) | escaped_in_word(word(&bytes[len - 8..])) != 0;
    }
    bytes.iter().any(|&b| ESCAPE_EXTRA[b as usize] != 0)
}

/// Escaped length of `s` without the quotes.
fn escaped_len(s: &str) -> u64 {
    let bytes = s.as_bytes();
    let mut n = bytes.len() as u64;
    // Most strings need no escaping: one vectorised pass decides.
    if needs_escape(bytes) {
        n += bytes
            .iter()
            .map(|&b| u64::from(ESCAPE_EXTRA[b as usize]))
            .sum::<u64>();
    }
    n
}

fn decimal_len(mut v: u128) -> u64 {
    let mut n = 1;
    while v >= 10 {
        v /= 10;
        n += 1;
    }
    n
}

fn signed_len(v: i128) -> u64 {
    decimal_len(v.unsigned_abs()) + u64::from(v < 0)
}

/// Measures through `serde_json` (floats, map keys), counting its output.
fn by_serde_json<T: Serialize + ?Sized>(value: &T) -> Result<u64> {
    let mut counter = ByteCounter::default();
    serde_json::to_writer(&mut counter, value).map_err(|_| SizeError::Custom)?;
    Ok(counter.bytes)
}

/// An `io::Write` that only counts bytes.
#[derive(Debug, Default)]
struct ByteCounter {
    /// Bytes written so far.
    bytes: u64,
}

impl std::io::Write for ByteCounter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.bytes += buf.len() as u64;
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A map key as `serde_json` writes it: `{KEY:null}` minus the 7 bytes around the key.
struct KeyOnly<'a, K: ?Sized>(&'a K);

impl<K: Serialize + ?Sized> Serialize for KeyOnly<'_, K> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use ser::SerializeMap as _;
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(self.0, &())?;
        map.end()
    }
}

struct Size {
    bytes: u64,
    mode: Mode,
}

/// What [`Size`] is measuring.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// A value, as `serde_json` writes it.
    Json,
    /// The field of a `serde_json` private struct: only a string, written verbatim.
    Raw,
}

impl Size {
    fn str(&mut self, s: &str) {
        self.bytes += 2 + escaped_len(s);
    }

    /// Refuses anything but a plain value where `serde_json` expects only a string.
    fn json(&self) -> Result {
        if self.mode == Mode::Json {
            Ok(())
        } else {
            Err(SizeError::Custom)
        }
    }
}

/// Counts the length of `Display` output, unescaped.
struct RawCounter(u64);

impl fmt::Write for RawCounter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += s.len() as u64;
        Ok(())
    }
}

/// Counts the escaped length of `Display` output without building a string.
struct EscapedCounter(u64);

impl fmt::Write for EscapedCounter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0 += escaped_len(s);
        Ok(())
    }
}

/// Compound state: whether an element was written (a comma goes before every later one).
struct Compound<'a> {
    size: &'a mut Size,
    first: bool,
    /// For a `serde_json` private struct that `serde_json` writes verbatim: its name.
    special: Option<&'static str>,
}

impl Compound<'_> {
    /// Before a struct field's value (kept out of the generic `serialize_field`): `"key":`,
    /// or, in a `serde_json` private struct, switching to its verbatim string.
    fn key(&mut self, key: &'static str) -> Result {
        if let Some(name) = self.special {
            // As `serde_json` does: only the field named like the struct, its string verbatim.
            if key != name {
                return Err(SizeError::Custom);
            }
            self.size.mode = Mode::Raw;
            return Ok(());
        }
        self.comma();
        self.size.str(key);
        self.size.bytes += 1;
        Ok(())
    }

    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.size.bytes += 1;
        }
    }
}

impl<'a> ser::Serializer for &'a mut Size {
    type Ok = ();
    type Error = SizeError;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result {
        self.json()?;
        self.bytes += if v { 4 } else { 5 };
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.json()?;
        self.bytes += signed_len(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.json()?;
        self.bytes += signed_len(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.json()?;
        self.bytes += signed_len(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.json()?;
        self.bytes += signed_len(v.into());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.json()?;
        self.bytes += signed_len(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.json()?;
        self.bytes += decimal_len(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.json()?;
        self.bytes += decimal_len(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.json()?;
        self.bytes += decimal_len(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.json()?;
        self.bytes += decimal_len(v.into());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.json()?;
        self.bytes += decimal_len(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result {
        self.json()?;
        self.bytes += by_serde_json(&v)?;
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result {
        self.json()?;
        self.bytes += by_serde_json(&v)?;
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result {
        self.json()?;
        self.str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        match self.mode {
            Mode::Json => self.str(v),
            Mode::Raw => self.bytes += v.len() as u64,
        }
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        self.json()?;
        // `serde_json` writes bytes as an array of numbers.
        self.bytes += 2 + v.len().saturating_sub(1) as u64;
        self.bytes += v.iter().map(|&b| decimal_len(b.into())).sum::<u64>();
        Ok(())
    }
    fn serialize_none(self) -> Result {
        self.json()?;
        self.bytes += 4;
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        self.json()?;
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.json()?;
        self.bytes += 4;
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.json()?;
        self.bytes += 4;
        Ok(())
    }
    fn serialize_unit_variant(self, _n: &'static str, _i: u32, variant: &'static str) -> Result {
        self.json()?;
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        self.json()?;
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.json()?;
        // {"variant":value}
        self.bytes += 3;
        self.str(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>> {
        self.json()?;
        self.bytes += 2;
        Ok(Compound {
            size: self,
            first: true,
            special: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.json()?;
        // {"variant":[..]}
        self.bytes += 3;
        self.str(variant);
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>> {
        self.json()?;
        self.bytes += 2;
        Ok(Compound {
            size: self,
            first: true,
            special: None,
        })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.json()?;
        if name.starts_with("$serde_json::private::") && serde_json_special(name) {
            return Ok(Compound {
                size: self,
                first: true,
                special: Some(name),
            });
        }
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.json()?;
        // {"variant":{..}}
        self.bytes += 3;
        self.str(variant);
        self.serialize_map(Some(len))
    }
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result {
        match self.mode {
            Mode::Json => {}
            Mode::Raw => {
                let mut counter = RawCounter(0);
                write!(counter, "{value}").map_err(|_| SizeError::Custom)?;
                self.bytes += counter.0;
                return Ok(());
            }
        }
        let mut counter = EscapedCounter(0);
        write!(counter, "{value}").map_err(|_| SizeError::Custom)?;
        self.bytes += 2 + counter.0;
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(&mut *self.size)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.comma();
        // `{KEY:null}` as serde_json writes it, minus `{`, `:null}`; plus our `:`.
        self.size.bytes += by_serde_json(&KeyOnly(key))? - 7 + 1;
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        value.serialize(&mut *self.size)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.key(key)?;
        let result = value.serialize(&mut *self.size);
        self.size.mode = Mode::Json;
        result
    }
    fn end(self) -> Result {
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = SizeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;
    use serde_json::json;

    use super::compact_len;

    fn same<T: Serialize + ?Sized>(value: &T) {
        let expected = serde_json::to_vec(value).map(|v| v.len() as u64).ok();
        let got = compact_len(value).ok();
        assert_eq!(got, expected, "{:?}", serde_json::to_string(value));
    }

    #[derive(Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(i32, String),
        Struct { a: Option<f64>, b: Vec<bool> },
    }

    #[derive(Serialize)]
    struct Unit;

    #[derive(Serialize)]
    struct Newtype(String);

    #[derive(Serialize)]
    #[serde(tag = "kind")]
    enum Tagged {
        A { x: u32 },
        B,
    }

    #[derive(Serialize)]
    struct Skips {
        #[serde(skip_serializing_if = "Option::is_none")]
        a: Option<u8>,
        b: u8,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        c: Vec<u8>,
    }

    struct Fails;
    impl Serialize for Fails {
        fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
            Err(serde::ser::Error::custom("no"))
        }
    }

    #[test]
    fn agrees_with_serde_json() {
        let strings = [
            "",
            "a",
            "\"",
            "\\",
            "\n\t\r\u{8}\u{c}",
            "\u{0}\u{1f}\u{7f}",
            "/",
            "é漢字🦀",
            "a\"b\\c\u{1}d",
            "\u{2028}\u{2029}",
        ];
        for s in strings {
            same(s);
            same(&s.chars().next());
        }
        for v in [0i64, 9, 10, -1, -10, i64::MIN, i64::MAX, 1_000_000] {
            same(&v);
        }
        for v in [0u64, 9, 10, 99, 100, u64::MAX] {
            same(&v);
        }
        same(&u128::MAX);
        same(&i128::MIN);
        for v in [
            0.0f64,
            -0.0,
            1.25,
            1e300,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            0.1 + 0.2,
        ] {
            same(&v);
        }
        same(&1.5f32);
        same(&());
        same(&Unit);
        same(&Newtype("x\"".into()));
        same(&E::Unit);
        same(&E::New(7));
        same(&E::Tuple(-3, "t".into()));
        same(&E::Struct {
            a: Some(2.5),
            b: vec![true, false],
        });
        same(&E::Struct { a: None, b: vec![] });
        same(&Tagged::A { x: 3 });
        same(&Tagged::B);
        same(&Skips {
            a: None,
            b: 1,
            c: vec![],
        });
        same(&Skips {
            a: Some(2),
            b: 1,
            c: vec![1, 2, 3],
        });
        same(&serde_bytes_like());
        same(&(1, "two", [3.0]));
        let mut m = BTreeMap::new();
        m.insert("k\"ey", vec![1]);
        m.insert("", vec![]);
        same(&m);
        let mut ints = BTreeMap::new();
        ints.insert(-12i32, "v");
        ints.insert(7, "w");
        same(&ints);
        let mut bools = BTreeMap::new();
        bools.insert(true, 1);
        same(&bools);
        let mut bad = BTreeMap::new();
        bad.insert(vec![1u8], 1);
        same(&bad);
        same(&Fails);
        same(&vec![Some(Fails)]);
        same(&json!({"a": [1, 2.5, null, true, "x\u{1}"], "b": {"c": {}}, "d": []}));
        same(&format_args!("disp\"lay {}", 5));
    }

    /// The escape scan reads 64-byte blocks, 16-byte chunks, a last overlapping chunk, two
    /// overlapping words or single bytes, by length: put every escaped byte at every
    /// position of every length through 40 and of lengths around 64 and 128 chars, on a
    /// background of ASCII and of multi-byte chars.
    #[test]
    fn escapes_found_at_every_position_and_length() {
        let escaped: Vec<char> = (0u8..0x20).map(char::from).chain(['"', '\\']).collect();
        for background in ['a', 'é', '漢', '🦀', '\u{7f}', '!', '#', '[', ']', '\u{9f}'] {
            for len in (0..40).chain([63, 64, 65, 79, 80, 81, 129]) {
                let base: Vec<char> = vec![background; len];
                same(&base.iter().collect::<String>());
                for pos in 0..len {
                    for &e in &escaped {
                        let mut chars = base.clone();
                        chars[pos] = e;
                        same(&chars.iter().collect::<String>());
                    }
                }
            }
        }
    }

    /// Without `serde_json`'s `arbitrary_precision` / `raw_value` features, a struct that
    /// borrows their private names is an ordinary object to `serde_json`, and here.
    #[test]
    fn serde_json_private_names_follow_serde_json() {
        #[derive(Serialize)]
        #[serde(rename = "$serde_json::private::RawValue")]
        struct Raw {
            #[serde(rename = "$serde_json::private::RawValue")]
            json: &'static str,
        }
        #[derive(Serialize)]
        #[serde(rename = "$serde_json::private::Number")]
        struct Number {
            #[serde(rename = "$serde_json::private::Number")]
            n: String,
            other: u8,
        }
        same(&Raw { json: "{\"a\":1}" });
        same(&Number {
            n: "1.50".into(),
            other: 3,
        });
        same(&json!({"n": 1.5, "big": u64::MAX}));
    }

    /// Inside a `serde_json` private struct: only strings, verbatim, as `serde_json`'s
    /// emitters write them; anything else fails.
    #[test]
    fn raw_mode_takes_strings_verbatim() {
        fn raw<T: Serialize + ?Sized>(value: &T) -> Option<u64> {
            let mut size = super::Size {
                bytes: 0,
                mode: super::Mode::Raw,
            };
            value.serialize(&mut size).ok().map(|()| size.bytes)
        }
        assert_eq!(raw("{\"a\": [1, 2]}"), Some(13));
        assert_eq!(raw(&format_args!("1.{}", "25")), Some(4));
        assert_eq!(raw(&1u64), None);
        assert_eq!(raw(&Some("x")), None);
        assert_eq!(raw(&vec!["x"]), None);
    }

    fn serde_bytes_like() -> impl Serialize {
        struct B(&'static [u8]);
        impl Serialize for B {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        (B(b""), B(b"\x00\x09\xff"))
    }
}
