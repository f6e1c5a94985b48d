//! Caps phase: each cap row's constant, number and unit, and what it binds to: its own Cap
//! cell's path, or the sidecar's `[caps.<CONSTANT>]` (a path, a per-group cap, the
//! document's byte cap).

use super::codes::Ask;
use super::index::{MemberTarget, Target};
use super::Checker;
use crate::diag::{Context, File};
use crate::loader::markdown::{Cell, Row, Table};
use crate::loader::sidecar::{SideCap, Spanned};
use crate::model::*;
use crate::names::{is_screaming_snake, suggest};

/// A cap row's cells, read.
struct CapRow<'r> {
    constant: String,
    value: u64,
    /// The unit the Value cell states.
    unit: Option<Unit>,
    /// The unit as written.
    unit_word: Option<&'r str>,
    /// `at least N ..`: a minimum, not a cap.
    at_least: bool,
    value_cell: &'r Cell,
    /// The Cap cell, as Markdown.
    label: String,
    /// The path in the Cap cell's code span, if any.
    cell_path: Option<Spanned<String>>,
}

impl CapRow<'_> {
    /// The model of this row, bound as `binding`, in `unit`.
    fn cap(&self, unit: Unit, binding: String) -> Cap {
        Cap {
            label: self.label.clone(),
            value_text: self.value_cell.plain.clone(),
            value: self.value,
            unit,
            at_least: self.at_least,
            constant: self.constant.clone(),
            binding,
        }
    }

    fn cap_use(&self, code: String) -> CapUse {
        CapUse {
            constant: self.constant.clone(),
            value: self.value,
            code,
        }
    }

    /// Reports a unit that does not fit the path it binds to.
    fn misfit(&self, ctx: &mut Context, unit_word: &str, path: &str, why: &str) {
        ctx.md(
            self.value_cell.pos,
            format!("unit `{unit_word}` does not fit `{path}`: {why}"),
            "chars caps bind to strings (`tags[]` for the elements of a string array), items caps to arrays; byte caps are bound in the sidecar with `rule = \"document_bytes\"`",
        );
    }
}

/// What a char or item cap (or minimum) asks of its field, and what it is called.
struct CapKind {
    /// Whether the field can take it.
    fits: bool,
    /// Why not, when it cannot.
    why_not: &'static str,
    /// The field rule it fills.
    rule: &'static str,
    /// Its plural and singular names in messages.
    what: &'static str,
    noun: &'static str,
}

impl CapKind {
    /// A cap (a minimum when `at_least`) in `unit` on a string or array target; `None` for
    /// bytes, which measure the whole document.
    fn of(
        unit: Unit,
        at_least: bool,
        is_string_target: bool,
        is_array_target: bool,
    ) -> Option<Self> {
        Some(match unit {
            Unit::Chars => CapKind {
                fits: is_string_target,
                why_not: if is_array_target {
                    "it is an array (write `[]` to cap its elements)"
                } else {
                    "it is not a string"
                },
                rule: if at_least { "min_chars" } else { "max_chars" },
                what: if at_least {
                    "minimum lengths"
                } else {
                    "char caps"
                },
                noun: if at_least {
                    "a minimum length"
                } else {
                    "a char cap"
                },
            },
            Unit::Items => CapKind {
                fits: is_array_target,
                why_not: "it is not an array",
                rule: if at_least { "min_items" } else { "max_items" },
                what: if at_least {
                    "minimum item counts"
                } else {
                    "item caps"
                },
                noun: if at_least {
                    "a minimum item count"
                } else {
                    "an item cap"
                },
            },
            Unit::Bytes => return None,
        })
    }
}

