//! What a reader of documents whose types are known only at run time needs beyond the rule
//! functions: specmint-codegen's interpreter (`specmint validate --spec DIR`, the language
//! server's judging of a spec's examples) reads a document under a spec it loaded, with the
//! same calls, and so the same messages, as the generated code.
//!
//! Generated code reaches the same machinery through names that take `&'static str` (what
//! serde's derive hands them); a spec loaded at run time owns its names, so these take them
//! borrowed, and nothing read from a spec needs to live for the rest of the process:
//!
//! - the refusals serde's derive words with its `de::Error` constructors, which want
//!   `&'static` names: [`unknown_field`], [`unknown_variant`], [`missing_field`] and
//!   [`duplicate_field`] word them the same (serde's default wording, which `serde_json`
//!   keeps);
//! - a union's tagged object read in place: [`AfterTag`] (made with [`AfterTag::with_tag`])
//!   and [`Replay`], as the generated `Deserialize` of a union reads it;
//! - the `unique_by` rule fed one key at a time: [`UniqueByKeys`], and one compound key at a
//!   time: [`UniqueKeys`];
//! - reading with state, not a type: [`parse_document_seed`] and
//!   [`accepted_document_seed`], and a [`ShapeSource`] that describes the document's shape
//!   only when a refusal needs it;
//! - judging a spec's examples: [`example_mismatch`].
//!
//! ```
//! use serde::de::value::Error;
//! use specmint_runtime::interp::{duplicate_field, missing_field, unknown_field, unknown_variant};
//!
//! let keys = vec![String::from("title"), String::from("tags")];
//! let e: Error = unknown_field("titel", &keys);
//! assert_eq!(e.to_string(), "unknown field `titel`, expected `title` or `tags`");
//! let e: Error = unknown_variant("hgh", &["low", "mid", "high"]);
//! assert_eq!(e.to_string(), "unknown variant `hgh`, expected one of `low`, `mid`, `high`");
//! let e: Error = unknown_field("x", &[] as &[&str]);
//! assert_eq!(e.to_string(), "unknown field `x`, there are no fields");
//! assert_eq!(missing_field::<Error>("title").to_string(), "missing field `title`");
//! assert_eq!(duplicate_field::<Error>("title").to_string(), "duplicate field `title`");
//! ```
//!
//! [`parse_document_seed`]: crate::document::parse_document_seed
//! [`accepted_document_seed`]: crate::document::accepted_document_seed
//! [`ShapeSource`]: crate::document::ShapeSource
//! [`example_mismatch`]: crate::document::example_mismatch

use core::fmt;

use serde::de;

pub use crate::rules::list::{UniqueByKeys, UniqueKeys};
pub use crate::union_read::{AfterTag, Replay};

/// serde's `unknown field` refusal (`de::Error::unknown_field`), for names that are not
/// `'static`.
pub fn unknown_field<E: de::Error>(field: &str, expected: &[impl AsRef<str>]) -> E {
    if expected.is_empty() {
        E::custom(format_args!("unknown field `{field}`, there are no fields"))
    } else {
        E::custom(format_args!(
            "unknown field `{field}`, expected {}",
            OneOf(expected)
        ))
    }
}

/// serde's `unknown variant` refusal (`de::Error::unknown_variant`), for names that are not
/// `'static`.
pub fn unknown_variant<E: de::Error>(variant: &str, expected: &[impl AsRef<str>]) -> E {
    if expected.is_empty() {
        E::custom(format_args!(
            "unknown variant `{variant}`, there are no variants"
        ))
    } else {
        E::custom(format_args!(
            "unknown variant `{variant}`, expected {}",
            OneOf(expected)
        ))
    }
}

/// serde's `missing field` refusal (`de::Error::missing_field`), for a name that is not
/// `'static`.
pub fn missing_field<E: de::Error>(field: &str) -> E {
    E::custom(format_args!("missing field `{field}`"))
}

/// serde's `duplicate field` refusal (`de::Error::duplicate_field`), for a name that is not
/// `'static`.
pub fn duplicate_field<E: de::Error>(field: &str) -> E {
    E::custom(format_args!("duplicate field `{field}`"))
}

/// serde's list of expected names: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
struct OneOf<'a, S>(&'a [S]);

impl<S: AsRef<str>> fmt::Display for OneOf<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            [one] => write!(f, "`{}`", one.as_ref()),
            [a, b] => write!(f, "`{}` or `{}`", a.as_ref(), b.as_ref()),
            names => {
                f.write_str("one of ")?;
                for (i, name) in names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "`{}`", name.as_ref())?;
                }
                Ok(())
            }
        }
    }
}
