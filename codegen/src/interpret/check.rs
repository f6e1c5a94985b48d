//! The rules, run over a read document: the calls `#[derive(Validate)]` makes, in its order
//! (a struct's fields in order, each field's rules in order, then the struct's own rules).

use specmint_runtime::interp::{UniqueByKeys, UniqueKeys};
use specmint_runtime::rules::{self, DigestFields, KeyMember, Named, TextField};
use specmint_runtime::{Path, Report, Validate};

use super::compile::{Compiled, Cond, ElementRule, Field, GuardedRule, Name, Rule, StructRule};
use super::node::{Node, Scalar, View};
use super::read::Interpreted;
use super::write::Written;
use crate::model::Quantifier;

impl Validate for Interpreted {
    fn validate_at(&self, path: &Path<'_>, report: &mut Report) {
        nested(&self.compiled, &self.node, path, report);
    }
}

/// `Validate::validate_at` of a value: each item of a list (at its index), an object or a
/// union; nothing for an absent value or a scalar.
fn nested(c: &Compiled, node: &Node, path: &Path<'_>, report: &mut Report) {
    match node {
        Node::List(items) => {
            for (i, item) in items.iter().enumerate() {
                nested(c, item, &path.index(i), report);
            }
        }
        Node::Object(t, values, _) => object(c, *t, node, values, path, report),
        Node::Union(t, v, values) => {
            let variant = &c.union(*t).variants[*v];
            for (f, value) in variant.members.iter().zip(values) {
                field(c, f, value, values, path, report);
            }
        }
        _ => {}
    }
}

fn object(
    c: &Compiled,
    t: usize,
    node: &Node,
    values: &[Node],
    path: &Path<'_>,
    report: &mut Report,
) {
    let o = c.object(t);
    let mut body_done = false;
    for (i, (f, value)) in o.fields.iter().zip(values).enumerate() {
        if let Some(sel) = &o.selector {
            if i == sel.by || sel.members.contains(&i) {
                // The body (choosing field and chosen members) is validated where its first
                // member sits, at the owner's path: each chosen member at its own key.
                if !body_done {
                    body_done = true;
                    for &m in &sel.members {
                        nested(c, &values[m], &path.field(&o.fields[m].key), report);
                    }
                }
                continue;
            }
        }
        field(c, f, value, values, path, report);
    }
    for rule in &o.struct_rules {
        struct_rule(c, rule, node, values, path, report);
    }
}

fn field(
    c: &Compiled,
    f: &Field,
    value: &Node,
    siblings: &[Node],
    path: &Path<'_>,
    report: &mut Report,
) {
    if f.rules.is_empty() {
        return;
    }
    let at = path.field(&f.key);
    let items = value.items();
    for rule in &f.rules {
        match rule {
            Rule::Required(code) => rules::required(value, &at, code, report),
            Rule::RequiredIf {
                sibling,
                sibling_name,
                value: equals,
                code,
            } => {
                if let Some(sibling) = siblings.get(*sibling) {
                    rules::required_if(
                        value,
                        Named {
                            name: sibling_name,
                            value: &Scalar(sibling),
                        },
                        &Scalar(equals),
                        &at,
                        code,
                        report,
                    );
                }
            }
            Rule::MaxItems(max, code) => {
                if let Some(items) = items {
                    rules::max_items(items, &at, *max, code, report);
                }
            }
            Rule::MinItems(min, code) => {
                if let Some(items) = items {
                    rules::min_items(items, &at, *min, code, report);
                }
            }
            Rule::MaxItemsPerGroup {
                by,
                by_name,
                max,
                code,
            } => {
                if let Some(items) = items {
                    rules::max_items_per_group_named(
                        items,
                        |it: &Node| it.enum_at(*by),
                        by_name,
                        &at,
                        *max,
                        code,
                        report,
                    );
                }
            }
            Rule::Value(text) => {
                for r in text {
                    element_rule(r, value, &at, report);
                }
            }
            Rule::Each(text) => {
                for (i, item) in items.unwrap_or_default().iter().enumerate() {
                    let item_at = at.index(i);
                    for r in text {
                        element_rule(r, item, &item_at, report);
                    }
                }
            }
            Rule::Nested => nested(c, value, &at, report),
            Rule::Unique(fold, code) => {
                if let Some(items) = items {
                    rules::unique(items, *fold, &at, code, report);
                }
            }
            Rule::UniqueBy {
                key,
                key_name,
                fold,
                code,
            } => {
                if let Some(items) = items {
                    // An item without its key (a requirement on the key reports it) is
                    // skipped, as the generated code's key probe skips `None`.
                    let mut keys =
                        UniqueByKeys::new(items.len(), key_name, *fold, &at, code, report);
                    for it in items {
                        keys.key(it.fields().get(*key).and_then(Node::text));
                    }
                }
            }
            Rule::UniqueKeys {
                keys: members,
                names,
                fold,
                code,
            } => {
                if let Some(items) = items {
                    let names: Vec<&str> = names.iter().map(|n| &**n).collect();
                    let mut keys = UniqueKeys::new(items.len(), &names, *fold, &at, code, report);
                    let mut values = Vec::with_capacity(members.len());
                    for it in items {
                        values.clear();
                        values.extend(
                            members
                                .iter()
                                .map(|&m| it.fields().get(m).and_then(KeyMember::key_value)),
                        );
                        keys.item(&values);
                    }
                }
            }
            Rule::Contradiction {
                by,
                value: value_member,
                value_name,
                pairs,
                code,
            } => {
                if let Some(items) = items {
                    rules::contradiction(
                        items,
                        |it: &Node| it.enum_at(*by),
                        Named {
                            name: value_name,
                            value: &|it: &Node| it.text_at(*value_member),
                        },
                        pairs,
                        &at,
                        code,
                        report,
                    );
                }
            }
        }
    }
}

