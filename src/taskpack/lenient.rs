//! Reading untyped JSON through serde, leniently: a member of another type than the one asked
//! for reads as absent, never as an error. For the readers that take a pack (or an A2A wire
//! object) before, or without, judging it (landing, merging, the A2A binding): they are lenient
//! where the judge is strict (§6, C0), so they cannot deserialize into the generated types,
//! which are as strict as the spec. What they read is a small view of the members they use;
//! what they pass on stays [`Json`], as received.
//!
//! What the generated types would refuse and these readers take (spec/taskpack.md, *Landing
//! and merging*, "What is refused"): a member no table lists (`deny_unknown_fields`), a fact
//! scope none of the three (a closed enum), a missing `packed_at` (a required member), a member
//! of another type. `tests/it/taskpack_land.rs`
//! (`a_pack_the_strict_types_refuse_lands_and_its_unknown_scopes_are_sealed`) lands such a pack.
//! The flat reader (`flat`) reads a file's own members the same way, since it also maps a
//! retired `.tpx` file, which [`FlatTaskPack`] refuses.
//!
//! A view is read from the tree itself: `&Json` is a serde `Deserializer`
//! (`specmint_runtime::json`), so no view writes the value out as text.
//!
//! [`FlatTaskPack`]: crate::taskpack::FlatTaskPack

use std::fmt;

use serde::de::{
    self, Deserialize, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use specmint_runtime::json::Json;

/// `value` read as `T`, or `None` when it is not of `T`'s shape. Objects are read as
/// `JSON.parse` keeps them (a repeated key once, its last value). Read from the tree itself
/// (`Json` is a serde `Deserializer`), not from text written out and parsed back.
pub(crate) fn typed<T: DeserializeOwned>(value: &Json) -> Option<T> {
    T::deserialize(value).ok()
}

/// One of a closed enum's words (`T` a generated string enum such as [`FactScope`]), read from
/// a string only. serde also reads a unit variant from an object of one member,
/// `{"universal": null}`; a reader of the spec does not, and a fact whose scope is such an
/// object is of no scope the spec lists (so it is sealed, §4.2).
///
/// [`FactScope`]: crate::taskpack::FactScope
pub(crate) fn word<T: DeserializeOwned>(value: &Json) -> Option<T> {
    match value {
        Json::Str(_) => typed(value),
        _ => None,
    }
}

/// A member that is one of a closed enum's words ([`word`]); `None` otherwise. Use with
/// `#[serde(default)]`.
pub(crate) fn word_or_none<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(word(&Json::deserialize(deserializer)?))
}

/// The view `T` of an object, or `T`'s default when `value` is not an object (a struct is never
/// read from an array's items).
pub(crate) fn view<T: DeserializeOwned + Default>(value: &Json) -> T {
    match value {
        Json::Object(_) => typed(value).unwrap_or_default(),
        _ => T::default(),
    }
}

/// A member read as `T`, or `T`'s default when it is not of `T`'s shape (an optional string
/// that is a number reads as `None`, as `.and_then(Json::as_str)` reads it). Use with
/// `#[serde(default)]`, which covers a missing member.
pub(crate) fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(typed(&Json::deserialize(deserializer)?).unwrap_or_default())
}

/// A member that is an object, read as the view `T` (its default otherwise). Use with
/// `#[serde(default)]`.
pub(crate) fn view_or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(view(&Json::deserialize(deserializer)?))
}

/// Whether a member is there, whatever it holds (`null` included), without reading it. Use with
/// `#[serde(default)]`, which makes a missing member `false`.
pub(crate) fn is_present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    serde::de::IgnoredAny::deserialize(deserializer).map(|_| true)
}

/// A list of objects, each read as the view `T` (an item that is not an object as `T`'s
/// default); no items when the member is not a list. Use with `#[serde(default)]`.
pub(crate) fn views<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    let list = Json::deserialize(deserializer)?;
    Ok(list
        .as_array()
        .unwrap_or_default()
        .iter()
        .map(view)
        .collect())
}

/// A list's items as written; none when the member is not a list. Use with
/// `#[serde(default)]`.
pub(crate) fn items<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Json>, D::Error> {
    match Json::deserialize(deserializer)? {
        Json::Array(items) => Ok(items),
        _ => Ok(Vec::new()),
    }
}

