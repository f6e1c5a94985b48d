//! Cross-field rules phase: the sidecar's `[[unique]]`, `[[not_equal]]`, `[[order]]`,
//! `[[contradiction]]`, `[[not_contains]]` and `[[digest]]`, each bound to the object or
//! field its path names.

use super::Checker;
use crate::diag::{File, Pos};
use crate::loader::sidecar::{SideDigest, SideUnique, Spanned};
use crate::model::*;

impl Checker<'_> {
    /// A key the rule must have; reports it missing.
    pub(super) fn required<'s>(
        &mut self,
        v: &'s Option<Spanned<String>>,
        pos: Pos,
        what: &str,
        key: &str,
    ) -> Option<&'s Spanned<String>> {
        if v.is_none() {
            self.ctx.toml(
                pos,
                format!("{what} has no `{key}`"),
                format!("add `{key} = \"...\"`"),
            );
        }
        v.as_ref()
    }

    /// The rule's own `code`, which it must have.
    pub(super) fn rule_code(
        &mut self,
        code: &Option<Spanned<String>>,
        pos: Pos,
        what: &str,
    ) -> Option<String> {
        let c = self.required(code, pos, what, "code")?.clone();
        self.book.use_code(&mut self.ctx, &c);
        Some(c.value)
    }

    /// The field `name` of object `obj`; reports one it does not have.
    pub(super) fn member(&mut self, obj: usize, name: &Spanned<String>) -> Option<Field> {
        let o = &self.index.objects[obj];
        match o.fields.iter().find(|f| f.key == name.value) {
            Some(f) => Some(f.clone()),
            None if self.index.is_poisoned(&o.name, &name.value) => None,
            None => {
                self.ctx.toml(
                    name.pos,
                    format!("`{}` is no field of `{}`", name.value, o.name),
                    format!("fields: {}", self.index.member_list(obj)),
                );
                None
            }
        }
    }

    /// Whether object `obj` already has a rule `kind` (`has`); reports this second one at
    /// `pos`: the derive takes one struct rule of each kind.
    fn second_rule(
        &mut self,
        obj: usize,
        pos: Pos,
        kind: &str,
        has: impl Fn(&Object) -> bool,
    ) -> bool {
        let o = &self.index.objects[obj];
        if !has(o) {
            return false;
        }
        let name = o.name.clone();
        self.ctx.toml(
            pos,
            format!("a second [[{kind}]] on `{name}`"),
            format!("one `{kind}` per object: the derive takes one struct rule of each kind"),
        );
        true
    }

    /// Declares a rule of `kind` at `path` with `code`.
    pub(super) fn declare(&mut self, kind: RuleKind, path: String, code: String) {
        self.rules.push(Rule { kind, path, code });
    }

    pub(super) fn unique_rules(&mut self, root: Option<usize>) {
        for u in std::mem::take(&mut self.side.unique) {
            let what = "[[unique]]";
            let code = self.rule_code(&u.code, u.pos, what);
            let path = self.required(&u.path, u.pos, what, "path").cloned();
            let (Some(root), Some(path), Some(code)) = (root, path, code) else {
                continue;
            };
            let done = match u.key_at {
                None => self.unique_items(root, &u, &path, &code),
                // A `key` that is no string was reported by the loader.
                Some((_, false)) if u.key.is_empty() => None,
                Some((pos, _)) if u.key.is_empty() => {
                    self.ctx.toml(
                        pos,
                        "`key` in [[unique]] lists no member",
                        "write `key = \"member\"` or `key = [\"a\", \"b\"]`: items are duplicates when every key member is equal",
                    );
                    None
                }
                Some(_) => self.unique_by(root, &u, &path, &code),
            };
            if done.is_some() {
                self.declare(RuleKind::Unique, path.value, code);
            }
        }
    }

    /// `[[unique]]` without `key`: the items themselves, a list of text or of enum values
    /// (compared as spelled: no folds).
    fn unique_items(
        &mut self,
        root: usize,
        u: &SideUnique,
        path: &Spanned<String>,
        code: &str,
    ) -> Option<()> {
        let t = self.resolve_at(root, path, File::Toml)?;
        let f = &self.index.objects[t.obj].fields[t.field];
        let is_enum = matches!(f.ty.base, Base::Enum(_));
        if t.elems || !f.ty.array || !(f.ty.base == Base::String || is_enum) {
            self.ctx.toml(
                path.pos,
                format!("`{}` is not a list of text", path.value),
                "without `key`, [[unique]] compares the items of a `string[]` or enum list; with `key`, a member of an array of objects",
            );
            return None;
        }
        if is_enum && (u.ignore_case || u.trim) {
            self.ctx.toml(
                path.pos,
                format!(
                    "`{}` is a list of enum values, compared as spelled",
                    path.value
                ),
                "remove `ignore_case` and `trim`: an enum value has one spelling",
            );
            return None;
        }
        self.index.objects[t.obj].fields[t.field].rules.unique = Some(UniqueItems {
            ignore_case: u.ignore_case,
            trim: u.trim,
            code: code.to_owned(),
        });
        Some(())
    }

    /// `[[unique]]` with `key`: one member or several of the items of an array of objects.
    /// One text member is the single form (`unique_by(key = m)`); anything else (several
    /// members, or one enum, integer, number or `bool` member) the compound form.
    fn unique_by(
        &mut self,
        root: usize,
        u: &SideUnique,
        path: &Spanned<String>,
        code: &str,
    ) -> Option<()> {
        let (obj, fi) = self.array_of_objects(root, path, File::Toml)?;
        let elem = self.index.elem_object(obj, fi)?;
        let mut keys = Vec::new();
        let mut bad = false;
        for (i, key) in u.key.iter().enumerate() {
            if u.key[..i].iter().any(|k| k.value == key.value) {
                self.ctx.toml(
                    key.pos,
                    format!("`{}` is listed twice in `key`", key.value),
                    "name each key member once",
                );
                bad = true;
                continue;
            }
            let Some(kf) = self.member(elem, key) else {
                bad = true;
                continue;
            };
            let scalar = matches!(
                kf.ty.base,
                Base::String
                    | Base::Enum(_)
                    | Base::Bool
                    | Base::U32
                    | Base::U64
                    | Base::I32
                    | Base::I64
                    | Base::Number
            );
            if kf.ty.array || !scalar {
                self.ctx.toml(
                    key.pos,
                    format!("unique key `{}` is not a single value", key.value),
                    "a key member is text, an enum value, an integer, a number or a bool (not a list, object, union or `any`)",
                );
                bad = true;
                continue;
            }
            keys.push((kf.member(), kf.ty.base == Base::String));
        }
        if bad {
            return None;
        }
        let compound = !(keys.len() == 1 && keys[0].1);
        if (u.ignore_case || u.trim) && !keys.iter().any(|k| k.1) {
            self.ctx.toml(
                u.key_at.map_or(u.pos, |k| k.0),
                "no member of this key is text",
                "remove `ignore_case` and `trim`: they apply to text members only (enum values, numbers and bools are compared as they are)",
            );
            return None;
        }
        let keys: Vec<Member> = keys.into_iter().map(|(m, _)| m).collect();
        self.index.objects[obj].fields[fi]
            .rules
            .unique_by
            .push(UniqueBy {
                key: keys[0].clone(),
                keys,
                compound,
                ignore_case: u.ignore_case,
                trim: u.trim,
                code: code.to_owned(),
            });
        Some(())
    }

    pub(super) fn not_equal_rules(&mut self, root: Option<usize>) {
        for n in std::mem::take(&mut self.side.not_equal) {
            let what = "[[not_equal]]";
            let code = self.rule_code(&n.code, n.pos, what);
            let a = self.required(&n.a, n.pos, what, "a").cloned();
            let b = self.required(&n.b, n.pos, what, "b").cloned();
            let (Some(root), Some(a), Some(b), Some(code)) = (root, a, b, code) else {
                continue;
            };
            let Some(obj) = self.object_at(root, &n.path) else {
                continue;
            };
            let (Some(fa), Some(fb)) = (self.member(obj, &a), self.member(obj, &b)) else {
                continue;
            };
            if fa.ty != fb.ty {
                self.ctx.toml(
                    b.pos,
                    format!("`{}` and `{}` have different types", a.value, b.value),
                    "not_equal compares two fields of one type",
                );
                continue;
            }
            let plain = !fa.ty.array && !fa.ty.nullable;
            let shown = matches!(
                fa.ty.base,
                Base::String
                    | Base::Bool
                    | Base::U32
                    | Base::U64
                    | Base::I32
                    | Base::I64
                    | Base::Number
                    | Base::Enum(_)
            );
            if !(plain && shown) {
                self.ctx.toml(
                    a.pos,
                    format!(
                        "`{}` and `{}` are not plain text, number, bool or enum fields",
                        a.value, b.value
                    ),
                    "not_equal compares two fields of one text, number, bool or enum type, not a list, `T?`, `any`, table or union: its message shows the value, and two absent fields would count as equal",
                );
                continue;
            }
            if self.second_rule(obj, n.pos, "not_equal", |o| !o.not_equal.is_empty()) {
                continue;
            }
            self.index.objects[obj].not_equal.push(NotEqual {
                a: fa.member(),
                b: fb.member(),
                code: code.clone(),
            });
            let path = n.path.map(|p| p.value).unwrap_or_default();
            self.declare(RuleKind::NotEqual, path, code);
        }
    }

    pub(super) fn order_rules(&mut self, root: Option<usize>) {
        for n in std::mem::take(&mut self.side.order) {
            let what = "[[order]]";
            let code = self.rule_code(&n.code, n.pos, what);
            let a = self.required(&n.a, n.pos, what, "a").cloned();
            let b = self.required(&n.b, n.pos, what, "b").cloned();
            if n.strict.is_none() {
                self.ctx.toml(
                    n.pos,
                    format!("{what} has no `strict`"),
                    "add `strict = true` for `a < b` or `strict = false` for `a <= b`",
                );
            }
            let (Some(root), Some(a), Some(b), Some(strict), Some(code)) =
                (root, a, b, n.strict, code)
            else {
                continue;
            };
            let Some(obj) = self.object_at(root, &n.path) else {
                continue;
            };
            let (Some(fa), Some(fb)) = (self.member(obj, &a), self.member(obj, &b)) else {
                continue;
            };
            if a.value == b.value {
                self.ctx.toml(
                    b.pos,
                    format!("[[order]] compares `{}` with itself", a.value),
                    "name two different fields: `a` the one that comes first, `b` the one after",
                );
                continue;
            }
            let (ka, kb) = (order_kind(&fa.ty), order_kind(&fb.ty));
            if ka.is_none() || ka != kb {
                let (at, f) = if ka.is_none() { (&a, &fa) } else { (&b, &fb) };
                let message = match (ka, kb) {
                    (Some(x), Some(y)) => format!(
                        "`{}` is {x} and `{}` is {y}: they cannot be ordered",
                        a.value, b.value
                    ),
                    _ => format!("`{}` ({}) cannot be ordered", at.value, type_words(&f.ty)),
                };
                self.ctx.toml(
                    at.pos,
                    message,
                    "[[order]] compares two integers, two numbers, two `date` or two `date-time` fields (`T?` allowed), not lists, text, bools, enums, tables or unions",
                );
                continue;
            }
            self.index.objects[obj].order.push(Order {
                a: fa.member(),
                b: fb.member(),
                strict: strict.value,
                code: code.clone(),
            });
            let path = n.path.map(|p| p.value).unwrap_or_default();
            self.declare(RuleKind::Order, path, code);
        }
    }

    pub(super) fn contradiction_rules(&mut self, root: Option<usize>) {
        for c in std::mem::take(&mut self.side.contradiction) {
            let what = "[[contradiction]]";
            let code = self.rule_code(&c.code, c.pos, what);
            let path = self.required(&c.path, c.pos, what, "path").cloned();
            let by = self.required(&c.by, c.pos, what, "by").cloned();
            let value = self.required(&c.value, c.pos, what, "value").cloned();
            let (Some(root), Some(path), Some(by), Some(value), Some(code)) =
                (root, path, by, value, code)
            else {
                continue;
            };
            let Some((obj, fi)) = self.array_of_objects(root, &path, File::Toml) else {
                continue;
            };
            let Some(elem) = self.index.elem_object(obj, fi) else {
                continue;
            };
            let (Some(bf), Some(vf)) = (self.member(elem, &by), self.member(elem, &value)) else {
                continue;
            };
            let enum_name = match (&bf.ty.base, bf.ty.array || bf.ty.nullable) {
                (Base::Enum(e), false) => e.clone(),
                _ => {
                    self.ctx.toml(
                        by.pos,
                        format!("`by = \"{}\"` is not a plain enum field", by.value),
                        "contradiction pairs are values of an enum table",
                    );
                    continue;
                }
            };
            if vf.ty.base != Base::String || vf.ty.array || vf.ty.nullable {
                self.ctx.toml(
                    value.pos,
                    format!("`value = \"{}\"` is not a string field", value.value),
                    "contradiction compares string values",
                );
                continue;
            }
            let e = self.index.enum_named(&enum_name).cloned().expect("checked");
            if c.pairs.is_empty() {
                self.ctx.toml(
                    c.pos,
                    "[[contradiction]] has no `pairs`",
                    "add `pairs = [{ a = \"..\", b = \"..\" }]`",
                );
                continue;
            }
            let mut pairs = Vec::new();
            for p in &c.pairs {
                let a = self.required(&p.a, p.pos, "a pair", "a").cloned();
                let b = self.required(&p.b, p.pos, "a pair", "b").cloned();
                let (Some(a), Some(b)) = (a, b) else { continue };
                let ar = self.enum_value(&e, &a.value, a.pos, File::Toml);
                let br = self.enum_value(&e, &b.value, b.pos, File::Toml);
                let (Some(ar), Some(br)) = (ar, br) else {
                    continue;
                };
                pairs.push(Pair {
                    a: Member {
                        key: a.value,
                        rust: ar,
                    },
                    b: Member {
                        key: b.value,
                        rust: br,
                    },
                    ignore_case: p.ignore_case,
                });
            }
            self.index.objects[obj].fields[fi]
                .rules
                .contradiction
                .push(Contradiction {
                    by: bf.member(),
                    value: vf.member(),
                    enum_rust: e.rust_name,
                    pairs,
                    code: code.clone(),
                });
            self.declare(RuleKind::Contradiction, path.value, code);
        }
    }

    /// The object at a sidecar `path` (default: the root).
    pub(super) fn object_at(
        &mut self,
        root: usize,
        path: &Option<Spanned<String>>,
    ) -> Option<usize> {
        let Some(p) = path else {
            return Some(root);
        };
        self.object_of_path(
            root,
            p,
            |ty, elems| !ty.array || ty.array == elems,
            "is not an object",
            "name a field whose type is a field table (with `[]` for an array of them)",
        )
    }

    /// The field table a sidecar path names, when `fits(field type, path steps into elements)`;
    /// otherwise a diagnostic at the path (`` `p` {what} ``, or that it does not resolve).
    fn object_of_path(
        &mut self,
        root: usize,
        p: &Spanned<String>,
        fits: impl Fn(&TypeRef, bool) -> bool,
        what: &str,
        hint: &str,
    ) -> Option<usize> {
        let t = self.resolve_at(root, p, File::Toml)?;
        let ty = &self.index.objects[t.obj].fields[t.field].ty;
        match &ty.base {
            Base::Object(name) if fits(ty, t.elems) => self.index.object_index(name),
            _ => {
                self.ctx.toml(p.pos, format!("`{}` {what}", p.value), hint);
                None
            }
        }
    }

    pub(super) fn not_contains_rules(&mut self, root: Option<usize>) {
        for n in std::mem::take(&mut self.side.not_contains) {
            let what = "[[not_contains]]";
            let code = self.rule_code(&n.code, n.pos, what);
            let list = self.required(&n.list, n.pos, what, "list").cloned();
            let value = self.required(&n.value, n.pos, what, "value").cloned();
            let (Some(root), Some(list), Some(value), Some(code)) = (root, list, value, code)
            else {
                continue;
            };
            let Some(obj) = self.object_at(root, &n.path) else {
                continue;
            };
            let (Some(lf), Some(vf)) = (self.member(obj, &list), self.member(obj, &value)) else {
                continue;
            };
            if !lf.ty.array || lf.ty.base != Base::String {
                self.ctx.toml(
                    list.pos,
                    format!("`{}` is not a list of text", list.value),
                    "`list` names a `string[]` field",
                );
                continue;
            }
            if vf.ty.array || vf.ty.base != Base::String {
                self.ctx.toml(
                    value.pos,
                    format!("`{}` is not a text field", value.value),
                    "`value` names a `string` (or `string?`) field of the same object",
                );
                continue;
            }
            if self.second_rule(obj, n.pos, "not_contains", |o| !o.not_contains.is_empty()) {
                continue;
            }
            self.index.objects[obj].not_contains.push(NotContains {
                list: lf.member(),
                value: vf.member(),
                code: code.clone(),
            });
            let path = n.path.map(|p| p.value).unwrap_or_default();
            self.declare(RuleKind::NotContains, path, code);
        }
    }

    pub(super) fn digest_rules(&mut self, root: Option<usize>) {
        for d in std::mem::take(&mut self.side.digest) {
            let what = "[[digest]]";
            let code = self.rule_code(&d.code, d.pos, what);
            let path = self.required(&d.path, d.pos, what, "path").cloned();
            let sha = self.required(&d.sha256, d.pos, what, "sha256").cloned();
            let data = self.required(&d.data, d.pos, what, "data").cloned();
            let enc = self.required(&d.encoding, d.pos, what, "encoding").cloned();
            let (Some(root), Some(path), Some(sha), Some(data), Some(enc), Some(code)) =
                (root, path, sha, data, enc, code)
            else {
                continue;
            };
            let obj = self.object_of_path(
                root,
                &path,
                |_, elems| !elems,
                "is not an object or an array of objects",
                "name a field whose type is a field table (or an array of one), without `[]`",
            );
            let Some(obj) = obj else { continue };
            if self.second_rule(obj, d.pos, "digest", |o| !o.digest.is_empty()) {
                continue;
            }
            let Some(digest) = self.digest_members(obj, &d, [&sha, &data, &enc], code.clone())
            else {
                continue;
            };
            self.index.objects[obj].digest.push(digest);
            self.declare(RuleKind::Digest, path.value, code);
        }
    }

    /// The members a `[[digest]]` names in object `obj`, each of a type that fits its role.
    fn digest_members(
        &mut self,
        obj: usize,
        d: &SideDigest,
        [sha, data, enc]: [&Spanned<String>; 3],
        code: String,
    ) -> Option<Digest> {
        let mut ok = true;
        let mut text = |s: &mut Self, m: &Spanned<String>, what: &str| -> Option<Member> {
            let f = s.member(obj, m)?;
            let fits = !f.ty.array
                && match what {
                    // Read by its `Display`, which a `T?` has not.
                    "encoding" => {
                        !f.ty.nullable && matches!(f.ty.base, Base::String | Base::Enum(_))
                    }
                    "length" => f.ty.base.integer_width().is_some(),
                    _ => f.ty.base == Base::String,
                };
            if !fits {
                s.ctx.toml(
                    m.pos,
                    format!("`{}` cannot be the digest's `{what}`", m.value),
                    "`sha256`, `data` and `label` name text members, `encoding` a text or enum member that is not `T?` (`utf8` / `base64`), `length` an integer member",
                );
                ok = false;
                return None;
            }
            Some(f.member())
        };
        let sha = text(self, sha, "sha256");
        let data = text(self, data, "data");
        let enc = text(self, enc, "encoding");
        let length = d.length.as_ref().map(|l| text(self, l, "length"));
        let label = d.label.as_ref().map(|l| text(self, l, "label"));
        let (Some(sha256), Some(data), Some(encoding)) = (sha, data, enc) else {
            return None;
        };
        if !ok {
            return None;
        }
        Some(Digest {
            sha256,
            data,
            encoding,
            length: length.flatten(),
            label: label.flatten(),
            code,
        })
    }
}

