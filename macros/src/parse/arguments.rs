//! The arguments of one rule (`rule(key = value, ..)`), read and checked against the
//! arguments the rule declares; shared by field and struct rules.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::{Expr, Ident, LitStr};

use crate::errors::Errors;
use crate::kw;
use crate::model::{Code, Limit, Pair};

use super::{duplicate, Form, Item};

/// One argument a rule takes: its key, what it holds, and whether the rule needs it.
#[derive(Clone, Copy)]
pub(super) struct Arg {
    pub(super) key: &'static str,
    pub(super) kind: ArgKind,
    pub(super) required: bool,
}

/// What an argument holds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ArgKind {
    /// `key = N`: a `usize` expression (`range`'s bounds: any integer expression).
    Limit,
    /// `key = field`: a field's name.
    Field,
    /// `key = field` or `key = (a, b, ..)`: one field's name or several.
    Fields,
    /// `key = E`: any expression; the example shows one in messages.
    Expr(&'static str),
    /// `key` alone.
    Flag,
    /// `pair(A, B)` or `pair(A, B, ignore_case)`, as often as needed.
    Pair,
    /// `code = ".."`: the violation code.
    Code,
}

impl Arg {
    pub(super) const CODE: Arg = Arg::optional(kw::CODE, ArgKind::Code);

    pub(super) const fn required(key: &'static str, kind: ArgKind) -> Arg {
        Arg {
            key,
            kind,
            required: true,
        }
    }

    pub(super) const fn optional(key: &'static str, kind: ArgKind) -> Arg {
        Arg {
            key,
            kind,
            required: false,
        }
    }

    /// How the argument is written, for "write `rule(..)`" hints.
    fn hint(self) -> String {
        match self.kind {
            ArgKind::Flag => self.key.to_owned(),
            ArgKind::Code => format!("{} = \"..\"", self.key),
            _ => format!("{} = ..", self.key),
        }
    }
}

/// A value read for one argument.
enum Value {
    Expr(Expr),
    Field(Ident),
    Fields(Vec<Ident>),
    Flag,
}

/// The arguments of `rule(..)`.
pub(super) struct Args {
    pub(super) rule: Ident,
    code: Option<LitStr>,
    values: Vec<(&'static str, Value)>,
    pub(super) pairs: Vec<Pair>,
    /// Every argument written, valid or not (so a bad one is not also reported missing).
    written: Vec<&'static str>,
}

impl Args {
    fn new(rule: Ident) -> Args {
        Args {
            rule,
            code: None,
            values: Vec::new(),
            pairs: Vec::new(),
            written: Vec::new(),
        }
    }

    pub(super) fn code(&self, default: &'static str) -> Code {
        Code {
            custom: self.code.clone(),
            default,
        }
    }

    /// Whether `key` was written, valid or not.
    pub(super) fn written(&self, key: &'static str) -> bool {
        self.written.contains(&key)
    }

