//! Rules tables (`Code | On | Rule`, or `Code | Rule` on the root): each row an expression of
//! the runtime's language (`specmint_runtime::expr`), read with its paths resolved against
//! the object it sits on and its operands' types checked, then kept as a [`Guarded`] rule of
//! that object (with the row's condition, `if …` / `unless …` after the expression).

use specmint_runtime::expr::{Aggregate, Cmp, Expr, PathExpr};

use super::parse::parse_condition;
use super::Checker;
use crate::diag::{File, Pos};
use crate::loader::markdown::{Cell, Table};
use crate::loader::sidecar::Spanned;
use crate::model::*;

/// What a part of a rule computes to.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Number,
    /// Text; an enum's values are text of that enum (its table name).
    Text(Option<String>),
    Bool,
    /// An object of the field table at this index (only `has` reads one, and a binder's
    /// name stands for one).
    Object(usize),
}

/// The names binders have bound where a part of a rule is read, innermost last.
type Names<'n> = &'n [(String, Ty)];

impl Ty {
    fn name(&self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Text(None) => "text",
            Ty::Text(Some(_)) => "an enum value",
            Ty::Bool => "a bool",
            Ty::Object(_) => "an object",
        }
    }
}

const FUNCTIONS: &str = "a rule is an expression in a code span: `total = sum(lines[].amount)`, `round(base * rate / 100, 2) = vat ± 0.01`, `has(iban) or has(card)` (see *Rules tables* in docs/spec-format.md)";

