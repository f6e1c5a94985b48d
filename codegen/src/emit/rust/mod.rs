//! Emit Rust: quote → syn::File → prettyplease. Cannot fail on a checked model.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::options::{parse_attributes, type_path_matches, Options};
use crate::model::*;
use crate::names::is_raw_keyword;

mod document;
mod enums;
mod examples;
mod object;
mod selector;
mod shape;
pub(crate) use shape::shapes;
mod union;

struct Ctx<'a> {
    spec: &'a Spec,
    options: &'a Options,
    rt: TokenStream,
    derive: TokenStream,
    rt_str: String,
    /// `serde`, through the runtime's re-export (a user's crate needs no `serde` of its own).
    serde: TokenStream,
    /// `serde_json`, likewise.
    serde_json: TokenStream,
    /// `#[serde(crate = "..")]` for serde's derives: the same re-export.
    serde_crate: TokenStream,
    /// `(table, key)` of the fields and union members held in a `Box` ([`recursive_members`]).
    boxed: BTreeSet<(String, String)>,
}

/// The fields and union members (`(table, key)`) that make a table contain itself without a
/// `Vec` between (`a.next: b?`, `b.back: a?`): every one whose type, not a list, is a table of
/// the same strongly connected component of the "holds a value of" graph as its own. Each is
/// held in a `Box` (`Option<Box<B>>`), so the Rust types have a size (rustc's E0072). A
/// selector's chosen members are edges of the graph but are not boxed: a cycle through one
/// has a field or member edge too, or the spec cannot be written as JSON.
fn recursive_members(spec: &Spec) -> BTreeSet<(String, String)> {
    // Every table, its direct members (not lists) of a table type, and the tables it selects.
    let mut members: Vec<(&str, &str, &str)> = Vec::new();
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    fn target(ty: &TypeRef) -> Option<&str> {
        match &ty.base {
            Base::Object(n) | Base::Union(n) if !ty.array => Some(n),
            _ => None,
        }
    }
    for t in &spec.types {
        match t {
            TypeDef::Object(o) => {
                for f in &o.fields {
                    if let Some(n) = target(&f.ty) {
                        members.push((&o.name, &f.key, n));
                    }
                }
                for case in o.selector.iter().flat_map(|s| &s.cases) {
                    for n in &case.tables {
                        edges.entry(&o.name).or_default().insert(n);
                    }
                }
            }
            TypeDef::Union(u) => {
                for m in u.variants.iter().flat_map(|v| &v.members) {
                    if let Some(n) = target(&m.ty) {
                        members.push((&u.name, &m.key, n));
                    }
                }
            }
            TypeDef::Enum(_) => {}
        }
    }
    for &(from, _, to) in &members {
        edges.entry(from).or_default().insert(to);
    }
    // What each table reaches: one walk per table over the tables' edges (a spec has few
    // tables; the fields, however many, are edges counted once).
    let reaches = |from: &str, to: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(t) = stack.pop() {
            for &next in edges.get(t).into_iter().flatten() {
                if next == to {
                    return true;
                }
                if seen.insert(next) {
                    stack.push(next);
                }
            }
        }
        false
    };
    let mut back: BTreeMap<(&str, &str), bool> = BTreeMap::new();
    members
        .into_iter()
        .filter(|&(from, _, to)| *back.entry((to, from)).or_insert_with(|| reaches(to, from)))
        .map(|(table, key, _)| (table.to_owned(), key.to_owned()))
        .collect()
}

fn ident(s: &str) -> Ident {
    if is_raw_keyword(s) {
        Ident::new_raw(s, Span::call_site())
    } else {
        Ident::new(s, Span::call_site())
    }
}

