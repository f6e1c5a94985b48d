//! Objects phase: the root table, `object by` selectors (and the empty tables they
//! synthesize), the objects that read as `{}` when absent, and the fields written even at
//! their default (`[canonical] always_written`).

use std::collections::BTreeSet;

use super::index::Kind;
use super::Checker;
use crate::diag::File;
use crate::model::*;
use crate::names::suggest;

impl Checker<'_> {
    /// `[spec] root`: the field table that is the document.
    pub(super) fn root(&mut self) -> Option<usize> {
        match self.side.root.clone() {
            None => {
                if !self.source.toml.trim().is_empty() {
                    self.ctx.toml(
                        self.side.spec_pos,
                        "the sidecar does not say which table is the document",
                        "add `[spec]` with `root = \"<field table>\"`",
                    );
                }
                None
            }
            Some(r) => match self.index.object_index(&r.value) {
                Some(i) => Some(i),
                None => {
                    self.ctx.toml(
                        r.pos,
                        format!("root `{}` is not a field table", r.value),
                        suggest(
                            &r.value,
                            self.index.names_of(Some(Kind::Object)),
                            format!("field tables: {}", self.index.object_names()),
                        ),
                    );
                    None
                }
            },
        }
    }

    /// `object by `field``: checks the choosing field and finds (or synthesizes, empty) the
    /// table of each (value, member).
    pub(super) fn selectors(&mut self) {
        let mut synthesized: Vec<Object> = Vec::new();
        for oi in 0..self.index.objects.len() {
            if let Some(sel) = self.selector(oi, &mut synthesized) {
                self.index.objects[oi].selector = Some(sel);
            }
        }
        for o in synthesized {
            self.index.kinds.insert(o.name.clone(), Kind::Object);
            let i = self.index.push_object(o);
            self.index.order.push((Kind::Object, i));
        }
    }

    /// The selector of object `oi`, if it has `object by` fields and they are well formed;
    /// the tables of cases without one are added to `synthesized`.
    fn selector(&mut self, oi: usize, synthesized: &mut Vec<Object>) -> Option<Selector> {
        let o = self.index.objects[oi].clone();
        let sel: Vec<&Field> = o
            .fields
            .iter()
            .filter(|f| matches!(f.ty.base, Base::Selected(_)))
            .collect();
        let first = sel.first()?;
        let Base::Selected(by) = &first.ty.base else {
            unreachable!("filtered")
        };
        if let Some(other) = sel.iter().find(|f| f.ty.base != first.ty.base) {
            self.ctx.md(
                self.index.type_pos_of(&o.name, &other.key),
                format!(
                    "`{}` is chosen by another field than `{}`",
                    other.key, first.key
                ),
                "all `object by` fields of one table are chosen by the same enum field",
            );
            return None;
        }
        let p = self.index.type_pos_of(&o.name, &first.key);
        let Some(byf) = o.fields.iter().find(|f| &f.key == by) else {
            self.ctx.md(
                p,
                format!("`{by}` is no field of `{}`", o.name),
                format!("fields: {}", self.index.member_list(oi)),
            );
            return None;
        };
        let enum_name = match &byf.ty.base {
            Base::Enum(e)
                if !byf.ty.array
                    && !byf.ty.nullable
                    && byf.required
                    && byf.rules.required.is_none() =>
            {
                e.clone()
            }
            _ => {
                self.ctx.md(
                    p,
                    format!("`{by}` is not a required plain enum field"),
                    "`object by` names a field of the same table whose type is an enum table, marked `✔`",
                );
                return None;
            }
        };
        if o.fields.iter().any(|f| {
            f.rust_name == "body" && !matches!(f.ty.base, Base::Selected(_)) && &f.key != by
        }) {
            self.ctx.md(
                p,
                format!("`{}` has `object by` fields and a field `body`", o.name),
                "the generated struct holds the chosen members in a field `body`: rename the field",
            );
            return None;
        }
        let e = self
            .index
            .enum_named(&enum_name)
            .cloned()
            .expect("checked type");
        let members: Vec<String> = sel.iter().map(|f| f.key.clone()).collect();
        let mut cases = Vec::new();
        for v in &e.values {
            let mut tables = Vec::new();
            for m in &members {
                let tn = format!("{}_{m}", v.value);
                match self.index.kinds.get(&tn) {
                    Some(Kind::Object) => {}
                    Some(_) => self.ctx.md(
                        p,
                        format!("`{tn}` is not a field table"),
                        "the shape of a chosen member is a field table named `<value>_<member>`",
                    ),
                    None => {
                        if !synthesized.iter().any(|x| x.name == tn) {
                            synthesized.push(self.empty_case_table(&tn, m, &v.value));
                        }
                    }
                }
                tables.push(tn);
            }
            cases.push(SelectorCase {
                value: v.value.clone(),
                variant: v.variant.clone(),
                tables,
            });
        }
        Some(Selector {
            by: byf.member(),
            enum_name: e.name.clone(),
            enum_rust: e.rust_name.clone(),
            body_rust: format!("{}Body", e.rust_name),
            members,
            cases,
        })
    }

    /// The empty table `name` that a member `m` chosen by `value` has when the spec has none.
    fn empty_case_table(&self, name: &str, m: &str, value: &str) -> Object {
        let doc = format!("`{m}` of `{value}`: no members (the spec has no table `{name}`).");
        Object {
            synthesized: true,
            ..self.new_object(name, doc, Vec::new())
        }
    }

    /// Objects that read as `{}` when absent, and the plain `✔` fields that hold them: a
    /// table whose every member is optional in Rust or is itself such a plain `✔` field, and
    /// which has a coded requirement (its own, or one of such a member's), so that `{}`
    /// chains through plain `✔` member tables (a missing `seller` reports the codes of
    /// `seller.name` and of `seller.address.country_code`). Found as a least fixed point:
    /// a table that holds itself is never one.
    pub(super) fn defaultables(&mut self) {
        fn plain_object(f: &Field) -> Option<&str> {
            let plain = f.required && f.rules.required.is_none() && !f.ty.nullable && !f.ty.array;
            match &f.ty.base {
                Base::Object(n) if plain => Some(n),
                _ => None,
            }
        }
        let mut names: BTreeSet<String> = BTreeSet::new();
        loop {
            let found: Vec<String> = self
                .index
                .objects
                .iter()
                .filter(|o| !names.contains(&o.name))
                .filter(|o| {
                    let chained = |f: &Field| plain_object(f).is_some_and(|n| names.contains(n));
                    let all_optional = o
                        .fields
                        .iter()
                        .all(|f| !f.required || f.read_optional() || chained(f));
                    all_optional
                        && o.fields
                            .iter()
                            .any(|f| f.rules.required.is_some() || chained(f))
                })
                .map(|o| o.name.clone())
                .collect();
            if found.is_empty() {
                break;
            }
            names.extend(found);
        }
        for o in &mut self.index.objects {
            o.defaultable = names.contains(&o.name);
            for f in &mut o.fields {
                if let Some(n) = plain_object(f) {
                    f.absent_is_empty = names.contains(n);
                }
            }
        }
    }

    /// Optional (`—`) fields typed as a field table without `?`: absent, they mean `{}`, so
    /// their table must read `{}` (every member plain optional: no `✔`, no coded or
    /// conditional requirement). Such a table implements `Default`; the field is left out
    /// when written while it holds that default, and `null` is refused (no `?`).
    pub(super) fn empty_object_defaults(&mut self) {
        for (owner, key, pos) in std::mem::take(&mut self.pending_empty_defaults) {
            let Some(oi) = self.index.object_index(&owner) else {
                continue;
            };
            let Some(fi) = self.index.field_index(oi, &key) else {
                continue;
            };
            let Base::Object(table) = self.index.objects[oi].fields[fi].ty.base.clone() else {
                continue;
            };
            let Some(ti) = self.index.object_index(&table) else {
                continue;
            };
            let blocking = self.index.objects[ti]
                .fields
                .iter()
                .find(|m| m.required || m.rules.required_if.is_some())
                .map(|m| m.key.clone());
            if ti == oi || blocking.is_some() {
                let why = match blocking {
                    Some(m) if ti != oi => format!("`{m}` of `{table}` is required"),
                    _ => format!("`{table}` would contain itself"),
                };
                self.ctx.md(
                    pos,
                    format!("optional field `{key}` has no default: `{{}}` is not a `{table}` ({why})"),
                    format!(
                        "make the type `{table}?` (default null), mark it required with `✔`, or make every member of `{table}` optional"
                    ),
                );
                continue;
            }
            self.index.objects[oi].fields[fi].absent_is_empty = true;
            self.index.objects[ti].defaultable = true;
        }
    }

    /// `[canonical] always_written`: optional fields written even while they hold their
    /// default. The path names a field of a table, so it holds wherever that table is used.
    pub(super) fn always_written(&mut self, root: Option<usize>) {
        let mut seen = BTreeSet::new();
        for path in std::mem::take(&mut self.side.always_written) {
            let Some(t) = root.and_then(|root| self.resolve_at(root, &path, File::Toml)) else {
                continue;
            };
            let f = &self.index.objects[t.obj].fields[t.field];
            if t.elems {
                self.ctx.toml(
                    path.pos,
                    format!("[canonical] always_written `{}` ends in `[]`", path.value),
                    "name the field itself: elements are always written",
                );
            } else if f.required {
                self.ctx.toml(
                    path.pos,
                    format!(
                        "[canonical] always_written names `{}`, which is required",
                        path.value
                    ),
                    "a required field is always written: list only optional (`—`) fields",
                );
            } else if !seen.insert((t.obj, t.field)) {
                self.ctx.toml(
                    path.pos,
                    format!(
                        "[canonical] always_written names the field of `{}` twice",
                        path.value
                    ),
                    "list each field once (a path names a table's field wherever it is used)",
                );
            } else {
                self.index.objects[t.obj].fields[t.field].always_written = true;
            }
        }
    }

    /// `[open] objects`: field tables that keep the members they do not list. Each must name
    /// a field table, once; a table whose members an enum field chooses cannot be open (its
    /// members are the enum's), and no listed member may take the Rust name of the field
    /// that carries the unlisted ones.
    pub(super) fn open_objects(&mut self) {
        let mut seen = BTreeSet::new();
        for name in std::mem::take(&mut self.side.open_objects) {
            let Some(oi) = self
                .index
                .objects
                .iter()
                .position(|o| o.name == name.value && !o.synthesized)
            else {
                let hint = match self.index.kinds.get(name.value.as_str()) {
                    Some(_) => {
                        "only a field table (an object) can be open; an enum or union table cannot"
                            .to_owned()
                    }
                    None => suggest(
                        &name.value,
                        self.index.names_of(Some(Kind::Object)),
                        "name a field table of this spec (the `name` in its heading)",
                    ),
                };
                self.ctx.toml(
                    name.pos,
                    format!(
                        "[open] objects names `{}`, which is no field table",
                        name.value
                    ),
                    hint,
                );
                continue;
            };
            if !seen.insert(oi) {
                self.ctx.toml(
                    name.pos,
                    format!("[open] objects names `{}` twice", name.value),
                    "list each table once",
                );
                continue;
            }
            let o = &self.index.objects[oi];
            if o.selector.is_some() {
                self.ctx.toml(
                    name.pos,
                    format!(
                        "[open] objects names `{}`, whose members an enum field chooses",
                        name.value
                    ),
                    "an `object by` table is closed by its enum: open the tables it chooses instead",
                );
                continue;
            }
            if let Some(f) = o.fields.iter().find(|f| f.rust_name == OPEN_MEMBERS_FIELD) {
                let key = f.key.clone();
                self.ctx.toml(
                    name.pos,
                    format!(
                        "open `{}` lists `{key}`, whose Rust name `{OPEN_MEMBERS_FIELD}` carries its unlisted members",
                        name.value
                    ),
                    "rename the member, or leave it unlisted (it is then carried verbatim)",
                );
                continue;
            }
            self.index.objects[oi].open = true;
        }
    }
}

