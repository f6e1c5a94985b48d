//! Split phase: a field table used at several paths whose path-specific overrides differ
//! (`[errors.paths]`, `[errors.rules]`, a cap row's path or `[caps.X] path` naming a field
//! through it) gets one copy per set of overrides, so every later phase, and every emitter,
//! sees distinct tables with no special casing.
//!
//! Each use of a table is the path that reaches it from the root together with the
//! overrides below that path, relative to it (its *signature*). Uses with one signature share
//! one table. A table with several signatures is split: the uses no override reaches keep
//! the table (so a union member, an `object by` case and every other use outside a path keep
//! it too); when every use has overrides, the first use in document order keeps it. Every
//! other signature gets a copy named after its first use's path, members joined by `_`, then
//! the table's name unless the last member is spelled so (`buyer.address` → `buyer_address`,
//! Rust `BuyerAddress`; `lines[].address` → `lines_address`; `buyer` of a `party` →
//! `buyer_party`), with `_2`, `_3`, ... appended while the name or its Rust name is taken.
//! A copy's members point at their own copies, so nested sharing splits all the way down.
//!
//! A table that contains itself is split as any other: a use is a table with the overrides
//! below it, and the overrides are finite, so the copies are too (`tree.children[].name`
//! gives `tree_node`, whose `children` are `tree_children_node`, whose `children` are the
//! plain `node` again). The root table keeps its name at the root (the document's type)
//! even when its uses inside itself are the ones no override reaches: those get a copy
//! (`children_node`), which union members and `object by` cases typed by the root then name.

use std::collections::{BTreeMap, BTreeSet};

use super::index::Kind;
use super::Checker;
use crate::loader::markdown::Table;
use crate::model::*;
use crate::names::{snake_case, upper_camel};

/// One path-specific override: its path's members and what it gives (`paths=CODE`,
/// `rules.KIND=CODE`, `cap=CONSTANT`).
struct Override {
    segs: Vec<String>,
    token: String,
}

/// The overrides below one use of a table: (path relative to the use, what it gives).
type Sig = BTreeSet<(Vec<String>, String)>;

/// One use of a table, as the walk from the root reaches it.
struct Use {
    obj: usize,
    sig: Sig,
    /// The path of the first use with this signature (`buyer.address`).
    path: String,
    /// (field, use of its table) for each field typed as a field table.
    edges: Vec<(usize, usize)>,
}

#[derive(Default)]
struct Walk {
    uses: Vec<Use>,
    seen: BTreeMap<(usize, Sig), usize>,
}

