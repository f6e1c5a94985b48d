//! Conditions (`if `field` is `value``, `unless …`, `if any `lines[].category` is …`): each
//! Required cell's condition is read once every table is known, since its path may step into
//! other tables.

use super::parse::{parse_condition, RawCondition};
use super::Checker;
use crate::diag::File;
use crate::loader::markdown::CodeSpan;
use crate::loader::sidecar::{SideGuarded, Spanned};
use crate::model::*;

/// The forms of a sidecar condition, for hints.
const FORMS: &str = "write it as a Required cell does, without `if`: \"`category` is `E`\", \"`category` is `E`, `AE` or `K`\", \"`zone` is not `domestic`\", \"any `lines[].category` is `S`\", \"every `parcels[].size` is `large`\"";

/// What a condition may read, for hints.
const READS: &str =
    "a condition reads an enum, bool or text field (`?` allowed), or the items of a list of them";

impl Checker<'_> {
    /// Reads the condition of every Required cell that states one into its field's
    /// `required_if` (its code is found later, with the other rule codes).
    pub(super) fn conditions(&mut self) {
        for (table, key, raw, pos) in std::mem::take(&mut self.pending_conditions) {
            let Some(obj) = self.index.object_index(&table) else {
                continue;
            };
            let Some(condition) = self.condition(obj, &raw, File::Md) else {
                continue;
            };
            let Some(fi) = self.index.field_index(obj, &key) else {
                continue;
            };
            self.index.objects[obj].fields[fi].rules.required_if = Some(RequiredIf {
                condition,
                code: String::new(),
            });
            self.pending_required_if.push((table, key, pos));
        }
    }

    /// Resolves `raw`, whose path is read from object `obj`; reports (in `file`) what does
    /// not resolve or cannot be compared.
    pub(super) fn condition(
        &mut self,
        obj: usize,
        raw: &RawCondition,
        file: File,
    ) -> Option<Condition> {
        let path = &raw.path;
        let resolved = self.index.resolve(obj, &path.text);
        let spanned = crate::loader::sidecar::Spanned {
            value: path.text.clone(),
            pos: path.pos,
        };
        let target = self.resolved(resolved, &spanned, file)?;
        let steps = self.condition_steps(obj, &path.text);
        let leaf = &self.index.objects[target.obj].fields[target.field];
        let (leaf_key, leaf_ty) = (leaf.key.clone(), leaf.ty.clone());
        if leaf_ty.array && !target.elems {
            self.ctx.error(
                file,
                path.pos,
                format!("`{leaf_key}` is a list: a condition reads its items"),
                format!(
                    "write `any `{0}[]`` (some item is one of the values) or `every `{0}[]``",
                    path.text
                ),
            );
            return None;
        }
        let lists = steps.iter().filter(|s| s.items).count();
        match (raw.quantifier, lists) {
            (Quantifier::One, 0) | (Quantifier::Any | Quantifier::Every, 1..) => {}
            (Quantifier::One, _) => {
                self.ctx.error(
                    file,
                    path.pos,
                    format!("`{}` reads the items of a list, which hold many values", path.text),
                    format!(
                        "write `any `{0}`` (some item is one of the values) or `every `{0}`` (each is)",
                        path.text
                    ),
                );
                return None;
            }
            (_, 0) => {
                let word = if raw.quantifier == Quantifier::Any {
                    "any"
                } else {
                    "every"
                };
                self.ctx.error(
                    file,
                    path.pos,
                    format!("`{}` is one value: `{word}` needs a list", path.text),
                    format!(
                        "drop `{word}`, or step into a list's items with `[]` (`lines[].category`)"
                    ),
                );
                return None;
            }
        }
        let (values, when, enum_rust) = self.condition_values(&leaf_key, &leaf_ty, raw, file)?;
        Some(Condition {
            quantifier: raw.quantifier,
            path: path.text.clone(),
            steps,
            negated: raw.negated,
            values,
            when,
            enum_rust,
        })
    }

    /// The sidecar's `[[required_if]]`, `[[any_of]]`, `[[one_of]]` and `[[value_if]]`, each on
    /// the object its `path` names (the root without one).
    pub(super) fn guarded_rules(&mut self, root: Option<usize>) {
        let mut all = std::mem::take(&mut self.side.guarded);
        // In sidecar order, whatever the table.
        all.sort_by_key(|g| (g.pos.line, g.pos.col));
        for g in all {
            let what = format!("[[{}]]", g.kind);
            let code = self.rule_code(&g.code, g.pos, &what);
            let Some(root) = root else { continue };
            let Some(obj) = self.object_at(root, &g.path) else {
                continue;
            };
            let condition = match &g.condition {
                None => None,
                Some((text, negated)) => match self.side_condition(obj, text, *negated) {
                    Some(c) => Some(c),
                    None => continue,
                },
            };
            if g.kind == "value_if" && condition.is_none() {
                self.ctx.toml(
                    g.pos,
                    "[[value_if]] has no `if` or `unless`",
                    "a value rule without a condition belongs in the Type cell (a range); add `if = \"...\"`",
                );
                continue;
            }
            let Some(rule) = self.guarded_rule(obj, &g, &what) else {
                continue;
            };
            let Some(code) = code else { continue };
            self.index.objects[obj].guarded.push(Guarded {
                rule,
                condition,
                code,
            });
        }
    }

    /// A sidecar condition (`if` / `unless`): code spans in backticks, read as a Required
    /// cell's condition from object `obj`.
    fn side_condition(
        &mut self,
        obj: usize,
        text: &Spanned<String>,
        negated: bool,
    ) -> Option<Condition> {
        let mut codes = Vec::new();
        let mut plain = String::new();
        for (i, part) in text.value.split('`').enumerate() {
            if i % 2 == 1 {
                codes.push(CodeSpan {
                    text: part.to_owned(),
                    pos: text.pos,
                });
            }
            plain.push_str(part);
        }
        let word = if negated { "unless" } else { "if" };
        let raw = if text.value.matches('`').count() % 2 == 0 {
            parse_condition(&format!("{word} {plain}"), &codes)
        } else {
            None
        };
        let Some(raw) = raw else {
            self.ctx.toml(
                text.pos,
                format!("cannot read the condition `{}`", text.value),
                FORMS,
            );
            return None;
        };
        self.condition(obj, &raw, File::Toml)
    }

    /// What a `[[required_if]]`, `[[any_of]]`, `[[one_of]]` or `[[value_if]]` entry requires of
    /// object `obj`; reports what it cannot be.
    fn guarded_rule(&mut self, obj: usize, g: &SideGuarded, what: &str) -> Option<GuardedRule> {
        match g.kind {
            "required_if" => {
                let field = self.required(&g.field, g.pos, what, "field")?.clone();
                let t = self.resolved(self.index.resolve(obj, &field.value), &field, File::Toml)?;
                let f = &self.index.objects[t.obj].fields[t.field];
                if field.value.contains("[]") {
                    self.ctx.toml(
                        field.pos,
                        format!("`{}` steps into a list", field.value),
                        "[[required_if]] requires one field: to require a member of each item, set `path` to the list (`lines[]`) and `field` to the member",
                    );
                    return None;
                }
                if !f.ty.nullable {
                    self.ctx.toml(
                        field.pos,
                        format!("`{}` is required only sometimes, so its type must be `T?`", field.value),
                        "add `?` to its type: absent (or null) is allowed while the condition does not hold",
                    );
                    return None;
                }
                Some(GuardedRule::Required {
                    steps: self.condition_steps(obj, &field.value),
                    path: field.value,
                })
            }
            "any_of" | "one_of" => {
                if g.fields.len() < 2 {
                    self.ctx.toml(
                        g.pos,
                        format!("{what} names {} field(s)", g.fields.len()),
                        "list two fields or more: `fields = [\"a\", \"b\"]`",
                    );
                    return None;
                }
                let mut members = Vec::new();
                for name in &g.fields {
                    if members.iter().any(|m: &Member| m.key == name.value) {
                        self.ctx.toml(
                            name.pos,
                            format!("{what} names `{}` twice", name.value),
                            "list each field once",
                        );
                        return None;
                    }
                    let f = self.member(obj, name)?;
                    if f.default.is_some() || f.absent_is_empty {
                        let why = if f.absent_is_empty {
                            "it reads as `{}` when absent"
                        } else {
                            "it has a default"
                        };
                        self.ctx.toml(
                            name.pos,
                            format!("`{}` is never absent ({why})", name.value),
                            format!("{what} names fields that may be absent: `T?`, a list, or a field with a coded requirement"),
                        );
                        return None;
                    }
                    members.push(f.member());
                }
                Some(if g.kind == "any_of" {
                    GuardedRule::AnyOf(members)
                } else {
                    GuardedRule::OneOf(members)
                })
            }
            _ => {
                let name = self.required(&g.field, g.pos, what, "field")?.clone();
                let must = self.required(&g.must, g.pos, what, "must")?.clone();
                let f = self.member(obj, &name)?;
                self.value_rule(&f, &name, &must)
            }
        }
    }

    /// `must = "absent"` or `must = "> 0"` on field `f`.
    fn value_rule(
        &mut self,
        f: &Field,
        name: &Spanned<String>,
        must: &Spanned<String>,
    ) -> Option<GuardedRule> {
        let text = must.value.trim();
        if text == "absent" {
            if !f.ty.nullable {
                self.ctx.toml(
                    name.pos,
                    format!("`{}` cannot be absent: its type is not `T?`", f.key),
                    "`must = \"absent\"` applies to a `T?` field (absent or null)",
                );
                return None;
            }
            return Some(GuardedRule::Absent(f.member()));
        }
        let ops = [
            (">=", CompareOp::Ge),
            ("<=", CompareOp::Le),
            (">", CompareOp::Gt),
            ("<", CompareOp::Lt),
            ("=", CompareOp::Eq),
        ];
        let hint = "write `must = \"absent\"`, or a comparison with a number: `> 0`, `>= 1`, `= 0`, `< 100`, `<= 2.5`";
        let Some((op, rest)) = ops
            .iter()
            .find_map(|(s, op)| text.strip_prefix(s).map(|rest| (*op, rest.trim())))
        else {
            self.ctx.toml(
                must.pos,
                format!("cannot read `must = \"{}\"`", must.value),
                hint,
            );
            return None;
        };
        if f.default.is_some() {
            self.ctx.toml(
                name.pos,
                format!("`{}` has a default, which the bound would judge while the field is absent", f.key),
                "make it `T?` (absent is not compared), or state the bound in its Type cell (a range)",
            );
            return None;
        }
        let integer = f.ty.base.integer_width().is_some();
        if f.ty.array || !(integer || f.ty.base == Base::Number) {
            self.ctx.toml(
                name.pos,
                format!("`{}` is not a number field", f.key),
                "a comparison applies to an integer type or `number` (`T` or `T?`), not a list",
            );
            return None;
        }
        let bound = serde_json::from_str::<serde_json::Number>(rest)
            .ok()
            .filter(|n| n.as_f64().is_some_and(f64::is_finite))
            .filter(|n| !integer || n.is_i64() || n.is_u64());
        let Some(bound) = bound else {
            let hint = if integer {
                format!("`{}` is an integer: compare it with an integer", f.key)
            } else {
                hint.to_owned()
            };
            self.ctx
                .toml(must.pos, format!("cannot read the bound `{rest}`"), hint);
            return None;
        };
        Some(GuardedRule::Compare {
            field: f.member(),
            op,
            bound,
        })
    }

    /// The members of `path` (already resolved) from object `obj`.
    fn condition_steps(&self, mut obj: usize, path: &str) -> Vec<ConditionStep> {
        let mut steps = Vec::new();
        for seg in path.split('.') {
            let (key, items) = match seg.strip_suffix("[]") {
                Some(k) => (k, true),
                None => (seg, false),
            };
            let o = &self.index.objects[obj];
            let Some(fi) = self.index.field_index(obj, key) else {
                break;
            };
            steps.push(ConditionStep {
                member: o.fields[fi].member(),
                table: o.name.clone(),
                items,
            });
            if let Some(next) = self.index.elem_object(obj, fi) {
                obj = next;
            }
        }
        steps
    }

    /// The values of `raw` as the field `key` of type `ty` holds them: its Rust variants
    /// (enums), and their JSON; reports a value the field cannot hold, a value written
    /// twice, and a field a condition cannot read.
    fn condition_values(
        &mut self,
        key: &str,
        ty: &TypeRef,
        raw: &RawCondition,
        file: File,
    ) -> Option<(Vec<Member>, Vec<serde_json::Value>, String)> {
        let mut seen: Vec<&str> = Vec::new();
        let mut twice = false;
        for v in &raw.values {
            if seen.contains(&v.text.as_str()) {
                self.ctx.error(
                    file,
                    v.pos,
                    format!("`{}` is written twice in the condition", v.text),
                    "list each value once",
                );
                twice = true;
            }
            seen.push(&v.text);
        }
        let member = |v: &CodeSpan, rust: String| Member {
            key: v.text.clone(),
            rust,
        };
        let mut values = Vec::new();
        let mut when = Vec::new();
        let enum_rust;
        match &ty.base {
            Base::Enum(name) => {
                let e = self
                    .index
                    .enum_named(name)
                    .or_else(|| self.index.state_enums.iter().find(|e| e.name == *name))
                    .cloned()?;
                let mut ok = true;
                for v in &raw.values {
                    match self.enum_value(&e, &v.text, v.pos, file) {
                        Some(variant) => values.push(member(v, variant)),
                        None => ok = false,
                    }
                    when.push(serde_json::json!(v.text));
                }
                if !ok {
                    return None;
                }
                enum_rust = e.rust_name.clone();
            }
            Base::Bool => {
                for v in &raw.values {
                    let b = match v.text.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => {
                            self.ctx.error(
                                file,
                                v.pos,
                                format!("`{}` is not a bool", v.text),
                                format!("`{key}` is a bool field: write `true` or `false`"),
                            );
                            return None;
                        }
                    };
                    values.push(member(v, String::new()));
                    when.push(serde_json::json!(b));
                }
                enum_rust = String::new();
            }
            Base::String => {
                for v in &raw.values {
                    values.push(member(v, String::new()));
                    when.push(serde_json::json!(v.text));
                }
                enum_rust = String::new();
            }
            other => {
                let what = match other {
                    Base::Object(n) | Base::Union(n) => format!("the table `{n}`"),
                    Base::Selected(_) => "an object chosen by another field".to_owned(),
                    Base::Any => "`any`".to_owned(),
                    _ => "a number".to_owned(),
                };
                self.ctx.error(
                    file,
                    raw.path.pos,
                    format!(
                        "`{}` is {what}, which a condition cannot compare",
                        raw.path.text
                    ),
                    READS,
                );
                return None;
            }
        }
        if twice {
            return None;
        }
        Some((values, when, enum_rust))
    }
}
