//! Field tables: a table's openness, byte cap and selector, its rows added and removed, and
//! each row's requirement, type, type constraints, default and field rules.

use super::caps::{around, cap_needle, cap_or, numbers};
use super::*;
use crate::check::{decimal_name, type_words};

impl Cmp<'_> {
    pub(super) fn object(&mut self, a: &Object, b: &Object) {
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
            false,
            (doc_bytes(a), cap_needle(a.max_json_bytes.as_ref(), &a.name)),
            (doc_bytes(b), cap_needle(b.max_json_bytes.as_ref(), &b.name)),
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
    pub(super) fn fields(
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
                codes: Vec::new(),
                pad: false,
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

    pub(super) fn field(&mut self, table: &str, path: &str, f: &Field, g: &Field) {
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
            codes: Vec::new(),
            pad: false,
        };
        let push = in_row(&hint, &row);
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
            let coded = hint.coded([f.rules.required.as_ref(), g.rules.required.as_ref()]);
            in_row(&coded, &row)(
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
                // Tables are compared as tables; a field keeps its type while its table does
                // (a copy of a shared table for one path, while the table it copies does).
                let name = match spec.type_def(table_name(&t.base)) {
                    Some(TypeDef::Object(o)) => {
                        o.copy_of.as_ref().map_or(o.name.as_str(), |c| &c.0)
                    }
                    _ => table_name(&t.base),
                };
                format!("{:?}", std::mem::discriminant(&t.base))
                    + spec.rust_name_of(name).unwrap_or_default()
            }
            // Its scale, precision and bounds are compared as constraints.
            Base::Decimal { .. } => "decimal".to_owned(),
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
                    format!(
                        "the type of `{path}` is {}, was {}",
                        type_words(b),
                        type_words(a)
                    ),
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
        self.type_constraints(path, &hint, (a, &f.rules), (b, &g.rules), row);
        if f.default != g.default {
            self.default_changed(table, path, &hint, f, g);
        }
        self.rules_of(path, &hint, &f.rules, &g.rules, row);
    }

    /// Changes to what a field's type admits besides its base: null, a literal, a pattern,
    /// a relative path, integer bounds, a format.
    pub(super) fn type_constraints(
        &mut self,
        path: &str,
        hint: &Hint,
        (a, ra): (&TypeRef, &FieldRules),
        (b, rb): (&TypeRef, &FieldRules),
        row: impl Fn() -> Needle,
    ) {
        let push = in_row(hint, &row);
        // Each rule's change is proved by a refusal with that rule's code.
        let of = |code: fn(&FieldRules) -> &Option<String>| {
            hint.coded([code(ra).as_ref(), code(rb).as_ref()])
        };
        let literal_hint = of(|r| &r.equals);
        let pattern_hint = of(|r| &r.pattern);
        let relative_hint = of(|r| &r.relative_path);
        let (literal, pattern, relative) = (
            in_row(&literal_hint, &row),
            in_row(&pattern_hint, &row),
            in_row(&relative_hint, &row),
        );
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
            literal(
                self,
                "literal-changed",
                &[Documents, Readers],
                format!(
                    "the value `{path}` must equal is {}, was {}",
                    literal_words(&b.literal),
                    literal_words(&a.literal)
                ),
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
                .at(&pattern_hint)
                .undirected([
                    "pattern-narrowed",
                    "pattern-widened",
                    "pattern-changed",
                ]),
            ),
            (None, Some(y)) => pattern(
                self,
                "pattern-added",
                &[Documents],
                format!("`{path}` must now match `{y}`"),
            ),
            (Some(x), None) => pattern(
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
            relative(
                self,
                id,
                &[br],
                format!(
                    "`{path}` relative-path rule {}",
                    if b.relative_path { "added" } else { "removed" }
                ),
            );
        }
        self.bounds_changed(path, &of(|r| &r.range), a, b, &row);
        self.decimal_bounds_changed(path, &of(|r| &r.range), a, b, &row);
        self.scale_changed(path, &of(|r| &r.scale), a, b, &row);
        self.format_changed(path, &of(|r| &r.format), a, b, &row);
    }

    /// A decimal's scale or precision narrowed, widened or changed.
    fn scale_changed(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &TypeRef,
        b: &TypeRef,
        row: impl Fn() -> Needle,
    ) {
        let (
            Base::Decimal {
                scale: s1,
                precision: p1,
            },
            Base::Decimal {
                scale: s2,
                precision: p2,
            },
        ) = (&a.base, &b.base)
        else {
            return;
        };
        if (s1, p1) == (s2, p2) {
            return;
        }
        // What each admits: at most `s` fraction digits and `p − s` integer digits.
        let ints = |s: &u32, p: &Option<u32>| p.map(|p| p - s);
        let within = |s: &u32, p: &Option<u32>, outer_s: &u32, outer_p: &Option<u32>| {
            s <= outer_s
                && match (ints(s, p), ints(outer_s, outer_p)) {
                    (_, None) => true,
                    (None, Some(_)) => false,
                    (Some(i), Some(o)) => i <= o,
                }
        };
        let (id, br) = direction(
            within(s2, p2, s1, p1),
            within(s1, p1, s2, p2),
            ["scale-narrowed", "scale-widened", "scale-changed"],
        );
        in_row(hint, &row)(
            self,
            id,
            br,
            format!(
                "the type of `{path}` is {}, was {}",
                decimal_name(*s2, *p2),
                decimal_name(*s1, *p1)
            ),
        );
    }

    /// A decimal's bounds added, removed, narrowed, widened or changed.
    fn decimal_bounds_changed(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &TypeRef,
        b: &TypeRef,
        row: impl Fn() -> Needle,
    ) {
        // `inner`'s end is at least as tight as `outer`'s (`lower`: from below).
        let tighter = |inner: Option<DecimalBound>, outer: Option<DecimalBound>, lower: bool| match (
            inner, outer,
        ) {
            (_, None) => true,
            (None, Some(_)) => false,
            (Some(i), Some(o)) => {
                let beyond = if lower {
                    i.value > o.value
                } else {
                    i.value < o.value
                };
                beyond || (i.value == o.value && (i.excluded || !o.excluded))
            }
        };
        range_change(
            &mut in_row(hint, &row),
            self,
            path,
            (a.decimal_range.as_ref(), b.decimal_range.as_ref()),
            |inner, outer| {
                tighter(inner.min, outer.min, true) && tighter(inner.max, outer.max, false)
            },
            |r| format!("`{}`", r.word()),
        );
    }

    /// A field's integer or number bounds added, removed, narrowed, widened or changed.
    fn bounds_changed(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &TypeRef,
        b: &TypeRef,
        row: impl Fn() -> Needle,
    ) {
        range_change(
            &mut in_row(hint, &row),
            self,
            path,
            (ends(a).as_ref(), ends(b).as_ref()),
            |inner, outer| {
                inner
                    .0
                    .map_or(outer.0.is_none(), |m| outer.0.is_none_or(|o| o.le(m)))
                    && inner
                        .1
                        .map_or(outer.1.is_none(), |m| outer.1.is_none_or(|o| m.le(o)))
            },
            |r| range_words(Some(*r)),
        );
    }

    /// A field's format (`date-time`, `uri`, ...) added, removed or changed.
    fn format_changed(
        &mut self,
        path: &str,
        hint: &Hint,
        a: &TypeRef,
        b: &TypeRef,
        row: impl Fn() -> Needle,
    ) {
        let push = in_row(hint, &row);
        match (a.format, b.format) {
            (x, y) if x == y => {}
            (None, Some(y)) => push(
                self,
                "format-added",
                &[Documents],
                format!("`{path}` now has the format `{}`", y.name()),
            ),
            (Some(x), None) => push(
                self,
                "format-removed",
                &[Readers],
                format!("`{path}` no longer has the format `{}`", x.name()),
            ),
            (Some(x), Some(y)) => self.push(
                found(
                    "format-changed",
                    &[Documents, Readers],
                    format!(
                        "the format of `{path}` is `{}`, was `{}`",
                        y.name(),
                        x.name()
                    ),
                    row(),
                    row(),
                )
                .at(hint)
                .undirected(["format-changed"; 3]),
            ),
            (None, None) => {}
        }
    }

    pub(super) fn rules_of(
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
            // Cross-field rules: compared as rules (`rules.rs`: what they are, their
            // parameters, their code).
            unique_by: _,
            contradiction: _,
            unique: _,
            // The literal, pattern, relative path, range and format are the Type cell's
            // (compared there); their codes are compared with every other code.
            equals: _,
            pattern: _,
            relative_path: _,
            range: _,
            scale: _,
            format: _,
            // Compared with the requirement above.
            required: _,
            required_if,
            // A code only: compared with every other code (`codes.rs`, the use "a value
            // outside the enum of `t.f`").
            enum_code: _,
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
                .at(&hint.coded([non_blank.as_ref(), b.non_blank.as_ref()])),
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
                &hint.coded([x.as_ref().map(|c| &c.code), y.as_ref().map(|c| &c.code)]),
                minimum,
                (x.as_ref().map(|c| c.value), cap_or(x.as_ref(), &row)),
                (y.as_ref().map(|c| c.value), cap_or(y.as_ref(), &row)),
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
                &hint.coded([x.map(|c| &c.code), y.map(|c| &c.code)]),
                false,
                (x.map(|c| c.value), cap_or(x, &row)),
                (y.map(|c| c.value), cap_or(y, &row)),
            );
            self.constant_use(x, y);
        }
        let cond = |r: &Option<RequiredIf>| r.as_ref().map(|r| r.condition.clone());
        let words = |c: Condition| {
            if c.negated {
                let mut c = c;
                c.negated = false;
                format!("unless {}", c.describe())
            } else {
                format!("if {}", c.describe())
            }
        };
        match (cond(required_if), cond(&b.required_if)) {
            (x, y) if x == y => {}
            // The same path read the same way with other values: the requirement holds for
            // more documents (a wider set, or a narrower one under `unless`) or for fewer.
            (Some(x), Some(y))
                if (x.path.as_str(), x.quantifier, x.negated)
                    == (y.path.as_str(), y.quantifier, y.negated)
                    && x.quantifier != Quantifier::Every
                    && (x.when.iter().all(|v| y.when.contains(v))
                        || y.when.iter().all(|v| x.when.contains(v))) =>
            {
                let wider = x.when.iter().all(|v| y.when.contains(v));
                let more = wider != x.negated;
                let (kind, who) = if more {
                    ("required-if-widened", Documents)
                } else {
                    ("required-if-narrowed", Readers)
                };
                self.push(
                    found(
                        kind,
                        &[who],
                        format!("`{path}` is required {}, was {}", words(y), words(x)),
                        row(),
                        row(),
                    )
                    .at(hint),
                );
            }
            (None, Some(y)) => self.push(
                found(
                    "required-if-added",
                    &[Documents],
                    format!("`{path}` is now required {}", words(y)),
                    row(),
                    row(),
                )
                .at(hint),
            ),
            (Some(x), None) => self.push(
                found(
                    "required-if-removed",
                    &[Readers],
                    format!("`{path}` is no longer required {}", words(x)),
                    row(),
                    row(),
                )
                .at(hint),
            ),
            (Some(x), Some(y)) => self.push(
                found(
                    "required-if-changed",
                    &[Documents, Readers],
                    format!("`{path}` is required {}, was {}", words(y), words(x)),
                    row(),
                    row(),
                )
                .at(hint)
                .undirected(["required-if-changed"; 3]),
            ),
            (None, None) => {}
        }
    }
}

