//! Emit JSON Schema 2020-12, with `x-` keywords for what a schema cannot say.

use serde_json::{json, Map, Value};

use crate::model::*;

/// Unicode White_Space, exactly what Rust's `str::trim` removes, as a regex class body
/// (ECMA-262 `\s` differs at U+0085 and U+FEFF, so it is spelled out).
const WS: &str = "\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/// Renders one spec as a pretty JSON Schema with sorted keys and a trailing LF.
pub(crate) fn emit(spec: &Spec, note: &str) -> String {
    specmint_runtime::json_text::pretty_file(&emit_value(spec, note))
}

/// The schema [`emit`] renders, as a value (for `error_message`, which adds to it).
pub(crate) fn emit_value(spec: &Spec, note: &str) -> Value {
    let mut defs = Map::new();
    for t in &spec.types {
        let v = match t {
            TypeDef::Object(o) => object(spec, o),
            TypeDef::Enum(e) => json!({
                "type": "string",
                "enum": e.values.iter().map(|v| v.value.clone()).collect::<Vec<_>>(),
                "description": e.doc,
            }),
            TypeDef::Union(u) => union(u),
        };
        defs.insert(t.name().to_owned(), v);
    }
    if spec.has_free_members() {
        let any = match free_value(spec) {
            // One branch per JSON type, so code generators see a union, not a bare schema.
            Some(free) => json!({
                "description": "Any JSON value, kept verbatim; no forbidden key anywhere in it.",
                "anyOf": [
                    {"type": ["null", "boolean", "number", "string"]},
                    {"type": "array", "items": free},
                    {
                        "type": "object",
                        "propertyNames": {"not": {"enum": spec.forbidden_keys}},
                        "additionalProperties": free,
                    },
                ],
            }),
            None => json!({"description": "Any JSON value, kept verbatim."}),
        };
        defs.insert(ANY.to_owned(), any);
    }
    for m in &spec.machines {
        let transitions: Vec<Value> = m
            .transitions
            .iter()
            .map(|t| {
                let mut e = Map::new();
                e.insert("from".into(), json!(m.states[t.from].value));
                e.insert("to".into(), json!(m.states[t.to].value));
                if let Some(on) = &t.on {
                    e.insert("on".into(), json!(on));
                }
                Value::Object(e)
            })
            .collect();
        let mut v = Map::new();
        v.insert("type".into(), json!("string"));
        v.insert(
            "enum".into(),
            json!(m.states.iter().map(|s| s.value.clone()).collect::<Vec<_>>()),
        );
        v.insert("description".into(), json!(m.doc));
        v.insert(
            "x-terminal".into(),
            json!(m
                .states
                .iter()
                .filter(|s| s.terminal)
                .map(|s| s.value.clone())
                .collect::<Vec<_>>()),
        );
        v.insert("x-transitions".into(), json!(transitions));
        if let Some(on) = &m.on {
            v.insert("x-on".into(), json!(on));
        }
        defs.insert(m.name.clone(), Value::Object(v));
    }
    let mut top = Map::new();
    top.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    top.insert(
        "$id".into(),
        json!(format!("urn:specmint:schema:{}", spec.name)),
    );
    top.insert("title".into(), json!(spec.title));
    top.insert("$comment".into(), json!(note));
    top.insert("$ref".into(), json!(format!("#/$defs/{}", spec.root)));
    top.insert("$defs".into(), Value::Object(defs));
    top.insert("x-document".into(), json!(spec.document_name));
    if spec.extract == Extract::OutermostObject {
        top.insert("x-extract".into(), json!("outermost-object"));
    }
    top.insert("x-forbidden-keys".into(), json!(spec.forbidden_keys));
    let mut rules = Map::new();
    for (k, v) in &spec.errors.rule_codes {
        rules.insert(k.clone(), json!(v));
    }
    let codes: Map<String, Value> = spec
        .errors
        .codes
        .iter()
        .map(|c| (c.code.clone(), json!(c.doc)))
        .collect();
    let mut error_codes = json!({
        "codes": codes,
        "rules": rules,
        "forbidden_key": spec.errors.forbidden_key,
        "parse": spec.errors.parse,
    });
    if !spec.errors.engine.is_empty() {
        error_codes["engine"] = json!(spec.errors.engine);
    }
    top.insert("x-error-codes".into(), error_codes);
    if !spec.messages.is_empty() {
        // The messages in other languages: tag → code → template (docs/spec-format.md,
        // "Messages in other languages"), for a consumer that writes its own refusals.
        let messages: Map<String, Value> = spec
            .messages
            .iter()
            .map(|m| {
                let rows: Map<String, Value> = m
                    .templates
                    .iter()
                    .map(|(code, text)| (code.clone(), json!(text)))
                    .collect();
                (m.tag.clone(), Value::Object(rows))
            })
            .collect();
        top.insert("x-messages".into(), Value::Object(messages));
    }
    top.insert(
        "x-schema-expressible-codes".into(),
        json!(spec.expressible_codes()),
    );
    Value::Object(top)
}

