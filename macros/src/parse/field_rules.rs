//! Field rules: `#[validate(..)]` on a field, element rules (`each(..)`) included.
//!
//! Every rule is one entry of [`RULES`]: its name (also the runtime function it calls), the
//! arguments it takes and how it is read; reading a rule is a look-up and a loop over its
//! arguments.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::spanned::Spanned as _;
use syn::Expr;

use crate::errors::Errors;
use crate::kw::{self, StructRuleName};
use crate::model::{Fold, Rule, RuleKind};

use super::arguments::{read, Arg, ArgKind, Args, Short};
use super::{duplicate, Form, Item};

/// One field rule.
struct RuleSpec {
    /// As written in `#[validate(..)]`; also the runtime function it calls.
    name: &'static str,
    /// Whether `each(..)` applies it to every element too (a rule on one value).
    element: bool,
    read: Reader,
}

/// How a rule is read.
enum Reader {
    /// From its arguments: `short` are the forms besides `rule(args..)`, `code` the default
    /// violation code, `build` makes the rule of arguments that hold every required value.
    Args {
        args: &'static [Arg],
        short: Short,
        code: &'static str,
        build: fn(Args, &mut Errors) -> Option<RuleKind>,
    },
    /// From the item as written (`each`, `nested`, `custom`: no code, no arguments list).
    Item(fn(Item, &mut Errors) -> Option<RuleKind>),
}

const fn rule(
    name: &'static str,
    element: bool,
    args: &'static [Arg],
    short: Short,
    code: &'static str,
    build: fn(Args, &mut Errors) -> Option<RuleKind>,
) -> RuleSpec {
    RuleSpec {
        name,
        element,
        read: Reader::Args {
            args,
            short,
            code,
            build,
        },
    }
}

const fn item_rule(
    name: &'static str,
    element: bool,
    read: fn(Item, &mut Errors) -> Option<RuleKind>,
) -> RuleSpec {
    RuleSpec {
        name,
        element,
        read: Reader::Item(read),
    }
}

const ELEMENT: bool = true;
const FIELD: bool = false;

const fn required(key: &'static str, kind: ArgKind) -> Arg {
    Arg::required(key, kind)
}

const fn optional(key: &'static str, kind: ArgKind) -> Arg {
    Arg::optional(key, kind)
}

const CODE: Arg = Arg::CODE;
const MAX: &[Arg] = &[required(kw::MAX, ArgKind::Limit), CODE];
const MIN: &[Arg] = &[required(kw::MIN, ArgKind::Limit), CODE];
const CODE_ONLY: &[Arg] = &[CODE];

