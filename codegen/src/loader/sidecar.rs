//! Load phase, sidecar side: the TOML walked with spans; unknown keys and wrong types are
//! reported here, meaning is checked in `check`.

use toml::de::{DeTable, DeValue};

use crate::diag::{Context, LineIndex, Pos};
use crate::names::suggest;

/// A value with its position in the sidecar.
#[derive(Debug, Clone)]
pub(crate) struct Spanned<T> {
    pub value: T,
    pub pos: Pos,
}

#[derive(Debug, Default)]
pub(crate) struct Sidecar {
    pub root: Option<Spanned<String>>,
    pub document: Option<Spanned<String>>,
    pub types: Vec<(Spanned<String>, Spanned<String>)>,
    pub errors_enum: Option<Spanned<String>>,
    /// `[errors]` rule kind → code (without `enum`).
    pub error_map: Vec<(Spanned<String>, Spanned<String>)>,
    pub unions: Vec<(Spanned<String>, Option<Spanned<bool>>)>,
    pub caps: Vec<SideCap>,
    pub unique: Vec<SideUnique>,
    pub not_equal: Vec<SideNotEqual>,
    pub order: Vec<SideOrder>,
    pub contradiction: Vec<SideContradiction>,
    pub not_contains: Vec<SideNotContains>,
    pub digest: Vec<SideDigest>,
    /// `[[required_if]]`, `[[any_of]]`, `[[one_of]]` and `[[value_if]]`, in sidecar order
    /// within each table.
    pub guarded: Vec<SideGuarded>,
    /// `[spec] extract`.
    pub extract: Option<Spanned<String>>,
    /// `[errors] engine`: codes raised by hand-written behaviour.
    pub engine: Vec<Spanned<String>>,
    /// `[errors.tables]`: table name → code.
    pub error_tables: Vec<(Spanned<String>, Spanned<String>)>,
    /// `[errors.paths]`: spec path → code.
    pub error_paths: Vec<(Spanned<String>, Spanned<String>)>,
    /// `[errors.rules]`: spec path, rule kind → code (one rule on one field).
    pub error_rules: Vec<(Spanned<String>, Spanned<String>, Spanned<String>)>,
    /// `[machines.<states>]` with its `on`.
    pub machines: Vec<(Spanned<String>, Option<Spanned<String>>)>,
    /// `[canonical] always_written`: paths of fields written even at their default.
    pub always_written: Vec<Spanned<String>>,
    /// Where the `[spec]` table is (or the file start).
    pub spec_pos: Pos,
    /// `[spec] max_input_bytes`: the document's input size limit.
    pub max_input_bytes: Option<Spanned<u64>>,
    /// `[spec] bom`: `"refuse"` (the default) or `"tolerate"`.
    pub bom: Option<Spanned<String>>,
    /// `[open] objects`: field tables that keep members they do not list.
    pub open_objects: Vec<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideNotContains {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    pub list: Option<Spanned<String>>,
    pub value: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideDigest {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    pub sha256: Option<Spanned<String>>,
    pub data: Option<Spanned<String>>,
    pub encoding: Option<Spanned<String>>,
    pub length: Option<Spanned<String>>,
    pub label: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
}

/// `[[required_if]]`, `[[any_of]]`, `[[one_of]]` or `[[value_if]]`.
#[derive(Debug)]
pub(crate) struct SideGuarded {
    /// The table (`required_if`, ...).
    pub kind: &'static str,
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    /// `field` (`[[required_if]]`, `[[value_if]]`).
    pub field: Option<Spanned<String>>,
    /// `fields` (`[[any_of]]`, `[[one_of]]`).
    pub fields: Vec<Spanned<String>>,
    /// `if = "..."`, or `unless = "..."` (`true`).
    pub condition: Option<(Spanned<String>, bool)>,
    /// `must` (`[[value_if]]`).
    pub must: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideCap {
    pub constant: Spanned<String>,
    pub rule: Option<Spanned<String>>,
    pub path: Option<Spanned<String>>,
    pub by: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideUnique {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    /// `key = "m"`, or each member of `key = ["a", "b"]`.
    pub key: Vec<Spanned<String>>,
    /// Where `key` is written (`None` without one), and whether it is an array.
    pub key_at: Option<(Pos, bool)>,
    pub ignore_case: bool,
    pub trim: bool,
    pub code: Option<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideNotEqual {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    pub a: Option<Spanned<String>>,
    pub b: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
}

/// `[[order]]`: `a` before `b` (`a < b` when `strict`, else `a <= b`).
#[derive(Debug)]
pub(crate) struct SideOrder {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    pub a: Option<Spanned<String>>,
    pub b: Option<Spanned<String>>,
    pub strict: Option<Spanned<bool>>,
    pub code: Option<Spanned<String>>,
}

#[derive(Debug)]
pub(crate) struct SideContradiction {
    pub pos: Pos,
    pub path: Option<Spanned<String>>,
    pub by: Option<Spanned<String>>,
    pub value: Option<Spanned<String>>,
    pub code: Option<Spanned<String>>,
    pub pairs: Vec<SidePair>,
}

#[derive(Debug)]
pub(crate) struct SidePair {
    pub pos: Pos,
    pub a: Option<Spanned<String>>,
    pub b: Option<Spanned<String>>,
    pub ignore_case: bool,
}

/// Rule kinds `[errors]` may map to a code.
/// The rule kinds on a field, which `[errors.rules]` may give a code of their own.
pub(crate) const FIELD_RULES: &[&str] = &[
    "non_blank",
    "max_chars",
    "max_items",
    "min_chars",
    "min_items",
    "equals",
    "pattern",
    "relative_path",
    "range",
    "scale",
    "format",
    "required_if",
    "required",
    // A value outside the field's enum (only through `[errors.rules]`: `[errors.tables]`
    // and `[errors.paths]` leave it the parse code).
    "enum",
];

pub(crate) const ERROR_RULES: &[&str] = &[
    "parse",
    "forbidden_key",
    "non_blank",
    "max_chars",
    "max_items",
    "min_chars",
    "min_items",
    "max_items_per_group",
    "max_bytes",
    "equals",
    "pattern",
    "relative_path",
    "range",
    "scale",
    "format",
    "required_if",
];

struct Walker<'a> {
    text: &'a str,
    lines: LineIndex,
}

impl Walker<'_> {
    fn pos(&self, offset: usize) -> Pos {
        self.lines.pos(self.text, offset)
    }

    /// Reports keys of `table` not in `allowed`; whether there was one.
    fn known_keys(
        &self,
        ctx: &mut Context,
        table: &DeTable<'_>,
        allowed: &[&str],
        what: &str,
    ) -> bool {
        let mut unknown = false;
        for (k, _) in table.iter() {
            if !allowed.contains(&k.get_ref().as_ref()) {
                unknown = true;
                ctx.toml(
                    self.pos(k.span().start),
                    format!("unknown key `{}` in {what}", k.get_ref()),
                    suggest(
                        k.get_ref(),
                        allowed.iter().copied(),
                        format!("expected one of: {}", allowed.join(", ")),
                    ),
                );
            }
        }
        unknown
    }

    fn string(
        &self,
        ctx: &mut Context,
        table: &DeTable<'_>,
        key: &str,
        what: &str,
    ) -> Option<Spanned<String>> {
        let v = table.get(key)?;
        match v.get_ref() {
            DeValue::String(s) => Some(Spanned {
                value: s.to_string(),
                pos: self.pos(v.span().start),
            }),
            other => {
                ctx.toml(
                    self.pos(v.span().start),
                    format!(
                        "`{key}` in {what} must be a string, found {}",
                        other.type_str()
                    ),
                    format!("write `{key} = \"...\"`"),
                );
                None
            }
        }
    }

    fn boolean(
        &self,
        ctx: &mut Context,
        table: &DeTable<'_>,
        key: &str,
        what: &str,
    ) -> Option<Spanned<bool>> {
        let v = table.get(key)?;
        match v.get_ref() {
            DeValue::Boolean(b) => Some(Spanned {
                value: *b,
                pos: self.pos(v.span().start),
            }),
            other => {
                ctx.toml(
                    self.pos(v.span().start),
                    format!(
                        "`{key}` in {what} must be a boolean, found {}",
                        other.type_str()
                    ),
                    format!("write `{key} = true` or `{key} = false`"),
                );
                None
            }
        }
    }

    fn table<'t, 'i>(
        &self,
        ctx: &mut Context,
        v: &'t toml::Spanned<DeValue<'i>>,
        what: &str,
    ) -> Option<&'t DeTable<'i>> {
        match v.get_ref() {
            DeValue::Table(t) => Some(t),
            other => {
                ctx.toml(
                    self.pos(v.span().start),
                    format!("{what} must be a table, found {}", other.type_str()),
                    format!("write it as `[{what}]`"),
                );
                None
            }
        }
    }

    /// The tables of an array of tables (`[[unique]]`), each with its position.
    fn tables<'t, 'i>(
        &self,
        ctx: &mut Context,
        v: &'t toml::Spanned<DeValue<'i>>,
        what: &str,
    ) -> Vec<(Pos, &'t DeTable<'i>)> {
        match v.get_ref() {
            DeValue::Array(items) => items
                .iter()
                .filter_map(|item| {
                    let t = self.table(ctx, item, what)?;
                    Some((self.pos(item.span().start), t))
                })
                .collect(),
            other => {
                ctx.toml(
                    self.pos(v.span().start),
                    format!(
                        "`{what}` must be an array of tables, found {}",
                        other.type_str()
                    ),
                    format!("write each entry as `[[{what}]]`"),
                );
                Vec::new()
            }
        }
    }
}

/// The sidecar's rule tables, written `[[name]]` (each also in [`TOP_KEYS`]).
pub(crate) const RULE_TABLES: &[&str] = &[
    "unique",
    "not_equal",
    "order",
    "contradiction",
    "not_contains",
    "digest",
    "required_if",
    "any_of",
    "one_of",
    "value_if",
];

/// Top-level keys of the sidecar.
const TOP_KEYS: &[&str] = &[
    "spec",
    "types",
    "errors",
    "unions",
    "caps",
    "unique",
    "not_equal",
    "order",
    "contradiction",
    "not_contains",
    "digest",
    "required_if",
    "any_of",
    "one_of",
    "value_if",
    "machines",
    "canonical",
    "open",
];

/// Walks the sidecar text. A TOML syntax error is reported and yields `None`: nothing of the
/// sidecar can be read, so the caller reports it alone (everything else would be a knock-on).
/// So does an unknown top-level section (`[erors]`): it is reported with the other key
/// problems of the sidecar, and nothing is checked, since what the section meant to say is
/// missing and every check that reads it would report a knock-on (a code "produced by
/// nothing", a rule kind with no code) that buries the cause.
pub(crate) fn parse(ctx: &mut Context, text: &str) -> Option<Sidecar> {
    let w = Walker {
        text,
        lines: LineIndex::new(text),
    };
    let mut out = Sidecar {
        spec_pos: Pos::TOP,
        ..Sidecar::default()
    };
    let doc = match DeTable::parse(text) {
        Ok(doc) => doc,
        Err(e) => {
            let pos = e.span().map_or(Pos::TOP, |s| w.pos(s.start));
            ctx.toml(
                pos,
                format!("the sidecar is not valid TOML: {}", e.message().trim()),
                "fix the TOML syntax",
            );
            return None;
        }
    };
    let doc = doc.get_ref();
    let unknown_section = w.known_keys(ctx, doc, TOP_KEYS, "the sidecar");
    w.spec(ctx, doc, &mut out);
    if let Some(t) = doc.get("types").and_then(|v| w.table(ctx, v, "types")) {
        out.types = w.strings(ctx, t, "[types]");
    }
    if let Some(t) = doc.get("errors").and_then(|v| w.table(ctx, v, "errors")) {
        w.errors(ctx, t, &mut out);
    }
    for (key, what, u) in w.keyed(ctx, doc, "unions") {
        w.known_keys(ctx, u, &["short_form"], &what);
        out.unions
            .push((key, w.boolean(ctx, u, "short_form", &what)));
    }
    for (constant, what, c) in w.keyed(ctx, doc, "caps") {
        w.known_keys(ctx, c, &["rule", "path", "by", "code"], &what);
        out.caps.push(SideCap {
            constant,
            rule: w.string(ctx, c, "rule", &what),
            path: w.string(ctx, c, "path", &what),
            by: w.string(ctx, c, "by", &what),
            code: w.string(ctx, c, "code", &what),
        });
    }
    if let Some(t) = doc
        .get("canonical")
        .and_then(|v| w.table(ctx, v, "canonical"))
    {
        w.known_keys(ctx, t, &["always_written"], "[canonical]");
        if let Some(v) = t.get("always_written") {
            out.always_written = w.string_list(ctx, v, "always_written", "[canonical]");
        }
    }
    if let Some(t) = doc.get("open").and_then(|v| w.table(ctx, v, "open")) {
        w.known_keys(ctx, t, &["objects"], "[open]");
        if let Some(v) = t.get("objects") {
            out.open_objects = w.string_list(ctx, v, "objects", "[open]");
        }
    }
    w.rules(ctx, doc, &mut out);
    (!unknown_section).then_some(out)
}

impl Walker<'_> {
    /// A key of a table, with its position.
    fn key(&self, k: &toml::Spanned<std::borrow::Cow<'_, str>>) -> Spanned<String> {
        Spanned {
            value: k.get_ref().to_string(),
            pos: self.pos(k.span().start),
        }
    }

    /// `[spec]`.
    fn spec(&self, ctx: &mut Context, doc: &DeTable<'_>, out: &mut Sidecar) {
        let Some(v) = doc.get("spec") else { return };
        let Some(t) = self.table(ctx, v, "spec") else {
            return;
        };
        out.spec_pos = self.pos(v.span().start);
        if let Some((k, _)) = doc.get_key_value("spec") {
            out.spec_pos = self.pos(k.span().start);
        }
        self.known_keys(
            ctx,
            t,
            &["root", "document", "extract", "max_input_bytes", "bom"],
            "[spec]",
        );
        out.root = self.string(ctx, t, "root", "[spec]");
        out.extract = self.string(ctx, t, "extract", "[spec]");
        out.document = self.string(ctx, t, "document", "[spec]");
        out.bom = self.string(ctx, t, "bom", "[spec]");
        out.max_input_bytes = self.positive(ctx, t, "max_input_bytes", "[spec]");
    }

    /// A positive integer.
    fn positive(
        &self,
        ctx: &mut Context,
        table: &DeTable<'_>,
        key: &str,
        what: &str,
    ) -> Option<Spanned<u64>> {
        let v = table.get(key)?;
        let pos = self.pos(v.span().start);
        let n = match v.get_ref() {
            DeValue::Integer(i) => u64::from_str_radix(i.as_str(), i.radix()).ok(),
            _ => None,
        };
        match n {
            Some(n) if n > 0 => Some(Spanned { value: n, pos }),
            _ => {
                ctx.toml(
                    pos,
                    format!("`{key}` in {what} must be a positive integer"),
                    format!("write `{key} = 67108864` (a number of bytes)"),
                );
                None
            }
        }
    }

    /// Every key of `t` with its string value (`[types]`, `[errors.tables]`, ...).
    fn strings(
        &self,
        ctx: &mut Context,
        t: &DeTable<'_>,
        what: &str,
    ) -> Vec<(Spanned<String>, Spanned<String>)> {
        let mut out = Vec::new();
        for (k, _) in t.iter() {
            let key = self.key(k);
            if let Some(s) = self.string(ctx, t, k.get_ref(), what) {
                out.push((key, s));
            }
        }
        out
    }

    /// The sub-tables of table `name` (`[caps.<KEY>]`): key, `[name.<key>]`, table.
    fn keyed<'t, 'i>(
        &self,
        ctx: &mut Context,
        doc: &'t DeTable<'i>,
        name: &str,
    ) -> Vec<(Spanned<String>, String, &'t DeTable<'i>)> {
        let mut out = Vec::new();
        let Some(t) = doc.get(name).and_then(|v| self.table(ctx, v, name)) else {
            return out;
        };
        for (k, v) in t.iter() {
            let what = format!("[{name}.{}]", k.get_ref());
            let key = self.key(k);
            if let Some(sub) = self.table(ctx, v, &what) {
                out.push((key, what, sub));
            }
        }
        out
    }

    /// `[errors]`: the enum, engine codes, overrides by table and path, rule kind → code.
    fn errors(&self, ctx: &mut Context, t: &DeTable<'_>, out: &mut Sidecar) {
        let mut allowed = vec!["enum", "engine", "tables", "paths", "rules"];
        allowed.extend_from_slice(ERROR_RULES);
        self.known_keys(ctx, t, &allowed, "[errors]");
        out.errors_enum = self.string(ctx, t, "enum", "[errors]");
        if let Some(v) = t.get("engine") {
            out.engine = self.string_list(ctx, v, "engine", "[errors]");
        }
        for (sub, dest) in [
            ("tables", &mut out.error_tables),
            ("paths", &mut out.error_paths),
        ] {
            let what = format!("[errors.{sub}]");
            if let Some(m) = t.get(sub).and_then(|v| self.table(ctx, v, &what)) {
                dest.extend(self.strings(ctx, m, &what));
            }
        }
        if let Some(m) = t
            .get("rules")
            .and_then(|v| self.table(ctx, v, "[errors.rules]"))
        {
            for (k, v) in m.iter() {
                let path = self.key(k);
                let what = format!("[errors.rules] `{}`", path.value);
                let Some(rules) = self.table(ctx, v, &what) else {
                    continue;
                };
                self.known_keys(ctx, rules, FIELD_RULES, &what);
                for (rk, _) in rules.iter() {
                    let rule = rk.get_ref().as_ref();
                    if !FIELD_RULES.contains(&rule) {
                        continue;
                    }
                    if let Some(code) = self.string(ctx, rules, rule, &what) {
                        out.error_rules.push((path.clone(), self.key(rk), code));
                    }
                }
            }
        }
        // A misspelt rule kind (reported above) is read as the kind it is close to, when that
        // one is not there too: its code is then not "produced by nothing", nor is the kind
        // "without a code" (knock-on errors that would hide the real one).
        let meant = |key: &str| {
            if allowed.contains(&key) {
                return None;
            }
            let rule = specmint_suggest::did_you_mean(key, ERROR_RULES.iter().copied())?;
            t.get(rule).is_none().then_some(rule)
        };
        for (k, _) in t.iter() {
            let key = k.get_ref().as_ref();
            let Some(rule) = (if ERROR_RULES.contains(&key) {
                Some(key)
            } else {
                meant(key)
            }) else {
                continue;
            };
            if let Some(code) = self.string(ctx, t, key, "[errors]") {
                out.error_map.push((
                    Spanned {
                        value: rule.to_owned(),
                        pos: self.pos(k.span().start),
                    },
                    code,
                ));
            }
        }
    }

    /// An array of strings (`engine = ["A", "B"]` in `what`), each with its position.
    fn string_list(
        &self,
        ctx: &mut Context,
        v: &toml::Spanned<DeValue<'_>>,
        key: &str,
        what: &str,
    ) -> Vec<Spanned<String>> {
        let mut out = Vec::new();
        let hint = format!("write `{key} = [\"...\", ...]`");
        let DeValue::Array(items) = v.get_ref() else {
            ctx.toml(
                self.pos(v.span().start),
                format!(
                    "`{key}` in {what} must be an array, found {}",
                    v.get_ref().type_str()
                ),
                hint,
            );
            return out;
        };
        for item in items.iter() {
            match item.get_ref() {
                DeValue::String(s) => out.push(Spanned {
                    value: s.to_string(),
                    pos: self.pos(item.span().start),
                }),
                other => ctx.toml(
                    self.pos(item.span().start),
                    format!(
                        "`{key}` in {what} must list strings, found {}",
                        other.type_str()
                    ),
                    hint.clone(),
                ),
            }
        }
        out
    }

    /// The tables of `[[name]]`, each with its position; keys not in `keys` are reported.
    fn array_tables<'t, 'i>(
        &self,
        ctx: &mut Context,
        doc: &'t DeTable<'i>,
        name: &str,
        keys: &[&str],
    ) -> Vec<(Pos, &'t DeTable<'i>)> {
        let Some(v) = doc.get(name) else {
            return Vec::new();
        };
        let what = format!("[[{name}]]");
        let tables = self.tables(ctx, v, name);
        for (_, t) in &tables {
            self.known_keys(ctx, t, keys, &what);
        }
        tables
    }

    /// The cross-field rules: `[[unique]]`, `[[not_contains]]`, `[[digest]]`,
    /// `[machines.*]`, `[[not_equal]]`, `[[order]]`, `[[contradiction]]`.
    fn rules(&self, ctx: &mut Context, doc: &DeTable<'_>, out: &mut Sidecar) {
        let w = self;
        let keys = ["path", "key", "ignore_case", "trim", "code"];
        for (pos, t) in w.array_tables(ctx, doc, "unique", &keys) {
            let what = "[[unique]]";
            let flag =
                |ctx: &mut Context, key| w.boolean(ctx, t, key, what).is_some_and(|b| b.value);
            let (key, key_at) = match t.get("key") {
                Some(v) if matches!(v.get_ref(), DeValue::Array(_)) => (
                    w.string_list(ctx, v, "key", what),
                    Some((w.pos(v.span().start), true)),
                ),
                Some(v) => (
                    w.string(ctx, t, "key", what).into_iter().collect(),
                    Some((w.pos(v.span().start), false)),
                ),
                None => (Vec::new(), None),
            };
            out.unique.push(SideUnique {
                pos,
                path: w.string(ctx, t, "path", what),
                key,
                key_at,
                ignore_case: flag(ctx, "ignore_case"),
                trim: flag(ctx, "trim"),
                code: w.string(ctx, t, "code", what),
            });
        }
        let keys = ["path", "list", "value", "code"];
        for (pos, t) in w.array_tables(ctx, doc, "not_contains", &keys) {
            let s = |ctx: &mut Context, key| w.string(ctx, t, key, "[[not_contains]]");
            out.not_contains.push(SideNotContains {
                pos,
                path: s(ctx, "path"),
                list: s(ctx, "list"),
                value: s(ctx, "value"),
                code: s(ctx, "code"),
            });
        }
        let keys = [
            "path", "sha256", "data", "encoding", "length", "label", "code",
        ];
        for (pos, t) in w.array_tables(ctx, doc, "digest", &keys) {
            let s = |ctx: &mut Context, key| w.string(ctx, t, key, "[[digest]]");
            out.digest.push(SideDigest {
                pos,
                path: s(ctx, "path"),
                sha256: s(ctx, "sha256"),
                data: s(ctx, "data"),
                encoding: s(ctx, "encoding"),
                length: s(ctx, "length"),
                label: s(ctx, "label"),
                code: s(ctx, "code"),
            });
        }
        let kinds: [(&'static str, &[&str]); 4] = [
            ("required_if", &["path", "field", "if", "unless", "code"]),
            ("any_of", &["path", "fields", "if", "unless", "code"]),
            ("one_of", &["path", "fields", "if", "unless", "code"]),
            (
                "value_if",
                &["path", "field", "must", "if", "unless", "code"],
            ),
        ];
        for (kind, keys) in kinds {
            let what = format!("[[{kind}]]");
            for (pos, t) in w.array_tables(ctx, doc, kind, keys) {
                let s = |ctx: &mut Context, key| w.string(ctx, t, key, &what);
                let condition = match (s(ctx, "if"), s(ctx, "unless")) {
                    (Some(c), None) => Some((c, false)),
                    (None, Some(c)) => Some((c, true)),
                    (None, None) => None,
                    (Some(c), Some(_)) => {
                        ctx.toml(
                            c.pos,
                            format!("{what} has both `if` and `unless`"),
                            "keep one: `unless = \"C\"` is `if` with C negated",
                        );
                        None
                    }
                };
                out.guarded.push(SideGuarded {
                    kind,
                    pos,
                    path: s(ctx, "path"),
                    field: s(ctx, "field"),
                    fields: t
                        .get("fields")
                        .map(|v| w.string_list(ctx, v, "fields", &what))
                        .unwrap_or_default(),
                    condition,
                    must: s(ctx, "must"),
                    code: s(ctx, "code"),
                });
            }
        }
        for (key, what, m) in w.keyed(ctx, doc, "machines") {
            w.known_keys(ctx, m, &["on"], &what);
            out.machines.push((key, w.string(ctx, m, "on", &what)));
        }
        let keys = ["path", "a", "b", "code"];
        for (pos, t) in w.array_tables(ctx, doc, "not_equal", &keys) {
            let s = |ctx: &mut Context, key| w.string(ctx, t, key, "[[not_equal]]");
            out.not_equal.push(SideNotEqual {
                pos,
                path: s(ctx, "path"),
                a: s(ctx, "a"),
                b: s(ctx, "b"),
                code: s(ctx, "code"),
            });
        }
        let keys = ["path", "a", "b", "strict", "code"];
        for (pos, t) in w.array_tables(ctx, doc, "order", &keys) {
            let s = |ctx: &mut Context, key| w.string(ctx, t, key, "[[order]]");
            out.order.push(SideOrder {
                pos,
                path: s(ctx, "path"),
                a: s(ctx, "a"),
                b: s(ctx, "b"),
                strict: w.boolean(ctx, t, "strict", "[[order]]"),
                code: s(ctx, "code"),
            });
        }
        let keys = ["path", "by", "value", "code", "pairs"];
        for (pos, t) in w.array_tables(ctx, doc, "contradiction", &keys) {
            let pairs = t
                .get("pairs")
                .map(|pv| w.pairs(ctx, pv))
                .unwrap_or_default();
            let s = |ctx: &mut Context, key| w.string(ctx, t, key, "[[contradiction]]");
            out.contradiction.push(SideContradiction {
                pos,
                path: s(ctx, "path"),
                by: s(ctx, "by"),
                value: s(ctx, "value"),
                code: s(ctx, "code"),
                pairs,
            });
        }
    }

    /// The `pairs` of a `[[contradiction]]`.
    fn pairs(&self, ctx: &mut Context, pv: &toml::Spanned<DeValue<'_>>) -> Vec<SidePair> {
        let DeValue::Array(items) = pv.get_ref() else {
            ctx.toml(
                self.pos(pv.span().start),
                format!(
                    "`pairs` must be an array, found {}",
                    pv.get_ref().type_str()
                ),
                "write `pairs = [{ a = \"..\", b = \"..\" }]`",
            );
            return Vec::new();
        };
        let what = "a pair of [[contradiction]]";
        let mut pairs = Vec::new();
        for item in items.iter() {
            if let Some(p) = self.table(ctx, item, what) {
                self.known_keys(ctx, p, &["a", "b", "ignore_case"], what);
                pairs.push(SidePair {
                    pos: self.pos(item.span().start),
                    a: self.string(ctx, p, "a", what),
                    b: self.string(ctx, p, "b", what),
                    ignore_case: self
                        .boolean(ctx, p, "ignore_case", what)
                        .is_some_and(|b| b.value),
                });
            }
        }
        pairs
    }
}

#[cfg(test)]
mod rule_tables {
    #[test]
    fn every_rule_table_is_a_top_level_key() {
        for t in super::RULE_TABLES {
            assert!(super::TOP_KEYS.contains(t), "{t}");
        }
    }
}