/// What `[[order]]` compares a field as: `None` for a type it cannot order.
fn order_kind(ty: &TypeRef) -> Option<&'static str> {
    if ty.array {
        return None;
    }
    match (&ty.base, ty.format) {
        (Base::U32 | Base::U64 | Base::I32 | Base::I64, _) => Some("an integer"),
        (Base::Number, _) => Some("a number"),
        (Base::String, Some(Format::Date)) => Some("a date"),
        (Base::String, Some(Format::DateTime)) => Some("a date-time"),
        _ => None,
    }
}

/// `decimal(2)`, `decimal(12, 2)`: a decimal type as a Type cell writes it.
pub(crate) fn decimal_name(scale: u32, precision: Option<u32>) -> String {
    match precision {
        Some(p) => format!("decimal({p}, {scale})"),
        None => format!("decimal({scale})"),
    }
}

/// A field's type in a message: `string`, `uint32[]`, `the enum `kind``.
pub(crate) fn type_words(ty: &TypeRef) -> String {
    let base = match (&ty.base, ty.format) {
        (_, Some(f)) => f.name().to_owned(),
        (Base::String, None) => "text".to_owned(),
        (Base::Bool, _) => "a bool".to_owned(),
        (Base::Enum(n), _) => format!("the enum `{n}`"),
        (Base::Object(n), _) => format!("the table `{n}`"),
        (Base::Union(n), _) => format!("the union `{n}`"),
        (Base::Selected(n), _) => format!("an object chosen by `{n}`"),
        (Base::Any, _) => "`any`".to_owned(),
        (Base::U32, _) => "uint32".to_owned(),
        (Base::U64, _) => "uint64".to_owned(),
        (Base::I32, _) => "int32".to_owned(),
        (Base::I64, _) => "int64".to_owned(),
        (Base::Number, _) => "number".to_owned(),
        (Base::Decimal { scale, precision }, _) => decimal_name(*scale, *precision),
    };
    if ty.array {
        format!("a list of {base}")
    } else {
        base
    }
}
