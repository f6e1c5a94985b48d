//! The model comparison: every difference of two checked specs, as a [`Found`] with its rule
//! id and static categories. Prose (docs, meanings, titles, examples) is never compared.
//!
//! Matches over the model's kinds are exhaustive on purpose ([`RuleKind`], [`FieldRules`],
//! [`TypeDef`]): a new rule kind does not compile until it has a diff case here.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use super::locate::Needle;
use super::Break::{self, Codes, Documents, Machines, Readers, RustApi};
use crate::model::*;

/// What the witness search needs to synthesize documents for one change.
#[derive(Debug, Clone, Default)]
pub(super) struct Hint {
    /// The member's spec path without indexes (`items.name`); `None` at document level.
    pub path: Option<String>,
    /// Values to try at the path (enum spellings, typed samples of both sides).
    pub samples: Vec<Value>,
    /// Lengths and numbers to try (caps and minimums of both sides, each ±1).
    pub lengths: Vec<u64>,
    /// A key to add to every object of a document, at any depth (a forbidden key).
    pub anywhere: Option<String>,
}

/// One difference, before its proof.
#[derive(Debug, Clone)]
pub(super) struct Found {
    pub id: &'static str,
    pub breaks: Vec<Break>,
    /// For an edit whose direction the model does not tell: the ids when only old documents
    /// break (`documents`), only new ones (`readers`), or both / none found.
    pub undirected: Option<[&'static str; 3]>,
    pub message: String,
    pub old: Needle,
    pub new: Needle,
    pub hint: Hint,
}

fn found(id: &'static str, breaks: &[Break], message: String, old: Needle, new: Needle) -> Found {
    Found {
        id,
        breaks: breaks.to_vec(),
        undirected: None,
        message,
        old,
        new,
        hint: Hint::default(),
    }
}

impl Found {
    fn at(mut self, hint: &Hint) -> Found {
        self.hint = hint.clone();
        self
    }
    fn undirected(mut self, ids: [&'static str; 3]) -> Found {
        self.undirected = Some(ids);
        self
    }
    fn also(mut self, b: Break, when: bool) -> Found {
        if when && !self.breaks.contains(&b) {
            self.breaks.push(b);
        }
        self
    }
}

/// Every difference of `old` and `new` (one spec, same name).
pub(super) fn compare(old: &Spec, new: &Spec) -> Vec<Found> {
    let mut c = Cmp {
        old,
        new,
        old_paths: usages(old),
        new_paths: usages(new),
        out: Vec::new(),
    };
    c.document();
    c.types();
    c.machines();
    c.constants();
    c.rules();
    c.forbidden();
    c.codes();
    c.out
}

struct Cmp<'a> {
    old: &'a Spec,
    new: &'a Spec,
    /// Table name → the spec paths (no indexes) where its values sit; the root at `""`.
    old_paths: BTreeMap<String, Vec<String>>,
    new_paths: BTreeMap<String, Vec<String>>,
    out: Vec<Found>,
}

fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_owned()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Where the values of each table sit in a document.
fn usages(spec: &Spec) -> BTreeMap<String, Vec<String>> {
    fn walk(
        spec: &Spec,
        table: &str,
        prefix: &str,
        depth: usize,
        out: &mut BTreeMap<String, Vec<String>>,
    ) {
        let paths = out.entry(table.to_owned()).or_default();
        if paths.iter().any(|p| p == prefix) || depth > 6 {
            return;
        }
        paths.push(prefix.to_owned());
        let members: Vec<&Field> = match spec.type_def(table) {
            Some(TypeDef::Object(o)) => o.fields.iter().collect(),
            Some(TypeDef::Union(u)) => u.variants.iter().flat_map(|v| &v.members).collect(),
            Some(TypeDef::Enum(_)) | None => return,
        };
        for f in members {
            let p = join(prefix, &f.key);
            match &f.ty.base {
                Base::Object(t) | Base::Enum(t) | Base::Union(t) => {
                    walk(spec, t, &p, depth + 1, out)
                }
                Base::Selected(_) => {
                    if let Some(TypeDef::Object(o)) = spec.type_def(table) {
                        if let Some(s) = &o.selector {
                            let i = s.members.iter().position(|m| *m == f.key);
                            for case in &s.cases {
                                if let Some(t) = i.and_then(|i| case.tables.get(i)) {
                                    walk(spec, t, &p, depth + 1, out);
                                }
                            }
                        }
                    }
                }
                Base::String
                | Base::Bool
                | Base::U32
                | Base::U64
                | Base::I32
                | Base::I64
                | Base::Number
                | Base::Any => {}
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(spec, &spec.root, "", 0, &mut out);
    out
}

/// A value of type `ty` in `spec` that is as plain as it can be (for synthesized documents).
fn sample(spec: &Spec, ty: &TypeRef, depth: usize) -> Value {
    let one = match &ty.base {
        _ if ty.literal.is_some() => json!(ty.literal),
        Base::String => json!("a"),
        Base::Bool => json!(true),
        Base::U32 | Base::U64 | Base::I32 | Base::I64 => {
            json!(ty.range.and_then(|r| r.min).unwrap_or(0).max(0) as i64)
        }
        Base::Number => json!(1),
        Base::Enum(t) => json!(spec.enum_spellings(t).first()),
        Base::Object(t) if depth < 4 => match spec.type_def(t) {
            Some(TypeDef::Object(o)) => Value::Object(
                o.fields
                    .iter()
                    .filter(|f| f.required)
                    .map(|f| (f.key.clone(), sample(spec, &f.ty, depth + 1)))
                    .collect(),
            ),
            _ => json!({}),
        },
        Base::Union(t) => match spec.type_def(t) {
            Some(TypeDef::Union(u)) => match u.variants.first() {
                Some(v) => json!({ u.tag.clone(): v.tag_value }),
                None => json!({}),
            },
            _ => json!({}),
        },
        Base::Object(_) | Base::Selected(_) | Base::Any => json!({}),
    };
    if ty.array {
        json!([one])
    } else {
        one
    }
}

/// Each number and its neighbours.
fn around(numbers: impl IntoIterator<Item = u64>) -> Vec<u64> {
    let mut out: Vec<u64> = numbers
        .into_iter()
        .flat_map(|n| [n.saturating_sub(1), n, n.saturating_add(1)])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The cap and minimum numbers of a field, and its range bounds.
fn numbers(f: &Field) -> Vec<u64> {
    let r = &f.rules;
    let mut n: Vec<u64> = [&r.max_chars, &r.max_items, &r.min_chars, &r.min_items]
        .into_iter()
        .flatten()
        .map(|c| c.value)
        .chain(r.max_items_per_group.iter().map(|g| g.cap.value))
        .collect();
    if let Some(range) = f.ty.range {
        for b in [range.min, range.max].into_iter().flatten() {
            n.push(b.clamp(0, u64::MAX.into()) as u64);
        }
    }
    n
}

impl Cmp<'_> {
    /// Records a finding once: a union member that several variants share is compared in
    /// each of them, and a change to it (a cap on `signature.chain`) is one change.
    fn push(&mut self, f: Found) {
        if !self
            .out
            .iter()
            .any(|o| o.id == f.id && o.message == f.message)
        {
            self.out.push(f);
        }
    }

    /// The first place values of table `t` sit, in the old spec or else the new.
    fn path_of(&self, t: &str) -> Option<String> {
        self.old_paths
            .get(t)
            .or_else(|| self.new_paths.get(t))
            .and_then(|p| p.first().cloned())
    }

    fn document(&mut self) {
        let (o, n) = (self.old, self.new);
        let top = || (Needle::Start, Needle::Start);
        if o.root != n.root {
            let (a, b) = top();
            self.push(
                found(
                    "root-changed",
                    &[Documents, Readers, RustApi],
                    format!("the root table is `{}`, was `{}`", n.root, o.root),
                    a,
                    b,
                )
                .undirected(["root-changed", "root-changed", "root-changed"]),
            );
        }
        if o.extract != n.extract {
            let (id, breaks) = if n.extract == Extract::OutermostObject {
                ("extract-loosened", Readers)
            } else {
                ("extract-tightened", Documents)
            };
            self.push(found(
                id,
                &[breaks],
                "how the document is found in its input text changed ([spec] extract)".into(),
                Needle::Toml("extract".into()),
                Needle::Toml("extract".into()),
            ));
        }
        if o.bom_tolerated != n.bom_tolerated {
            let (id, breaks) = if n.bom_tolerated {
                ("bom-tolerated", Readers)
            } else {
                ("bom-refused", Documents)
            };
            self.push(found(
                id,
                &[breaks],
                "a leading byte order mark is now ".to_owned()
                    + if n.bom_tolerated {
                        "skipped"
                    } else {
                        "refused"
                    },
                Needle::Toml("bom".into()),
                Needle::Toml("bom".into()),
            ));
        }
        let hint = Hint {
            path: None,
            samples: Vec::new(),
            lengths: around(o.max_input_bytes.into_iter().chain(n.max_input_bytes)),
            anywhere: None,
        };
        self.cap(
            "input size limit",
            &hint,
            o.max_input_bytes,
            n.max_input_bytes,
            false,
            Needle::Toml("max_input_bytes".into()),
            Needle::Toml("max_input_bytes".into()),
        );
    }

    /// A cap (or a minimum) that is added, removed, tightened or loosened.
    #[allow(clippy::too_many_arguments)]
    fn cap(
        &mut self,
        what: &str,
        hint: &Hint,
        old: Option<u64>,
        new: Option<u64>,
        minimum: bool,
        old_at: Needle,
        new_at: Needle,
    ) {
        let (id, breaks, message) = match (old, new) {
            (Some(a), Some(b)) if a == b => return,
            (Some(a), Some(b)) => {
                let tighter = if minimum { b > a } else { b < a };
                let id = match (minimum, tighter) {
                    (false, true) => "cap-tightened",
                    (false, false) => "cap-loosened",
                    (true, true) => "minimum-raised",
                    (true, false) => "minimum-lowered",
                };
                let b_ = if tighter { Documents } else { Readers };
                (id, b_, format!("{what} is {b}, was {a}"))
            }
            (None, Some(b)) => (
                if minimum {
                    "minimum-added"
                } else {
                    "cap-added"
                },
                Documents,
                format!("{what} of {b} added"),
            ),
            (Some(a), None) => (
                if minimum {
                    "minimum-removed"
                } else {
                    "cap-removed"
                },
                Readers,
                format!("{what} of {a} removed"),
            ),
            (None, None) => return,
        };
        self.push(found(id, &[breaks], message, old_at, new_at).at(hint));
    }

    fn types(&mut self) {
        let (o, n) = (self.old, self.new);
        for ot in &o.types {
            let Some(nt) = n.type_def(ot.name()) else {
                self.push(found(
                    "type-removed",
                    &[RustApi],
                    format!("table `{}` (`{}`) removed", ot.name(), ot.rust_name()),
                    Needle::table(ot.name()),
                    Needle::Start,
                ));
                continue;
            };
            if ot.rust_name() != nt.rust_name() {
                self.push(found(
                    "type-renamed",
                    &[RustApi],
                    format!(
                        "the Rust type of `{}` is `{}`, was `{}`",
                        ot.name(),
                        nt.rust_name(),
                        ot.rust_name()
                    ),
                    Needle::Toml(ot.rust_name().to_owned()),
                    Needle::Toml(nt.rust_name().to_owned()),
                ));
            }
            match (ot, nt) {
                (TypeDef::Object(a), TypeDef::Object(b)) => self.object(a, b),
                (TypeDef::Enum(a), TypeDef::Enum(b)) => self.enumeration(a, b),
                (TypeDef::Union(a), TypeDef::Union(b)) => self.union(a, b),
                (TypeDef::Object(_) | TypeDef::Enum(_) | TypeDef::Union(_), _) => {
                    let hint = Hint {
                        path: self.path_of(ot.name()),
                        ..Hint::default()
                    };
                    self.push(
                        found(
                            "table-kind-changed",
                            &[Documents, Readers, RustApi],
                            format!("table `{}` is another kind of table", ot.name()),
                            Needle::table(ot.name()),
                            Needle::table(nt.name()),
                        )
                        .at(&hint)
                        .undirected(["table-kind-changed"; 3]),
                    );
                }
            }
        }
        for nt in &n.types {
            if o.type_def(nt.name()).is_none() {
                self.push(found(
                    "type-added",
                    &[],
                    format!("table `{}` added", nt.name()),
                    Needle::Start,
                    Needle::table(nt.name()),
                ));
            }
        }
    }

    fn object(&mut self, a: &Object, b: &Object) {
        let prefix = self.path_of(&a.name).unwrap_or_default();
        let hint = Hint {
            path: (!prefix.is_empty()).then(|| prefix.clone()),
            ..Hint::default()
        };
        let table = || Needle::table(&a.name);
        if a.open != b.open {
            let (id, breaks) = if b.open {
                ("object-opened", Readers)
            } else {
                ("object-closed", Documents)
            };
            self.push(
                found(
                    id,
                    &[breaks],
                    format!(
                        "`{}` now {} members its table does not list",
                        a.name,
                        if b.open { "keeps" } else { "refuses" }
                    ),
                    table(),
                    table(),
                )
                .at(&hint),
            );
        }
        let doc_bytes = |o: &Object| o.max_json_bytes.as_ref().map(|c| c.value);
        let bytes_hint = Hint {
            lengths: around(doc_bytes(a).into_iter().chain(doc_bytes(b))),
            ..hint.clone()
        };
        self.cap(
            &format!("the byte cap of `{}`", a.name),
            &bytes_hint,
            doc_bytes(a),
            doc_bytes(b),
            false,
            cap_needle(a.max_json_bytes.as_ref(), &a.name),
            cap_needle(b.max_json_bytes.as_ref(), &b.name),
        );
        self.constant_use(a.max_json_bytes.as_ref(), b.max_json_bytes.as_ref());
        if a.selector != b.selector && (a.selector.is_some() || b.selector.is_some()) {
            let changed = a.selector.as_ref().map(|s| &s.by.key)
                != b.selector.as_ref().map(|s| &s.by.key)
                || a.selector.as_ref().map(|s| (&s.cases, &s.members))
                    != b.selector.as_ref().map(|s| (&s.cases, &s.members));
            if changed {
                self.push(
                    found(
                        "selector-changed",
                        &[Documents, Readers, RustApi],
                        format!("what chooses the members of `{}` changed", a.name),
                        table(),
                        table(),
                    )
                    .at(&hint)
                    .undirected(["selector-changed"; 3]),
                );
            }
        }
        self.fields(&a.name, &prefix, &a.fields, &b.fields, a.open, b.open);
    }

    /// The rows of one field table (or one union variant's members).
    fn fields(
        &mut self,
        table: &str,
        prefix: &str,
        old: &[Field],
        new: &[Field],
        old_open: bool,
        new_open: bool,
    ) {
        for f in old {
            let path = join(prefix, &f.key);
            let row = Needle::row(Some(table), &f.key);
            let Some(g) = new.iter().find(|g| g.key == f.key) else {
                let required = f.required || f.rules.required.is_some();
                let hint = Hint {
                    path: Some(path.clone()),
                    ..Hint::default()
                };
                self.push(
                    found(
                        "field-removed",
                        &[RustApi],
                        format!("field `{path}` removed"),
                        row,
                        Needle::table(table),
                    )
                    .at(&hint)
                    .also(Documents, !new_open)
                    .also(Readers, required),
                );
                continue;
            };
            self.field(table, &path, f, g);
        }
        for g in new {
            if old.iter().any(|f| f.key == g.key) {
                continue;
            }
            let path = join(prefix, &g.key);
            let required = g.required || g.rules.required.is_some();
            let hint = Hint {
                path: Some(path.clone()),
                samples: vec![sample(self.new, &g.ty, 0)],
                lengths: around(numbers(g)),
                anywhere: None,
            };
            let (id, what) = if required {
                ("field-added-required", "required")
            } else {
                ("field-added-optional", "optional")
            };
            self.push(
                found(
                    id,
                    &[],
                    format!("{what} field `{path}` added"),
                    Needle::table(table),
                    Needle::row(Some(table), &g.key),
                )
                .at(&hint)
                .also(Documents, required)
                .also(Readers, !old_open),
            );
        }
    }

    fn field(&mut self, table: &str, path: &str, f: &Field, g: &Field) {
        let row = || Needle::row(Some(table), &f.key);
        let mut samples = vec![sample(self.old, &f.ty, 0), sample(self.new, &g.ty, 0)];
        for (spec, ty) in [(self.old, &f.ty), (self.new, &g.ty)] {
            if let Base::Enum(t) = &ty.base {
                for v in spec.enum_spellings(t) {
                    samples.push(if ty.array { json!([v]) } else { json!(v) });
                }
            }
        }
        let hint = Hint {
            path: Some(path.to_owned()),
            samples,
            lengths: around(numbers(f).into_iter().chain(numbers(g))),
            anywhere: None,
        };
        let push = |c: &mut Self, id, breaks: &[Break], message: String| {
            c.push(found(id, breaks, message, row(), row()).at(&hint));
        };
        if f.rust_name != g.rust_name {
            push(
                self,
                "field-renamed",
                &[RustApi],
                format!(
                    "the Rust field of `{path}` is `{}`, was `{}`",
                    g.rust_name, f.rust_name
                ),
            );
        }
        let req = |f: &Field| f.required || f.rules.required.is_some();
        if req(f) != req(g) {
            let rust = rust_optional(f) != rust_optional(g);
            if req(g) {
                self.push(
                    found(
                        "field-made-required",
                        &[Documents],
                        format!("`{path}` is now required"),
                        row(),
                        row(),
                    )
                    .at(&hint)
                    .also(RustApi, rust),
                );
            } else {
                self.push(
                    found(
                        "field-made-optional",
                        &[Readers],
                        format!("`{path}` is now optional"),
                        row(),
                        row(),
                    )
                    .at(&hint)
                    .also(RustApi, rust),
                );
            }
        } else if f.rules.required.is_some() != g.rules.required.is_some() {
            // Both required, one with a coded requirement (`✔ `code``): blank is refused.
            let (id, b) = if g.rules.required.is_some() {
                ("coded-required-added", Documents)
            } else {
                ("coded-required-removed", Readers)
            };
            push(
                self,
                id,
                &[b],
                format!(
                    "`{path}`'s coded requirement (present and not blank) {}",
                    if b == Documents { "added" } else { "removed" }
                ),
            );
        }
        let (a, b) = (&f.ty, &g.ty);
        let base_of = |spec: &Spec, t: &TypeRef| match &t.base {
            Base::Object(_) | Base::Enum(_) | Base::Union(_) | Base::Selected(_) => {
                // Tables are compared as tables; a field keeps its type while its table does.
                format!("{:?}", std::mem::discriminant(&t.base))
                    + spec.rust_name_of(table_name(&t.base)).unwrap_or_default()
            }
            other => format!("{other:?}"),
        };
        if a.array != b.array
            || base_of(self.old, a) != base_of(self.new, b)
            || table_name(&a.base) != table_name(&b.base)
        {
            self.push(
                found(
                    "field-type-changed",
                    &[Documents, Readers, RustApi],
                    format!("the type of `{path}` changed"),
                    row(),
                    row(),
                )
                .at(&hint)
                .undirected([
                    "field-type-narrowed",
                    "field-type-widened",
                    "field-type-changed",
                ]),
            );
            return;
        }
        self.type_constraints(path, &hint, a, b, row);
        if f.default != g.default {
            push(
                self,
                "default-changed",
                &[],
                format!("what an absent `{path}` means changed (no verdict changes)"),
            );
        }
        self.rules_of(path, &hint, &f.rules, &g.rules, row);
    }

    /// Changes to what a field's type admits besides its base: null, a literal, a pattern,
    /// a relative path, integer bounds, a format.
    fn type_constraints(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &TypeRef,
        b: &TypeRef,
        row: impl Fn() -> Needle,
    ) {
        let push = |c: &mut Self, id, breaks: &[Break], message: String| {
            c.push(found(id, breaks, message, row(), row()).at(hint));
        };
        if a.nullable != b.nullable {
            if b.nullable {
                push(
                    self,
                    "field-made-nullable",
                    &[Readers, RustApi],
                    format!("`{path}` now takes null"),
                );
            } else {
                push(
                    self,
                    "field-made-non-nullable",
                    &[Documents, RustApi],
                    format!("`{path}` no longer takes null"),
                );
            }
        }
        if a.literal != b.literal {
            push(
                self,
                "literal-changed",
                &[Documents, Readers],
                format!("the value `{path}` must equal changed"),
            );
        }
        match (&a.pattern, &b.pattern) {
            (Some(x), Some(y)) if x != y => self.push(
                found(
                    "pattern-changed",
                    &[Documents, Readers],
                    format!("the pattern of `{path}` is `{y}`, was `{x}`"),
                    row(),
                    row(),
                )
                .at(hint)
                .undirected([
                    "pattern-narrowed",
                    "pattern-widened",
                    "pattern-changed",
                ]),
            ),
            (None, Some(y)) => push(
                self,
                "pattern-added",
                &[Documents],
                format!("`{path}` must now match `{y}`"),
            ),
            (Some(x), None) => push(
                self,
                "pattern-removed",
                &[Readers],
                format!("`{path}` no longer must match `{x}`"),
            ),
            _ => {}
        }
        if a.relative_path != b.relative_path {
            let (id, br) = if b.relative_path {
                ("relative-path-added", Documents)
            } else {
                ("relative-path-removed", Readers)
            };
            push(
                self,
                id,
                &[br],
                format!(
                    "`{path}` relative-path rule {}",
                    if b.relative_path { "added" } else { "removed" }
                ),
            );
        }
        match (a.range, b.range) {
            (x, y) if x == y => {}
            (None, Some(_)) => push(
                self,
                "range-added",
                &[Documents],
                format!("`{path}` now has bounds"),
            ),
            (Some(_), None) => push(
                self,
                "range-removed",
                &[Readers],
                format!("`{path}` no longer has bounds"),
            ),
            (Some(x), Some(y)) => {
                let within = |inner: IntRange, outer: IntRange| {
                    inner
                        .min
                        .map_or(outer.min.is_none(), |m| outer.min.is_none_or(|o| m >= o))
                        && inner
                            .max
                            .map_or(outer.max.is_none(), |m| outer.max.is_none_or(|o| m <= o))
                };
                let (id, br): (&'static str, &[Break]) = if within(y, x) {
                    ("range-narrowed", &[Documents])
                } else if within(x, y) {
                    ("range-widened", &[Readers])
                } else {
                    ("range-changed", &[Documents, Readers])
                };
                push(self, id, br, format!("the bounds of `{path}` changed"));
            }
            (None, None) => {}
        }
        match (a.format, b.format) {
            (x, y) if x == y => {}
            (None, Some(_)) => push(
                self,
                "format-added",
                &[Documents],
                format!("`{path}` now has a format"),
            ),
            (Some(_), None) => push(
                self,
                "format-removed",
                &[Readers],
                format!("`{path}` no longer has a format"),
            ),
            (Some(_), Some(_)) => self.push(
                found(
                    "format-changed",
                    &[Documents, Readers],
                    format!("the format of `{path}` changed"),
                    row(),
                    row(),
                )
                .at(hint)
                .undirected(["format-changed"; 3]),
            ),
            (None, None) => {}
        }
    }

    fn rules_of(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &FieldRules,
        b: &FieldRules,
        row: impl Fn() -> Needle,
    ) {
        // Exhaustive: a new field rule does not compile until it is compared here.
        let FieldRules {
            non_blank,
            max_chars,
            max_items,
            min_chars,
            min_items,
            max_items_per_group,
            // Cross-field rules: compared as `Spec::rules` (kind, path, code).
            unique_by: _,
            contradiction: _,
            unique: _,
            // The literal, pattern, relative path, range and format are the Type cell's
            // (compared there); their codes are compared with every other code.
            equals: _,
            pattern: _,
            relative_path: _,
            range: _,
            format: _,
            // Compared with the requirement above.
            required: _,
            required_if,
        } = a;
        if non_blank.is_some() != b.non_blank.is_some() {
            let (id, br) = if b.non_blank.is_some() {
                ("non-blank-added", Documents)
            } else {
                ("non-blank-removed", Readers)
            };
            self.push(
                found(
                    id,
                    &[br],
                    format!(
                        "`{path}` must {}be non-blank",
                        if br == Documents {
                            "now "
                        } else {
                            "no longer "
                        }
                    ),
                    row(),
                    row(),
                )
                .at(hint),
            );
        }
        for (what, x, y, minimum) in [
            ("char cap", max_chars, &b.max_chars, false),
            ("item cap", max_items, &b.max_items, false),
            ("char minimum", min_chars, &b.min_chars, true),
            ("item minimum", min_items, &b.min_items, true),
        ] {
            self.cap(
                &format!("the {what} of `{path}`"),
                hint,
                x.as_ref().map(|c| c.value),
                y.as_ref().map(|c| c.value),
                minimum,
                cap_or(x.as_ref(), &row),
                cap_or(y.as_ref(), &row),
            );
            self.constant_use(x.as_ref(), y.as_ref());
        }
        let mut groups: BTreeSet<&str> = max_items_per_group
            .iter()
            .map(|g| g.by.key.as_str())
            .collect();
        groups.extend(b.max_items_per_group.iter().map(|g| g.by.key.as_str()));
        for by in groups {
            let x = max_items_per_group
                .iter()
                .find(|g| g.by.key == by)
                .map(|g| &g.cap);
            let y = b
                .max_items_per_group
                .iter()
                .find(|g| g.by.key == by)
                .map(|g| &g.cap);
            self.cap(
                &format!("the per-`{by}` item cap of `{path}`"),
                hint,
                x.map(|c| c.value),
                y.map(|c| c.value),
                false,
                cap_or(x, &row),
                cap_or(y, &row),
            );
            self.constant_use(x, y);
        }
        let cond =
            |r: &Option<RequiredIf>| r.as_ref().map(|r| (r.field.key.clone(), r.when.clone()));
        match (cond(required_if), cond(&b.required_if)) {
            (x, y) if x == y => {}
            (None, Some(_)) => self.push(
                found(
                    "required-if-added",
                    &[Documents],
                    format!("`{path}` is now required on a condition"),
                    row(),
                    row(),
                )
                .at(hint),
            ),
            (Some(_), None) => self.push(
                found(
                    "required-if-removed",
                    &[Readers],
                    format!("`{path}` is no longer required on a condition"),
                    row(),
                    row(),
                )
                .at(hint),
            ),
            (Some(_), Some(_)) => self.push(
                found(
                    "required-if-changed",
                    &[Documents, Readers],
                    format!("the condition requiring `{path}` changed"),
                    row(),
                    row(),
                )
                .at(hint)
                .undirected(["required-if-changed"; 3]),
            ),
            (None, None) => {}
        }
    }

    /// A cap row kept under another constant name.
    fn constant_use(&mut self, a: Option<&CapUse>, b: Option<&CapUse>) {
        if let (Some(a), Some(b)) = (a, b) {
            if a.constant != b.constant {
                self.push(found(
                    "constant-renamed",
                    &[RustApi],
                    format!("constant `{}` is now `{}`", a.constant, b.constant),
                    Needle::text(&a.constant),
                    Needle::text(&b.constant),
                ));
            }
        }
    }

    fn enumeration(&mut self, a: &Enum, b: &Enum) {
        let hint = Hint {
            path: self.path_of(&a.name),
            samples: a
                .values
                .iter()
                .chain(&b.values)
                .map(|v| json!(v.value))
                .collect(),
            lengths: Vec::new(),
            anywhere: None,
        };
        for v in &a.values {
            match b.values.iter().find(|w| w.value == v.value) {
                None => self.push(
                    found(
                        "enum-value-removed",
                        &[Documents, RustApi],
                        format!("`{}` value `{}` removed", a.name, v.value),
                        Needle::row(Some(&a.name), &v.value),
                        Needle::table(&b.name),
                    )
                    .at(&hint),
                ),
                Some(w) if w.variant != v.variant => self.push(found(
                    "enum-variant-renamed",
                    &[RustApi],
                    format!(
                        "the Rust variant of `{}` `{}` is `{}`, was `{}`",
                        a.name, v.value, w.variant, v.variant
                    ),
                    Needle::row(Some(&a.name), &v.value),
                    Needle::row(Some(&b.name), &w.value),
                )),
                Some(_) => {}
            }
        }
        for w in &b.values {
            if !a.values.iter().any(|v| v.value == w.value) {
                self.push(
                    found(
                        "enum-value-added",
                        &[Readers],
                        format!("`{}` value `{}` added", b.name, w.value),
                        Needle::table(&a.name),
                        Needle::row(Some(&b.name), &w.value),
                    )
                    .at(&hint),
                );
            }
        }
    }

    fn union(&mut self, a: &Union, b: &Union) {
        let prefix = self.path_of(&a.name).unwrap_or_default();
        let hint = Hint {
            path: Some(prefix.clone()),
            samples: a
                .variants
                .iter()
                .chain(&b.variants)
                .map(|v| json!({ a.tag.clone(): v.tag_value }))
                .collect(),
            lengths: Vec::new(),
            anywhere: None,
        };
        let table = || Needle::table(&a.name);
        if a.tag != b.tag {
            self.push(
                found(
                    "union-tag-changed",
                    &[Documents, Readers, RustApi],
                    format!("the tag of `{}` is `{}`, was `{}`", a.name, b.tag, a.tag),
                    table(),
                    table(),
                )
                .at(&hint),
            );
        }
        if a.short_form != b.short_form {
            let (id, br) = if b.short_form {
                ("short-form-added", Readers)
            } else {
                ("short-form-removed", Documents)
            };
            self.push(
                found(
                    id,
                    &[br],
                    format!(
                        "bare tags for `{}` {}",
                        a.name,
                        if b.short_form { "accepted" } else { "refused" }
                    ),
                    table(),
                    table(),
                )
                .at(&hint),
            );
        }
        for v in &a.variants {
            let Some(w) = b.variants.iter().find(|w| w.tag_value == v.tag_value) else {
                self.push(
                    found(
                        "union-variant-removed",
                        &[Documents, RustApi],
                        format!("`{}` kind `{}` removed", a.name, v.tag_value),
                        Needle::row(Some(&a.name), &v.tag_value),
                        table(),
                    )
                    .at(&hint),
                );
                continue;
            };
            if v.rust_name != w.rust_name {
                self.push(found(
                    "union-variant-renamed",
                    &[RustApi],
                    format!(
                        "the Rust variant of `{}` kind `{}` is `{}`, was `{}`",
                        a.name, v.tag_value, w.rust_name, v.rust_name
                    ),
                    Needle::row(Some(&a.name), &v.tag_value),
                    Needle::row(Some(&b.name), &w.tag_value),
                ));
            }
            self.fields(&a.name, &prefix, &v.members, &w.members, false, false);
        }
        for w in &b.variants {
            if !a.variants.iter().any(|v| v.tag_value == w.tag_value) {
                self.push(
                    found(
                        "union-variant-added",
                        &[Readers],
                        format!("`{}` kind `{}` added", b.name, w.tag_value),
                        table(),
                        Needle::row(Some(&b.name), &w.tag_value),
                    )
                    .at(&hint),
                );
            }
        }
    }

    fn machines(&mut self) {
        let (o, n) = (self.old, self.new);
        for m in &o.machines {
            let Some(k) = n.machines.iter().find(|k| k.name == m.name) else {
                self.push(found(
                    "machine-removed",
                    &[Machines, RustApi],
                    format!("state machine `{}` removed", m.name),
                    Needle::table(&m.name),
                    Needle::Start,
                ));
                continue;
            };
            let used = self.path_of(&m.name);
            let hint = Hint {
                path: used.clone(),
                samples: m
                    .states
                    .iter()
                    .chain(&k.states)
                    .map(|s| json!(s.value))
                    .collect(),
                lengths: Vec::new(),
                anywhere: None,
            };
            if m.rust_name != k.rust_name {
                self.push(found(
                    "type-renamed",
                    &[RustApi],
                    format!(
                        "the Rust type of `{}` is `{}`, was `{}`",
                        m.name, k.rust_name, m.rust_name
                    ),
                    Needle::Toml(m.rust_name.clone()),
                    Needle::Toml(k.rust_name.clone()),
                ));
            }
            for s in &m.states {
                match k.states.iter().find(|t| t.value == s.value) {
                    None => self.push(
                        found(
                            "state-removed",
                            &[Machines, RustApi],
                            format!("`{}` state `{}` removed", m.name, s.value),
                            Needle::row(Some(&m.name), &s.value),
                            Needle::table(&k.name),
                        )
                        .at(&hint)
                        .also(Documents, used.is_some()),
                    ),
                    Some(t) => {
                        if t.variant != s.variant {
                            self.push(found(
                                "state-renamed",
                                &[RustApi],
                                format!(
                                    "the Rust variant of `{}` state `{}` is `{}`, was `{}`",
                                    m.name, s.value, t.variant, s.variant
                                ),
                                Needle::row(Some(&m.name), &s.value),
                                Needle::row(Some(&k.name), &t.value),
                            ));
                        }
                        if t.terminal && !s.terminal {
                            self.push(found(
                                "state-made-final",
                                &[Machines],
                                format!(
                                    "`{}` state `{}` is now final: no move leaves it",
                                    m.name, s.value
                                ),
                                Needle::row(Some(&m.name), &s.value),
                                Needle::row(Some(&k.name), &t.value),
                            ));
                        }
                    }
                }
            }
            for t in &k.states {
                if !m.states.iter().any(|s| s.value == t.value) {
                    self.push(
                        found(
                            "state-added",
                            &[],
                            format!("`{}` state `{}` added", k.name, t.value),
                            Needle::table(&m.name),
                            Needle::row(Some(&k.name), &t.value),
                        )
                        .at(&hint)
                        .also(Readers, used.is_some()),
                    );
                }
            }
            let moves = |m: &Machine| -> Vec<(String, String, Option<String>)> {
                m.transitions
                    .iter()
                    .map(|t| {
                        (
                            m.states[t.from].value.clone(),
                            m.states[t.to].value.clone(),
                            t.on.clone(),
                        )
                    })
                    .collect()
            };
            let (old_moves, new_moves) = (moves(m), moves(k));
            let words = |(from, to, on): &(String, String, Option<String>)| match on {
                Some(on) => format!("`{from}` → `{to}` on `{on}`"),
                None => format!("`{from}` → `{to}`"),
            };
            for mv in &old_moves {
                if !new_moves.contains(mv) {
                    self.push(found(
                        "transition-removed",
                        &[Machines],
                        format!("`{}` move {} removed", m.name, words(mv)),
                        Needle::text(&format!("| `{}` | `{}`", mv.0, mv.1)),
                        Needle::table(&k.name),
                    ));
                }
            }
            for mv in &new_moves {
                if !old_moves.contains(mv) {
                    self.push(found(
                        "transition-added",
                        &[],
                        format!("`{}` move {} added", k.name, words(mv)),
                        Needle::table(&m.name),
                        Needle::text(&format!("| `{}` | `{}`", mv.0, mv.1)),
                    ));
                }
            }
        }
        for k in &n.machines {
            if !o.machines.iter().any(|m| m.name == k.name) {
                self.push(found(
                    "machine-added",
                    &[],
                    format!("state machine `{}` added", k.name),
                    Needle::Start,
                    Needle::table(&k.name),
                ));
            }
        }
    }

    /// Cap constants whose row is gone, and text constants.
    fn constants(&mut self) {
        let (o, n) = (self.old, self.new);
        for c in &o.caps {
            if !n.caps.iter().any(|d| d.constant == c.constant)
                && !n.caps.iter().any(|d| d.binding == c.binding)
            {
                self.push(found(
                    "constant-removed",
                    &[RustApi],
                    format!("constant `{}` removed", c.constant),
                    Needle::text(&c.constant),
                    Needle::Start,
                ));
            }
        }
        for t in &o.texts {
            match n.texts.iter().find(|u| u.constant == t.constant) {
                Some(u) if u.value != t.value => self.push(found(
                    "text-constant-changed",
                    &[],
                    format!(
                        "constant `{}` is `{}`, was `{}`",
                        t.constant, u.value, t.value
                    ),
                    Needle::text(&t.constant),
                    Needle::text(&u.constant),
                )),
                Some(_) => {}
                None => match n.texts.iter().find(|u| {
                    u.value == t.value && !o.texts.iter().any(|x| x.constant == u.constant)
                }) {
                    Some(u) => self.push(found(
                        "constant-renamed",
                        &[RustApi],
                        format!("constant `{}` is now `{}`", t.constant, u.constant),
                        Needle::text(&t.constant),
                        Needle::text(&u.constant),
                    )),
                    None => self.push(found(
                        "constant-removed",
                        &[RustApi],
                        format!("constant `{}` removed", t.constant),
                        Needle::text(&t.constant),
                        Needle::Start,
                    )),
                },
            }
        }
    }

    /// Cross-field rules, by kind and path.
    fn rules(&mut self) {
        let (o, n) = (self.old, self.new);
        let key = |r: &Rule| (r.kind, r.path.clone());
        let old: BTreeSet<_> = o.rules.iter().map(key).collect();
        let new: BTreeSet<_> = n.rules.iter().map(key).collect();
        for (kind, path) in old.difference(&new) {
            if let Some(what) = rule_words(*kind) {
                let hint = Hint {
                    path: Some(path.replace("[]", "")).filter(|p| !p.is_empty()),
                    ..Hint::default()
                };
                self.push(
                    found(
                        "rule-removed",
                        &[Readers],
                        format!("{what} on `{path}` removed"),
                        Needle::Toml(path.clone()),
                        Needle::Start,
                    )
                    .at(&hint),
                );
            }
        }
        for (kind, path) in new.difference(&old) {
            if let Some(what) = rule_words(*kind) {
                let hint = Hint {
                    path: Some(path.replace("[]", "")).filter(|p| !p.is_empty()),
                    ..Hint::default()
                };
                self.push(
                    found(
                        "rule-added",
                        &[Documents],
                        format!("{what} on `{path}` added"),
                        Needle::Start,
                        Needle::Toml(path.clone()),
                    )
                    .at(&hint),
                );
            }
        }
    }

    /// Forbidden keys. Where the document has no free members (an open object, an `any`
    /// field) an unlisted key is refused anyway, with the parse code: a key added to or
    /// removed from the forbidden ones changes only the code it is refused with.
    fn forbidden(&mut self) {
        let (o, n) = (self.old, self.new);
        for (from, to, id, verdicts, now) in [
            (o, n, "forbidden-key-added", Documents, "now refused"),
            (n, o, "forbidden-key-removed", Readers, "no longer refused"),
        ] {
            for k in &to.forbidden_keys {
                if from.forbidden_keys.contains(k) {
                    continue;
                }
                // The side that accepts the key must have somewhere to hold it.
                let (breaks, hold) = if from.has_free_members() {
                    (verdicts, "")
                } else {
                    (
                        Codes,
                        ": the document has no free members, so only its code changes",
                    )
                };
                let (old_at, new_at) = if verdicts == Documents {
                    (Needle::Start, Needle::cell(k))
                } else {
                    (Needle::cell(k), Needle::Start)
                };
                let mut f = found(
                    id,
                    &[breaks],
                    format!("key `{k}` is {now} anywhere in the document{hold}"),
                    old_at,
                    new_at,
                );
                f.hint.anywhere = Some(k.clone());
                self.push(f);
            }
        }
    }

    /// Error codes: renamed (every use of one code now uses a new one), changed for one
    /// rule, removed, added; the error enum and its variants.
    fn codes(&mut self) {
        let (o, n) = (self.old, self.new);
        if o.errors.enum_name != n.errors.enum_name {
            self.push(found(
                "error-enum-renamed",
                &[RustApi],
                format!(
                    "the error enum is `{}`, was `{}`",
                    n.errors.enum_name, o.errors.enum_name
                ),
                Needle::Toml(o.errors.enum_name.clone()),
                Needle::Toml(n.errors.enum_name.clone()),
            ));
        }
        let (old_uses, new_uses) = (code_uses(o), code_uses(n));
        let old_table: BTreeSet<&str> = o.errors.codes.iter().map(|c| c.code.as_str()).collect();
        let new_table: BTreeSet<&str> = n.errors.codes.iter().map(|c| c.code.as_str()).collect();
        // (old code, new code) → the uses that moved.
        let mut moved: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
        for (usage, a) in &old_uses {
            if let Some(b) = new_uses.get(usage) {
                if a != b {
                    moved
                        .entry((a.as_str(), b.as_str()))
                        .or_default()
                        .push(usage);
                }
            }
        }
        let mut renamed = BTreeSet::new();
        for ((a, b), uses) in &moved {
            let whole = !new_table.contains(a)
                && !old_table.contains(b)
                && old_uses
                    .iter()
                    .filter(|(_, c)| c == a)
                    .all(|(u, _)| new_uses.get(u).map(String::as_str) == Some(*b));
            if whole {
                renamed.insert(*a);
                self.push(found(
                    "error-code-renamed",
                    &[Codes, RustApi],
                    format!("error code `{a}` is now `{b}`"),
                    Needle::cell(a),
                    Needle::cell(b),
                ));
            } else {
                for u in uses {
                    self.push(found(
                        "error-code-changed",
                        &[Codes],
                        format!("{u} is reported as `{b}`, was `{a}`"),
                        Needle::cell(a),
                        Needle::cell(b),
                    ));
                }
            }
        }
        for c in &o.errors.codes {
            match n.errors.codes.iter().find(|d| d.code == c.code) {
                None if !renamed.contains(c.code.as_str()) => self.push(found(
                    "error-code-removed",
                    &[Codes, RustApi],
                    format!("error code `{}` removed", c.code),
                    Needle::cell(&c.code),
                    Needle::Start,
                )),
                Some(d) if d.variant != c.variant => self.push(found(
                    "error-variant-renamed",
                    &[RustApi],
                    format!(
                        "the Rust variant of `{}` is `{}`, was `{}`",
                        c.code, d.variant, c.variant
                    ),
                    Needle::cell(&c.code),
                    Needle::cell(&d.code),
                )),
                _ => {}
            }
        }
        for d in &n.errors.codes {
            let was_renamed = moved
                .keys()
                .any(|(a, b)| *b == d.code && renamed.contains(a));
            if !old_table.contains(d.code.as_str()) && !was_renamed {
                self.push(found(
                    "error-code-added",
                    &[],
                    format!("error code `{}` added", d.code),
                    Needle::Start,
                    Needle::cell(&d.code),
                ));
            }
        }
    }
}

/// The Rust type of `f` is an `Option`.
fn rust_optional(f: &Field) -> bool {
    f.ty.nullable
        || f.read_optional()
        || (!f.required && f.default.is_none() && !f.ty.array && !f.absent_is_empty)
}

fn table_name(b: &Base) -> &str {
    match b {
        Base::Object(t) | Base::Enum(t) | Base::Union(t) | Base::Selected(t) => t,
        _ => "",
    }
}

fn cap_needle(c: Option<&CapUse>, table: &str) -> Needle {
    c.map_or_else(|| Needle::table(table), |c| Needle::text(&c.constant))
}

fn cap_or(c: Option<&CapUse>, row: &impl Fn() -> Needle) -> Needle {
    c.map_or_else(row, |c| Needle::text(&c.constant))
}

/// What a cross-field rule is called in messages; `None` for the kinds compared as caps.
/// Exhaustive: a new rule kind does not compile until it has a diff case.
fn rule_words(kind: RuleKind) -> Option<&'static str> {
    match kind {
        RuleKind::Unique => Some("a uniqueness rule ([[unique]])"),
        RuleKind::NotEqual => Some("a not-equal rule ([[not_equal]])"),
        RuleKind::Order => Some("an order rule ([[order]])"),
        RuleKind::Contradiction => Some("a contradiction rule ([[contradiction]])"),
        RuleKind::NotContains => Some("a not-contains rule ([[not_contains]])"),
        RuleKind::Digest => Some("a digest rule ([[digest]])"),
        // Compared as caps, with their numbers (cap-added, cap-tightened, ...).
        RuleKind::MaxItemsPerGroup | RuleKind::DocumentBytes => None,
    }
}

/// Every place a code is produced → the code: the parse and forbidden-key codes, each rule
/// kind's sidecar code, and each rule at each path.
fn code_uses(spec: &Spec) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    out.insert(
        "a document that is not the shape".to_owned(),
        spec.errors.parse.clone(),
    );
    out.insert(
        "a forbidden key".to_owned(),
        spec.errors.forbidden_key.clone(),
    );
    for (kind, code) in &spec.errors.rule_codes {
        out.insert(format!("rule `{kind}`"), code.clone());
    }
    for r in &spec.rules {
        out.insert(
            format!("the {} rule on `{}`", r.kind.as_str(), r.path),
            r.code.clone(),
        );
    }
    for t in &spec.types {
        if let TypeDef::Object(o) = t {
            if let Some(c) = &o.max_json_bytes {
                out.insert(format!("the byte cap of `{}`", o.name), c.code.clone());
            }
            for f in &o.fields {
                let r = &f.rules;
                let caps = [
                    ("max_chars", &r.max_chars),
                    ("max_items", &r.max_items),
                    ("min_chars", &r.min_chars),
                    ("min_items", &r.min_items),
                ];
                for (what, c) in caps {
                    if let Some(c) = c {
                        out.insert(
                            format!("the {what} rule on `{}.{}`", o.name, f.key),
                            c.code.clone(),
                        );
                    }
                }
                let coded = [
                    ("non_blank", &r.non_blank),
                    ("equals", &r.equals),
                    ("pattern", &r.pattern),
                    ("relative_path", &r.relative_path),
                    ("range", &r.range),
                    ("format", &r.format),
                    ("required", &r.required),
                ];
                for (what, c) in coded {
                    if let Some(c) = c {
                        out.insert(
                            format!("the {what} rule on `{}.{}`", o.name, f.key),
                            c.clone(),
                        );
                    }
                }
                if let Some(c) = &r.required_if {
                    out.insert(
                        format!("the required_if rule on `{}.{}`", o.name, f.key),
                        c.code.clone(),
                    );
                }
            }
        }
    }
    out
}
