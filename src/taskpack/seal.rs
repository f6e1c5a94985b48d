//! Fact scope across a machine boundary (TaskPack §4.2): the one sealing rule that packing,
//! landing and merging all apply. (Which machine this is: [`super::store::this_machine`], the
//! host name, as the reference's `os.hostname()`.)
//!
//! **Sealing** sets a fact `verified: false`, `needs_reverify: true` and records `verified_on`,
//! the machine where it *was* proven. It applies to every fact whose scope is `machine`, missing
//! or not one of the three the spec lists (C6 counts all of those as machine-scoped); `universal`
//! and `org` facts keep `verified`. It is idempotent: a sealed fact is left as it is, its own
//! `verified_on` kept.

use super::{member_mut, set_member};
use specmint_runtime::json::Json;

/// Whether a fact crosses a machine sealed: its scope is neither `universal` nor `org`.
pub fn is_machine_scoped(fact: &Json) -> bool {
    !matches!(
        fact.get("scope").and_then(Json::as_str),
        Some("universal" | "org")
    )
}

/// Whether a machine-scoped fact already travels sealed: `verified: false`,
/// `needs_reverify: true` and a non-empty `verified_on`.
pub fn is_sealed(fact: &Json) -> bool {
    matches!(fact.get("verified"), Some(Json::Bool(false)))
        && matches!(fact.get("needs_reverify"), Some(Json::Bool(true)))
        && fact
            .get("verified_on")
            .and_then(Json::as_str)
            .is_some_and(|on| !on.is_empty())
}

/// Seals every machine-scoped fact of a task state (`state.facts`) that is not sealed yet,
/// recording `verified_on` (the fact's own when it names one, else `verified_on`). Members keep
/// their places; new ones are appended, as the reference's `{ ...fact, ... }` does. Returns the
/// indices of the facts it changed, so a lenient reader can say what it repaired.
pub fn seal_facts(state: &mut Json, verified_on: &str) -> Vec<usize> {
    let Some(Json::Array(facts)) = member_mut(state, "facts") else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for (index, fact) in facts.iter_mut().enumerate() {
        if !fact.is_object() || !is_machine_scoped(fact) || is_sealed(fact) {
            continue;
        }
        let on = fact
            .get("verified_on")
            .and_then(Json::as_str)
            .filter(|on| !on.is_empty())
            .unwrap_or(verified_on)
            .to_owned();
        set_member(fact, "verified", Json::Bool(false));
        set_member(fact, "needs_reverify", Json::Bool(true));
        set_member(fact, "verified_on", Json::Str(on));
        changed.push(index);
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(facts: &str) -> Json {
        Json::parse(&format!(r#"{{"goal":"g","facts":{facts}}}"#)).unwrap()
    }

    #[test]
    fn seals_machine_unscoped_and_unknown_scopes_only() {
        let mut s = state(
            r#"[{"claim":"u","scope":"universal","verified":true},
                {"claim":"o","scope":"org","verified":true},
                {"claim":"m","scope":"machine","verified":true},
                {"claim":"none","verified":true},
                {"claim":"odd","scope":"galaxy","verified":true}]"#,
        );
        assert_eq!(seal_facts(&mut s, "box-a"), vec![2, 3, 4]);
        let facts = s.get("facts").unwrap().as_array().unwrap();
        assert_eq!(
            facts[0].to_js_compact(),
            r#"{"claim":"u","scope":"universal","verified":true}"#
        );
        assert_eq!(
            facts[2].to_js_compact(),
            r#"{"claim":"m","scope":"machine","verified":false,"needs_reverify":true,"verified_on":"box-a"}"#
        );
        assert!(facts[3..].iter().all(is_sealed));
    }

    #[test]
    fn keeps_a_recorded_verified_on_and_is_idempotent() {
        let mut s = state(r#"[{"claim":"m","verified_on":"box-b","verified":true}]"#);
        assert_eq!(seal_facts(&mut s, "box-a"), vec![0]);
        let once = s.clone();
        assert_eq!(seal_facts(&mut s, "box-c"), Vec::<usize>::new());
        assert_eq!(s, once);
        assert_eq!(
            s.get("facts").unwrap().as_array().unwrap()[0]
                .get("verified_on")
                .and_then(Json::as_str),
            Some("box-b")
        );
    }
}