impl Checker<'_> {
    /// Gives every use of a shared table whose path-specific overrides differ its own copy.
    pub(super) fn split_shared(&mut self, caps: &[&Table], root: Option<usize>, errors_enum: &str) {
        let Some(root) = root else { return };
        let overrides = self.path_overrides(caps);
        if overrides.is_empty() {
            return;
        }
        let all: Sig = overrides
            .iter()
            .map(|o| (o.segs.clone(), o.token.clone()))
            .collect();
        let mut walk = Walk::default();
        self.walk(&mut walk, root, all, String::new());

        // Per table, its signatures in first-use order.
        let mut sigs: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (u, x) in walk.uses.iter().enumerate() {
            sigs.entry(x.obj).or_default().push(u);
        }
        sigs.retain(|_, uses| uses.len() > 1);
        if sigs.is_empty() {
            return;
        }
        // Each use's table after the split: the original or a copy.
        let mut final_obj: Vec<usize> = walk.uses.iter().map(|u| u.obj).collect();
        let mut taken = self.taken_names();
        taken.insert(errors_enum.to_owned());
        for (&obj, uses) in &sigs {
            // The root table keeps its name at the root (the document's type); any other
            // keeps it where no override reaches, else at its first use.
            let keeper = if obj == root {
                uses[0]
            } else {
                uses.iter()
                    .copied()
                    .find(|&u| walk.uses[u].sig.is_empty())
                    .unwrap_or(uses[0])
            };
            let original = self.index.objects[obj].name.clone();
            let at = self
                .index
                .order
                .iter()
                .position(|&(k, i)| k == Kind::Object && i == obj)
                .map_or(self.index.order.len(), |p| p + 1);
            let mut inserted = 0;
            for &u in uses {
                if u == keeper {
                    continue;
                }
                let name = fresh_name(&walk.uses[u].path, &original, &mut taken);
                let mut copy = self.index.objects[obj].clone();
                copy.name.clone_from(&name);
                copy.rust_name = upper_camel(&name);
                copy.copy_of = Some((original.clone(), walk.uses[u].path.clone()));
                copy.doc = format!(
                    "{}\n\nThe table `{original}` as used at `{}`, with that path's own codes and caps.",
                    copy.doc, walk.uses[u].path
                )
                .trim_start()
                .to_owned();
                for f in &copy.fields {
                    let from = (original.clone(), f.key.clone());
                    let to = (name.clone(), f.key.clone());
                    if let Some(p) = self.index.type_pos.get(&from).copied() {
                        self.index.type_pos.insert(to.clone(), p);
                    }
                    if self.index.poisoned.contains(&from) {
                        self.index.poisoned.insert(to);
                    }
                }
                let pending: Vec<_> = self
                    .pending_required_if
                    .iter()
                    .filter(|(t, _, _)| *t == original)
                    .map(|(_, k, p)| (name.clone(), k.clone(), *p))
                    .collect();
                self.pending_required_if.extend(pending);
                self.index.kinds.insert(name.clone(), Kind::Object);
                self.book.origin.insert(name, original.clone());
                let i = self.index.push_object(copy);
                self.index.order.insert(at + inserted, (Kind::Object, i));
                inserted += 1;
                final_obj[u] = i;
            }
        }
        // The root table used inside itself where no override reaches: a union member or an
        // `object by` case typed by it is such a use (paths stop there), so it names the
        // copy that holds no override.
        if let Some(plain) = sigs.get(&root).and_then(|uses| {
            uses.iter()
                .find(|&&u| walk.uses[u].sig.is_empty())
                .map(|&u| self.index.objects[final_obj[u]].name.clone())
        }) {
            let name = self.index.objects[root].name.clone();
            let retarget = |base: &mut Base| {
                if *base == Base::Object(name.clone()) {
                    *base = Base::Object(plain.clone());
                }
            };
            for m in self
                .index
                .unions
                .iter_mut()
                .flat_map(|u| u.variants.iter_mut().flat_map(|v| v.members.iter_mut()))
            {
                retarget(&mut m.ty.base);
            }
            for o in &mut self.index.objects {
                if let Some(sel) = &mut o.selector {
                    for t in sel.cases.iter_mut().flat_map(|c| c.tables.iter_mut()) {
                        if *t == name {
                            t.clone_from(&plain);
                        }
                    }
                }
            }
        }
        for (u, x) in walk.uses.iter().enumerate() {
            for &(fi, child) in &x.edges {
                let name = self.index.objects[final_obj[child]].name.clone();
                self.index.objects[final_obj[u]].fields[fi].ty.base = Base::Object(name);
            }
        }
    }

    /// Every path-specific override: `[errors.paths]`, `[errors.rules]`, and the path each
    /// cap row binds to (its `[caps.X] path`, else its Cap cell's).
    fn path_overrides(&self, caps: &[&Table]) -> Vec<Override> {
        let mut out = Vec::new();
        let mut add = |path: &str, token: String| {
            let segs: Vec<String> = path.split('.').map(|s| s.trim().to_owned()).collect();
            if segs.iter().all(|s| !s.is_empty()) {
                out.push(Override { segs, token });
            }
        };
        for (path, code) in &self.side.error_paths {
            let token = format!("paths={}", code.value);
            add(&path.value, token);
        }
        for (path, rule, code) in &self.side.error_rules {
            let token = format!("rules.{}={}", rule.value, code.value);
            add(&path.value, token);
        }
        for sc in &self.side.caps {
            if let Some(p) = &sc.path {
                let token = format!("cap={}", sc.constant.value);
                add(&p.value, token);
            }
        }
        for row in caps.iter().flat_map(|t| &t.rows) {
            let (Some(cap_cell), Some(const_cell)) = (row.cells.first(), row.cells.get(2)) else {
                continue;
            };
            let constant = const_cell.key();
            // A sidecar path binds the row instead; a document byte cap binds to no field.
            let bound_in_sidecar = self.side.caps.iter().any(|sc| {
                sc.constant.value == constant
                    && (sc.path.is_some()
                        || sc
                            .rule
                            .as_ref()
                            .is_some_and(|r| r.value == "document_bytes"))
            });
            if let (false, Some(code)) = (bound_in_sidecar, cap_cell.codes.first()) {
                add(code.text.trim(), format!("cap={constant}"));
            }
        }
        out
    }

    /// Visits the use of table `obj` whose overrides are `sig`, reached at `path`; returns
    /// its index in `walk` (one per table and signature).
    fn walk(&self, walk: &mut Walk, obj: usize, sig: Sig, path: String) -> usize {
        if let Some(&u) = walk.seen.get(&(obj, sig.clone())) {
            return u;
        }
        let u = walk.uses.len();
        walk.seen.insert((obj, sig.clone()), u);
        walk.uses.push(Use {
            obj,
            sig: sig.clone(),
            path: path.clone(),
            edges: Vec::new(),
        });
        let join = |seg: &str| match path.as_str() {
            "" => seg.to_owned(),
            p => format!("{p}.{seg}"),
        };
        for (fi, f) in self.index.objects[obj].fields.iter().enumerate() {
            let seg = if f.ty.array {
                format!("{}[]", f.key)
            } else {
                f.key.clone()
            };
            match &f.ty.base {
                Base::Object(n) => {
                    let Some(child) = self.index.object_index(n) else {
                        continue;
                    };
                    let below: Sig = sig
                        .iter()
                        .filter(|(segs, _)| segs.len() > 1 && segs[0] == seg)
                        .map(|(segs, t)| (segs[1..].to_vec(), t.clone()))
                        .collect();
                    let c = self.walk(walk, child, below, join(&seg));
                    walk.uses[u].edges.push((fi, c));
                }
                // Paths stop at a union and at an `object by` field: what they hold is
                // reached by no override.
                Base::Union(_) | Base::Selected(_) => {
                    for t in self.tables_inside(&f.ty.base, obj) {
                        if let Some(child) = self.index.object_index(&t) {
                            self.walk(walk, child, Sig::new(), join(&seg));
                        }
                    }
                }
                _ => {}
            }
        }
        u
    }

    /// The field tables a union (its members, through nested unions) or an `object by`
    /// field of object `obj` (its cases) holds.
    fn tables_inside(&self, base: &Base, obj: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut unions_seen = BTreeSet::new();
        let mut todo = vec![base.clone()];
        while let Some(b) = todo.pop() {
            match b {
                Base::Object(n) => out.push(n),
                Base::Union(n) => {
                    if !unions_seen.insert(n.clone()) {
                        continue;
                    }
                    if let Some(un) = self.index.unions.iter().find(|x| x.name == n) {
                        for m in un.variants.iter().flat_map(|v| &v.members) {
                            todo.push(m.ty.base.clone());
                        }
                    }
                }
                Base::Selected(_) => {
                    if let Some(sel) = &self.index.objects[obj].selector {
                        out.extend(sel.cases.iter().flat_map(|c| c.tables.iter().cloned()));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Every table name and Rust type name the spec uses: a copy's name takes none of them.
    fn taken_names(&self) -> BTreeSet<String> {
        let mut taken: BTreeSet<String> = self.index.kinds.keys().cloned().collect();
        taken.extend(self.index.kinds.keys().map(|k| self.index.rust_name_of(k)));
        taken.extend(self.index.objects.iter().map(|o| o.rust_name.clone()));
        taken.extend(self.index.enums.iter().map(|e| e.rust_name.clone()));
        taken.extend(self.index.state_enums.iter().map(|e| e.rust_name.clone()));
        taken.extend(self.index.unions.iter().map(|u| u.rust_name.clone()));
        taken.extend(self.index.rust_names.values().cloned());
        taken
    }
}

/// The name of a copy of `table` first used at `path`: its members in snake_case joined by
/// `_`, then the table's name unless the last member is spelled so, with
/// `_2`, `_3`, ... appended while it or its Rust name is taken; recorded as taken.
fn fresh_name(path: &str, table: &str, taken: &mut BTreeSet<String>) -> String {
    let mut segs: Vec<String> = path
        .split('.')
        .map(|s| snake_case(s.trim_end_matches("[]")))
        .filter(|s| !s.is_empty())
        .collect();
    if segs.last().map(String::as_str) != Some(table) {
        segs.push(table.to_owned());
    }
    let base = segs.join("_");
    let free =
        |n: &str, taken: &BTreeSet<String>| !taken.contains(n) && !taken.contains(&upper_camel(n));
    let mut name = base.clone();
    let mut k = 2;
    while !free(&name, taken) {
        name = format!("{base}_{k}");
        k += 1;
    }
    taken.insert(name.clone());
    taken.insert(upper_camel(&name));
    name
}