fn doc(text: &str) -> TokenStream {
    let lines: Vec<TokenStream> = text
        .lines()
        .map(|l| {
            let l = format!(" {}", l.trim_end());
            quote!(#[doc = #l])
        })
        .collect();
    if lines.is_empty() {
        quote!(#[doc = " "])
    } else {
        quote!(#(#lines)*)
    }
}

fn usize_lit(n: u64) -> Literal {
    Literal::u64_unsuffixed(n)
}

/// The path string parsed as tokens (checked in `generate`).
pub(crate) fn path_tokens(s: &str) -> TokenStream {
    syn::parse_str::<syn::Path>(s)
        .map(|p| quote!(#p))
        .expect("checked in generate")
}

/// Renders one spec as a Rust file meant to be `include!`d inside `pub mod <name> { .. }`.
pub(crate) fn emit(spec: &Spec, options: &Options, note: &str) -> String {
    let c = Ctx {
        spec,
        options,
        rt: path_tokens(&options.runtime_path),
        derive: path_tokens(&options.derive_path),
        rt_str: options.runtime_path.clone(),
        serde: path_tokens(&format!("{}::__private::serde", options.runtime_path)),
        serde_json: path_tokens(&format!("{}::__private::serde_json", options.runtime_path)),
        serde_crate: {
            let path = format!("{}::__private::serde", options.runtime_path);
            quote!(#[serde(crate = #path)])
        },
        boxed: recursive_members(spec),
    };
    let mut items = Vec::new();
    items.push(c.caps());
    for t in &spec.types {
        if let TypeDef::Enum(e) = t {
            items.push(c.enum_def(e));
        }
    }
    for t in &spec.types {
        if let TypeDef::Object(o) = t {
            items.push(c.object(o));
        }
    }
    for t in &spec.types {
        if let TypeDef::Union(u) = t {
            items.push(c.union(u));
        }
    }
    for m in &spec.machines {
        items.push(c.machine(m));
    }
    items.push(c.filled());
    items.push(c.error_enum());
    items.push(c.consts());
    items.push(c.shapes());
    items.push(c.document());
    items.push(c.example_tests());
    let tokens = quote!(#(#items)*);
    let file: syn::File = syn::parse2(tokens).expect("generated Rust parses");
    let body = space_items(&prettyplease::unparse(&file));
    format!("// {note}\n\n{body}")
}

/// Puts a blank line between top-level items (prettyplease packs them together).
fn space_items(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + src.len() / 16);
    let mut prev_ended_item = false;
    for line in src.lines() {
        let top = !line.starts_with(' ') && !line.is_empty();
        if top && prev_ended_item && !line.starts_with('}') {
            out.push('\n');
        }
        prev_ended_item = top && (line.ends_with('}') || line.ends_with(';'));
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The outer attributes in `attr` (checked in `generate`).
fn attr_tokens(attr: &str) -> TokenStream {
    let attrs = parse_attributes(attr).expect("checked in generate");
    quote!(#(#attrs)*)
}

impl Ctx<'_> {
    /// The attributes [`Options::type_attributes`] adds to the type of `table`.
    fn type_attrs(&self, table: &str) -> TokenStream {
        let attrs = self
            .options
            .type_attributes
            .iter()
            .filter(|(path, _)| type_path_matches(path, &self.spec.name, table))
            .map(|(_, attr)| attr_tokens(attr));
        quote!(#(#attrs)*)
    }

    /// [`Ctx::type_attrs`] without the struct-level `custom = path` checks of its
    /// `#[validate(..)]` attributes, and those paths in order: the derive takes one such
    /// check per struct, and a struct whose generated code needs its own calls the user's
    /// from it.
    fn type_attrs_without_custom(&self, table: &str) -> (TokenStream, Vec<syn::Path>) {
        use syn::punctuated::Punctuated;
        let mut customs = Vec::new();
        let mut out = Vec::new();
        let attrs = self
            .options
            .type_attributes
            .iter()
            .filter(|(path, _)| type_path_matches(path, &self.spec.name, table))
            .flat_map(|(_, attr)| parse_attributes(attr).expect("checked in generate"));
        for attr in attrs {
            let items = attr
                .path()
                .is_ident("validate")
                .then(|| {
                    attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
                        .ok()
                })
                .flatten();
            let Some(items) = items else {
                out.push(quote!(#attr));
                continue;
            };
            let mut rest = Vec::new();
            for item in items {
                match item {
                    syn::Meta::NameValue(syn::MetaNameValue {
                        path,
                        value: syn::Expr::Path(p),
                        ..
                    }) if path.is_ident("custom") => customs.push(p.path),
                    item => rest.push(item),
                }
            }
            if !rest.is_empty() {
                out.push(quote!(#[validate(#(#rest),*)]));
            }
        }
        (quote!(#(#out)*), customs)
    }

    /// The attributes [`Options::field_attributes`] adds to field `key` of `table`.
    fn field_attrs(&self, table: &str, key: &str) -> TokenStream {
        let want = format!("{}.{table}.{key}", self.spec.name);
        let attrs = self
            .options
            .field_attributes
            .iter()
            .filter(|(path, _)| *path == want)
            .map(|(_, attr)| attr_tokens(attr));
        quote!(#(#attrs)*)
    }

    /// `Filled` for every type of the spec (states tables too): a `required` or `required_if` rule on a field of
    /// that type (`observer?` required when a sibling has a value) needs it, and a value of a
    /// table, enum or union type counts as given whenever it is present.
    fn filled(&self) -> TokenStream {
        let rt = &self.rt;
        let types = self.spec.types.iter().map(TypeDef::rust_name);
        let states = self.spec.machines.iter().map(|m| m.rust_name.as_str());
        let names = types.chain(states).map(ident);
        quote!(#(impl #rt::rules::Filled for #names {})*)
    }

    fn type_name(&self, table: &str) -> Ident {
        ident(self.spec.rust_name_of(table).expect("checked type"))
    }

    fn rust_type(&self, ty: &TypeRef) -> TokenStream {
        let base = match &ty.base {
            Base::String => quote!(::std::string::String),
            Base::Bool => quote!(bool),
            Base::U32 => quote!(u32),
            Base::U64 => quote!(u64),
            Base::I32 => quote!(i32),
            Base::I64 => quote!(i64),
            Base::Number => quote!(f64),
            Base::Decimal { .. } => {
                let rt = &self.rt;
                quote!(#rt::decimal::Decimal)
            }
            Base::Any => {
                let rt = &self.rt;
                quote!(#rt::json::Json)
            }
            Base::Object(n) | Base::Enum(n) | Base::Union(n) => {
                let i = self.type_name(n);
                quote!(#i)
            }
            Base::Selected(_) => unreachable!("chosen members live in the body enum"),
        };
        let t = if ty.array {
            quote!(::std::vec::Vec<#base>)
        } else {
            base
        };
        if ty.nullable {
            quote!(::core::option::Option<#t>)
        } else {
            t
        }
    }

    /// The Rust type of member `f` of `table` (a union's member too): its type, its table
    /// in a `Box` when it holds `table` again ([`recursive_members`]).
    fn member_type(&self, table: &str, f: &Field) -> TokenStream {
        if !self.boxed.contains(&(table.to_owned(), f.key.clone())) {
            return self.rust_type(&f.ty);
        }
        let inner = self.rust_type(&TypeRef {
            nullable: false,
            ..f.ty.clone()
        });
        let boxed = quote!(::std::boxed::Box<#inner>);
        if f.ty.nullable {
            quote!(::core::option::Option<#boxed>)
        } else {
            boxed
        }
    }

    /// The Rust type of field `f` of `table`: its type ([`Ctx::member_type`]), in `Option`
    /// when a rule checks its presence.
    fn field_type(&self, table: &str, f: &Field) -> TokenStream {
        let ty = self.member_type(table, f);
        if (f.read_optional() && !f.ty.nullable) || f.is_optional_any() {
            quote!(::core::option::Option<#ty>)
        } else {
            ty
        }
    }

    fn caps(&self) -> TokenStream {
        let items = self.spec.caps.iter().map(|cap| {
            let d = doc(&format!("{}: {}", cap.label, cap.value_text));
            let name = ident(&cap.constant);
            let v = usize_lit(cap.value);
            quote!(#d pub const #name: usize = #v;)
        });
        let texts = self.spec.texts.iter().map(|t| {
            let d = doc(&t.meaning);
            let name = ident(&t.constant);
            let v = &t.value;
            quote!(#d pub const #name: &str = #v;)
        });
        quote!(#(#items)* #(#texts)*)
    }

    fn default_expr(&self, ty: &TypeRef, v: &DefaultValue) -> TokenStream {
        match v {
            DefaultValue::Bool(b) => quote!(#b),
            DefaultValue::UInt(n) => {
                let l = Literal::u64_unsuffixed(*n);
                quote!(#l)
            }
            DefaultValue::Int(n) => {
                let l = Literal::i64_unsuffixed(*n);
                quote!(#l)
            }
            DefaultValue::Number(n) => {
                let l = Literal::f64_unsuffixed(*n);
                quote!(#l)
            }
            DefaultValue::String(s) => quote!(::std::string::String::from(#s)),
            DefaultValue::Enum { variant, .. } => {
                let Base::Enum(n) = &ty.base else {
                    unreachable!("checked: enum default on an enum field")
                };
                let t = self.type_name(n);
                let vi = ident(variant);
                quote!(#t::#vi)
            }
        }
    }

    fn consts(&self) -> TokenStream {
        let keys = &self.spec.forbidden_keys;
        let fd = doc(&format!(
            "Keys refused anywhere in the {} (the spec's Forbidden key table).",
            self.spec.document_name
        ));
        let examples = self.spec.examples.iter().filter_map(|ex| {
            let n = ex.const_name.as_ref()?;
            let ni = ident(n);
            let t = &ex.text;
            let d = doc(&format!(
                "The valid example at {}:{}, verbatim.",
                self.spec.md_path, ex.line
            ));
            Some(quote!(#d pub const #ni: &str = #t;))
        });
        let md = doc(&format!(
            "The messages in other languages, per locale: (BCP 47 tag, [(code, template)]), from \
             the spec's locale files (`{}.<tag>.md`); render a report with \
             the runtime's `messages::Catalog` (its feature `messages`).",
            self.spec.name
        ));
        let locales = self.spec.messages.iter().map(|m| {
            let tag = &m.tag;
            let rows = m
                .templates
                .iter()
                .map(|(code, text)| quote!((#code, #text)));
            quote!((#tag, &[#(#rows),*]))
        });
        quote! {
            #fd
            pub const FORBIDDEN_KEYS: &[&str] = &[#(#keys),*];
            #md
            pub const MESSAGES: &[(&str, &[(&str, &str)])] = &[#(#locales),*];
            #(#examples)*
        }
    }
}

/// Whether the typed parse reads an absent key of `f` (as its default, `None`, `[]` or `{}`)
/// instead of refusing the object.
fn absent_is_read(f: &Field) -> bool {
    f.default.is_some()
        || f.is_optional_any()
        || (!f.required && f.ty.nullable)
        || f.read_optional()
        || (!f.required && f.ty.array)
        || f.absent_is_empty
}

/// The Rust name of a chosen member (as of any field: [`crate::names::field_name`]).
fn member_rust(key: &str) -> String {
    crate::names::field_name(key)
}

impl Variant {
    fn variant_ident(&self) -> String {
        self.rust_name.clone()
    }
}
