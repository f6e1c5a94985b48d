//! Runtime support for `#[derive(Validate)]` (from `specmint-macros`).
//!
//! The derive only wires a struct's fields to the functions in [`rules`]; every rule's logic
//! lives there, once. Violations are collected into a [`Report`], each carrying a stable
//! code, a dotted [`Path`] and an RFC 6901 pointer.
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
//! assert_eq!(err.to_string(), "`title` must not be blank");
//! ```

#![deny(missing_docs)]

pub mod document;
pub mod json;
mod json_size;
pub mod path;
pub mod report;
pub mod rules;
pub mod shape;
pub mod strict;

pub use path::{Path, Seg};

pub use report::{Report, Violation};

/// What `#[derive(Validate)]` expands to and nothing else calls: not public API, may change
/// in any release (as `serde::__private`).
#[doc(hidden)]
pub mod __private {
    pub use crate::rules::list::{max_items_len, UniqueByKeys};
}

/// A value that can check itself against its declared rules.
///
/// Implemented by `#[derive(Validate)]`, and for `Vec<T>`, `[T]`, `Option<T>`, `Box<T>` and
/// `&T` where `T: Validate` (`Vec` and slices extend the path with each element's index;
/// `Option` validates the inner value when `Some`).
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
