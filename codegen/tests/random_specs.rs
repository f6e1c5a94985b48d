//! Property: the conformance corpus is true for every spec, not only the bundled ones.
//!
//! A seeded generator writes small random but valid specs (`.md` + `.toml`): patterned,
//! capped and non-blank text (with minimum lengths), enums, integers (bounded `int32`/`uint32` values, nullable or
//! in lists), lists of text with item caps and `[[unique]]`,
//! lists of objects unique by a key (text, patterned or enum), a nested object. For every
//! case of every spec's generated corpus:
//! - the verdict and the `(code, path)` list equal what this file's own reading of the
//!   generated spec says (an oracle written from the spec's rules, not from the model), and
//! - on a schema-expressible case, the emitted JSON Schema (Rust `jsonschema`) agrees;
//! - the interpreter ([`Validator`], the spec's validator read from its model at run time)
//!   agrees: the same verdict and the same `(code, path)` list.
//!
//! With `SPECMINT_RANDOM_SPECS_DIR=DIR` the schemas and corpora are also written under
//! `DIR/schema/` and `DIR/corpus/` (the layout of `generated/`), which `./test.sh` hands to
//! Python jsonschema and ajv (`scripts/conformance/check_corpus.* --generated DIR`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{json, Value};
use specmint_codegen::{generate, load, Options, SpecSource, Validator};

/// How many specs; the seed is fixed so a failure replays.
const SPECS: u64 = 200;

/// Portable patterns (see docs/spec-format.md) and a value each matches.
const PATTERNS: &[(&str, &str)] = &[
    ("^[A-Za-z0-9-]+$", "Ab-3"),
    (
        "^https?://[a-z0-9-]+(?:\\.[a-z0-9-]+)*(?:/[a-z0-9_-]*)*$",
        "https://ex.com/a",
    ),
    ("^pkg_[A-Za-z0-9_-]{1,63}$", "pkg_x1"),
    ("^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2024-01-31"),
    ("^[a-z]+(?:-[a-z]+)*$", "ab-cd"),
    ("^v[0-9]+\\.[0-9]+$", "v1.2"),
    ("^[A-Z]{3}$", "ABC"),
    ("^[a-z][a-z0-9_]*$", "a1"),
    ("[0-9]", "a1"),
    ("^(?:red|green|blue)$", "red"),
    ("^[^/\\n]+$", "a b"),
];

const SHADES: &[&str] = &["dark", "light", "dim"];

/// splitmix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

#[derive(Clone, Debug)]
enum Ty {
    /// `string`, `non-blank string`, `string?` or `string matching`.
    Text {
        non_blank: bool,
        pattern: Option<usize>,
    },
    Shade,
    U32,
    /// `int32 A..=B` / `uint32 A..` / `int32? ..=B` / `int32[] A..=B`: a bounded integer
    /// (`signed` picks the width), maybe nullable, maybe a list.
    Ranged {
        signed: bool,
        min: Option<i64>,
        max: Option<i64>,
        list: bool,
    },
    Bool,
    /// `string[]` / `non-blank string[]` / `string[] matching`.
    TextList {
        non_blank: bool,
        pattern: Option<usize>,
    },
    /// `entry[]`.
    Entries,
    /// `meta`.
    Meta,
}

#[derive(Clone, Debug)]
struct F {
    key: String,
    ty: Ty,
    required: bool,
    chars: Option<u64>,
    items: Option<u64>,
    /// `[[unique]]`: (ignore_case, trim).
    unique: Option<(bool, bool)>,
    /// `at least N chars` (of each element for a list).
    min_chars: Option<u64>,
    /// `at least N items` (required lists only: an optional one reads as `[]`).
    min_items: Option<u64>,
}

#[derive(Debug)]
struct RandomSpec {
    doc: Vec<F>,
    entry: Vec<F>,
    meta: Vec<F>,
    /// The entries' unique key, when any.
    entry_key: Option<String>,
    /// The document byte cap, set once the example is known.
    bytes: Option<u64>,
}

