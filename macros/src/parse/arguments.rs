//! The arguments of one rule (`rule(key = value, ..)`), read and checked against the keys
//! the rule allows; shared by field and struct rules.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{Expr, Ident, LitStr};

use crate::errors::Errors;
use crate::kw::{self, FieldRuleName};
use crate::model::{Code, Limit, Pair};

use super::{duplicate, Form, Item};

/// The arguments of `rule(..)`.
pub(super) struct Args {
    pub(super) rule: Ident,
    pub(super) max: Option<Expr>,
    pub(super) min: Option<Expr>,
    pub(super) code: Option<LitStr>,
    pub(super) idents: Vec<(&'static str, Ident)>,
    /// Arguments that take any expression (`equals`'s `value`, `regex`, `required_if`'s
    /// `equals`).
    pub(super) exprs: Vec<(&'static str, Expr)>,
    pub(super) trim: bool,
    pub(super) ignore_case: bool,
    /// `order`'s `strict` flag.
    pub(super) strict: bool,
    pub(super) pairs: Vec<Pair>,
    /// Every argument written, valid or not (so a bad one is not also reported missing).
    pub(super) written: Vec<&'static str>,
}

impl Args {
    pub(super) fn code(&self, default: &'static str) -> Code {
        Code {
            custom: self.code.clone(),
            default,
        }
    }

    pub(super) fn require_max(&self, errors: &mut Errors) -> Option<Limit> {
        self.require_limit(kw::MAX, errors)
    }

    /// The `max` or `min` (`key`) argument; reported when it was not written.
    pub(super) fn require_limit(&self, key: &'static str, errors: &mut Errors) -> Option<Limit> {
        let found = if key == kw::MIN { &self.min } else { &self.max };
        if found.is_none() && !self.written.contains(&key) {
            errors.at(
                self.rule.span(),
                format!("`{}` needs `{key} = N`", self.rule.unraw()),
            );
        }
        found.clone().map(|expr| Limit { expr })
    }

    pub(super) fn require_expr(
        &self,
        key: &'static str,
        example: &str,
        errors: &mut Errors,
    ) -> Option<Expr> {
        let found = self
            .exprs
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, e)| e.clone());
        if found.is_none() && !self.written.contains(&key) {
            errors.at(
                self.rule.span(),
                format!("`{}` needs `{key} = {example}`", self.rule.unraw()),
            );
        }
        found
    }

    pub(super) fn optional_ident(&self, key: &'static str) -> Option<Ident> {
        self.idents
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, i)| i.clone())
    }

    pub(super) fn require_ident(&self, key: &'static str, errors: &mut Errors) -> Option<Ident> {
        let found = self
            .idents
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, i)| i.clone());
        if found.is_none() && !self.written.contains(&key) {
            errors.at(
                self.rule.span(),
                format!("`{}` needs `{key} = field`", self.rule.unraw()),
            );
        }
        found
    }
}

/// Reads `rule(..)`'s arguments, allowing only `allowed`. `None` when the rule was not
/// written with parentheses.
pub(super) fn args(item: Item, allowed: &[&'static str], errors: &mut Errors) -> Option<Args> {
    let rule_name = item.name.unraw().to_string();
    let Form::List(items) = item.form else {
        errors.at(
            item.name.span(),
            format!(
                "`{rule_name}` takes arguments in parentheses: `{rule_name}({})`",
                allowed
                    .iter()
                    .map(|a| format!("{a} = .."))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return None;
    };
    let mut out = Args {
        rule: item.name,
        max: None,
        min: None,
        code: None,
        idents: Vec::new(),
        exprs: Vec::new(),
        trim: false,
        ignore_case: false,
        strict: false,
        pairs: Vec::new(),
        written: Vec::new(),
    };
    let mut seen = Vec::new();
    for arg in items {
        let name = arg.name.unraw().to_string();
        let span = arg.name.span();
        let Some(&key) = allowed.iter().find(|a| **a == name) else {
            errors.at(
                span,
                format!(
                    "unknown argument `{name}` for `{rule_name}`; {}expected {}",
                    kw::did_you_mean(&name, allowed),
                    kw::list(allowed)
                ),
            );
            continue;
        };
        if key != kw::PAIR && duplicate(&arg.name, &mut seen, "argument", errors) {
            continue;
        }
        out.written.push(key);
        match (key, arg.form) {
            (kw::TRIM | kw::IGNORE_CASE | kw::STRICT, Form::Bare) => match key {
                kw::TRIM => out.trim = true,
                kw::IGNORE_CASE => out.ignore_case = true,
                _ => out.strict = true,
            },
            (kw::TRIM | kw::IGNORE_CASE | kw::STRICT, _) => errors.at(
                span,
                format!("`{key}` is a flag: write `{key}` with no value"),
            ),
            (kw::PAIR, Form::Exprs(exprs)) => {
                if let Some(pair) = pair(span, exprs, errors) {
                    out.pairs.push(pair);
                }
            }
            (kw::PAIR, _) => errors.at(span, "expected `pair(A, B)` or `pair(A, B, ignore_case)`"),
            (_, Form::Value(expr)) => match key {
                kw::MAX => out.max = Some(expr),
                kw::MIN => out.min = Some(expr),
                _ if takes_expr(&rule_name, key) => out.exprs.push((key, expr)),
                kw::CODE => match expr {
                    Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) if !s.value().is_empty() => out.code = Some(s),
                    other => errors.at(
                        other.span(),
                        "`code` must be a non-empty string literal, e.g. `code = \"my_code\"`",
                    ),
                },
                _ => match field_name(&expr) {
                    Some(ident) => out.idents.push((key, ident)),
                    None => errors.at(
                        expr.span(),
                        format!("`{key}` must name a field, e.g. `{key} = id`"),
                    ),
                },
            },
            (_, _) => errors.at(span, format!("`{key}` needs a value: `{key} = ..`")),
        }
    }
    Some(out)
}

/// Whether `key` of `rule` takes any expression rather than a field name.
fn takes_expr(rule: &str, key: &str) -> bool {
    matches!(
        (FieldRuleName::from_name(rule), key),
        (Some(FieldRuleName::Equals), kw::VALUE)
            | (Some(FieldRuleName::Pattern), kw::REGEX)
            | (Some(FieldRuleName::RequiredIf), kw::EQUALS)
            | (Some(FieldRuleName::Format), kw::KIND)
    )
}

/// `ident` in `key = ident`.
pub(super) fn field_name(expr: &Expr) -> Option<Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().cloned(),
        _ => None,
    }
}

pub(super) fn pair(span: Span, exprs: Vec<Expr>, errors: &mut Errors) -> Option<Pair> {
    let mut it = exprs.into_iter();
    match (it.next(), it.next(), it.next(), it.next()) {
        (Some(a), Some(b), None, None) => Some(Pair {
            a,
            b,
            ignore_case: false,
        }),
        (Some(a), Some(b), Some(flag), None) => {
            if field_name(&flag).is_some_and(|f| f == kw::IGNORE_CASE) {
                Some(Pair {
                    a,
                    b,
                    ignore_case: true,
                })
            } else {
                errors.at(
                    flag.span(),
                    "the third argument of `pair` can only be `ignore_case`",
                );
                None
            }
        }
        _ => {
            errors.at(
                span,
                "`pair` takes two values and an optional flag: `pair(A, B)` or `pair(A, B, ignore_case)`",
            );
            None
        }
    }
}
