//! Phase 3: turn a checked model into tokens. Nothing here can fail.
//!
//! Generated code is hygienic: it sits in `const _: () = { .. };`, names everything by a
//! fully qualified path (`::core::..`, the runtime path), and its locals use mixed-site
//! spans so they cannot collide with names in user expressions.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned, ToTokens as _};
use syn::Ident;

use crate::model::{Code, Field, FieldRule, Model, StructRule, TextRule};

/// Names of the generated locals.
struct Locals {
    krate: syn::Path,
    path: Ident,
    report: Ident,
    field_path: Ident,
    items: Ident,
    index: Ident,
    item: Ident,
    item_path: Ident,
    it: Ident,
}

impl Locals {
    fn new(model: &Model) -> Self {
        let local = |name: &str| Ident::new(name, Span::mixed_site());
        Locals {
            krate: model.krate.clone(),
            path: local("__specmint_path"),
            report: local("__specmint_report"),
            field_path: local("__specmint_field_path"),
            items: local("__specmint_items"),
            index: local("__specmint_index"),
            item: local("__specmint_item"),
            item_path: local("__specmint_item_path"),
            it: local("__specmint_it"),
        }
    }
}

fn code(code: &Code) -> TokenStream {
    match &code.custom {
        Some(lit) => lit.to_token_stream(),
        None => {
            let default = code.default;
            quote!(#default)
        }
    }
}

/// The `impl Validate` for a model that passed every check.
pub fn emit(model: &Model) -> TokenStream {
    let l = Locals::new(model);
    let fields = model.fields.iter().map(|f| field(f, &l));
    let struct_rules = model.struct_rules.iter().map(|r| struct_rule(r, &l));
    let body = quote! {
        #(#fields)*
        #(#struct_rules)*
    };
    wrap(model, &l, body)
}

/// `compile_error!`s for `err`, plus a stub `impl Validate` so the only errors users see are
/// the ones about their attributes.
pub fn emit_error(model: &Model, err: &syn::Error) -> TokenStream {
    let l = Locals::new(model);
    let errors = err.to_compile_error();
    let stub = wrap(model, &l, TokenStream::new());
    quote! {
        #errors
        #stub
    }
}

fn wrap(model: &Model, l: &Locals, body: TokenStream) -> TokenStream {
    let Locals {
        krate,
        path,
        report,
        ..
    } = l;
    let ident = &model.ident;
    let (impl_generics, ty_generics, where_clause) = model.generics.split_for_impl();
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_qualifications, clippy::all)]
        const _: () = {
            #[automatically_derived]
            impl #impl_generics #krate::Validate for #ident #ty_generics #where_clause {
                fn validate_at(
                    &self,
                    #path: &#krate::Path<'_>,
                    #report: &mut #krate::Report,
                ) {
                    #body
                }
            }
        };
    }
}

fn field(f: &Field, l: &Locals) -> TokenStream {
    if f.rules.is_empty() {
        return TokenStream::new();
    }
    let Locals {
        path, field_path, ..
    } = l;
    let name = &f.name;
    let rules = f.rules.iter().map(|r| field_rule(f, r, l));
    quote! {
        {
            let #field_path = #path.field(#name);
            #(#rules)*
        }
    }
}

fn text_rule(rule: &TextRule, value: &TokenStream, at: &Ident, l: &Locals) -> TokenStream {
    let Locals { krate, report, .. } = l;
    let ty = rule.span();
    match rule {
        TextRule::NonBlank { code: c, .. } => {
            let c = code(c);
            quote_spanned! {ty=>
                #krate::rules::non_blank(#value, &#at, #c, #report);
            }
        }
        TextRule::MaxChars { max, code: c, .. } => {
            let (c, max) = (code(c), &max.expr);
            quote_spanned! {ty=>
                #krate::rules::max_chars(#value, &#at, #max, #c, #report);
            }
        }
    }
}

