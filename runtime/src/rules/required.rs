//! Whether a value is given: `required` and `required_if`.

use core::fmt::Display;
use std::borrow::Cow;

use crate::path::Path;
use crate::report::{Report, Violation};

use super::{is_blank, quoted, Detail as _, Named};

/// Whether a value counts as given, for [`required`] and [`required_if`].
///
/// Implemented for `Option<T>` (`None` is `"missing"`, `Some(x)` is whatever `x` is), text
/// (`str`, `String`, `Cow<str>`, and `Box<str>` through `Box<T>`: `""` is `"empty"`,
/// other blank text `"blank"`), lists (`Vec<T>`, `[T]`,
/// `[T; N]`: empty is `"empty"`), `&T`, `Box<T>`, numbers, `bool`, `char` and
/// [`Json`](crate::json::Json) (always given: a present `any` value, `null` included, is a
/// value). The types `specmint-codegen` generates implement it too. Any other type opts in with an empty impl, which counts every value as given:
///
/// ```
/// struct Budget { tokens: u32 }
/// impl specmint_runtime::rules::Filled for Budget {}
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `Filled`",
    label = "`required` and `required_if` need `Filled`",
    note = "opt in with an empty `impl specmint_runtime::rules::Filled for {Self} {{}}` (every value counts as given)"
)]
pub trait Filled {
    /// `None` when the value counts as given; otherwise why not: `"missing"`, `"empty"` or
    /// `"blank"`.
    fn unfilled(&self) -> Option<&'static str> {
        None
    }
}

fn text_unfilled(s: &str) -> Option<&'static str> {
    if s.is_empty() {
        Some("empty")
    } else if is_blank(s) {
        Some("blank")
    } else {
        None
    }
}

/// A decimal counts as given whenever it is present.
impl Filled for crate::decimal::Decimal {}

impl Filled for str {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl Filled for String {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl Filled for Cow<'_, str> {
    fn unfilled(&self) -> Option<&'static str> {
        text_unfilled(self)
    }
}

impl<T> Filled for [T] {
    fn unfilled(&self) -> Option<&'static str> {
        self.is_empty().then_some("empty")
    }
}

impl<T, const N: usize> Filled for [T; N] {
    fn unfilled(&self) -> Option<&'static str> {
        self.as_slice().unfilled()
    }
}

impl<T> Filled for Vec<T> {
    fn unfilled(&self) -> Option<&'static str> {
        self.as_slice().unfilled()
    }
}

impl<T: Filled> Filled for Option<T> {
    fn unfilled(&self) -> Option<&'static str> {
        match self {
            Some(value) => value.unfilled(),
            None => Some("missing"),
        }
    }
}

impl<T: Filled + ?Sized> Filled for &T {
    fn unfilled(&self) -> Option<&'static str> {
        (**self).unfilled()
    }
}

impl<T: Filled + ?Sized> Filled for Box<T> {
    fn unfilled(&self) -> Option<&'static str> {
        (**self).unfilled()
    }
}

macro_rules! always_filled {
    ($($t:ty),*) => { $(impl Filled for $t {})* };
}
always_filled!(
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    crate::json::Json
);

/// `` `at` is required[ when CLAUSE][ (it is why)] ``.
fn required_message(at: &str, why: &str, when: Option<&dyn Display>) -> String {
    use core::fmt::Write as _;
    let mut message = message!(at, "`{at}` is required");
    // Writing to a String cannot fail.
    if let Some(clause) = when {
        let _ = write!(message, " when {clause}");
    }
    if why != "missing" {
        let _ = write!(message, " (it is {why})");
    }
    message
}

/// The value must be given (see [`Filled`]): not `None`, and when it is text not blank,
/// when it is a list not empty.
///
/// Message: `` `objective` is required ``; for a value that is present but unfilled
/// `` `boundaries` is required (it is empty) `` or `` `objective` is required (it is blank) ``
/// (`empty` for `""`).
pub fn required<V: Filled + ?Sized>(value: &V, path: &Path<'_>, code: &str, report: &mut Report) {
    if let Some(why) = value.unfilled() {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                required_message(at, why, None)
            })
        });
    }
}

/// When the sibling field ([`Named`]) equals `equals`, the value must be given as for
/// [`required`]; otherwise nothing is checked.
///
/// Message: `` `payload.exclusion_reason` is required when `disposition` is `excluded` ``
/// (the sibling by its bare name and its `Display`), plus ` (it is empty)` / ` (it is blank)`
/// as for [`required`].
pub fn required_if<V, S, E>(
    value: &V,
    sibling: Named<&S>,
    equals: &E,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) where
    V: Filled + ?Sized,
    S: PartialEq<E> + Display + ?Sized,
    E: ?Sized,
{
    if *sibling.value != *equals {
        return;
    }
    if let Some(why) = value.unfilled() {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                let clause = format!("`{}` is `{}`", sibling.name, sibling.value);
                required_message(at, why, Some(&clause))
            })
            .with_other(path.sibling_dotted(sibling.name))
            .with_expected(quoted(sibling.value))
        });
    }
}

/// The value must be given, as for [`required`], while a condition holds: the caller
/// checks the condition and passes what it says (`` `category` is `E` ``,
/// `` any `lines[].category` is `S` or `AE` ``); the message is
/// `` `exemption_reason` is required when `category` is `E` `` (plus ` (it is empty)` /
/// ` (it is blank)` as for [`required`]).
pub fn required_when<V: Filled + ?Sized>(
    value: &V,
    when: &dyn Display,
    path: &Path<'_>,
    code: &str,
    report: &mut Report,
) {
    if let Some(why) = value.unfilled() {
        report.push_with(|| {
            Violation::with_message(crate::report::Code::copy_of(code), path, |at| {
                required_message(at, why, Some(when))
            })
            .with_condition(Some(when), true)
        });
    }
}
