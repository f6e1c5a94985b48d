//! Runtime support for specmint: the [`Validate`](trait@Validate) trait and its derive,
//! the [`Report`] of [`Violation`]s, the rule functions in [`rules`], and the strict JSON
//! entry point [`document::parse_document`] that generated code calls.
//!
//! One import brings the trait and `#[derive(Validate)]` (re-exported from
//! `specmint-macros` by the default `derive` feature, as serde does):
//!
//! ```
//! use specmint_runtime::Validate;
//!
//! #[derive(Validate)]
//! struct Note {
//!     #[validate(non_blank(code = "blank_field"), max_chars(max = 8, code = "too_long"))]
//!     title: String,
//! }
//!
//! let report = Note { title: "  ".into() }.validate().unwrap_err();
//! assert_eq!(report.to_string(), "blank_field: `title` must not be blank");
//! let report = Note { title: "nine char".into() }.validate().unwrap_err();
//! assert_eq!(report.to_string(), "too_long: `title` is 9 chars (max 8)");
//! assert!(Note { title: "ok".into() }.validate().is_ok());
//! ```
//!
//! The derive only wires a struct's fields to the functions in [`rules`]; every rule's logic
//! lives there, once, and a hand-written impl calls the same functions. Violations are
//! collected into a [`Report`], each carrying a stable code, a dotted [`Path`] and an
//! RFC 6901 pointer.
//!
//! Validating a valid value allocates nothing: a [`Path`] is a linked list on the stack that
//! is turned into strings only when a [`Violation`] is recorded.
//!
//! ```
//! use specmint_runtime::{rules, Path, Report, Validate};
//!
//! struct Note { title: String }
//!
//! impl Validate for Note {
//!     fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
//!         rules::non_blank(&self.title, &path.field("title"), "blank_field", report);
//!     }
//! }
//!
//! let err = Note { title: "  ".into() }.validate().unwrap_err();
//! assert_eq!(err.to_string(), "blank_field: `title` must not be blank");
//! ```

#![deny(missing_docs)]

pub mod decimal;
pub mod document;
pub mod expr;
pub mod interp;
pub mod json;
mod json_size;
pub mod json_text;
#[cfg(feature = "messages")]
pub mod messages;
pub mod path;
pub mod report;
pub mod rules;
pub mod shape;
pub mod strict;
#[cfg(test)]
mod test_rng;
mod union_read;

pub use path::{Path, Seg};

/// `#[derive(Validate)]` (from `specmint-macros`, with the default `derive` feature): it
/// lives in the macro namespace beside the [`Validate`](trait@Validate) trait, so
/// `use specmint_runtime::Validate;` brings both.
#[cfg(feature = "derive")]
pub use specmint_macros::Validate;

pub use report::{Report, Violation};

/// What `#[derive(Validate)]` and generated code expand to and nothing else calls: not
/// public API, may change in any release (as `serde::__private`). Generated code reaches
/// `serde` and `serde_json` through here, so a crate using it needs no `serde` dependency
/// of its own. (A reader of specs loaded at run time uses [`interp`].)
#[doc(hidden)]
pub mod __private {
    pub use crate::document::{check_example, example_mismatch};
    pub use crate::rules::list::{
        key_value, max_items_len, min_items_len, KeyMember, KeyProbe, OptionalKey, PlainKey,
        UniqueByKeys, UniqueKeys,
    };
    pub use crate::union_read::{AfterTag, Replay, TagSeed};
    pub use serde;
    pub use serde_json;
    pub use specmint_suggest::{did_you_mean, words};
}

/// A value that can check itself against its declared rules.
///
/// Implemented by `#[derive(Validate)]`, and for `Vec<T>`, `[T]`, `Option<T>`, `Box<T>` and
/// `&T` where `T: Validate` (`Vec` and slices extend the path with each element's index;
/// `Option` validates the inner value when `Some`).
///
/// ```
/// use specmint_runtime::Validate;
///
/// #[derive(Validate)]
/// struct Line {
///     #[validate(non_blank(code = "blank"))]
///     sku: String,
/// }
///
/// #[derive(Validate)]
/// struct Order {
///     #[validate(max_items(max = 2, code = "too_many"), nested)]
///     lines: Vec<Line>,
/// }
///
/// let order = Order { lines: vec![Line { sku: "a".into() }, Line { sku: " ".into() }] };
/// let report = order.validate().unwrap_err();
/// assert_eq!(report.codes().collect::<Vec<_>>(), ["blank"]);
/// assert_eq!(report.as_slice()[0].pointer, "/lines/1/sku");
/// // The blanket impls index a list's elements.
/// assert_eq!(order.lines.validate().unwrap_err().as_slice()[0].path, "[1].sku");
/// ```
pub trait Validate {
    /// Checks `self`, found at `path`, and pushes every violation to `report`.
    fn validate_at(&self, path: &Path<'_>, report: &mut Report);

    /// Checks `self` as the document root; `Err` carries every violation, in document order.
    fn validate(&self) -> Result<(), Report> {
        let mut report = Report::default();
        self.validate_at(&Path::ROOT, &mut report);
        if report.is_empty() {
            Ok(())
        } else {
            Err(report)
        }
    }
}

impl<T: Validate> Validate for [T] {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        // An index loop, not `iter().enumerate()`: this impl is instantiated once per element
        // type in every crate that derives `Validate`, and iterator adaptors cost a handful of
        // extra functions per instantiation to compile.
        let mut i = 0;
        while i < self.len() {
            self[i].validate_at(&path.index(i), report);
            i += 1;
        }
    }
}

impl<T: Validate> Validate for Vec<T> {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        self.as_slice().validate_at(path, report);
    }
}

impl<T: Validate> Validate for Option<T> {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        if let Some(value) = self {
            value.validate_at(path, report);
        }
    }
}

impl<T: Validate + ?Sized> Validate for Box<T> {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        (**self).validate_at(path, report);
    }
}

impl<T: Validate + ?Sized> Validate for &T {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        (**self).validate_at(path, report);
    }
}