impl Cmp<'_> {
    /// A stated default changed. What an absent key means matters to a verdict only where
    /// something reads the value: a byte cap (the written form leaves a field at its default
    /// out), a cross-field rule naming the field (an absent field with a default is compared
    /// as that default), a sibling's condition. Then the witness search decides the direction
    /// (a document stating the old default at a byte cap); otherwise no verdict can flip.
    fn default_changed(&mut self, table: &str, path: &str, hint: &Hint, f: &Field, g: &Field) {
        let words = |f: &Field| {
            f.default_json()
                .map_or("none".to_owned(), |v| v.to_string())
        };
        let message = format!(
            "what an absent `{path}` means is {}, was {}",
            words(g),
            words(f)
        );
        let readers: Vec<String> = [self.old, self.new]
            .into_iter()
            .flat_map(|spec| reads_absent(spec, table, &f.key))
            .collect();
        let row = Needle::row(Some(table), &f.key);
        if readers.is_empty() {
            self.push(
                found(
                    "default-changed",
                    &[],
                    format!("{message} (no verdict changes: nothing reads an absent `{path}`, no byte cap, rule or condition)"),
                    row.clone(),
                    row,
                )
                .at(hint),
            );
            return;
        }
        let mut hint = hint.clone();
        hint.samples
            .extend(f.default_json().into_iter().chain(g.default_json()));
        hint.pad = [self.old, self.new]
            .iter()
            .any(|spec| spec.root_object().max_json_bytes.is_some());
        self.push(
            found(
                "default-changed",
                &[Documents, Readers],
                format!("{message}, read by {}", readers[0]),
                row.clone(),
                row,
            )
            .at(&hint)
            .undirected(["default-changed"; 3]),
        );
    }
}

