//! Cross-field rules (the sidecar's `[[unique]]`, `[[order]]`, ...) and forbidden keys.

use super::*;
use specmint_runtime::expr::Expr;

/// One cross-field rule of a spec, as compared: what it is (its kind, the table it sits on,
/// the list field it is on, the members it names), its parameters and its code.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub kind: RuleKind,
    /// Identity across the two sides: table, field and members, not paths.
    ident: String,
    /// What it says, in words: `` `a` before `b` ``, `key `name``, `the items`.
    pub what: String,
    /// Where it applies, as the sidecar writes paths (`waypoints[]`, `""` the top level).
    pub at: String,
    /// The member its violations are reported at (for the witness search).
    pub member: String,
    /// The string keys of its sidecar entry (`a`, `b`, `key`), to locate it.
    keys: Vec<(&'static str, String)>,
    /// Its parameters, each `true` where it refuses more (`strict`, `ignore_case`, `trim`, a
    /// contradictory pair present).
    params: Vec<(String, bool)>,
    pub code: String,
}

impl Entry {
    /// The rule in a message: ``an order rule ([[order]]) `a` before `b` on `waypoints[]` ``.
    pub(super) fn words(&self) -> String {
        let on = if self.at.is_empty() {
            "at the top level".to_owned()
        } else {
            format!("on `{}`", self.at)
        };
        format!(
            "{} {} {on}",
            rule_words(self.kind).unwrap_or_default(),
            self.what
        )
    }

    /// Whether it names member `key` of table `table` (a unique key or a contradiction's
    /// members: of the list's items, whatever their table).
    pub(super) fn names(&self, table: &str, key: &str) -> bool {
        let owner = self.ident.split('|').nth(1) == Some(table);
        self.keys.iter().any(|(_, v)| {
            v == key && (owner || matches!(self.kind, RuleKind::Unique | RuleKind::Contradiction))
        })
    }

    /// Where its sidecar entry is (a rules table's row: its Code cell).
    fn needle(&self) -> Needle {
        if self.kind == RuleKind::Expression {
            return Needle::cell(&self.code);
        }
        Needle::Entry {
            kind: self.kind.as_str(),
            at: self.at.clone(),
            keys: self.keys.clone(),
        }
    }
}

