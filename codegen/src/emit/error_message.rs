//! The JSON Schema with `errorMessage` in a locale, as the ajv-errors plugin of ajv reads it
//! (`specmint schema --locale TAG`): each standard keyword that stands for a rule carries the
//! rule's code's template of that locale, rendered as far as a static schema can (see
//! docs/spec-format.md, "Messages in a JSON Schema"). The schema is otherwise the one
//! [`emit_schema`](super::emit_schema) writes, but for `additionalProperties: false`, written
//! `{"not": true, "errorMessage": …}` (the same verdict) so that the message can name the key.

use serde_json::{json, Map, Value};
use specmint_runtime::messages::{choose_tag, Catalog};
use specmint_runtime::Violation;

use super::schema::{emit_value, RELATIVE_PATH};
use crate::model::*;

/// ajv-errors' interpolation of the current value's key (a member's name, JSON-quoted, or an
/// item's index); ajv cannot read it at the top of a `$defs` entry it compiles on its own.
/// Written as a mark while the messages are built and as `${0#}` at the end ([`finish`]),
/// so that no `${` a spec's text holds is taken for one.
const KEY: &str = "\u{2}";

/// ajv-errors' interpolation of the current value itself (a forbidden key's text), a mark
/// until [`finish`] as [`KEY`] is.
const VALUE: &str = "\u{3}";

/// `{path}` of a message at the top of a `$defs` entry: replaced by the path of each place the
/// entry is used, once it is inlined there ([`inline`]), and in the entry itself by the
/// table's name.
const HERE: &str = "\u{1}";

/// Where a `$ref` sits, kept on it until [`inline`] reads it.
const PATH_KEY: &str = "x-specmint-path";

/// The schema of `spec` with `errorMessage` in the locale serving a reader who asks for
/// `wanted` (a BCP 47 tag); `None` when the spec has no messages for it.
pub fn emit_schema_in(spec: &Spec, options: &super::Options, wanted: &str) -> Option<String> {
    let tag = choose_tag(spec.messages.iter().map(|m| m.tag.as_str()), wanted)?;
    let m = spec.messages.iter().find(|m| m.tag == tag)?;
    let catalog = Catalog::new(
        &m.tag,
        m.templates.iter().map(|(c, t)| (c.as_str(), t.as_str())),
    )
    .ok()?;
    let mut schema = emit_value(spec, &super::generated_note(spec, options));
    let ctx = Ctx {
        spec,
        catalog: &catalog,
    };
    let defs = schema["$defs"].as_object_mut().expect("$defs");
    for t in &spec.types {
        let Some(def) = defs.get_mut(t.name()).and_then(Value::as_object_mut) else {
            continue;
        };
        match t {
            TypeDef::Object(o) => ctx.object(o, def, o.name == spec.root),
            TypeDef::Enum(e) => {
                let values = quoted(e.values.iter().map(|v| v.value.as_str()));
                let mut em = Map::new();
                ctx.put(
                    &mut em,
                    "enum",
                    &ctx.parse("enum"),
                    Detail::at(HERE).expected(values),
                );
                ctx.put(&mut em, "type", &ctx.parse("type"), Detail::at(HERE));
                insert(def, em);
            }
            TypeDef::Union(u) => {
                if let Some(Value::Array(variants)) = def.get_mut("oneOf") {
                    for (v, branch) in u.variants.iter().zip(variants.iter_mut()) {
                        if let Some(b) = branch.as_object_mut() {
                            ctx.members(&v.members, b);
                        }
                    }
                }
                let mut em = Map::new();
                ctx.put(&mut em, "_", &ctx.spec.errors.parse, Detail::at(HERE));
                insert(def, em);
            }
        }
    }
    // Each table's schema written where it is used, so that its messages can say where
    // (ajv compiles a `$defs` entry on its own, where `${0#}` has no key to read); a table
    // that holds itself stays a `$ref` there.
    let defs = schema["$defs"].as_object().cloned().unwrap_or_default();
    for (name, def) in schema["$defs"].as_object_mut().expect("$defs").iter_mut() {
        let mut stack = vec![name.clone()];
        for v in def.as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
            inline(v, &defs, &mut stack);
        }
        // Reached only through a `$ref` that stays one: the table named.
        here(def, name);
    }
    // What no keyword above names (a condition's `then`, a `oneOf` of chosen members): the
    // parse code's message at the document, as the last resort.
    let mut em = Map::new();
    ctx.put(&mut em, "_", &spec.errors.parse, Detail::at(""));
    insert(schema.as_object_mut().expect("object"), em);
    finish(&mut schema);
    Some(specmint_runtime::json_text::pretty_file(&schema))
}