/// The `$defs` entry of `any` (a table cannot be named so: `any` is a type).
pub(crate) const ANY: &str = "any";

/// What an unlisted member or an `any` value may hold: anything but a forbidden key, at any
/// depth (`None`: anything at all).
fn free_value(spec: &Spec) -> Option<Value> {
    (!spec.forbidden_keys.is_empty()).then(|| json!({"$ref": format!("#/$defs/{ANY}")}))
}

fn base(b: &Base) -> Value {
    match b {
        Base::String => json!({"type": "string"}),
        Base::Bool => json!({"type": "boolean"}),
        Base::U32 => json!({"type": "integer", "minimum": 0, "maximum": u32::MAX}),
        Base::U64 => json!({"type": "integer", "minimum": 0, "maximum": u64::MAX}),
        Base::I32 => json!({"type": "integer", "minimum": i32::MIN, "maximum": i32::MAX}),
        Base::I64 => json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}),
        Base::Number => json!({"type": "number"}),
        Base::Decimal { scale, precision } => {
            let mut x = json!({"scale": scale});
            if let Some(p) = precision {
                x["precision"] = json!(p);
            }
            json!({"type": "number", "x-decimal": x})
        }
        Base::Any => json!({"$ref": format!("#/$defs/{ANY}")}),
        Base::Object(n) | Base::Enum(n) | Base::Union(n) => json!({"$ref": format!("#/$defs/{n}")}),
        Base::Selected(by) => json!({"type": "object", "x-chosen-by": by}),
    }
}

/// A relative path that cannot leave its base, exactly as the runtime's `relative_path`:
/// not empty, no leading `/` or `\`, no drive letter and `:`, no `..` segment (segments split
/// on `/` and `\`).
pub(crate) const RELATIVE_PATH: &str =
    r"^(?![/\\])(?![A-Za-z]:)(?!(?:[\s\S]*[/\\])?\.\.(?:[/\\]|$))[\s\S]+$";

