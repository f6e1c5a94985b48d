//! Validating a valid value performs zero heap allocations, for every rule kind (after a
//! first call, which compiles each `pattern`'s regex once).
//!
//! A counting `#[global_allocator]` (this test binary only) counts allocations made by the
//! current thread while counting is switched on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use serde::Serialize;
use specmint_macros::Validate;
use specmint_runtime::Validate as _;

struct Counting;

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: delegates every call to `System`, only counting on the side.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    COUNT.with(|c| c.set(0));
    ON.with(|on| on.set(true));
    let r = f();
    ON.with(|on| on.set(false));
    (COUNT.with(Cell::get), r)
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
enum Kind {
    Must,
    MustNot,
    Note,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

#[derive(Serialize, Validate)]
struct Item {
    #[validate(non_blank, max_chars = 20)]
    id: String,
    kind: Kind,
    #[validate(non_blank)]
    value: String,
}

const LIST_MAX: usize = 8;

impl std::fmt::Display for Encoding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Encoding::Utf8 => "utf8",
            Encoding::Base64 => "base64",
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
enum Encoding {
    Utf8,
    Base64,
}

#[derive(Serialize, Validate)]
#[validate(digest(sha256 = sha256, data = data, encoding = encoding, label = name, length = bytes))]
struct Attachment {
    name: String,
    encoding: Encoding,
    data: String,
    sha256: Option<String>,
    bytes: Option<u64>,
}

#[derive(Serialize, Validate)]
#[serde(rename_all = "camelCase")]
#[validate(not_equal(a = from_role, b = to_role), max_json_bytes = 4096)]
#[validate(not_contains(list = depends_on, value = task_id))]
struct Doc {
    #[validate(equals(value = "0.1"))]
    protocol_version: String,
    #[validate(pattern(regex = "^pkg_[A-Za-z0-9_-]{1,63}$"), relative_path)]
    package_id: String,
    #[validate(required)]
    objective: Option<String>,
    #[validate(required_if(field = encoding, equals = Encoding::Utf8))]
    boundaries: Option<Vec<String>>,
    encoding: Encoding,
    task_id: Option<String>,
    #[validate(unique(ignore_case, trim))]
    depends_on: Vec<String>,
    #[validate(nested)]
    attachments: Vec<Attachment>,
    #[validate(non_blank, max_chars = 200)]
    title: String,
    #[validate(non_blank, max_chars(max = 50, code = "summary_too_long"))]
    summary: Option<String>,
    #[validate(max_items = LIST_MAX, each(non_blank, max_chars = 30))]
    audience: Vec<String>,
    #[validate(each(non_blank))]
    tags: Option<Vec<String>>,
    #[validate(max_items = LIST_MAX, nested, unique_by(key = id, ignore_case, trim))]
    #[validate(max_items_per_group(by = kind, max = 3))]
    #[validate(contradiction(
        by = kind,
        value = value,
        pair(Kind::Must, Kind::MustNot, ignore_case)
    ))]
    items: Vec<Item>,
    #[validate(nested)]
    lead: Option<Item>,
    from_role: String,
    to_role: String,
}

fn item(id: &str, kind: Kind, value: &str) -> Item {
    Item {
        id: id.into(),
        kind,
        value: value.into(),
    }
}

/// sha256("hello world")
const HELLO_SHA: &str = "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9";

fn valid() -> Doc {
    Doc {
        protocol_version: "0.1".into(),
        package_id: "pkg_abc".into(),
        objective: Some("do it".into()),
        boundaries: Some(vec!["b".into()]),
        encoding: Encoding::Utf8,
        task_id: Some("t-9".into()),
        depends_on: vec!["t-1".into(), "t-2".into()],
        attachments: vec![
            Attachment {
                name: "a.txt".into(),
                encoding: Encoding::Utf8,
                data: "hello world".into(),
                sha256: Some(HELLO_SHA.into()),
                bytes: Some(11),
            },
            Attachment {
                name: "b.bin".into(),
                encoding: Encoding::Base64,
                data: "aGVsbG8gd29ybGQ=".into(),
                sha256: Some(HELLO_SHA.into()),
                bytes: Some(11),
            },
        ],
        title: "漢字 and 😀 title".into(),
        summary: Some("short".into()),
        audience: vec!["dev".into(), "ops".into(), "Ünïcode".into()],
        tags: Some(vec!["a".into(), "b".into()]),
        items: vec![
            item("C1", Kind::Must, "grep"),
            item(" c2 ", Kind::MustNot, "mail"),
            item("ΣΑΣ", Kind::Note, "grep"),
            item("c4", Kind::Must, "sed"),
        ],
        lead: Some(item("L", Kind::Note, "x")),
        from_role: "planner".into(),
        to_role: "coder".into(),
    }
}

#[test]
fn validating_a_valid_value_does_not_allocate() {
    let doc = valid();
    // Warm up: each `pattern` call site compiles its regex once, on first use.
    assert!(doc.validate().is_ok(), "{:?}", doc.validate());
    let (count, result) = allocations(|| doc.validate().is_ok());
    assert!(result, "{:?}", doc.validate());
    assert_eq!(count, 0, "validating a valid value allocated {count} times");
}

#[test]
fn the_counter_counts() {
    let mut doc = valid();
    doc.title = " ".into();
    doc.items[1].id = "C1".into();
    let (count, report) = allocations(|| doc.validate().unwrap_err());
    assert_eq!(report.len(), 2);
    assert!(count > 0);
}