/// The messages under every `errorMessage` of `schema` as ajv-errors is to read them: each `${`
/// they hold as text (a value, a key or a template of the spec) written `$` WORD JOINER `{`,
/// which reads the same, and the marks [`KEY`] and [`VALUE`] written as the interpolations
/// they stand for. ajv-errors reads every `${…}` in a message as an interpolation of the
/// document and has no escape for a literal one: an enum value `${title}` made ajv refuse to
/// compile the schema (`Invalid JSON-pointer: title`), and `${/body}` would have printed the
/// document's `body` in its place.
///
/// `walk` reads a schema (its keys keywords), a map of names to schemas (`names`: under
/// `properties` or `$defs`, where a member or a table may be named `errorMessage`), or, with
/// `message`, what an `errorMessage` holds.
fn finish(schema: &mut Value) {
    fn walk(v: &mut Value, message: bool, names: bool) {
        match v {
            Value::String(text) if message => {
                *text = text
                    .replace("${", "$\u{2060}{")
                    .replace(KEY, "${0#}")
                    .replace(VALUE, "${0}");
            }
            Value::Object(m) => {
                for (k, inner) in m.iter_mut() {
                    let keyword = !names && !message;
                    walk(
                        inner,
                        message || (keyword && k == "errorMessage"),
                        keyword && matches!(k.as_str(), "properties" | "$defs"),
                    );
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, message, false)),
            _ => {}
        }
    }
    walk(schema, false, false);
}

struct Ctx<'a> {
    spec: &'a Spec,
    catalog: &'a Catalog,
}

/// What a static schema knows of a violation: where (as far as it can say), the limit, the
/// expected values.
struct Detail {
    path: String,
    limit: Option<u64>,
    expected: String,
}

impl Detail {
    fn at(path: &str) -> Detail {
        Detail {
            path: path.to_owned(),
            limit: None,
            expected: String::new(),
        }
    }

    fn limit(mut self, limit: u64) -> Detail {
        self.limit = Some(limit);
        self
    }

    fn expected(mut self, expected: String) -> Detail {
        self.expected = expected;
        self
    }
}

