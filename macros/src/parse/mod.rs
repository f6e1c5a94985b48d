//! Phase 1: read `#[validate(...)]` attributes into the [`Model`], collecting every error.
//!
//! Attributes are first read into a small raw syntax tree ([`Item`]), then interpreted rule
//! by rule; nothing is emitted from the syn AST directly.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{parenthesized, token, Data, DeriveInput, Expr, Fields, Ident, LitStr, Token};

use crate::errors::Errors;
use crate::kw;
use crate::model::{Field, Model};

mod arguments;
mod field_rules;
mod struct_rules;

use field_rules::field_rule;
use struct_rules::struct_rule;

/// One comma-separated entry of an attribute: `name`, `name = expr`, `name(items..)`, or
/// `pair(exprs..)`.
struct Item {
    name: Ident,
    form: Form,
}

enum Form {
    Bare,
    Value(Expr),
    List(Vec<Item>),
    /// The contents of `pair(..)`.
    Exprs(Vec<Expr>),
}

impl Parse for Item {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let name = input.call(Ident::parse_any)?;
        let form = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Form::Value(input.parse()?)
        } else if input.peek(token::Paren) {
            let content;
            parenthesized!(content in input);
            if name == kw::PAIR {
                Form::Exprs(
                    Punctuated::<Expr, Token![,]>::parse_terminated(&content)?
                        .into_iter()
                        .collect(),
                )
            } else {
                Form::List(
                    Punctuated::<Item, Token![,]>::parse_terminated(&content)?
                        .into_iter()
                        .collect(),
                )
            }
        } else {
            Form::Bare
        };
        Ok(Item { name, form })
    }
}

/// Reads the derive input into a model. Errors are collected, never returned early: the
/// model holds whatever could be understood.
pub fn parse(input: &DeriveInput) -> (Model, Errors) {
    let mut errors = Errors::default();
    let mut model = Model {
        ident: input.ident.clone(),
        generics: input.generics.clone(),
        krate: syn::parse_quote!(::specmint_runtime),
        named_fields: false,
        fields: Vec::new(),
        struct_rules: Vec::new(),
    };

    let mut seen_struct: Vec<(String, Span)> = Vec::new();
    for items in attr_items(&input.attrs, &mut errors) {
        for item in items {
            struct_rule(item, &mut model, &mut seen_struct, &mut errors);
        }
    }

    let rename_all = serde_names(&input.attrs, "rename_all");
    let what = match &input.data {
        Data::Struct(data) => match &data.fields {
            Fields::Named(named) => {
                for field in &named.named {
                    let Some(ident) = field.ident.clone() else {
                        continue;
                    };
                    let mut rules = Vec::new();
                    let mut rename = None;
                    let mut seen: Vec<(String, Span)> = Vec::new();
                    for items in attr_items(&field.attrs, &mut errors) {
                        for item in items {
                            if item.name == kw::RENAME {
                                rename_setting(item, &mut seen, &mut rename, &mut errors);
                            } else if let Some(rule) = field_rule(item, &mut seen, &mut errors) {
                                rules.push(rule);
                            }
                        }
                    }
                    let rust_name = ident.unraw().to_string();
                    let name = rename
                        .or_else(|| serde_names(&field.attrs, "rename"))
                        .or_else(|| {
                            rename_all
                                .as_deref()
                                .and_then(|rule| apply_rename_all(rule, &rust_name))
                        })
                        .unwrap_or(rust_name);
                    model.fields.push(Field { name, ident, rules });
                }
                model.named_fields = true;
                return (model, errors);
            }
            Fields::Unnamed(f) => ("a tuple struct", f.paren_token.span.join()),
            Fields::Unit => ("a unit struct", input.ident.span()),
        },
        Data::Enum(e) => ("an enum", e.enum_token.span),
        Data::Union(u) => ("a union", u.union_token.span),
    };
    errors.at(
        what.1,
        format!(
            "`#[derive(Validate)]` supports only structs with named fields; `{}` is {}",
            input.ident, what.0
        ),
    );
    (model, errors)
}

