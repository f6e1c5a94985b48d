//! Struct rules: `#[validate(..)]` on the struct itself.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::Expr;

use crate::errors::Errors;
use crate::kw::{self, FieldRuleName, StructRuleName};
use crate::model::{Model, StructRule};

use super::arguments::args;
use super::field_rules::{custom_fn, limit_rule};
use super::{duplicate, Form, Item};

pub(super) fn struct_rule(
    item: Item,
    model: &mut Model,
    seen: &mut Vec<(String, Span)>,
    errors: &mut Errors,
) {
    let name = item.name.unraw().to_string();
    let span = item.name.span();
    let Some(rule) = StructRuleName::from_name(&name) else {
        if FieldRuleName::from_name(&name).is_some() {
            errors.at(span, format!("`{name}` is a field rule: put it on a field"));
        } else {
            errors.at(
                span,
                format!(
                    "unknown struct rule `{name}`; {}struct rules are {}",
                    StructRuleName::did_you_mean(&name),
                    StructRuleName::list()
                ),
            );
        }
        return;
    };
    // A struct may order several pairs of fields (a window and a version range); every
    // other struct rule is given once.
    if rule != StructRuleName::Order && duplicate(&item.name, seen, "struct rule", errors) {
        return;
    }
    match rule {
        StructRuleName::NotEqual => {
            let Some(args) = args(item, &[kw::A, kw::B, kw::CODE], errors) else {
                return;
            };
            let a = args.require_ident(kw::A, errors);
            let b = args.require_ident(kw::B, errors);
            if let (Some(a), Some(b)) = (a, b) {
                model.struct_rules.push(StructRule::NotEqual {
                    a,
                    b,
                    code: args.code(kw::CODE_EQUAL),
                    span,
                });
            }
        }
        StructRuleName::Order => {
            let allowed = [kw::A, kw::B, kw::STRICT, kw::CODE];
            let Some(args) = args(item, &allowed, errors) else {
                return;
            };
            let a = args.require_ident(kw::A, errors);
            let b = args.require_ident(kw::B, errors);
            if let (Some(a), Some(b)) = (a, b) {
                model.struct_rules.push(StructRule::Order {
                    a,
                    b,
                    strict: args.strict,
                    code: args.code(kw::CODE_OUT_OF_ORDER),
                    span,
                });
            }
        }
        StructRuleName::MaxJsonBytes => {
            if let Some((max, code)) = limit_rule(item, kw::MAX, kw::CODE_TOO_LARGE, errors) {
                model
                    .struct_rules
                    .push(StructRule::MaxJsonBytes { max, code, span });
            }
        }
        StructRuleName::NotContains => {
            let Some(args) = args(item, &[kw::LIST, kw::VALUE, kw::CODE], errors) else {
                return;
            };
            let list = args.require_ident(kw::LIST, errors);
            let value = args.require_ident(kw::VALUE, errors);
            if let (Some(list), Some(value)) = (list, value) {
                model.struct_rules.push(StructRule::NotContains {
                    list,
                    value,
                    code: args.code(kw::CODE_CONTAINS_SELF),
                    span,
                });
            }
        }
        StructRuleName::Digest => {
            let allowed = [
                kw::SHA256,
                kw::DATA,
                kw::ENCODING,
                kw::LABEL,
                kw::LENGTH,
                kw::CODE,
            ];
            let Some(args) = args(item, &allowed, errors) else {
                return;
            };
            let sha256 = args.require_ident(kw::SHA256, errors);
            let data = args.require_ident(kw::DATA, errors);
            let encoding = args.require_ident(kw::ENCODING, errors);
            if let (Some(sha256), Some(data), Some(encoding)) = (sha256, data, encoding) {
                model.struct_rules.push(StructRule::Digest {
                    sha256,
                    data,
                    encoding,
                    label: args.optional_ident(kw::LABEL),
                    length: args.optional_ident(kw::LENGTH),
                    code: args.code(kw::CODE_DIGEST),
                    span,
                });
            }
        }
        StructRuleName::Custom => {
            if let Some(func) = custom_fn(item, errors) {
                model.struct_rules.push(StructRule::Custom { func, span });
            }
        }
        StructRuleName::Crate => match item.form {
            Form::Value(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) => match s.parse::<syn::Path>() {
                Ok(path) => model.krate = path,
                Err(_) => errors.at(
                    s.span(),
                    "`crate` must be a path to the runtime, e.g. `crate = \"specmint::runtime\"`",
                ),
            },
            Form::Value(other) => errors.at(
                other.span(),
                "expected a string literal: `crate = \"path::to::runtime\"`",
            ),
            _ => errors.at(
                span,
                "expected `crate = \"path::to::runtime\"` (a string literal)",
            ),
        },
    }
}
