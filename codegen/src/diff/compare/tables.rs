//! Tables as a whole: added, removed, renamed, of another kind; enum values and union
//! variants.

use super::*;
use crate::diff::Break::Machines;

impl Cmp<'_> {
    pub(super) fn types(&mut self) {
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
            let copy_of = |t: &TypeDef| match t {
                TypeDef::Object(o) => o.copy_of.clone(),
                _ => None,
            };
            if let (true, Some((of, at))) = (
                ot.rust_name() != nt.rust_name(),
                copy_of(nt).or_else(|| copy_of(ot)),
            ) {
                // A copy of a shared table made on one side only: the Rust type at that
                // path is the copy's, where the other side has the shared table's.
                self.push(found(
                    "type-renamed",
                    &[RustApi],
                    format!(
                        "the Rust type at `{at}` (table `{}`, `{of}` with that path's own codes or caps) is `{}`, was `{}`",
                        nt.name(),
                        nt.rust_name(),
                        ot.rust_name(),
                    ),
                    Needle::table(&of),
                    Needle::table(&of),
                ));
            } else if ot.rust_name() != nt.rust_name() {
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

    pub(super) fn enumeration(&mut self, a: &Enum, b: &Enum) {
        let path = self.path_of(&a.name);
        let hint = Hint {
            path: path.clone(),
            samples: a
                .values
                .iter()
                .chain(&b.values)
                .map(|v| json!(v.value))
                .collect(),
            lengths: Vec::new(),
            anywhere: None,
            codes: Vec::new(),
            pad: false,
        };
        // An enum no document holds (the events of a machine's On column, or unused): its
        // values change no verdict; as events they change what the machines accept.
        let events: Vec<&str> = [self.old, self.new]
            .into_iter()
            .flat_map(|s| &s.machines)
            .filter(|m| m.on.as_deref() == Some(a.name.as_str()))
            .map(|m| m.name.as_str())
            .collect();
        let held = path.is_some();
        let unheld = match (held, events.first()) {
            (true, _) => String::new(),
            (false, Some(m)) => format!(
                " (an event of `{m}`'s transitions: no document holds a `{}`)",
                a.name
            ),
            (false, None) => format!(" (no document holds a `{}`)", a.name),
        };
        let event = !held && !events.is_empty();
        for v in &a.values {
            match b.values.iter().find(|w| w.value == v.value) {
                None => self.push(
                    found(
                        "enum-value-removed",
                        &[RustApi],
                        format!("`{}` value `{}` removed{unheld}", a.name, v.value),
                        Needle::row(Some(&a.name), &v.value),
                        Needle::table(&b.name),
                    )
                    .at(&hint)
                    .also(Documents, held)
                    .also(Machines, event),
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
                        &[],
                        format!("`{}` value `{}` added{unheld}", b.name, w.value),
                        Needle::table(&a.name),
                        Needle::row(Some(&b.name), &w.value),
                    )
                    .at(&hint)
                    .also(Readers, held)
                    .also(Machines, event),
                );
            }
        }
    }

    pub(super) fn union(&mut self, a: &Union, b: &Union) {
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
            codes: Vec::new(),
            pad: false,
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
}
