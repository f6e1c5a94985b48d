//! Names with a `'static` lifetime, stored once per distinct string for the process: the
//! runtime's codes, path names and shape descriptions are `&'static str`, and both the
//! interpreter (`--spec DIR`) and the `SHAPES` builder make them from a loaded spec.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock, PoisonError};

/// `s` with a `'static` lifetime, stored once per distinct string for the process (the
/// runtime's codes and path names are `&'static str`).
pub(crate) fn intern(s: &str) -> &'static str {
    static SEEN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut seen = SEEN
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = seen.get(s) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
    seen.insert(leaked);
    leaked
}

/// A list of names (`FIELDS`, `VARIANTS`), stored once per distinct list.
pub(crate) fn intern_list<'a>(names: impl IntoIterator<Item = &'a str>) -> &'static [&'static str] {
    static SEEN: OnceLock<Mutex<HashSet<&'static [&'static str]>>> = OnceLock::new();
    let list: Vec<&'static str> = names.into_iter().map(intern).collect();
    let mut seen = SEEN
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = seen.get(list.as_slice()) {
        return known;
    }
    let leaked: &'static [&'static str] = Box::leak(list.into_boxed_slice());
    seen.insert(leaked);
    leaked
}