/// What in `spec` reads the value of an absent member `key` of `table`: a byte cap, a
/// cross-field rule naming it, a sibling's `required_if` condition on it.
/// How a field's comparisons record a change: found on the field's row in both versions,
/// its witness searched with `hint`.
/// A field's bounds (of either kind) added, removed, narrowed, widened or changed: `within`
/// says whether the first bounds admit no more than the second, `words` shows them.
fn range_change<R: PartialEq>(
    push: &mut impl FnMut(&mut Cmp<'_>, &'static str, &[Break], String),
    c: &mut Cmp<'_>,
    path: &str,
    (x, y): (Option<&R>, Option<&R>),
    within: impl Fn(&R, &R) -> bool,
    words: impl Fn(&R) -> String,
) {
    match (x, y) {
        (x, y) if x == y => {}
        (None, Some(y)) => push(
            c,
            "range-added",
            &[Documents],
            format!("`{path}` now has bounds {}", words(y)),
        ),
        (Some(x), None) => push(
            c,
            "range-removed",
            &[Readers],
            format!("`{path}` no longer has bounds {}", words(x)),
        ),
        (Some(x), Some(y)) => {
            let (id, br) = direction(
                within(y, x),
                within(x, y),
                ["range-narrowed", "range-widened", "range-changed"],
            );
            push(
                c,
                id,
                br,
                format!("the bounds of `{path}` are {}, were {}", words(y), words(x)),
            );
        }
        (None, None) => {}
    }
}