fn field_rule(f: &Field, rule: &FieldRule, l: &Locals) -> TokenStream {
    let Locals {
        krate,
        report,
        field_path,
        items,
        index,
        item,
        item_path,
        it,
        ..
    } = l;
    // Type errors (a rule on a field of the wrong shape) point at the rule's name.
    let ty = rule.span();
    let mut ident = f.ident.clone();
    ident.set_span(ty);
    let value = quote_spanned!(ty=> &self.#ident);
    match rule {
        FieldRule::Text(rule) => text_rule(rule, &value, field_path, l),
        FieldRule::MaxItems { max, code: c, .. } => {
            let (c, max) = (code(c), &max.expr);
            quote_spanned! {ty=>
                #krate::rules::max_items(#value, &#field_path, #max, #c, #report);
            }
        }
        FieldRule::Each { rules, .. } => {
            let element = quote!(#item);
            let rules = rules.iter().map(|r| text_rule(r, &element, item_path, l));
            quote_spanned! {ty=>
                if let ::core::option::Option::Some(#items) =
                    #krate::rules::ListField::items(#value)
                {
                    for (#index, #item) in ::core::iter::Iterator::enumerate(
                        ::core::iter::IntoIterator::into_iter(#items),
                    ) {
                        let #item_path = #field_path.index(#index);
                        #(#rules)*
                    }
                }
            }
        }
        FieldRule::Nested { .. } => quote_spanned! {ty=>
            #krate::Validate::validate_at(#value, &#field_path, #report);
        },
        FieldRule::MaxItemsPerGroup {
            by, max, code: c, ..
        } => {
            let (c, max) = (code(c), &max.expr);
            quote_spanned! {ty=>
                #krate::rules::max_items_per_group(
                    #value,
                    |#it| &#it.#by,
                    &#field_path,
                    #max,
                    #c,
                    #report,
                );
            }
        }
        FieldRule::UniqueBy {
            key,
            key_name,
            trim,
            ignore_case,
            code: c,
            ..
        } => {
            let c = code(c);
            quote_spanned! {ty=>
                #krate::rules::unique_by(
                    #value,
                    #key_name,
                    |#it| ::core::convert::AsRef::<str>::as_ref(&#it.#key),
                    #krate::rules::Fold { trim: #trim, ignore_case: #ignore_case },
                    &#field_path,
                    #c,
                    #report,
                );
            }
        }
        FieldRule::Contradiction {
            by,
            value: value_field,
            value_name,
            pairs,
            code: c,
            ..
        } => {
            let c = code(c);
            let pairs = pairs.iter().map(|p| {
                let (a, b, ic) = (&p.a, &p.b, p.ignore_case);
                quote!(#krate::rules::Pair { a: #a, b: #b, ignore_case: #ic })
            });
            quote_spanned! {ty=>
                #krate::rules::contradiction(
                    #value,
                    |#it| &#it.#by,
                    #value_name,
                    |#it| ::core::convert::AsRef::<str>::as_ref(&#it.#value_field),
                    &[#(#pairs),*],
                    &#field_path,
                    #c,
                    #report,
                );
            }
        }
    }
}

fn struct_rule(rule: &StructRule, l: &Locals) -> TokenStream {
    let Locals {
        krate,
        path,
        report,
        ..
    } = l;
    match rule {
        StructRule::NotEqual {
            a,
            b,
            code: c,
            span,
        } => {
            let c = code(c);
            let (a_name, b_name) = (unraw(a), unraw(b));
            quote_spanned! {*span=>
                #krate::rules::not_equal(&self.#a, #a_name, &self.#b, #b_name, #path, #c, #report);
            }
        }
        StructRule::MaxJsonBytes { max, code: c, span } => {
            let (c, max) = (code(c), &max.expr);
            quote_spanned! {*span=>
                #krate::rules::max_json_bytes(self, #path, #max, #c, #report);
            }
        }
    }
}

fn unraw(ident: &Ident) -> String {
    syn::ext::IdentExt::unraw(ident).to_string()
}
