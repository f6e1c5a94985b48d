//! Collects every diagnostic so they are reported together.

/// Accumulates `syn::Error`s with [`syn::Error::combine`].
#[derive(Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Records one error.
    pub fn push(&mut self, err: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(err),
            None => self.0 = Some(err),
        }
    }

    /// Records an error at `span`.
    pub fn at(&mut self, span: proc_macro2::Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// `Err` with every recorded error, if any.
    pub fn finish(self) -> Result<(), syn::Error> {
        match self.0 {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }
}
