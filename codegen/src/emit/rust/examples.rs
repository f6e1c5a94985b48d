//! The spec's examples as tests: a `#[cfg(test)] mod spec_examples` with one `#[test]` per
//! `valid` or `invalid` example, so `cargo test` in any crate that includes the module runs
//! them (the build.rs flow as much as the bundled specs). Each test checks the example's
//! stated verdict through the generated root type; a failure names the example's
//! `file:line` (see `runtime::document::check_example`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::*;

impl Ctx<'_> {
    pub(super) fn example_tests(&self) -> TokenStream {
        let rt = &self.rt;
        let root = ident(&self.spec.root_object().rust_name);
        let tests: Vec<TokenStream> = self
            .spec
            .examples
            .iter()
            .filter_map(|ex| {
                let (name, expected) = match &ex.kind {
                    ExampleKind::Valid => ("valid", &[][..]),
                    ExampleKind::Invalid(pairs) => ("invalid", pairs.as_slice()),
                    ExampleKind::Fragment => return None,
                };
                let test = format_ident!("{name}_example_at_line_{}", ex.line);
                let at = format!("{}:{}", self.spec.md_path, ex.line);
                let text = &ex.text;
                let pairs = expected.iter().map(|(code, path)| quote!((#code, #path)));
                Some(quote! {
                    #[test]
                    fn #test() {
                        if let ::core::result::Result::Err(message) =
                            #rt::__private::check_example::<super::#root>(
                                #text,
                                &super::DOCUMENT,
                                &[#(#pairs),*],
                                #at,
                            )
                        {
                            ::core::panic!("{}", message);
                        }
                    }
                })
            })
            .collect();
        if tests.is_empty() {
            return TokenStream::new();
        }
        let d = doc(&format!(
            "The `valid` and `invalid` examples of {} as tests, each checked against its stated verdict.",
            self.spec.md_path
        ));
        quote! {
            #d
            #[cfg(test)]
            mod spec_examples {
                #(#tests)*
            }
        }
    }
}