/// Every field rule, in the order "unknown rule" messages list them: its name, whether it
/// applies to elements too, its arguments, its short forms, its default code, and what it
/// reads into (`?` on a required argument never fails: `read` checked them).
#[rustfmt::skip]
static RULES: &[RuleSpec] = &[
    rule("non_blank", ELEMENT, CODE_ONLY, Short::Bare, kw::CODE_BLANK,
        |_, _| Some(RuleKind::Plain)),
    rule("max_chars", ELEMENT, MAX, Short::Limit(kw::MAX), kw::CODE_TOO_LONG,
        |mut a, _| Some(RuleKind::Limit(a.limit(kw::MAX)?))),
    rule("min_chars", ELEMENT, MIN, Short::Limit(kw::MIN), kw::CODE_TOO_SHORT,
        |mut a, _| Some(RuleKind::Limit(a.limit(kw::MIN)?))),
    rule("range", ELEMENT,
        &[optional(kw::MIN, ArgKind::Limit), optional(kw::MAX, ArgKind::Limit), CODE],
        Short::None, kw::CODE_RANGE, range),
    rule("max_items", FIELD, MAX, Short::Limit(kw::MAX), kw::CODE_TOO_MANY,
        |mut a, _| Some(RuleKind::ListLimit(a.limit(kw::MAX)?))),
    rule("min_items", FIELD, MIN, Short::Limit(kw::MIN), kw::CODE_TOO_FEW,
        |mut a, _| Some(RuleKind::ListLimit(a.limit(kw::MIN)?))),
    item_rule("each", FIELD, each),
    item_rule("nested", FIELD, nested),
    rule("max_items_per_group", FIELD,
        &[required(kw::BY, ArgKind::Field), required(kw::MAX, ArgKind::Limit), CODE],
        Short::None, kw::CODE_TOO_MANY,
        |mut a, _| Some(RuleKind::MaxItemsPerGroup { by: a.field(kw::BY)?, max: a.limit(kw::MAX)? })),
    rule("unique_by", FIELD,
        &[required(kw::KEY, ArgKind::Fields), optional(kw::TRIM, ArgKind::Flag),
            optional(kw::IGNORE_CASE, ArgKind::Flag), CODE],
        Short::None, kw::CODE_DUPLICATE,
        |mut a, _| Some(match a.fields(kw::KEY)? {
            Ok(key) => RuleKind::UniqueBy { key, fold: fold(&a) },
            Err(keys) => RuleKind::UniqueKeys { keys, fold: fold(&a) },
        })),
    rule("contradiction", FIELD,
        &[required(kw::BY, ArgKind::Field), required(kw::VALUE, ArgKind::Field),
            required(kw::PAIR, ArgKind::Pair), CODE],
        Short::None, kw::CODE_CONTRADICTORY,
        |mut a, _| Some(RuleKind::Contradiction {
            by: a.field(kw::BY)?,
            value: a.field(kw::VALUE)?,
            pairs: a.pairs,
        })),
    rule("equals", FIELD, &[required(kw::VALUE, ArgKind::Expr("\"..\"")), CODE],
        Short::None, kw::CODE_UNEXPECTED,
        |mut a, _| Some(RuleKind::Equals(a.expr(kw::VALUE)?))),
    rule("pattern", ELEMENT, &[required(kw::REGEX, ArgKind::Expr("\"^..$\"")), CODE],
        Short::None, kw::CODE_PATTERN, pattern),
    rule("format", ELEMENT, &[required(kw::KIND, ArgKind::Expr("\"date-time\"")), CODE],
        Short::None, kw::CODE_FORMAT, format),
    item_rule("custom", ELEMENT, |item, errors| custom_fn(item, errors).map(RuleKind::Custom)),
    rule("relative_path", FIELD, CODE_ONLY, Short::Bare, kw::CODE_PATH,
        |_, _| Some(RuleKind::Plain)),
    rule("required", FIELD, CODE_ONLY, Short::Bare, kw::CODE_REQUIRED,
        |_, _| Some(RuleKind::Plain)),
    rule("required_if", FIELD,
        &[required(kw::FIELD, ArgKind::Field),
            required(kw::EQUALS, ArgKind::Expr("Enum::Variant")), CODE],
        Short::None, kw::CODE_REQUIRED,
        |mut a, _| Some(RuleKind::RequiredIf { field: a.field(kw::FIELD)?, equals: a.expr(kw::EQUALS)? })),
    rule("unique", FIELD,
        &[optional(kw::IGNORE_CASE, ArgKind::Flag), optional(kw::TRIM, ArgKind::Flag), CODE],
        Short::Bare, kw::CODE_DUPLICATE_ITEM,
        |a, _| Some(RuleKind::Unique(fold(&a)))),
    rule("scale", ELEMENT,
        &[required(kw::MAX, ArgKind::Limit), optional(kw::PRECISION, ArgKind::Limit), CODE],
        Short::None, kw::CODE_SCALE,
        |mut a, _| Some(RuleKind::Scale { max: a.limit(kw::MAX)?, precision: a.limit(kw::PRECISION) })),
    rule("decimal_range", ELEMENT,
        &[optional(kw::MIN, ArgKind::Expr("\"0.00\"")), optional(kw::ABOVE, ArgKind::Expr("\"0\"")),
            optional(kw::MAX, ArgKind::Expr("\"999.99\"")), optional(kw::BELOW, ArgKind::Expr("\"100\"")), CODE],
        Short::None, kw::CODE_RANGE, decimal_range),
];

