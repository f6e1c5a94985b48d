//! `#[derive(Validate)]` for specmint.
//!
//! The derive reads `#[validate(...)]` attributes into a model, checks it, and emits an
//! `impl Validate` that only wires fields to the rule functions of `specmint-runtime`
//! (`::specmint_runtime::rules::*`, plus the derive-only helpers of its hidden `__private`
//! module); all rule logic lives there. The phases are fixed:
//! parse → check → emit, and emit cannot fail. Every misuse is collected and reported
//! together, each spanned at the offending token; on error the derive emits the
//! `compile_error!`s plus a stub `impl Validate`, so users see only the real error.
//!
//! See `docs/validate.md` for the full attribute grammar. In short:
//!
//! ```ignore
//! #[derive(Validate, Serialize)]
//! #[validate(not_equal(a = from_role, b = to_role), max_json_bytes = 16384)]
//! struct Packet {
//!     #[validate(non_blank, max_chars = 200)]
//!     title: String,
//!     #[validate(max_items = 12, each(non_blank, max_chars(max = 80, code = "tag_too_long")))]
//!     tags: Vec<String>,
//!     #[validate(nested, unique_by(key = id, ignore_case, trim))]
//!     items: Vec<Item>,
//!     from_role: String,
//!     to_role: String,
//! }
//! ```
//!
//! Generated code names the runtime as `::specmint_runtime`; a crate that re-exports the
//! runtime elsewhere points the derive there with `#[validate(crate = "path::to::runtime")]`.

mod check;
mod emit;
mod errors;
mod kw;
mod model;
mod parse;
/// The runtime's "did you mean" (one source for the derive and the spec checker).
#[path = "../../runtime/src/suggest.rs"]
mod suggest;

use proc_macro::TokenStream;

/// Derives `specmint_runtime::Validate` from `#[validate(...)]` attributes.
///
/// Field rules: `non_blank`, `max_chars`, `max_items`, `each(..)`, `nested`,
/// `max_items_per_group(..)`, `unique_by(..)`, `contradiction(..)`, `equals(..)`,
/// `pattern(..)`, `relative_path`, `required`, `required_if(..)`, `unique`; field setting
/// `rename = ".."`. Struct rules: `not_equal(..)`, `max_json_bytes`, `not_contains(..)`,
/// `digest(..)`, and `crate = ".."` to name the runtime. Paths use serde's field names
/// (`rename`, `rename_all`). See `docs/validate.md` for the grammar and the exact messages.
#[proc_macro_derive(Validate, attributes(validate))]
pub fn derive_validate(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand(&input).into()
}

fn expand(input: &syn::DeriveInput) -> proc_macro2::TokenStream {
    let (model, mut errors) = parse::parse(input);
    check::check(&model, &mut errors);
    match errors.finish() {
        Ok(()) => emit::emit(&model),
        Err(err) => emit::emit_error(&model, &err),
    }
}