/// A text field, patterned with `percent` chance.
fn text_field(rng: &mut Rng, key: String, percent: u64) -> F {
    let pattern = rng
        .chance(percent)
        .then(|| rng.below(PATTERNS.len() as u64) as usize);
    let non_blank = pattern.is_none() && rng.chance(50);
    let min = pattern.map_or(1, |p| PATTERNS[p].1.chars().count() as u64);
    F {
        key,
        ty: Ty::Text { non_blank, pattern },
        // A patterned text may be `string? matching` too.
        required: non_blank || rng.chance(if pattern.is_some() { 70 } else { 50 }),
        chars: rng.chance(70).then(|| min + rng.below(6)),
        items: None,
        unique: None,
        // At most the example value's length.
        min_chars: rng.chance(30).then(|| 1 + rng.below(min)),
        min_items: None,
    }
}

/// A bounded integer field: one end or both, within the width, maybe below zero.
fn ranged_field(rng: &mut Rng, key: String) -> F {
    let signed = rng.chance(50);
    let lo: i64 = if signed {
        -(rng.below(20) as i64)
    } else {
        rng.below(5) as i64
    };
    let hi = lo + rng.below(30) as i64;
    let (min, max) = match rng.below(4) {
        0 => (Some(lo), None),
        1 => (None, Some(hi)),
        _ => (Some(lo), Some(hi)),
    };
    let list = rng.chance(30);
    F {
        key,
        ty: Ty::Ranged {
            signed,
            min,
            max,
            list,
        },
        required: !list && rng.chance(60),
        chars: None,
        items: None,
        unique: None,
        min_chars: None,
        min_items: None,
    }
}

fn random_spec(rng: &mut Rng) -> RandomSpec {
    let mut doc = vec![text_field(rng, "id".into(), 100)];
    for j in 0..1 + rng.below(5) {
        let key = format!("f{j}");
        let f = match rng.below(7) {
            0 | 1 => text_field(rng, key, 50),
            6 => ranged_field(rng, key),
            2 => F {
                key,
                ty: Ty::Shade,
                required: rng.chance(50),
                chars: None,
                items: None,
                unique: None,
                min_chars: None,
                min_items: None,
            },
            3 => F {
                key,
                ty: if rng.chance(50) { Ty::U32 } else { Ty::Bool },
                required: true,
                chars: None,
                items: None,
                unique: None,
                min_chars: None,
                min_items: None,
            },
            _ => {
                // The example list has two items of one char each, or (patterned) one
                // item, the pattern's example value.
                let pattern = rng
                    .chance(30)
                    .then(|| rng.below(PATTERNS.len() as u64) as usize);
                let len = pattern.map_or(1, |p| PATTERNS[p].1.chars().count() as u64);
                let most = if pattern.is_some() { 1 } else { 2 };
                let min_items = rng.chance(30).then(|| 1 + rng.below(most));
                F {
                    key,
                    ty: Ty::TextList {
                        non_blank: pattern.is_none() && rng.chance(50),
                        pattern,
                    },
                    required: min_items.is_some(),
                    chars: rng.chance(60).then(|| len + rng.below(6)),
                    items: rng.chance(70).then(|| 2 + rng.below(4)),
                    unique: rng.chance(50).then(|| (rng.chance(50), rng.chance(50))),
                    min_chars: rng.chance(30).then(|| 1 + rng.below(len)),
                    min_items,
                }
            }
        };
        doc.push(f);
    }
    let mut entry = Vec::new();
    let mut entry_key = None;
    if rng.chance(60) {
        let key = if rng.chance(50) {
            // The unique key of the entries is always there.
            let mut f = text_field(rng, "name".into(), 100);
            f.required = true;
            f
        } else {
            let mut f = text_field(rng, "name".into(), 0);
            f.ty = Ty::Text {
                non_blank: true,
                pattern: None,
            };
            f.required = true;
            f
        };
        if rng.chance(40) {
            entry.push(F {
                key: "kind".into(),
                ty: Ty::Shade,
                required: true,
                chars: None,
                items: None,
                unique: None,
                min_chars: None,
                min_items: None,
            });
        }
        entry.push(key);
        entry.push(text_field(rng, "note".into(), 30));
        doc.push(F {
            key: "entries".into(),
            ty: Ty::Entries,
            required: false,
            chars: None,
            items: rng.chance(70).then(|| 2 + rng.below(4)),
            unique: rng.chance(70).then(|| (rng.chance(50), rng.chance(50))),
            min_chars: None,
            min_items: None,
        });
        if doc.last().unwrap().unique.is_some() {
            entry_key = Some("name".to_owned());
        }
    }
    let mut meta = Vec::new();
    if rng.chance(40) {
        for j in 0..1 + rng.below(2) {
            meta.push(text_field(rng, format!("m{j}"), 50));
        }
        doc.push(F {
            key: "meta".into(),
            ty: Ty::Meta,
            required: true,
            chars: None,
            items: None,
            unique: None,
            min_chars: None,
            min_items: None,
        });
    }
    RandomSpec {
        doc,
        entry,
        meta,
        entry_key,
        bytes: None,
    }
}