/// How many items a list member has; 0 when it is not a list. The items are not read (nor
/// copied). Use with `#[serde(default)]`.
pub(crate) fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    struct Items;

    impl<'de> Visitor<'de> for Items {
        type Value = usize;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
            let mut n = 0;
            while seq.next_element::<IgnoredAny>()?.is_some() {
                n += 1;
            }
            Ok(n)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(0)
        }

        fn visit_unit<E: de::Error>(self) -> Result<usize, E> {
            Ok(0)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<usize, E> {
            Ok(0)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<usize, E> {
            Ok(0)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<usize, E> {
            Ok(0)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<usize, E> {
            Ok(0)
        }

        fn visit_str<E: de::Error>(self, _: &str) -> Result<usize, E> {
            Ok(0)
        }
    }

    deserializer.deserialize_any(Items)
}

/// `origin` as the lenient readers take it: who and where, each a string or absent.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct OriginView {
    /// `origin.actor`, when a string.
    #[serde(default, deserialize_with = "or_default")]
    pub actor: Option<String>,
    /// `origin.machine`, when a string.
    #[serde(default, deserialize_with = "or_default")]
    pub machine: Option<String>,
}

/// `lineage` as the lenient readers take it.
#[derive(Debug, Default, serde::Deserialize)]
pub struct LineageView {
    /// `lineage.root_id` as written (any type).
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub root_id: Option<Json>,
    /// `lineage.from_version` as written (any type).
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub from_version: Option<Json>,
    /// `lineage.chain` as written (any type).
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub chain: Option<Json>,
}

impl LineageView {
    /// `chain`'s entries; none when it is not a list.
    pub fn chain(&self) -> &[Json] {
        PackMembers::items(&self.chain)
    }

    /// `root_id`, when a string.
    pub fn root_id(&self) -> Option<&str> {
        self.root_id.as_ref().and_then(Json::as_str)
    }
}

/// A `lineage` member's view (all absent when it is missing or not an object).
pub(crate) fn lineage(member: Option<&Json>) -> LineageView {
    member.map(view).unwrap_or_default()
}

/// A pack object's members, each as written (any type) or absent: what a judge describes and
/// a lenient reader starts from.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct PackMembers {
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub spec: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub kind: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub packed_at: Option<Json>,
    #[serde(default, deserialize_with = "view_or_default")]
    pub origin: OriginView,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub lineage: Option<Json>,
    /// The task state.
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub passport: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub asks: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub landing_checks: Option<Json>,
}

impl PackMembers {
    /// `kind`, when a string.
    pub fn kind(&self) -> Option<&str> {
        self.kind.as_ref().and_then(Json::as_str)
    }

    /// The lineage's members (all absent when it is not an object).
    pub fn lineage(&self) -> LineageView {
        lineage(self.lineage.as_ref())
    }

    /// The items of a list member; none when it is not a list.
    pub fn items(list: &Option<Json>) -> &[Json] {
        list.as_ref().and_then(Json::as_array).unwrap_or_default()
    }
}

/// The members of a task state (a pack's, or a stored passport's) that landing, merging and
/// packing read: lists as their items as written, the rest as written.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct StateView {
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub id: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub version: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub lineage: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub harness: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub created_at: Option<Json>,
    #[serde(default, deserialize_with = "items")]
    pub facts: Vec<Json>,
    #[serde(default, deserialize_with = "items")]
    pub asks: Vec<Json>,
    #[serde(default, deserialize_with = "items")]
    pub next_steps: Vec<Json>,
    #[serde(default, deserialize_with = "items")]
    pub artifacts: Vec<Json>,
}

/// An ask's members as written.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct AskView {
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub id: Option<Json>,
    /// `status`, when a string.
    #[serde(default, deserialize_with = "or_default")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub answer: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub answered_by: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub answered_at: Option<Json>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub accept: Option<Json>,
    /// `what`, when a string.
    #[serde(default, deserialize_with = "or_default")]
    pub what: Option<String>,
}

impl StateView {
    /// `version`, when a non-negative integer; else 0.
    pub fn version(&self) -> u64 {
        match &self.version {
            Some(Json::Number(n)) => n.as_u64().unwrap_or_default(),
            _ => 0,
        }
    }
}

impl AskView {
    /// Whether it is open: its status says so, or says nothing.
    pub fn open(&self) -> bool {
        matches!(self.status.as_deref(), None | Some("open"))
    }

    /// Whether its `what`, trimmed, is `what`.
    pub fn asks(&self, what: &str) -> bool {
        self.what.as_deref().map(str::trim) == Some(what)
    }

    /// Its id as JavaScript's `String(ask.id)` writes it.
    pub fn id(&self) -> String {
        Json::js_string(self.id.as_ref())
    }
}

/// A fact's members that sealing, landing and merging read.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct FactView {
    /// `claim` as written.
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub claim: Option<Json>,
    /// `scope` as written.
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub scope: Option<Json>,
    /// `verified`, when a boolean.
    #[serde(default, deserialize_with = "or_default")]
    pub verified: Option<bool>,
    /// `needs_reverify`, when a boolean.
    #[serde(default, deserialize_with = "or_default")]
    pub needs_reverify: Option<bool>,
    /// `verified_on` as written.
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub verified_on: Option<Json>,
    /// `source` as written.
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub source: Option<Json>,
}

