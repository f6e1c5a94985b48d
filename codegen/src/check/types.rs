//! Types phase: enum, field and union tables into models, each row's Type, Required and
//! default cells read (by `parse`) and checked against the row.

use std::collections::HashMap;

use super::codes::TypeRule;
use super::index::Kind;
use super::parse::{parse_default, parse_required, parse_type, report, requirement_codes, Req};
use super::tables::{Clash, Named, Names};
use super::Checker;
use crate::diag::{File, Pos};
use crate::loader::markdown::{self, Cell, Row, Table};
use crate::model::*;
use crate::names::{field_name, is_ident, suggest, upper_camel};

/// The heading above a table, as Markdown.
fn heading_doc(t: &Table) -> String {
    t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default()
}

impl Checker<'_> {
    /// Enums first (field defaults refer to their values), then objects and unions, each
    /// at its place in spec order.
    pub(super) fn types(&mut self, named: &[Named<'_>]) {
        for n in named {
            match n.kind {
                Kind::Enum => {
                    let e = self.enum_table(&n.name, n.table);
                    self.index.order.push((Kind::Enum, self.index.enums.len()));
                    self.index.enums.push(e);
                }
                Kind::Object => self.index.order.push((Kind::Object, usize::MAX)),
                Kind::Union => self.index.order.push((Kind::Union, usize::MAX)),
                Kind::States => {}
            }
        }
        for (i, n) in named.iter().enumerate() {
            match n.kind {
                Kind::Object => {
                    let o = self.field_table(&n.name, n.table);
                    self.index.order[i].1 = self.index.push_object(o);
                }
                Kind::Union => {
                    let u = self.union_table(&n.name, n.table);
                    self.index.order[i].1 = self.index.unions.len();
                    self.index.unions.push(u);
                }
                Kind::Enum | Kind::States => {}
            }
        }
    }

    /// Each states table's states as an enum (`state_enums`), before any field table reads
    /// a default of a field it types; duplicates and empty states are the machine's to
    /// report, later.
    pub(super) fn state_enums(&mut self, states: &[Named<'_>]) {
        for n in states {
            let values = n
                .table
                .rows
                .iter()
                .filter_map(|row| row.cells.first())
                .map(|cell| EnumValue {
                    value: cell.key().to_owned(),
                    variant: upper_camel(cell.key()),
                    doc: String::new(),
                })
                .collect();
            self.index.state_enums.push(Enum {
                name: n.name.clone(),
                rust_name: self.index.rust_name_of(&n.name),
                doc: String::new(),
                values,
            });
        }
    }

    /// `[unions.*]`: which unions accept the short form.
    pub(super) fn union_forms(&mut self) {
        for (k, short) in std::mem::take(&mut self.side.unions) {
            match self.index.unions.iter_mut().find(|u| u.name == k.value) {
                Some(u) => u.short_form = short.is_some_and(|s| s.value),
                None => self.ctx.toml(
                    k.pos,
                    format!("[unions.{}] names no union table", k.value),
                    suggest(
                        &k.value,
                        self.index.names_of(Some(Kind::Union)),
                        "union tables have the header `<tag> | Fields | Meaning`",
                    ),
                ),
            }
        }
    }

    fn enum_table(&mut self, name: &str, t: &Table) -> Enum {
        let mut values: Vec<EnumValue> = Vec::new();
        let mut names = Names::default();
        for row in &t.rows {
            let Some(cell) = row.cells.first() else {
                continue;
            };
            let value = cell.key().to_owned();
            let variant = upper_camel(&value);
            if value.is_empty() || variant.is_empty() {
                self.ctx.md(
                    cell.pos,
                    "empty enum value",
                    "write the JSON spelling in the Value cell",
                );
                continue;
            }
            match names.add(&value, &variant) {
                Some(Clash::Value) => {
                    self.ctx.md(
                        cell.pos,
                        format!("duplicate value `{value}` in enum `{name}`"),
                        "remove one row",
                    );
                    continue;
                }
                Some(Clash::Variant(other)) => {
                    self.ctx.md(
                        cell.pos,
                        format!(
                            "values `{other}` and `{value}` both become the variant `{variant}`"
                        ),
                        "spell the values differently",
                    );
                    continue;
                }
                None => {}
            }
            values.push(EnumValue {
                value,
                variant,
                doc: row.cells.get(1).map(|c| c.md.clone()).unwrap_or_default(),
            });
        }
        if values.is_empty() {
            self.ctx.md(
                t.pos,
                format!("enum `{name}` has no values"),
                "add at least one row",
            );
        }
        Enum {
            name: name.to_owned(),
            rust_name: self.index.rust_name_of(name),
            doc: heading_doc(t),
            values,
        }
    }

    /// A Type cell, read; its problem reported.
    fn type_of(&mut self, text: &str, codes: &[markdown::CodeSpan], pos: Pos) -> Option<TypeRef> {
        let r = parse_type(text, codes, pos, &self.index.kinds);
        // A table reported as not read takes the types naming it with it.
        if let Err(p) = &r {
            if p.unknown
                .as_ref()
                .is_some_and(|n| self.index.refused.contains(n))
            {
                return None;
            }
        }
        report(&mut self.ctx, r)
    }

    /// The Rust field name of a new row's key, unless it is not one or repeats a row.
    fn new_field(&mut self, key: &str, pos: Pos, seen: &mut Seen) -> Option<String> {
        let rust = field_name(key);
        if key.is_empty() || !is_ident(&rust) {
            self.ctx.md(
                pos,
                format!("`{key}` cannot be a Rust field name"),
                "use a key with at least one ASCII letter or digit (the Rust name is its snake_case)",
            );
            return None;
        }
        if let Some(other) = seen.conflict(key, &rust) {
            self.ctx.md(
                pos,
                if other == key {
                    format!("duplicate field `{key}`")
                } else {
                    format!("fields `{other}` and `{key}` both become the Rust field `{rust}`")
                },
                "remove or rename one row",
            );
            return None;
        }
        seen.insert(key, &rust);
        Some(rust)
    }

    fn field_table(&mut self, name: &str, t: &Table) -> Object {
        let mut fields = Vec::new();
        let mut seen = Seen::default();
        for row in &t.rows {
            if let Some(f) = self.field_row(name, row, &mut seen) {
                fields.push(f);
            }
        }
        self.new_object(name, heading_doc(t), fields)
    }

    /// A field table's object with `fields`, before cross-field rules and selectors.
    pub(super) fn new_object(&self, name: &str, doc: String, fields: Vec<Field>) -> Object {
        Object {
            name: name.to_owned(),
            rust_name: self.index.rust_name_of(name),
            doc,
            fields,
            not_equal: Vec::new(),
            order: Vec::new(),
            max_json_bytes: None,
            not_contains: Vec::new(),
            digest: Vec::new(),
            selector: None,
            defaultable: false,
            synthesized: false,
            open: false,
            guarded: Vec::new(),
            copy_of: None,
        }
    }

    /// Marks a broken row: paths through it and rules on it stay silent, and so do the codes
    /// its Required cell names (only the row would have produced them).
    fn poison(&mut self, table: &str, key: String, req_cell: &Cell) {
        for code in requirement_codes(req_cell) {
            self.book.shelter(&code.text);
        }
        self.index.poisoned.insert((table.to_owned(), key));
    }

    /// One row of field table `table`.
    fn field_row(&mut self, table: &str, row: &Row, seen: &mut Seen) -> Option<Field> {
        let [key_cell, ty_cell, req_cell, meaning, ..] = row.cells.as_slice() else {
            self.ctx.md(
                row.pos,
                "a field row needs four cells",
                "write `| key | type | ✔ | meaning |`",
            );
            return None;
        };
        let key = key_cell.key().to_owned();
        let rust = self.new_field(&key, key_cell.pos, seen);
        let ty = self.type_of(&ty_cell.plain, &ty_cell.codes, ty_cell.pos);
        let Some(req) = parse_required(req_cell) else {
            self.ctx.md(
                req_cell.pos,
                format!("cannot read the Required cell `{}`", req_cell.plain),
                "write `✔` (or `yes`), `✔ `code``, `—` (or `no`), `— (default V)`, or `if `field` is `value``",
            );
            // The row is broken: paths through it, and rules on it, stay silent.
            self.poison(table, key, req_cell);
            return None;
        };
        let (Some(rust), Some(ty)) = (rust, ty) else {
            self.poison(table, key, req_cell);
            return None;
        };
        self.index
            .type_pos
            .insert((table.to_owned(), key.clone()), ty_cell.pos);
        let mut rules = FieldRules::default();
        let conditional = matches!(req, Req::If(..));
        let (required, default_text) = match req {
            Req::Yes(None) => (true, None),
            Req::Yes(Some(code)) => {
                self.book.use_code_md(&mut self.ctx, &code);
                if ty.literal.is_some() || matches!(ty.base, Base::Selected(_)) {
                    self.ctx.md(
                        code.pos,
                        format!("`{key}` cannot have a coded requirement"),
                        "a literal or `object by` field is required by its shape: write just `✔`",
                    );
                }
                rules.required = Some(code.text.clone());
                (true, None)
            }
            Req::No(d) => (false, d),
            Req::If(raw) => {
                if ty.nullable {
                    self.pending_conditions.push((
                        table.to_owned(),
                        key.clone(),
                        raw,
                        req_cell.pos,
                    ));
                } else {
                    self.ctx.md(
                        req_cell.pos,
                        format!("`{key}` is required only sometimes, so its type must be `T?`"),
                        "add `?` to the type: absent (or null) is allowed while the condition does not hold",
                    );
                }
                (false, None)
            }
        };
        if matches!(ty.base, Base::Selected(_)) && (!required || rules.required.is_some()) {
            self.ctx.md(
                req_cell.pos,
                format!("`{key}` is chosen by another field, so it must be required"),
                "write `✔`: a choice without members takes `{}`",
            );
        }
        let default = match &default_text {
            Some(v) => {
                let enums: Vec<Enum> = self
                    .index
                    .enums
                    .iter()
                    .chain(&self.index.state_enums)
                    .cloned()
                    .collect();
                let r = parse_default(&ty, v, req_cell.pos, &enums);
                report(&mut self.ctx, r)
            }
            None => None,
        };
        // An optional `any` needs none: absent stays absent, and `null` is one of its values.
        let no_default = !required
            && default_text.is_none()
            && !ty.array
            && !ty.nullable
            && !conditional
            && ty.base != Base::Any;
        if no_default && matches!(ty.base, Base::Object(_)) {
            // Its default is `{}` when its table can read `{}`: decided once every table is
            // known (`empty_object_defaults`).
            self.pending_empty_defaults
                .push((table.to_owned(), key.clone(), req_cell.pos));
        } else if no_default {
            self.ctx.md(
                req_cell.pos,
                format!("optional field `{key}` has no default"),
                "write `— (default V)`, make the type `T?` (default null), or mark it required with `✔`",
            );
        }
        if let (Some(lit), Some(DefaultValue::String(d))) = (&ty.literal, &default) {
            if lit != d {
                self.ctx.md(
                    req_cell.pos,
                    format!("default `{d}` is not the literal `{lit}`"),
                    "a literal field can only default to its literal",
                );
            }
        }
        Some(Field {
            key,
            rust_name: rust,
            ty,
            required,
            default,
            doc: meaning.md.clone(),
            rules,
            absent_is_empty: false,
            always_written: false,
        })
    }

    /// The Rust variant of `value` of enum `e`; reports (in `file`, at `pos`) a value the enum
    /// does not have.
    pub(super) fn enum_value(
        &mut self,
        e: &Enum,
        value: &str,
        pos: Pos,
        file: File,
    ) -> Option<String> {
        if let Some(v) = e.values.iter().find(|v| v.value == value) {
            return Some(v.variant.clone());
        }
        let vals: Vec<String> = e.values.iter().map(|v| format!("`{}`", v.value)).collect();
        self.ctx.error(
            file,
            pos,
            format!("`{value}` is not a value of `{}`", e.name),
            format!("values: {}", vals.join(", ")),
        );
        None
    }

    fn union_table(&mut self, name: &str, t: &Table) -> Union {
        let tag = t.header[0].key().to_owned();
        let mut variants: Vec<Variant> = Vec::new();
        let mut names = Names::default();
        for row in &t.rows {
            let [tag_cell, fields_cell, meaning, ..] = row.cells.as_slice() else {
                self.ctx.md(
                    row.pos,
                    "a union row needs three cells",
                    "write `| tag | `name: type`, ... | meaning |`",
                );
                continue;
            };
            let value = tag_cell.key().to_owned();
            let rust = upper_camel(&value);
            if value.is_empty() || rust.is_empty() || names.add(&value, &rust).is_some() {
                self.ctx.md(
                    tag_cell.pos,
                    format!("empty or duplicate tag value `{value}` in union `{name}`"),
                    "give each row its own tag value",
                );
                continue;
            }
            let members = self.union_members(name, &tag, &value, fields_cell);
            variants.push(Variant {
                tag_value: value,
                rust_name: rust,
                doc: meaning.md.clone(),
                members,
            });
        }
        Union {
            name: name.to_owned(),
            rust_name: self.index.rust_name_of(name),
            doc: heading_doc(t),
            tag,
            short_form: false,
            variants,
        }
    }

    /// The members of the union form `value` of the union `union`: code spans `name: type`
    /// in its Fields cell. A member's Type may state a range, a format or a pattern
    /// (`code: string matching ^[A-Z]{3}$`: the regex is the rest of the span).
    fn union_members(
        &mut self,
        union: &str,
        tag: &str,
        value: &str,
        fields_cell: &Cell,
    ) -> Vec<Field> {
        let mut members = Vec::new();
        let mut seen = Seen::default();
        seen.insert(tag, &field_name(tag));
        for code in &fields_cell.codes {
            let Some((k, ty)) = code.text.split_once(':') else {
                self.ctx.md(
                    code.pos,
                    format!("cannot read member `{}`", code.text),
                    "write each member as a code span `name: type`",
                );
                continue;
            };
            let k = k.trim();
            let rust_m = self.new_field(k, code.pos, &mut seen);
            // `matching REGEX`: the regex is the rest of the span, read as the code span a
            // field table's Type cell would hold it in.
            let regex: Vec<markdown::CodeSpan> = ty
                .split_once(" matching ")
                .map(|(_, re)| markdown::CodeSpan {
                    text: re.trim().to_owned(),
                    pos: code.pos,
                })
                .into_iter()
                .collect();
            let ty = self.type_of(ty.trim(), &regex, code.pos);
            if ty
                .as_ref()
                .is_some_and(|t| matches!(t.base, Base::Decimal { .. }))
            {
                self.ctx.md(
                    code.pos,
                    format!("member `{k}` of a union cannot be a decimal"),
                    "a union's members may be read before its tag, through serde's buffer, which holds a number as a double, not its text: give the member a field table that holds the decimal",
                );
                continue;
            }
            if let Some(rule) = ty.as_ref().and_then(TypeRule::first_of) {
                if matches!(rule, TypeRule::Equals | TypeRule::RelativePath) {
                    self.ctx.md(
                        code.pos,
                        format!("member `{k}` of a union cannot have {}", rule.noun()),
                        "a union member takes a range, a pattern, a format and `non-blank`: move the value into a field table",
                    );
                    continue;
                }
                self.pending_member_rules.push((
                    union.to_owned(),
                    value.to_owned(),
                    k.to_owned(),
                    code.pos,
                ));
            }
            if let (Some(rust_m), Some(ty)) = (rust_m, ty) {
                members.push(Field {
                    key: k.to_owned(),
                    rust_name: rust_m,
                    required: !ty.nullable,
                    ty,
                    default: None,
                    doc: format!("Member `{k}` of the `{value}` form."),
                    rules: FieldRules::default(),
                    absent_is_empty: false,
                    always_written: false,
                });
            }
        }
        members
    }
}

/// The fields of one table so far, by JSON key and by Rust name, to find a row that repeats
/// either without comparing it with every earlier row.
#[derive(Default)]
struct Seen {
    /// (key, Rust name) in row order.
    rows: Vec<(String, String)>,
    by_key: HashMap<String, usize>,
    by_rust: HashMap<String, usize>,
}

impl Seen {
    /// The key of the earliest row with this key or this Rust name.
    fn conflict(&self, key: &str, rust: &str) -> Option<String> {
        let i = match (self.by_key.get(key), self.by_rust.get(rust)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&i), None) | (None, Some(&i)) => i,
            (None, None) => return None,
        };
        Some(self.rows[i].0.clone())
    }

    fn insert(&mut self, key: &str, rust: &str) {
        let i = self.rows.len();
        self.by_key.entry(key.to_owned()).or_insert(i);
        self.by_rust.entry(rust.to_owned()).or_insert(i);
        self.rows.push((key.to_owned(), rust.to_owned()));
    }
}
