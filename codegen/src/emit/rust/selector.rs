//! Selectors (`object by `field``): the body enum holding the chosen members, and the
//! flat `Serialize` / any-order `Deserialize` of the object that holds it.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::*;
use crate::names::snake_case;

impl Ctx<'_> {
    /// The body enum of a selector, with its `Validate`.
    pub(super) fn body_enum(&self, sel: &Selector) -> TokenStream {
        let rt = &self.rt;
        let body = ident(&sel.body_rust);
        let en = ident(&sel.enum_rust);
        let by = ident(&sel.by.rust);
        let member_idents: Vec<Ident> =
            sel.members.iter().map(|m| ident(&member_rust(m))).collect();
        let en_def = self.spec.type_def(&sel.enum_name);
        let value_doc = |v: &str| match en_def {
            Some(TypeDef::Enum(e)) => e
                .values
                .iter()
                .find(|x| x.value == v)
                .map(|x| x.doc.clone())
                .unwrap_or_default(),
            _ => String::new(),
        };
        let variants = sel.cases.iter().map(|c| {
            let vd = doc(&format!("`{}`: {}", c.value, value_doc(&c.value)));
            let vi = ident(&c.variant);
            let ms = c
                .tables
                .iter()
                .zip(&member_idents)
                .zip(&sel.members)
                .map(|((t, mi), m)| {
                    let ti = self.type_name(t);
                    let md = doc(&format!("`{m}` of `{}`.", c.value));
                    quote!(#md #mi: #ti,)
                });
            quote!(#vd #vi { #(#ms)* },)
        });
        let by_arms = sel.cases.iter().map(|c| {
            let vi = ident(&c.variant);
            quote!(#body::#vi { .. } => #en::#vi,)
        });
        let validate_arms = sel.cases.iter().map(|c| {
            let vi = ident(&c.variant);
            let checks =
                sel.members.iter().zip(&member_idents).map(
                    |(k, mi)| quote!(#rt::Validate::validate_at(#mi, &path.field(#k), report);),
                );
            quote!(#body::#vi { #(#member_idents),* } => { #(#checks)* })
        });
        let d = doc(&format!(
            "`{}` with the members it chooses ({}): one variant per value, each holding the members' tables.",
            sel.by.key,
            sel.members
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let md = doc(&format!("The value of `{}`.", sel.by.key));
        quote! {
            #d
            #[derive(Debug, Clone, PartialEq)]
            pub enum #body { #(#variants)* }

            impl #body {
                #md
                pub const fn #by(&self) -> #en {
                    match self { #(#by_arms)* }
                }
            }

            /// `path` is the owner's own path: the owner holds this value with
            /// `#[validate(nested(flatten))]`, because its members sit beside the owner's in
            /// the JSON (`basis`, not `body.basis`).
            impl #rt::Validate for #body {
                fn validate_at(&self, path: &#rt::Path<'_>, report: &mut #rt::Report) {
                    match self { #(#validate_arms)* }
                }
            }
        }
    }

    /// The `Serialize` statements: flat, in table order.
    fn selector_ser(&self, o: &Object, sel: &Selector) -> Vec<TokenStream> {
        let body = ident(&sel.body_rust);
        let by_i = ident(&sel.by.rust);
        o.fields
            .iter()
            .map(|f| {
                let k = &f.key;
                if f.key == sel.by.key {
                    return quote!(map.serialize_entry(#k, &self.body.#by_i())?;);
                }
                if sel.members.contains(&f.key) {
                    let mi = ident(&member_rust(&f.key));
                    let arms = sel.cases.iter().map(|c| {
                        let vi = ident(&c.variant);
                        quote!(#body::#vi { #mi, .. } => map.serialize_entry(#k, #mi)?,)
                    });
                    return quote!(match &self.body { #(#arms)* });
                }
                let fi = ident(&f.rust_name);
                match self.skip_expr(o, f, quote!(&self.#fi)) {
                    Some(skip) => quote!(if !#skip { map.serialize_entry(#k, &self.#fi)?; }),
                    None => quote!(map.serialize_entry(#k, &self.#fi)?;),
                }
            })
            .collect()
    }

    /// The locals, key arms, final values and body arms of the any-order `Deserialize`.
    fn selector_reads(&self, o: &Object, sel: &Selector) -> Reads {
        let rt = &self.rt;
        let (serde, serde_json) = (&self.serde, &self.serde_json);
        let en = ident(&sel.enum_rust);
        let body = ident(&sel.body_rust);
        let plain: Vec<&Field> = o
            .fields
            .iter()
            .filter(|f| f.key != sel.by.key && !sel.members.contains(&f.key))
            .collect();
        let mut decls = Vec::new();
        for f in &plain {
            let l = local(&f.key);
            let ty = self.field_type(&o.name, f);
            decls.push(
                quote!(let mut #l: ::core::option::Option<#ty> = ::core::option::Option::None;),
            );
        }
        let by_local = local(&sel.by.key);
        decls.push(
            quote!(let mut #by_local: ::core::option::Option<#en> = ::core::option::Option::None;),
        );
        for m in &sel.members {
            let r = raw(m);
            let s = seen(m);
            decls.push(quote! {
                let mut #r: ::core::option::Option<#serde_json::Value> = ::core::option::Option::None;
                let mut #s = false;
            });
            for c in &sel.cases {
                let t = typed(c, m);
                let ti = self
                    .type_name(&c.tables[sel.members.iter().position(|x| x == m).expect("member")]);
                decls.push(
                    quote!(let mut #t: ::core::option::Option<#ti> = ::core::option::Option::None;),
                );
            }
        }
        let mut arms = Vec::new();
        for f in &plain {
            let k = &f.key;
            let l = local(k);
            arms.push(quote! {
                #k => {
                    if #l.is_some() {
                        return ::core::result::Result::Err(<A::Error as #serde::de::Error>::duplicate_field(#k));
                    }
                    #l = ::core::option::Option::Some(map.next_value()?);
                }
            });
        }
        {
            let k = &sel.by.key;
            arms.push(quote! {
                #k => {
                    if #by_local.is_some() {
                        return ::core::result::Result::Err(<A::Error as #serde::de::Error>::duplicate_field(#k));
                    }
                    #by_local = ::core::option::Option::Some(map.next_value()?);
                }
            });
        }
        for m in &sel.members {
            let r = raw(m);
            let s = seen(m);
            let case_arms = sel.cases.iter().map(|c| {
                let vi = ident(&c.variant);
                let t = typed(c, m);
                quote!(::core::option::Option::Some(#en::#vi) => #t = ::core::option::Option::Some(map.next_value()?),)
            });
            arms.push(quote! {
                #m => {
                    if #s {
                        return ::core::result::Result::Err(<A::Error as #serde::de::Error>::duplicate_field(#m));
                    }
                    #s = true;
                    match #by_local {
                        #(#case_arms)*
                        ::core::option::Option::None => #r = ::core::option::Option::Some(map.next_value()?),
                    }
                }
            });
        }
        let mut finals = Vec::new();
        let mut inits = Vec::new();
        for f in &plain {
            let k = &f.key;
            let l = local(k);
            let fi = ident(&f.rust_name);
            let v = if f.default.is_some() {
                let (dfn, _) = self.default_fns(o, f);
                quote!(#l.unwrap_or_else(#dfn))
            } else if f.ty.nullable || f.read_optional() {
                quote!(#l.flatten())
            } else if f.absent_is_empty || (!f.required && f.ty.array) {
                quote!(#l.unwrap_or_default())
            } else {
                quote!(#l.ok_or_else(|| <A::Error as #serde::de::Error>::missing_field(#k))?)
            };
            finals.push(quote!(let #l = #v;));
            inits.push(quote!(#fi: #l,));
        }
        let body_arms = sel.cases.iter().map(|c| {
            let vi = ident(&c.variant);
            let ms = sel.members.iter().enumerate().map(|(i, m)| {
                let mi = ident(&member_rust(m));
                let t = typed(c, m);
                let r = raw(m);
                let ti = self.type_name(&c.tables[i]);
                let prefix = format!("`{m}`: {{}}");
                quote! {
                    #mi: match (#t, #r.take()) {
                        (::core::option::Option::Some(v), _) => v,
                        (::core::option::Option::None, ::core::option::Option::Some(raw)) => {
                            <#ti as #serde::Deserialize>::deserialize(#rt::strict::Strict::new(raw))
                                .map_err(|e| <A::Error as #serde::de::Error>::custom(::core::format_args!(#prefix, e)))?
                        }
                        (::core::option::Option::None, ::core::option::Option::None) => {
                            return ::core::result::Result::Err(<A::Error as #serde::de::Error>::missing_field(#m));
                        }
                    },
                }
            });
            quote!(#en::#vi => #body::#vi { #(#ms)* },)
        });
        Reads {
            decls,
            arms,
            finals,
            inits,
            body_arms: body_arms.collect(),
        }
    }

    /// `Serialize` (flat, in table order) and `Deserialize` (members in any order) of an
    /// object with a selector.
    pub(super) fn selector_serde(&self, o: &Object, sel: &Selector) -> TokenStream {
        let serde = &self.serde;
        let name = ident(&o.rust_name);
        let ser = self.selector_ser(o, sel);
        let keys: Vec<&str> = o.fields.iter().map(|f| f.key.as_str()).collect();
        let by_local = local(&sel.by.key);
        let by_key = &sel.by.key;
        let Reads {
            decls,
            arms,
            finals,
            inits,
            body_arms,
        } = self.selector_reads(o, sel);
        let expecting = format!("struct {}", o.rust_name);
        let struct_name = o.rust_name.clone();
        quote! {
            impl #serde::Serialize for #name {
                fn serialize<S: #serde::Serializer>(&self, serializer: S) -> ::core::result::Result<S::Ok, S::Error> {
                    use #serde::ser::SerializeMap as _;
                    let mut map = serializer.serialize_map(::core::option::Option::None)?;
                    #(#ser)*
                    map.end()
                }
            }

            /// Members in any order. A chosen member that comes after the choosing field is
            /// read in place, typed (errors inside it carry its path); one that comes before is
            /// buffered and read at the end, and its errors are reported at this object's path
            /// with the member's name in the message.
            impl<'de> #serde::Deserialize<'de> for #name {
                fn deserialize<D: #serde::Deserializer<'de>>(deserializer: D) -> ::core::result::Result<Self, D::Error> {
                    const FIELDS: &[&str] = &[#(#keys),*];

                    /// Reads a member name, refusing an unknown one while it is read, so the
                    /// error's path is the member's (as serde's derive does).
                    struct Key;

                    impl<'de> #serde::de::DeserializeSeed<'de> for Key {
                        type Value = ::std::string::String;

                        fn deserialize<D: #serde::Deserializer<'de>>(self, deserializer: D) -> ::core::result::Result<Self::Value, D::Error> {
                            deserializer.deserialize_identifier(self)
                        }
                    }

                    impl<'de> #serde::de::Visitor<'de> for Key {
                        type Value = ::std::string::String;

                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str("field identifier")
                        }

                        fn visit_str<E: #serde::de::Error>(self, v: &str) -> ::core::result::Result<Self::Value, E> {
                            if FIELDS.contains(&v) {
                                ::core::result::Result::Ok(::std::string::String::from(v))
                            } else {
                                ::core::result::Result::Err(E::unknown_field(v, FIELDS))
                            }
                        }
                    }

                    struct Visitor;

                    impl<'de> #serde::de::Visitor<'de> for Visitor {
                        type Value = #name;

                        fn expecting(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                            f.write_str(#expecting)
                        }

                        fn visit_map<A: #serde::de::MapAccess<'de>>(self, mut map: A) -> ::core::result::Result<Self::Value, A::Error> {
                            #(#decls)*
                            while let ::core::option::Option::Some(key) = map.next_key_seed(Key)? {
                                match key.as_str() {
                                    #(#arms)*
                                    other => {
                                        return ::core::result::Result::Err(<A::Error as #serde::de::Error>::unknown_field(other, FIELDS));
                                    }
                                }
                            }
                            #(#finals)*
                            let body = match #by_local.ok_or_else(|| <A::Error as #serde::de::Error>::missing_field(#by_key))? {
                                #(#body_arms)*
                            };
                            ::core::result::Result::Ok(#name { #(#inits)* body })
                        }
                    }

                    deserializer.deserialize_struct(#struct_name, FIELDS, Visitor)
                }
            }
        }
    }
}

/// The local holding a plain field or the choosing field while an object is read.
fn local(k: &str) -> Ident {
    format_ident!("field_{}", snake_case(k))
}

/// The local holding member `m` read typed for case `c`.
fn typed(c: &SelectorCase, m: &str) -> Ident {
    format_ident!("case_{}_{}", snake_case(&c.variant), snake_case(m))
}

/// The local buffering member `m` when it comes before the choosing field.
fn raw(m: &str) -> Ident {
    format_ident!("raw_{}", snake_case(m))
}

/// The local saying member `m` was seen.
fn seen(m: &str) -> Ident {
    format_ident!("seen_{}", snake_case(m))
}

/// What reading an object with a selector needs, in the order the visitor uses it.
struct Reads {
    /// One local per plain field, the choosing field, and each member (raw and per case).
    decls: Vec<TokenStream>,
    /// One `match` arm per key.
    arms: Vec<TokenStream>,
    /// The plain fields' final values, and the struct's initializers.
    finals: Vec<TokenStream>,
    inits: Vec<TokenStream>,
    /// One arm per case: the body variant with its members.
    body_arms: Vec<TokenStream>,
}