impl Ctx<'_> {
    /// The parse code with a problem kind (`bad_doc type`).
    fn parse(&self, kind: &str) -> String {
        format!("{} {kind}", self.spec.errors.parse)
    }

    /// The template of `key` (a code, or a code and a kind) filled with what the schema knows:
    /// `{measured}`, `{other}` and `{message}` (there is no English message yet) empty, so a
    /// template's `select` on them takes its `empty` arm.
    fn render(&self, key: &str, d: Detail) -> Option<String> {
        let code = key.split(' ').next().unwrap_or(key);
        let pointer = if d.path.is_empty() {
            String::new()
        } else {
            format!("/{}", d.path.replace(['.', '['], "/").replace(']', ""))
        };
        let mut v = Violation::from_parts(code.to_owned(), d.path, pointer, String::new())
            .with_expected(d.expected);
        v.limit = d.limit;
        self.catalog.render(key, &v)
    }

    fn put(&self, em: &mut Map<String, Value>, keyword: &str, key: &str, d: Detail) {
        if let Some(text) = self.render(key, d) {
            em.insert(keyword.to_owned(), json!(text));
        }
    }

    fn object(&self, o: &Object, def: &mut Map<String, Value>, root: bool) {
        let mut em = Map::new();
        let mut required = Map::new();
        for f in o.fields.iter().filter(|f| f.required) {
            let key = match &f.rules.required {
                Some(code) => code.clone(),
                None => self.parse("missing"),
            };
            if let Some(text) = self.render(&key, Detail::at(&f.key)) {
                required.insert(f.key.clone(), json!(text));
            }
        }
        if !required.is_empty() {
            em.insert("required".into(), Value::Object(required));
        }
        let at = if root { "" } else { HERE };
        self.put(&mut em, "type", &self.parse("type"), Detail::at(at));
        if def.get("additionalProperties") == Some(&json!(false)) {
            let keys = quoted(o.fields.iter().map(|f| f.key.as_str()));
            if let Some(text) =
                self.render(&self.parse("unknown_key"), Detail::at(KEY).expected(keys))
            {
                def.insert(
                    "additionalProperties".into(),
                    json!({"not": true, "errorMessage": text}),
                );
            }
        }
        if let Some(Value::Object(names)) = def.get_mut("propertyNames") {
            let mut inner = Map::new();
            self.put(
                &mut inner,
                "not",
                &self.spec.errors.forbidden_key,
                Detail::at(VALUE),
            );
            insert(names, inner);
        }
        insert(def, em);
        self.members(&o.fields, def);
        // The members an enum member chooses: each case's table, at the member's key.
        if let Some(Value::Array(cases)) = def.get_mut("oneOf") {
            for case in cases.iter_mut() {
                if let Some(Value::Object(props)) = case.get_mut("properties") {
                    for (key, member) in props.iter_mut() {
                        if let Some(m) = member.as_object_mut().filter(|m| m.contains_key("$ref")) {
                            m.insert(PATH_KEY.into(), json!(key));
                        }
                    }
                }
            }
        }
    }

    /// The `errorMessage` of each member's schema under `properties`.
    fn members(&self, fields: &[Field], def: &mut Map<String, Value>) {
        let Some(Value::Object(props)) = def.get_mut("properties") else {
            return;
        };
        for f in fields {
            if let Some(Value::Object(p)) = props.get_mut(&f.key) {
                self.field(f, p, &f.key);
            }
        }
    }

    fn field(&self, f: &Field, p: &mut Map<String, Value>, path: &str) {
        // A nullable value without a `type` of its own is `anyOf: [value, null]`.
        let wrapped = !p.contains_key("type") && p.contains_key("anyOf");
        let target = if wrapped {
            match p
                .get_mut("anyOf")
                .and_then(Value::as_array_mut)
                .and_then(|b| b.first_mut())
                .and_then(Value::as_object_mut)
            {
                Some(b) => b,
                None => return,
            }
        } else {
            p
        };
        let r = &f.rules;
        if f.ty.array {
            let mut em = Map::new();
            if let Some(c) = &r.max_items {
                self.put(
                    &mut em,
                    "maxItems",
                    &c.code,
                    Detail::at(path).limit(c.value),
                );
            }
            match (&r.min_items, &r.required) {
                (Some(c), _) => self.put(
                    &mut em,
                    "minItems",
                    &c.code,
                    Detail::at(path).limit(c.value),
                ),
                (None, Some(code)) => self.put(&mut em, "minItems", code, Detail::at(path)),
                (None, None) => {}
            }
            if let Some(u) = &r.unique {
                self.put(&mut em, "uniqueItems", &u.code, Detail::at(path));
            }
            self.put(&mut em, "type", &self.parse("type"), Detail::at(path));
            let item_path = format!("{path}[{KEY}]");
            if let Some(Value::Object(items)) = target.get_mut("items") {
                self.element(f, items, &item_path);
            }
            insert(target, em);
        } else {
            self.element(f, target, path);
        }
    }

    /// The keywords of one value (a field's, or a list's item).
    fn element(&self, f: &Field, s: &mut Map<String, Value>, path: &str) {
        let (r, ty) = (&f.rules, &f.ty);
        let mut em = Map::new();
        if s.contains_key("$ref") {
            s.insert(PATH_KEY.into(), json!(path));
        }
        if let (Some(code), Some(Value::String(reference))) = (&r.enum_code, s.get("$ref")) {
            // A value outside the enum has a code of its own: the enum stated here, not by the
            // `$ref` (whose message is the parse code's), with the same values.
            let name = reference.trim_start_matches("#/$defs/");
            let values: Vec<String> = self
                .spec
                .types
                .iter()
                .find_map(|t| match t {
                    TypeDef::Enum(e) if e.name == name => {
                        Some(e.values.iter().map(|v| v.value.clone()).collect())
                    }
                    _ => None,
                })
                .unwrap_or_default();
            if !values.is_empty() {
                s.remove("$ref");
                s.remove(PATH_KEY);
                s.insert("type".into(), json!("string"));
                let shown = quoted(values.iter().map(String::as_str));
                s.insert("enum".into(), json!(values));
                self.put(&mut em, "enum", code, Detail::at(path).expected(shown));
            }
        }
        // Text: blank, caps, the literal, the format, the patterns.
        // A requirement makes the field's own text non-blank, not a list's items.
        let blank = if ty.array {
            r.non_blank.as_ref()
        } else {
            r.required.as_ref().or(r.non_blank.as_ref())
        };
        if let Some(c) = &r.min_chars {
            self.put(
                &mut em,
                "minLength",
                &c.code,
                Detail::at(path).limit(c.value),
            );
        } else if let Some(code) = blank {
            self.put(&mut em, "minLength", code, Detail::at(path));
        }
        if let Some(c) = &r.max_chars {
            self.put(
                &mut em,
                "maxLength",
                &c.code,
                Detail::at(path).limit(c.value),
            );
        }
        let pattern_rule = |p: &str| -> Option<(String, String)> {
            if Some(p) == ty.pattern.as_deref() {
                Some((r.pattern.clone()?, quoted([p])))
            } else if p == RELATIVE_PATH {
                Some((r.relative_path.clone()?, String::new()))
            } else {
                Some((blank?.clone(), String::new()))
            }
        };
        if let Some(Value::String(p)) = s.get("pattern") {
            if let Some((code, expected)) = pattern_rule(p) {
                self.put(
                    &mut em,
                    "pattern",
                    &code,
                    Detail::at(path).expected(expected),
                );
            }
        }
        if let Some(Value::Array(more)) = s.get_mut("allOf") {
            for m in more.iter_mut().filter_map(Value::as_object_mut) {
                let mut inner = Map::new();
                if let Some(Value::String(p)) = m.get("pattern") {
                    if let Some((code, expected)) = pattern_rule(p) {
                        self.put(
                            &mut inner,
                            "pattern",
                            &code,
                            Detail::at(path).expected(expected),
                        );
                    }
                } else if m.contains_key("not") {
                    // No final line feed after the pattern's `$`: the pattern's rule.
                    if let (Some(code), Some(p)) = (&r.pattern, &ty.pattern) {
                        self.put(
                            &mut inner,
                            "not",
                            code,
                            Detail::at(path).expected(quoted([p.as_str()])),
                        );
                    }
                }
                insert(m, inner);
            }
        }
        if let (Some(code), Some(lit)) = (&r.equals, &ty.literal) {
            self.put(
                &mut em,
                "const",
                code,
                Detail::at(path).expected(quoted([lit.as_str()])),
            );
        }
        if let (Some(code), Some(format)) = (&r.format, &ty.format) {
            self.put(
                &mut em,
                "format",
                code,
                Detail::at(path).expected(format.name().to_owned()),
            );
        }
        // Numbers: the range's code, else the type's width (the parse code's `value`).
        let range_code = r.range.clone().unwrap_or_else(|| self.parse("value"));
        for keyword in ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] {
            if let Some(bound) = s.get(keyword) {
                let text = bound.to_string();
                let mut d = Detail::at(path).expected(text);
                if let Some(n) = bound.as_u64() {
                    d = d.limit(n);
                }
                self.put(&mut em, keyword, &range_code, d);
            }
        }
        if s.contains_key("type") {
            self.put(&mut em, "type", &self.parse("type"), Detail::at(path));
        }
        insert(s, em);
    }
}