/// Every cross-field rule of `spec` (the kinds [`rule_words`] names), in table order;
/// `paths` is where each table's values sit ([`usages`]).
pub(super) fn entries(spec: &Spec, paths: &BTreeMap<String, Vec<String>>) -> Vec<Entry> {
    let mut out = Vec::new();
    for t in &spec.types {
        let (owner, fields, object): (&str, Vec<&Field>, Option<&Object>) = match t {
            TypeDef::Object(o) => (&o.name, o.fields.iter().collect(), Some(o)),
            TypeDef::Union(u) => (
                &u.name,
                u.variants.iter().flat_map(|v| &v.members).collect(),
                None,
            ),
            TypeDef::Enum(_) => continue,
        };
        let at = paths
            .get(owner)
            .and_then(|p| p.first().cloned())
            .unwrap_or_default();
        let pair = |kind: RuleKind,
                    what: String,
                    (ka, a): (&'static str, &Member),
                    (kb, b): (&'static str, &Member),
                    reported: &Member,
                    params: Vec<(String, bool)>,
                    code: &str| Entry {
            kind,
            ident: format!("{}|{owner}|{ka}={}|{kb}={}", kind.as_str(), a.key, b.key),
            what,
            at: at.clone(),
            member: join(&at, &reported.key),
            keys: vec![(ka, a.key.clone()), (kb, b.key.clone())],
            params,
            code: code.to_owned(),
        };
        if let Some(o) = object {
            for n in &o.order {
                let what = format!("`{}` before `{}`", n.a.key, n.b.key);
                let params = vec![("strict".to_owned(), n.strict)];
                out.push(pair(
                    RuleKind::Order,
                    what,
                    ("a", &n.a),
                    ("b", &n.b),
                    &n.b,
                    params,
                    &n.code,
                ));
            }
            for n in &o.not_equal {
                let what = format!("`{}` ≠ `{}`", n.a.key, n.b.key);
                out.push(pair(
                    RuleKind::NotEqual,
                    what,
                    ("a", &n.a),
                    ("b", &n.b),
                    &n.b,
                    Vec::new(),
                    &n.code,
                ));
            }
            for n in &o.not_contains {
                let what = format!("`{}` without `{}`", n.list.key, n.value.key);
                out.push(pair(
                    RuleKind::NotContains,
                    what,
                    ("list", &n.list),
                    ("value", &n.value),
                    &n.list,
                    Vec::new(),
                    &n.code,
                ));
            }
            for g in &o.guarded {
                let kind = g.rule_kind();
                let what = format!("{}{}", g.what(), g.when());
                let keys = match &g.rule {
                    GuardedRule::Required { path, .. } => vec![("field", path.clone())],
                    GuardedRule::Compare { field, .. } | GuardedRule::Absent(field) => {
                        vec![("field", field.key.clone())]
                    }
                    GuardedRule::AnyOf(_) | GuardedRule::OneOf(_) => Vec::new(),
                    GuardedRule::Expression { .. } => vec![("code", g.code.clone())],
                };
                let member = match &g.rule {
                    GuardedRule::Required { path, .. } => join(&at, path),
                    GuardedRule::Compare { field, .. } | GuardedRule::Absent(field) => {
                        join(&at, &field.key)
                    }
                    GuardedRule::AnyOf(_) | GuardedRule::OneOf(_) => at.clone(),
                    GuardedRule::Expression { expr, .. } => match expr {
                        Expr::Cmp(left, ..) => match &**left {
                            Expr::Path(p) => join(&at, &p.to_string()),
                            _ => at.clone(),
                        },
                        _ => at.clone(),
                    },
                };
                // A rules table's row is the rule its code names: an edit of its
                // expression or condition is that rule changed.
                let ident = match &g.rule {
                    GuardedRule::Expression { .. } => format!("rule|{owner}|{}", g.code),
                    _ => format!("{}|{owner}|{what}", kind.as_str()),
                };
                out.push(Entry {
                    kind,
                    ident,
                    what,
                    at: at.clone(),
                    member,
                    keys,
                    params: Vec::new(),
                    code: g.code.clone(),
                });
            }
            for d in &o.digest {
                let what = format!("`{}` of `{}`", d.sha256.key, d.data.key);
                out.push(pair(
                    RuleKind::Digest,
                    what,
                    ("sha256", &d.sha256),
                    ("data", &d.data),
                    &d.sha256,
                    Vec::new(),
                    &d.code,
                ));
            }
        }
        for f in fields {
            let list = join(&at, &f.key);
            let folds = |ignore_case: bool, trim: bool| {
                vec![
                    ("ignore_case".to_owned(), ignore_case),
                    ("trim".to_owned(), trim),
                ]
            };
            let on_list = |what: String, extra: String, keys, params, code: &str| Entry {
                kind: RuleKind::Unique,
                ident: format!("unique|{owner}|{}|{extra}", f.key),
                what,
                at: list.clone(),
                member: list.clone(),
                keys,
                params,
                code: code.to_owned(),
            };
            if let Some(u) = &f.rules.unique {
                out.push(on_list(
                    "of the items".into(),
                    String::new(),
                    vec![],
                    folds(u.ignore_case, u.trim),
                    &u.code,
                ));
            }
            for u in &f.rules.unique_by {
                let members: Vec<&str> = u.keys.iter().map(|k| k.key.as_str()).collect();
                let joined = members.join(",");
                // The sidecar's `key` (joined as `locate` reads it), then each member alone
                // (what [`Entry::names`] looks for).
                let mut keys = vec![("key", joined.clone())];
                if u.keys.len() > 1 {
                    keys.extend(members.iter().map(|m| ("member", (*m).to_owned())));
                }
                out.push(on_list(
                    key_words(&members),
                    joined,
                    keys,
                    folds(u.ignore_case, u.trim),
                    &u.code,
                ));
            }
            for c in &f.rules.contradiction {
                let mut params = Vec::new();
                for p in &c.pairs {
                    let name = format!("pair `{}`/`{}`", p.a.key, p.b.key);
                    params.push((format!("{name} ignore_case"), p.ignore_case));
                    params.push((name, true));
                }
                let mut e = pair(
                    RuleKind::Contradiction,
                    format!("of `{}` by `{}`", c.value.key, c.by.key),
                    ("by", &c.by),
                    ("value", &c.value),
                    &c.value,
                    params,
                    &c.code,
                );
                e.ident = format!(
                    "contradiction|{owner}|{}|{}|{}",
                    f.key, c.by.key, c.value.key
                );
                e.at = list.clone();
                e.member = list.clone();
                out.push(e);
            }
        }
    }
    out
}

/// A unique key in words: `` by `id` ``, `` by (`category`, `rate`) ``.
fn key_words(members: &[&str]) -> String {
    match members {
        [one] => format!("by `{one}`"),
        _ => format!(
            "by ({})",
            members
                .iter()
                .map(|m| format!("`{m}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The members of a keyed uniqueness rule (`None` for any other rule).
fn key_members(e: &Entry) -> Option<Vec<&str>> {
    let (prefix, key) = e.ident.rsplit_once('|')?;
    (e.kind == RuleKind::Unique && !key.is_empty() && prefix.starts_with("unique|"))
        .then(|| key.split(',').collect())
}

/// Whether `e` and `f` are keyed uniqueness rules on the same list (their keys may differ).
fn same_list(e: &Entry, f: &Entry) -> bool {
    key_members(e).is_some()
        && key_members(f).is_some()
        && e.ident.rsplit_once('|').map(|p| p.0) == f.ident.rsplit_once('|').map(|p| p.0)
}

impl Cmp<'_> {
    /// A unique key whose members changed: members added loosen it (fewer items are
    /// duplicates), members removed tighten it, both change it either way.
    fn key_changed(&mut self, e: &Entry, f: &Entry, hint: Hint) {
        let (Some(was), Some(is)) = (key_members(e), key_members(f)) else {
            return;
        };
        let added = is.iter().any(|m| !was.contains(m));
        let removed = was.iter().any(|m| !is.contains(m));
        let message = format!(
            "{}: the key is {}, was {}",
            f.words(),
            key_words(&is).trim_start_matches("by "),
            key_words(&was).trim_start_matches("by ")
        );
        let change = match (added, removed) {
            (true, false) => found("rule-loosened", &[Readers], message, e.needle(), f.needle()),
            (false, true) => found(
                "rule-tightened",
                &[Documents],
                message,
                e.needle(),
                f.needle(),
            ),
            (true, true) => found(
                "rule-changed",
                &[Documents, Readers],
                message,
                e.needle(),
                f.needle(),
            )
            .undirected(["rule-tightened", "rule-loosened", "rule-changed"]),
            // The same members in another order: only the message's order differs.
            (false, false) => return,
        };
        self.push(change.at(&hint));
    }

    /// Cross-field rules: each matched by what it is ([`Entry`]), added, removed, or with a
    /// parameter changed (`strict`, `ignore_case`, `trim`, a contradictory pair); a changed
    /// code is one of [`Cmp::codes`]'.
    pub(super) fn rules(&mut self) {
        let old = entries(self.old, &self.old_paths);
        let new = entries(self.new, &self.new_paths);
        let hint = |e: &Entry| Hint {
            path: Some(e.member.clone()).filter(|p| !p.is_empty()),
            ..Hint::default()
        };
        let removed_at = |spec: &Spec, e: &Entry| {
            let owner = e.ident.split('|').nth(1).unwrap_or_default();
            if spec.type_def(owner).is_some() {
                Needle::table(owner)
            } else {
                Needle::Start
            }
        };
        // A keyed uniqueness rule whose key changed is the same rule, if each side has no
        // rule with the other's key.
        let partner = |e: &Entry, other: &[Entry], own: &[Entry]| -> Option<usize> {
            if other.iter().any(|f| f.ident == e.ident) {
                return None;
            }
            other
                .iter()
                .position(|f| same_list(e, f) && !own.iter().any(|g| g.ident == f.ident))
        };
        for e in &old {
            let by_key = partner(e, &new, &old).map(|i| &new[i]);
            if let Some(f) = by_key {
                self.key_changed(e, f, hint(f));
            }
            let Some(f) = new.iter().find(|f| f.ident == e.ident).or(by_key) else {
                self.push(
                    found(
                        "rule-removed",
                        &[Readers],
                        format!("{} removed", e.words()),
                        e.needle(),
                        removed_at(self.new, e),
                    )
                    .at(&hint(e)),
                );
                continue;
            };
            if e.kind == RuleKind::Expression && e.what != f.what {
                self.push(
                    found(
                        "rule-changed",
                        &[Documents, Readers],
                        format!("{}: was {}", f.words(), e.what),
                        e.needle(),
                        f.needle(),
                    )
                    .undirected(["rule-tightened", "rule-loosened", "rule-changed"])
                    .at(&hint(f)),
                );
            }
            let mut names: Vec<&String> =
                e.params.iter().chain(&f.params).map(|(n, _)| n).collect();
            names.sort();
            names.dedup();
            for name in names {
                let value = |x: &Entry| {
                    x.params
                        .iter()
                        .find(|(n, _)| n == name)
                        .is_some_and(|(_, v)| *v)
                };
                let (was, is) = (value(e), value(f));
                if was == is {
                    continue;
                }
                let (id, breaks) = if is {
                    ("rule-tightened", Documents)
                } else {
                    ("rule-loosened", Readers)
                };
                let message = if name.starts_with("pair ") && !name.ends_with("ignore_case") {
                    format!(
                        "{}: {name} {}",
                        f.words(),
                        if is { "added" } else { "removed" }
                    )
                } else {
                    format!("{}: `{name}` is {is}, was {was}", f.words())
                };
                self.push(found(id, &[breaks], message, e.needle(), f.needle()).at(&hint(f)));
            }
        }
        for f in &new {
            if !old.iter().any(|e| e.ident == f.ident) && partner(f, &old, &new).is_none() {
                self.push(
                    found(
                        "rule-added",
                        &[Documents],
                        format!("{} added", f.words()),
                        removed_at(self.old, f),
                        f.needle(),
                    )
                    .at(&hint(f)),
                );
            }
        }
    }

    /// Forbidden keys. Where the document has no free members (an open object, an `any`
    /// field) an unlisted key is refused anyway, with the parse code: a key added to or
    /// removed from the forbidden ones changes only the code it is refused with.
    pub(super) fn forbidden(&mut self) {
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
}

/// What a cross-field rule is called in messages; `None` for the kinds compared as caps.
/// Exhaustive: a new rule kind does not compile until it has a diff case.
pub(super) fn rule_words(kind: RuleKind) -> Option<&'static str> {
    match kind {
        RuleKind::Unique => Some("a uniqueness rule ([[unique]])"),
        RuleKind::NotEqual => Some("a not-equal rule ([[not_equal]])"),
        RuleKind::Order => Some("an order rule ([[order]])"),
        RuleKind::Contradiction => Some("a contradiction rule ([[contradiction]])"),
        RuleKind::NotContains => Some("a not-contains rule ([[not_contains]])"),
        RuleKind::Digest => Some("a digest rule ([[digest]])"),
        RuleKind::RequiredIf => Some("a requirement ([[required_if]])"),
        RuleKind::AnyOf => Some("an any-of rule ([[any_of]])"),
        RuleKind::OneOf => Some("a one-of rule ([[one_of]])"),
        RuleKind::ValueIf => Some("a value rule ([[value_if]])"),
        RuleKind::Expression => Some("a rule (rules table)"),
        // Compared as caps, with their numbers (cap-added, cap-tightened, ...).
        RuleKind::MaxItemsPerGroup | RuleKind::DocumentBytes => None,
    }
}
