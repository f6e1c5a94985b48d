//! Emit JSON Schema 2020-12, with `x-` keywords for what a schema cannot say.

use serde_json::{json, Map, Value};

use crate::model::*;

/// Unicode White_Space, exactly what Rust's `str::trim` removes, as a regex class body
/// (ECMA-262 `\s` differs at U+0085 and U+FEFF, so it is spelled out).
const WS: &str = "\\t-\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

/// Renders one spec as a pretty JSON Schema with sorted keys and a trailing LF.
pub(crate) fn emit(spec: &Spec) -> String {
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
    top.insert("$ref".into(), json!(format!("#/$defs/{}", spec.root)));
    top.insert("$defs".into(), Value::Object(defs));
    top.insert("x-document".into(), json!(spec.document_name));
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
    top.insert(
        "x-error-codes".into(),
        json!({
            "codes": codes,
            "rules": rules,
            "forbidden_key": spec.errors.forbidden_key,
            "parse": spec.errors.parse,
        }),
    );
    top.insert(
        "x-schema-expressible-codes".into(),
        json!(expressible_codes(spec)),
    );
    // serde_json's Map is a BTreeMap here (no preserve_order), so keys come out sorted.
    let mut s = serde_json::to_string_pretty(&Value::Object(top)).expect("a Value serializes");
    s.push('\n');
    s
}

/// Rule kinds of the sidecar's `[errors]` that a JSON Schema cannot state.
const X_ONLY_RULE_KINDS: &[&str] = &["max_items_per_group", "max_bytes"];

/// The error codes every producer of which the schema itself states (structure, types,
/// `maxLength`, `maxItems`, non-blank `pattern`, `additionalProperties: false` for forbidden
/// keys): a document refused only with these codes is refused by any 2020-12 validator too.
/// A code that any cross-field or `x-` rule also produces is left out.
fn expressible_codes(spec: &Spec) -> Vec<&str> {
    let x_only = |code: &str| {
        spec.rules.iter().any(|r| r.code == code)
            || spec
                .errors
                .rule_codes
                .iter()
                .any(|(kind, c)| c == code && X_ONLY_RULE_KINDS.contains(&kind.as_str()))
    };
    let mut codes: Vec<&str> = spec
        .errors
        .codes
        .iter()
        .map(|c| c.code.as_str())
        .filter(|c| !x_only(c))
        .collect();
    codes.sort_unstable();
    codes
}

fn base(b: &Base) -> Value {
    match b {
        Base::String => json!({"type": "string"}),
        Base::Bool => json!({"type": "boolean"}),
        Base::U32 => json!({"type": "integer", "minimum": 0, "maximum": u32::MAX}),
        Base::U64 => json!({"type": "integer", "minimum": 0, "maximum": u64::MAX}),
        Base::I64 => json!({"type": "integer", "minimum": i64::MIN, "maximum": i64::MAX}),
        Base::Number => json!({"type": "number"}),
        Base::Object(n) | Base::Enum(n) | Base::Union(n) => json!({"$ref": format!("#/$defs/{n}")}),
    }
}

/// Adds the string rules of a field to a string schema.
fn string_rules(s: &mut Map<String, Value>, r: &FieldRules, non_blank: bool) {
    if non_blank {
        s.insert("minLength".into(), json!(1));
        s.insert("pattern".into(), json!(format!("[^{WS}]")));
        s.insert("x-non-blank".into(), json!(true));
    }
    if let Some(c) = &r.max_chars {
        s.insert("maxLength".into(), json!(c.value));
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
        string_rules(elem.as_object_mut().expect("object"), r, f.ty.non_blank);
    }
    let mut v = if f.ty.array {
        let mut a = Map::new();
        a.insert("type".into(), json!("array"));
        a.insert("items".into(), elem);
        if let Some(c) = &r.max_items {
            a.insert("maxItems".into(), json!(c.value));
        }
        for g in &r.max_items_per_group {
            a.insert(
                "x-max-items-per-group".into(),
                json!({"by": g.by, "max": g.cap.value, "code": g.cap.code}),
            );
        }
        for u in &r.unique_by {
            a.insert(
                "x-unique-by".into(),
                json!({"key": u.key, "ignore-case": u.ignore_case, "trim": u.trim, "code": u.code}),
            );
        }
        if !r.contradiction.is_empty() {
            let cs: Vec<Value> = r
                .contradiction
                .iter()
                .map(|c| {
                    json!({
                        "by": c.by,
                        "value": c.value,
                        "code": c.code,
                        "pairs": c.pairs.iter().map(|p| json!({"a": p.a, "b": p.b, "ignore-case": p.ignore_case})).collect::<Vec<_>>(),
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
        let d = match &f.default {
            Some(DefaultValue::Bool(b)) => json!(b),
            Some(DefaultValue::UInt(n)) => json!(n),
            Some(DefaultValue::Int(n)) => json!(n),
            Some(DefaultValue::Number(n)) => json!(n),
            Some(DefaultValue::String(s)) => json!(s),
            Some(DefaultValue::Enum { value, .. }) => json!(value),
            None if f.ty.nullable => Value::Null,
            None => json!([]),
        };
        m.insert("default".into(), d);
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
    m.insert("additionalProperties".into(), json!(false));
    let desc = if o.name == spec.root {
        format!("{}\n\n{}", spec.title, o.doc)
    } else {
        o.doc.clone()
    };
    m.insert("description".into(), json!(desc));
    if !o.not_equal.is_empty() {
        m.insert(
            "x-not-equal".into(),
            json!(o
                .not_equal
                .iter()
                .map(|n| json!([n.a, n.b]))
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
    if let Some(c) = &o.max_json_bytes {
        m.insert(
            "x-max-bytes".into(),
            json!({"max": c.value, "measure": "compact-json", "code": c.code}),
        );
    }
    Value::Object(m)
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
