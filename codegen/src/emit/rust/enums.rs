//! String enums: enum tables, states tables and the error table become Rust enums through
//! one helper, [`Ctx::string_enum`], each with `ALL`, its spelling, `Display` and `FromStr`.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::*;

/// One variant: its doc, Rust name and spelling.
struct Row<'r> {
    doc: String,
    variant: &'r str,
    value: &'r str,
}

/// A string enum: what differs between an enum table, a states table and the error table.
struct StringEnum<'r> {
    name: Ident,
    doc: TokenStream,
    /// A user's attributes ([`Options::type_attributes`]), written after the derives.
    attrs: TokenStream,
    rows: Vec<Row<'r>>,
    /// Whether serde reads and writes a variant as its spelling.
    serde: bool,
    /// What one variant is, in docs and errors (`value`, `state`, `code`).
    noun: &'static str,
    /// The function returning the spelling (`as_str`, `code`) and its doc.
    spelling: (&'static str, &'static str),
    /// Associated items between `ALL` and the spelling function.
    after_all: TokenStream,
    /// Associated items after the spelling function.
    after_spelling: TokenStream,
}

impl Ctx<'_> {
    /// The enum, `ALL`, the spelling function, `Display` and `FromStr` of a string enum.
    fn string_enum(&self, e: StringEnum<'_>) -> TokenStream {
        let StringEnum {
            name,
            doc: d,
            attrs,
            rows,
            serde,
            noun,
            spelling: (spelling, spelling_doc),
            after_all,
            after_spelling,
        } = e;
        let spelling = ident(spelling);
        let variants = rows.iter().map(|r| {
            let vd = doc(&r.doc);
            let vi = ident(r.variant);
            let s = r.value;
            if serde {
                quote!(#vd #[serde(rename = #s)] #vi,)
            } else {
                quote!(#vd #vi,)
            }
        });
        let all = rows.iter().map(|r| {
            let vi = ident(r.variant);
            quote!(#name::#vi)
        });
        let arms = rows.iter().map(|r| {
            let vi = ident(r.variant);
            let s = r.value;
            quote!(#name::#vi => #s,)
        });
        let parse_arms = rows.iter().map(|r| {
            let vi = ident(r.variant);
            let s = r.value;
            quote!(#s => ::core::result::Result::Ok(#name::#vi),)
        });
        let derive = if serde {
            let (serde, serde_crate) = (&self.serde, &self.serde_crate);
            quote!(#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, #serde::Serialize, #serde::Deserialize)] #serde_crate)
        } else {
            quote!(#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)])
        };
        let all_doc = format!(" Every {noun}, in table order.");
        let unknown = format!("`{{}}` is not a {noun} of `{name}`");
        quote! {
            #d
            #derive
            #attrs
            pub enum #name { #(#variants)* }

            impl #name {
                #[doc = #all_doc]
                pub const ALL: &'static [#name] = &[#(#all),*];

                #after_all

                #[doc = #spelling_doc]
                pub const fn #spelling(self) -> &'static str {
                    match self { #(#arms)* }
                }

                #after_spelling
            }

            impl ::core::fmt::Display for #name {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    f.write_str(self.#spelling())
                }
            }

            impl ::core::str::FromStr for #name {
                type Err = ::std::string::String;

                /// The variant spelled `s`; any other text is an error naming it.
                fn from_str(s: &str) -> ::core::result::Result<Self, Self::Err> {
                    match s {
                        #(#parse_arms)*
                        _ => ::core::result::Result::Err(::std::format!(#unknown, s)),
                    }
                }
            }
        }
    }

    pub(super) fn enum_def(&self, e: &Enum) -> TokenStream {
        let (d, attrs) = (doc(&e.doc), self.type_attrs(&e.name));
        let def = self.string_enum(StringEnum {
            name: ident(&e.rust_name),
            doc: d,
            attrs,
            rows: e
                .values
                .iter()
                .map(|v| Row {
                    doc: v.doc.clone(),
                    variant: &v.variant,
                    value: &v.value,
                })
                .collect(),
            serde: true,
            noun: "value",
            spelling: ("as_str", " The value as spelled in JSON."),
            after_all: quote!(),
            after_spelling: quote!(),
        });
        let text = self.text_field(&e.name, &e.rust_name);
        let value = self.enum_as_value(&e.rust_name);
        quote!(#def #text #value)
    }

    /// `impl expr::AsValue` (the spelling) for an enum or states enum, when the spec has
    /// rules tables; nothing otherwise.
    fn enum_as_value(&self, rust_name: &str) -> TokenStream {
        if !self.has_expressions() {
            return quote!();
        }
        let (rt, name) = (&self.rt, ident(rust_name));
        quote! {
            impl #rt::expr::AsValue for #name {
                fn as_value(&self) -> #rt::expr::Value<'_> {
                    #rt::expr::Value::Text(self.as_str())
                }
            }
        }
    }

    /// `impl TextField` (the spelling) for an enum whose lists must hold unique values, so
    /// the `unique` rule compares them; nothing for any other enum.
    /// Also `impl KeyMember` (the spelling, compared as spelled) for an enum that types a
    /// member of a compound unique key.
    fn text_field(&self, table: &str, rust_name: &str) -> TokenStream {
        let (rt, name) = (&self.rt, ident(rust_name));
        let text = self.spec.enum_compared_as_text(table).then(|| {
            quote! {
                impl #rt::rules::TextField for #name {
                    fn text(&self) -> ::core::option::Option<&str> {
                        ::core::option::Option::Some(self.as_str())
                    }
                }
            }
        });
        let key = self.spec.enum_is_key_member(table).then(|| {
            quote! {
                impl #rt::rules::KeyMember for #name {
                    fn key_value(&self) -> ::core::option::Option<#rt::rules::KeyValue<'_>> {
                        ::core::option::Option::Some(#rt::rules::KeyValue::Symbol(self.as_str()))
                    }
                }
            }
        });
        quote!(#text #key)
    }

    /// A states table: the enum, its terminal states and its legal moves.
    pub(super) fn machine(&self, m: &Machine) -> TokenStream {
        let name = ident(&m.rust_name);
        let vi = |i: usize| ident(&m.states[i].variant);
        let terminal: Vec<TokenStream> = (0..m.states.len())
            .filter(|&i| m.states[i].terminal)
            .map(|i| {
                let v = vi(i);
                quote!(#name::#v)
            })
            .collect();
        let is_terminal = if terminal.is_empty() {
            quote!({
                let _ = self;
                false
            })
        } else {
            quote!(matches!(self, #(#terminal)|*))
        };
        let (transitions, can, on_fn) = self.moves(m, &name);
        let (d, attrs) = (doc(&m.doc), self.type_attrs(&m.name));
        let def = self.string_enum(StringEnum {
            name: name.clone(),
            doc: d,
            attrs,
            rows: m
                .states
                .iter()
                .map(|s| Row {
                    doc: format!("{}{}", s.doc, if s.terminal { " (terminal)" } else { "" }),
                    variant: &s.variant,
                    value: &s.value,
                })
                .collect(),
            serde: true,
            noun: "state",
            spelling: ("as_str", " The state as spelled in the spec."),
            after_all: quote! {
                /// The terminal states: no move leaves them.
                pub const TERMINAL: &'static [#name] = &[#(#terminal),*];

                #transitions
            },
            after_spelling: quote! {
                /// Whether no move leaves this state.
                pub const fn is_terminal(self) -> bool {
                    #is_terminal
                }

                /// Whether moving from this state to `to` is legal.
                pub fn can_transition(self, to: Self) -> bool {
                    #can
                }

                #on_fn
            },
        });
        let text = self.text_field(&m.name, &m.rust_name);
        let value = self.enum_as_value(&m.rust_name);
        quote!(#def #text #value)
    }

    /// A machine's `TRANSITIONS`, the body of `can_transition`, and `on` (with events).
    fn moves(&self, m: &Machine, name: &Ident) -> (TokenStream, TokenStream, TokenStream) {
        let vi = |i: usize| ident(&m.states[i].variant);
        let Some(ev) = m.on.as_ref().map(|e| self.type_name(e)) else {
            let edges = m.transitions.iter().map(|t| {
                let (f, to) = (vi(t.from), vi(t.to));
                quote!((#name::#f, #name::#to))
            });
            return (
                quote! {
                    /// Every legal move as (from, to), in table order.
                    pub const TRANSITIONS: &'static [(#name, #name)] = &[#(#edges),*];
                },
                quote!(Self::TRANSITIONS.iter().any(|&(f, t)| f == self && t == to)),
                quote!(),
            );
        };
        let edges = m.transitions.iter().map(|t| {
            let (f, to) = (vi(t.from), vi(t.to));
            let e = self.event_variant(m, t);
            quote!((#name::#f, #ev::#e, #name::#to))
        });
        let on_arms = m.transitions.iter().map(|t| {
            let (f, to) = (vi(t.from), vi(t.to));
            let e = self.event_variant(m, t);
            quote!((#name::#f, #ev::#e) => ::core::option::Option::Some(#name::#to),)
        });
        (
            quote! {
                /// Every legal move as (from, event, to), in table order.
                pub const TRANSITIONS: &'static [(#name, #ev, #name)] = &[#(#edges),*];
            },
            quote!(Self::TRANSITIONS
                .iter()
                .any(|&(f, _, t)| f == self && t == to)),
            quote! {
                /// The state `event` leads to from this one, if the move is legal.
                pub const fn on(self, event: #ev) -> ::core::option::Option<Self> {
                    match (self, event) {
                        #(#on_arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            },
        )
    }

    /// The Rust variant of a transition's event.
    fn event_variant(&self, m: &Machine, t: &Transition) -> Ident {
        let e = m.on.as_deref().and_then(|n| match self.spec.type_def(n) {
            Some(TypeDef::Enum(e)) => Some(e),
            _ => None,
        });
        let on = t.on.as_deref().unwrap_or_default();
        let v = e
            .and_then(|e| e.values.iter().find(|v| v.value == on))
            .map(|v| v.variant.clone())
            .expect("checked: the event is a value of the `on` enum");
        ident(&v)
    }

    pub(super) fn error_enum(&self) -> TokenStream {
        let e = &self.spec.errors;
        let name = ident(&e.enum_name);
        let from_arms = e.codes.iter().map(|c| {
            let vi = ident(&c.variant);
            let s = &c.code;
            quote!(#s => ::core::option::Option::Some(#name::#vi),)
        });
        self.string_enum(StringEnum {
            name: name.clone(),
            doc: doc(&format!(
                "Error codes of {}, in table order.",
                self.spec.md_path
            )),
            attrs: quote!(),
            rows: e
                .codes
                .iter()
                .map(|c| Row {
                    doc: c.doc.clone(),
                    variant: &c.variant,
                    value: &c.code,
                })
                .collect(),
            serde: false,
            noun: "code",
            spelling: ("code", " The code as spelled in the spec."),
            after_all: quote!(),
            after_spelling: quote! {
                /// The variant whose code is `code`, if the spec has one.
                pub fn from_code(code: &str) -> ::core::option::Option<Self> {
                    match code {
                        #(#from_arms)*
                        _ => ::core::option::Option::None,
                    }
                }
            },
        })
    }
}
