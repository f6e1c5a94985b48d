//! Error codes phase: the error table, the sidecar's `[errors]` mapping and overrides, and
//! the code every rule gets. The code book is its own struct: which codes exist, which are
//! produced, and how a rule finds its code (stated → `[errors.paths]`/`[errors.tables]` →
//! `[errors]`).

use std::collections::{BTreeMap, BTreeSet};

use super::index::Kind;
use super::tables::{Clash, Named, Names};
use super::Checker;
use crate::diag::{Context, File, Pos};
use crate::loader::markdown::{CodeSpan, Table};
use crate::loader::sidecar::Spanned;
use crate::loader::SpecSource;
use crate::model::*;
use crate::names::{is_ident, is_raw_keyword, suggest, upper_camel};

/// A rule kind of `[errors]`, and where to say so when the sidecar maps it to no code.
pub(super) struct Ask<'w> {
    rule: &'w str,
    what: &'w str,
    pos: Pos,
    file: File,
}

impl<'w> Ask<'w> {
    /// `rule` is the `[errors]` key; `what` names the rules in the message ("no error code
    /// for {what}").
    pub fn new(rule: &'w str, what: &'w str, pos: Pos, file: File) -> Self {
        Ask {
            rule,
            what,
            pos,
            file,
        }
    }
}

/// The error table and every way a rule finds its code.
pub(super) struct CodeBook {
    md_path: String,
    toml_path: String,
    /// Rows of the error table.
    pub rows: Vec<ErrorCode>,
    /// The codes and variants of `rows`.
    names: Names,
    /// code → position of its row.
    row_pos: BTreeMap<String, Pos>,
    produced: BTreeSet<String>,
    /// `[errors]` rule kind → code.
    rule_map: BTreeMap<String, Spanned<String>>,
    /// `[errors]` rule kind → where the sidecar names it.
    rule_pos: BTreeMap<String, Pos>,
    /// The rule kinds some rule asked `[errors]` for (`mapped`).
    asked: BTreeSet<String>,
    missing_reported: BTreeSet<String>,
    /// `[errors.tables]`: table → code.
    table_codes: BTreeMap<String, String>,
    /// `[errors.paths]` resolved: (table, key) → (code, the path as written).
    path_codes: BTreeMap<(String, String), (String, String)>,
    /// `[errors.rules]` resolved: (table, key, rule kind) → (code, where, the path as
    /// written); the rules that took theirs are in `rule_codes_used`.
    rule_codes: BTreeMap<(String, String, String), (String, Pos, String)>,
    rule_codes_used: BTreeSet<(String, String, String)>,
    /// Rule kind → the first override that gave a rule of that kind its code, as a message
    /// names it (`` [errors.paths] `version` ``): why `[errors]` was not asked for it.
    overridden: BTreeMap<String, String>,
    /// `[errors] engine`, as spelled.
    pub engine: Vec<String>,
    /// A copy of a shared table (made for a use whose path-specific overrides differ) →
    /// the table it copies, whose `[errors.tables]` code it takes.
    pub origin: BTreeMap<String, String>,
    /// Whether an error table was reported as not read: then a code missing from the table
    /// is that table's fault, and not reported again at each use.
    pub table_refused: bool,
}

impl CodeBook {
    pub fn new(source: &SpecSource) -> Self {
        CodeBook {
            md_path: source.md_path.clone(),
            toml_path: source.toml_path.clone(),
            rows: Vec::new(),
            names: Names::default(),
            row_pos: BTreeMap::new(),
            produced: BTreeSet::new(),
            rule_map: BTreeMap::new(),
            rule_pos: BTreeMap::new(),
            asked: BTreeSet::new(),
            missing_reported: BTreeSet::new(),
            table_codes: BTreeMap::new(),
            path_codes: BTreeMap::new(),
            rule_codes: BTreeMap::new(),
            rule_codes_used: BTreeSet::new(),
            overridden: BTreeMap::new(),
            engine: Vec::new(),
            origin: BTreeMap::new(),
            table_refused: false,
        }
    }

    /// Whether the error table has `code`.
    pub fn has(&self, code: &str) -> bool {
        self.row_pos.contains_key(code)
    }

