//! Shapes: the `SHAPES` constant, what the typed parse accepts as data, for the runtime's
//! walker that lists every shape problem of a refused document (`specmint_runtime::shape`).

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::*;

impl Ctx<'_> {
    /// `pub static SHAPES`: every type of the spec, referring to each other by index.
    ///
    /// A static, and the slices of types with owned variants (types, union variants,
    /// selector cases) statics of their own inside its initializer: a constant could not
    /// hold a borrowed slice of values that have destructors.
    pub(super) fn shapes(&self) -> TokenStream {
        let rt = &self.rt;
        let spec = self.spec;
        let root = spec
            .types
            .iter()
            .position(|t| t.name() == spec.root)
            .expect("checked: the root is a type");
        let mut statics = Vec::new();
        let types: Vec<TokenStream> = spec
            .types
            .iter()
            .map(|t| match t {
                TypeDef::Object(o) => self.object_shape(o, &mut statics),
                TypeDef::Enum(e) => {
                    let name = &e.name;
                    let values = e.values.iter().map(|v| &v.value);
                    quote!(#rt::shape::TypeShape::enumeration(#name, &[#(#values),*]))
                }
                TypeDef::Union(u) => {
                    let name = &u.name;
                    let tag = &u.tag;
                    let short = u.short_form;
                    let variants = u.variants.iter().map(|v| {
                        let tv = &v.tag_value;
                        // A member is read as `None` when absent only when it is nullable.
                        let fields = v.members.iter().map(|m| {
                            self.field_shape(m, self.value_shape(m, m.ty.nullable), !m.ty.nullable)
                        });
                        quote!(#rt::shape::VariantShape::new(#tv, &[#(#fields),*]))
                    });
                    let variants = slice_static(
                        &mut statics,
                        quote!(#rt::shape::VariantShape),
                        variants.collect(),
                    );
                    quote! {
                        #rt::shape::TypeShape::Union(#rt::shape::UnionShape {
                            name: #name,
                            tag: #tag,
                            short_form: #short,
                            variants: ::std::borrow::Cow::Borrowed(&#variants),
                        })
                    }
                }
            })
            .collect();
        let d = doc(&format!(
            "The shape of {} documents (keys, kinds, required members, enum values): every shape problem of a refused document is listed from it.",
            spec.document_name
        ));
        let root = usize_lit(root as u64);
        let types = slice_static(&mut statics, quote!(#rt::shape::TypeShape), types);
        quote! {
            #d
            pub static SHAPES: #rt::shape::Shapes<'static> = {
                #(#statics)*
                #rt::shape::Shapes::new(#root, &#types)
            };
        }
    }

    fn type_index(&self, table: &str) -> TokenStream {
        let i = self
            .spec
            .types
            .iter()
            .position(|t| t.name() == table)
            .expect("checked type");
        let i = usize_lit(i as u64);
        quote!(#i)
    }

    /// A `ValueShape` of `f`'s type; `nullable` when `null` reads as absent (an `Option`).
    fn value_shape(&self, f: &Field, nullable: bool) -> TokenStream {
        let rt = &self.rt;
        let kind = match &f.ty.base {
            Base::String => quote!(Str),
            Base::Bool => quote!(Bool),
            Base::U32 => quote!(U32),
            Base::U64 => quote!(U64),
            Base::I64 => quote!(I64),
            Base::Number => quote!(Number),
            Base::Any => quote!(Any),
            Base::Selected(_) => quote!(Selected),
            Base::Object(n) | Base::Enum(n) | Base::Union(n) => {
                let i = self.type_index(n);
                quote!(Type(#i))
            }
        };
        let array = f.ty.array.then(|| quote!(.array()));
        let nullable = nullable.then(|| quote!(.nullable()));
        quote!(#rt::shape::ValueShape::new(#rt::shape::Kind::#kind)#array #nullable)
    }

    fn field_shape(&self, f: &Field, value: TokenStream, required: bool) -> TokenStream {
        let rt = &self.rt;
        let key = &f.key;
        quote!(#rt::shape::FieldShape::new(#key, #value, #required))
    }

    fn object_shape(&self, o: &Object, statics: &mut Vec<TokenStream>) -> TokenStream {
        let rt = &self.rt;
        let name = &o.name;
        let fields: Vec<TokenStream> = o
            .fields
            .iter()
            .map(|f| {
                let chooses = o.selector.as_ref().is_some_and(|s| s.by.key == f.key);
                // The selector's member and the members it chooses are always required.
                let required =
                    chooses || matches!(f.ty.base, Base::Selected(_)) || !absent_is_read(f);
                let nullable = f.ty.nullable || f.read_optional() || f.is_optional_any();
                self.field_shape(f, self.value_shape(f, nullable), required)
            })
            .collect();
        if !o.open && o.selector.is_none() {
            return quote!(#rt::shape::TypeShape::object(#name, &[#(#fields),*]));
        }
        let open = o.open;
        let selector = match &o.selector {
            None => quote!(::core::option::Option::None),
            Some(sel) => {
                let by = &sel.by.key;
                let members = &sel.members;
                let cases = sel.cases.iter().map(|c| {
                    let value = &c.value;
                    let tables = c.tables.iter().map(|t| self.type_index(t));
                    quote!(#rt::shape::SelectorCaseShape::new(#value, &[#(#tables),*]))
                });
                let cases = slice_static(
                    statics,
                    quote!(#rt::shape::SelectorCaseShape),
                    cases.collect(),
                );
                quote! {
                    ::core::option::Option::Some(#rt::shape::SelectorShape {
                        by: #by,
                        members: ::std::borrow::Cow::Borrowed(&[#(#members),*]),
                        cases: ::std::borrow::Cow::Borrowed(&#cases),
                    })
                }
            }
        };
        quote! {
            #rt::shape::TypeShape::Object(#rt::shape::ObjectShape {
                name: #name,
                fields: ::std::borrow::Cow::Borrowed(&[#(#fields),*]),
                open: #open,
                selector: #selector,
            })
        }
    }
}

/// A static array of `items` (of type `ty`) added to `statics`; its name.
fn slice_static(statics: &mut Vec<TokenStream>, ty: TokenStream, items: Vec<TokenStream>) -> Ident {
    let name = quote::format_ident!("SLICE_{}", statics.len());
    let n = items.len();
    statics.push(quote!(static #name: [#ty<'static>; #n] = [#(#items),*];));
    name
}