impl RandomSpec {
    fn uses_shade(&self) -> bool {
        self.doc
            .iter()
            .chain(&self.entry)
            .any(|f| matches!(f.ty, Ty::Shade))
    }

    fn all(&self) -> impl Iterator<Item = &F> {
        self.doc.iter().chain(&self.entry).chain(&self.meta)
    }

    fn codes(&self) -> BTreeSet<&'static str> {
        let mut c = BTreeSet::from(["bad_doc"]);
        if self.bytes.is_some() {
            c.insert("too_big");
        }
        for f in self.all() {
            match f.ty {
                Ty::Text { non_blank, pattern } => {
                    if non_blank {
                        c.insert("blank");
                    }
                    if pattern.is_some() {
                        c.insert("bad_pattern");
                    }
                }
                Ty::TextList { non_blank, pattern } => {
                    if non_blank {
                        c.insert("blank");
                    }
                    if pattern.is_some() {
                        c.insert("bad_pattern");
                    }
                }
                Ty::Ranged { .. } => {
                    c.insert("out_of_range");
                }
                _ => {}
            }
            if f.chars.is_some() {
                c.insert("too_long");
            }
            if f.items.is_some() {
                c.insert("too_many");
            }
            if f.min_chars.is_some() {
                c.insert("too_short");
            }
            if f.min_items.is_some() {
                c.insert("too_few");
            }
            if f.unique.is_some() {
                c.insert(if f.key == "entries" {
                    "dup_entry"
                } else {
                    "dup_item"
                });
            }
        }
        c
    }

    fn table(out: &mut String, heading: &str, fields: &[F]) {
        let req = |f: &F| if f.required { "✔" } else { "—" };
        writeln!(
            out,
            "## {heading}\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|"
        )
        .unwrap();
        for f in fields {
            let (ty, req) = match &f.ty {
                Ty::Text {
                    pattern: Some(p), ..
                } => (
                    format!(
                        "string{} matching `{}`",
                        if f.required { "" } else { "?" },
                        PATTERNS[*p].0.replace('|', "\\|")
                    ),
                    req(f),
                ),
                Ty::Text {
                    non_blank: true, ..
                } => ("non-blank string".into(), "✔"),
                Ty::Text { .. } if f.required => ("string".into(), "✔"),
                Ty::Text { .. } => ("string?".into(), "—"),
                Ty::Shade if f.required => ("shade".into(), "✔"),
                Ty::Shade => ("shade".into(), "— (default dark)"),
                Ty::U32 => ("uint32".into(), "✔"),
                Ty::Ranged {
                    signed,
                    min,
                    max,
                    list,
                } => {
                    let range = format!(
                        "{}..{}",
                        min.map_or(String::new(), |n| n.to_string()),
                        max.map_or(String::new(), |n| format!("={n}"))
                    );
                    let width = if *signed { "int32" } else { "uint32" };
                    let shape = if *list {
                        "[]"
                    } else if f.required {
                        ""
                    } else {
                        "?"
                    };
                    (
                        format!("{width}{shape} {range}"),
                        if f.required { "✔" } else { "—" },
                    )
                }
                Ty::Bool => ("bool".into(), "✔"),
                Ty::TextList {
                    pattern: Some(p), ..
                } => (
                    format!("string[] matching `{}`", PATTERNS[*p].0.replace('|', "\\|")),
                    req(f),
                ),
                Ty::TextList {
                    non_blank: true, ..
                } => ("non-blank string[]".into(), req(f)),
                Ty::TextList { .. } => ("string[]".into(), req(f)),
                Ty::Entries => ("entry[]".into(), "—"),
                Ty::Meta => ("meta".into(), "✔"),
            };
            writeln!(out, "| `{}` | {ty} | {req} | The {}. |", f.key, f.key).unwrap();
        }
        out.push('\n');
    }

    fn markdown(&self, example: &Value) -> String {
        let mut md = String::from("# Random v1\n\n");
        Self::table(&mut md, "Fields of a `doc`", &self.doc);
        if !self.entry.is_empty() {
            Self::table(&mut md, "Fields of an `entry`", &self.entry);
        }
        if !self.meta.is_empty() {
            Self::table(&mut md, "Fields of a `meta`", &self.meta);
        }
        if self.uses_shade() {
            md.push_str("## Shades: `shade`\n\n| Value | Meaning |\n|---|---|\n");
            for s in SHADES {
                writeln!(md, "| `{s}` | {s}. |").unwrap();
            }
            md.push('\n');
        }
        md.push_str("## Caps\n\n| Cap | Value | Constant |\n|---|---|---|\n");
        for (prefix, fields) in [
            ("", &self.doc),
            ("entries[].", &self.entry),
            ("meta.", &self.meta),
        ] {
            for f in fields.iter() {
                let name = format!("{prefix}{}", f.key)
                    .replace('.', "_")
                    .replace("[]", "");
                let upper = name.to_uppercase();
                if let Some(n) = f.items {
                    writeln!(md, "| `{prefix}{}` items | {n} | {upper}_MAX |", f.key).unwrap();
                }
                let path = match f.ty {
                    Ty::TextList { .. } => format!("{prefix}{}[]", f.key),
                    _ => format!("{prefix}{}", f.key),
                };
                if let Some(n) = f.chars {
                    writeln!(md, "| `{path}` | {n} chars | {upper}_MAX_CHARS |").unwrap();
                }
                if let Some(n) = f.min_chars {
                    writeln!(md, "| `{path}` | at least {n} chars | {upper}_MIN_CHARS |").unwrap();
                }
                if let Some(n) = f.min_items {
                    writeln!(
                        md,
                        "| `{prefix}{}` | at least {n} items | {upper}_MIN |",
                        f.key
                    )
                    .unwrap();
                }
            }
        }
        if let Some(n) = self.bytes {
            writeln!(
                md,
                "| Whole doc, compact JSON | {n} bytes | DOC_MAX_BYTES |"
            )
            .unwrap();
        }
        md.push_str("\n## Error codes\n\n| Code | When |\n|---|---|\n");
        for c in self.codes() {
            writeln!(md, "| `{c}` | {c}. |").unwrap();
        }
        writeln!(md, "\n```json valid\n{example}\n```").unwrap();
        md
    }

    fn toml(&self) -> String {
        let mut t = String::from(
            "[spec]\nroot = \"doc\"\n\n[errors]\nenum = \"DocError\"\nparse = \"bad_doc\"\n",
        );
        let codes = self.codes();
        for (rule, code) in [
            ("non_blank", "blank"),
            ("max_chars", "too_long"),
            ("max_items", "too_many"),
            ("pattern", "bad_pattern"),
            ("range", "out_of_range"),
            ("min_chars", "too_short"),
            ("min_items", "too_few"),
            ("max_bytes", "too_big"),
        ] {
            if codes.contains(code) {
                writeln!(t, "{rule} = \"{code}\"").unwrap();
            }
        }
        if self.bytes.is_some() {
            t.push_str("\n[caps.DOC_MAX_BYTES]\nrule = \"document_bytes\"\n");
        }
        for f in &self.doc {
            if let Some((ignore_case, trim)) = f.unique {
                let (code, key) = if f.key == "entries" {
                    ("dup_entry", "key = \"name\"\n")
                } else {
                    ("dup_item", "")
                };
                write!(
                    t,
                    "\n[[unique]]\npath = \"{}\"\n{key}ignore_case = {ignore_case}\ntrim = {trim}\ncode = \"{code}\"\n",
                    f.key
                )
                .unwrap();
            }
        }
        t
    }

    /// A valid document: every required field, some optional ones.
    fn example(&self, rng: &mut Rng) -> Value {
        fn value(s: &RandomSpec, f: &F, rng: &mut Rng, i: usize) -> Value {
            match &f.ty {
                Ty::Text {
                    pattern: Some(p), ..
                } => json!(PATTERNS[*p].1),
                Ty::Text { .. } => json!(["x", "y", "z"][i % 3]),
                Ty::Shade => json!(SHADES[i % SHADES.len()]),
                Ty::U32 => json!(rng.below(1000)),
                Ty::Ranged {
                    signed,
                    min,
                    max,
                    list,
                } => {
                    // An unsigned type has its own floor, 0, under an open lower end.
                    let floor = if *signed { i64::MIN } else { 0 };
                    let lo = min.unwrap_or(max.unwrap_or(0) - 3).max(floor);
                    let hi = max.unwrap_or(lo + 10);
                    let n = lo + rng.below((hi - lo + 1) as u64) as i64;
                    if *list {
                        json!([n, lo])
                    } else {
                        json!(n)
                    }
                }
                Ty::Bool => json!(rng.chance(50)),
                Ty::TextList {
                    pattern: Some(p), ..
                } => json!([PATTERNS[*p].1]),
                Ty::TextList { .. } => json!(["p", "q"]),
                Ty::Entries => {
                    let n = if s.entry.iter().any(|e| {
                        matches!(
                            e.ty,
                            Ty::Text {
                                pattern: Some(_),
                                ..
                            }
                        )
                    }) && s.entry_key.is_some()
                    {
                        1
                    } else {
                        2
                    };
                    Value::Array((0..n).map(|i| object(s, &s.entry, rng, i)).collect())
                }
                Ty::Meta => object(s, &s.meta, rng, 0),
            }
        }
        fn object(s: &RandomSpec, fields: &[F], rng: &mut Rng, i: usize) -> Value {
            let mut m = serde_json::Map::new();
            for f in fields {
                if f.required || rng.chance(60) {
                    m.insert(f.key.clone(), value(s, f, rng, i));
                }
            }
            Value::Object(m)
        }
        object(self, &self.doc, rng, 0)
    }

    /// This file's reading of the spec: the violations of `doc`, or `None` for a shape
    /// problem (the parse code, wherever serde stops).
    fn violations(&self, doc: &Value) -> Option<Vec<(String, String)>> {
        let mut out = Vec::new();
        self.object(&self.doc, doc, "", &mut out)?;
        if self.bytes.is_some_and(|n| self.bytes_of(doc) > n) {
            out.push(("too_big".into(), String::new()));
        }
        out.sort();
        Some(out)
    }

    /// The size of the document as written back: compact JSON, fields at their default
    /// (`null`, `[]`, the default shade) left out.
    fn bytes_of(&self, doc: &Value) -> u64 {
        fn canonical(s: &RandomSpec, fields: &[F], v: &Value) -> Value {
            let Some(m) = v.as_object() else {
                return v.clone();
            };
            let mut out = serde_json::Map::new();
            for f in fields {
                let Some(x) = m.get(&f.key) else { continue };
                let default = x.is_null()
                    || x.as_array().is_some_and(Vec::is_empty)
                    || matches!(f.ty, Ty::Shade) && x == "dark";
                if !f.required && default {
                    continue;
                }
                let x = match f.ty {
                    Ty::Meta => canonical(s, &s.meta, x),
                    Ty::Entries => Value::Array(
                        x.as_array()
                            .unwrap()
                            .iter()
                            .map(|e| canonical(s, &s.entry, e))
                            .collect(),
                    ),
                    _ => x.clone(),
                };
                out.insert(f.key.clone(), x);
            }
            Value::Object(out)
        }
        serde_json::to_string(&canonical(self, &self.doc, doc))
            .unwrap()
            .len() as u64
    }

    fn object(
        &self,
        fields: &[F],
        v: &Value,
        at: &str,
        out: &mut Vec<(String, String)>,
    ) -> Option<()> {
        let m = v.as_object()?;
        if m.keys().any(|k| !fields.iter().any(|f| &f.key == k)) {
            return None;
        }
        for f in fields {
            let path = if at.is_empty() {
                f.key.clone()
            } else {
                format!("{at}.{}", f.key)
            };
            match m.get(&f.key) {
                None if f.required => return None,
                None => {}
                Some(Value::Null)
                    if matches!(f.ty, Ty::Text { .. } | Ty::Ranged { list: false, .. })
                        && !f.required => {}
                Some(x) => self.field(f, x, &path, out)?,
            }
        }
        Some(())
    }

    fn field(&self, f: &F, v: &Value, path: &str, out: &mut Vec<(String, String)>) -> Option<()> {
        let push =
            |out: &mut Vec<(String, String)>, code: &str, p: String| out.push((code.to_owned(), p));
        match &f.ty {
            Ty::Text { non_blank, pattern } => {
                text(f, *non_blank, *pattern, v.as_str()?, path, out)
            }
            Ty::Shade => SHADES.contains(&v.as_str()?).then_some(())?,
            Ty::U32 => (v.as_u64()? <= u64::from(u32::MAX)).then_some(())?,
            Ty::Ranged {
                signed,
                min,
                max,
                list,
            } => {
                let one = |x: &Value| -> Option<bool> {
                    let n = x.as_i64()?;
                    let fits = if *signed {
                        i32::try_from(n).is_ok()
                    } else {
                        u32::try_from(n).is_ok()
                    };
                    fits.then_some(())?;
                    Some(min.is_none_or(|m| n >= m) && max.is_none_or(|m| n <= m))
                };
                if *list {
                    for (i, x) in v.as_array()?.iter().enumerate() {
                        if !one(x)? {
                            push(out, "out_of_range", format!("{path}[{i}]"));
                        }
                    }
                } else if !one(v)? {
                    push(out, "out_of_range", path.to_owned());
                }
            }
            Ty::Bool => {
                v.as_bool()?;
            }
            Ty::Meta => self.object(&self.meta, v, path, out)?,
            Ty::TextList { non_blank, pattern } => {
                let items = v.as_array()?;
                let texts: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
                if f.items.is_some_and(|n| items.len() as u64 > n) {
                    push(out, "too_many", path.to_owned());
                }
                if f.min_items.is_some_and(|n| (items.len() as u64) < n) {
                    push(out, "too_few", path.to_owned());
                }
                for (i, s) in texts.iter().enumerate() {
                    text(f, *non_blank, *pattern, s, &format!("{path}[{i}]"), out);
                }
                if let Some(u) = f.unique {
                    for i in repeats(texts.iter().map(|s| fold(s, u)).collect()) {
                        push(out, "dup_item", format!("{path}[{i}]"));
                    }
                }
            }
            Ty::Entries => {
                let items = v.as_array()?;
                for (i, it) in items.iter().enumerate() {
                    self.object(&self.entry, it, &format!("{path}[{i}]"), out)?;
                }
                if f.items.is_some_and(|n| items.len() as u64 > n) {
                    push(out, "too_many", path.to_owned());
                }
                if let (Some(u), Some(key)) = (f.unique, &self.entry_key) {
                    let keys = items
                        .iter()
                        .map(|it| it.get(key).and_then(Value::as_str).map(|s| fold(s, u)))
                        .collect::<Option<Vec<_>>>()?;
                    for i in repeats(keys) {
                        push(out, "dup_entry", format!("{path}[{i}].{key}"));
                    }
                }
            }
        }
        Some(())
    }
}

