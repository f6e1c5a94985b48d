//! The model comparison: every difference of two checked specs, as a [`Found`] with its rule
//! id and static categories. Prose (docs, meanings, titles, examples) is never compared.
//!
//! Matches over the model's kinds are exhaustive on purpose ([`RuleKind`], [`FieldRules`],
//! [`TypeDef`]): a new rule kind does not compile until it has a diff case here.

mod caps;
mod codes;
mod fields;
mod machines;
mod messages;
mod rules;
mod tables;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use super::locate::Needle;
use super::Break::{self, Codes, Documents, Machines, Readers, RustApi};
use crate::model::*;
use caps::around;

/// What the witness search needs to synthesize documents for one change.
#[derive(Debug, Clone, Default)]
pub(super) struct Hint {
    /// The member's spec path (`items[].name`; the search reads it as `items.name`);
    /// `None` at document level.
    pub path: Option<String>,
    /// Values to try at the path (enum spellings, typed samples of both sides).
    pub samples: Vec<Value>,
    /// Lengths and numbers to try (caps and minimums of both sides, each ±1).
    pub lengths: Vec<u64>,
    /// A key to add to every object of a document, at any depth (a forbidden key).
    pub anywhere: Option<String>,
    /// The codes of the changed rule on both sides: a witness proves this change only when
    /// its refusal reports nothing else, so that one edit's two changes on one member (a cap
    /// lowered and a pattern added) each get a document that flips for that change. Empty:
    /// any refusal concerning the path.
    pub codes: Vec<String>,
    /// Whether a byte cap reads the member (a field at its default is left out of the
    /// written form the cap measures): the synthesized documents are also padded up to
    /// where one side's cap stops accepting them.
    pub pad: bool,
}

impl Hint {
    /// This hint for a rule whose codes on the two sides are `codes`.
    fn coded<'c>(&self, codes: impl IntoIterator<Item = Option<&'c String>>) -> Hint {
        let mut h = self.clone();
        h.codes = codes.into_iter().flatten().cloned().collect();
        h.codes.dedup();
        h
    }
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
    /// For one rule's code changed (`error-code-changed`): the old and new code and the key
    /// of the field the rule is on (`None` for a rule not on one field), so a document
    /// refused with the old code by the old spec and with the new code by the new, at the
    /// same path, witnesses it.
    pub moved: Option<(String, String, Option<String>)>,
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
        moved: None,
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
    let (old, new) = (&aligned(old, new), &aligned(new, old));
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
    c.messages();
    c.out
}

/// `a`, with a copy of each shared table that `other` split for a path where `a` did not
/// (`buyer_address`, the table `address` as used at `buyer.address`): the same table at the
/// same path, under the name the other side gives it, so what differs at that path (a code,
/// a cap) is compared with what held there, not reported as a new type. The copy keeps
/// `a`'s Rust name: a Rust type that did change is still reported.
fn aligned(a: &Spec, other: &Spec) -> Spec {
    let mut a = a.clone();
    let mut copies: Vec<(&str, &str, &str)> = other
        .types
        .iter()
        .filter_map(|t| match t {
            TypeDef::Object(o) => {
                let (of, at) = o.copy_of.as_ref()?;
                Some((o.name.as_str(), of.as_str(), at.as_str()))
            }
            _ => None,
        })
        .collect();
    copies.sort_by_key(|(_, _, at)| at.matches('.').count());
    for (name, of, at) in copies {
        if a.type_def(name).is_some() {
            continue;
        }
        // The table and field that hold the use at `at` in `a`.
        let mut table = a.root.clone();
        let mut holder = None;
        for seg in at.split('.') {
            let key = seg.trim_end_matches("[]");
            let Some(TypeDef::Object(o)) = a.type_def(&table) else {
                holder = None;
                break;
            };
            let Some(fi) = o.fields.iter().position(|f| f.key == key) else {
                holder = None;
                break;
            };
            let Base::Object(next) = &o.fields[fi].ty.base else {
                holder = None;
                break;
            };
            holder = Some((table.clone(), fi));
            table = next.clone();
        }
        let (Some((parent, fi)), true) = (holder, table == of) else {
            continue;
        };
        let Some(at_of) = a.types.iter().position(|t| t.name() == of) else {
            continue;
        };
        let TypeDef::Object(mut copy) = a.types[at_of].clone() else {
            continue;
        };
        copy.name = name.to_owned();
        copy.copy_of = Some((of.to_owned(), at.to_owned()));
        a.types.insert(at_of + 1, TypeDef::Object(copy));
        if let Some(TypeDef::Object(p)) = a.types.iter_mut().find(|t| t.name() == parent) {
            p.fields[fi].ty.base = Base::Object(name.to_owned());
        }
    }
    a
}

struct Cmp<'a> {
    old: &'a Spec,
    new: &'a Spec,
    /// Table name → the spec paths where its values sit (`items[].tags`, a list's items at
    /// `[]`); the root at `""`.
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
            // The values of a list's table sit at `list[]`: paths are shown as the sidecar
            // writes them (`waypoints[].name`).
            let p = join(prefix, &f.key) + if f.ty.array { "[]" } else { "" };
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
                | Base::Decimal { .. }
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
        Base::Number => match ty.number_range {
            // The least value the bounds allow, or 1 within them.
            Some(r) => json!(r.min.unwrap_or(r.max.map_or(1.0, |m| m.min(1.0)))),
            None => json!(1),
        },
        Base::Decimal { .. } => decimal_json(decimal_sample(ty, 1)),
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
            codes: Vec::new(),
            pad: false,
        };
        self.cap(
            "input size limit",
            &hint,
            false,
            (o.max_input_bytes, Needle::Toml("max_input_bytes".into())),
            (n.max_input_bytes, Needle::Toml("max_input_bytes".into())),
        );
    }
}
