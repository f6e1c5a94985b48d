//! Shapes: what the typed parse accepts as data, for the runtime's walker that lists every
//! shape problem of a refused document (`specmint_runtime::shape`). [`shapes`] decides the
//! description once, as a runtime value; the emitter writes that value as the `SHAPES`
//! static, and the interpreter (`--spec DIR`) uses it as it is.

use std::borrow::Cow;

use proc_macro2::{Ident, TokenStream};
use quote::quote;
use specmint_runtime::shape::{
    FieldShape, Kind, ObjectShape, SelectorCaseShape, SelectorShape, Shapes, TypeShape, UnionShape,
    ValueShape, VariantShape,
};

use super::*;

/// The shape description of `spec`'s documents, its strings borrowed from `spec`.
pub(crate) fn shapes<'a>(spec: &'a Spec) -> Shapes<'a> {
    fn text(s: &str) -> &str {
        s
    }
    // A field typed by a states table holds one of its states: those tables are enum types
    // placed after the spec's own types.
    let index = |table: &str| {
        spec.types
            .iter()
            .position(|t| t.name() == table)
            .or_else(|| {
                let m = spec.machines.iter().position(|m| m.name == table)?;
                Some(spec.types.len() + m)
            })
            .expect("checked type")
    };
    let value = |f: &Field, nullable: bool| {
        let kind = match &f.ty.base {
            Base::String => Kind::Str,
            Base::Bool => Kind::Bool,
            Base::U32 => Kind::U32,
            Base::U64 => Kind::U64,
            Base::I32 => Kind::I32,
            Base::I64 => Kind::I64,
            // Any JSON number: what a decimal cannot hold is the typed read's to say.
            Base::Number | Base::Decimal { .. } => Kind::Number,
            Base::Any => Kind::Any,
            Base::Selected(_) => Kind::Selected,
            Base::Object(n) | Base::Enum(n) | Base::Union(n) => Kind::Type(index(n)),
        };
        let mut v = ValueShape::new(kind);
        if f.ty.array {
            v = v.array();
        }
        if nullable {
            v = v.nullable();
        }
        v
    };
    let field =
        |f: &'a Field, v: ValueShape, required: bool| FieldShape::new(text(&f.key), v, required);
    let types = spec
        .types
        .iter()
        .map(|t| match t {
            TypeDef::Object(o) => {
                let fields = o
                    .fields
                    .iter()
                    .map(|f| {
                        let chooses = o.selector.as_ref().is_some_and(|s| s.by.key == f.key);
                        // The selector's member and the members it chooses are always required.
                        let required =
                            chooses || matches!(f.ty.base, Base::Selected(_)) || !absent_is_read(f);
                        let nullable = f.ty.nullable || f.read_optional() || f.is_optional_any();
                        let shape = field(f, value(f, nullable), required);
                        match &f.rules.enum_code {
                            Some(code) => shape.with_enum_code(text(code)),
                            None => shape,
                        }
                    })
                    .collect::<Vec<_>>();
                TypeShape::Object(ObjectShape {
                    name: text(&o.name),
                    fields: Cow::Owned(fields),
                    open: o.open,
                    selector: o.selector.as_ref().map(|sel| SelectorShape {
                        by: text(&sel.by.key),
                        members: Cow::Owned(sel.members.iter().map(|m| text(m)).collect()),
                        cases: Cow::Owned(
                            sel.cases
                                .iter()
                                .map(|c| SelectorCaseShape {
                                    value: text(&c.value),
                                    tables: Cow::Owned(c.tables.iter().map(|t| index(t)).collect()),
                                })
                                .collect(),
                        ),
                    }),
                })
            }
            TypeDef::Enum(e) => TypeShape::Enum(specmint_runtime::shape::EnumShape {
                name: text(&e.name),
                values: Cow::Owned(e.values.iter().map(|v| text(&v.value)).collect()),
            }),
            TypeDef::Union(u) => TypeShape::Union(UnionShape {
                name: text(&u.name),
                tag: text(&u.tag),
                short_form: u.short_form,
                variants: Cow::Owned(
                    u.variants
                        .iter()
                        .map(|v| VariantShape {
                            tag_value: text(&v.tag_value),
                            // A member is read as `None` when absent only when it is nullable.
                            fields: Cow::Owned(
                                v.members
                                    .iter()
                                    .map(|m| field(m, value(m, m.ty.nullable), !m.ty.nullable))
                                    .collect(),
                            ),
                        })
                        .collect(),
                ),
            }),
        })
        .chain(spec.machines.iter().map(|m| {
            TypeShape::Enum(specmint_runtime::shape::EnumShape {
                name: text(&m.name),
                values: Cow::Owned(m.states.iter().map(|st| text(&st.value)).collect()),
            })
        }))
        .collect::<Vec<_>>();
    let root = index(&spec.root);
    Shapes {
        root,
        types: Cow::Owned(types),
    }
}