impl Checker<'_> {
    /// Every cap row, in table order; then `[caps.*]` that name no row.
    pub(super) fn caps(&mut self, tables: &[&Table], root: Option<usize>) -> Vec<Cap> {
        let mut caps = Vec::new();
        for t in tables {
            for row in &t.rows {
                if let Some(cap) = self.cap_row(row, root) {
                    caps.push(cap);
                }
            }
        }
        for sc in std::mem::take(&mut self.side.caps) {
            if !self.cap_table_refused
                && !caps.iter().any(|c: &Cap| c.constant == sc.constant.value)
            {
                self.ctx.toml(
                    sc.constant.pos,
                    format!("[caps.{}] names no cap row", sc.constant.value),
                    suggest(
                        &sc.constant.value,
                        caps.iter().map(|c| c.constant.as_str()),
                        format!(
                            "the Constant column of the cap table has: {}",
                            caps.iter()
                                .map(|c| c.constant.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ),
                );
            }
        }
        caps
    }

    fn cap_row(&mut self, row: &Row, root: Option<usize>) -> Option<Cap> {
        let r = self.read_cap_row(row)?;
        let side_idx = self
            .side
            .caps
            .iter()
            .position(|c| c.constant.value == r.constant);
        let side = side_idx.map(|i| self.side.caps.remove(i));
        let root = root?;
        match side {
            Some(sc) => self.sidecar_cap(root, &r, &sc),
            None => self.cell_cap(root, &r, &row.cells[0]),
        }
    }

    /// The Constant cell of a cap or text row: SCREAMING_SNAKE_CASE (the hint shows
    /// `example`) and no other row's constant; recorded so later rows and examples see it.
    pub(super) fn new_constant(&mut self, cell: &Cell, example: &str) -> Option<String> {
        let constant = cell.key().to_owned();
        if !is_screaming_snake(&constant) {
            self.ctx.md(
                cell.pos,
                format!("constant `{constant}` is not SCREAMING_SNAKE_CASE"),
                format!("write the Rust constant's name, like `{example}`"),
            );
            return None;
        }
        if let Some(prev) = self.constants.get(&constant) {
            self.ctx.md(
                cell.pos,
                format!("duplicate constant `{constant}`"),
                format!("it is already defined on line {}", prev.line),
            );
            return None;
        }
        self.constants.insert(constant.clone(), cell.pos);
        Some(constant)
    }

    /// The constant (SCREAMING_SNAKE_CASE, not repeated), the number and the unit.
    fn read_cap_row<'r>(&mut self, row: &'r Row) -> Option<CapRow<'r>> {
        let [cap_cell, value_cell, const_cell, ..] = row.cells.as_slice() else {
            self.ctx.md(
                row.pos,
                "a cap row needs three cells",
                "write `| what | 200 chars | CONSTANT |`",
            );
            return None;
        };
        let constant = self.new_constant(const_cell, "ITEMS_MAX")?;

        // Value: `at least`, number and unit.
        let plain = value_cell.plain.trim();
        let (at_least, plain) = match plain.strip_prefix("at least ") {
            Some(rest) => (true, rest),
            None => (false, plain),
        };
        let mut words = plain.split_whitespace();
        let number = words.next().and_then(|w| w.parse::<u64>().ok());
        let unit_word = words.next();
        let Some(value) = number else {
            self.ctx.md(
                value_cell.pos,
                format!("cap value `{}` is not a number", value_cell.plain),
                "write a number and a unit: `200 chars`, `16384 bytes`, `12 items`, or a minimum: `at least 3 chars`",
            );
            return None;
        };
        // One spelling per unit, plural whatever the number: `1 chars` reads oddly, but every
        // cap table reads alike and a search for `chars` finds every char cap.
        if at_least && value == 0 {
            self.ctx.md(
                value_cell.pos,
                format!(
                    "`{}` says nothing: every value has at least 0",
                    value_cell.plain
                ),
                "remove the row, or give a positive minimum",
            );
            return None;
        }
        let unit = match unit_word {
            None => None,
            Some("chars") => Some(Unit::Chars),
            Some("bytes") => Some(Unit::Bytes),
            Some("items") => Some(Unit::Items),
            Some(other) => {
                let hint =
                    "units are `chars` (Unicode scalar values), `bytes` (compact JSON) and `items`";
                let hint = if other.starts_with("character") {
                    format!("did you mean `chars`? {hint}")
                } else {
                    suggest(other, ["chars", "bytes", "items"], hint)
                };
                self.ctx.md(
                    value_cell.pos,
                    format!("unknown unit `{other}` in `{}`", value_cell.plain),
                    hint,
                );
                return None;
            }
        };
        Some(CapRow {
            constant,
            value,
            unit,
            unit_word,
            at_least,
            value_cell,
            label: cap_cell.md.clone(),
            cell_path: cap_cell.codes.first().map(|c| Spanned {
                value: c.text.trim().to_owned(),
                pos: c.pos,
            }),
        })
    }

    /// A row bound by its own Cap cell.
    fn cell_cap(&mut self, root: usize, r: &CapRow<'_>, cap_cell: &Cell) -> Option<Cap> {
        let Some(path) = &r.cell_path else {
            self.ctx.md(
                cap_cell.pos,
                format!("cap row `{}` is bound to nothing", r.constant),
                format!("put the path in a code span in the Cap cell, or bind it in the sidecar with `[caps.{}]` and a `rule`", r.constant),
            );
            return None;
        };
        self.bind_path(root, r, r.unit, path, None, File::Md)
    }

    /// A row bound in the sidecar, by its `rule`.
    fn sidecar_cap(&mut self, root: usize, r: &CapRow<'_>, sc: &SideCap) -> Option<Cap> {
        let rule_name = sc.rule.as_ref().map(|r| r.value.as_str());
        if let (true, Some(rule @ ("document_bytes" | "max_items_per_group"))) =
            (r.at_least, rule_name)
        {
            self.ctx.md(
                r.value_cell.pos,
                format!("`{rule}` is a cap; `{}` is a minimum", r.value_cell.plain),
                "minimums bind to a text or list path: drop `at least`, or bind the row by its path",
            );
            return None;
        }
        match rule_name {
            Some("document_bytes") => self.document_bytes_cap(root, r, sc),
            Some("max_items_per_group") => self.group_cap(root, r, sc),
            Some("max_chars" | "max_items") | None => {
                if let Some(by) = &sc.by {
                    self.ctx.toml(
                        by.pos,
                        "`by` applies only to rule `max_items_per_group`",
                        "remove `by` or set `rule = \"max_items_per_group\"`",
                    );
                }
                let unit = match rule_name {
                    Some("max_chars") => r.unit.or(Some(Unit::Chars)),
                    Some("max_items") => r.unit.or(Some(Unit::Items)),
                    _ => r.unit,
                };
                let (path, file) = self.cap_path(r, sc)?;
                self.bind_path(root, r, unit, &path, sc.code.as_ref(), file)
            }
            Some(other) => {
                let pos = sc.rule.as_ref().map_or(sc.constant.pos, |r| r.pos);
                self.ctx.toml(
                    pos,
                    format!("unknown cap rule `{other}`"),
                    "rules are `document_bytes`, `max_items_per_group`, `max_chars` and `max_items`",
                );
                None
            }
        }
    }

    /// `rule = "document_bytes"`: a byte cap on the root's compact JSON.
    fn document_bytes_cap(&mut self, root: usize, r: &CapRow<'_>, sc: &SideCap) -> Option<Cap> {
        if r.unit != Some(Unit::Bytes) {
            self.ctx.md(
                r.value_cell.pos,
                format!("the document byte cap `{}` is not in bytes", r.constant),
                "write the value as `N bytes`",
            );
            return None;
        }
        if let Some(p) = &sc.path {
            self.ctx.toml(
                p.pos,
                "`path` does not apply to rule `document_bytes`",
                "remove `path`: the rule measures the whole document",
            );
        }
        let code = self.sidecar_cap_code(sc, "max_bytes", "the document byte cap")?;
        self.index.objects[root].max_json_bytes = Some(r.cap_use(code.clone()));
        self.rules.push(Rule {
            kind: RuleKind::DocumentBytes,
            path: String::new(),
            code,
        });
        Some(r.cap(Unit::Bytes, "document bytes".into()))
    }

    /// `rule = "max_items_per_group"`: at most N items of an array share one value of `by`.
    fn group_cap(&mut self, root: usize, r: &CapRow<'_>, sc: &SideCap) -> Option<Cap> {
        if r.unit == Some(Unit::Chars) || r.unit == Some(Unit::Bytes) {
            self.ctx.md(
                r.value_cell.pos,
                format!(
                    "a per-group cap counts items, not {}",
                    r.unit_word.unwrap_or("")
                ),
                "write the value as `N` or `N items`",
            );
            return None;
        }
        let (path, path_file) = self.cap_path(r, sc)?;
        let Some(by) = sc.by.clone() else {
            self.ctx.toml(
                sc.constant.pos,
                format!(
                    "[caps.{}] has rule `max_items_per_group` but no `by`",
                    r.constant
                ),
                "add `by = \"<member of the items>\"`",
            );
            return None;
        };
        let (obj, fi) = self.array_of_objects(root, &path, path_file)?;
        let elem = self.index.elem_object(obj, fi)?;
        let Some(by_field) = self.index.objects[elem]
            .fields
            .iter()
            .find(|f| f.key == by.value)
            .cloned()
        else {
            self.ctx.toml(
                by.pos,
                format!(
                    "`by = \"{}\"` names no member of `{}`",
                    by.value, self.index.objects[elem].name
                ),
                format!("members: {}", self.index.member_list(elem)),
            );
            return None;
        };
        let code = self.sidecar_cap_code(sc, "max_items_per_group", "per-group caps")?;
        self.index.objects[obj].fields[fi]
            .rules
            .max_items_per_group
            .push(GroupCap {
                by: by_field.member(),
                cap: r.cap_use(code.clone()),
            });
        self.rules.push(Rule {
            kind: RuleKind::MaxItemsPerGroup,
            path: path.value.clone(),
            code,
        });
        Some(r.cap(Unit::Items, format!("{} per {}", path.value, by_field.key)))
    }

    /// The code of a sidecar-bound cap rule: its `code`, else `[errors] <rule>` (a missing
    /// mapping is reported at the `[caps.*]` key).
    fn sidecar_cap_code(&mut self, sc: &SideCap, rule: &str, what: &str) -> Option<String> {
        let ask = Ask::new(rule, what, sc.constant.pos, File::Toml);
        self.book
            .code_for(&mut self.ctx, sc.code.as_ref(), None, ask)
    }

    /// The path of a sidecar-bound cap, and the file it is written in: the sidecar's `path`,
    /// else the Cap cell's code span.
    fn cap_path(&mut self, r: &CapRow<'_>, sc: &SideCap) -> Option<(Spanned<String>, File)> {
        match (&sc.path, &r.cell_path) {
            (Some(s), Some(c)) if s.value != c.value => {
                self.ctx.toml(
                    s.pos,
                    format!(
                        "[caps.{}] path `{}` differs from the Cap cell's `{}`",
                        r.constant, s.value, c.value
                    ),
                    "remove `path` from the sidecar: the table already says it",
                );
                None
            }
            (Some(s), _) => Some((s.clone(), File::Toml)),
            (None, Some(c)) => Some((c.clone(), File::Md)),
            (None, None) => {
                self.ctx.toml(
                    sc.constant.pos,
                    format!(
                        "[caps.{}] has no `path` and its Cap cell names none",
                        r.constant
                    ),
                    "add `path = \"...\"`, or put the path in a code span in the Cap cell",
                );
                None
            }
        }
    }

    /// Resolves a sidecar path that must name an array of objects (not stepping into it).
    pub(super) fn array_of_objects(
        &mut self,
        root: usize,
        path: &Spanned<String>,
        file: File,
    ) -> Option<(usize, usize)> {
        let t = self.resolve_at(root, path, file)?;
        let f = &self.index.objects[t.obj].fields[t.field];
        if t.elems || !f.ty.array || !matches!(f.ty.base, Base::Object(_)) {
            self.ctx.error(
                file,
                path.pos,
                format!("`{}` is not an array of objects", path.value),
                "name an array field whose items are a field table, without `[]`",
            );
            return None;
        }
        Some((t.obj, t.field))
    }

    /// A char or item cap on the field at `path` (written in `path_file`), in `unit` (else
    /// items for an array), with the code the rule states (`code`) or its field's.
    fn bind_path(
        &mut self,
        root: usize,
        r: &CapRow<'_>,
        unit: Option<Unit>,
        path: &Spanned<String>,
        code: Option<&Spanned<String>>,
        path_file: File,
    ) -> Option<Cap> {
        let resolved = self.index.resolve_cap(root, &path.value);
        let Some(target) = self.resolved(resolved, path, path_file) else {
            // A path through a broken row (silent) or one reported: the cap's own code
            // is not also "produced by nothing".
            if let Some(c) = code {
                self.book.shelter(&c.value);
            }
            return None;
        };
        // The field the cap lands on: a field of an object, or a member of a union's
        // variants (every variant with a member of that key).
        let (f, elems, owner) = match &target {
            Ok(t) => {
                let o = &self.index.objects[t.obj];
                (o.fields[t.field].clone(), t.elems, o.name.clone())
            }
            Err(m) => {
                let u = &self.index.unions[m.union];
                let f = u
                    .variants
                    .iter()
                    .flat_map(|v| &v.members)
                    .find(|f| f.key == m.key)
                    .expect("resolved")
                    .clone();
                (f, m.elems, u.name.clone())
            }
        };
        let f = &f;
        let is_array_target = f.ty.array && !elems;
        let is_string_target = f.ty.base == Base::String && !is_array_target;
        let unit = match unit {
            Some(u) => u,
            None if is_array_target => Unit::Items,
            None => {
                self.ctx.md(
                    r.value_cell.pos,
                    format!(
                        "cap `{}` has no unit and `{}` is not an array",
                        r.constant, path.value
                    ),
                    if is_string_target {
                        "write `N chars` for a string cap"
                    } else {
                        "write the unit: `N chars`, `N bytes` or `N items`"
                    },
                );
                return None;
            }
        };
        let unit_word = r.unit_word.unwrap_or("items");
        // Char and item caps and minimums differ only in what they fit and which slot of the
        // field's rules they fill; one path handles all four.
        let Some(CapKind {
            fits,
            why_not,
            rule,
            what,
            noun,
        }) = CapKind::of(unit, r.at_least, is_string_target, is_array_target)
        else {
            let why = "byte caps measure compact JSON of the whole document";
            r.misfit(&mut self.ctx, unit_word, &path.value, why);
            return None;
        };
        if !fits {
            r.misfit(&mut self.ctx, unit_word, &path.value, why_not);
            return None;
        }
        if let Err(m) = &target {
            let same_key = || {
                self.index.unions[m.union]
                    .variants
                    .iter()
                    .flat_map(|v| &v.members)
                    .filter(|x| x.key == m.key)
            };
            let lists_differ = same_key().any(|x| x.ty.array != f.ty.array);
            let text_differs = same_key().any(|x| x.ty.base != Base::String);
            let why = if lists_differ {
                "the union's variants do not all make that member a list"
            } else if unit == Unit::Chars && text_differs {
                "the union's variants do not all make that member text"
            } else {
                ""
            };
            if !why.is_empty() {
                r.misfit(&mut self.ctx, unit_word, &path.value, why);
                return None;
            }
        }
        if r.at_least {
            self.minimum_fits(r, unit, &path.value, f)?;
        }
        let field = (owner, f.key.clone());
        let ask = Ask::new(rule, what, r.value_cell.pos, File::Md);
        let code = self
            .book
            .code_for(&mut self.ctx, code, Some((&field.0, &field.1)), ask)?;
        let mut rules = f.rules.clone();
        let (slot, other) = match (unit, r.at_least) {
            (Unit::Chars, false) => (&mut rules.max_chars, &rules.min_chars),
            (Unit::Chars, true) => (&mut rules.min_chars, &rules.max_chars),
            (_, false) => (&mut rules.max_items, &rules.min_items),
            (_, true) => (&mut rules.min_items, &rules.max_items),
        };
        if let Some(first) = slot.as_ref() {
            let line = self.constants.get(&first.constant).map_or(0, |p| p.line);
            self.ctx.md(
                r.value_cell.pos,
                format!(
                    "`{}` already has {noun}: `{}` on line {line}",
                    path.value, first.constant
                ),
                "keep one cap row per path and unit, and one minimum",
            );
            return None;
        }
        let (min, max) = match other {
            Some(o) if r.at_least => (r.value, o.value),
            Some(o) => (o.value, r.value),
            None => (0, u64::MAX),
        };
        if min > max {
            self.ctx.md(
                r.value_cell.pos,
                format!(
                    "`{}` needs at least {min} {unit_word} but is capped at {max}",
                    path.value
                ),
                "make the minimum no larger than the cap",
            );
            return None;
        }
        *slot = Some(r.cap_use(code));
        self.store_rules(&target, rules);
        Some(r.cap(unit, path.value.clone()))
    }

    /// `rules` become the rules of the field a cap landed on (of every member with its key,
    /// for a union member: only their caps and minimums).
    fn store_rules(&mut self, target: &Result<Target, MemberTarget>, rules: FieldRules) {
        match target {
            Ok(t) => self.index.objects[t.obj].fields[t.field].rules = rules,
            Err(m) => {
                let members = self.index.unions[m.union]
                    .variants
                    .iter_mut()
                    .flat_map(|v| &mut v.members)
                    .filter(|f| f.key == m.key);
                for member in members {
                    member.rules.max_items.clone_from(&rules.max_items);
                    member.rules.min_items.clone_from(&rules.min_items);
                    member.rules.max_chars.clone_from(&rules.max_chars);
                    member.rules.min_chars.clone_from(&rules.min_chars);
                }
            }
        }
    }

    /// A minimum holds for the value an absent field means: an optional (`—`) array that
    /// reads as `[]` cannot require items, and a stated default must be long enough.
    fn minimum_fits(&mut self, r: &CapRow<'_>, unit: Unit, path: &str, f: &Field) -> Option<()> {
        let empty_default =
            unit == Unit::Items && !f.required && !f.ty.nullable && f.rules.required_if.is_none();
        let short_default = match &f.default {
            Some(DefaultValue::String(d)) if unit == Unit::Chars => {
                (d.chars().count() as u64) < r.value
            }
            _ => false,
        };
        if empty_default {
            self.ctx.md(
                r.value_cell.pos,
                format!("`{path}` is optional and reads as `[]` when absent, which has fewer than {} items", r.value),
                "mark the field required (`✔`), or make it `T[]?` so that absent means null",
            );
            return None;
        }
        if short_default {
            self.ctx.md(
                r.value_cell.pos,
                format!("the default of `{path}` is shorter than {} chars", r.value),
                "state a default that meets the minimum",
            );
            return None;
        }
        Some(())
    }
}
