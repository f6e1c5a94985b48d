//! JSON text of a `serde_json::Value` with every object's members in key order, for what
//! specmint writes from values it builds: the schemas and corpora codegen emits, `specmint
//! diff`'s report and witnesses, the library's audit rows.
//!
//! serde_json's `Map` keeps keys sorted only while its `preserve_order` feature is off, and
//! Cargo unifies features: a crate that turns `preserve_order` on in the same build would
//! otherwise change the schemas `Config::run` writes (insertion order) and make `generate
//! --check` report drift. Written through these, the bytes are the same either way.

use serde_json::Value;

/// `value` as pretty JSON text, members in key order, with a final newline (a file's text).
pub fn pretty_file(value: &Value) -> String {
    let mut s = serde_json::to_string_pretty(&sorted(value)).expect("a Value serializes");
    s.push('\n');
    s
}

/// `value` as compact JSON text, members in key order.
pub fn compact(value: &Value) -> String {
    sorted(value).to_string()
}

fn sorted(value: &Value) -> Value {
    let mut value = value.clone();
    value.sort_all_objects();
    value
}