    /// Reads one error table's rows.
    pub fn error_table(&mut self, ctx: &mut Context, t: &Table) {
        for row in &t.rows {
            let (Some(code_cell), when) = (row.cells.first(), row.cells.get(1)) else {
                continue;
            };
            let code = code_cell.key().to_owned();
            if code.is_empty() {
                ctx.md(
                    code_cell.pos,
                    "empty error code",
                    "write the code in the Code cell",
                );
                continue;
            }
            let variant = upper_camel(&code);
            match self.names.add(&code, &variant) {
                Some(Clash::Value) => {
                    ctx.md(
                        code_cell.pos,
                        format!("duplicate error code `{code}`"),
                        "remove one row",
                    );
                    continue;
                }
                Some(Clash::Variant(other)) => {
                    ctx.md(
                        code_cell.pos,
                        format!("codes `{other}` and `{code}` both become the variant `{variant}`"),
                        "spell the codes differently",
                    );
                    continue;
                }
                None => {}
            }
            self.row_pos.insert(code.clone(), code_cell.pos);
            self.rows.push(ErrorCode {
                code,
                variant,
                doc: when.map(|c| c.md.clone()).unwrap_or_default(),
            });
        }
    }

    /// Marks a code named in the sidecar as produced and checks that the error table has it.
    pub fn use_code(&mut self, ctx: &mut Context, code: &Spanned<String>) {
        self.produced.insert(code.value.clone());
        if !self.has(&code.value) && !self.table_refused {
            ctx.toml(
                code.pos,
                format!("code `{}` is not in the error table", code.value),
                format!(
                    "add a row `| `{}` | <when> |` to the error table of {}, or fix the spelling",
                    code.value, self.md_path
                ),
            );
        }
    }

    /// Counts `code` as produced without checking it: a code only a broken row or rule names,
    /// which is reported itself (what passes through a broken row stays silent).
    pub fn shelter(&mut self, code: &str) {
        self.produced.insert(code.to_owned());
    }

    /// Marks a code named in the Markdown as produced and checks that the error table has it.
    pub fn use_code_md(&mut self, ctx: &mut Context, code: &CodeSpan) {
        self.produced.insert(code.text.clone());
        if !self.has(&code.text) && !self.table_refused {
            ctx.md(
                code.pos,
                format!("code `{}` is not in the error table", code.text),
                format!(
                    "add a row `| `{}` | <when> |` to the error table, or fix the spelling",
                    code.text
                ),
            );
        }
    }

    /// The code `[errors]` maps a rule kind to, if any (nothing reported).
    pub fn mapping(&self, rule: &str) -> Option<String> {
        self.rule_map.get(rule).map(|c| c.value.clone())
    }

    /// The code `[errors]` maps `ask.rule` to; reports (once per rule) when it is missing.
    pub fn mapped(&mut self, ctx: &mut Context, ask: Ask<'_>) -> Option<String> {
        self.asked.insert(ask.rule.to_owned());
        if let Some(c) = self.mapping(ask.rule) {
            return Some(c);
        }
        if self.missing_reported.insert(ask.rule.to_owned()) {
            ctx.error(
                ask.file,
                ask.pos,
                format!("no error code for {}", ask.what),
                format!(
                    "add `{} = \"<code>\"` to [errors] in {}",
                    ask.rule, self.toml_path
                ),
            );
        }
        None
    }

    /// The code of one rule: the code the rule states (checked against the table), else the
    /// override of its field (`[errors.paths]` / `[errors.tables]`), else `[errors]`.
    pub fn code_for(
        &mut self,
        ctx: &mut Context,
        stated: Option<&Spanned<String>>,
        field: Option<(&str, &str)>,
        ask: Ask<'_>,
    ) -> Option<String> {
        if let Some(c) = stated {
            self.use_code(ctx, c);
            return Some(c.value.clone());
        }
        if let Some((c, by)) =
            field.and_then(|(table, key)| self.override_for(table, key, ask.rule))
        {
            self.overridden.entry(ask.rule.to_owned()).or_insert(by);
            return Some(c);
        }
        self.mapped(ctx, ask)
    }

    /// The code `[errors.rules]`, `[errors.paths]` or `[errors.tables]` gives a rule of
    /// kind `rule` on a field, if any, and which of them it is.
    fn override_for(&mut self, table: &str, key: &str, rule: &str) -> Option<(String, String)> {
        let at = (table.to_owned(), key.to_owned(), rule.to_owned());
        if let Some((code, _, path)) = self.rule_codes.get(&at) {
            let found = (code.clone(), format!("[errors.rules] `{path}` `{rule}`"));
            self.rule_codes_used.insert(at);
            return Some(found);
        }
        if let Some((code, path)) = self.path_codes.get(&(at.0, at.1)) {
            return Some((code.clone(), format!("[errors.paths] `{path}`")));
        }
        let table = self.origin.get(table).map_or(table, String::as_str);
        let code = self.table_codes.get(table)?;
        Some((code.clone(), format!("[errors.tables] `{table}`")))
    }