fn element_rule(rule: &ElementRule, value: &Node, at: &Path<'_>, report: &mut Report) {
    match rule {
        ElementRule::NonBlank(code) => rules::non_blank(value, at, code, report),
        ElementRule::MaxChars(max, code) => rules::max_chars(value, at, *max, code, report),
        ElementRule::MinChars(min, code) => rules::min_chars(value, at, *min, code, report),
        ElementRule::Equals(expected, code) => rules::equals(value, expected, at, code, report),
        ElementRule::Pattern(pattern, code) => rules::pattern(value, pattern, at, code, report),
        ElementRule::RelativePath(code) => rules::relative_path(value, at, code, report),
        ElementRule::Format(kind, code) => rules::format(value, *kind, at, code, report),
        ElementRule::Range(bounds, code) => rules::range(value, *bounds, at, code, report),
        ElementRule::NumberRange(bounds, code) => {
            rules::number_range(value, *bounds, at, code, report)
        }
        ElementRule::Scale(scale, precision, code) => {
            rules::scale(value, *scale, *precision, at, code, report)
        }
        ElementRule::DecimalRange(range, code) => {
            // As the generated `decimal_range(..)` passes them: each bound's text.
            let (min, max) = (
                range.min.map(|b| b.value.to_string()),
                range.max.map(|b| b.value.to_string()),
            );
            let bounds = rules::DecimalBounds {
                min: min.as_deref(),
                min_excluded: range.min.is_some_and(|b| b.excluded),
                max: max.as_deref(),
                max_excluded: range.max.is_some_and(|b| b.excluded),
            };
            rules::decimal_range(value, bounds, at, code, report)
        }
    }
}