/// `#[validate(rename = "name")]`: the field's name in paths, overriding serde's.
fn rename_setting(
    item: Item,
    seen: &mut Vec<(String, Span)>,
    rename: &mut Option<String>,
    errors: &mut Errors,
) {
    if duplicate(&item.name, seen, "setting", errors) {
        return;
    }
    match item.form {
        Form::Value(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        })) if !s.value().is_empty() => *rename = Some(s.value()),
        Form::Value(other) => errors.at(
            other.span(),
            "`rename` must be a non-empty string literal, e.g. `rename = \"outputFormat\"`",
        ),
        _ => errors.at(
            item.name.span(),
            "expected `rename = \"name\"`: the field's name in paths",
        ),
    }
}

/// The name serde reads for `key` (`rename` or `rename_all`) among `#[serde(..)]`
/// attributes: `key = ".."`, or the `deserialize` half of `key(serialize = .., deserialize = ..)`.
/// Anything this cannot read is left to serde's own derive to report.
fn serde_names(attrs: &[syn::Attribute], key: &str) -> Option<String> {
    fn skip(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<()> {
        if meta.input.peek(Token![=]) {
            meta.value()?.parse::<Expr>()?;
        } else if meta.input.peek(token::Paren) {
            let _content;
            parenthesized!(_content in meta.input);
        }
        Ok(())
    }
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident(key) {
                return skip(&meta);
            }
            if meta.input.peek(Token![=]) {
                found = Some(meta.value()?.parse::<LitStr>()?.value());
                return Ok(());
            }
            meta.parse_nested_meta(|half| {
                if half.path.is_ident("deserialize") {
                    found = Some(half.value()?.parse::<LitStr>()?.value());
                    Ok(())
                } else {
                    skip(&half)
                }
            })
        });
    }
    found
}

/// serde's `rename_all` applied to a field name (serde's own rules for fields, which are
/// snake_case already); `None` for a rule serde does not know.
fn apply_rename_all(rule: &str, field: &str) -> Option<String> {
    let pascal = || {
        let mut out = String::new();
        let mut capitalize = true;
        for ch in field.chars() {
            if ch == '_' {
                capitalize = true;
            } else if capitalize {
                out.push(ch.to_ascii_uppercase());
                capitalize = false;
            } else {
                out.push(ch);
            }
        }
        out
    };
    Some(match rule {
        "lowercase" | "snake_case" => field.to_owned(),
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let p = pascal();
            let mut chars = p.chars();
            match chars.next() {
                Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
                None => p,
            }
        }
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_ascii_uppercase().replace('_', "-"),
        _ => return None,
    })
}

/// The entries of every `#[validate(...)]` among `attrs`.
fn attr_items(attrs: &[syn::Attribute], errors: &mut Errors) -> Vec<Vec<Item>> {
    let mut out = Vec::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident(kw::VALIDATE)) {
        if !matches!(attr.meta, syn::Meta::List(_)) {
            errors.at(
                attr.meta.span(),
                "expected rules in parentheses: `#[validate(rule, ..)]`",
            );
            continue;
        }
        match attr.parse_args_with(Punctuated::<Item, Token![,]>::parse_terminated) {
            Ok(items) if items.is_empty() => errors.at(
                attr.meta.span(),
                "empty `#[validate()]`: name at least one rule",
            ),
            Ok(items) => out.push(items.into_iter().collect()),
            Err(err) => errors.push(err),
        }
    }
    out
}

/// `true` (and an error) when `name` was already seen in this scope.
fn duplicate(
    name: &Ident,
    seen: &mut Vec<(String, Span)>,
    what: &str,
    errors: &mut Errors,
) -> bool {
    let key = name.unraw().to_string();
    if seen.iter().any(|(n, _)| *n == key) {
        errors.at(
            name.span(),
            format!("duplicate {what} `{key}`: already given"),
        );
        return true;
    }
    seen.push((key, name.span()));
    false
}