impl Checker<'_> {
    /// Every row of the rules tables, in document order, each kept on the object its On
    /// cell names (the root when blank, `—` or absent).
    pub(super) fn expression_rules(&mut self, tables: &[&Table], root: Option<usize>) {
        for t in tables {
            let with_on = t.header.len() == 3;
            for row in &t.rows {
                let code = &row.cells[0];
                let (on, rule) = if with_on {
                    (Some(&row.cells[1]), &row.cells[2])
                } else {
                    (None, &row.cells[1])
                };
                let Some(code) = code.codes.first().cloned().or_else(|| {
                    let text = code.plain.trim();
                    (!text.is_empty()).then(|| crate::loader::markdown::CodeSpan {
                        text: text.to_owned(),
                        pos: code.pos,
                    })
                }) else {
                    self.ctx.md(
                        row.pos,
                        "this rule has no code",
                        "write the rule's error code in the Code cell: `BR-CO-10`",
                    );
                    continue;
                };
                self.book.use_code_md(&mut self.ctx, &code);
                let Some(root) = root else { continue };
                let Some(obj) = self.rule_object(root, on) else {
                    continue;
                };
                let Some((expr, condition)) = self.rule_cell(obj, rule) else {
                    continue;
                };
                // Declared: its code is one the schema cannot state (`x-rules`).
                let on_path = on
                    .map(|c| c.key().to_owned())
                    .filter(|p| !p.is_empty() && p != "—" && p != "-");
                self.declare(
                    RuleKind::Expression,
                    on_path.unwrap_or_default(),
                    code.text.clone(),
                );
                self.index.objects[obj].guarded.push(Guarded {
                    rule: GuardedRule::Expression {
                        text: expr.to_string(),
                        expr,
                    },
                    condition,
                    code: code.text,
                });
            }
        }
    }

    /// The object an On cell names: the root when it is blank or `—`, else a field whose type
    /// is a field table (`totals`), or the items of a list of them (`lines[]`).
    fn rule_object(&mut self, root: usize, on: Option<&Cell>) -> Option<usize> {
        let Some(on) = on else { return Some(root) };
        let text = on.key();
        if text.is_empty() || text == "—" || text == "-" {
            return Some(root);
        }
        let path = Spanned {
            value: text.to_owned(),
            pos: on.codes.first().map_or(on.pos, |c| c.pos),
        };
        let t = self.resolve_at(root, &path, File::Md)?;
        let ty = &self.index.objects[t.obj].fields[t.field].ty;
        match &ty.base {
            Base::Object(name) if !ty.array || t.elems => self.index.object_index(name),
            _ => {
                self.ctx.md(
                    path.pos,
                    format!("`{}` is not an object", path.value),
                    "the On cell names the object the rule reads from: a field whose type is a field table (with `[]` for each item of a list of them), or `—` for the document",
                );
                None
            }
        }
    }

    /// The expression of a Rule cell and its condition, read from object `obj`.
    fn rule_cell(&mut self, obj: usize, cell: &Cell) -> Option<(Expr, Option<Condition>)> {
        let Some(span) = cell.codes.first() else {
            self.ctx
                .md(cell.pos, "the rule is not in a code span", FUNCTIONS);
            return None;
        };
        // The cell's Markdown after the expression's code span: ` if `category` is `S``.
        let opening = format!("`{}`", span.text);
        let rest = cell.md.trim_start().strip_prefix(opening.as_str());
        let Some(rest) = rest.map(str::trim) else {
            self.ctx
                .md(cell.pos, "the rule is not the cell's first word", FUNCTIONS);
            return None;
        };
        // The expression starts one char after the backtick.
        let at = |offset: usize| Pos {
            line: span.pos.line,
            col: span.pos.col + 1 + offset,
        };
        let expr = match Expr::parse(&span.text) {
            Ok(e) => e,
            Err(e) => {
                self.ctx.md(
                    at(e.at),
                    format!("cannot read the rule `{}`: {}", span.text, e.message),
                    FUNCTIONS,
                );
                return None;
            }
        };
        let condition = if rest.is_empty() {
            None
        } else {
            let mut plain = String::new();
            for part in rest.split('`') {
                plain.push_str(part);
            }
            let codes = &cell.codes[1..];
            let Some(raw) = parse_condition(&plain, codes) else {
                self.ctx.md(
                    codes.first().map_or(cell.pos, |c| c.pos),
                    format!("cannot read the condition `{rest}`"),
                    "after the rule, a condition as a Required cell writes one: if `category` is `S` (or `unless …`)",
                );
                return None;
            };
            Some(self.condition(obj, &raw, File::Md)?)
        };
        let ty = self.rule_type(obj, &expr, &at, &[])?;
        if ty != Ty::Bool {
            self.ctx.md(
                at(0),
                format!("the rule `{}` is {}, not a comparison", span.text, ty.name()),
                "a rule is true or false: compare (`a = b`), ask `has(...)`, or join such parts with `and`, `or`, `not`",
            );
            return None;
        }
        Some((expr, condition))
    }

    /// The type of `e` read from object `obj`; reports (at `at(offset)`) what does not fit.
    fn rule_type(
        &mut self,
        obj: usize,
        e: &Expr,
        at: &dyn Fn(usize) -> Pos,
        names: Names<'_>,
    ) -> Option<Ty> {
        let number = |me: &mut Self, e: &Expr| -> Option<()> {
            match me.rule_type(obj, e, at, names)? {
                Ty::Number => Some(()),
                other => {
                    me.ctx.md(
                        at(first_offset(e)),
                        format!("`{e}` is {}: arithmetic takes numbers", other.name()),
                        "an integer, `number` or `decimal(S)` field, a number, or arithmetic of them",
                    );
                    None
                }
            }
        };
        let boolean = |me: &mut Self, e: &Expr| -> Option<()> {
            match me.rule_type(obj, e, at, names)? {
                Ty::Bool => Some(()),
                other => {
                    me.ctx.md(
                        at(first_offset(e)),
                        format!(
                            "`{e}` is {}, where `and`, `or` and `not` take a comparison",
                            other.name()
                        ),
                        "compare it: `a = b`, `a > 0`",
                    );
                    None
                }
            }
        };
        Some(match e {
            Expr::Number(_) => Ty::Number,
            Expr::Text(_) => Ty::Text(None),
            Expr::Bool(_) => Ty::Bool,
            Expr::Path(p) => match self.rule_path(obj, p, at, names)? {
                Ty::Object(_) => {
                    self.ctx.md(
                        at(p.at),
                        format!("`{p}` is an object: a rule compares its members"),
                        format!("name a member (`{p}.<field>`), or ask `has({p})`"),
                    );
                    return None;
                }
                ty => ty,
            },
            Expr::Has(p) => {
                self.rule_path(obj, p, at, names)?;
                Ty::Bool
            }
            Expr::Count(p) => {
                self.rule_path(obj, p, at, names)?;
                Ty::Number
            }
            Expr::Over(over) => {
                let item = self.rule_path(obj, &over.list, at, names)?;
                if self.index.objects[obj]
                    .fields
                    .iter()
                    .any(|f| f.key == over.name)
                    || names.iter().any(|(n, _)| *n == over.name)
                {
                    self.ctx.md(
                        at(over.list.at),
                        format!(
                            "`{}` names a member already, where it names each item of `{}`",
                            over.name, over.list
                        ),
                        "choose a name that is no field of the object and no other binder's",
                    );
                    return None;
                }
                let mut inner = names.to_vec();
                inner.push((over.name.clone(), item));
                let inner = &inner[..];
                if let Some(f) = &over.filter {
                    match self.rule_type(obj, f, at, inner)? {
                        Ty::Bool => {}
                        other => {
                            self.ctx.md(
                                at(first_offset(f)),
                                format!("`{f}` is {}, where `if` takes a comparison", other.name()),
                                "compare it: `l.category = \"S\"`",
                            );
                            return None;
                        }
                    }
                }
                let want = match over.what {
                    Aggregate::Sum => Some(Ty::Number),
                    Aggregate::All | Aggregate::Any => Some(Ty::Bool),
                    Aggregate::Count => None,
                };
                if let (Some(body), Some(want)) = (&over.body, want) {
                    let got = self.rule_type(obj, body, at, inner)?;
                    if got != want {
                        self.ctx.md(
                            at(first_offset(body)),
                            format!("`{body}` is {}, where `{}` takes {}", got.name(), e.to_string().split('(').next().unwrap_or_default(), want.name()),
                            "`sum(l in lines[], l.amount)` adds numbers; `all(b in list[], cond)` and `any(...)` test a comparison",
                        );
                        return None;
                    }
                }
                match over.what {
                    Aggregate::Sum | Aggregate::Count => Ty::Number,
                    Aggregate::All | Aggregate::Any => Ty::Bool,
                }
            }
            Expr::Sum(p) => match self.rule_path(obj, p, at, names)? {
                Ty::Number => Ty::Number,
                other => {
                    self.ctx.md(
                        at(p.at),
                        format!("`{p}` is {}: `sum` adds numbers", other.name()),
                        "sum a number member of the items, or `count` them",
                    );
                    return None;
                }
            },
            Expr::Default(a, b) => {
                let (x, y) = (
                    self.rule_type(obj, a, at, names),
                    self.rule_type(obj, b, at, names),
                );
                let (x, y) = (x?, y?);
                self.comparable(e, (a, &x), Cmp::Eq, (b, &y), at)?;
                x
            }
            Expr::Neg(a) | Expr::Abs(a) | Expr::Round(a, _, _) => {
                number(self, a)?;
                Ty::Number
            }
            Expr::MinMax(_, a, b) | Expr::Arith(a, _, b) => {
                let (x, y) = (number(self, a), number(self, b));
                x.and(y)?;
                Ty::Number
            }
            Expr::And(a, b) | Expr::Or(a, b) => {
                let (x, y) = (boolean(self, a), boolean(self, b));
                x.and(y)?;
                Ty::Bool
            }
            Expr::Not(a) => {
                boolean(self, a)?;
                Ty::Bool
            }
            Expr::Cmp(a, op, b, tolerance) => {
                let x = self.rule_type(obj, a, at, names);
                let y = self.rule_type(obj, b, at, names);
                let t = tolerance.as_ref().map(|t| number(self, t));
                let (x, y) = (x?, y?);
                if t == Some(None) {
                    return None;
                }
                self.comparable(e, (a, &x), *op, (b, &y), at)?;
                Ty::Bool
            }
        })
    }

    /// Whether `a op b` compares like with like (numbers in any order, text and enum
    /// values and bools by `=` and `!=`, an enum only with its own values).
    fn comparable(
        &mut self,
        e: &Expr,
        (a, x): (&Expr, &Ty),
        op: Cmp,
        (b, y): (&Expr, &Ty),
        at: &dyn Fn(usize) -> Pos,
    ) -> Option<()> {
        let pos = at(first_offset(e));
        let same_kind = matches!(
            (x, y),
            (Ty::Number, Ty::Number) | (Ty::Text(_), Ty::Text(_)) | (Ty::Bool, Ty::Bool)
        );
        if !same_kind {
            self.ctx.md(
                pos,
                format!("`{e}` compares {} with {}", x.name(), y.name()),
                "compare numbers with numbers, text with text, an enum with its values (`category = \"S\"`)",
            );
            return None;
        }
        if *x != Ty::Number && !matches!(op, Cmp::Eq | Cmp::Ne) {
            self.ctx.md(
                pos,
                format!("`{e}` orders {}", x.name()),
                "`<`, `<=`, `>` and `>=` compare numbers; text, enum values and bools take `=` and `!=`",
            );
            return None;
        }
        // An enum against a literal: the literal is one of its values.
        for (ty, other) in [(x, b), (y, a)] {
            if let (Ty::Text(Some(name)), Expr::Text(value)) = (ty, other) {
                let Some(en) = self.index.enum_named(name) else {
                    continue;
                };
                if !en.values.iter().any(|v| v.value == *value) {
                    let values: Vec<&str> = en.values.iter().map(|v| v.value.as_str()).collect();
                    let hint = match crate::names::did_you_mean(value, values.iter().copied()) {
                        Some(s) => format!("did you mean `\"{s}\"`?"),
                        None => format!(
                            "`{name}` has {}",
                            values
                                .iter()
                                .map(|v| format!("`{v}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    };
                    self.ctx
                        .md(pos, format!("`\"{value}\"` is no value of `{name}`"), hint);
                    return None;
                }
            }
        }
        if let (Ty::Text(Some(m)), Ty::Text(Some(n))) = (x, y) {
            if m != n {
                self.ctx.md(
                    pos,
                    format!("`{e}` compares values of `{m}` with values of `{n}`"),
                    "an enum compares with its own values",
                );
                return None;
            }
        }
        Some(())
    }

    /// The type a path reaches from object `obj`: every step a member, `[]` exactly on the
    /// lists, every step but the last an object.
    fn rule_path(
        &mut self,
        obj: usize,
        p: &PathExpr,
        at: &dyn Fn(usize) -> Pos,
        names: Names<'_>,
    ) -> Option<Ty> {
        let pos = at(p.at);
        let mut cur = obj;
        let last = p.steps.len() - 1;
        let mut from = 0;
        // A path that starts with a binder's name reads from its item.
        if let Some((_, ty)) = names.iter().rev().find(|(n, _)| *n == p.steps[0].name) {
            if p.steps[0].each {
                self.ctx.md(
                    pos,
                    format!("`{}` is an item, not a list", p.steps[0].name),
                    format!("remove `[]` after `{}`", p.steps[0].name),
                );
                return None;
            }
            if last == 0 {
                return Some(ty.clone());
            }
            let Ty::Object(o) = ty else {
                self.ctx.md(
                    pos,
                    format!(
                        "`{}` is {}: the path cannot go on through it",
                        p.steps[0].name,
                        ty.name()
                    ),
                    "every step but the last names a field whose type is a field table",
                );
                return None;
            };
            cur = *o;
            from = 1;
        }
        for (i, step) in p.steps.iter().enumerate().skip(from) {
            let o = &self.index.objects[cur];
            let Some(f) = o.fields.iter().find(|f| f.key == step.name) else {
                if self.index.is_poisoned(&o.name, &step.name) {
                    return None;
                }
                let (message, hint) = (
                    format!("`{}` is no field of `{}`", step.name, o.name),
                    format!("fields: {}", self.index.member_list(cur)),
                );
                self.ctx.md(pos, message, hint);
                return None;
            };
            if f.ty.array != step.each {
                let (message, hint) = if f.ty.array {
                    (
                        format!("`{}` is a list", step.name),
                        format!("write `{}[]` to read its items (in `sum`, `count`), or `has({})` to ask whether it is given", step.name, step.name),
                    )
                } else {
                    (
                        format!("`{}` is not a list", step.name),
                        format!("remove `[]` after `{}`", step.name),
                    )
                };
                self.ctx.md(pos, message, hint);
                return None;
            }
            let ty = match &f.ty.base {
                Base::Object(name) => {
                    let next = self.index.object_index(name)?;
                    cur = next;
                    Ty::Object(next)
                }
                Base::String => Ty::Text(None),
                Base::Enum(name) => Ty::Text(Some(name.clone())),
                Base::Bool => Ty::Bool,
                Base::Number | Base::Decimal { .. } => Ty::Number,
                b if b.integer_width().is_some() => Ty::Number,
                _ => {
                    self.ctx.md(
                        pos,
                        format!("`{}` cannot be read by a rule (a union, a chosen object or `any`)", step.name),
                        "a rule reads numbers, text, enum values, bools and the field tables that hold them",
                    );
                    return None;
                }
            };
            if i == last {
                return Some(ty);
            }
            if !matches!(ty, Ty::Object(_)) {
                self.ctx.md(
                    pos,
                    format!(
                        "`{}` is {}: the path cannot go on through it",
                        step.name,
                        ty.name()
                    ),
                    "every step but the last names a field whose type is a field table",
                );
                return None;
            }
        }
        None
    }
}

/// Where a diagnostic about `e` points: its first path, else the rule's start.
fn first_offset(e: &Expr) -> usize {
    e.paths().first().map_or(0, |(p, _)| p.at)
}

#[cfg(test)]
mod tests {
    use crate::model::GuardedRule;
    use crate::SpecSource;

    const MD: &str = "# Invoices\n\n## An `invoice`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `total` | decimal(2) | ✔ | |\n| `category` | category | ✔ | |\n| `lines` | line[] | ✔ | |\n\n## A `line`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `net` | decimal(2) | ✔ | |\n| `note` | string? | — | |\n\n## The `category`\n\n| Value | Meaning |\n|---|---|\n| `S` | standard |\n| `E` | exempt |\n\n## Rules\n\n| Code | On | Rule |\n|---|---|---|\n";
    const ERRORS: &str =
        "\n## Errors\n\n| Code | When |\n|---|---|\n| `bad` | not JSON |\n| `R1` | a rule |\n| `R2` | too many fraction digits |\n";
    const TOML: &str = "[spec]\nroot = \"invoice\"\n\n[errors]\nparse = \"bad\"\nscale = \"R2\"\n";

    fn load(rows: &str) -> Result<crate::model::Spec, String> {
        let md = format!("{MD}{rows}{ERRORS}");
        crate::load(&SpecSource {
            name: "inv".into(),
            md_path: "inv.md".into(),
            md,
            toml_path: "inv.toml".into(),
            toml: TOML.into(),
            locales: Vec::new(),
        })
        .map_err(|d| d.to_string())
    }

    #[test]
    fn a_row_becomes_a_guarded_rule_of_its_object() {
        let spec = load("| `R1` | — | `total = Σ lines[].net` if `category` is `S` |\n").unwrap();
        let g = &spec.root_object().guarded[0];
        assert_eq!(g.code, "R1");
        assert!(g.condition.is_some());
        let GuardedRule::Expression { text, .. } = &g.rule else {
            panic!("{g:?}")
        };
        assert_eq!(text, "total = sum(lines[].net)");
    }

    #[test]
    fn each_mistake_is_reported_at_its_place() {
        for (row, expected) in [
            ("| `R1` | — | `total = sum(lines[].nett)` |", "inv.md:29:27: error: `nett` is no field of `line`"),
            ("| `R1` | — | `total = lines[].net` |", "inv.md:29:23: error: cannot read the rule `total = lines[].net`: `lines[].net` reaches a list of values"),
            ("| `R1` | — | `total = sum(lines.net)` |", "inv.md:29:27: error: cannot read the rule `total = sum(lines.net)`: `sum` reads a list's items"),
            ("| `R1` | — | `count(lines[].net[]) = 1` |", "inv.md:29:21: error: `net` is not a list"),
            ("| `R1` | — | `has(lines)` and count(lines[].net) = 1` |", "inv.md:29:14: error: cannot read the condition `and count(lines[].net) = 1``"),
            ("| `R1` | — | rule `total = 1` |", "inv.md:29:14: error: the rule is not the cell's first word"),
            ("| `R1` | — | `category = \"X\"` |", "inv.md:29:15: error: `\"X\"` is no value of `category`"),
            ("| `R1` | — | `category > \"S\"` |", "inv.md:29:15: error: `category > \"S\"` orders an enum value"),
            ("| `R1` | — | `total + category = 1` |", "inv.md:29:23: error: `category` is an enum value: arithmetic takes numbers"),
            ("| `R1` | — | `total` |", "inv.md:29:15: error: the rule `total` is a number, not a comparison"),
            ("| `R1` | `total` | `net = 1` |", "inv.md:29:10: error: `total` is not an object"),
            ("| `R1` | `lines[]` | `net = 1` if `kind` is `S` |", "inv.md:29:35: error: path `kind` does not resolve"),
            ("| `R9` | — | `total = 1` |", "inv.md:29:3: error: code `R9` is not in the error table"),
        ] {
            let err = load(&format!("{row}\n")).unwrap_err();
            assert!(err.contains(expected), "{row}\n{err}");
        }
    }
}