impl Checker<'_> {
    /// A decimal is read from its number's text; a union's members and an object's chosen
    /// members (`object by`) may be read from a buffer (their tag or choosing field comes
    /// later in the document), which keeps a double, not the text. So no decimal may sit in
    /// a table such a member reaches: each is a diagnostic at its Type cell.
    pub(super) fn decimals_behind_buffers(&mut self) {
        let mut todo: Vec<String> = Vec::new();
        let union_tables = |u: &Union| -> Vec<String> {
            u.variants
                .iter()
                .flat_map(|v| &v.members)
                .filter_map(|m| match &m.ty.base {
                    Base::Object(t) | Base::Union(t) => Some(t.clone()),
                    _ => None,
                })
                .collect()
        };
        for u in &self.index.unions {
            todo.extend(union_tables(u));
        }
        for o in &self.index.objects {
            if let Some(s) = &o.selector {
                todo.extend(s.cases.iter().flat_map(|c| c.tables.iter().cloned()));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut found: Vec<(String, String)> = Vec::new();
        while let Some(t) = todo.pop() {
            if !seen.insert(t.clone()) {
                continue;
            }
            if let Some(u) = self.index.unions.iter().find(|u| u.name == t) {
                todo.extend(union_tables(u));
                continue;
            }
            let Some(oi) = self.index.object_index(&t) else {
                continue;
            };
            let o = &self.index.objects[oi];
            for f in &o.fields {
                match &f.ty.base {
                    Base::Decimal { .. } => found.push((t.clone(), f.key.clone())),
                    Base::Object(n) | Base::Union(n) => todo.push(n.clone()),
                    _ => {}
                }
            }
            if let Some(s) = &o.selector {
                todo.extend(s.cases.iter().flat_map(|c| c.tables.iter().cloned()));
            }
        }
        found.sort();
        for (table, key) in found {
            self.ctx.md(
                self.index.type_pos_of(&table, &key),
                format!("`{table}.{key}` is a decimal in a table that a union member or a chosen member (`object by`) holds"),
                "such a member may be read before its tag or choosing field, from a buffer that keeps a double, not the number's text: keep the decimal in a table outside unions and chosen members",
            );
        }
    }
}
