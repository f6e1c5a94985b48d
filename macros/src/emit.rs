//! Phase 3: turn a checked model into tokens. Nothing here can fail.
//!
//! Generated code is hygienic: it sits in `const _: () = { .. };`, names everything by a
//! fully qualified path (`::core::..`, the runtime path), and its locals use mixed-site
//! spans so they cannot collide with names in user expressions.

use proc_macro2::{Delimiter, Group, Punct, Spacing, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens, TokenStreamExt as _};
use syn::Ident;

use crate::model::{Code, Field, Fold, Limit, Model, Rule, RuleKind, StructRule};

/// Names of the generated locals.
struct Locals {
    krate: syn::Path,
    path: Ident,
    report: Ident,
    field_path: Ident,
    list: Ident,
    items: Ident,
    keys: Ident,
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
            list: local("__specmint_list"),
            items: local("__specmint_items"),
            keys: local("__specmint_keys"),
            index: local("__specmint_index"),
            item: local("__specmint_item"),
            item_path: local("__specmint_item_path"),
            it: local("__specmint_it"),
        }
    }
}

/// `ListField::items(value)` with every token at `span` (the rule's name), so that a field
/// that is no list gets one error there, not a second one at the derive for the call's type.
fn list_items(krate: &syn::Path, value: &TokenStream, span: Span) -> TokenStream {
    let call = respan(quote!(#krate::rules::ListField::items), span);
    quote_spanned!(span=> #call(#value))
}

/// `rules::Named { name, value }` spanning what `value` alone would: from `span` (the rule's
/// name; the runtime path included) to the value's last token, so that a type error in the
/// operand points where it would for the bare value (`required_if(field = kind`).
fn named(krate: &syn::Path, name: &str, value: TokenStream, span: Span) -> TokenStream {
    let named = respan(quote!(#krate::rules::Named), span);
    let end = value
        .clone()
        .into_iter()
        .last()
        .map_or(span, |tt| tt.span());
    let mut fields = Group::new(
        Delimiter::Brace,
        quote_spanned!(span=> name: #name, value: #value),
    );
    fields.set_span(end);
    quote_spanned!(span=> #named #fields)
}

/// [`named`] for the struct's own field `field`: `Named { name, value: &self.field }`, the
/// field by the name paths show.
fn named_field(model: &Model, krate: &syn::Path, field: &Ident, span: Span) -> TokenStream {
    named(
        krate,
        &name_of(model, field),
        quote_spanned!(span=> &self.#field),
        span,
    )
}

/// `tokens` with every token at `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            tt.set_span(span);
            tt
        })
        .collect()
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

/// Whether a `range` bound is a decimal literal (`0.5`, `-90.0`, `1e3`): the range is then on
/// a number field.
fn is_decimal(expr: &syn::Expr) -> bool {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Float(_),
            ..
        }) => true,
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => is_decimal(expr),
        syn::Expr::Group(g) => is_decimal(&g.expr),
        _ => false,
    }
}

/// A `range` bound as an `Option<i128>` (`decimal`: an `Option<f64>`): a literal (maybe
/// negated) typed as written, so any bound the type can hold compiles (an integer literal
/// beside a decimal one, `range(min = -90, max = 90.5)`, typed `f64`); any other expression
/// converted losslessly with `From` (a constant of type `u32`, `i64`; `f32` for a decimal).
fn bound(expr: Option<&syn::Expr>, decimal: bool) -> TokenStream {
    fn literal(expr: &syn::Expr, decimal: bool) -> Option<TokenStream> {
        let digits = match expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(lit),
                ..
            }) => (lit.base10_digits(), lit.span()),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Float(lit),
                ..
            }) if decimal => (lit.base10_digits(), lit.span()),
            syn::Expr::Unary(syn::ExprUnary {
                op: syn::UnOp::Neg(_),
                expr,
                ..
            }) => return literal(expr, decimal).map(|t| quote!(-#t)),
            syn::Expr::Group(g) => return literal(&g.expr, decimal),
            _ => return None,
        };
        Some(if decimal {
            let typed = syn::LitFloat::new(&format!("{}f64", digits.0), digits.1);
            quote!(#typed)
        } else {
            let typed = syn::LitInt::new(&format!("{}i128", digits.0), digits.1);
            quote!(#typed)
        })
    }
    let ty = if decimal { quote!(f64) } else { quote!(i128) };
    match expr {
        None => quote!(::core::option::Option::None),
        Some(e) => {
            let value = literal(e, decimal).unwrap_or_else(
                || quote_spanned!(syn::spanned::Spanned::span(e)=> <#ty as ::core::convert::From<_>>::from(#e)),
            );
            quote!(::core::option::Option::Some(#value))
        }
    }
}

/// The `impl Validate` for a model that passed every check.
pub fn emit(model: &Model) -> TokenStream {
    let l = Locals::new(model);
    let fields = model.fields.iter().map(|f| field(model, f, &l));
    let struct_rules = model.struct_rules.iter().map(|r| struct_rule(model, r, &l));
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

/// The name of field `ident` in paths (its `Field::name`).
fn name_of(model: &Model, ident: &Ident) -> String {
    model
        .fields
        .iter()
        .find(|f| f.ident == *ident)
        .map_or_else(|| unraw(ident), |f| f.name.clone())
}

/// How the struct reads in messages (`TaskEnvelope` → `task envelope`).
fn words(ident: &Ident) -> String {
    specmint_suggest::words(&unraw(ident))
}

fn field(model: &Model, f: &Field, l: &Locals) -> TokenStream {
    if f.rules.is_empty() {
        return TokenStream::new();
    }
    let Locals {
        krate,
        path,
        field_path,
        list,
        ..
    } = l;
    let name = &f.name;
    // One `ListField::items` call per field, shared by its list rules, at the first list
    // rule's name (where a field that is no list gets its one error).
    let list_rule = f.rules.iter().find(|r| {
        matches!(
            r.kind,
            RuleKind::ListLimit(_)
                | RuleKind::Each(_)
                | RuleKind::UniqueBy { .. }
                | RuleKind::UniqueKeys { .. }
        )
    });
    let bind_list = list_rule.map(|r| {
        let ty = r.span;
        let mut ident = f.ident.clone();
        ident.set_span(ty);
        let items = list_items(krate, &quote_spanned!(ty=> &self.#ident), ty);
        quote_spanned!(ty=> let #list = #items;)
    });
    let rules = f.rules.iter().map(|r| {
        // Type errors (a rule on a field of the wrong shape) point at the rule's name.
        let mut ident = f.ident.clone();
        ident.set_span(r.span);
        rule(
            model,
            r,
            &quote_spanned!(r.span=> &self.#ident),
            field_path,
            l,
        )
    });
    quote! {
        {
            let #field_path = #path.field(#name);
            #bind_list
            #(#rules)*
        }
    }
}

/// One call of the runtime for a rule, at the rule's name:
/// `func(subject, operands.., &at, limit, code, report);`.
struct Call<'a> {
    func: Func<'a>,
    subject: &'a TokenStream,
    operands: Vec<TokenStream>,
    /// `&at`, or `at` itself when it is a reference already (the struct's own path).
    at_ref: bool,
    at: &'a Ident,
    limit: Option<&'a syn::Expr>,
}

/// The function a call names.
enum Func<'a> {
    /// `krate::module::name`.
    Runtime {
        krate: &'a syn::Path,
        module: &'static str,
        name: Ident,
    },
    /// A user's function (`custom = path::to_fn`).
    User(&'a syn::Path),
}

impl ToTokens for Func<'_> {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            Func::Runtime {
                krate,
                module,
                name,
            } => {
                let span = name.span();
                krate.to_tokens(tokens);
                path_sep(span, tokens);
                Ident::new(module, span).to_tokens(tokens);
                path_sep(span, tokens);
                name.to_tokens(tokens);
            }
            Func::User(path) => path.to_tokens(tokens),
        }
    }
}

/// `::` at `span`.
fn path_sep(span: Span, tokens: &mut TokenStream) {
    let mut first = Punct::new(':', Spacing::Joint);
    first.set_span(span);
    let mut second = Punct::new(':', Spacing::Alone);
    second.set_span(span);
    tokens.append(first);
    tokens.append(second);
}

impl Call<'_> {
    fn emit(self, rule: &Rule, l: &Locals) -> TokenStream {
        let Call {
            func,
            subject,
            operands,
            at_ref,
            at,
            limit,
        } = self;
        let (ty, report) = (rule.span, &l.report);
        let amp = at_ref.then(|| {
            let mut amp = Punct::new('&', Spacing::Alone);
            amp.set_span(ty);
            amp
        });
        let limit = limit.iter();
        let code = rule.code.as_ref().map(code);
        let code = code.iter();
        quote_spanned!(ty=> #func(#subject, #(#operands,)* #amp #at, #(#limit,)* #(#code,)* #report);)
    }
}

/// One rule on `value` (the field, or an element in `each(..)`), reported at `at`.
///
/// Every rule calls the runtime function of its name the same way (garde's convention):
/// `rules::NAME(value, operands.., &at, limit, code, report)`. A rule adds its operands;
/// `custom` and `nested` call another function, `pattern` and the list rules wrap the call,
/// and `each` and `unique_by` are loops.
fn rule(model: &Model, rule: &Rule, value: &TokenStream, at: &Ident, l: &Locals) -> TokenStream {
    let Locals { krate, it, .. } = l;
    let ty = rule.span;
    let mut call = Call {
        func: Func::Runtime {
            krate,
            module: "rules",
            name: Ident::new(rule.name, ty),
        },
        subject: value,
        operands: Vec::new(),
        at_ref: true,
        at,
        limit: None,
    };
    match &rule.kind {
        RuleKind::Plain => {}
        RuleKind::Limit(limit) => call.limit = Some(&limit.expr),
        RuleKind::ListLimit(limit) => return list_len(rule, limit, at, l),
        RuleKind::Pattern(regex) => {
            let stat = Ident::new("__SPECMINT_PATTERN", Span::mixed_site());
            call.operands.push(quote_spanned!(ty=> &#stat));
            let call = call.emit(rule, l);
            return quote_spanned! {ty=>
                {
                    static #stat: #krate::rules::Pattern = #krate::rules::Pattern::new(#regex);
                    #call
                }
            };
        }
        RuleKind::Format(variant) => {
            let variant = Ident::new(variant, Span::call_site());
            call.operands
                .push(quote_spanned!(ty=> #krate::rules::Format::#variant));
        }
        RuleKind::Custom(func) => call.func = Func::User(func),
        RuleKind::Range { min, max } => {
            let (min, max) = (min.as_ref(), max.as_ref());
            if min.is_some_and(is_decimal) || max.is_some_and(is_decimal) {
                // A decimal bound: the field is a number (`f64`, `f32`).
                call.func = Func::Runtime {
                    krate,
                    module: "rules",
                    name: Ident::new("number_range", ty),
                };
                let (min, max) = (bound(min, true), bound(max, true));
                call.operands.push(
                    quote_spanned!(ty=> #krate::rules::NumberBounds { min: #min, max: #max }),
                );
            } else {
                let (min, max) = (bound(min, false), bound(max, false));
                call.operands
                    .push(quote_spanned!(ty=> #krate::rules::Bounds { min: #min, max: #max }));
            }
        }
        RuleKind::Scale { max, precision } => {
            let precision = precision.as_ref().map_or_else(
                || quote!(::core::option::Option::None),
                |p| {
                    let p = &p.expr;
                    quote_spanned!(ty=> ::core::option::Option::Some(#p))
                },
            );
            let max = &max.expr;
            call.operands.push(quote_spanned!(ty=> #max));
            call.operands.push(precision);
        }
        RuleKind::DecimalRange { min, max } => {
            let end = |b: &Option<(syn::LitStr, bool)>| match b {
                Some((lit, excluded)) => (quote!(::core::option::Option::Some(#lit)), *excluded),
                None => (quote!(::core::option::Option::None), false),
            };
            let ((min, min_excluded), (max, max_excluded)) = (end(min), end(max));
            call.operands
                .push(quote_spanned!(ty=> #krate::rules::DecimalBounds {
                    min: #min,
                    min_excluded: #min_excluded,
                    max: #max,
                    max_excluded: #max_excluded,
                }));
        }
        RuleKind::Each(rules) => return each(model, rules, ty, l),
        RuleKind::Nested { flatten } => {
            call.func = Func::Runtime {
                krate,
                module: "Validate",
                name: Ident::new("validate_at", ty),
            };
            if *flatten {
                (call.at_ref, call.at) = (false, &l.path);
            }
        }
        RuleKind::MaxItemsPerGroup { by, max } => {
            call.operands.push(quote_spanned!(ty=> |#it| &#it.#by));
            // Grouped by `kind`, the call (and its message) is what it always was.
            let by_name = unraw(by);
            if by_name != "kind" {
                call.func = Func::Runtime {
                    krate,
                    module: "rules",
                    name: format_ident!("{}_named", rule.name, span = ty),
                };
                call.operands.push(quote!(#by_name));
            }
            call.limit = Some(&max.expr);
        }
        RuleKind::UniqueBy { key, fold } => return unique_by(rule, key, *fold, l),
        RuleKind::UniqueKeys { keys, fold } => return unique_keys(rule, keys, *fold, l),
        RuleKind::Contradiction {
            by,
            value: value_field,
            pairs,
        } => {
            call.operands.push(quote_spanned!(ty=> |#it| &#it.#by));
            let as_str = quote_spanned!(ty=> &|#it| ::core::convert::AsRef::<str>::as_ref(&#it.#value_field));
            call.operands
                .push(named(krate, &unraw(value_field), as_str, ty));
            let pairs = pairs.iter().map(|p| {
                let (a, b, ic) = (&p.a, &p.b, p.ignore_case);
                quote!(#krate::rules::Pair { a: #a, b: #b, ignore_case: #ic })
            });
            call.operands.push(quote_spanned!(ty=> &[#(#pairs),*]));
        }
        RuleKind::Equals(expected) => call.operands.push(expected.to_token_stream()),
        RuleKind::RequiredIf { field, equals } => {
            call.operands.push(named_field(model, krate, field, ty));
            call.operands.push(quote_spanned!(ty=> &#equals));
        }
        RuleKind::Unique(fold) => call.operands.push(fold_tokens(krate, *fold, ty)),
    }
    call.emit(rule, l)
}

/// `rules::Fold { trim, ignore_case }`.
fn fold_tokens(krate: &syn::Path, fold: Fold, ty: Span) -> TokenStream {
    let Fold { trim, ignore_case } = fold;
    quote_spanned!(ty=> #krate::rules::Fold { trim: #trim, ignore_case: #ignore_case })
}

/// `max_items` / `min_items`: the runtime's non-generic core (`__private::NAME_len`) on the
/// slice `field()` bound once per field, so the only code instantiated per item type is
/// `ListField::items`, not a generic rule shell per rule.
fn list_len(rule: &Rule, limit: &Limit, at: &Ident, l: &Locals) -> TokenStream {
    let Locals {
        krate, list, items, ..
    } = l;
    let ty = rule.span;
    let subject = quote_spanned!(ty=> ::core::option::Option::Some(#items.len()));
    let call = Call {
        func: Func::Runtime {
            krate,
            module: "__private",
            name: format_ident!("{}_len", rule.name, span = ty),
        },
        subject: &subject,
        operands: Vec::new(),
        at_ref: true,
        at,
        limit: Some(&limit.expr),
    }
    .emit(rule, l);
    quote_spanned! {ty=>
        if let ::core::option::Option::Some(#items) = #list {
            #call
        }
    }
}

/// `each(..)`: the element rules on every element, in an index loop (less for rustc to
/// check and compile than iterator adaptors).
fn each(model: &Model, rules: &[Rule], ty: Span, l: &Locals) -> TokenStream {
    let Locals {
        field_path,
        list,
        items,
        index,
        item,
        item_path,
        ..
    } = l;
    let element = quote!(#item);
    let rules = rules.iter().map(|r| rule(model, r, &element, item_path, l));
    quote_spanned! {ty=>
        if let ::core::option::Option::Some(#items) = #list {
            let mut #index: usize = 0;
            while #index < #items.len() {
                let #item = &#items[#index];
                let #item_path = #field_path.index(#index);
                #(#rules)*
                #index += 1;
            }
        }
    }
}

/// `unique_by(..)`: the keys pushed one by one into the runtime's checker, so there is no
/// key accessor (a closure, its `dyn Fn` vtable and shims) to compile per item type.
fn unique_by(rule: &Rule, key: &Ident, fold: Fold, l: &Locals) -> TokenStream {
    let Locals {
        krate,
        report,
        field_path,
        list,
        items,
        keys,
        index,
        ..
    } = l;
    let ty = rule.span;
    let key_name = unraw(key);
    let fold = fold_tokens(krate, fold, ty);
    let c = rule.code.as_ref().map(code);
    quote_spanned! {ty=>
        if let ::core::option::Option::Some(#items) = #list {
            let mut #keys = #krate::__private::UniqueByKeys::new(
                #items.len(),
                #key_name,
                #fold,
                &#field_path,
                #c,
                #report,
            );
            let mut #index: usize = 0;
            while #index < #items.len() {
                {
                    // One of the two readings is used, whichever the key's type picks.
                    #[allow(unused_imports)]
                    use #krate::__private::{OptionalKey as _, PlainKey as _};
                    #keys.key((&#krate::__private::KeyProbe(&#items[#index].#key)).unique_key());
                }
                #index += 1;
            }
        }
    }
}

/// `unique_by(key = (a, b, ..))`: each item's key members pushed into the runtime's
/// compound checker, each read through `KeyMember`.
fn unique_keys(rule: &Rule, members: &[Ident], fold: Fold, l: &Locals) -> TokenStream {
    let Locals {
        krate,
        report,
        field_path,
        list,
        items,
        keys,
        index,
        ..
    } = l;
    let ty = rule.span;
    let names = members.iter().map(unraw);
    let fold = fold_tokens(krate, fold, ty);
    let c = rule.code.as_ref().map(code);
    // The member's reference spanned at the member: a type that is no key member is an
    // error there.
    let values = members.iter().map(|m| {
        // The locals keep their hygiene, located at the member.
        let at = |local: &Ident| {
            let mut local = local.clone();
            local.set_span(local.span().located_at(m.span()));
            local
        };
        let (items, index) = (at(items), at(index));
        let member = quote_spanned!(m.span()=> &#items[#index].#m);
        quote!(#krate::__private::key_value(#member))
    });
    quote_spanned! {ty=>
        if let ::core::option::Option::Some(#items) = #list {
            let mut #keys = #krate::__private::UniqueKeys::new(
                #items.len(),
                &[#(#names),*],
                #fold,
                &#field_path,
                #c,
                #report,
            );
            let mut #index: usize = 0;
            while #index < #items.len() {
                #keys.item(&[#(#values),*]);
                #index += 1;
            }
        }
    }
}

fn struct_rule(model: &Model, rule: &StructRule, l: &Locals) -> TokenStream {
    let Locals {
        krate,
        path,
        report,
        ..
    } = l;
    match rule {
        StructRule::Custom { func, span } => quote_spanned! {*span=>
            #func(self, #path, #report);
        },
        StructRule::NotEqual {
            a,
            b,
            code: c,
            span,
        }
        | StructRule::Order {
            a,
            b,
            code: c,
            span,
            ..
        } => {
            // Two fields compared: `order` also says whether equal is out of order.
            let (func, strict) = match rule {
                StructRule::Order { strict, .. } => (quote!(order), quote!(#strict,)),
                _ => (quote!(not_equal), quote!()),
            };
            let func = respan(func, *span);
            let c = code(c);
            let a = named_field(model, krate, a, *span);
            let b = named_field(model, krate, b, *span);
            quote_spanned! {*span=>
                #krate::rules::#func(
                    #a,
                    #b,
                    #strict
                    #path,
                    #c,
                    #report,
                );
            }
        }
        StructRule::MaxJsonBytes { max, code: c, span } => {
            let (c, max) = (code(c), &max.expr);
            quote_spanned! {*span=>
                #krate::rules::max_json_bytes(self, #path, #max, #c, #report);
            }
        }
        StructRule::NotContains {
            list,
            value,
            code: c,
            span,
        } => {
            let c = code(c);
            let list = named_field(model, krate, list, *span);
            let value = named_field(model, krate, value, *span);
            let owner = words(&model.ident);
            quote_spanned! {*span=>
                #krate::rules::not_contains(
                    #list,
                    #value,
                    #owner,
                    #path,
                    #c,
                    #report,
                );
            }
        }
        StructRule::Digest {
            sha256,
            data,
            encoding,
            label,
            length,
            code: c,
            span,
        } => {
            let c = code(c);
            let text = |ident: &Ident| {
                quote_spanned! {ident.span()=>
                    #krate::rules::TextField::text(&self.#ident)
                }
            };
            let (sha256_name, data_name) = (name_of(model, sha256), name_of(model, data));
            let (sha256, data) = (text(sha256), text(data));
            let encoding = quote_spanned! {encoding.span()=> &self.#encoding};
            let label = match label {
                Some(ident) => text(ident),
                None => quote!(::core::option::Option::None),
            };
            let (length, length_name) = match length {
                Some(ident) => (
                    quote_spanned! {ident.span()=>
                        #krate::rules::ByteCount::byte_count(&self.#ident)
                    },
                    name_of(model, ident),
                ),
                None => (quote!(::core::option::Option::None), String::new()),
            };
            quote_spanned! {*span=>
                #krate::rules::digest(
                    &#krate::rules::DigestFields {
                        sha256: #sha256,
                        sha256_name: #sha256_name,
                        data: #data,
                        data_name: #data_name,
                        encoding: #encoding,
                        label: #label,
                        length: #length,
                        length_name: #length_name,
                    },
                    #path,
                    #c,
                    #report,
                );
            }
        }
    }
}

fn unraw(ident: &Ident) -> String {
    syn::ext::IdentExt::unraw(ident).to_string()
}