impl Ctx<'_> {
    /// `pub static SHAPES`: [`shapes`] written out, types referring to each other by index.
    ///
    /// A static, and the slices of types with owned variants (types, union variants,
    /// selector cases) statics of their own inside its initializer: a constant could not
    /// hold a borrowed slice of values that have destructors.
    pub(super) fn shapes(&self) -> TokenStream {
        let rt = &self.rt;
        let described = shapes(self.spec);
        let mut statics = Vec::new();
        let types: Vec<TokenStream> = described
            .types
            .iter()
            .map(|t| match t {
                TypeShape::Object(o) => self.object_tokens(o, &mut statics),
                TypeShape::Enum(e) => {
                    let name = e.name;
                    let values = e.values.iter();
                    quote!(#rt::shape::TypeShape::enumeration(#name, &[#(#values),*]))
                }
                TypeShape::Union(u) => {
                    let (name, tag, short) = (u.name, u.tag, u.short_form);
                    let variants = u.variants.iter().map(|v| {
                        let tv = v.tag_value;
                        let fields = v.fields.iter().map(|f| self.field_tokens(f));
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
            self.spec.document_name
        ));
        let root = usize_lit(described.root as u64);
        let types = slice_static(&mut statics, quote!(#rt::shape::TypeShape), types);
        quote! {
            #d
            pub static SHAPES: #rt::shape::Shapes<'static> = {
                #(#statics)*
                #rt::shape::Shapes::new(#root, &#types)
            };
        }
    }

    fn field_tokens(&self, f: &FieldShape<'_>) -> TokenStream {
        let rt = &self.rt;
        let key = f.key;
        let kind = match f.value.kind {
            Kind::Str => quote!(Str),
            Kind::Bool => quote!(Bool),
            Kind::U32 => quote!(U32),
            Kind::U64 => quote!(U64),
            Kind::I32 => quote!(I32),
            Kind::I64 => quote!(I64),
            Kind::Number => quote!(Number),
            Kind::Any => quote!(Any),
            Kind::Selected => quote!(Selected),
            Kind::Type(i) => {
                let i = usize_lit(i as u64);
                quote!(Type(#i))
            }
        };
        let array = f.value.array.then(|| quote!(.array()));
        let nullable = f.value.nullable.then(|| quote!(.nullable()));
        let required = f.required;
        let code = f.enum_code.map(|c| quote!(.with_enum_code(#c)));
        quote! {
            #rt::shape::FieldShape::new(
                #key,
                #rt::shape::ValueShape::new(#rt::shape::Kind::#kind)#array #nullable,
                #required,
            )#code
        }
    }

    fn object_tokens(&self, o: &ObjectShape<'_>, statics: &mut Vec<TokenStream>) -> TokenStream {
        let rt = &self.rt;
        let name = o.name;
        let fields: Vec<TokenStream> = o.fields.iter().map(|f| self.field_tokens(f)).collect();
        if !o.open && o.selector.is_none() {
            return quote!(#rt::shape::TypeShape::object(#name, &[#(#fields),*]));
        }
        let open = o.open;
        let selector = match &o.selector {
            None => quote!(::core::option::Option::None),
            Some(sel) => {
                let by = sel.by;
                let members = sel.members.iter();
                let cases = sel.cases.iter().map(|c| {
                    let value = c.value;
                    let tables = c.tables.iter().map(|&t| usize_lit(t as u64));
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
