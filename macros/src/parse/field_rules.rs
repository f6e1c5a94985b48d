//! Field rules: `#[validate(..)]` on a field, element rules (`each(..)`) included.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::Expr;

use crate::errors::Errors;
use crate::kw::{self, ElementRuleName, FieldRuleName, StructRuleName};
use crate::model::{Code, ElementRule, FieldRule, Limit};

use super::arguments::args;
use super::{duplicate, Form, Item};

pub(super) fn field_rule(
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
            element_rule(item, ElementRuleName::NonBlank, errors).map(FieldRule::Element)
        }
        FieldRuleName::MaxChars => {
            element_rule(item, ElementRuleName::MaxChars, errors).map(FieldRule::Element)
        }
        FieldRuleName::MinChars => {
            element_rule(item, ElementRuleName::MinChars, errors).map(FieldRule::Element)
        }
        FieldRuleName::MinItems => {
            let (min, code) = limit_rule(item, kw::MIN, kw::CODE_TOO_FEW, errors)?;
            Some(FieldRule::MinItems { min, code, span })
        }
        FieldRuleName::Range => {
            element_rule(item, ElementRuleName::Range, errors).map(FieldRule::Element)
        }
        FieldRuleName::MaxItems => {
            let (max, code) = limit_rule(item, kw::MAX, kw::CODE_TOO_MANY, errors)?;
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
            element_rule(item, ElementRuleName::Pattern, errors).map(FieldRule::Element)
        }
        FieldRuleName::Format => {
            element_rule(item, ElementRuleName::Format, errors).map(FieldRule::Element)
        }
        FieldRuleName::Custom => {
            element_rule(item, ElementRuleName::Custom, errors).map(FieldRule::Element)
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

/// `custom = path::to_fn`: the function's path.
pub(super) fn custom_fn(item: Item, errors: &mut Errors) -> Option<syn::Path> {
    match item.form {
        Form::Value(Expr::Path(p)) if p.qself.is_none() && p.attrs.is_empty() => Some(p.path),
        Form::Value(other) => {
            errors.at(
                other.span(),
                "`custom` takes the path of a function, e.g. `custom = checks::sku`",
            );
            None
        }
        _ => {
            errors.at(
                item.name.span(),
                "expected `custom = path::to_fn`: a `fn(&T, &Path<'_>, &mut Report)` that pushes its violations",
            );
            None
        }
    }
}

/// `rule` or `rule(code = "..")`.
pub(super) fn code_only(item: Item, default: &'static str, errors: &mut Errors) -> Option<Code> {
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

fn element_rule(item: Item, rule: ElementRuleName, errors: &mut Errors) -> Option<ElementRule> {
    let span = item.name.span();
    match rule {
        ElementRuleName::NonBlank => {
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
            Some(ElementRule::NonBlank { code, span })
        }
        ElementRuleName::MaxChars => {
            let (max, code) = limit_rule(item, kw::MAX, kw::CODE_TOO_LONG, errors)?;
            Some(ElementRule::MaxChars { max, code, span })
        }
        ElementRuleName::MinChars => {
            let (min, code) = limit_rule(item, kw::MIN, kw::CODE_TOO_SHORT, errors)?;
            Some(ElementRule::MinChars { min, code, span })
        }
        ElementRuleName::Pattern => {
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
            Some(ElementRule::Pattern {
                regex,
                code: args.code(kw::CODE_PATTERN),
                span,
            })
        }
        ElementRuleName::Format => {
            let args = args(item, &[kw::KIND, kw::CODE], errors)?;
            let kind = args.require_expr(kw::KIND, "\"date-time\"", errors)?;
            let known = kw::list(&kw::FORMATS.iter().map(|f| f.0).collect::<Vec<_>>());
            let name = match &kind {
                Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => s.value(),
                other => {
                    errors.at(
                        other.span(),
                        format!("`kind` must be a string literal, one of {known}"),
                    );
                    return None;
                }
            };
            let Some(&(_, variant)) = kw::FORMATS.iter().find(|f| f.0 == name) else {
                errors.at(
                    kind.span(),
                    format!("unknown format `{name}`; formats are {known}"),
                );
                return None;
            };
            Some(ElementRule::Format {
                variant,
                code: args.code(kw::CODE_FORMAT),
                span,
            })
        }
        ElementRuleName::Custom => {
            let func = custom_fn(item, errors)?;
            Some(ElementRule::Custom { func, span })
        }
        ElementRuleName::Range => {
            let args = args(item, &[kw::MIN, kw::MAX, kw::CODE], errors)?;
            let (min, max) = (args.min.clone(), args.max.clone());
            let written = |k| args.written.contains(&k);
            if !written(kw::MIN) && !written(kw::MAX) {
                errors.at(
                    span,
                    "`range` needs a bound: `range(min = A)`, `range(max = B)` or both",
                );
                return None;
            }
            Some(ElementRule::Range {
                min,
                max,
                code: args.code(kw::CODE_RANGE),
                span,
            })
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
            format!(
                "`each` needs at least one element rule: {}",
                ElementRuleName::list()
            ),
        );
        return None;
    }
    let mut seen = Vec::new();
    let mut rules = Vec::new();
    for inner in items {
        let name = inner.name.unraw().to_string();
        let Some(rule) = ElementRuleName::from_name(&name) else {
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
                    ElementRuleName::did_you_mean(&name),
                    ElementRuleName::list()
                ),
            );
            continue;
        };
        if duplicate(&inner.name, &mut seen, "element rule", errors) {
            continue;
        }
        if let Some(rule) = element_rule(inner, rule, errors) {
            rules.push(rule);
        }
    }
    Some(FieldRule::Each { rules, span })
}

/// `rule = E` or `rule(KEY = E, code = "..")` (`KEY` is `max` or `min`).
pub(super) fn limit_rule(
    item: Item,
    key: &'static str,
    default: &'static str,
    errors: &mut Errors,
) -> Option<(Limit, Code)> {
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
                format!("`{name}` needs a limit: `{name} = N` or `{name}({key} = N)`"),
            );
            None
        }
        _ => {
            let args = args(item, &[key, kw::CODE], errors)?;
            let limit = args.require_limit(key, errors)?;
            Some((limit, args.code(default)))
        }
    }
}
