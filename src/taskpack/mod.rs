// The generated types, constants, error enum and validator of spec/taskpack.md (as `specmint generate`
// wrote them to generated/, or as the build script writes them under `from-spec`: see
// `generated!` in lib.rs), then this protocol's hand-written behaviour in the folders beside
// this file.

generated!("taskpack");

// The hand-written behaviour, one folder per concern:
// - `encodings/`: the two encodings of a pack and the readers and writers between them (the
//   zip bag, the flat form and its bounded-memory skeleton, reading an arriving pack,
//   converting);
// - `judge/`: the conformance judge (§6) and what a pack must never carry (§4.1);
// - `landing/`: the decisions of landing a handoff and merging a receipt, and their arrival
//   into the store;
// - `passports/`: the local passport store and the sealing rule of facts across machines;
// - `pack/`: packing a passport and its luggage;
// - `a2a/`: the A2A binding (the pack↔Task mapping, the wire reading, the JSON-RPC door).
// Shared by them: `lenient` (the lenient views of untyped JSON), `names` (the attachment name
// rule) and `answer` (what the CLI prints). The modules' former paths (`taskpack::bag`,
// `taskpack::land`, ...) are re-exported below.

#[cfg(feature = "taskpack")]
pub mod a2a;
#[cfg(feature = "taskpack")]
pub mod answer;
#[cfg(feature = "taskpack")]
pub mod encodings;
#[cfg(feature = "taskpack")]
pub mod judge;
#[cfg(feature = "taskpack")]
pub mod landing;
#[cfg(feature = "taskpack")]
mod lenient;
#[cfg(feature = "taskpack")]
pub use lenient::LineageView;
pub(crate) mod names;
#[cfg(feature = "taskpack")]
pub mod pack;
#[cfg(feature = "taskpack")]
pub mod passports;

#[cfg(feature = "taskpack")]
pub use a2a::spill;
#[cfg(feature = "taskpack")]
pub use encodings::{bag, convert, flat, unpack};
#[cfg(feature = "taskpack")]
pub use judge::{conformance, patterns};
#[cfg(feature = "taskpack")]
pub use landing::{arrival, land};
#[cfg(feature = "taskpack")]
pub use passports::seal;

/// The bytes every zip starts with (`PK`: a local file header, or the end record of an empty
/// zip). What tells the `.taskpack` form from the flat one by content, wherever that is asked
/// (the flat form's judge names the commands that read zips, in every build).
pub const ZIP_MAGIC: &[u8] = b"PK";
/// The `.taskpack` form as the flat form's judge tells it (`bundled`'s `other_form`): a zip,
/// which `validate` does not read.
pub(crate) const ZIP_FORM: crate::bundled::OtherForm = crate::bundled::OtherForm {
    magic: ZIP_MAGIC,
    note: crate::notes::Note::ZipForm,
};
/// How the flat form's judge reads a file in bounded memory (`bundled`'s `streamed`): its
/// attachments' data strings streamed, with the `taskpack` feature.
#[cfg(feature = "taskpack")]
pub(crate) const STREAMED: Option<crate::bundled::ReadStreamed> =
    Some(encodings::flat::read_streamed);
#[cfg(not(feature = "taskpack"))]
pub(crate) const STREAMED: Option<crate::bundled::ReadStreamed> = None;
/// The ordered JSON tree the pack object is read into (the runtime's, shared with generated open objects).
pub use specmint_runtime::json;

/// TaskPack's messages (its spec's locale files) serving a reader who asks for `wanted` (a
/// BCP 47 tag, or a POSIX locale name): what the A2A door and `taskpack land`/`merge` write a
/// refusal's problems in ([`crate::Refusal::localize`]); `None` for English or a language
/// TaskPack has no messages in.
#[cfg(feature = "messages")]
#[must_use]
pub fn catalog(wanted: &str) -> Option<crate::runtime::messages::Catalog> {
    crate::verdict::DocType::Bundled(crate::bundled::find("taskpack")?).catalog(wanted)
}

/// `object[key] = value`, as JavaScript assigns it: a member already present keeps its place (a
/// repeated key becomes one member there), a new one is appended. Does nothing to a value that
/// is not an object.
#[cfg(feature = "taskpack")]
pub fn set_member(object: &mut json::Json, key: &str, value: json::Json) {
    let json::Json::Object(members) = object else {
        return;
    };
    match members.iter().position(|(k, _)| k == key) {
        Some(first) => {
            members[first].1 = value;
            let mut index = 0;
            members.retain(|(k, _)| {
                index += 1;
                index - 1 == first || k != key
            });
        }
        None => members.push((key.to_owned(), value)),
    }
}

/// The member `key` of an object, to change in place (the last one, as `Json::get` reads it).
#[cfg(feature = "taskpack")]
pub fn member_mut<'a>(object: &'a mut json::Json, key: &str) -> Option<&'a mut json::Json> {
    match object {
        json::Json::Object(members) => members
            .iter_mut()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v),
        _ => None,
    }
}

/// Every item as displayed, `; `-separated: how an error that holds several problems says
/// them all.
#[cfg(feature = "taskpack")]
pub(crate) fn joined<T: std::fmt::Display>(items: &[T]) -> String {
    let all: Vec<String> = items.iter().map(T::to_string).collect();
    all.join("; ")
}

#[cfg(all(test, feature = "taskpack"))]
mod tests {
    use super::json::Json;
    use super::*;

    #[test]
    fn set_member_assigns_as_javascript_does() {
        let mut json = Json::parse(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        set_member(&mut json, "a", Json::Bool(true));
        set_member(&mut json, "c", Json::Null);
        assert_eq!(json.to_js_compact(), r#"{"a":true,"b":2,"c":null}"#);
        assert!(json.duplicate_keys().is_empty());
        *member_mut(&mut json, "b").unwrap() = Json::Str("x".to_owned());
        assert_eq!(json.get("b").and_then(Json::as_str), Some("x"));
        let mut array = Json::Array(Vec::new());
        set_member(&mut array, "a", Json::Null);
        assert_eq!(array, Json::Array(Vec::new()));
    }
}
