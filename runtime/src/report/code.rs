//! [`Code`]: a violation's code, without an allocation for the codes specs use.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;
use std::borrow::{Borrow, Cow};

/// Codes up to this many bytes are held inline (`field_too_long`, `BR-CO-18`, every bundled
/// spec's code): copying one allocates nothing.
const INLINE: usize = 22;

/// A violation's code: a `&'static str` borrowed from generated code and `#[derive(Validate)]`,
/// or a copy of a code read at run time (a spec loaded by specmint-codegen's interpreter), held
/// inline when it is short, as every code of the bundled specs is. So recording a violation
/// costs no allocation for its code either way, and nothing is leaked for a spec loaded at run
/// time.
///
/// It reads as a `&str` (`Deref`, `AsRef`, `Borrow`, `Display`), compares and hashes as one,
/// and serializes as the string.
///
/// ```
/// use specmint_runtime::report::Code;
///
/// let read = String::from("BR-CO-18");
/// let code = Code::copy_of(&read);
/// assert_eq!(code, "BR-CO-18");
/// assert_eq!(code.len(), 8);
/// assert_eq!(Code::from("field_too_long").to_string(), "field_too_long");
/// ```
#[derive(Clone)]
pub struct Code(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl Code {
    /// A code borrowed for the program's life (no copy).
    pub const fn from_static(code: &'static str) -> Code {
        Code(Repr::Static(code))
    }

    /// A copy of `code`: inline when it is at most 22 bytes, on the heap otherwise.
    pub fn copy_of(code: &str) -> Code {
        if code.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..code.len()].copy_from_slice(code.as_bytes());
            // `code.len() <= 22` fits a u8.
            Code(Repr::Inline {
                len: code.len() as u8,
                bytes,
            })
        } else {
            Code(Repr::Heap(code.into()))
        }
    }

    /// The code, when it is borrowed for the program's life (generated code's and the
    /// derive's): `None` for a copy.
    pub fn as_static(&self) -> Option<&'static str> {
        match self.0 {
            Repr::Static(s) => Some(s),
            _ => None,
        }
    }

    /// The code as a string slice.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            Repr::Inline { len, bytes } => {
                // Copied from a `&str` whole, so valid UTF-8 up to `len`.
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            Repr::Heap(s) => s,
        }
    }
}

impl Deref for Code {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Code {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Code {
    fn from(code: &'static str) -> Code {
        Code::from_static(code)
    }
}

impl From<String> for Code {
    fn from(code: String) -> Code {
        if code.len() <= INLINE {
            Code::copy_of(&code)
        } else {
            Code(Repr::Heap(code.into_boxed_str()))
        }
    }
}

impl From<&String> for Code {
    fn from(code: &String) -> Code {
        Code::copy_of(code)
    }
}

impl From<Cow<'static, str>> for Code {
    fn from(code: Cow<'static, str>) -> Code {
        match code {
            Cow::Borrowed(s) => Code::from_static(s),
            Cow::Owned(s) => Code::from(s),
        }
    }
}

impl From<Code> for String {
    fn from(code: Code) -> String {
        code.as_str().to_owned()
    }
}

impl PartialEq for Code {
    fn eq(&self, other: &Code) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Code {}

impl PartialOrd for Code {
    fn partial_cmp(&self, other: &Code) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Code {
    fn cmp(&self, other: &Code) -> core::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Code {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

macro_rules! eq_with {
    ($($t:ty),*) => {$(
        impl PartialEq<$t> for Code {
            fn eq(&self, other: &$t) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Code> for $t {
            fn eq(&self, other: &Code) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
eq_with!(str, &str, String, Cow<'_, str>);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_compares_and_serializes_as_its_string() {
        let long = "a_code_longer_than_twenty_two_bytes";
        for (code, text) in [
            (Code::from("field_too_long"), "field_too_long"),
            (Code::copy_of("BR-CO-18"), "BR-CO-18"),
            (Code::copy_of(""), ""),
            (Code::copy_of("x".repeat(22).as_str()), &*"x".repeat(22)),
            (Code::copy_of(long), long),
            (Code::from(long.to_owned()), long),
            (Code::from("代碼".to_owned()), "代碼"),
            (Code::from(Cow::Owned("c".to_owned())), "c"),
        ] {
            assert_eq!(code.as_str(), text);
            assert_eq!(code, text);
            assert_eq!(code, Code::copy_of(text));
            assert_eq!(
                serde_json::to_string(&code).unwrap(),
                serde_json::to_string(text).unwrap()
            );
            assert_eq!(format!("{code:?}"), format!("{text:?}"));
        }
    }

    #[test]
    fn short_copies_are_inline_and_long_ones_on_the_heap() {
        assert!(matches!(
            Code::copy_of("x".repeat(22).as_str()).0,
            Repr::Inline { .. }
        ));
        assert!(matches!(
            Code::copy_of("x".repeat(23).as_str()).0,
            Repr::Heap(_)
        ));
        assert!(matches!(Code::from("static").0, Repr::Static(_)));
    }
}