/// Adds `errorMessage` to a schema object (nothing when empty).
fn insert(s: &mut Map<String, Value>, em: Map<String, Value>) {
    if !em.is_empty() {
        s.insert("errorMessage".into(), Value::Object(em));
    }
}

/// `` `a`, `b`, `c` ``, as `{expected}` quotes values.
fn quoted<'s>(values: impl IntoIterator<Item = &'s str>) -> String {
    values
        .into_iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes the `$defs` entry of each `$ref` under `v` in its place (its messages' `{path}` the
/// place's, [`PATH_KEY`]), but for an entry already being written (`stack`: a table that
/// holds itself), which stays a `$ref`.
fn inline(v: &mut Value, defs: &Map<String, Value>, stack: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let path = m.remove(PATH_KEY);
            let target = m
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .map(str::to_owned);
            if let Some(name) = target.filter(|n| !stack.contains(n)) {
                if let Some(Value::Object(def)) = defs.get(&name) {
                    let mut body = Value::Object(def.clone());
                    stack.push(name);
                    for inner in body
                        .as_object_mut()
                        .into_iter()
                        .flat_map(|b| b.values_mut())
                    {
                        inline(inner, defs, stack);
                    }
                    stack.pop();
                    let at = path.as_ref().and_then(Value::as_str).unwrap_or("");
                    here(&mut body, at);
                    m.remove("$ref");
                    for (k, val) in body.as_object_mut().expect("object") {
                        if !m.contains_key(k) {
                            m.insert(k.clone(), std::mem::take(val));
                        }
                    }
                    return;
                }
            }
            for inner in m.values_mut() {
                inline(inner, defs, stack);
            }
        }
        Value::Array(items) => {
            for inner in items {
                inline(inner, defs, stack);
            }
        }
        _ => {}
    }
}

/// Replaces [`HERE`] in the messages at the top of `def` by `path`, and drops the places
/// left on a `$ref` that stays one.
fn here(def: &mut Value, path: &str) {
    let Some(m) = def.as_object_mut() else { return };
    if let Some(Value::Object(em)) = m.get_mut("errorMessage") {
        for text in em.values_mut() {
            if let Value::String(t) = text {
                *t = t.replace(HERE, path);
            }
        }
    }
    fn drop_places(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove(PATH_KEY);
                m.values_mut().for_each(drop_places);
            }
            Value::Array(a) => a.iter_mut().for_each(drop_places),
            _ => {}
        }
    }
    drop_places(def);
}
