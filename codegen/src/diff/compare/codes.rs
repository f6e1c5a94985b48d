//! Error codes: renamed, changed for one rule, removed, added; the error enum.

use super::rules::{entries, rule_words};
use super::*;

impl Cmp<'_> {
    /// Error codes: renamed (every use of one code now uses a new one), changed for one
    /// rule, removed, added; the error enum and its variants.
    pub(super) fn codes(&mut self) {
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
                    // `the pattern rule on `buyer_address.country_code``: the field's key.
                    let key = u
                        .strip_suffix('`')
                        .and_then(|r| r.rsplit_once('.'))
                        .map(|(_, k)| k.to_owned());
                    let mut f = found(
                        "error-code-changed",
                        &[Codes],
                        format!("{u} is reported as `{b}`, was `{a}`"),
                        Needle::cell(a),
                        Needle::cell(b),
                    );
                    f.moved = Some(((*a).to_owned(), (*b).to_owned(), key));
                    self.push(f);
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
                    Needle::ErrorTable,
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
                    Needle::ErrorTable,
                    Needle::cell(&d.code),
                ));
            }
        }
    }
}

/// Every place a code is produced → the code: the parse and forbidden-key codes, each rule
/// kind's sidecar code, and each rule at each path.
pub(super) fn code_uses(spec: &Spec) -> BTreeMap<String, String> {
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
    // Cross-field rules each by what it is (two `[[unique]]` on one list are two uses); the
    // kinds compared as caps by kind and path.
    for e in entries(spec, &usages(spec)) {
        out.insert(e.words(), e.code);
    }
    for r in &spec.rules {
        if rule_words(r.kind).is_none() {
            out.insert(
                format!("the {} rule on `{}`", r.kind.as_str(), r.path),
                r.code.clone(),
            );
        }
    }
    for t in &spec.types {
        if let TypeDef::Object(o) = t {
            if let Some(c) = &o.max_json_bytes {
                out.insert(format!("the byte cap of `{}`", o.name), c.code.clone());
            }
            // A copy of a shared table is named by its path (`buyer.address`).
            let owner = o
                .copy_of
                .as_ref()
                .map_or(o.name.as_str(), |(_, at)| at.as_str());
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
                            format!("the {what} rule on `{owner}.{}`", f.key),
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
                        out.insert(format!("the {what} rule on `{owner}.{}`", f.key), c.clone());
                    }
                }
                if let Some(c) = &r.required_if {
                    out.insert(
                        format!("the required_if rule on `{owner}.{}`", f.key),
                        c.code.clone(),
                    );
                }
                if matches!(f.ty.base, Base::Enum(_)) && !f.ty.array {
                    out.insert(
                        format!("a value outside the enum of `{}.{}`", o.name, f.key),
                        r.enum_code
                            .clone()
                            .unwrap_or_else(|| spec.errors.parse.clone()),
                    );
                }
            }
        }
    }
    out
}
