//! Conditions (`if `field` is `value``, `unless …`, `if any `lines[].category` is …`): each
//! Required cell's condition is read once every table is known, since its path may step into
//! other tables.

use super::parse::RawCondition;
use super::Checker;
use crate::diag::File;
use crate::loader::markdown::CodeSpan;
use crate::model::*;

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