/// The field rule written `name`, if it is one (an element rule only when `element`).
fn find(name: &str, element: bool) -> Option<&'static RuleSpec> {
    RULES
        .iter()
        .find(|spec| spec.name == name && (spec.element || !element))
}

/// Whether `name` is a field rule.
pub(super) fn is_field_rule(name: &str) -> bool {
    find(name, false).is_some()
}

/// The names of the field rules (the element rules when `element`), in table order.
fn names(element: bool) -> Vec<&'static str> {
    RULES
        .iter()
        .filter(|spec| spec.element || !element)
        .map(|spec| spec.name)
        .collect()
}

/// Reads one rule on a field: its entry, found by name, reads it.
pub(super) fn field_rule(
    item: Item,
    seen: &mut Vec<(String, Span)>,
    errors: &mut Errors,
) -> Option<Rule> {
    let name = item.name.unraw().to_string();
    let span = item.name.span();
    let Some(spec) = find(&name, false) else {
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
                    kw::did_you_mean(&name, &names(false)),
                    kw::list(&names(false))
                ),
            );
        }
        return None;
    };
    if duplicate(&item.name, seen, "rule", errors) {
        return None;
    }
    read_rule(spec, item, errors)
}

/// Reads one rule by its entry.
fn read_rule(spec: &'static RuleSpec, item: Item, errors: &mut Errors) -> Option<Rule> {
    let span = item.name.span();
    let (kind, code) = match spec.read {
        Reader::Args {
            args,
            short,
            code,
            build,
        } => {
            let args = read(item, args, short, errors)?;
            let code = args.code(code);
            (build(args, errors)?, Some(code))
        }
        Reader::Item(build) => (build(item, errors)?, None),
    };
    Some(Rule {
        name: spec.name,
        kind,
        code,
        span,
    })
}

