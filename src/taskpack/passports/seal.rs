//! Fact scope across a machine boundary (TaskPack §4.2): the one sealing rule that packing,
//! landing and merging all apply. (Which machine this is: [`crate::taskpack::passports::this_machine`], the
//! host name, as the reference's `os.hostname()`.)
//!
//! **Sealing** sets a fact `verified: false`, `needs_reverify: true` and records `verified_on`,
//! the machine where it *was* proven (the fact's own when it names one, else the machine given).
//! It applies to every fact whose scope is `machine`, missing, empty or not one of the three the
//! spec lists (C6 counts all of those as machine-scoped), and to any fact that already says
//! `needs_reverify: true`; other `universal` and `org` facts keep `verified`. That is the
//! reference's `travelFacts` (whose readers re-seal on the way in, so a pack sealed any other
//! way would not come back the same, C9), plus the unknown scopes C6 counts as machine. Members
//! keep their places and new ones are appended, as `{ ...fact, verified: false, … }` does. It is
//! idempotent.

use crate::taskpack::lenient::{self, FactView};
use crate::taskpack::{member_mut, set_member, FactScope};
use specmint_runtime::json::Json;

/// Whether a fact crosses a machine sealed: its scope is not `universal` or `org`, or it already
/// says `needs_reverify: true`.
pub fn is_machine_scoped(fact: &Json) -> bool {
    let fact: FactView = lenient::view(fact);
    !matches!(fact.scope(), Some(FactScope::Universal | FactScope::Org))
        || fact.needs_reverify == Some(true)
}

/// The members §4.2 (and the fact table) give a meaning other than the fact's words.
const NOT_WORDS: [&str; 6] = [
    "scope",
    "verified",
    "needs_reverify",
    "verified_on",
    "source",
    "verified_by",
];

/// A fact's words, to name it to a human: `claim` (where the reference writes them), else the
/// first other text member that is not one of §4.2's (the spec names no key for the words, so
/// `{"text": …}` is as much a fact), else none. A fact that is a bare string is its own words.
pub fn fact_words(fact: &Json) -> Option<String> {
    if let Some(claim) = lenient::view::<FactView>(fact).claim {
        return Some(Json::js_string(Some(&claim)));
    }
    match fact {
        Json::Str(words) => Some(words.clone()),
        Json::Object(members) => members
            .iter()
            .find(|(k, v)| !NOT_WORDS.contains(&k.as_str()) && matches!(v, Json::Str(_)))
            .and_then(|(_, v)| v.as_str().map(str::to_owned)),
        _ => None,
    }
}

/// Seals every fact of a task state (`state.facts`) that [`is_machine_scoped`], recording
/// `verified_on` (the fact's own when it is truthy, else `verified_on`). Returns the indices of
/// the facts whose content changed, so a lenient reader can say what it repaired (a fact that
/// arrived sealed is not among them).
pub fn seal_facts(state: &mut Json, verified_on: &str) -> Vec<usize> {
    let Some(Json::Array(facts)) = member_mut(state, "facts") else {
        return Vec::new();
    };
    let mut changed = Vec::new();
    for (index, fact) in facts.iter_mut().enumerate() {
        if !fact.is_object() || !is_machine_scoped(fact) {
            continue;
        }
        let before = fact.clone();
        let on = match lenient::view::<FactView>(fact).verified_on {
            Some(value) if Json::truthy(Some(&value)) => value,
            _ => Json::Str(verified_on.to_owned()),
        };
        set_member(fact, "verified", Json::Bool(false));
        set_member(fact, "needs_reverify", Json::Bool(true));
        set_member(fact, "verified_on", on);
        if *fact != before {
            changed.push(index);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_facts_words_are_its_claim_else_its_first_other_text() {
        let words = |f: &str| fact_words(&Json::parse(f).unwrap());
        assert_eq!(
            words(r#"{"scope":"org","claim":"c","text":"t"}"#).as_deref(),
            Some("c")
        );
        assert_eq!(
            words(r#"{"scope":"org","source":"ds","text":"t"}"#).as_deref(),
            Some("t")
        );
        assert_eq!(words(r#"{"scope":"org","verified_on":"box","n":1}"#), None);
        assert_eq!(words(r#""bare""#).as_deref(), Some("bare"));
    }

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
        assert_eq!(
            facts[4].get("verified_on").and_then(Json::as_str),
            Some("box-a")
        );
    }

    #[test]
    fn a_fact_that_says_needs_reverify_is_sealed_whatever_its_scope() {
        let mut s =
            state(r#"[{"claim":"u","scope":"universal","verified":true,"needs_reverify":true}]"#);
        assert_eq!(seal_facts(&mut s, "box-a"), vec![0]);
        assert_eq!(
            s.get("facts").unwrap().as_array().unwrap()[0].to_js_compact(),
            r#"{"claim":"u","scope":"universal","verified":false,"needs_reverify":true,"verified_on":"box-a"}"#
        );
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
