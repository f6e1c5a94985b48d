//! Cross-field rules (the sidecar's `[[unique]]`, `[[order]]`, ...) and forbidden keys.

use super::*;

impl Cmp<'_> {
    /// Cross-field rules, by kind and path.
    pub(super) fn rules(&mut self) {
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
        // Compared as caps, with their numbers (cap-added, cap-tightened, ...).
        RuleKind::MaxItemsPerGroup | RuleKind::DocumentBytes => None,
    }
}