    fn value(&self, key: &'static str) -> Option<&Value> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    /// Takes the value of `key` out (each is read once, so none is cloned).
    fn take(&mut self, key: &'static str) -> Option<Value> {
        let at = self.values.iter().position(|(k, _)| *k == key)?;
        Some(self.values.swap_remove(at).1)
    }

    /// A `Limit` or `Expr` argument.
    pub(super) fn expr(&mut self, key: &'static str) -> Option<Expr> {
        match self.take(key) {
            Some(Value::Expr(expr)) => Some(expr),
            _ => None,
        }
    }

    pub(super) fn limit(&mut self, key: &'static str) -> Option<Limit> {
        self.expr(key).map(|expr| Limit { expr })
    }

    pub(super) fn field(&mut self, key: &'static str) -> Option<Ident> {
        match self.take(key) {
            Some(Value::Field(ident)) => Some(ident),
            _ => None,
        }
    }

    /// A `Fields` argument: one name (`Ok`) or a parenthesized list (`Err`).
    pub(super) fn fields(&mut self, key: &'static str) -> Option<Result<Ident, Vec<Ident>>> {
        match self.take(key) {
            Some(Value::Field(ident)) => Some(Ok(ident)),
            Some(Value::Fields(idents)) => Some(Err(idents)),
            _ => None,
        }
    }

    pub(super) fn flag(&self, key: &'static str) -> bool {
        matches!(self.value(key), Some(Value::Flag))
    }

    /// Reports each required argument that was not written, in declaration order.
    fn report_missing(&self, allowed: &[Arg], errors: &mut Errors) {
        let rule = self.rule.unraw();
        for arg in allowed
            .iter()
            .filter(|a| a.required && !self.written(a.key))
        {
            let key = arg.key;
            let message = match arg.kind {
                ArgKind::Limit => format!("`{rule}` needs `{key} = N`"),
                ArgKind::Expr(example) => format!("`{rule}` needs `{key} = {example}`"),
                ArgKind::Pair => format!("`{rule}` needs at least one `pair(A, B)` of `by` values"),
                _ => format!("`{rule}` needs `{key} = field`"),
            };
            errors.at(self.rule.span(), message);
        }
    }

    /// Whether every required argument holds a value.
    fn complete(&self, allowed: &[Arg]) -> bool {
        allowed.iter().filter(|a| a.required).all(|a| match a.kind {
            ArgKind::Pair => !self.pairs.is_empty(),
            _ => self.value(a.key).is_some(),
        })
    }
}

/// The forms a rule may be written in besides `rule(args..)`.
#[derive(Clone, Copy)]
pub(super) enum Short {
    /// Only `rule(args..)`.
    None,
    /// Also `rule` alone: every argument at its default.
    Bare,
    /// Also `rule = N`: the limit `key`.
    Limit(&'static str),
}

/// Reads a rule written in one of its forms: `None` (after reporting why) unless every
/// required argument holds a value.
pub(super) fn read(item: Item, allowed: &[Arg], short: Short, errors: &mut Errors) -> Option<Args> {
    match (short, item.form) {
        (Short::Bare, Form::Bare) => Some(Args::new(item.name)),
        (Short::Bare, Form::Value(_)) => {
            let name = item.name.unraw();
            let hint = allowed.iter().map(|a| a.hint()).collect::<Vec<_>>();
            errors.at(
                item.name.span(),
                format!(
                    "`{name}` takes no value: write `{name}` or `{name}({})`",
                    hint.join(", ")
                ),
            );
            None
        }
        (Short::Limit(key), Form::Value(expr)) => {
            let mut args = Args::new(item.name);
            args.values.push((key, Value::Expr(expr)));
            Some(args)
        }
        (Short::Limit(key), Form::Bare) => {
            let name = item.name.unraw();
            errors.at(
                item.name.span(),
                format!("`{name}` needs a limit: `{name} = N` or `{name}({key} = N)`"),
            );
            None
        }
        (_, form) => {
            let args = args(Item { form, ..item }, allowed, errors)?;
            args.report_missing(allowed, errors);
            args.complete(allowed).then_some(args)
        }
    }
}

/// Reads `rule(..)`'s arguments, allowing only `allowed`. `None` when the rule was not
/// written with parentheses.
fn args(item: Item, allowed: &[Arg], errors: &mut Errors) -> Option<Args> {
    let rule_name = item.name.unraw().to_string();
    // The keys, for messages.
    let keys = || allowed.iter().map(|a| a.key).collect::<Vec<_>>();
    let Form::List(items) = item.form else {
        errors.at(
            item.name.span(),
            format!(
                "`{rule_name}` takes arguments in parentheses: `{rule_name}({})`",
                allowed
                    .iter()
                    .map(|a| format!("{} = ..", a.key))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        return None;
    };
    let mut out = Args::new(item.name);
    let mut seen = Vec::new();
    for arg in items {
        let name = arg.name.unraw().to_string();
        let span = arg.name.span();
        let Some(&Arg { key, kind, .. }) = allowed.iter().find(|a| a.key == name) else {
            errors.at(
                span,
                format!(
                    "unknown argument `{name}` for `{rule_name}`; {}expected {}",
                    kw::did_you_mean(&name, &keys()),
                    kw::list(&keys())
                ),
            );
            continue;
        };
        if kind != ArgKind::Pair && duplicate(&arg.name, &mut seen, "argument", errors) {
            continue;
        }
        out.written.push(key);
        match (kind, arg.form) {
            (ArgKind::Flag, Form::Bare) => out.values.push((key, Value::Flag)),
            (ArgKind::Flag, _) => errors.at(
                span,
                format!("`{key}` is a flag: write `{key}` with no value"),
            ),
            (ArgKind::Pair, Form::Exprs(exprs)) => {
                if let Some(pair) = pair(span, exprs, errors) {
                    out.pairs.push(pair);
                }
            }
            (ArgKind::Pair, _) => {
                errors.at(span, "expected `pair(A, B)` or `pair(A, B, ignore_case)`");
            }
            (ArgKind::Limit | ArgKind::Expr(_), Form::Value(expr)) => {
                out.values.push((key, Value::Expr(expr)));
            }
            (ArgKind::Code, Form::Value(expr)) => match expr {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) if !s.value().is_empty() => out.code = Some(s),
                other => errors.at(
                    other.span(),
                    "`code` must be a non-empty string literal, e.g. `code = \"my_code\"`",
                ),
            },
            (ArgKind::Field, Form::Value(expr)) => match field_name(&expr) {
                Some(ident) => out.values.push((key, Value::Field(ident))),
                None => errors.at(
                    expr.span(),
                    format!("`{key}` must name a field, e.g. `{key} = id`"),
                ),
            },
            (ArgKind::Fields, Form::Value(expr)) => match field_names(key, &expr) {
                Ok(v) => out.values.push((key, v)),
                Err((span, message)) => errors.at(span, message),
            },
            (_, _) => errors.at(span, format!("`{key}` needs a value: `{key} = ..`")),
        }
    }
    Some(out)
}

/// `ident` in `key = ident`.
pub(super) fn field_name(expr: &Expr) -> Option<Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().cloned(),
        _ => None,
    }
}

/// `ident` or `(a, b, ..)` in `key = ..`; `Err` (where, what) for anything else.
fn field_names(key: &str, expr: &Expr) -> Result<Value, (Span, String)> {
    let not_names = || {
        (
            expr.span(),
            format!("`{key}` must name a field or several, e.g. `{key} = id` or `{key} = (a, b)`"),
        )
    };
    let elems: Vec<&Expr> = match expr {
        Expr::Tuple(t) if t.attrs.is_empty() => t.elems.iter().collect(),
        Expr::Paren(p) if p.attrs.is_empty() => vec![&*p.expr],
        other => return field_name(other).map(Value::Field).ok_or_else(not_names),
    };
    let mut names: Vec<Ident> = Vec::new();
    for e in elems {
        let name = field_name(e).ok_or_else(not_names)?;
        if names.contains(&name) {
            return Err((
                name.span(),
                format!("`{}` is named twice in `{key}`", name.unraw()),
            ));
        }
        names.push(name);
    }
    if names.is_empty() {
        return Err(not_names());
    }
    Ok(Value::Fields(names))
}

fn pair(span: Span, exprs: Vec<Expr>, errors: &mut Errors) -> Option<Pair> {
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
