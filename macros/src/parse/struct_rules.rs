//! Struct rules: `#[validate(..)]` on the struct itself.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::Expr;

use crate::errors::Errors;
use crate::kw::{self, StructRuleName};
use crate::model::{Model, StructRule};

use super::arguments::{read, Arg, ArgKind, Short};
use super::field_rules::{custom_fn, is_field_rule};
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
        if is_field_rule(&name) {
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
    if rule == StructRuleName::Crate {
        crate_setting(item, model, errors);
    } else if let Some(rule) = read_rule(rule, item, errors) {
        model.struct_rules.push(rule);
    }
}

/// Reads a struct rule of its arguments.
fn read_rule(rule: StructRuleName, item: Item, errors: &mut Errors) -> Option<StructRule> {
    let span = item.name.span();
    let field = |key| Arg::required(key, ArgKind::Field);
    let optional_field = |key| Arg::optional(key, ArgKind::Field);
    Some(match rule {
        StructRuleName::NotEqual => {
            let allowed = [field(kw::A), field(kw::B), Arg::CODE];
            let mut args = read(item, &allowed, Short::None, errors)?;
            StructRule::NotEqual {
                a: args.field(kw::A)?,
                b: args.field(kw::B)?,
                code: args.code(kw::CODE_EQUAL),
                span,
            }
        }
        StructRuleName::Order => {
            let strict = Arg::optional(kw::STRICT, ArgKind::Flag);
            let allowed = [field(kw::A), field(kw::B), strict, Arg::CODE];
            let mut args = read(item, &allowed, Short::None, errors)?;
            StructRule::Order {
                a: args.field(kw::A)?,
                b: args.field(kw::B)?,
                strict: args.flag(kw::STRICT),
                code: args.code(kw::CODE_OUT_OF_ORDER),
                span,
            }
        }
        StructRuleName::MaxJsonBytes => {
            let allowed = [Arg::required(kw::MAX, ArgKind::Limit), Arg::CODE];
            let mut args = read(item, &allowed, Short::Limit(kw::MAX), errors)?;
            StructRule::MaxJsonBytes {
                max: args.limit(kw::MAX)?,
                code: args.code(kw::CODE_TOO_LARGE),
                span,
            }
        }
        StructRuleName::NotContains => {
            let allowed = [field(kw::LIST), field(kw::VALUE), Arg::CODE];
            let mut args = read(item, &allowed, Short::None, errors)?;
            StructRule::NotContains {
                list: args.field(kw::LIST)?,
                value: args.field(kw::VALUE)?,
                code: args.code(kw::CODE_CONTAINS_SELF),
                span,
            }
        }
        StructRuleName::Digest => {
            let allowed = [
                field(kw::SHA256),
                field(kw::DATA),
                field(kw::ENCODING),
                optional_field(kw::LABEL),
                optional_field(kw::LENGTH),
                Arg::CODE,
            ];
            let mut args = read(item, &allowed, Short::None, errors)?;
            StructRule::Digest {
                sha256: args.field(kw::SHA256)?,
                data: args.field(kw::DATA)?,
                encoding: args.field(kw::ENCODING)?,
                label: args.field(kw::LABEL),
                length: args.field(kw::LENGTH),
                code: args.code(kw::CODE_DIGEST),
                span,
            }
        }
        StructRuleName::Custom => StructRule::Custom {
            func: custom_fn(item, errors)?,
            span,
        },
        // A setting, not a rule: read by `crate_setting`.
        StructRuleName::Crate => return None,
    })
}

/// `crate = "path::to::runtime"`: where generated code finds the runtime.
fn crate_setting(item: Item, model: &mut Model, errors: &mut Errors) {
    match item.form {
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
            item.name.span(),
            "expected `crate = \"path::to::runtime\"` (a string literal)",
        ),
    }
}