/// Adds the string rules of a field to a string schema.
fn string_rules(s: &mut Map<String, Value>, r: &FieldRules, ty: &TypeRef) {
    let mut patterns = Vec::new();
    if ty.non_blank || (r.required.is_some() && !ty.array) {
        s.insert("minLength".into(), json!(1));
        patterns.push(format!("[^{WS}]"));
        s.insert("x-non-blank".into(), json!(true));
    }
    if let Some(c) = &r.max_chars {
        s.insert("maxLength".into(), json!(c.value));
    }
    if let Some(c) = &r.min_chars {
        // At least 1 already when the text is non-blank.
        let floor = s.get("minLength").and_then(Value::as_u64).unwrap_or(0);
        s.insert("minLength".into(), json!(c.value.max(floor)));
    }
    if let Some(lit) = &ty.literal {
        s.insert("const".into(), json!(lit));
    }
    if let Some(f) = &ty.format {
        s.insert("format".into(), json!(f.name()));
    }
    if let Some(p) = &ty.pattern {
        patterns.push(p.clone());
    }
    // `$` is the end of the text: Python's also matches before a final line feed.
    let no_final_lf = ty
        .pattern
        .as_deref()
        .is_some_and(crate::model::pattern::end_anchored);
    if ty.relative_path {
        patterns.push(RELATIVE_PATH.to_owned());
        s.insert("x-relative-path".into(), json!(true));
    }
    let mut rest = patterns.into_iter();
    if let Some(first) = rest.next() {
        s.insert("pattern".into(), json!(first));
    }
    let mut more: Vec<Value> = rest.map(|p| json!({ "pattern": p })).collect();
    if no_final_lf {
        // `pattern` holds for any non-string, so `not` alone would refuse a `null`.
        let no_lf = if ty.nullable && !ty.array {
            json!({ "not": { "type": "string", "pattern": crate::model::pattern::NO_FINAL_LF } })
        } else {
            json!({ "not": { "pattern": crate::model::pattern::NO_FINAL_LF } })
        };
        more.push(no_lf);
    }
    if !more.is_empty() {
        s.insert("allOf".into(), json!(more));
    }
}

/// An integer within some spec type's width as JSON (every such integer fits `i64` or
/// `u64`).
pub(crate) fn integer_json(n: i128) -> Value {
    match (i64::try_from(n), u64::try_from(n)) {
        (Ok(i), _) => json!(i),
        (_, Ok(u)) => json!(u),
        _ => unreachable!("within a spec type's width"),
    }
}

