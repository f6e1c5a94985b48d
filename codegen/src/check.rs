//! Check phase: cross-checks the Markdown tables against each other and the sidecar, and
//! builds the model. Every problem is reported to the context; nothing stops at the first.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::diag::{Context, Pos};
use crate::markdown::{self, Cell, Document, Table};
use crate::model::*;
use crate::names::{
    is_ident, is_lower_snake, is_raw_keyword, is_screaming_snake, snake_case, upper_camel,
};
use crate::sidecar::{self, Sidecar, Spanned};
use crate::SpecSource;

const PATH_HINT: &str =
    "a path names members from the root, joined by `.`, with `[]` to step into array elements (`items[].name`)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TableKind {
    Field,
    Enum,
    Union,
    Cap,
    Error,
    Forbidden,
    States,
    Transitions,
}

fn classify(header: &[Cell]) -> Option<TableKind> {
    let h: Vec<String> = header
        .iter()
        .map(|c| c.plain.trim().to_lowercase())
        .collect();
    let h: Vec<&str> = h.iter().map(String::as_str).collect();
    match h.as_slice() {
        ["field", "type", "required", "meaning"] => Some(TableKind::Field),
        ["value", "meaning"] => Some(TableKind::Enum),
        [_, "fields", "meaning"] => Some(TableKind::Union),
        ["cap", "value", "constant"] => Some(TableKind::Cap),
        ["code", "when"] => Some(TableKind::Error),
        ["forbidden key", "why"] => Some(TableKind::Forbidden),
        ["state", "terminal", "meaning"] => Some(TableKind::States),
        ["from", "to", "on"] | ["from", "to"] => Some(TableKind::Transitions),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Enum,
    Union,
}

/// A resolved path: a field of an object, possibly stepping into its elements.
#[derive(Debug, Clone, Copy)]
struct Target {
    obj: usize,
    field: usize,
    elems: bool,
}

struct Checker<'a> {
    ctx: Context,
    doc: Document,
    side: Sidecar,
    source: &'a SpecSource,
    /// table name → kind
    kinds: BTreeMap<String, Kind>,
    rust_names: BTreeMap<String, String>,
    objects: Vec<Object>,
    /// object name → index in `objects`; per object, field key → index in its `fields`.
    /// Paths are resolved through these, so a spec's check time grows linearly with its rows.
    object_by_name: HashMap<String, usize>,
    field_by_key: Vec<HashMap<String, usize>>,
    enums: Vec<Enum>,
    unions: Vec<Union>,
    /// spec order: (kind, index)
    order: Vec<(Kind, usize)>,
    /// error table: code → position of its row
    codes: BTreeMap<String, Pos>,
    code_rows: Vec<ErrorCode>,
    produced: BTreeSet<String>,
    /// `[errors]` rule kind → (code, position)
    error_map: BTreeMap<String, Spanned<String>>,
    missing_mapping_reported: BTreeSet<String>,
    constants: BTreeMap<String, Pos>,
    rules: Vec<Rule>,
    /// (table, key) of rows already reported as broken: paths through them stay silent.
    poisoned: BTreeSet<(String, String)>,
    /// (table, key) → position of the row's Type cell.
    type_pos: BTreeMap<(String, String), Pos>,
    /// `[errors.tables]`: table → code.
    table_codes: BTreeMap<String, String>,
    /// `[errors.paths]` resolved: (table, key) → code.
    path_codes: BTreeMap<(String, String), String>,
    /// `if `field` is `value`` cells waiting for their code: (table, key, position).
    pending_required_if: Vec<(String, String, Pos)>,
    /// `[errors] engine`, as spelled.
    side_engine: Vec<String>,
}

/// Loads, checks and models one spec.
pub(crate) fn check(source: &SpecSource) -> Result<Spec, crate::Diagnostics> {
    let mut ctx = Context::new(&source.md_path, &source.toml_path);
    let doc = markdown::parse(&source.md);
    let side = if source.toml.trim().is_empty() {
        // Everything else depends on the sidecar: report this alone.
        ctx.md(
            Pos { line: 1, col: 1 },
            format!("the sidecar `{}` is missing or empty", source.toml_path),
            "create it next to the Markdown with at least `[spec]` `root = \"<field table>\"`",
        );
        ctx.finish()?;
        unreachable!("an error was reported")
    } else {
        sidecar::parse(&mut ctx, &source.toml)
    };
    let mut c = Checker {
        ctx,
        doc,
        side,
        source,
        kinds: BTreeMap::new(),
        rust_names: BTreeMap::new(),
        objects: Vec::new(),
        object_by_name: HashMap::new(),
        field_by_key: Vec::new(),
        enums: Vec::new(),
        unions: Vec::new(),
        order: Vec::new(),
        codes: BTreeMap::new(),
        code_rows: Vec::new(),
        produced: BTreeSet::new(),
        error_map: BTreeMap::new(),
        missing_mapping_reported: BTreeSet::new(),
        constants: BTreeMap::new(),
        rules: Vec::new(),
        poisoned: BTreeSet::new(),
        type_pos: BTreeMap::new(),
        table_codes: BTreeMap::new(),
        path_codes: BTreeMap::new(),
        pending_required_if: Vec::new(),
        side_engine: Vec::new(),
    };
    let spec = c.run();
    let Checker { ctx, .. } = c;
    ctx.finish()?;
    Ok(spec)
}

/// A parsed Required cell.
enum Req {
    /// `✔`, or `✔ `code`` with the code span.
    Yes(Option<markdown::CodeSpan>),
    /// `—`, or `— (default V)`.
    No(Option<String>),
    /// `if `field` is `value``.
    If(markdown::CodeSpan, markdown::CodeSpan),
}

fn parse_required(cell: &Cell) -> Option<Req> {
    let s = cell.plain.trim();
    match s {
        "✔" | "✓" | "yes" | "Yes" => return Some(Req::Yes(None)),
        "—" | "–" | "-" | "no" | "No" => return Some(Req::No(None)),
        _ => {}
    }
    if let Some(rest) = ["✔", "✓", "yes", "Yes"]
        .iter()
        .find_map(|p| s.strip_prefix(p))
    {
        return match cell.codes.as_slice() {
            [code] if rest.trim() == code.text => Some(Req::Yes(Some(code.clone()))),
            _ => None,
        };
    }
    if s.starts_with("if ") {
        return match cell.codes.as_slice() {
            [field, value] if s == format!("if {} is {}", field.text, value.text).as_str() => {
                Some(Req::If(field.clone(), value.clone()))
            }
            _ => None,
        };
    }
    let rest = ["—", "–", "-", "no", "No"]
        .iter()
        .find_map(|p| s.strip_prefix(p))?
        .trim();
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?.trim();
    let v = inner.strip_prefix("default")?.trim();
    Some(Req::No(Some(v.to_owned())))
}