fn text(
    f: &F,
    non_blank: bool,
    pattern: Option<usize>,
    s: &str,
    path: &str,
    out: &mut Vec<(String, String)>,
) {
    if non_blank && s.trim().is_empty() {
        out.push(("blank".into(), path.into()));
    }
    if f.chars.is_some_and(|n| s.chars().count() as u64 > n) {
        out.push(("too_long".into(), path.into()));
    }
    if f.min_chars.is_some_and(|n| (s.chars().count() as u64) < n) {
        out.push(("too_short".into(), path.into()));
    }
    if let Some(p) = pattern {
        if !regex_lite::Regex::new(PATTERNS[p].0).unwrap().is_match(s) {
            out.push(("bad_pattern".into(), path.into()));
        }
    }
}

fn fold(s: &str, (ignore_case, trim): (bool, bool)) -> String {
    let s = if trim { s.trim() } else { s };
    if ignore_case {
        s.to_lowercase()
    } else {
        s.to_owned()
    }
}

/// Indices of the items equal to an earlier one.
fn repeats(keys: Vec<String>) -> Vec<usize> {
    let mut seen = BTreeSet::new();
    keys.into_iter()
        .enumerate()
        .filter(|(_, k)| !seen.insert(k.clone()))
        .map(|(i, _)| i)
        .collect()
}

