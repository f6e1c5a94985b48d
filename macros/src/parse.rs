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
use crate::kw::{self, FieldRuleName, StructRuleName, TextRuleName};
use crate::model::{Code, Field, FieldRule, Limit, Model, Pair, StructRule, TextRule};

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

fn field_rule(
    item: Item,
    seen: &mut Vec<(String, Span)>,
    errors: &mut Errors,
) -> Option<FieldRule> {
    let name = item.name.unraw().to_string();
    let span = item.name.span();
    let Some(rule) = FieldRuleName::from_name(&name) else {
        if StructRuleName::from_name(&name).is_some() {
            errors.at(
                span,
                format!("`{name}` is a struct rule: put it in a `#[validate(..)]` on the struct"),
            );
        } else {
            errors.at(
                span,
                format!(
                    "unknown rule `{name}`; {}field rules are {} (and the setting `rename = \"..\"`)",
                    FieldRuleName::did_you_mean(&name),
                    FieldRuleName::list()
                ),
            );
        }
        return None;
    };
    if duplicate(&item.name, seen, "rule", errors) {
        return None;
    }
    match rule {
        FieldRuleName::NonBlank => {
            text_rule(item, TextRuleName::NonBlank, errors).map(FieldRule::Text)
        }
        FieldRuleName::MaxChars => {
            text_rule(item, TextRuleName::MaxChars, errors).map(FieldRule::Text)
        }
        FieldRuleName::MaxItems => {
            let (max, code) = limit_rule(item, kw::CODE_TOO_MANY, errors)?;
            Some(FieldRule::MaxItems { max, code, span })
        }
        FieldRuleName::Nested => match &item.form {
            Form::Bare => Some(FieldRule::Nested {
                flatten: false,
                span,
            }),
            Form::List(args)
                if args.len() == 1
                    && args[0].name == kw::FLATTEN
                    && matches!(args[0].form, Form::Bare) =>
            {
                Some(FieldRule::Nested {
                    flatten: true,
                    span,
                })
            }
            _ => {
                errors.at(
                    span,
                    "`nested` takes no arguments but `flatten`: write `nested` or `nested(flatten)`",
                );
                None
            }
        },
        FieldRuleName::Each => each_rule(item, errors),
        FieldRuleName::MaxItemsPerGroup => {
            let args = args(item, &[kw::BY, kw::MAX, kw::CODE], errors)?;
            let by = args.require_ident(kw::BY, errors);
            let max = args.require_max(errors);
            let code = args.code(kw::CODE_TOO_MANY);
            Some(FieldRule::MaxItemsPerGroup {
                by: by?,
                max: max?,
                code,
                span,
            })
        }
        FieldRuleName::UniqueBy => {
            let args = args(
                item,
                &[kw::KEY, kw::TRIM, kw::IGNORE_CASE, kw::CODE],
                errors,
            )?;
            let key = args.require_ident(kw::KEY, errors)?;
            Some(FieldRule::UniqueBy {
                key_name: key.unraw().to_string(),
                key,
                trim: args.trim,
                ignore_case: args.ignore_case,
                code: args.code(kw::CODE_DUPLICATE),
                span,
            })
        }
        FieldRuleName::Contradiction => {
            let args = args(item, &[kw::BY, kw::VALUE, kw::PAIR, kw::CODE], errors)?;
            let by = args.require_ident(kw::BY, errors);
            let value = args.require_ident(kw::VALUE, errors);
            if !args.written.contains(&kw::PAIR) {
                errors.at(
                    args.rule.span(),
                    "`contradiction` needs at least one `pair(A, B)` of `by` values",
                );
            }
            let (by, value) = (by?, value?);
            if args.pairs.is_empty() {
                return None;
            }
            Some(FieldRule::Contradiction {
                by,
                value_name: value.unraw().to_string(),
                value,
                code: args.code(kw::CODE_CONTRADICTORY),
                pairs: args.pairs,
                span,
            })
        }
        FieldRuleName::Equals => {
            let args = args(item, &[kw::VALUE, kw::CODE], errors)?;
            let value = args.require_expr(kw::VALUE, "\"..\"", errors)?;
            Some(FieldRule::Equals {
                value,
                code: args.code(kw::CODE_UNEXPECTED),
                span,
            })
        }
        FieldRuleName::Pattern => {
            let args = args(item, &[kw::REGEX, kw::CODE], errors)?;
            let regex = args.require_expr(kw::REGEX, "\"^..$\"", errors)?;
            let regex = match regex {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => s,
                other => {
                    errors.at(
                        other.span(),
                        "`regex` must be a string literal, e.g. `regex = \"^[a-z]+$\"`",
                    );
                    return None;
                }
            };
            if let Err(err) = regex_lite::Regex::new(&regex.value()) {
                errors.at(regex.span(), format!("invalid regex: {err}"));
                return None;
            }
            Some(FieldRule::Pattern {
                regex,
                code: args.code(kw::CODE_PATTERN),
                span,
            })
        }
        FieldRuleName::RelativePath => {
            let code = code_only(item, kw::CODE_PATH, errors)?;
            Some(FieldRule::RelativePath { code, span })
        }
        FieldRuleName::Required => {
            let code = code_only(item, kw::CODE_REQUIRED, errors)?;
            Some(FieldRule::Required { code, span })
        }
        FieldRuleName::RequiredIf => {
            let args = args(item, &[kw::FIELD, kw::EQUALS, kw::CODE], errors)?;
            let field = args.require_ident(kw::FIELD, errors);
            let equals = args.require_expr(kw::EQUALS, "Enum::Variant", errors);
            Some(FieldRule::RequiredIf {
                field: field?,
                equals: equals?,
                code: args.code(kw::CODE_REQUIRED),
                span,
            })
        }
        FieldRuleName::Unique => {
            let (trim, ignore_case, code) = match item.form {
                Form::Bare => (
                    false,
                    false,
                    Code {
                        custom: None,
                        default: kw::CODE_DUPLICATE_ITEM,
                    },
                ),
                Form::Value(_) => {
                    errors.at(
                        span,
                        "`unique` takes no value: write `unique` or `unique(ignore_case, trim, code = \"..\")`",
                    );
                    return None;
                }
                _ => {
                    let args = args(item, &[kw::IGNORE_CASE, kw::TRIM, kw::CODE], errors)?;
                    (
                        args.trim,
                        args.ignore_case,
                        args.code(kw::CODE_DUPLICATE_ITEM),
                    )
                }
            };
            Some(FieldRule::Unique {
                trim,
                ignore_case,
                code,
                span,
            })
        }
    }
}