    /// The code `[errors.rules]` gives the coded requirement of a field, if any (a coded
    /// requirement's code is its Required cell's; only an override of its own path, by rule
    /// kind `required`, replaces it).
    pub fn required_override(&mut self, table: &str, key: &str) -> Option<String> {
        self.explicit_code(table, key, "required")
            .map(|(code, _)| code)
    }

    /// The code `[errors.rules]` gives rule `rule` of field `key` of `table` itself (not
    /// `[errors.paths]` nor `[errors.tables]`), and where the entry is.
    fn explicit_code(&mut self, table: &str, key: &str, rule: &str) -> Option<(String, Pos)> {
        let at = (table.to_owned(), key.to_owned(), rule.to_owned());
        let (code, pos, _) = self.rule_codes.get(&at)?.clone();
        self.rule_codes_used.insert(at);
        Some((code, pos))
    }

    /// Every `[errors.rules]` entry names a rule its field has. Reported only when the spec
    /// has no other error (a broken row takes its rules with it).
    pub fn unused_rule_codes(&self, ctx: &mut Context) {
        if ctx.has_errors() {
            return;
        }
        for (at, (_, pos, path)) in &self.rule_codes {
            if !self.rule_codes_used.contains(at) {
                ctx.toml(
                    *pos,
                    format!("[errors.rules] `{path}` gives a code to `{}`, which is no rule of that field", at.2),
                    "name a rule the field has (its Type, Required and cap rows say which), or remove the entry",
                );
            }
        }
    }

    /// `[errors]` rule kind → code, sorted by rule kind.
    pub fn rule_codes(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .rule_map
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect();
        out.sort();
        out
    }

    /// Every `[errors]` rule kind is asked for by some rule. Reported only when the spec has
    /// no other error: a broken row or table takes its rules with it, and is the cause.
    pub fn unasked(&self, ctx: &mut Context) {
        if ctx.has_errors() {
            return;
        }
        for (rule, pos) in &self.rule_pos {
            if self.asked.contains(rule) {
                continue;
            }
            match self.overridden.get(rule) {
                Some(by) => ctx.toml(
                    *pos,
                    format!("no `{rule}` rule of the spec takes its code from [errors]: {by} gives one its code"),
                    "remove the line (the override gives the code), or the override",
                ),
                None => ctx.toml(
                    *pos,
                    format!("no rule of the spec is a `{rule}` rule"),
                    "remove the line, or find the table that should hold one: a table whose header is no kind's is prose",
                ),
            }
        }
    }

    /// Every code in the table is produced by something.
    pub fn unproduced(&self, ctx: &mut Context) {
        for row in &self.rows {
            if !self.produced.contains(&row.code) {
                ctx.md(
                    self.row_pos[&row.code],
                    format!("error code `{}` is produced by nothing", row.code),
                    "map a rule to it in the sidecar ([errors] or a rule's `code`), or remove the row",
                );
            }
        }
    }
}