impl FactView {
    /// `scope`, when it is one of the spec's three.
    pub fn scope(&self) -> Option<crate::taskpack::FactScope> {
        self.scope.as_ref().and_then(word)
    }
}

/// A landing check's members as written.
#[derive(Debug, Default, serde::Deserialize)]
pub(crate) struct CheckView {
    #[serde(default, deserialize_with = "or_default")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "specmint_runtime::json::present")]
    pub check: Option<Json>,
    #[serde(default, deserialize_with = "or_default")]
    pub how: Option<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub required: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::taskpack::FactScope;

    fn json(text: &str) -> Json {
        Json::parse(text).unwrap()
    }

    #[test]
    fn a_member_of_another_type_reads_as_absent_and_the_rest_is_read() {
        let fact: FactView = view(&json(
            r#"{"claim":"c","scope":"galaxy","verified":"yes","needs_reverify":true,"x":1}"#,
        ));
        assert_eq!(fact.claim, Some(Json::Str("c".into())));
        assert_eq!(fact.scope, Some(Json::Str("galaxy".into())));
        assert_eq!(fact.scope(), None, "an unknown scope is no scope");
        assert_eq!(fact.verified, None, "a string is not a boolean");
        assert_eq!(fact.needs_reverify, Some(true));
        assert_eq!(fact.verified_on, None);

        let ask: AskView = view(&json(r#"{"id":7,"status":3,"what":" q "}"#));
        assert!(ask.open(), "a status that is not a string says nothing");
        assert!(ask.asks("q"));
        assert_eq!(ask.id(), "7");

        let members: PackMembers = view(&json(
            r#"{"kind":5,"origin":[1],"lineage":{"chain":"x","root_id":"r"},"asks":{}}"#,
        ));
        assert_eq!(members.kind(), None);
        assert_eq!(members.origin.actor, None);
        assert!(members.lineage().chain().is_empty());
        assert_eq!(members.lineage().root_id(), Some("r"));
        assert!(PackMembers::items(&members.asks).is_empty());
        assert_eq!(members.packed_at, None);
    }

    #[test]
    fn a_list_is_counted_and_anything_else_is_none() {
        #[derive(Default, serde::Deserialize)]
        struct Counts {
            #[serde(default, deserialize_with = "count")]
            a: usize,
            #[serde(default, deserialize_with = "count")]
            b: usize,
            #[serde(default, deserialize_with = "count")]
            c: usize,
            #[serde(default, deserialize_with = "count")]
            missing: usize,
        }
        let counts: Counts = view(&json(r#"{"a":[1,{"x":[]},[2]],"b":{"k":[1]},"c":"[1]"}"#));
        assert_eq!((counts.a, counts.b, counts.c, counts.missing), (3, 0, 0, 0));
        for other in ["null", "true", "-1", "1.5", "18446744073709551615"] {
            let counts: Counts = view(&json(&format!(r#"{{"a":{other},"b":[[]]}}"#)));
            assert_eq!((counts.a, counts.b), (0, 1), "{other}");
        }
    }

    #[test]
    fn what_is_not_an_object_views_as_nothing() {
        assert_eq!(view::<StateView>(&json(r#"[1,[],{}]"#)).version(), 0);
        assert!(view::<StateView>(&json("null")).facts.is_empty());
        let state: StateView = view(&json(r#"{"version":4,"facts":{"a":1},"asks":[1,{}]}"#));
        assert_eq!(state.version(), 4);
        assert!(state.facts.is_empty());
        assert_eq!(state.asks.len(), 2);
        assert_eq!(typed::<FactScope>(&json(r#""org""#)), Some(FactScope::Org));
        assert_eq!(word::<FactScope>(&json(r#""org""#)), Some(FactScope::Org));
        // serde reads `{"org": null}` as the unit variant too; a word is read from a string
        // only, so a fact with that scope is of no scope the spec lists, and is sealed.
        let text = r#"{"org":null}"#;
        assert_eq!(
            serde_json::from_str::<FactScope>(text).ok(),
            Some(FactScope::Org)
        );
        assert_eq!(typed::<FactScope>(&json(text)), Some(FactScope::Org));
        assert_eq!(word::<FactScope>(&json(text)), None);
        let fact = json(r#"{"claim":"c","scope":{"universal":null}}"#);
        assert_eq!(view::<FactView>(&fact).scope(), None);
        assert!(crate::taskpack::passports::seal::is_machine_scoped(&fact));
    }
}