fn in_row<'h>(
    hint: &'h Hint,
    row: &'h impl Fn() -> Needle,
) -> impl Fn(&mut Cmp<'_>, &'static str, &[Break], String) + 'h {
    move |c, id, breaks, message| c.push(found(id, breaks, message, row(), row()).at(hint))
}

fn reads_absent(spec: &Spec, table: &str, key: &str) -> Vec<String> {
    let mut out = Vec::new();
    for t in &spec.types {
        if let TypeDef::Object(o) = t {
            if let Some(c) = &o.max_json_bytes {
                out.push(format!("the byte cap of `{}` ({})", o.name, c.value));
            }
            if o.name == table {
                for sib in &o.fields {
                    if sib.rules.required_if.as_ref().is_some_and(|r| {
                        r.condition
                            .steps
                            .first()
                            .is_some_and(|s| s.member.key == key)
                    }) {
                        out.push(format!("the condition of `{}`", sib.key));
                    }
                }
            }
        }
    }
    let paths = usages(spec);
    for e in super::rules::entries(spec, &paths) {
        if e.names(table, key) {
            out.push(e.words());
        }
    }
    out
}

/// A literal in a message: `"0.1"`, or `none`.
fn literal_words(l: &Option<String>) -> String {
    l.as_ref().map_or("none".to_owned(), |l| {
        serde_json::Value::from(l.as_str()).to_string()
    })
}

/// Integer bounds as the Type cell writes them: `1..=10`, `0..`, `..=100`; `none`.
/// One end of a range as the diff compares it: an integer type's or a `number`'s.
#[derive(Clone, Copy, PartialEq)]
enum End {
    Int(i128),
    Decimal(f64),
}

impl End {
    /// `self <= other`, exactly between two integers.
    fn le(self, other: End) -> bool {
        match (self, other) {
            (End::Int(a), End::Int(b)) => a <= b,
            _ => self.as_f64() <= other.as_f64(),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            End::Int(n) => n as f64,
            End::Decimal(n) => n,
        }
    }
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            End::Int(n) => write!(f, "{n}"),
            End::Decimal(n) => f.write_str(&specmint_runtime::rules::number_text(*n)),
        }
    }
}

/// A range's lower and upper end (`None`: open).
type Ends = (Option<End>, Option<End>);

/// The bounds of a Type cell: its integer range or its `number` range.
fn ends(t: &TypeRef) -> Option<Ends> {
    match (t.range, t.number_range) {
        (Some(r), _) => Some((r.min.map(End::Int), r.max.map(End::Int))),
        (None, Some(r)) => Some((r.min.map(End::Decimal), r.max.map(End::Decimal))),
        (None, None) => None,
    }
}

fn range_words(r: Option<Ends>) -> String {
    match r {
        None => "none".to_owned(),
        Some((min, max)) => format!(
            "{}..{}",
            min.map(|m| m.to_string()).unwrap_or_default(),
            max.map(|m| format!("={m}")).unwrap_or_default()
        ),
    }
}

/// The Rust type of `f` is an `Option`.
pub(super) fn rust_optional(f: &Field) -> bool {
    f.ty.nullable
        || f.read_optional()
        || (!f.required && f.default.is_none() && !f.ty.array && !f.absent_is_empty)
}

pub(super) fn table_name(b: &Base) -> &str {
    match b {
        Base::Object(t) | Base::Enum(t) | Base::Union(t) | Base::Selected(t) => t,
        _ => "",
    }
}

/// Which way a bound or limit moved: `narrowed` (the new one admits less: documents break),
/// `widened` (more: readers break), or neither (both); `ids` names the three.
fn direction(
    narrowed: bool,
    widened: bool,
    ids: [&'static str; 3],
) -> (&'static str, &'static [Break]) {
    if narrowed {
        (ids[0], &[Documents])
    } else if widened {
        (ids[1], &[Readers])
    } else {
        (ids[2], &[Documents, Readers])
    }
}