impl Checker<'_> {
    /// `[errors] enum` (default `<Spec>Error`), which no table's Rust type may be.
    pub(super) fn errors_enum(&mut self, rust_types: &BTreeMap<String, String>) -> String {
        let errors_enum = match self.side.errors_enum.clone() {
            Some(e) if is_ident(&e.value) && !is_raw_keyword(&e.value) => e.value,
            Some(e) => {
                self.ctx.toml(
                    e.pos,
                    format!("`{}` is not a Rust type name", e.value),
                    "write an UpperCamelCase identifier",
                );
                String::new()
            }
            None => format!("{}Error", upper_camel(&self.source.name)),
        };
        if let Some(other) = rust_types.get(&errors_enum) {
            self.ctx.toml(
                self.side
                    .errors_enum
                    .as_ref()
                    .map_or(self.side.spec_pos, |e| e.pos),
                format!("the error enum `{errors_enum}` clashes with the type of table `{other}`"),
                "choose another `enum` in [errors]",
            );
        }
        errors_enum
    }

    /// `[errors]`: rule kind → code.
    pub(super) fn rule_map(&mut self) {
        for (rule, code) in std::mem::take(&mut self.side.error_map) {
            self.book.use_code(&mut self.ctx, &code);
            self.book.rule_pos.insert(rule.value.clone(), rule.pos);
            self.book.rule_map.insert(rule.value, code);
        }
    }

    /// `[errors] engine`: codes raised by hand-written behaviour.
    pub(super) fn engine_codes(&mut self) {
        for code in std::mem::take(&mut self.side.engine) {
            self.book.use_code(&mut self.ctx, &code);
            self.book.engine.push(code.value);
        }
    }

    /// `[errors.tables]` and `[errors.paths]`.
    pub(super) fn code_overrides(&mut self, root: Option<usize>) {
        for (table, code) in std::mem::take(&mut self.side.error_tables) {
            self.book.use_code(&mut self.ctx, &code);
            if !self
                .index
                .objects
                .iter()
                .any(|o| o.name == table.value && !o.synthesized)
            {
                self.ctx.toml(
                    table.pos,
                    format!(
                        "[errors.tables] names `{}`, which is no field table",
                        table.value
                    ),
                    suggest(
                        &table.value,
                        self.index.names_of(Some(Kind::Object)),
                        format!("field tables: {}", self.index.object_names()),
                    ),
                );
                continue;
            }
            self.book.table_codes.insert(table.value, code.value);
        }
        for (path, code) in std::mem::take(&mut self.side.error_paths) {
            self.book.use_code(&mut self.ctx, &code);
            let Some(root) = root else { continue };
            match self.resolve_at(root, &path, File::Toml) {
                Some(t) if !t.elems => {
                    let o = &self.index.objects[t.obj];
                    self.book.path_codes.insert(
                        (o.name.clone(), o.fields[t.field].key.clone()),
                        (code.value, path.value.clone()),
                    );
                }
                Some(_) => self.ctx.toml(
                    path.pos,
                    format!("[errors.paths] `{}` ends in `[]`", path.value),
                    "name the field itself: its rules apply to each element",
                ),
                None => {}
            }
        }
        for (path, rule, code) in std::mem::take(&mut self.side.error_rules) {
            self.book.use_code(&mut self.ctx, &code);
            let Some(root) = root else { continue };
            match self.resolve_at(root, &path, File::Toml) {
                Some(t) if !t.elems => {
                    let o = &self.index.objects[t.obj];
                    self.book.rule_codes.insert(
                        (o.name.clone(), o.fields[t.field].key.clone(), rule.value),
                        (code.value, rule.pos, path.value.clone()),
                    );
                }
                Some(_) => self.ctx.toml(
                    path.pos,
                    format!("[errors.rules] `{}` ends in `[]`", path.value),
                    "name the field itself: its rules apply to each element",
                ),
                None => {}
            }
        }
    }

    /// The code of a rule of `kind` on a field: the path override, else the table override,
    /// else `[errors]` (a missing mapping is reported at `pos`, default the field's Type
    /// cell).
    fn field_code(
        &mut self,
        obj: usize,
        fi: usize,
        kind: &str,
        what: &str,
        pos: Option<Pos>,
    ) -> Option<String> {
        let o = &self.index.objects[obj];
        let (table, key) = (o.name.clone(), o.fields[fi].key.clone());
        let pos = pos.unwrap_or_else(|| self.index.type_pos_of(&table, &key));
        let ask = Ask::new(kind, what, pos, File::Md);
        self.book
            .code_for(&mut self.ctx, None, Some((&table, &key)), ask)
    }

    /// The member `key` of the `tag` form of the union `union`.
    fn member_mut(&mut self, union: &str, tag: &str, key: &str) -> Option<&mut Field> {
        self.index
            .unions
            .iter_mut()
            .find(|u| u.name == union)?
            .variants
            .iter_mut()
            .find(|v| v.tag_value == tag)?
            .members
            .iter_mut()
            .find(|m| m.key == key)
    }

    /// The codes of non-blank fields (and union members, which have no override).
    pub(super) fn non_blank_codes(&mut self, named: &[Named<'_>]) {
        // The first non-blank Type cell is where a missing mapping is reported.
        let first = named.iter().find_map(|n| {
            if n.kind != Kind::Object {
                return None;
            }
            n.table.rows.iter().find_map(|r| {
                r.cells
                    .get(1)
                    .filter(|c| c.plain.trim_start().starts_with("non-blank"))
                    .map(|c| c.pos)
            })
        });
        let in_unions = self
            .index
            .unions
            .iter()
            .flat_map(|u| u.variants.iter().flat_map(|v| v.members.iter()))
            .any(|m| m.ty.non_blank);
        let any = self
            .index
            .objects
            .iter()
            .flat_map(|o| o.fields.iter())
            .any(|f| f.ty.non_blank)
            || in_unions;
        if !any {
            return;
        }
        let pos = first.unwrap_or(Pos::TOP);
        for oi in 0..self.index.objects.len() {
            for fi in 0..self.index.objects[oi].fields.len() {
                if self.index.objects[oi].fields[fi].ty.non_blank {
                    let code = self.field_code(oi, fi, "non_blank", "non-blank fields", None);
                    self.index.objects[oi].fields[fi].rules.non_blank = code;
                }
            }
        }
        if !in_unions {
            return;
        }
        let ask = Ask::new("non_blank", "non-blank fields", pos, File::Md);
        let Some(code) = self.book.mapped(&mut self.ctx, ask) else {
            return;
        };
        for u in &mut self.index.unions {
            for v in &mut u.variants {
                for m in &mut v.members {
                    if m.ty.non_blank {
                        m.rules.non_blank = Some(code.clone());
                    }
                }
            }
        }
    }

    /// Codes of the rules a Type or Required cell states: literals, patterns, relative
    /// paths, formats, ranges (on fields and union members), conditional requirements.
    pub(super) fn type_rule_codes(&mut self) {
        for oi in 0..self.index.objects.len() {
            for fi in 0..self.index.objects[oi].fields.len() {
                let ty = self.index.objects[oi].fields[fi].ty.clone();
                for rule in TypeRule::ALL {
                    if rule.stated_by(&ty) {
                        let c = self.field_code(oi, fi, rule.key(), rule.types(), None);
                        *rule.code_in(&mut self.index.objects[oi].fields[fi].rules) = c;
                    }
                }
            }
        }
        for o in &mut self.index.objects {
            for f in &mut o.fields {
                if f.rules.required.is_some() {
                    if let Some(c) = self.book.required_override(&o.name, &f.key) {
                        f.rules.required = Some(c);
                    }
                }
            }
        }
        self.enum_codes();
        // A union member's rules take the `[errors]` code (a member has no override).
        for (union, tag, key, pos) in std::mem::take(&mut self.pending_member_rules) {
            let Some(ty) = self.member_mut(&union, &tag, &key).map(|m| m.ty.clone()) else {
                continue;
            };
            for rule in TypeRule::ALL {
                if rule.stated_by(&ty) {
                    let ask = Ask::new(rule.key(), rule.types(), pos, File::Md);
                    let code = self.book.mapped(&mut self.ctx, ask);
                    if let Some(m) = self.member_mut(&union, &tag, &key) {
                        *rule.code_in(&mut m.rules) = code;
                    }
                }
            }
        }
        for (table, key, pos) in std::mem::take(&mut self.pending_required_if) {
            let Some(oi) = self.index.object_index(&table) else {
                continue;
            };
            let Some(fi) = self.index.field_index(oi, &key) else {
                continue;
            };
            let code =
                self.field_code(oi, fi, "required_if", "conditional requirements", Some(pos));
            if let (Some(code), Some(r)) = (
                code,
                self.index.objects[oi].fields[fi].rules.required_if.as_mut(),
            ) {
                r.code = code;
            }
        }
    }
}