/// A decimal bound as JSON: an integral one as an integer (`-90`, as the spec writes it),
/// others as the shortest decimal that reads back exactly (`359.5`).
pub(crate) fn number_json(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// Makes a schema also accept `null`.
fn nullable(mut v: Value) -> Value {
    if let Some(Value::String(t)) = v.get("type").cloned() {
        v["type"] = json!([t, "null"]);
        v
    } else {
        json!({"anyOf": [v, {"type": "null"}]})
    }
}

fn field_schema(f: &Field) -> Value {
    let r = &f.rules;
    let mut elem = base(&f.ty.base);
    if f.ty.base == Base::String {
        string_rules(elem.as_object_mut().expect("object"), r, &f.ty);
    }
    if let Some(code) = &r.enum_code {
        // The `$ref`'s `enum` refuses the value; the code a validator reports it with.
        elem["x-enum-code"] = json!(code);
    }
    if let Some(range) = &f.ty.range {
        // The bounds lie within the type's width (checked), so they replace its ends.
        for (key, bound) in [("minimum", range.min), ("maximum", range.max)] {
            if let Some(n) = bound {
                elem[key] = integer_json(n);
            }
        }
    }
    if let Some(range) = &f.ty.number_range {
        for (key, bound) in [("minimum", range.min), ("maximum", range.max)] {
            if let Some(n) = bound {
                elem[key] = number_json(n);
            }
        }
    }
    if let Some(range) = &f.ty.decimal_range {
        // The nearest doubles: JSON Schema's consumers read numbers as doubles, so a value
        // within a double of a bound is judged by the x- rule's exact reading only.
        for (inclusive, excluded, bound) in [
            ("minimum", "exclusiveMinimum", &range.min),
            ("maximum", "exclusiveMaximum", &range.max),
        ] {
            if let Some(b) = bound {
                let n: f64 = b.value.to_string().parse().expect("a decimal's text");
                elem[if b.excluded { excluded } else { inclusive }] = number_json(n);
            }
        }
    }
    let mut v = if f.ty.array {
        let mut a = Map::new();
        a.insert("type".into(), json!("array"));
        a.insert("items".into(), elem);
        if let Some(c) = &r.max_items {
            a.insert("maxItems".into(), json!(c.value));
        }
        if r.required.is_some() {
            a.insert("minItems".into(), json!(1));
        }
        if let Some(c) = &r.min_items {
            a.insert("minItems".into(), json!(c.value));
        }
        if let Some(u) = &r.unique {
            if !u.ignore_case && !u.trim {
                a.insert("uniqueItems".into(), json!(true));
            }
            a.insert(
                "x-unique".into(),
                json!({"ignore-case": u.ignore_case, "trim": u.trim, "code": u.code}),
            );
        }
        for g in &r.max_items_per_group {
            a.insert(
                "x-max-items-per-group".into(),
                json!({"by": g.by.key, "max": g.cap.value, "code": g.cap.code}),
            );
        }
        // One rule: an object; several: an array of them. A compound key is an array of
        // its members.
        let unique_by: Vec<Value> = r
            .unique_by
            .iter()
            .map(|u| {
                let key = if u.compound {
                    json!(u.keys.iter().map(|k| &k.key).collect::<Vec<_>>())
                } else {
                    json!(u.key.key)
                };
                json!({"key": key, "ignore-case": u.ignore_case, "trim": u.trim, "code": u.code})
            })
            .collect();
        match <[Value; 1]>::try_from(unique_by) {
            Ok([one]) => {
                a.insert("x-unique-by".into(), one);
            }
            Err(many) if !many.is_empty() => {
                a.insert("x-unique-by".into(), Value::Array(many));
            }
            Err(_) => {}
        }
        if !r.contradiction.is_empty() {
            let cs: Vec<Value> = r
                .contradiction
                .iter()
                .map(|c| {
                    json!({
                        "by": c.by.key,
                        "value": c.value.key,
                        "code": c.code,
                        "pairs": c.pairs.iter().map(|p| json!({"a": p.a.key, "b": p.b.key, "ignore-case": p.ignore_case})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            a.insert("x-contradictions".into(), json!(cs));
        }
        Value::Object(a)
    } else {
        elem
    };
    if f.ty.nullable {
        v = nullable(v);
    }
    // 2020-12 allows annotations next to `$ref`, so no allOf wrapper is needed.
    let mut wrapped = v;
    let m = wrapped.as_object_mut().expect("object");
    if !f.doc.is_empty() {
        m.insert("description".into(), json!(f.doc));
    }
    if !f.required {
        if let Some(d) = f.default_json() {
            m.insert("default".into(), d);
        }
    }
    wrapped
}

fn object(spec: &Spec, o: &Object) -> Value {
    let mut props = Map::new();
    let mut required = Vec::new();
    for f in &o.fields {
        props.insert(f.key.clone(), field_schema(f));
        if f.required {
            required.push(f.key.clone());
        }
    }
    required.sort();
    let mut m = Map::new();
    m.insert("type".into(), json!("object"));
    m.insert("properties".into(), Value::Object(props));
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    if o.open {
        // Unlisted members are kept, whatever they hold, except a forbidden key.
        if let Some(free) = free_value(spec) {
            m.insert("additionalProperties".into(), free);
            m.insert(
                "propertyNames".into(),
                json!({"not": {"enum": spec.forbidden_keys}}),
            );
        }
    } else {
        m.insert("additionalProperties".into(), json!(false));
    }
    let desc = if o.name == spec.root {
        format!("{}\n\n{}", spec.title, o.doc)
    } else {
        o.doc.clone()
    };
    m.insert("description".into(), json!(desc));
    let mut all_of = Vec::new();
    for f in &o.fields {
        if let Some(ri) = &f.rules.required_if {
            let then = given(f, &ri.code);
            let (cond, branch) = condition_schema(spec, &ri.condition);
            let mut rule = Map::new();
            rule.insert("if".into(), cond);
            rule.insert(branch.into(), then);
            all_of.push(Value::Object(rule));
        }
    }
    // A rules table's rows are no JSON Schema keyword: carried as `x-rules`, each with its
    // code and condition, as `x-kubernetes-validations` carries CEL rules.
    let mut x_rules = Vec::new();
    for g in &o.guarded {
        match &g.rule {
            GuardedRule::Expression { text, .. } => {
                let mut r = Map::new();
                r.insert("code".into(), json!(g.code));
                r.insert("rule".into(), json!(text));
                if let Some(c) = &g.condition {
                    r.insert("when".into(), json!(c.describe()));
                }
                x_rules.push(Value::Object(r));
            }
            _ => all_of.push(guarded_schema(spec, o, g)),
        }
    }
    if !all_of.is_empty() {
        m.insert("allOf".into(), json!(all_of));
    }
    if !x_rules.is_empty() {
        m.insert("x-rules".into(), json!(x_rules));
    }
    if let Some(sel) = &o.selector {
        let branches: Vec<Value> = sel
            .cases
            .iter()
            .map(|c| {
                let mut props = Map::new();
                props.insert(sel.by.key.clone(), json!({"const": c.value}));
                for (member, table) in sel.members.iter().zip(&c.tables) {
                    let synthesized = spec.types.iter().any(
                        |t| matches!(t, TypeDef::Object(x) if &x.name == table && x.synthesized),
                    );
                    let v = if synthesized {
                        json!({"type": "object", "additionalProperties": false})
                    } else {
                        json!({"$ref": format!("#/$defs/{table}")})
                    };
                    props.insert(member.clone(), v);
                }
                json!({"properties": props})
            })
            .collect();
        m.insert("oneOf".into(), json!(branches));
        m.insert(
            "x-chosen-by".into(),
            json!({"by": sel.by.key, "members": sel.members}),
        );
    }
    cross_field_rules(o, &mut m);
    Value::Object(m)
}

/// The object's rules over several fields and the whole document, as `x-` keywords (JSON
/// Schema has none for them).
fn cross_field_rules(o: &Object, m: &mut Map<String, Value>) {
    if !o.not_contains.is_empty() {
        m.insert(
            "x-not-contains".into(),
            json!(o
                .not_contains
                .iter()
                .map(|n| json!({"list": n.list.key, "value": n.value.key, "code": n.code}))
                .collect::<Vec<_>>()),
        );
    }
    if !o.digest.is_empty() {
        m.insert(
            "x-digest".into(),
            json!(o
                .digest
                .iter()
                .map(|d| json!({
                    "sha256": d.sha256.key,
                    "data": d.data.key,
                    "encoding": d.encoding.key,
                    "length": d.length.as_ref().map(|l| &l.key),
                    "label": d.label.as_ref().map(|l| &l.key),
                    "code": d.code,
                }))
                .collect::<Vec<_>>()),
        );
    }
    if !o.not_equal.is_empty() {
        m.insert(
            "x-not-equal".into(),
            json!(o
                .not_equal
                .iter()
                .map(|n| json!([n.a.key, n.b.key]))
                .collect::<Vec<_>>()),
        );
        m.insert(
            "x-not-equal-codes".into(),
            json!(o
                .not_equal
                .iter()
                .map(|n| json!(n.code))
                .collect::<Vec<_>>()),
        );
    }
    if !o.order.is_empty() {
        m.insert(
            "x-order".into(),
            json!(o
                .order
                .iter()
                .map(|n| json!({
                    "a": n.a.key,
                    "b": n.b.key,
                    "strict": n.strict,
                    "code": n.code,
                }))
                .collect::<Vec<_>>()),
        );
    }
    if let Some(c) = &o.max_json_bytes {
        m.insert(
            "x-max-bytes".into(),
            json!({"max": c.value, "measure": "compact-json", "code": c.code}),
        );
    }
}

/// `^[ws]*(?:[Mm][Aa]..|..)[ws]*$`: the bare tokens, ASCII-case-insensitive, trimmed.
fn token_pattern(tokens: &[&str]) -> String {
    let alts: Vec<String> = tokens
        .iter()
        .map(|t| {
            t.chars()
                .map(|c| {
                    if c.is_ascii_alphabetic() {
                        format!("[{}{}]", c.to_ascii_uppercase(), c.to_ascii_lowercase())
                    } else if c.is_ascii_alphanumeric() || c == '_' {
                        c.to_string()
                    } else {
                        format!("\\{c}")
                    }
                })
                .collect()
        })
        .collect();
    format!("^[{WS}]*(?:{})[{WS}]*$", alts.join("|"))
}

fn union(u: &Union) -> Value {
    let mut one_of = Vec::new();
    for v in &u.variants {
        let mut props = Map::new();
        props.insert(u.tag.clone(), json!({"const": v.tag_value}));
        let mut required = vec![u.tag.clone()];
        for m in &v.members {
            props.insert(m.key.clone(), field_schema(m));
            if m.required {
                required.push(m.key.clone());
            }
        }
        required.sort();
        one_of.push(json!({
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": false,
            "description": v.doc,
        }));
    }
    let mut m = Map::new();
    m.insert("description".into(), json!(u.doc));
    m.insert("x-tag".into(), json!(u.tag));
    if u.short_form {
        let tokens: Vec<&str> = u
            .variants
            .iter()
            .filter(|v| v.all_optional())
            .map(|v| v.tag_value.as_str())
            .collect();
        if !tokens.is_empty() {
            one_of.push(json!({
                "type": "string",
                "pattern": token_pattern(&tokens),
                "description": "Short form: the bare tag value, trimmed and ASCII-case-insensitive; written back as the tagged object.",
                "x-short-form": {"trim": "unicode-whitespace", "ascii-case-insensitive": true, "tokens": tokens},
            }));
        }
    }
    m.insert("oneOf".into(), json!(one_of));
    Value::Object(m)
}

/// The `if` schema of a condition, and the branch (`then`, or `else` for a negated one)
/// under which what it requires applies. An absent or `null` value on the path matches
/// nothing (`required` and `"type": "object"` on each step); `any` is `contains`; `every` is
/// at least one item reached (`contains`) and each item reached matching (`items`).
fn condition_schema(spec: &Spec, c: &Condition) -> (Value, &'static str) {
    let leaf = match c.when.as_slice() {
        [one] => json!({"const": one}),
        many => json!({"enum": many}),
    };
    let branch = if c.negated { "else" } else { "then" };
    let schema = match c.quantifier {
        Quantifier::One | Quantifier::Any => reach(spec, c, &c.steps, &leaf, false),
        Quantifier::Every => json!({"allOf": [
            reach(spec, c, &c.steps, &json!({}), false),
            reach(spec, c, &c.steps, &leaf, true),
        ]}),
    };
    (schema, branch)
}

/// A schema that holds when some value at `steps` matches `leaf`, or, with `every`, when
/// every value reached does (an object or list absent before the path's last list reaches
/// nothing; after it, an absent value does not match, unless the field's default is one of
/// `c`'s values: the reader fills it in).
fn reach(spec: &Spec, c: &Condition, steps: &[ConditionStep], leaf: &Value, every: bool) -> Value {
    let Some((step, rest)) = steps.split_first() else {
        return leaf.clone();
    };
    let inner = reach(spec, c, rest, leaf, every);
    let absent_matches = rest.is_empty()
        && !step.items
        && match spec.type_def(&step.table) {
            Some(TypeDef::Object(o)) => o
                .fields
                .iter()
                .find(|f| f.key == step.member.key)
                .and_then(Field::default_json)
                .is_some_and(|d| c.when.contains(&d)),
            _ => false,
        };
    let key = step.member.key.clone();
    let lists_ahead = steps.iter().any(|s| s.items);
    let value = match (step.items, every) {
        (true, false) => json!({"type": "array", "contains": inner}),
        (true, true) => json!({"items": inner}),
        (false, _) if rest.is_empty() => inner,
        (false, true) if lists_ahead => inner,
        (false, _) => {
            let mut o = inner.as_object().cloned().unwrap_or_default();
            o.insert("type".into(), json!("object"));
            Value::Object(o)
        }
    };
    let mut props = Map::new();
    props.insert(key.clone(), value);
    let mut m = Map::new();
    // Under `every`, a member before the last list may be absent (it reaches no item); a
    // field whose default matches may be absent too.
    if (every && lists_ahead) || absent_matches {
        m.insert("properties".into(), Value::Object(props));
    } else {
        let mut out = Map::new();
        out.insert("properties".into(), Value::Object(props));
        out.insert("required".into(), json!([key]));
        return Value::Object(out);
    }
    Value::Object(m)
}

/// The object has field `f`, given as `✔ `code`` requires one: present, not `null`, text not
/// blank (`minLength`, the non-White_Space `pattern`, `x-non-blank`), a list not empty, as
/// the runtime's `Filled` counts it.
fn given(f: &Field, code: &str) -> Value {
    let mut ty = field_schema(&Field {
        ty: TypeRef {
            nullable: false,
            ..f.ty.clone()
        },
        required: true,
        doc: String::new(),
        rules: FieldRules {
            required: Some(code.to_owned()),
            ..f.rules.clone()
        },
        ..f.clone()
    });
    if let Some(t) = ty.as_object_mut() {
        t.remove("description");
    }
    json!({"properties": {f.key.clone(): ty}, "required": [f.key]})
}

/// A [`Guarded`] rule of object `o`: what it requires, under `if` its condition.
fn guarded_schema(spec: &Spec, o: &Object, g: &Guarded) -> Value {
    let field = |m: &Member| o.fields.iter().find(|f| f.key == m.key);
    let given_member =
        |m: &Member| field(m).map_or_else(|| json!({"required": [m.key]}), |f| given(f, &g.code));
    let rule = match &g.rule {
        GuardedRule::Required { steps, .. } => {
            // Each member table on the way is present and an object, the last field given.
            let mut inner = json!({});
            for (i, step) in steps.iter().enumerate().rev() {
                let table = match spec.type_def(&step.table) {
                    Some(TypeDef::Object(t)) => t,
                    _ => continue,
                };
                let Some(f) = table.fields.iter().find(|f| f.key == step.member.key) else {
                    continue;
                };
                inner = if i + 1 == steps.len() {
                    given(f, &g.code)
                } else {
                    let mut value = inner.as_object().cloned().unwrap_or_default();
                    value.insert("type".into(), json!("object"));
                    json!({"properties": {f.key.clone(): value}, "required": [f.key]})
                };
            }
            inner
        }
        GuardedRule::AnyOf(ms) => json!({"anyOf": ms.iter().map(given_member).collect::<Vec<_>>()}),
        GuardedRule::OneOf(ms) => json!({"oneOf": ms.iter().map(given_member).collect::<Vec<_>>()}),
        GuardedRule::Compare { field, op, bound } => {
            let keyword = match op {
                CompareOp::Lt => "exclusiveMaximum",
                CompareOp::Le => "maximum",
                CompareOp::Eq => "const",
                CompareOp::Ge => "minimum",
                CompareOp::Gt => "exclusiveMinimum",
            };
            // `const` on a number holds for a number only: `null` (absent) passes.
            let check = if *op == CompareOp::Eq {
                json!({"if": {"type": "number"}, "then": {"const": bound}})
            } else {
                json!({keyword: bound})
            };
            json!({"properties": {field.key.clone(): check}})
        }
        GuardedRule::Absent(field) => json!({"properties": {field.key.clone(): {"type": "null"}}}),
        // Carried as `x-rules` by the object's schema, never here.
        GuardedRule::Expression { .. } => json!({}),
    };
    let Some(c) = &g.condition else {
        return rule;
    };
    let (cond, branch) = condition_schema(spec, c);
    let mut m = Map::new();
    m.insert("if".into(), cond);
    m.insert(branch.into(), rule);
    Value::Object(m)
}