fn struct_rule(
    c: &Compiled,
    rule: &StructRule,
    node: &Node,
    values: &[Node],
    path: &Path<'_>,
    report: &mut Report,
) {
    let member = |i: usize| values.get(i).unwrap_or(&Node::Absent);
    match rule {
        StructRule::RequiredWhen {
            field,
            key,
            condition,
            code,
        } => {
            if let Some(when) = condition_says(condition, node) {
                rules::required_when(member(*field), &when, &path.field(key), code, report);
            }
        }
        StructRule::Guarded {
            rule,
            condition,
            code,
        } => {
            let when = match condition {
                Some(c) if !holds(c, node) => return,
                Some(c) => Some(&c.text),
                None => None,
            };
            let when = when.map(|w| w as &dyn std::fmt::Display);
            fn given<'m>(ms: &'m [(usize, Name)], values: &[Node]) -> (Vec<&'m str>, usize) {
                let filled: Vec<&dyn rules::Filled> = ms
                    .iter()
                    .map(|(i, _)| values.get(*i).unwrap_or(&Node::Absent) as &dyn rules::Filled)
                    .collect();
                let names: Vec<&str> = ms.iter().map(|(_, n)| &**n).collect();
                (names, rules::given_count(&filled))
            }
            match rule {
                GuardedRule::Required { steps, path: to } => {
                    let value = chain(Some(node), steps).unwrap_or(&Node::Absent);
                    let names: Vec<&str> = to.split('.').collect();
                    path.with_fields(&names, |at| match when {
                        Some(when) => rules::required_when(value, when, at, code, report),
                        None => rules::required(value, at, code, report),
                    });
                }
                GuardedRule::AnyOf(ms) => {
                    let (names, n) = given(ms, values);
                    rules::any_of(&names, n, when, path, code, report);
                }
                GuardedRule::OneOf(ms) => {
                    let (names, n) = given(ms, values);
                    rules::one_of(&names, n, when, path, code, report);
                }
                GuardedRule::Compare {
                    field: (i, key),
                    op,
                    bound,
                } => {
                    let value = match member(*i) {
                        Node::UInt(n) => Some(rules::Num::Int((*n).into())),
                        Node::Int(n) => Some(rules::Num::Int((*n).into())),
                        Node::Float(x) => Some(rules::Num::Float(*x)),
                        _ => None,
                    };
                    rules::compare(value, *op, *bound, when, &path.field(key), code, report);
                }
                GuardedRule::Absent((i, key)) => {
                    let present = !matches!(member(*i), Node::Absent);
                    rules::absent(present, when, &path.field(key), code, report);
                }
                GuardedRule::Expression(expr) => {
                    let subject = View { c, node };
                    specmint_runtime::expr::check(expr, &subject, when, path, code, report);
                }
            }
        }
        StructRule::NotEqual {
            a,
            a_name,
            b,
            b_name,
            code,
        } => rules::not_equal(
            Named {
                name: a_name,
                value: &Scalar(member(*a)),
            },
            Named {
                name: b_name,
                value: &Scalar(member(*b)),
            },
            path,
            code,
            report,
        ),
        StructRule::Order {
            a,
            a_name,
            b,
            b_name,
            strict,
            code,
        } => rules::order(
            Named {
                name: a_name,
                value: member(*a),
            },
            Named {
                name: b_name,
                value: member(*b),
            },
            *strict,
            path,
            code,
            report,
        ),
        StructRule::NotContains {
            list,
            list_name,
            value,
            value_name,
            owner,
            code,
        } => rules::not_contains(
            Named {
                name: list_name,
                value: &member(*list).items(),
            },
            Named {
                name: value_name,
                value: member(*value),
            },
            owner,
            path,
            code,
            report,
        ),
        StructRule::Digest {
            sha256,
            data,
            encoding,
            label,
            length,
            code,
        } => {
            let encoding = Scalar(member(*encoding));
            let fields = DigestFields {
                sha256: member(sha256.0).text(),
                sha256_name: &sha256.1,
                data: member(data.0).text(),
                data_name: &data.1,
                encoding: &encoding,
                label: label.and_then(|i| member(i).text()),
                length: length
                    .as_ref()
                    .and_then(|(i, _)| rules::ByteCount::byte_count(member(*i))),
                length_name: length.as_ref().map_or("", |(_, name)| name),
            };
            rules::digest(&fields, path, code, report);
        }
        StructRule::MaxJsonBytes(max, code) => {
            rules::max_json_bytes(&Written { c, node }, path, *max, code, report);
        }
    }
}

/// Member `i` of object `node`; `None` when it or the member is absent.
fn member_at(node: Option<&Node>, i: usize) -> Option<&Node> {
    node?.fields().get(i).filter(|v| !matches!(v, Node::Absent))
}

/// The value at `steps` (none a list) from `node`, as the generated `Option` chain reads it.
fn chain<'a>(mut node: Option<&'a Node>, steps: &[(usize, bool)]) -> Option<&'a Node> {
    for (i, _) in steps {
        node = member_at(node, *i);
    }
    node
}

/// The values a condition's path reaches from `node`, as the generated check reads them
/// (`emit/rust/object.rs`, `condition_check`): one per item of the path's last list, read on
/// through the members after it (`None` for an absent one); before that list, an absent
/// member or list reaches no item.
fn reached<'a>(node: Option<&'a Node>, steps: &[(usize, bool)], out: &mut Vec<Option<&'a Node>>) {
    if !steps.iter().any(|(_, items)| *items) {
        out.push(chain(node, steps));
        return;
    }
    let Some(((i, items), rest)) = steps.split_first() else {
        return;
    };
    let Some(member) = member_at(node, *i) else {
        return;
    };
    if *items {
        for item in member.items().unwrap_or_default() {
            reached(Some(item), rest, out);
        }
    } else {
        reached(Some(member), rest, out);
    }
}

/// Whether condition `c`, read from object `node`, holds (see [`reached`]).
fn holds(c: &Cond, node: &Node) -> bool {
    let mut leaves = Vec::new();
    reached(Some(node), &c.steps, &mut leaves);
    let hit = |leaf: &Option<&Node>| leaf.is_some_and(|v| c.values.contains(v));
    let matched = match c.quantifier {
        Quantifier::Every => !leaves.is_empty() && leaves.iter().all(hit),
        _ => leaves.iter().any(hit),
    };
    matched != c.negated
}

/// What a conditional requirement's message says while `c` holds: the value found for the
/// plain form and a set of values (`` `mode` is `rail` ``), the condition otherwise; `None`
/// while it does not hold.
fn condition_says(c: &Cond, node: &Node) -> Option<String> {
    if !holds(c, node) {
        return None;
    }
    if c.quantifier == Quantifier::One && !c.negated {
        let shown = chain(Some(node), &c.steps)?;
        return Some(format!("`{}` is `{}`", c.path, Scalar(shown)));
    }
    Some(c.text.to_string())
}