fn fold(args: &Args) -> Fold {
    Fold {
        trim: args.flag(kw::TRIM),
        ignore_case: args.flag(kw::IGNORE_CASE),
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

/// `nested` or `nested(flatten)`.
fn nested(item: Item, errors: &mut Errors) -> Option<RuleKind> {
    match &item.form {
        Form::Bare => Some(RuleKind::Nested { flatten: false }),
        Form::List(args)
            if args.len() == 1
                && args[0].name == kw::FLATTEN
                && matches!(args[0].form, Form::Bare) =>
        {
            Some(RuleKind::Nested { flatten: true })
        }
        _ => {
            errors.at(
                item.name.span(),
                "`nested` takes no arguments but `flatten`: write `nested` or `nested(flatten)`",
            );
            None
        }
    }
}

/// `range(min = A, max = B)`: at least one bound.
fn range(mut args: Args, errors: &mut Errors) -> Option<RuleKind> {
    if !args.written(kw::MIN) && !args.written(kw::MAX) {
        errors.at(
            args.rule.span(),
            "`range` needs a bound: `range(min = A)`, `range(max = B)` or both",
        );
        return None;
    }
    Some(RuleKind::Range {
        min: args.expr(kw::MIN),
        max: args.expr(kw::MAX),
    })
}

/// `decimal_range(min|above = "..", max|below = "..")`: at least one bound, one per end, each
/// a string literal holding a JSON number.
fn decimal_range(mut args: Args, errors: &mut Errors) -> Option<RuleKind> {
    let mut end = |inclusive: &'static str,
                   exclusive: &'static str|
     -> Result<Option<(syn::LitStr, bool)>, ()> {
        if args.written(inclusive) && args.written(exclusive) {
            errors.at(
                args.rule.span(),
                format!(
                    "`decimal_range` takes `{inclusive}` or `{exclusive}` for one end, not both"
                ),
            );
            return Err(());
        }
        let (key, excluded) = if args.written(exclusive) {
            (exclusive, true)
        } else {
            (inclusive, false)
        };
        let Some(expr) = args.expr(key) else {
            return Ok(None);
        };
        let number = regex_lite::Regex::new(r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$")
            .expect("a valid regex");
        match expr {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) if number.is_match(&s.value()) => Ok(Some((s, excluded))),
            other => {
                errors.at(
                    other.span(),
                    format!("`{key}` must be a string literal holding a JSON number, e.g. `{key} = \"999.99\"`: the bound is read exactly, as the value is"),
                );
                Err(())
            }
        }
    };
    let (Ok(min), Ok(max)) = (end(kw::MIN, kw::ABOVE), end(kw::MAX, kw::BELOW)) else {
        return None;
    };
    if min.is_none() && max.is_none() {
        errors.at(
            args.rule.span(),
            "`decimal_range` needs a bound: `min`/`above` (excluded), `max`/`below` (excluded)",
        );
        return None;
    }
    Some(RuleKind::DecimalRange { min, max })
}

/// `pattern(regex = "..")`: a string literal that is a valid regex.
fn pattern(mut args: Args, errors: &mut Errors) -> Option<RuleKind> {
    let regex = match args.expr(kw::REGEX)? {
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
    Some(RuleKind::Pattern(regex))
}

/// `format(kind = "..")`: one of the formats the runtime knows.
fn format(mut args: Args, errors: &mut Errors) -> Option<RuleKind> {
    let kind = args.expr(kw::KIND)?;
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
    Some(RuleKind::Format(variant))
}

/// `each(rule, ..)`: element rules, each read by its own entry.
fn each(item: Item, errors: &mut Errors) -> Option<RuleKind> {
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
                kw::list(&names(true))
            ),
        );
        return None;
    }
    let mut seen = Vec::new();
    let mut rules = Vec::new();
    for inner in items {
        let name = inner.name.unraw().to_string();
        let Some(spec) = find(&name, true) else {
            let why = if is_field_rule(&name) || StructRuleName::from_name(&name).is_some() {
                format!("`{name}` is not an element rule")
            } else {
                format!("unknown rule `{name}`")
            };
            errors.at(
                inner.name.span(),
                format!(
                    "{why}; {}`each` supports {}",
                    kw::did_you_mean(&name, &names(true)),
                    kw::list(&names(true))
                ),
            );
            continue;
        };
        if duplicate(&inner.name, &mut seen, "element rule", errors) {
            continue;
        }
        if let Some(rule) = read_rule(spec, inner, errors) {
            rules.push(rule);
        }
    }
    Some(RuleKind::Each(rules))
}

#[cfg(test)]
mod tests {
    use super::{find, is_field_rule, names, RULES};
    use crate::kw::{self, StructRuleName};

    /// Each name reads back as its own rule, and a name is a field rule or a struct rule,
    /// never both (the parser says "is a struct rule" / "is a field rule" by that), but
    /// `custom`, a hand-written check of either.
    #[test]
    fn names_read_back_and_the_tables_do_not_overlap() {
        for spec in RULES {
            assert!(std::ptr::eq(find(spec.name, false).unwrap(), spec));
            if spec.name != "custom" {
                assert_eq!(StructRuleName::from_name(spec.name), None);
            }
            if spec.element {
                assert!(std::ptr::eq(find(spec.name, true).unwrap(), spec));
            }
        }
        for &rule in StructRuleName::ALL {
            assert_eq!(StructRuleName::from_name(rule.name()), Some(rule));
        }
        assert!(!is_field_rule("rename"));
        assert_eq!(
            kw::list(&names(true)),
            "`non_blank`, `max_chars`, `min_chars`, `range`, `pattern`, `format`, `custom`, `scale`, `decimal_range`",
            "`each` lists its rules in table order"
        );
    }
}
