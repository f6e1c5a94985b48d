//! The field shapes rules accept: text and lists, each maybe absent.

use std::borrow::Cow;

/// A field that holds text, or maybe no text (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text field",
    label = "text rules apply to `String`, `&str`, `Box<str>`, `Cow<str>` or an `Option` of one",
    note = "for a list of strings, use `each(non_blank, max_chars = N)`"
)]
pub trait TextField {
    /// The text, or `None` when there is nothing to check.
    fn text(&self) -> Option<&str>;
}

impl TextField for str {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for String {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for Box<str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl TextField for Cow<'_, str> {
    fn text(&self) -> Option<&str> {
        Some(self)
    }
}

impl<T: TextField + ?Sized> TextField for &T {
    fn text(&self) -> Option<&str> {
        (**self).text()
    }
}

impl<T: TextField> TextField for Option<T> {
    fn text(&self) -> Option<&str> {
        self.as_ref().and_then(TextField::text)
    }
}

/// A field that holds a list, or maybe no list (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list field",
    label = "list rules apply to `Vec<T>`, `[T]`, `[T; N]` or an `Option` of one"
)]
pub trait ListField {
    /// The element type.
    type Item;
    /// The elements, or `None` when there is nothing to check.
    fn items(&self) -> Option<&[Self::Item]>;
}

impl<T> ListField for [T] {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T, const N: usize> ListField for [T; N] {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<T> ListField for Vec<T> {
    type Item = T;
    fn items(&self) -> Option<&[T]> {
        Some(self)
    }
}

impl<L: ListField + ?Sized> ListField for &L {
    type Item = L::Item;
    fn items(&self) -> Option<&[L::Item]> {
        (**self).items()
    }
}

impl<L: ListField> ListField for Option<L> {
    type Item = L::Item;
    fn items(&self) -> Option<&[L::Item]> {
        self.as_ref().and_then(ListField::items)
    }
}

/// A field that holds an integer, or maybe no integer (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer field",
    label = "`range` applies to `u8`..`u64`, `i8`..`i64` or an `Option` of one",
    note = "for a list of integers, use `each(range(min = A, max = B))`; for an `f64`, write a decimal bound (`range(min = 0.0)`)"
)]
pub trait IntegerField {
    /// The value, or `None` when there is nothing to check.
    fn integer(&self) -> Option<i128>;
}

macro_rules! integer_fields {
    ($($t:ty),*) => {$(
        impl IntegerField for $t {
            fn integer(&self) -> Option<i128> {
                Some(i128::from(*self))
            }
        }
    )*};
}

integer_fields!(u8, u16, u32, u64, i8, i16, i32, i64);

impl<T: IntegerField + ?Sized> IntegerField for &T {
    fn integer(&self) -> Option<i128> {
        (**self).integer()
    }
}

impl<T: IntegerField> IntegerField for Option<T> {
    fn integer(&self) -> Option<i128> {
        self.as_ref().and_then(IntegerField::integer)
    }
}

/// A field that holds a number (`f64`, `f32`), or maybe none (`None` is not checked).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a number field",
    label = "`range` with a decimal bound applies to `f64`, `f32` or an `Option` of one",
    note = "for an integer field, write integer bounds: `range(min = 0, max = 10)`"
)]
pub trait NumberField {
    /// The value, or `None` when there is nothing to check.
    fn number(&self) -> Option<f64>;
}

impl NumberField for f64 {
    fn number(&self) -> Option<f64> {
        Some(*self)
    }
}

impl NumberField for f32 {
    fn number(&self) -> Option<f64> {
        Some(f64::from(*self))
    }
}

impl<T: NumberField + ?Sized> NumberField for &T {
    fn number(&self) -> Option<f64> {
        (**self).number()
    }
}

impl<T: NumberField> NumberField for Option<T> {
    fn number(&self) -> Option<f64> {
        self.as_ref().and_then(NumberField::number)
    }
}
