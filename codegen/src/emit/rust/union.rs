//! Unions: a tagged enum, its short form, and its `Validate`.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::*;

impl Ctx<'_> {
    /// `visit_str` of a union with a short form: the bare tag of an all-optional variant.
    fn union_short_form(&self, u: &Union, unknown: &str) -> TokenStream {
        let name = ident(&u.rust_name);
        let serde = &self.serde;
        if !u.short_form {
            return quote!();
        }
        {
            let checks = u.variants.iter().filter(|v| v.all_optional()).map(|v| {
                let vi = ident(&v.variant_ident());
                let tv = &v.tag_value;
                let value = if v.members.is_empty() {
                    quote!(#name::#vi)
                } else {
                    let ms = v.members.iter().map(|m| {
                        let mi = ident(&m.rust_name);
                        quote!(#mi: ::core::option::Option::None)
                    });
                    quote!(#name::#vi { #(#ms),* })
                };
                quote! {
                    if token.eq_ignore_ascii_case(#tv) {
                        return ::core::result::Result::Ok(#value);
                    }
                }
            });
            quote! {
                fn visit_str<E: #serde::de::Error>(self, value: &str) -> ::core::result::Result<Self::Value, E> {
                    let token = value.trim();
                    #(#checks)*
                    ::core::result::Result::Err(E::custom(::core::format_args!(#unknown, value)))
                }
            }
        }
    }

    /// The body of a union's `validate_at`: the rules on each variant's members (item caps
    /// and minimums, the rules on each value as a struct field's `each(..)` lists them,
    /// nested), at the member's path.
    fn union_validate(&self, u: &Union) -> TokenStream {
        let name = ident(&u.rust_name);
        let rt = &self.rt;
        // Only the members with a check are bound (`..` for the rest), so the emitted match
        // leaves no unused binding in the user's crate.
        let checked = |m: &&Field| {
            m.rules.max_items.is_some()
                || m.rules.min_items.is_some()
                || !self
                    .member_value_checks(m, &quote!(v), &quote!(p))
                    .is_empty()
                || matches!(m.ty.base, Base::Object(_) | Base::Union(_))
        };
        let validate_arms = u.variants.iter().map(|v| {
            let vi = ident(&v.variant_ident());
            if v.members.is_empty() {
                return quote!(#name::#vi => {});
            }
            let ms: Vec<Ident> = v
                .members
                .iter()
                .filter(checked)
                .map(|m| ident(&m.rust_name))
                .collect();
            let checks = v.members.iter().filter(checked).map(|m| {
                let mi = ident(&m.rust_name);
                let k = &m.key;
                let mut out = Vec::new();
                // In the order a struct field's `#[validate(..)]` lists them.
                if let Some(cap) = &m.rules.max_items {
                    let (c, code) = (ident(&cap.constant), &cap.code);
                    out.push(
                        quote!(#rt::rules::max_items(#mi, &path.field(#k), #c, #code, report);),
                    );
                }
                if let Some(cap) = &m.rules.min_items {
                    let (c, code) = (ident(&cap.constant), &cap.code);
                    out.push(
                        quote!(#rt::rules::min_items(#mi, &path.field(#k), #c, #code, report);),
                    );
                }
                if m.ty.array {
                    let each = self.member_value_checks(
                        m,
                        &quote!(item),
                        &quote!(&path.field(#k).index(i)),
                    );
                    if !each.is_empty() {
                        out.push(quote! {
                            for (i, item) in #mi.iter().enumerate() {
                                #(#each)*
                            }
                        });
                    }
                } else {
                    out.extend(self.member_value_checks(m, &quote!(#mi), &quote!(&path.field(#k))));
                }
                if matches!(m.ty.base, Base::Object(_) | Base::Union(_)) {
                    out.push(quote!(#rt::Validate::validate_at(#mi, &path.field(#k), report);));
                }
                quote!(#(#out)*)
            });
            quote!(#name::#vi { #(#ms,)* .. } => { #(#checks)* })
        });
        let uses_args = u
            .variants
            .iter()
            .any(|v| v.members.iter().any(|m| checked(&m)));
        if uses_args {
            quote!(match self { #(#validate_arms)* })
        } else {
            quote!(let _ = (path, report);)
        }
    }

    /// The calls checking one value of member `m` (`value`, a reference, at `at`): not blank,
    /// char cap and minimum, pattern, format, range, in the order of the interpreter's
    /// `element_rules`.
    fn member_value_checks(
        &self,
        m: &Field,
        value: &TokenStream,
        at: &TokenStream,
    ) -> Vec<TokenStream> {
        let rt = &self.rt;
        let r = &m.rules;
        let mut out = Vec::new();
        if let Some(code) = &r.non_blank {
            out.push(quote!(#rt::rules::non_blank(#value, #at, #code, report);));
        }
        for (cap, func) in [(&r.max_chars, "max_chars"), (&r.min_chars, "min_chars")] {
            if let Some(cap) = cap {
                let (c, code, func) = (ident(&cap.constant), &cap.code, ident(func));
                out.push(quote!(#rt::rules::#func(#value, #at, #c, #code, report);));
            }
        }
        if let (Some(code), Some(re)) = (&r.pattern, &m.ty.pattern) {
            out.push(quote! {{
                static PATTERN: #rt::rules::Pattern = #rt::rules::Pattern::new(#re);
                #rt::rules::pattern(#value, &PATTERN, #at, #code, report);
            }});
        }
        if let (Some(code), Some(f)) = (&r.format, m.ty.format) {
            let variant = ident(&format!("{f:?}"));
            out.push(quote!(#rt::rules::format(#value, #rt::rules::Format::#variant, #at, #code, report);));
        }
        if let (Some(code), Some(range)) = (&r.range, m.ty.range) {
            let bound = |b: Option<i128>| match b {
                Some(n) => {
                    let abs = proc_macro2::Literal::u128_unsuffixed(n.unsigned_abs());
                    let sign = (n < 0).then(|| quote!(-));
                    quote!(::core::option::Option::Some(#sign #abs))
                }
                None => quote!(::core::option::Option::None),
            };
            let (min, max) = (bound(range.min), bound(range.max));
            out.push(quote!(#rt::rules::range(#value, #rt::rules::Bounds { min: #min, max: #max }, #at, #code, report);));
        }
        if let (Some(code), Some(range)) = (&r.range, m.ty.number_range) {
            let bound = |b: Option<f64>| match b {
                Some(n) => {
                    let abs = proc_macro2::Literal::f64_suffixed(n.abs());
                    let sign = (n < 0.0).then(|| quote!(-));
                    quote!(::core::option::Option::Some(#sign #abs))
                }
                None => quote!(::core::option::Option::None),
            };
            let (min, max) = (bound(range.min), bound(range.max));
            out.push(quote!(#rt::rules::number_range(#value, #rt::rules::NumberBounds { min: #min, max: #max }, #at, #code, report);));
        }
        out
    }

    /// A variant's members as read: a nullable one may be absent.
    fn union_read_members(&self, u: &Union, v: &Variant) -> Vec<TokenStream> {
        v.members
            .iter()
            .map(|m| {
                let mi = ident(&m.rust_name);
                let ty = self.member_type(&u.name, m);
                let k = &m.key;
                let def = if m.ty.nullable {
                    quote!(default,)
                } else {
                    quote!()
                };
                quote!(#[serde(#def rename = #k)] #mi: #ty,)
            })
            .collect()
    }

    /// The `match` arms reading each variant's members as a struct of their own, in place
    /// after a leading tag (`rest`), by the tag's index.
    fn union_in_place(&self, u: &Union) -> Vec<TokenStream> {
        let name = ident(&u.rust_name);
        let (serde, serde_crate) = (&self.serde, &self.serde_crate);
        u.variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let vi = ident(&v.variant_ident());
                let si = ident(&format!("Members{i}"));
                let ms = self.union_read_members(u, v);
                let names: Vec<Ident> = v.members.iter().map(|m| ident(&m.rust_name)).collect();
                let (binding, value) = if names.is_empty() {
                    (quote!(_), quote!(#name::#vi))
                } else {
                    (
                        quote!(members),
                        quote!(#name::#vi { #(#names: members.#names),* }),
                    )
                };
                let pattern = if i + 1 == u.variants.len() {
                    quote!(_)
                } else {
                    quote!(#i)
                };
                quote! {
                    #pattern => {
                        #[derive(#serde::Deserialize)]
                        #serde_crate
                        #[serde(deny_unknown_fields)]
                        struct #si { #(#ms)* }
                        let #binding = <#si as #serde::Deserialize>::deserialize(
                            #serde::de::value::MapAccessDeserializer::new(rest),
                        )?;
                        #value
                    }
                }
            })
            .collect()
    }

    pub(super) fn union(&self, u: &Union) -> TokenStream {
        let name = ident(&u.rust_name);
        let (serde, serde_crate) = (&self.serde, &self.serde_crate);
        let rt = &self.rt;
        let d = doc(&u.doc);
        // After the derives, whose helper attributes a user's may be.
        let attrs = self.type_attrs(&u.name);
        let tag = &u.tag;
        let variants = u.variants.iter().map(|v| {
            let vd = doc(&v.doc);
            let vi = ident(&v.variant_ident());
            let tv = &v.tag_value;
            if v.members.is_empty() {
                quote!(#vd #[serde(rename = #tv)] #vi,)
            } else {
                let ms = v.members.iter().map(|m| {
                    let md = doc(&m.doc);
                    let mi = ident(&m.rust_name);
                    let ty = self.member_type(&u.name, m);
                    let rename = if m.rust_name != m.key {
                        let k = &m.key;
                        quote!(#[serde(rename = #k)])
                    } else {
                        quote!()
                    };
                    quote!(#md #rename #mi: #ty,)
                });
                quote!(#vd #[serde(rename = #tv)] #vi { #(#ms)* },)
            }
        });
        let tagged_variants = u.variants.iter().map(|v| {
            let vi = ident(&v.variant_ident());
            let tv = &v.tag_value;
            let ms = self.union_read_members(u, v);
            quote!(#[serde(rename = #tv)] #vi { #(#ms)* },)
        });
        let convert = u.variants.iter().map(|v| {
            let vi = ident(&v.variant_ident());
            let ms: Vec<Ident> = v.members.iter().map(|m| ident(&m.rust_name)).collect();
            if ms.is_empty() {
                quote!(Tagged::#vi {} => #name::#vi,)
            } else {
                quote!(Tagged::#vi { #(#ms),* } => #name::#vi { #(#ms),* },)
            }
        });
        let in_place = self.union_in_place(u);
        let tag_values = u.variants.iter().map(|v| &v.tag_value);
        let (expecting, unknown) = u.reader_texts();
        let visit_str = self.union_short_form(u, &unknown);
        let validate_body = self.union_validate(u);
        quote! {
            #d
            #[derive(Debug, Clone, PartialEq, #serde::Serialize)]
            #serde_crate
            #[serde(tag = #tag)]
            #attrs
            pub enum #name { #(#variants)* }

            impl<'de> #serde::Deserialize<'de> for #name {
                fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                    #[derive(#serde::Deserialize)]
                    #serde_crate
                    #[serde(tag = #tag, deny_unknown_fields)]
                    enum Tagged { #(#tagged_variants)* }

                    struct Visitor;

                    impl<'de> #serde::de::Visitor<'de> for Visitor {
                        type Value = #name;

                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(#expecting)
                        }

                        #visit_str

                        // A tag first: the variant's members are read in place, so an error
                        // in one is placed at it. Otherwise as serde's internally tagged enum.
                        fn visit_map<A: #serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<Self::Value, A::Error> {
                            let first = #serde::de::MapAccess::next_key::<::std::string::String>(&mut map)?;
                            if first.as_deref() != ::core::option::Option::Some(#tag) {
                                let tagged = <Tagged as #serde::Deserialize>::deserialize(
                                    #serde::de::value::MapAccessDeserializer::new(#rt::__private::Replay::new(first, map)),
                                )?;
                                return ::core::result::Result::Ok(match tagged { #(#convert)* });
                            }
                            let index = #serde::de::MapAccess::next_value_seed(
                                &mut map,
                                #rt::__private::TagSeed(&[#(#tag_values),*]),
                            )?;
                            let rest = #rt::__private::AfterTag::new(#tag, map);
                            ::core::result::Result::Ok(match index { #(#in_place)* })
                        }
                    }

                    deserializer.deserialize_any(Visitor)
                }
            }

            impl #rt::Validate for #name {
                fn validate_at(&self, path: &#rt::Path<'_>, report: &mut #rt::Report) {
                    #validate_body
                }
            }
        }
    }
}