#[test]
fn every_corpus_case_of_random_specs_agrees_with_the_spec() {
    let out_dir = std::env::var_os("SPECMINT_RANDOM_SPECS_DIR").map(std::path::PathBuf::from);
    let mut rng = Rng(0x5eed_0016);
    let (mut cases, mut left_out) = (0usize, 0usize);
    let mut rules: BTreeMap<String, usize> = BTreeMap::new();
    for k in 0..SPECS {
        let mut spec = random_spec(&mut rng);
        let example = spec.example(&mut rng);
        if rng.chance(40) {
            spec.bytes = Some(spec.bytes_of(&example) + rng.below(40));
        }
        let name = format!("rnd_{k:03}");
        let source = SpecSource {
            name: name.clone(),
            md_path: format!("spec/{name}.md"),
            md: spec.markdown(&example),
            toml_path: format!("spec/{name}.toml"),
            toml: spec.toml(),
        };
        let model = load(&source).unwrap_or_else(|d| panic!("{d}\n{}\n{}", source.md, source.toml));
        assert_eq!(model.name, name);
        let interpreter = Validator::new(&model);
        let files = generate(std::slice::from_ref(&source), &Options::default())
            .unwrap_or_else(|d| panic!("{d}"));
        let corpus_text = &files[&format!("corpus/{name}/cases.json")];
        let schema_text = &files[&format!("schema/{name}.schema.json")];
        let corpus: Value = serde_json::from_str(corpus_text).unwrap();
        let schema: Value = serde_json::from_str(schema_text).unwrap();
        let validator = jsonschema::draft202012::new(&schema).expect("schema compiles");
        if let Some(dir) = &out_dir {
            for (rel, text) in [
                (format!("corpus/{name}/cases.json"), corpus_text),
                (format!("schema/{name}.schema.json"), schema_text),
            ] {
                let p = dir.join(rel);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            }
        }
        left_out += corpus["notes"].as_array().unwrap().len();
        for case in corpus["cases"].as_array().unwrap() {
            cases += 1;
            let id = case["id"].as_str().unwrap();
            *rules
                .entry(id.split('.').next().unwrap().to_owned())
                .or_default() += 1;
            let doc = &case["document"];
            let valid = case["valid"].as_bool().unwrap();
            let errors: Vec<(String, String)> = {
                let mut e: Vec<(String, String)> = case["errors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| {
                        (
                            e["code"].as_str().unwrap().into(),
                            e["path"].as_str().unwrap().into(),
                        )
                    })
                    .collect();
                e.sort();
                e
            };
            let why = || {
                format!(
                    "{name} case {id}: {}\n{}\n{}\n{doc:#}",
                    case["description"], source.md, source.toml
                )
            };
            match spec.violations(doc) {
                None => assert!(
                    !valid && errors.iter().all(|(c, _)| c == "bad_doc"),
                    "a shape problem, the corpus says {errors:?}: {}",
                    why()
                ),
                Some(mine) => assert_eq!(errors, mine, "{}", why()),
            }
            let interpreted = match interpreter.validate(&serde_json::to_vec(doc).unwrap()) {
                Ok(_) => Vec::new(),
                Err(report) => {
                    let mut v: Vec<(String, String)> = report
                        .iter()
                        .map(|v| (v.code.to_owned(), v.path.clone()))
                        .collect();
                    v.sort();
                    v
                }
            };
            assert_eq!(interpreted, errors, "interpreter: {}", why());
            if case["schema_expressible"].as_bool().unwrap() {
                assert_eq!(validator.is_valid(doc), valid, "schema: {}", why());
            }
        }
    }
    // The generator reaches every family it means to.
    for family in [
        "max_chars",
        "max_items",
        "pattern",
        "non_blank",
        "unique",
        "enum",
        "max_bytes",
        "range",
        "min_chars",
        "min_items",
    ] {
        assert!(
            rules.get(family).is_some_and(|&n| n > 50),
            "{family}: {rules:?}"
        );
    }
    eprintln!("{SPECS} random specs, {cases} corpus cases, {left_out} notes; by family {rules:?}");
}
