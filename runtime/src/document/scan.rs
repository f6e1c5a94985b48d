//! The forbidden-key scanner: one streaming pass over the raw JSON, no value tree.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::Keys;
use crate::path::{push_index, push_key};

/// Deepest nesting the forbidden-key scanner descends into. `serde_json`'s own recursion
/// limit (128) normally stops the walk first; this guard holds even if it is disabled.
const MAX_SCAN_DEPTH: usize = 128;

pub(super) struct ForbiddenHit {
    pub(super) key: String,
    pub(super) path: String,
    pub(super) pointer: String,
}

enum ScanSeg<'de> {
    Key(Cow<'de, str>),
    Index(usize),
}

struct ScanState<'s, 'de> {
    forbidden: Keys<'s>,
    stack: Vec<ScanSeg<'de>>,
    found: Vec<ForbiddenHit>,
}

impl ScanState<'_, '_> {
    fn record(&mut self, key: &str) {
        let mut path = String::new();
        let mut pointer = String::new();
        for seg in &self.stack {
            match seg {
                ScanSeg::Key(k) => push_key(&mut path, &mut pointer, k),
                ScanSeg::Index(i) => push_index(&mut path, &mut pointer, *i),
            }
        }
        push_key(&mut path, &mut pointer, key);
        self.found.push(ForbiddenHit {
            key: key.to_owned(),
            path,
            pointer,
        });
    }
}

/// Every occurrence of a forbidden key, in document order; `None` if the input is not one
/// well-formed JSON value (or nests deeper than the scanner's limit), unless it plainly holds
/// no forbidden key (see [`may_hold_forbidden_key`]): then no hit, without parsing.
pub(super) fn scan_forbidden_keys(text: &str, forbidden: Keys<'_>) -> Option<Vec<ForbiddenHit>> {
    if forbidden.is_empty() {
        return None;
    }
    if !may_hold_forbidden_key(text, forbidden) {
        return Some(Vec::new());
    }
    let mut state = ScanState {
        forbidden,
        stack: Vec::new(),
        found: Vec::new(),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    ScanValue {
        state: &mut state,
        depth: 0,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(state.found)
}

/// Whether a forbidden key could be in `text`, read cheaply: where `text` has no `\`, every
/// JSON string in it is written as its own characters between two quotes, so a key `k` is
/// in it only if `"k"` is. (A few SIMD substring searches instead of a second parse, for the
/// documents that pass, nearly all.) With a `\` anywhere, a key may be escaped: `true`, and
/// the parse decides.
fn may_hold_forbidden_key(text: &str, forbidden: Keys<'_>) -> bool {
    let bytes = text.as_bytes();
    if memchr::memchr(b'\\', bytes).is_some() {
        return true;
    }
    forbidden.iter().any(|key| {
        memchr::memmem::find_iter(bytes, key.as_bytes())
            .any(|at| at > 0 && bytes[at - 1] == b'"' && bytes.get(at + key.len()) == Some(&b'"'))
    })
}

struct ScanValue<'a, 's, 'de> {
    state: &'a mut ScanState<'s, 'de>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for ScanValue<'_, '_, 'de> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl ScanValue<'_, '_, '_> {
    fn enter<E: de::Error>(&self) -> Result<usize, E> {
        if self.depth >= MAX_SCAN_DEPTH {
            return Err(E::custom("nesting too deep"));
        }
        Ok(self.depth + 1)
    }
}

impl<'de> Visitor<'de> for ScanValue<'_, '_, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        let state = self.state;
        let mut index = 0;
        loop {
            state.stack.push(ScanSeg::Index(index));
            let more = seq.next_element_seed(ScanValue {
                state: &mut *state,
                depth,
            })?;
            state.stack.pop();
            if more.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let depth = self.enter()?;
        let state = self.state;
        while let Some(key) = map.next_key_seed(ScanKey)? {
            if state.forbidden.contains(&key) {
                state.record(&key);
            }
            state.stack.push(ScanSeg::Key(key));
            map.next_value_seed(ScanValue {
                state: &mut *state,
                depth,
            })?;
            state.stack.pop();
        }
        Ok(())
    }
}

/// An object key, borrowed from the input unless it contains escapes.
struct ScanKey;

impl<'de> DeserializeSeed<'de> for ScanKey {
    type Value = Cow<'de, str>;

    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for ScanKey {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }
}