impl Checker<'_> {
    /// `[errors.rules] "<path>" = { enum = "code" }`: a value outside the field's enum is
    /// reported with that code and the member read as absent, so the field must be one enum
    /// value that can be absent (`T?`, optional, or a coded requirement), not a list nor the
    /// member an `object by` chooses by.
    fn enum_codes(&mut self) {
        for oi in 0..self.index.objects.len() {
            for fi in 0..self.index.objects[oi].fields.len() {
                let o = &self.index.objects[oi];
                let f = &o.fields[fi];
                let (table, key) = (o.name.clone(), f.key.clone());
                let Some((code, pos)) = self.book.explicit_code(&table, &key, "enum") else {
                    continue;
                };
                let o = &self.index.objects[oi];
                let f = &o.fields[fi];
                let problem = if !matches!(f.ty.base, Base::Enum(_)) {
                    Some((
                        format!("[errors.rules] `{key}` gives a code to `enum`, but `{table}.{key}` is no enum field"),
                        "an `enum` code is for a field typed by an enum (or states) table".to_owned(),
                    ))
                } else if f.ty.array {
                    Some((
                        format!("`{table}.{key}` is a list: an `enum` code is for one enum value"),
                        "a list of enum values keeps the parse code for a value outside the enum"
                            .to_owned(),
                    ))
                } else if o.selector.as_ref().is_some_and(|s| s.by.key == key) {
                    Some((
                        format!("`{table}.{key}` chooses the members of `{table}`: its value cannot be read as absent"),
                        "a value outside the choosing enum keeps the parse code".to_owned(),
                    ))
                } else if f.required && !f.read_optional() {
                    Some((
                        format!("`{table}.{key}` is required without a code: a value outside its enum cannot be read as absent"),
                        "give its requirement a code (`✔ `code``), or make it optional (`—`)".to_owned(),
                    ))
                } else {
                    None
                };
                match problem {
                    Some((message, hint)) => self.ctx.toml(pos, message, hint),
                    None => self.index.objects[oi].fields[fi].rules.enum_code = Some(code),
                }
            }
        }
    }
}