/// `rule` or `rule(code = "..")`.
fn code_only(item: Item, default: &'static str, errors: &mut Errors) -> Option<Code> {
    match item.form {
        Form::Bare => Some(Code {
            custom: None,
            default,
        }),
        Form::Value(_) => {
            let name = item.name.unraw();
            errors.at(
                item.name.span(),
                format!("`{name}` takes no value: write `{name}` or `{name}(code = \"..\")`"),
            );
            None
        }
        _ => Some(args(item, &[kw::CODE], errors)?.code(default)),
    }
}

fn text_rule(item: Item, rule: TextRuleName, errors: &mut Errors) -> Option<TextRule> {
    let span = item.name.span();
    match rule {
        TextRuleName::NonBlank => {
            let code = match item.form {
                Form::Bare => Code {
                    custom: None,
                    default: kw::CODE_BLANK,
                },
                Form::Value(_) => {
                    errors.at(
                        span,
                        "`non_blank` takes no value: write `non_blank` or `non_blank(code = \"..\")`",
                    );
                    return None;
                }
                _ => args(item, &[kw::CODE], errors)?.code(kw::CODE_BLANK),
            };
            Some(TextRule::NonBlank { code, span })
        }
        TextRuleName::MaxChars => {
            let (max, code) = limit_rule(item, kw::CODE_TOO_LONG, errors)?;
            Some(TextRule::MaxChars { max, code, span })
        }
    }
}

