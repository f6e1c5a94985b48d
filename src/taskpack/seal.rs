//! Fact scope across a machine boundary (TaskPack §4.2): which machine this is, and the one
//! sealing rule that packing, landing and merging all apply.
//!
//! **This machine** is the host name, as `gethostname(2)` reports it: what the reference
//! (task-passport) writes as `origin.machine` and `verified_on` and compares at landing
//! (`os.hostname()`), so a pack sealed by either implementation on one box is recognised by the
//! other as made here. A host name is a claim, not a proof (hostnames collide, and a pack made by
//! hand can name any machine), which is why restoring a ✓ also needs the human's explicit choice.
//!
//! **Sealing** sets a fact `verified: false`, `needs_reverify: true` and records `verified_on`,
//! the machine where it *was* proven. It applies to every fact whose scope is `machine`, missing
//! or not one of the three the spec lists (C6 counts all of those as machine-scoped); `universal`
//! and `org` facts keep `verified`. It is idempotent: a sealed fact is left as it is, its own
//! `verified_on` kept.

use specmint_runtime::json::Json;

/// The host name of this machine (see the module doc); empty when the system will not say.
pub fn this_machine() -> String {
    #[cfg(unix)]
    {
        rustix::system::uname()
            .nodename()
            .to_string_lossy()
            .into_owned()
    }
    #[cfg(not(unix))]
    {
        std::env::var("COMPUTERNAME").unwrap_or_default()
    }
}

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

/// The member `key` of an object, mutably (the last one, as `JSON.parse` keeps it).
pub fn member_mut<'a>(object: &'a mut Json, key: &str) -> Option<&'a mut Json> {
    match object {
        Json::Object(members) => members
            .iter_mut()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v),
        _ => None,
    }
}

/// `object[key] = value`: replaced in place when present (every copy of a repeated key, so the
/// one `JSON.parse` keeps is the new value), appended otherwise. Not an object: unchanged.
pub fn set_member(object: &mut Json, key: &str, value: Json) {
    let Json::Object(members) = object else {
        return;
    };
    let mut present = false;
    for (_, v) in members.iter_mut().filter(|(k, _)| k == key) {
        *v = value.clone();
        present = true;
    }
    if !present {
        members.push((key.to_owned(), value));
    }
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

    #[test]
    fn this_machine_is_not_empty_here() {
        assert!(!this_machine().is_empty());
    }
}