/// A rule a Type cell states (besides `non-blank`): the one list of them.
#[derive(Debug, Clone, Copy)]
pub(super) enum TypeRule {
    /// A quoted literal.
    Equals,
    /// `string matching `REGEX``.
    Pattern,
    /// `relative-path`.
    RelativePath,
    /// `date-time`, `date`, `uri`, `email`.
    Format,
    /// `int32 1..=10`.
    Range,
    /// `decimal(2)`: every decimal states its scale.
    Scale,
}

impl TypeRule {
    pub(super) const ALL: [TypeRule; 6] = [
        TypeRule::Equals,
        TypeRule::Pattern,
        TypeRule::RelativePath,
        TypeRule::Format,
        TypeRule::Range,
        TypeRule::Scale,
    ];

    /// The first rule `ty` states, if any.
    pub(super) fn first_of(ty: &TypeRef) -> Option<TypeRule> {
        TypeRule::ALL.into_iter().find(|r| r.stated_by(ty))
    }

    pub(super) fn stated_by(self, ty: &TypeRef) -> bool {
        match self {
            TypeRule::Equals => ty.literal.is_some(),
            TypeRule::Pattern => ty.pattern.is_some(),
            TypeRule::RelativePath => ty.relative_path,
            TypeRule::Format => ty.format.is_some(),
            TypeRule::Range => {
                ty.range.is_some() || ty.number_range.is_some() || ty.decimal_range.is_some()
            }
            TypeRule::Scale => matches!(ty.base, Base::Decimal { .. }),
        }
    }

    /// Its `[errors]` key.
    fn key(self) -> &'static str {
        match self {
            TypeRule::Equals => "equals",
            TypeRule::Pattern => "pattern",
            TypeRule::RelativePath => "relative_path",
            TypeRule::Format => "format",
            TypeRule::Range => "range",
            TypeRule::Scale => "scale",
        }
    }

    /// The types that state it, as a hint names them.
    fn types(self) -> &'static str {
        match self {
            TypeRule::Equals => "literal types",
            TypeRule::Pattern => "`matching` types",
            TypeRule::RelativePath => "`relative-path` types",
            TypeRule::Format => "formats",
            TypeRule::Range => "ranges",
            TypeRule::Scale => "decimal types",
        }
    }

    /// What a type with it has, as a message names it (`cannot have a range`).
    pub(super) fn noun(self) -> &'static str {
        match self {
            TypeRule::Equals => "a literal",
            TypeRule::Pattern => "a pattern",
            TypeRule::RelativePath => "`relative-path`",
            TypeRule::Format => "a format",
            TypeRule::Range => "a range",
            TypeRule::Scale => "a scale",
        }
    }

    /// Where a field's rules hold its code.
    fn code_in(self, rules: &mut FieldRules) -> &mut Option<String> {
        match self {
            TypeRule::Equals => &mut rules.equals,
            TypeRule::Pattern => &mut rules.pattern,
            TypeRule::RelativePath => &mut rules.relative_path,
            TypeRule::Format => &mut rules.format,
            TypeRule::Range => &mut rules.range,
            TypeRule::Scale => &mut rules.scale,
        }
    }
}