impl Checker<'_> {
    fn rust_name_of(&self, name: &str) -> String {
        self.rust_names
            .get(name)
            .cloned()
            .unwrap_or_else(|| upper_camel(name))
    }

    fn run(&mut self) -> Spec {
        let title = match &self.doc.title {
            Some(t) => t.clone(),
            None => {
                self.ctx.md(
                    Pos { line: 1, col: 1 },
                    "the spec has no level-1 heading",
                    "start the Markdown with `# <Title>`; it becomes the schema's title",
                );
                self.source.name.clone()
            }
        };

        // Classify tables and collect names.
        let mut tables = std::mem::take(&mut self.doc.tables);
        for t in &mut tables {
            if classify(&t.header).is_some() {
                self.drop_malformed_rows(t);
            }
        }
        let mut named: Vec<(Kind, String, Pos, &Table)> = Vec::new();
        let mut names_seen: BTreeMap<String, Pos> = BTreeMap::new();
        let mut caps_tables = Vec::new();
        let mut error_tables = Vec::new();
        let mut forbidden_tables = Vec::new();
        let mut states_tables: Vec<(String, Pos, &Table)> = Vec::new();
        let mut transition_tables: Vec<&Table> = Vec::new();
        for t in &tables {
            let Some(kind) = classify(&t.header) else {
                continue;
            };
            let kind = match kind {
                TableKind::Field => Kind::Object,
                TableKind::Enum => Kind::Enum,
                TableKind::Union => Kind::Union,
                TableKind::Cap => {
                    caps_tables.push(t);
                    continue;
                }
                TableKind::Error => {
                    error_tables.push(t);
                    continue;
                }
                TableKind::Forbidden => {
                    forbidden_tables.push(t);
                    continue;
                }
                TableKind::Transitions => {
                    transition_tables.push(t);
                    continue;
                }
                TableKind::States => Kind::Enum,
            };
            let is_states = kind == Kind::Enum && classify(&t.header) == Some(TableKind::States);
            let Some(code) = t.heading.as_ref().and_then(|h| h.first_code.clone()) else {
                self.ctx.md(
                    t.pos,
                    "this table has no name",
                    "put the table's name in a code span in the heading above it: ## Members of a `name`",
                );
                continue;
            };
            if !is_lower_snake(&code.text) {
                self.ctx.md(
                    code.pos,
                    format!("table name `{}` is not lower_snake_case", code.text),
                    "name tables like `tool_scope`: lowercase ASCII letters, digits and `_`",
                );
                continue;
            }
            if let Some(prev) = names_seen.get(&code.text) {
                self.ctx.md(
                    code.pos,
                    format!("duplicate table name `{}`", code.text),
                    format!(
                        "it is already the name of the table under line {}",
                        prev.line
                    ),
                );
                continue;
            }
            names_seen.insert(code.text.clone(), code.pos);
            if is_states {
                states_tables.push((code.text.clone(), code.pos, t));
                continue;
            }
            self.kinds.insert(code.text.clone(), kind);
            named.push((kind, code.text.clone(), code.pos, t));
        }

        // [types]
        for (k, v) in std::mem::take(&mut self.side.types) {
            if !self.kinds.contains_key(&k.value) {
                self.ctx.toml(
                    k.pos,
                    format!("[types] names `{}`, which is no table in the spec", k.value),
                    format!("known tables: {}", self.known_tables()),
                );
            } else if !is_ident(&v.value) || is_raw_keyword(&v.value) {
                self.ctx.toml(
                    v.pos,
                    format!("`{}` is not a Rust type name", v.value),
                    "write an UpperCamelCase identifier",
                );
            } else {
                self.rust_names.insert(k.value, v.value);
            }
        }
        let mut rust_seen: BTreeMap<String, String> = BTreeMap::new();
        let all_named = named
            .iter()
            .map(|(_, n, p, _)| (n, p))
            .chain(states_tables.iter().map(|(n, p, _)| (n, p)));
        for (name, pos) in all_named {
            let rn = self.rust_name_of(name);
            if let Some(other) = rust_seen.get(&rn) {
                self.ctx.md(
                    *pos,
                    format!("tables `{other}` and `{name}` both become the Rust type `{rn}`"),
                    "rename one, or give one another Rust name in the sidecar's [types]",
                );
            }
            rust_seen.insert(rn, name.clone());
        }

        // Error table and mapping.
        for t in &error_tables {
            self.error_table(t);
        }
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
        if let Some(other) = rust_seen.get(&errors_enum) {
            self.ctx.toml(
                self.side
                    .errors_enum
                    .as_ref()
                    .map_or(self.side.spec_pos, |e| e.pos),
                format!("the error enum `{errors_enum}` clashes with the type of table `{other}`"),
                "choose another `enum` in [errors]",
            );
        }
        for (rule, code) in std::mem::take(&mut self.side.error_map) {
            self.use_code(&code);
            self.error_map.insert(rule.value, code);
        }

        // Enums first (field defaults refer to their values), then objects and unions.
        for (kind, name, _, t) in &named {
            match kind {
                Kind::Enum => {
                    let e = self.enum_table(name, t);
                    self.order.push((Kind::Enum, self.enums.len()));
                    self.enums.push(e);
                }
                Kind::Object => self.order.push((Kind::Object, usize::MAX)),
                Kind::Union => self.order.push((Kind::Union, usize::MAX)),
            }
        }
        for (i, (kind, name, _, t)) in named.iter().enumerate() {
            match kind {
                Kind::Object => {
                    let o = self.field_table(name, t);
                    self.order[i].1 = self.push_object(o);
                }
                Kind::Union => {
                    let u = self.union_table(name, t);
                    self.order[i].1 = self.unions.len();
                    self.unions.push(u);
                }
                Kind::Enum => {}
            }
        }
        // [unions.*]
        for (k, short) in std::mem::take(&mut self.side.unions) {
            match self.unions.iter_mut().find(|u| u.name == k.value) {
                Some(u) => u.short_form = short.is_some_and(|s| s.value),
                None => self.ctx.toml(
                    k.pos,
                    format!("[unions.{}] names no union table", k.value),
                    "union tables have the header `<tag> | Fields | Meaning`",
                ),
            }
        }

        self.selectors();
        self.defaultables();

        // Root.
        let root = match self.side.root.clone() {
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
            Some(r) => match self.object_index(&r.value) {
                Some(i) => Some(i),
                None => {
                    self.ctx.toml(
                        r.pos,
                        format!("root `{}` is not a field table", r.value),
                        format!("field tables: {}", self.object_names()),
                    );
                    None
                }
            },
        };
        let parse_code = self.mapped(
            "parse",
            "document parse errors",
            self.side.spec_pos,
            crate::diag::File::Toml,
        );

        // Code overrides, then the codes of type rules.
        self.code_overrides(root);
        self.non_blank_codes(&named);
        self.type_rule_codes();
        for code in std::mem::take(&mut self.side.engine) {
            self.use_code(&code);
            self.side_engine.push(code.value);
        }
        let extract = match self.side.extract.take() {
            None => Extract::Whole,
            Some(e) if e.value == "whole" => Extract::Whole,
            Some(e) if e.value == "outermost-object" => Extract::OutermostObject,
            Some(e) => {
                self.ctx.toml(
                    e.pos,
                    format!("unknown extract `{}`", e.value),
                    "write `extract = \"whole\"` (the default) or `extract = \"outermost-object\"`",
                );
                Extract::Whole
            }
        };

        // Caps.
        let mut caps = Vec::new();
        for t in &caps_tables {
            for row in &t.rows {
                if let Some(cap) = self.cap_row(row, root) {
                    caps.push(cap);
                }
            }
        }
        for sc in std::mem::take(&mut self.side.caps) {
            if !caps.iter().any(|c: &Cap| c.constant == sc.constant.value) {
                self.ctx.toml(
                    sc.constant.pos,
                    format!("[caps.{}] names no cap row", sc.constant.value),
                    format!(
                        "the Constant column of the cap table has: {}",
                        caps.iter()
                            .map(|c| c.constant.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }

        // Cross-field rules.
        self.unique_rules(root);
        self.not_equal_rules(root);
        self.contradiction_rules(root);
        self.not_contains_rules(root);
        self.digest_rules(root);
        let machines = self.machines(&states_tables, &transition_tables);

        // Forbidden keys.
        let mut forbidden_keys = Vec::new();
        for t in &forbidden_tables {
            for row in &t.rows {
                let Some(cell) = row.cells.first() else {
                    continue;
                };
                let key = cell.key().to_owned();
                if key.is_empty() {
                    continue;
                }
                if let Some(o) = self
                    .objects
                    .iter()
                    .find(|o| o.fields.iter().any(|f| f.key == key))
                {
                    self.ctx.md(
                        cell.pos,
                        format!("forbidden key `{key}` is a field of `{}`", o.name),
                        "a key cannot be both declared and forbidden: remove the row or the field",
                    );
                } else if forbidden_keys.contains(&key) {
                    self.ctx.md(
                        cell.pos,
                        format!("duplicate forbidden key `{key}`"),
                        "remove one row",
                    );
                } else {
                    forbidden_keys.push(key);
                }
            }
        }
        let forbidden_code = if forbidden_keys.is_empty() {
            self.error_map.get("forbidden_key").map(|c| c.value.clone())
        } else {
            let pos = forbidden_tables[0].pos;
            self.mapped(
                "forbidden_key",
                "forbidden keys",
                pos,
                crate::diag::File::Md,
            )
        };

        // Examples.
        let examples = self.examples();

        // Every code in the table is produced by something.
        for row in &self.code_rows {
            if !self.produced.contains(&row.code) {
                let pos = self.codes[&row.code];
                self.ctx.md(
                    pos,
                    format!("error code `{}` is produced by nothing", row.code),
                    "map a rule to it in the sidecar ([errors] or a rule's `code`), or remove the row",
                );
            }
        }

        let document_name = self
            .side
            .document
            .as_ref()
            .map(|d| d.value.clone())
            .or_else(|| self.side.root.as_ref().map(|r| r.value.clone()))
            .unwrap_or_default();
        let mut rule_codes: Vec<(String, String)> = self
            .error_map
            .iter()
            .map(|(k, v)| (k.clone(), v.value.clone()))
            .collect();
        rule_codes.sort();
        let parse = parse_code.unwrap_or_default();
        let errors = Errors {
            enum_name: errors_enum,
            codes: self.code_rows.clone(),
            forbidden_key: forbidden_code.unwrap_or_else(|| parse.clone()),
            parse,
            rule_codes,
            engine: self.side_engine.clone(),
        };
        let types = self
            .order
            .iter()
            .filter(|(_, i)| *i != usize::MAX)
            .map(|(k, i)| match k {
                Kind::Object => TypeDef::Object(self.objects[*i].clone()),
                Kind::Enum => TypeDef::Enum(self.enums[*i].clone()),
                Kind::Union => TypeDef::Union(self.unions[*i].clone()),
            })
            .collect();
        Spec {
            name: self.source.name.clone(),
            md_path: self.source.md_path.clone(),
            title,
            root: root
                .map(|r| self.objects[r].name.clone())
                .unwrap_or_default(),
            document_name,
            types,
            caps,
            errors,
            rules: std::mem::take(&mut self.rules),
            forbidden_keys,
            examples,
            extract,
            machines,
        }
    }

    fn known_tables(&self) -> String {
        self.kinds
            .keys()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn object_names(&self) -> String {
        self.objects
            .iter()
            .map(|o| format!("`{}`", o.name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Marks a code as produced and checks that the error table has it.
    fn use_code(&mut self, code: &Spanned<String>) {
        self.produced.insert(code.value.clone());
        if !self.codes.contains_key(&code.value) {
            self.ctx.toml(
                code.pos,
                format!("code `{}` is not in the error table", code.value),
                format!(
                    "add a row `| `{}` | <when> |` to the error table of {}, or fix the spelling",
                    code.value, self.source.md_path
                ),
            );
        }
    }

    /// The code `[errors]` maps `rule` to; reports (once per rule) when it is missing.
    fn mapped(
        &mut self,
        rule: &str,
        what: &str,
        pos: Pos,
        file: crate::diag::File,
    ) -> Option<String> {
        if let Some(c) = self.error_map.get(rule) {
            return Some(c.value.clone());
        }
        if self.missing_mapping_reported.insert(rule.to_owned()) {
            self.ctx.error(
                file,
                pos,
                format!("no error code for {what}"),
                format!(
                    "add `{rule} = \"<code>\"` to [errors] in {}",
                    self.source.toml_path
                ),
            );
        }
        None
    }

    fn error_table(&mut self, t: &Table) {
        for row in &t.rows {
            let (Some(code_cell), when) = (row.cells.first(), row.cells.get(1)) else {
                continue;
            };
            let code = code_cell.key().to_owned();
            if code.is_empty() {
                self.ctx.md(
                    code_cell.pos,
                    "empty error code",
                    "write the code in the Code cell",
                );
                continue;
            }
            if self.codes.contains_key(&code) {
                self.ctx.md(
                    code_cell.pos,
                    format!("duplicate error code `{code}`"),
                    "remove one row",
                );
                continue;
            }
            let variant = upper_camel(&code);
            if let Some(other) = self.code_rows.iter().find(|r| r.variant == variant) {
                self.ctx.md(
                    code_cell.pos,
                    format!(
                        "codes `{}` and `{code}` both become the variant `{variant}`",
                        other.code
                    ),
                    "spell the codes differently",
                );
                continue;
            }
            self.codes.insert(code.clone(), code_cell.pos);
            self.code_rows.push(ErrorCode {
                code,
                variant,
                doc: when.map(|c| c.md.clone()).unwrap_or_default(),
            });
        }
    }

    fn enum_table(&mut self, name: &str, t: &Table) -> Enum {
        let mut values: Vec<EnumValue> = Vec::new();
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
            if values.iter().any(|v| v.value == value) {
                self.ctx.md(
                    cell.pos,
                    format!("duplicate value `{value}` in enum `{name}`"),
                    "remove one row",
                );
                continue;
            }
            if let Some(other) = values.iter().find(|v| v.variant == variant) {
                self.ctx.md(
                    cell.pos,
                    format!(
                        "values `{}` and `{value}` both become the variant `{variant}`",
                        other.value
                    ),
                    "spell the values differently",
                );
                continue;
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
            rust_name: self.rust_name_of(name),
            doc: t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default(),
            values,
        }
    }

    fn parse_type(
        &mut self,
        text: &str,
        codes: &[markdown::CodeSpan],
        pos: Pos,
    ) -> Option<TypeRef> {
        let mut s = text.trim();
        let mut non_blank = false;
        let mut relative_path = false;
        loop {
            if let Some(rest) = s.strip_prefix("non-blank ") {
                non_blank = true;
                s = rest.trim_start();
            } else if let Some(rest) = s.strip_prefix("relative-path ") {
                relative_path = true;
                s = rest.trim_start();
            } else {
                break;
            }
        }
        // A quoted literal: a string that must equal it.
        if s.starts_with('"') {
            return match serde_json::from_str::<String>(s) {
                Ok(lit) if !non_blank && !relative_path => Some(TypeRef {
                    base: Base::String,
                    array: false,
                    nullable: false,
                    non_blank: false,
                    literal: Some(lit),
                    pattern: None,
                    relative_path: false,
                }),
                Ok(_) => {
                    self.ctx.md(
                        pos,
                        format!("a literal type `{s}` takes no qualifier"),
                        "remove `non-blank` / `relative-path`: the literal says the exact value",
                    );
                    None
                }
                Err(_) => {
                    self.ctx.md(
                        pos,
                        format!("cannot read the literal type `{s}`"),
                        "write a JSON string literal such as `\"0.1\"` (the whole cell)",
                    );
                    None
                }
            };
        }
        // `string matching `REGEX``: the regex is the cell's last code span.
        let mut pattern = None;
        if let Some(code) = codes.last() {
            if let Some(head) = s.strip_suffix(code.text.as_str()) {
                if let Some(head) = head.trim_end().strip_suffix("matching") {
                    if code.text.trim().is_empty() {
                        self.ctx.md(
                            code.pos,
                            "`matching` has an empty regex",
                            "write the regex in a code span: string matching `^[a-z]+$`",
                        );
                        return None;
                    }
                    pattern = Some(code.text.clone());
                    s = head.trim_end();
                    if s != "string" {
                        self.ctx.md(
                            pos,
                            format!("`matching` applies to `string`, not `{s}`"),
                            "write `string matching `REGEX``",
                        );
                        return None;
                    }
                }
            }
        }
        // `object by `field``.
        if let Some(rest) = s.strip_prefix("object by") {
            let by = rest.trim();
            let ok = codes.len() == 1 && codes[0].text == by && !by.is_empty();
            if !ok || non_blank || relative_path {
                self.ctx.md(
                    pos,
                    format!("cannot read the type `{}`", text.trim()),
                    "write `object by `field`` with the name of an enum field of this table in a code span",
                );
                return None;
            }
            return Some(TypeRef {
                base: Base::Selected(by.to_owned()),
                array: false,
                nullable: false,
                non_blank: false,
                literal: None,
                pattern: None,
                relative_path: false,
            });
        }
        let mut nullable = false;
        if let Some(rest) = s.strip_suffix('?') {
            nullable = true;
            s = rest.trim_end();
        }
        let mut array = false;
        if let Some(rest) = s.strip_suffix("[]") {
            array = true;
            s = rest.trim_end();
        }
        let base = match s {
            "string" => Base::String,
            "bool" => Base::Bool,
            "uint32" => Base::U32,
            "uint64" => Base::U64,
            "int64" => Base::I64,
            "number" => Base::Number,
            "object" => {
                self.ctx.md(
                    pos,
                    format!("`object` alone is not a type in `{}`", text.trim()),
                    "name a field table, or write `object by `field`` for members chosen by an enum field",
                );
                return None;
            }
            other => match self.kinds.get(other) {
                Some(Kind::Object) => Base::Object(other.to_owned()),
                Some(Kind::Enum) => Base::Enum(other.to_owned()),
                Some(Kind::Union) => Base::Union(other.to_owned()),
                None => {
                    self.ctx.md(
                        pos,
                        format!("unknown type `{other}` in `{}`", text.trim()),
                        format!(
                            "use string, bool, uint32, uint64, int64, number, or a table of this spec: {}",
                            self.known_tables()
                        ),
                    );
                    return None;
                }
            },
        };
        if non_blank && base != Base::String {
            self.ctx.md(
                pos,
                format!("`non-blank` applies to strings only, not `{s}`"),
                "remove `non-blank`",
            );
            return None;
        }
        if relative_path && base != Base::String {
            self.ctx.md(
                pos,
                format!("`relative-path` applies to strings only, not `{s}`"),
                "remove `relative-path`",
            );
            return None;
        }
        Some(TypeRef {
            base,
            array,
            nullable,
            non_blank,
            literal: None,
            pattern,
            relative_path,
        })
    }

    fn parse_default(&mut self, ty: &TypeRef, v: &str, pos: Pos) -> Option<DefaultValue> {
        let v = v.trim().trim_matches('`');
        let bad = |c: &mut Context, what: &str| {
            c.md(
                pos,
                format!("default `{v}` is not {what}"),
                "write a default that the field's type can hold",
            );
        };
        if ty.array || ty.nullable {
            self.ctx.md(
                pos,
                format!("a stated default (`{v}`) on an array or `?` field"),
                "arrays default to `[]` and `?` fields to `null`: write just `—`",
            );
            return None;
        }
        match &ty.base {
            Base::Bool => match v {
                "true" => Some(DefaultValue::Bool(true)),
                "false" => Some(DefaultValue::Bool(false)),
                _ => {
                    bad(&mut self.ctx, "a bool");
                    None
                }
            },
            Base::U32 | Base::U64 => {
                let n = v
                    .parse::<u64>()
                    .ok()
                    .filter(|n| ty.base == Base::U64 || *n <= u64::from(u32::MAX));
                match n {
                    Some(n) => Some(DefaultValue::UInt(n)),
                    None => {
                        bad(&mut self.ctx, "an unsigned integer in range");
                        None
                    }
                }
            }
            Base::I64 => match v.parse() {
                Ok(n) => Some(DefaultValue::Int(n)),
                Err(_) => {
                    bad(&mut self.ctx, "an int64");
                    None
                }
            },
            Base::Number => match v.parse::<f64>() {
                Ok(n) if n.is_finite() => Some(DefaultValue::Number(n)),
                _ => {
                    bad(&mut self.ctx, "a number");
                    None
                }
            },
            Base::String => {
                let s = serde_json::from_str::<String>(v).unwrap_or_else(|_| v.to_owned());
                if ty.non_blank && s.trim().is_empty() {
                    bad(&mut self.ctx, "non-blank");
                    return None;
                }
                Some(DefaultValue::String(s))
            }
            Base::Enum(name) => {
                let e = self.enums.iter().find(|e| &e.name == name)?;
                match e.values.iter().find(|x| x.value == v) {
                    Some(x) => Some(DefaultValue::Enum {
                        value: x.value.clone(),
                        variant: x.variant.clone(),
                    }),
                    None => {
                        let vals: Vec<String> =
                            e.values.iter().map(|x| format!("`{}`", x.value)).collect();
                        self.ctx.md(
                            pos,
                            format!("default `{v}` is not a value of `{name}`"),
                            format!("use one of {}", vals.join(", ")),
                        );
                        None
                    }
                }
            }
            Base::Object(_) | Base::Union(_) | Base::Selected(_) => {
                self.ctx.md(
                    pos,
                    format!("a stated default (`{v}`) on an object or union field"),
                    "make the field `T?` (default null) or required",
                );
                None
            }
        }
    }

    fn new_field(&mut self, key: &str, pos: Pos, seen: &mut Seen) -> Option<String> {
        let rust = snake_case(key);
        if key.is_empty() || !is_ident(&rust) {
            self.ctx.md(
                pos,
                format!("`{key}` cannot be a Rust field name"),
                "use a key with ASCII letters and digits",
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

    /// Reports, and drops, each row whose source holds another number of cells than the
    /// header (GFM would silently pad it or drop its extra cells), so the row is reported
    /// once and not misread.
    fn drop_malformed_rows(&mut self, t: &mut Table) {
        let want = t.header.len();
        let rows = std::mem::take(&mut t.rows);
        for row in rows {
            let got = row.source_cells;
            if got == want {
                t.rows.push(row);
                continue;
            }
            let hint = if got > want {
                "a `|` inside a cell ends the cell, even inside a code span: write it as `\\|`"
            } else {
                "give the row one cell per header column (an empty cell is `| |`)"
            };
            self.ctx.md(
                row.pos,
                format!("this row has {got} cells but the table's header has {want}"),
                hint,
            );
        }
    }

    fn field_table(&mut self, name: &str, t: &Table) -> Object {
        let mut fields = Vec::new();
        let mut seen = Seen::default();
        for row in &t.rows {
            let [key_cell, ty_cell, req_cell, meaning, ..] = row.cells.as_slice() else {
                self.ctx.md(
                    row.pos,
                    "a field row needs four cells",
                    "write `| key | type | ✔ | meaning |`",
                );
                continue;
            };
            let key = key_cell.key().to_owned();
            let rust = self.new_field(&key, key_cell.pos, &mut seen);
            let ty = self.parse_type(&ty_cell.plain, &ty_cell.codes, ty_cell.pos);
            let Some(req) = parse_required(req_cell) else {
                self.ctx.md(
                    req_cell.pos,
                    format!("cannot read the Required cell `{}`", req_cell.plain),
                    "write `✔` (or `yes`), `✔ `code``, `—` (or `no`), `— (default V)`, or `if `field` is `value``",
                );
                continue;
            };
            let (Some(rust), Some(ty)) = (rust, ty) else {
                self.poisoned.insert((name.to_owned(), key));
                continue;
            };
            self.type_pos
                .insert((name.to_owned(), key.clone()), ty_cell.pos);
            let mut rules = FieldRules::default();
            let conditional = matches!(req, Req::If(..));
            let (required, default_text) = match req {
                Req::Yes(None) => (true, None),
                Req::Yes(Some(code)) => {
                    self.use_code_md(&code);
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
                Req::If(field, value) => {
                    if !ty.nullable {
                        self.ctx.md(
                            req_cell.pos,
                            format!("`{key}` is required only sometimes, so its type must be `T?`"),
                            "add `?` to the type: absent (or null) is allowed while the condition does not hold",
                        );
                    } else {
                        if let Some((field_rust, enum_rust, variant)) =
                            self.required_if_target(&t.rows, &field, &value)
                        {
                            rules.required_if = Some(RequiredIf {
                                field: Member {
                                    key: field.text.clone(),
                                    rust: field_rust,
                                },
                                enum_rust,
                                value: Member {
                                    key: value.text.clone(),
                                    rust: variant,
                                },
                                code: String::new(),
                            });
                            self.pending_required_if.push((
                                name.to_owned(),
                                key.clone(),
                                req_cell.pos,
                            ));
                        }
                    }
                    (false, None)
                }
            };
            if matches!(ty.base, Base::Selected(_)) && (!required || rules.required.is_some()) {
                self.ctx.md(
                    req_cell.pos,
                    format!("`{key}` is chosen by another field, so it must be required"),
                    "write `✔`: an action without members takes `{}`",
                );
            }
            let default = match &default_text {
                Some(v) => self.parse_default(&ty, v, req_cell.pos),
                None => None,
            };
            if !required && default_text.is_none() && !ty.array && !ty.nullable && !conditional {
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
            fields.push(Field {
                key,
                rust_name: rust,
                ty,
                required,
                default,
                doc: meaning.md.clone(),
                rules,
                absent_is_empty: false,
            });
        }
        Object {
            name: name.to_owned(),
            rust_name: self.rust_name_of(name),
            doc: t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default(),
            fields,
            not_equal: Vec::new(),
            max_json_bytes: None,
            not_contains: Vec::new(),
            digest: Vec::new(),
            selector: None,
            defaultable: false,
            synthesized: false,
        }
    }

    /// Resolves `if `field` is `value``: a plain enum field of the same table and one of its
    /// values. Returns (Rust field, Rust enum, Rust variant).
    fn required_if_target(
        &mut self,
        rows: &[markdown::Row],
        field: &markdown::CodeSpan,
        value: &markdown::CodeSpan,
    ) -> Option<(String, String, String)> {
        let row = rows
            .iter()
            .find(|r| r.cells.first().is_some_and(|c| c.key() == field.text));
        let Some(row) = row else {
            self.ctx.md(
                field.pos,
                format!("`{}` is no field of this table", field.text),
                "name an enum field of the same table",
            );
            return None;
        };
        let ty_text = row
            .cells
            .get(1)
            .map(|c| c.plain.trim().to_owned())
            .unwrap_or_default();
        let enum_def = self.enums.iter().find(|e| e.name == ty_text).cloned();
        let Some(e) = enum_def else {
            self.ctx.md(
                field.pos,
                format!(
                    "`{}` is not a plain enum field (its type is `{ty_text}`)",
                    field.text
                ),
                "a condition compares an enum field with one of its values",
            );
            return None;
        };
        let Some(v) = e.values.iter().find(|v| v.value == value.text) else {
            let vals: Vec<String> = e.values.iter().map(|v| format!("`{}`", v.value)).collect();
            self.ctx.md(
                value.pos,
                format!("`{}` is not a value of `{}`", value.text, e.name),
                format!("values: {}", vals.join(", ")),
            );
            return None;
        };
        Some((
            snake_case(&field.text),
            e.rust_name.clone(),
            v.variant.clone(),
        ))
    }

    /// Marks a code named in the Markdown as produced and checks that the error table has it.
    fn use_code_md(&mut self, code: &markdown::CodeSpan) {
        self.produced.insert(code.text.clone());
        if !self.codes.contains_key(&code.text) {
            self.ctx.md(
                code.pos,
                format!("code `{}` is not in the error table", code.text),
                format!(
                    "add a row `| `{}` | <when> |` to the error table, or fix the spelling",
                    code.text
                ),
            );
        }
    }

    fn union_table(&mut self, name: &str, t: &Table) -> Union {
        let tag = t.header[0].key().to_owned();
        let mut variants: Vec<Variant> = Vec::new();
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
            if value.is_empty()
                || rust.is_empty()
                || variants
                    .iter()
                    .any(|v| v.tag_value == value || v.rust_name == rust)
            {
                self.ctx.md(
                    tag_cell.pos,
                    format!("empty or duplicate tag value `{value}` in union `{name}`"),
                    "give each row its own tag value",
                );
                continue;
            }
            let mut members = Vec::new();
            let mut seen = Seen::default();
            seen.insert(&tag, &snake_case(&tag));
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
                let ty = self.parse_type(ty, &[], code.pos);
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
                    });
                }
            }
            variants.push(Variant {
                tag_value: value,
                rust_name: rust,
                doc: meaning.md.clone(),
                members,
            });
        }
        Union {
            name: name.to_owned(),
            rust_name: self.rust_name_of(name),
            doc: t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default(),
            tag,
            short_form: false,
            variants,
        }
    }

    fn non_blank_codes(&mut self, named: &[(Kind, String, Pos, &Table)]) {
        // The first non-blank Type cell is where a missing mapping is reported.
        let first = named.iter().find_map(|(k, _, _, t)| {
            if *k != Kind::Object {
                return None;
            }
            t.rows.iter().find_map(|r| {
                r.cells
                    .get(1)
                    .filter(|c| c.plain.trim_start().starts_with("non-blank"))
                    .map(|c| c.pos)
            })
        });
        let in_unions = self
            .unions
            .iter()
            .flat_map(|u| u.variants.iter().flat_map(|v| v.members.iter()))
            .any(|m| m.ty.non_blank);
        let any = self
            .objects
            .iter()
            .flat_map(|o| o.fields.iter())
            .any(|f| f.ty.non_blank)
            || in_unions;
        if !any {
            return;
        }
        let pos = first.unwrap_or(Pos { line: 1, col: 1 });
        for oi in 0..self.objects.len() {
            for fi in 0..self.objects[oi].fields.len() {
                if self.objects[oi].fields[fi].ty.non_blank {
                    let code = self.field_code(oi, fi, "non_blank", "non-blank fields");
                    self.objects[oi].fields[fi].rules.non_blank = code;
                }
            }
        }
        if !in_unions {
            return;
        }
        let Some(code) = self.mapped("non_blank", "non-blank fields", pos, crate::diag::File::Md)
        else {
            return;
        };
        for u in &mut self.unions {
            for v in &mut u.variants {
                for m in &mut v.members {
                    if m.ty.non_blank {
                        m.rules.non_blank = Some(code.clone());
                    }
                }
            }
        }
    }

    /// Resolves a spec path from the root object.
    fn resolve(&self, root: usize, path: &str) -> Result<Target, String> {
        if path.trim().is_empty() {
            return Err("the path is empty".to_owned());
        }
        let segs: Vec<&str> = path.split('.').collect();
        let mut obj = root;
        for (i, seg) in segs.iter().enumerate() {
            let (name, elems) = match seg.strip_suffix("[]") {
                Some(n) => (n, true),
                None => (*seg, false),
            };
            let o = &self.objects[obj];
            let Some(fi) = self.field_index(obj, name) else {
                if self.poisoned.contains(&(o.name.clone(), name.to_owned())) {
                    return Err(String::new());
                }
                let keys: Vec<String> = o.fields.iter().map(|f| format!("`{}`", f.key)).collect();
                return Err(format!(
                    "`{}` has no field `{name}` (fields: {})",
                    o.name,
                    keys.join(", ")
                ));
            };
            let f = &o.fields[fi];
            if elems && !f.ty.array {
                return Err(format!(
                    "`{name}` is not an array, so `{name}[]` steps into nothing"
                ));
            }
            if i + 1 == segs.len() {
                return Ok(Target {
                    obj,
                    field: fi,
                    elems,
                });
            }
            if f.ty.array && !elems {
                return Err(format!(
                    "`{name}` is an array: write `{name}[]` to step into its elements"
                ));
            }
            match &f.ty.base {
                Base::Object(n) => {
                    obj = self.object_index(n).expect("checked type");
                }
                other => {
                    return Err(format!(
                        "`{name}` is {}, which has no members",
                        base_words(other)
                    ));
                }
            }
        }
        unreachable!("the loop returns at the last segment")
    }

    fn cap_row(&mut self, row: &markdown::Row, root: Option<usize>) -> Option<Cap> {
        let [cap_cell, value_cell, const_cell, ..] = row.cells.as_slice() else {
            self.ctx.md(
                row.pos,
                "a cap row needs three cells",
                "write `| what | 200 chars | CONSTANT |`",
            );
            return None;
        };
        let constant = const_cell.key().to_owned();
        if !is_screaming_snake(&constant) {
            self.ctx.md(
                const_cell.pos,
                format!("constant `{constant}` is not SCREAMING_SNAKE_CASE"),
                "write the Rust constant's name, like `ITEMS_MAX`",
            );
            return None;
        }
        if let Some(prev) = self.constants.get(&constant) {
            self.ctx.md(
                const_cell.pos,
                format!("duplicate constant `{constant}`"),
                format!("it is already defined on line {}", prev.line),
            );
            return None;
        }
        self.constants.insert(constant.clone(), const_cell.pos);

        // Value: number and unit.
        let mut words = value_cell.plain.split_whitespace();
        let number = words.next().and_then(|w| w.parse::<u64>().ok());
        let unit_word = words.next();
        let Some(value) = number else {
            self.ctx.md(
                value_cell.pos,
                format!("cap value `{}` is not a number", value_cell.plain),
                "write a number and a unit: `200 chars`, `16384 bytes`, `12 items`",
            );
            return None;
        };
        let mut unit = match unit_word {
            None => None,
            Some("chars" | "char" | "characters") => Some(Unit::Chars),
            Some("bytes" | "byte") => Some(Unit::Bytes),
            Some("items" | "item") => Some(Unit::Items),
            Some(other) => {
                self.ctx.md(
                    value_cell.pos,
                    format!("unknown unit `{other}` in `{}`", value_cell.plain),
                    "units are `chars` (Unicode scalar values), `bytes` (compact JSON) and `items`",
                );
                return None;
            }
        };

        let side_idx = self
            .side
            .caps
            .iter()
            .position(|c| c.constant.value == constant);
        let side = side_idx.map(|i| self.side.caps.remove(i));
        let cell_path = cap_cell
            .codes
            .first()
            .map(|c| (c.text.trim().to_owned(), c.pos));
        let root = root?;

        let label = cap_cell.md.clone();
        let value_text = value_cell.plain.clone();
        let cap = |unit: Unit, binding: String| Cap {
            label: label.clone(),
            value_text: value_text.clone(),
            value,
            unit,
            constant: constant.clone(),
            binding,
        };

        // Bound in the sidecar.
        if let Some(sc) = side {
            let rule = sc.rule.clone();
            let rule_name = rule.as_ref().map(|r| r.value.as_str());
            match rule_name {
                Some("document_bytes") => {
                    if unit != Some(Unit::Bytes) {
                        self.ctx.md(
                            value_cell.pos,
                            format!("the document byte cap `{constant}` is not in bytes"),
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
                    let code = match &sc.code {
                        Some(c) => {
                            self.use_code(c);
                            Some(c.value.clone())
                        }
                        None => self.mapped(
                            "max_bytes",
                            "the document byte cap",
                            sc.constant.pos,
                            crate::diag::File::Toml,
                        ),
                    }?;
                    self.objects[root].max_json_bytes = Some(CapUse {
                        constant: constant.clone(),
                        value,
                        code: code.clone(),
                    });
                    self.rules.push(Rule {
                        kind: RuleKind::DocumentBytes,
                        path: String::new(),
                        code,
                    });
                    return Some(cap(Unit::Bytes, "document bytes".into()));
                }
                Some("max_items_per_group") => {
                    if unit == Some(Unit::Chars) || unit == Some(Unit::Bytes) {
                        self.ctx.md(
                            value_cell.pos,
                            format!(
                                "a per-group cap counts items, not {}",
                                unit_word.unwrap_or("")
                            ),
                            "write the value as `N` or `N items`",
                        );
                        return None;
                    }
                    let path = self.cap_path(&sc.path, &cell_path, sc.constant.pos, &constant)?;
                    let path_file = if sc.path.is_some() {
                        crate::diag::File::Toml
                    } else {
                        crate::diag::File::Md
                    };
                    let Some(by) = sc.by.clone() else {
                        self.ctx.toml(
                            sc.constant.pos,
                            format!("[caps.{constant}] has rule `max_items_per_group` but no `by`"),
                            "add `by = \"<member of the items>\"`",
                        );
                        return None;
                    };
                    let (obj, fi) = self.array_of_objects(root, &path, path_file)?;
                    let elem = self.elem_object(obj, fi)?;
                    let Some(by_field) = self.objects[elem]
                        .fields
                        .iter()
                        .find(|f| f.key == by.value)
                        .cloned()
                    else {
                        self.ctx.toml(
                            by.pos,
                            format!(
                                "`by = \"{}\"` names no member of `{}`",
                                by.value, self.objects[elem].name
                            ),
                            format!("members: {}", self.member_list(elem)),
                        );
                        return None;
                    };
                    let code = match &sc.code {
                        Some(c) => {
                            self.use_code(c);
                            Some(c.value.clone())
                        }
                        None => self.mapped(
                            "max_items_per_group",
                            "per-group caps",
                            sc.constant.pos,
                            crate::diag::File::Toml,
                        ),
                    }?;
                    self.objects[obj].fields[fi]
                        .rules
                        .max_items_per_group
                        .push(GroupCap {
                            by: by_field.member(),
                            cap: CapUse {
                                constant: constant.clone(),
                                value,
                                code: code.clone(),
                            },
                        });
                    self.rules.push(Rule {
                        kind: RuleKind::MaxItemsPerGroup,
                        path: path.value.clone(),
                        code,
                    });
                    return Some(cap(
                        Unit::Items,
                        format!("{} per {}", path.value, by_field.key),
                    ));
                }
                Some("max_chars" | "max_items") | None => {
                    if let Some(by) = &sc.by {
                        self.ctx.toml(
                            by.pos,
                            "`by` applies only to rule `max_items_per_group`",
                            "remove `by` or set `rule = \"max_items_per_group\"`",
                        );
                    }
                    if rule_name == Some("max_chars") {
                        unit = unit.or(Some(Unit::Chars));
                    }
                    if rule_name == Some("max_items") {
                        unit = unit.or(Some(Unit::Items));
                    }
                    let path = self.cap_path(&sc.path, &cell_path, sc.constant.pos, &constant)?;
                    let path_file = if sc.path.is_some() {
                        crate::diag::File::Toml
                    } else {
                        crate::diag::File::Md
                    };
                    return self.bind_path_in(
                        root,
                        &path,
                        unit,
                        unit_word,
                        value_cell,
                        &constant,
                        value,
                        sc.code.as_ref(),
                        cap,
                        path_file,
                    );
                }
                Some(other) => {
                    let pos = rule.as_ref().map(|r| r.pos).unwrap_or(sc.constant.pos);
                    self.ctx.toml(pos, format!("unknown cap rule `{other}`"), "rules are `document_bytes`, `max_items_per_group`, `max_chars` and `max_items`");
                    return None;
                }
            }
        }

        // Bound by its own Cap cell.
        let Some((path, pos)) = cell_path else {
            self.ctx.md(
                cap_cell.pos,
                format!("cap row `{constant}` is bound to nothing"),
                format!("put the path in a code span in the Cap cell, or bind it in the sidecar with `[caps.{constant}]` and a `rule`"),
            );
            return None;
        };
        let path = Spanned { value: path, pos };
        self.bind_path_md(
            root, &path, unit, unit_word, value_cell, &constant, value, cap,
        )
    }

    fn member_list(&self, obj: usize) -> String {
        self.objects[obj]
            .fields
            .iter()
            .map(|f| format!("`{}`", f.key))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The path of a sidecar-bound cap: the sidecar's `path`, else the Cap cell's code span.
    fn cap_path(
        &mut self,
        side: &Option<Spanned<String>>,
        cell: &Option<(String, Pos)>,
        sc_pos: Pos,
        constant: &str,
    ) -> Option<Spanned<String>> {
        match (side, cell) {
            (Some(s), Some((c, _))) if s.value != *c => {
                self.ctx.toml(
                    s.pos,
                    format!(
                        "[caps.{constant}] path `{}` differs from the Cap cell's `{c}`",
                        s.value
                    ),
                    "remove `path` from the sidecar: the table already says it",
                );
                None
            }
            (Some(s), _) => Some(s.clone()),
            (None, Some((c, pos))) => Some(Spanned {
                value: c.clone(),
                pos: *pos,
            }),
            (None, None) => {
                self.ctx.toml(
                    sc_pos,
                    format!("[caps.{constant}] has no `path` and its Cap cell names none"),
                    "add `path = \"...\"`, or put the path in a code span in the Cap cell",
                );
                None
            }
        }
    }

    /// Resolves a sidecar path that must name an array of objects (not stepping into it).
    fn array_of_objects(
        &mut self,
        root: usize,
        path: &Spanned<String>,
        file: crate::diag::File,
    ) -> Option<(usize, usize)> {
        match self.resolve(root, &path.value) {
            Ok(t) => {
                let f = &self.objects[t.obj].fields[t.field];
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
            Err(e) => {
                if !e.is_empty() {
                    self.ctx.error(
                        file,
                        path.pos,
                        format!("path `{}` does not resolve: {e}", path.value),
                        PATH_HINT,
                    );
                }
                None
            }
        }
    }

    /// Adds a field table, indexing it by name and its fields by key; returns its index.
    fn push_object(&mut self, o: Object) -> usize {
        let i = self.objects.len();
        self.object_by_name.entry(o.name.clone()).or_insert(i);
        let mut keys = HashMap::with_capacity(o.fields.len());
        for (fi, f) in o.fields.iter().enumerate() {
            keys.entry(f.key.clone()).or_insert(fi);
        }
        self.field_by_key.push(keys);
        self.objects.push(o);
        i
    }

    /// The first field table named `name`.
    fn object_index(&self, name: &str) -> Option<usize> {
        self.object_by_name.get(name).copied()
    }

    /// The first field of object `obj` with JSON key `key`.
    fn field_index(&self, obj: usize, key: &str) -> Option<usize> {
        self.field_by_key.get(obj)?.get(key).copied()
    }

    fn elem_object(&self, obj: usize, fi: usize) -> Option<usize> {
        match &self.objects[obj].fields[fi].ty.base {
            Base::Object(n) => self.object_index(n),
            _ => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn bind_path_md(
        &mut self,
        root: usize,
        path: &Spanned<String>,
        unit: Option<Unit>,
        unit_word: Option<&str>,
        value_cell: &Cell,
        constant: &str,
        value: u64,
        cap: impl Fn(Unit, String) -> Cap,
    ) -> Option<Cap> {
        self.bind_path_in(
            root,
            path,
            unit,
            unit_word,
            value_cell,
            constant,
            value,
            None,
            cap,
            crate::diag::File::Md,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn bind_path_in(
        &mut self,
        root: usize,
        path: &Spanned<String>,
        unit: Option<Unit>,
        unit_word: Option<&str>,
        value_cell: &Cell,
        constant: &str,
        value: u64,
        code: Option<&Spanned<String>>,
        cap: impl Fn(Unit, String) -> Cap,
        path_file: crate::diag::File,
    ) -> Option<Cap> {
        let t = match self.resolve(root, &path.value) {
            Ok(t) => t,
            Err(e) => {
                if !e.is_empty() {
                    self.ctx.error(
                        path_file,
                        path.pos,
                        format!("path `{}` does not resolve: {e}", path.value),
                        PATH_HINT,
                    );
                }
                return None;
            }
        };
        let f = self.objects[t.obj].fields[t.field].clone();
        let is_array_target = f.ty.array && !t.elems;
        let is_string_target = f.ty.base == Base::String && !is_array_target;
        let unit = match unit {
            Some(u) => u,
            None if is_array_target => Unit::Items,
            None => {
                self.ctx.md(
                    value_cell.pos,
                    format!(
                        "cap `{constant}` has no unit and `{}` is not an array",
                        path.value
                    ),
                    if is_string_target {
                        "write `N chars` for a string cap".to_owned()
                    } else {
                        "write the unit: `N chars`, `N bytes` or `N items`".to_owned()
                    },
                );
                return None;
            }
        };
        let misfit = |c: &mut Context, why: &str| {
            c.md(
                value_cell.pos,
                format!("unit `{}` does not fit `{}`: {why}", unit_word.unwrap_or("items"), path.value),
                "chars caps bind to strings (`tags[]` for the elements of a string array), items caps to arrays; byte caps are bound in the sidecar with `rule = \"document_bytes\"`",
            );
        };
        let code = |s: &mut Self, rule: &str, what: &str| -> Option<String> {
            match code {
                Some(c) => {
                    s.use_code(c);
                    Some(c.value.clone())
                }
                None => match s.override_code(t.obj, t.field) {
                    Some(c) => Some(c),
                    None => s.mapped(rule, what, value_cell.pos, crate::diag::File::Md),
                },
            }
        };
        // Char and item caps differ only in what they fit and which slot of the field's rules
        // they fill; one path handles both.
        let (fits, why_not, rule, what, noun) = match unit {
            Unit::Chars => (
                is_string_target,
                if is_array_target {
                    "it is an array (write `[]` to cap its elements)"
                } else {
                    "it is not a string"
                },
                "max_chars",
                "char caps",
                "a char cap",
            ),
            Unit::Items => (
                is_array_target,
                "it is not an array",
                "max_items",
                "item caps",
                "an item cap",
            ),
            Unit::Bytes => (false, "", "", "", ""),
        };
        match unit {
            Unit::Chars | Unit::Items => {
                if !fits {
                    misfit(&mut self.ctx, why_not);
                    return None;
                }
                let code = code(self, rule, what)?;
                let rules = &mut self.objects[t.obj].fields[t.field].rules;
                let slot = if unit == Unit::Chars {
                    &mut rules.max_chars
                } else {
                    &mut rules.max_items
                };
                if slot.is_some() {
                    self.ctx.md(
                        value_cell.pos,
                        format!("`{}` already has {noun}", path.value),
                        "keep one cap row per path and unit",
                    );
                    return None;
                }
                *slot = Some(CapUse {
                    constant: constant.to_owned(),
                    value,
                    code,
                });
                Some(cap(unit, path.value.clone()))
            }
            Unit::Bytes => {
                misfit(
                    &mut self.ctx,
                    "byte caps measure compact JSON of the whole document",
                );
                None
            }
        }
    }

    fn required<'s>(
        &mut self,
        v: &'s Option<Spanned<String>>,
        pos: Pos,
        what: &str,
        key: &str,
    ) -> Option<&'s Spanned<String>> {
        if v.is_none() {
            self.ctx.toml(
                pos,
                format!("{what} has no `{key}`"),
                format!("add `{key} = \"...\"`"),
            );
        }
        v.as_ref()
    }

    fn rule_code(
        &mut self,
        code: &Option<Spanned<String>>,
        pos: Pos,
        what: &str,
    ) -> Option<String> {
        let c = self.required(code, pos, what, "code")?.clone();
        self.use_code(&c);
        Some(c.value)
    }

    fn member(&mut self, obj: usize, name: &Spanned<String>) -> Option<Field> {
        match self.objects[obj]
            .fields
            .iter()
            .find(|f| f.key == name.value)
        {
            Some(f) => Some(f.clone()),
            None if self
                .poisoned
                .contains(&(self.objects[obj].name.clone(), name.value.clone())) =>
            {
                None
            }
            None => {
                self.ctx.toml(
                    name.pos,
                    format!(
                        "`{}` is no field of `{}`",
                        name.value, self.objects[obj].name
                    ),
                    format!("fields: {}", self.member_list(obj)),
                );
                None
            }
        }
    }

    fn unique_rules(&mut self, root: Option<usize>) {
        for u in std::mem::take(&mut self.side.unique) {
            let what = "[[unique]]";
            let code = self.rule_code(&u.code, u.pos, what);
            let path = self.required(&u.path, u.pos, what, "path").cloned();
            let (Some(root), Some(path), Some(code)) = (root, path, code) else {
                continue;
            };
            let Some(key) = u.key.clone() else {
                // The items themselves: a list of text.
                match self.resolve(root, &path.value) {
                    Ok(t) => {
                        let f = &self.objects[t.obj].fields[t.field];
                        if t.elems || !f.ty.array || f.ty.base != Base::String {
                            self.ctx.toml(
                                path.pos,
                                format!("`{}` is not a list of text", path.value),
                                "without `key`, [[unique]] compares the items of a `string[]` field; with `key`, a member of an array of objects",
                            );
                            continue;
                        }
                        self.objects[t.obj].fields[t.field].rules.unique = Some(UniqueItems {
                            ignore_case: u.ignore_case,
                            trim: u.trim,
                            code: code.clone(),
                        });
                        self.rules.push(Rule {
                            kind: RuleKind::Unique,
                            path: path.value,
                            code,
                        });
                    }
                    Err(e) => {
                        if !e.is_empty() {
                            self.ctx.toml(
                                path.pos,
                                format!("path `{}` does not resolve: {e}", path.value),
                                PATH_HINT,
                            );
                        }
                    }
                }
                continue;
            };
            let Some((obj, fi)) = self.array_of_objects(root, &path, crate::diag::File::Toml)
            else {
                continue;
            };
            let Some(elem) = self.elem_object(obj, fi) else {
                continue;
            };
            let Some(kf) = self.member(elem, &key) else {
                continue;
            };
            if kf.ty.base != Base::String || kf.ty.array {
                self.ctx.toml(
                    key.pos,
                    format!("unique key `{}` is not a string", key.value),
                    "unique_by compares string keys",
                );
                continue;
            }
            self.objects[obj].fields[fi].rules.unique_by.push(UniqueBy {
                key: kf.member(),
                ignore_case: u.ignore_case,
                trim: u.trim,
                code: code.clone(),
            });
            self.rules.push(Rule {
                kind: RuleKind::Unique,
                path: path.value,
                code,
            });
        }
    }

    fn not_equal_rules(&mut self, root: Option<usize>) {
        for n in std::mem::take(&mut self.side.not_equal) {
            let what = "[[not_equal]]";
            let code = self.rule_code(&n.code, n.pos, what);
            let a = self.required(&n.a, n.pos, what, "a").cloned();
            let b = self.required(&n.b, n.pos, what, "b").cloned();
            let (Some(root), Some(a), Some(b), Some(code)) = (root, a, b, code) else {
                continue;
            };
            let obj = match &n.path {
                None => root,
                Some(p) => match self.resolve(root, &p.value) {
                    Ok(t) => match &self.objects[t.obj].fields[t.field].ty {
                        TypeRef {
                            base: Base::Object(name),
                            array,
                            ..
                        } if *array == t.elems => self.object_index(name).expect("checked"),
                        _ => {
                            self.ctx.toml(p.pos, format!("`{}` is not an object", p.value), "name a field whose type is a field table (with `[]` for an array of them)");
                            continue;
                        }
                    },
                    Err(e) => {
                        if !e.is_empty() {
                            self.ctx.toml(
                                p.pos,
                                format!("path `{}` does not resolve: {e}", p.value),
                                PATH_HINT,
                            );
                        }
                        continue;
                    }
                },
            };
            let (Some(fa), Some(fb)) = (self.member(obj, &a), self.member(obj, &b)) else {
                continue;
            };
            if fa.ty != fb.ty {
                self.ctx.toml(
                    b.pos,
                    format!("`{}` and `{}` have different types", a.value, b.value),
                    "not_equal compares two fields of one type",
                );
                continue;
            }
            self.objects[obj].not_equal.push(NotEqual {
                a: fa.member(),
                b: fb.member(),
                code: code.clone(),
            });
            let path = n.path.map(|p| p.value).unwrap_or_default();
            self.rules.push(Rule {
                kind: RuleKind::NotEqual,
                path,
                code,
            });
        }
    }

    fn contradiction_rules(&mut self, root: Option<usize>) {
        for c in std::mem::take(&mut self.side.contradiction) {
            let what = "[[contradiction]]";
            let code = self.rule_code(&c.code, c.pos, what);
            let path = self.required(&c.path, c.pos, what, "path").cloned();
            let by = self.required(&c.by, c.pos, what, "by").cloned();
            let value = self.required(&c.value, c.pos, what, "value").cloned();
            let (Some(root), Some(path), Some(by), Some(value), Some(code)) =
                (root, path, by, value, code)
            else {
                continue;
            };
            let Some((obj, fi)) = self.array_of_objects(root, &path, crate::diag::File::Toml)
            else {
                continue;
            };
            let Some(elem) = self.elem_object(obj, fi) else {
                continue;
            };
            let (Some(bf), Some(vf)) = (self.member(elem, &by), self.member(elem, &value)) else {
                continue;
            };
            let enum_name = match (&bf.ty.base, bf.ty.array || bf.ty.nullable) {
                (Base::Enum(e), false) => e.clone(),
                _ => {
                    self.ctx.toml(
                        by.pos,
                        format!("`by = \"{}\"` is not a plain enum field", by.value),
                        "contradiction pairs are values of an enum table",
                    );
                    continue;
                }
            };
            if vf.ty.base != Base::String || vf.ty.array || vf.ty.nullable {
                self.ctx.toml(
                    value.pos,
                    format!("`value = \"{}\"` is not a string field", value.value),
                    "contradiction compares string values",
                );
                continue;
            }
            let e = self
                .enums
                .iter()
                .find(|e| e.name == enum_name)
                .cloned()
                .expect("checked");
            if c.pairs.is_empty() {
                self.ctx.toml(
                    c.pos,
                    "[[contradiction]] has no `pairs`",
                    "add `pairs = [{ a = \"..\", b = \"..\" }]`",
                );
                continue;
            }
            let mut pairs = Vec::new();
            for p in &c.pairs {
                let a = self.required(&p.a, p.pos, "a pair", "a").cloned();
                let b = self.required(&p.b, p.pos, "a pair", "b").cloned();
                let (Some(a), Some(b)) = (a, b) else { continue };
                let mut side =
                    |s: &Spanned<String>| match e.values.iter().find(|v| v.value == s.value) {
                        Some(v) => Some(v.variant.clone()),
                        None => {
                            let vals: Vec<String> =
                                e.values.iter().map(|v| format!("`{}`", v.value)).collect();
                            self.ctx.toml(
                                s.pos,
                                format!("`{}` is not a value of `{}`", s.value, e.name),
                                format!("values: {}", vals.join(", ")),
                            );
                            None
                        }
                    };
                let (Some(ar), Some(br)) = (side(&a), side(&b)) else {
                    continue;
                };
                pairs.push(Pair {
                    a: Member {
                        key: a.value,
                        rust: ar,
                    },
                    b: Member {
                        key: b.value,
                        rust: br,
                    },
                    ignore_case: p.ignore_case,
                });
            }
            self.objects[obj].fields[fi]
                .rules
                .contradiction
                .push(Contradiction {
                    by: bf.member(),
                    value: vf.member(),
                    enum_rust: e.rust_name,
                    pairs,
                    code: code.clone(),
                });
            self.rules.push(Rule {
                kind: RuleKind::Contradiction,
                path: path.value,
                code,
            });
        }
    }

    /// The code `[errors.paths]` or `[errors.tables]` gives the rules on a field, if any.
    fn override_code(&self, obj: usize, fi: usize) -> Option<String> {
        let o = &self.objects[obj];
        let f = &o.fields[fi];
        self.path_codes
            .get(&(o.name.clone(), f.key.clone()))
            .or_else(|| self.table_codes.get(&o.name))
            .cloned()
    }

    /// The code of a rule of `kind` on a field: the path override, else the table override,
    /// else `[errors]` (a missing mapping is reported at the field's Type cell).
    fn field_code(&mut self, obj: usize, fi: usize, kind: &str, what: &str) -> Option<String> {
        if let Some(c) = self.override_code(obj, fi) {
            return Some(c);
        }
        let key = (
            self.objects[obj].name.clone(),
            self.objects[obj].fields[fi].key.clone(),
        );
        let pos = self
            .type_pos
            .get(&key)
            .copied()
            .unwrap_or(Pos { line: 1, col: 1 });
        self.mapped(kind, what, pos, crate::diag::File::Md)
    }

    /// `[errors.tables]` and `[errors.paths]`.
    fn code_overrides(&mut self, root: Option<usize>) {
        for (table, code) in std::mem::take(&mut self.side.error_tables) {
            self.use_code(&code);
            if !self
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
                    format!("field tables: {}", self.object_names()),
                );
                continue;
            }
            self.table_codes.insert(table.value, code.value);
        }
        for (path, code) in std::mem::take(&mut self.side.error_paths) {
            self.use_code(&code);
            let Some(root) = root else { continue };
            match self.resolve(root, &path.value) {
                Ok(t) if !t.elems => {
                    let o = &self.objects[t.obj];
                    self.path_codes
                        .insert((o.name.clone(), o.fields[t.field].key.clone()), code.value);
                }
                Ok(_) => self.ctx.toml(
                    path.pos,
                    format!("[errors.paths] `{}` ends in `[]`", path.value),
                    "name the field itself: its rules apply to each element",
                ),
                Err(e) => {
                    if !e.is_empty() {
                        self.ctx.toml(
                            path.pos,
                            format!("path `{}` does not resolve: {e}", path.value),
                            PATH_HINT,
                        );
                    }
                }
            }
        }
    }

    /// Codes of the rules a Type or Required cell states: literals, patterns, relative
    /// paths, conditional requirements.
    fn type_rule_codes(&mut self) {
        for oi in 0..self.objects.len() {
            for fi in 0..self.objects[oi].fields.len() {
                let ty = self.objects[oi].fields[fi].ty.clone();
                if ty.literal.is_some() {
                    let c = self.field_code(oi, fi, "equals", "literal types");
                    self.objects[oi].fields[fi].rules.equals = c;
                }
                if ty.pattern.is_some() {
                    let c = self.field_code(oi, fi, "pattern", "`matching` types");
                    self.objects[oi].fields[fi].rules.pattern = c;
                }
                if ty.relative_path {
                    let c = self.field_code(oi, fi, "relative_path", "`relative-path` types");
                    self.objects[oi].fields[fi].rules.relative_path = c;
                }
            }
        }
        for (table, key, pos) in std::mem::take(&mut self.pending_required_if) {
            let Some(oi) = self.object_index(&table) else {
                continue;
            };
            let Some(fi) = self.field_index(oi, &key) else {
                continue;
            };
            let code = match self.override_code(oi, fi) {
                Some(c) => Some(c),
                None => self.mapped(
                    "required_if",
                    "conditional requirements",
                    pos,
                    crate::diag::File::Md,
                ),
            };
            if let (Some(code), Some(r)) =
                (code, self.objects[oi].fields[fi].rules.required_if.as_mut())
            {
                r.code = code;
            }
        }
    }

    /// `object by `field``: checks the choosing field and finds (or synthesizes, empty) the
    /// table of each (value, member).
    fn selectors(&mut self) {
        let mut synthesized: Vec<Object> = Vec::new();
        for oi in 0..self.objects.len() {
            let o = self.objects[oi].clone();
            let sel: Vec<&Field> = o
                .fields
                .iter()
                .filter(|f| matches!(f.ty.base, Base::Selected(_)))
                .collect();
            let Some(first) = sel.first() else { continue };
            let Base::Selected(by) = &first.ty.base else {
                unreachable!("filtered")
            };
            let pos_of = |f: &Field| {
                self.type_pos
                    .get(&(o.name.clone(), f.key.clone()))
                    .copied()
                    .unwrap_or(Pos { line: 1, col: 1 })
            };
            if let Some(other) = sel.iter().find(|f| f.ty.base != first.ty.base) {
                let p = pos_of(other);
                self.ctx.md(
                    p,
                    format!(
                        "`{}` is chosen by another field than `{}`",
                        other.key, first.key
                    ),
                    "all `object by` fields of one table are chosen by the same enum field",
                );
                continue;
            }
            let p = pos_of(first);
            let Some(byf) = o.fields.iter().find(|f| &f.key == by) else {
                self.ctx.md(
                    p,
                    format!("`{by}` is no field of `{}`", o.name),
                    format!("fields: {}", self.member_list(oi)),
                );
                continue;
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
                    continue;
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
                continue;
            }
            let e = self
                .enums
                .iter()
                .find(|e| e.name == enum_name)
                .cloned()
                .expect("checked type");
            let members: Vec<String> = sel.iter().map(|f| f.key.clone()).collect();
            let mut cases = Vec::new();
            for v in &e.values {
                let mut tables = Vec::new();
                for m in &members {
                    let tn = format!("{}_{m}", v.value);
                    match self.kinds.get(&tn) {
                        Some(Kind::Object) => {}
                        Some(_) => self.ctx.md(
                            p,
                            format!("`{tn}` is not a field table"),
                            "the shape of a chosen member is a field table named `<value>_<member>`",
                        ),
                        None => {
                            if !synthesized.iter().any(|x| x.name == tn) {
                                synthesized.push(Object {
                                    rust_name: self.rust_name_of(&tn),
                                    name: tn.clone(),
                                    doc: format!(
                                        "`{m}` of `{}`: no members (the spec has no table `{tn}`).",
                                        v.value
                                    ),
                                    fields: Vec::new(),
                                    not_equal: Vec::new(),
                                    max_json_bytes: None,
                                    not_contains: Vec::new(),
                                    digest: Vec::new(),
                                    selector: None,
                                    defaultable: false,
                                    synthesized: true,
                                });
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
            self.objects[oi].selector = Some(Selector {
                by: byf.member(),
                enum_name: e.name.clone(),
                enum_rust: e.rust_name.clone(),
                body_rust: format!("{}Body", e.rust_name),
                members,
                cases,
            });
        }
        for o in synthesized {
            self.kinds.insert(o.name.clone(), Kind::Object);
            let i = self.push_object(o);
            self.order.push((Kind::Object, i));
        }
    }

    /// Objects that read as `{}` when absent, and the plain `✔` fields that hold them.
    fn defaultables(&mut self) {
        let mut names = BTreeSet::new();
        for o in &mut self.objects {
            let all_optional = o
                .fields
                .iter()
                .all(|f| f.read_optional() || f.ty.nullable || f.ty.array || f.default.is_some());
            o.defaultable = all_optional && o.fields.iter().any(|f| f.rules.required.is_some());
            if o.defaultable {
                names.insert(o.name.clone());
            }
        }
        for o in &mut self.objects {
            for f in &mut o.fields {
                if f.required && f.rules.required.is_none() && !f.ty.nullable && !f.ty.array {
                    if let Base::Object(n) = &f.ty.base {
                        f.absent_is_empty = names.contains(n);
                    }
                }
            }
        }
    }

    /// The object at a sidecar `path` (default: the root).
    fn object_at(&mut self, root: usize, path: &Option<Spanned<String>>) -> Option<usize> {
        let Some(p) = path else {
            return Some(root);
        };
        self.object_of_path(
            root,
            p,
            |ty, elems| !ty.array || ty.array == elems,
            "is not an object",
            "name a field whose type is a field table (with `[]` for an array of them)",
        )
    }

    /// The field table a sidecar path names, when `fits(field type, path steps into elements)`;
    /// otherwise a diagnostic at the path (`` `p` {what} ``, or that it does not resolve).
    fn object_of_path(
        &mut self,
        root: usize,
        p: &Spanned<String>,
        fits: impl Fn(&TypeRef, bool) -> bool,
        what: &str,
        hint: &str,
    ) -> Option<usize> {
        match self.resolve(root, &p.value) {
            Ok(t) => {
                let ty = &self.objects[t.obj].fields[t.field].ty;
                match &ty.base {
                    Base::Object(name) if fits(ty, t.elems) => self.object_index(name),
                    _ => {
                        self.ctx.toml(p.pos, format!("`{}` {what}", p.value), hint);
                        None
                    }
                }
            }
            Err(e) => {
                if !e.is_empty() {
                    self.ctx.toml(
                        p.pos,
                        format!("path `{}` does not resolve: {e}", p.value),
                        PATH_HINT,
                    );
                }
                None
            }
        }
    }

    fn not_contains_rules(&mut self, root: Option<usize>) {
        for n in std::mem::take(&mut self.side.not_contains) {
            let what = "[[not_contains]]";
            let code = self.rule_code(&n.code, n.pos, what);
            let list = self.required(&n.list, n.pos, what, "list").cloned();
            let value = self.required(&n.value, n.pos, what, "value").cloned();
            let (Some(root), Some(list), Some(value), Some(code)) = (root, list, value, code)
            else {
                continue;
            };
            let Some(obj) = self.object_at(root, &n.path) else {
                continue;
            };
            let (Some(lf), Some(vf)) = (self.member(obj, &list), self.member(obj, &value)) else {
                continue;
            };
            if !lf.ty.array || lf.ty.base != Base::String {
                self.ctx.toml(
                    list.pos,
                    format!("`{}` is not a list of text", list.value),
                    "`list` names a `string[]` field",
                );
                continue;
            }
            if vf.ty.array || vf.ty.base != Base::String {
                self.ctx.toml(
                    value.pos,
                    format!("`{}` is not a text field", value.value),
                    "`value` names a `string` (or `string?`) field of the same object",
                );
                continue;
            }
            self.objects[obj].not_contains.push(NotContains {
                list: lf.member(),
                value: vf.member(),
                code: code.clone(),
            });
            self.rules.push(Rule {
                kind: RuleKind::NotContains,
                path: n.path.map(|p| p.value).unwrap_or_default(),
                code,
            });
        }
    }

    fn digest_rules(&mut self, root: Option<usize>) {
        for d in std::mem::take(&mut self.side.digest) {
            let what = "[[digest]]";
            let code = self.rule_code(&d.code, d.pos, what);
            let path = self.required(&d.path, d.pos, what, "path").cloned();
            let sha = self.required(&d.sha256, d.pos, what, "sha256").cloned();
            let data = self.required(&d.data, d.pos, what, "data").cloned();
            let enc = self.required(&d.encoding, d.pos, what, "encoding").cloned();
            let (Some(root), Some(path), Some(sha), Some(data), Some(enc), Some(code)) =
                (root, path, sha, data, enc, code)
            else {
                continue;
            };
            let obj = self.object_of_path(
                root,
                &path,
                |_, elems| !elems,
                "is not an object or an array of objects",
                "name a field whose type is a field table (or an array of one), without `[]`",
            );
            let Some(obj) = obj else { continue };
            let mut ok = true;
            let mut text = |s: &mut Self, m: &Spanned<String>, what: &str| -> Option<Member> {
                let f = s.member(obj, m)?;
                let fits = !f.ty.array
                    && match what {
                        "encoding" => matches!(f.ty.base, Base::String | Base::Enum(_)),
                        "length" => matches!(f.ty.base, Base::U32 | Base::U64 | Base::I64),
                        _ => f.ty.base == Base::String,
                    };
                if !fits {
                    s.ctx.toml(
                        m.pos,
                        format!("`{}` cannot be the digest's `{what}`", m.value),
                        "`sha256`, `data` and `label` name text members, `encoding` a text or enum member (`utf8` / `base64`), `length` an integer member",
                    );
                    ok = false;
                    return None;
                }
                Some(f.member())
            };
            let sha = text(self, &sha, "sha256");
            let data = text(self, &data, "data");
            let enc = text(self, &enc, "encoding");
            let length = d.length.as_ref().map(|l| text(self, l, "length"));
            let label = d.label.as_ref().map(|l| text(self, l, "label"));
            let (Some(sha256), Some(data), Some(encoding)) = (sha, data, enc) else {
                continue;
            };
            if !ok {
                continue;
            }
            self.objects[obj].digest.push(Digest {
                sha256,
                data,
                encoding,
                length: length.flatten(),
                label: label.flatten(),
                code: code.clone(),
            });
            self.rules.push(Rule {
                kind: RuleKind::Digest,
                path: path.value,
                code,
            });
        }
    }

    /// States tables with their transitions tables.
    fn machines(
        &mut self,
        states: &[(String, Pos, &Table)],
        transitions: &[&Table],
    ) -> Vec<Machine> {
        let mut machines: Vec<Machine> = Vec::new();
        for (name, _, t) in states {
            let mut list: Vec<State> = Vec::new();
            for row in &t.rows {
                let [state, terminal, meaning, ..] = row.cells.as_slice() else {
                    self.ctx.md(
                        row.pos,
                        "a state row needs three cells",
                        "write `| `STATE` | no | meaning |`",
                    );
                    continue;
                };
                let value = state.key().to_owned();
                let variant = upper_camel(&value);
                if value.is_empty() || variant.is_empty() {
                    self.ctx.md(
                        state.pos,
                        "empty state",
                        "write the state in the State cell",
                    );
                    continue;
                }
                if list
                    .iter()
                    .any(|s| s.value == value || s.variant == variant)
                {
                    self.ctx.md(
                        state.pos,
                        format!("duplicate state `{value}` in `{name}`"),
                        "give each row its own state",
                    );
                    continue;
                }
                let terminal = match terminal.plain.trim().to_lowercase().as_str() {
                    "yes" => true,
                    "no" => false,
                    other => {
                        self.ctx.md(
                            terminal.pos,
                            format!("cannot read the Terminal cell `{other}`"),
                            "write `yes` or `no`",
                        );
                        false
                    }
                };
                list.push(State {
                    value,
                    variant,
                    terminal,
                    doc: meaning.md.clone(),
                });
            }
            if list.is_empty() {
                self.ctx.md(
                    t.pos,
                    format!("states table `{name}` has no states"),
                    "add at least one row",
                );
            }
            machines.push(Machine {
                name: name.clone(),
                rust_name: self.rust_name_of(name),
                doc: t.heading.as_ref().map(|h| h.md.clone()).unwrap_or_default(),
                states: list,
                transitions: Vec::new(),
                on: None,
            });
        }
        for (k, on) in std::mem::take(&mut self.side.machines) {
            let Some(i) = machines.iter().position(|m| m.name == k.value) else {
                self.ctx.toml(
                    k.pos,
                    format!("[machines.{}] names no states table", k.value),
                    "states tables have the header `State | Terminal | Meaning`",
                );
                continue;
            };
            match on {
                None => self.ctx.toml(
                    k.pos,
                    format!("[machines.{}] has no `on`", k.value),
                    "add `on = \"<enum table>\"`: the enum whose values label the moves",
                ),
                Some(on) if self.kinds.get(&on.value) == Some(&Kind::Enum) => {
                    machines[i].on = Some(on.value);
                }
                Some(on) => self.ctx.toml(
                    on.pos,
                    format!("`on = \"{}\"` names no enum table", on.value),
                    "name the enum table whose values fill the On column",
                ),
            }
        }
        let mut done = BTreeSet::new();
        for t in transitions {
            let Some(code) = t.heading.as_ref().and_then(|h| h.first_code.clone()) else {
                self.ctx.md(
                    t.pos,
                    "this transitions table names no states table",
                    "put the states table's name in a code span in the heading: ### Transitions of a `name`",
                );
                continue;
            };
            let Some(mi) = machines.iter().position(|m| m.name == code.text) else {
                self.ctx.md(
                    code.pos,
                    format!("`{}` is no states table", code.text),
                    "states tables have the header `State | Terminal | Meaning`",
                );
                continue;
            };
            if !done.insert(mi) {
                self.ctx.md(
                    code.pos,
                    format!("a second transitions table for `{}`", code.text),
                    "keep all moves of one machine in one table",
                );
                continue;
            }
            let with_on = t.header.len() == 3;
            let on_enum = machines[mi].on.clone();
            if with_on && on_enum.is_none() {
                self.ctx.md(
                    t.pos,
                    format!(
                        "the transitions of `{}` have an On column, but no enum names its values",
                        code.text
                    ),
                    format!(
                        "add `[machines.{}]` with `on = \"<enum table>\"` to the sidecar",
                        code.text
                    ),
                );
            }
            if !with_on && on_enum.is_some() {
                self.ctx.md(
                    t.pos,
                    format!(
                        "[machines.{}] names an `on` enum, but the table has no On column",
                        code.text
                    ),
                    "add an On column, or remove `on` from the sidecar",
                );
            }
            let on_values: Vec<String> = on_enum
                .as_ref()
                .and_then(|n| self.enums.iter().find(|e| &e.name == n))
                .map(|e| e.values.iter().map(|v| v.value.clone()).collect())
                .unwrap_or_default();
            let m = machines[mi].clone();
            let lookup = |c: &mut Context, s: &markdown::CodeSpan| -> Option<usize> {
                let i = m.states.iter().position(|x| x.value == s.text);
                if i.is_none() {
                    let names: Vec<String> =
                        m.states.iter().map(|x| format!("`{}`", x.value)).collect();
                    c.md(
                        s.pos,
                        format!("`{}` is no state of `{}`", s.text, m.name),
                        format!("states: {}", names.join(", ")),
                    );
                }
                i
            };
            let mut edges: Vec<Transition> = Vec::new();
            for row in &t.rows {
                let (Some(from_cell), Some(to_cell)) = (row.cells.first(), row.cells.get(1)) else {
                    continue;
                };
                let froms: Vec<usize> = if from_cell.plain.trim() == "*" {
                    (0..m.states.len())
                        .filter(|&i| !m.states[i].terminal)
                        .collect()
                } else {
                    if from_cell.codes.is_empty() {
                        self.ctx.md(
                            from_cell.pos,
                            format!("cannot read the From cell `{}`", from_cell.plain),
                            "write states in code spans, comma-separated, or `*` for every non-terminal state",
                        );
                    }
                    let mut out = Vec::new();
                    for c in &from_cell.codes {
                        if let Some(i) = lookup(&mut self.ctx, c) {
                            if m.states[i].terminal {
                                self.ctx.md(
                                    c.pos,
                                    format!("terminal state `{}` has an outgoing move", c.text),
                                    "a terminal state has no moves: remove it from From, or mark it `no` in Terminal",
                                );
                            } else {
                                out.push(i);
                            }
                        }
                    }
                    out
                };
                if to_cell.codes.is_empty() {
                    self.ctx.md(
                        to_cell.pos,
                        format!("cannot read the To cell `{}`", to_cell.plain),
                        "write states in code spans, comma-separated",
                    );
                }
                let tos: Vec<usize> = to_cell
                    .codes
                    .iter()
                    .filter_map(|c| lookup(&mut self.ctx, c))
                    .collect();
                let on = if with_on {
                    let cell = row.cells.get(2);
                    let v = cell.map(|c| c.key().to_owned()).unwrap_or_default();
                    if on_enum.is_some() && !on_values.contains(&v) {
                        self.ctx.md(
                            cell.map_or(row.pos, |c| c.pos),
                            format!(
                                "`{v}` is not a value of `{}`",
                                on_enum.as_deref().unwrap_or("")
                            ),
                            format!(
                                "values: {}",
                                on_values
                                    .iter()
                                    .map(|v| format!("`{v}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        );
                        continue;
                    }
                    Some(v)
                } else {
                    None
                };
                for &f in &froms {
                    for &to in &tos {
                        if edges
                            .iter()
                            .any(|e| e.from == f && e.to == to && e.on == on)
                        {
                            continue;
                        }
                        if let Some(other) = edges
                            .iter()
                            .find(|e| on.is_some() && e.from == f && e.on == on)
                        {
                            self.ctx.md(
                                row.pos,
                                format!(
                                    "`{}` on `{}` goes to both `{}` and `{}`",
                                    m.states[f].value,
                                    on.as_deref().unwrap_or(""),
                                    m.states[other.to].value,
                                    m.states[to].value
                                ),
                                "one state and one event lead to one state: remove one row",
                            );
                            continue;
                        }
                        edges.push(Transition {
                            from: f,
                            to,
                            on: on.clone(),
                        });
                    }
                }
            }
            machines[mi].transitions = edges;
        }
        for (i, (name, pos, _)) in states.iter().enumerate() {
            if i < machines.len() && machines[i].transitions.is_empty() {
                self.ctx.md(
                    *pos,
                    format!("the machine `{name}` has no transitions"),
                    format!("add a table `| From | To |` (or `| From | To | On |`) under a heading naming `{name}`"),
                );
            }
        }
        machines
    }

    fn examples(&mut self) -> Vec<Example> {
        let fences = std::mem::take(&mut self.doc.fences);
        let mut out = Vec::new();
        let hint = "mark it ```json valid, ```json valid const=NAME, ```json invalid code@path, or ```json fragment";
        for f in &fences {
            let mut words = f.info.split_whitespace();
            if words.next() != Some("json") {
                continue;
            }
            let kind_word = words.next();
            let rest: Vec<&str> = words.collect();
            let mut const_name = None;
            let kind = match kind_word {
                None => {
                    self.ctx
                        .md(f.info_pos, "a `json` example does not say what it is", hint);
                    continue;
                }
                Some("fragment") => ExampleKind::Fragment,
                Some("valid") => {
                    for w in &rest {
                        match w.strip_prefix("const=") {
                            Some(n) if is_screaming_snake(n) => {
                                if self.constants.contains_key(n) {
                                    self.ctx.md(
                                        f.info_pos,
                                        format!("duplicate constant `{n}`"),
                                        "give the example another name",
                                    );
                                } else {
                                    self.constants.insert(n.to_owned(), f.info_pos);
                                    const_name = Some(n.to_owned());
                                }
                            }
                            _ => self.ctx.md(
                                f.info_pos,
                                format!("unknown marker `{w}` on a valid example"),
                                "the only marker after `valid` is `const=SCREAMING_SNAKE_NAME`",
                            ),
                        }
                    }
                    if let Err(e) = serde_json::from_str::<serde_json::Value>(&f.text) {
                        self.ctx.md(
                            f.pos,
                            format!("a valid example is not JSON: {e}"),
                            "fix the example or mark it `invalid`",
                        );
                    }
                    ExampleKind::Valid
                }
                Some("invalid") => {
                    let mut expect = Vec::new();
                    for w in &rest {
                        let Some((code, path)) = w.split_once('@') else {
                            self.ctx.md(f.info_pos, format!("`{w}` is not `code@path`"), "write each expected violation as `code@path` (`code@` for the document)");
                            continue;
                        };
                        if !self.codes.contains_key(code) {
                            self.ctx.md(
                                f.info_pos,
                                format!("code `{code}` is not in the error table"),
                                "use a code from the error table",
                            );
                        }
                        expect.push((code.to_owned(), path.to_owned()));
                    }
                    if expect.is_empty() {
                        self.ctx.md(
                            f.info_pos,
                            "an invalid example names no violation",
                            "write the expected violations: ```json invalid code@path",
                        );
                    }
                    ExampleKind::Invalid(expect)
                }
                Some(other) => {
                    self.ctx.md(
                        f.info_pos,
                        format!("unknown example marker `{other}`"),
                        hint,
                    );
                    continue;
                }
            };
            out.push(Example {
                kind,
                const_name,
                text: f.text.clone(),
                line: f.pos.line,
            });
        }
        for name in ["FORBIDDEN_KEYS", "DOCUMENT"] {
            if let Some(p) = self.constants.get(name) {
                let p = *p;
                self.ctx.md(
                    p,
                    format!("constant `{name}` is reserved"),
                    "specmint emits a constant of that name; choose another",
                );
            }
        }
        out
    }
}

fn base_words(b: &Base) -> String {
    match b {
        Base::String => "a string".into(),
        Base::Bool => "a bool".into(),
        Base::U32 | Base::U64 | Base::I64 | Base::Number => "a number".into(),
        Base::Enum(n) => format!("the enum `{n}`"),
        Base::Union(n) => format!("the union `{n}`"),
        Base::Object(n) => format!("the object `{n}`"),
        Base::Selected(n) => format!("an object chosen by `{n}`"),
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