fn each_rule(item: Item, errors: &mut Errors) -> Option<FieldRule> {
    let span = item.name.span();
    let Form::List(items) = item.form else {
        errors.at(
            span,
            "`each` takes element rules in parentheses: `each(non_blank, max_chars = N)`",
        );
        return None;
    };
    if items.is_empty() {
        errors.at(
            span,
            "`each` needs at least one element rule: `non_blank` or `max_chars = N`",
        );
        return None;
    }
    let mut seen = Vec::new();
    let mut rules = Vec::new();
    for inner in items {
        let name = inner.name.unraw().to_string();
        let Some(rule) = TextRuleName::from_name(&name) else {
            let why = if FieldRuleName::from_name(&name).is_some()
                || StructRuleName::from_name(&name).is_some()
            {
                format!("`{name}` is not an element rule")
            } else {
                format!("unknown rule `{name}`")
            };
            errors.at(
                inner.name.span(),
                format!(
                    "{why}; {}`each` supports {}",
                    TextRuleName::did_you_mean(&name),
                    TextRuleName::list()
                ),
            );
            continue;
        };
        if duplicate(&inner.name, &mut seen, "element rule", errors) {
            continue;
        }
        if let Some(rule) = text_rule(inner, rule, errors) {
            rules.push(rule);
        }
    }
    Some(FieldRule::Each { rules, span })
}

/// `rule = E` or `rule(max = E, code = "..")`.
fn limit_rule(item: Item, default: &'static str, errors: &mut Errors) -> Option<(Limit, Code)> {
    match item.form {
        Form::Value(expr) => Some((
            Limit { expr },
            Code {
                custom: None,
                default,
            },
        )),
        Form::Bare => {
            let name = item.name.unraw();
            errors.at(
                item.name.span(),
                format!("`{name}` needs a limit: `{name} = N` or `{name}(max = N)`"),
            );
            None
        }
        _ => {
            let args = args(item, &[kw::MAX, kw::CODE], errors)?;
            let max = args.require_max(errors)?;
            Some((max, args.code(default)))
        }
    }
}

/// The arguments of `rule(..)`.
struct Args {
    rule: Ident,
    max: Option<Expr>,
    code: Option<LitStr>,
    idents: Vec<(&'static str, Ident)>,
    /// Arguments that take any expression (`equals`'s `value`, `regex`, `required_if`'s
    /// `equals`).
    exprs: Vec<(&'static str, Expr)>,
    trim: bool,
    ignore_case: bool,
    pairs: Vec<Pair>,
    /// Every argument written, valid or not (so a bad one is not also reported missing).
    written: Vec<&'static str>,
}

impl Args {
    fn code(&self, default: &'static str) -> Code {
        Code {
            custom: self.code.clone(),
            default,
        }
    }

    fn require_max(&self, errors: &mut Errors) -> Option<Limit> {
        if self.max.is_none() && !self.written.contains(&kw::MAX) {
            errors.at(
                self.rule.span(),
                format!("`{}` needs `max = N`", self.rule.unraw()),
            );
        }
        self.max.clone().map(|expr| Limit { expr })
    }

    fn require_expr(&self, key: &'static str, example: &str, errors: &mut Errors) -> Option<Expr> {
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

    fn optional_ident(&self, key: &'static str) -> Option<Ident> {
        self.idents
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, i)| i.clone())
    }

    fn require_ident(&self, key: &'static str, errors: &mut Errors) -> Option<Ident> {
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
fn args(item: Item, allowed: &[&'static str], errors: &mut Errors) -> Option<Args> {
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
        code: None,
        idents: Vec::new(),
        exprs: Vec::new(),
        trim: false,
        ignore_case: false,
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
            (kw::TRIM | kw::IGNORE_CASE, Form::Bare) => {
                if key == kw::TRIM {
                    out.trim = true;
                } else {
                    out.ignore_case = true;
                }
            }
            (kw::TRIM | kw::IGNORE_CASE, _) => errors.at(
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
    )
}

/// `ident` in `key = ident`.
fn field_name(expr: &Expr) -> Option<Ident> {
    match expr {
        Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => p.path.get_ident().cloned(),
        _ => None,
    }
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

fn struct_rule(item: Item, model: &mut Model, seen: &mut Vec<(String, Span)>, errors: &mut Errors) {
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
    if duplicate(&item.name, seen, "struct rule", errors) {
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
        StructRuleName::MaxJsonBytes => {
            if let Some((max, code)) = limit_rule(item, kw::CODE_TOO_LARGE, errors) {
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
