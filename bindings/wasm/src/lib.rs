//! specmint as a WebAssembly module (`specmint.mjs` wraps it into the package's API).
//!
//! Every verdict comes from [`specmint::verdict`], the module `specmint validate` prints from,
//! so a document gets in a browser exactly what the CLI says; this crate only converts, as the
//! Node binding does. The exports are plain `extern "C"` functions over the module's memory:
//! the glue copies a text in with [`sm_alloc`] (UTF-8), calls, frees it with [`sm_free`], and
//! reads the answer, a text left in one output buffer ([`sm_out_ptr`], [`sm_out_len`]) until
//! the next call. A verdict is the CLI's JSON verdict (`specmint validate --format json`, less
//! `type` and `file`); a spec that does not check answers its diagnostics as JSON, each with
//! its file, line and column.
//!
//! A spec is loaded from its texts ([`specmint::verdict::DocType::load_texts`]: the Markdown
//! and the sidecar as strings, no file system) and kept under a handle until freed.
#![deny(clippy::all)]

use std::cell::RefCell;
use std::collections::BTreeMap;

use specmint::bundled::ALL;
use specmint::verdict::{known_in, unknown_type, DocType, FindError};
use specmint_codegen::{Diagnostics, SpecSource};

/// A spec loaded from text: its TYPEs, the sources (for the generated Rust), the directory
/// they are shown in.
struct Loaded {
    types: Vec<DocType>,
    sources: Vec<SpecSource>,
    dir: String,
}

thread_local! {
    /// The answer of the last call.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The loaded specs, by handle; a freed one is `None`.
    static SPECS: RefCell<Vec<Option<Loaded>>> = const { RefCell::new(Vec::new()) };
}

/// A status: the call answered (its answer is in the output buffer).
pub const OK: i32 = 0;
/// An unknown TYPE or a handle or index no call gave (a `TypeError`).
pub const BAD_ARGUMENT: i32 = -1;
/// A spec that does not check (a `SpecError` with the diagnostics).
pub const SPEC_ERROR: i32 = -2;
/// A locale that is neither a BCP 47 tag nor a POSIX locale name (a `RangeError`).
pub const BAD_LOCALE: i32 = -3;

fn answer(text: impl Into<Vec<u8>>) {
    OUT.with(|out| *out.borrow_mut() = text.into());
}

/// `status` with `text` as the answer.
fn reply(status: i32, text: impl Into<Vec<u8>>) -> i32 {
    answer(text);
    status
}

/// The answer's address in memory.
#[no_mangle]
pub extern "C" fn sm_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// The answer's length in bytes.
#[no_mangle]
pub extern "C" fn sm_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}

/// `len` bytes the glue writes a text into, handed back with [`sm_free`].
#[no_mangle]
pub extern "C" fn sm_alloc(len: usize) -> *mut u8 {
    let mut buffer = std::mem::ManuallyDrop::new(Vec::<u8>::with_capacity(len.max(1)));
    buffer.as_mut_ptr()
}

/// Frees what [`sm_alloc`] gave for `len` bytes.
///
/// # Safety
/// `ptr` is what `sm_alloc(len)` returned, not freed before.
#[no_mangle]
pub unsafe extern "C" fn sm_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller hands back a buffer of capacity `len.max(1)` from `sm_alloc`.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// The bytes at `ptr`.
///
/// # Safety
/// `ptr..ptr + len` is memory the glue wrote (a buffer of [`sm_alloc`]).
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: as the caller promises.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The text at `ptr` (the glue writes UTF-8; anything else is read lossily).
unsafe fn text(ptr: *const u8, len: usize) -> String {
    // SAFETY: as the caller of `text` promises.
    String::from_utf8_lossy(unsafe { bytes(ptr, len) }).into_owned()
}

fn json<T: serde::Serialize + ?Sized>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

/// The TYPE at `index` of the bundled specs.
fn bundled(index: u32) -> Option<DocType> {
    ALL.get(index as usize).map(DocType::Bundled)
}

fn no_type(index: u32) -> i32 {
    reply(BAD_ARGUMENT, format!("no TYPE at index {index}"))
}

fn find_error(e: FindError) -> i32 {
    match e {
        FindError::UnknownType(m) => reply(BAD_ARGUMENT, m),
        FindError::Spec(m) => reply(SPEC_ERROR, m),
    }
}

/// The bundled TYPEs, a JSON array.
#[no_mangle]
pub extern "C" fn sm_bundled_types() -> i32 {
    reply(OK, json(&specmint::bundled::names()))
}

/// The index of the bundled TYPE named at `name` (what the other `sm_bundled_*` take), or
/// [`BAD_ARGUMENT`] with the CLI's message for an unknown TYPE.
///
/// # Safety
/// `name..name + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_bundled_index(name: *const u8, len: usize) -> i32 {
    // SAFETY: as the caller promises.
    let name = unsafe { text(name, len) };
    if let Err(e) = DocType::find(None, Some(&name)) {
        return find_error(e);
    }
    let index = ALL.iter().position(|b| b.cli_name == name).unwrap_or(0);
    i32::try_from(index).unwrap_or(BAD_ARGUMENT)
}

/// 1 when the document at `data` is valid as the bundled TYPE at `index`, 0 when not.
///
/// # Safety
/// `data..data + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_bundled_accepts(index: u32, data: *const u8, len: usize) -> i32 {
    match bundled(index) {
        // SAFETY: as the caller promises.
        Some(ty) => i32::from(ty.accepts(unsafe { bytes(data, len) })),
        None => no_type(index),
    }
}

/// The verdict on the document at `data` as the bundled TYPE at `index`: the CLI's JSON
/// verdict (`{"valid": ..., "errors": [...]}`).
///
/// # Safety
/// `data..data + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_bundled_verdict(index: u32, data: *const u8, len: usize) -> i32 {
    match bundled(index) {
        // SAFETY: as the caller promises.
        Some(ty) => reply(
            OK,
            ty.judge_bytes(unsafe { bytes(data, len) }).to_json(None),
        ),
        None => no_type(index),
    }
}

/// Why the locale at `locale` cannot be asked for (not a BCP 47 tag nor a POSIX locale name):
/// [`BAD_LOCALE`] with the reason, or [`OK`] (the glue checks a locale where it is given).
///
/// # Safety
/// `locale..locale + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_locale_error(locale: *const u8, len: usize) -> i32 {
    // SAFETY: as the caller promises.
    let locale = unsafe { text(locale, len) };
    match specmint::runtime::messages::check_wanted(&locale) {
        Ok(()) => reply(OK, Vec::new()),
        Err(e) => reply(BAD_LOCALE, e.0),
    }
}

/// The verdict of `ty` on `data` as the CLI's JSON verdict, its messages in the language of
/// `locale` when the spec has it (empty: English), as the Node binding's `validate(TYPE,
/// data, locale)` writes them (issue 50).
fn verdict_in(ty: &DocType, data: &[u8], locale: &str) -> i32 {
    let wanted = (!locale.is_empty()).then_some(locale);
    match ty.judge_bytes_in(data, wanted) {
        Ok(verdict) => reply(OK, verdict.to_json(None)),
        Err(why) => reply(BAD_LOCALE, why),
    }
}

/// [`sm_bundled_verdict`] with the messages in the language of the locale at `locale` (a BCP
/// 47 tag such as `zh-TW`; empty: English) when the spec has it.
///
/// # Safety
/// Both ranges are buffers of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_bundled_verdict_in(
    index: u32,
    data: *const u8,
    len: usize,
    locale: *const u8,
    locale_len: usize,
) -> i32 {
    // SAFETY: as the caller promises.
    let (data, locale) = unsafe { (bytes(data, len), text(locale, locale_len)) };
    match bundled(index) {
        Some(ty) => verdict_in(&ty, data, &locale),
        None => no_type(index),
    }
}

/// The JSON Schema of the bundled TYPE at `index` (what `specmint schema TYPE` prints).
#[no_mangle]
pub extern "C" fn sm_bundled_schema(index: u32) -> i32 {
    match bundled(index) {
        Some(ty) => reply(OK, ty.schema()),
        None => no_type(index),
    }
}

/// One diagnostic of a spec, as the glue hands it on.
#[derive(serde::Serialize)]
struct DiagnosticItem<'a> {
    file: &'a str,
    /// 1-based; 0 for a problem of the whole file.
    line: usize,
    /// 1-based, in chars; 0 for a problem of the whole file.
    column: usize,
    message: &'a str,
    hint: &'a str,
    /// `file:line:col: error: message` and the hint, as the CLI prints it.
    text: String,
}

/// Every diagnostic, a JSON array.
fn diagnostics(d: &Diagnostics) -> Vec<u8> {
    let items: Vec<DiagnosticItem> = d
        .iter()
        .map(|d| DiagnosticItem {
            file: &d.file,
            line: d.pos.line,
            column: d.pos.col,
            message: &d.message,
            hint: &d.hint,
            text: d.to_string(),
        })
        .collect();
    json(&items)
}

/// Loads the specs among `files` (a JSON object: file name → text, each `<stem>.md` with its
/// `<stem>.toml`) shown in the directory `dir` (as `--spec DIR` names it): a handle (0 or
/// more) for the other `sm_spec_*`, or [`SPEC_ERROR`] with the diagnostics (a JSON array).
///
/// # Safety
/// Both ranges are buffers of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_spec_load(
    files: *const u8,
    files_len: usize,
    dir: *const u8,
    dir_len: usize,
) -> i32 {
    // SAFETY: as the caller promises.
    let (files, dir) = unsafe { (bytes(files, files_len), text(dir, dir_len)) };
    let files: BTreeMap<String, String> = match serde_json::from_slice(files) {
        Ok(files) => files,
        Err(e) => {
            return reply(
                BAD_ARGUMENT,
                format!("the files are a JSON object of file name to text: {e}"),
            )
        }
    };
    match DocType::load_texts(&files, &dir) {
        Ok(types) => {
            let loaded = Loaded {
                types,
                sources: specmint_codegen::spec_sources(&files, &dir),
                dir,
            };
            SPECS.with(|specs| {
                let mut specs = specs.borrow_mut();
                let handle = match specs.iter().position(Option::is_none) {
                    Some(free) => {
                        specs[free] = Some(loaded);
                        free
                    }
                    None => {
                        specs.push(Some(loaded));
                        specs.len() - 1
                    }
                };
                answer(Vec::new());
                i32::try_from(handle).unwrap_or(BAD_ARGUMENT)
            })
        }
        Err(d) => reply(SPEC_ERROR, diagnostics(&d)),
    }
}

/// Frees the spec at `handle`.
#[no_mangle]
pub extern "C" fn sm_spec_free(handle: u32) {
    SPECS.with(|specs| {
        if let Some(slot) = specs.borrow_mut().get_mut(handle as usize) {
            *slot = None;
        }
    });
}

/// `f` on the spec at `handle`, or [`BAD_ARGUMENT`].
fn with_spec(handle: u32, f: impl FnOnce(&Loaded) -> i32) -> i32 {
    SPECS.with(|specs| match specs.borrow().get(handle as usize) {
        Some(Some(loaded)) => f(loaded),
        _ => reply(BAD_ARGUMENT, format!("no spec at handle {handle}")),
    })
}

/// `f` on the TYPE at `index` of the spec at `handle`, or [`BAD_ARGUMENT`].
fn with_type(handle: u32, index: u32, f: impl FnOnce(&DocType) -> i32) -> i32 {
    with_spec(handle, |loaded| match loaded.types.get(index as usize) {
        Some(ty) => f(ty),
        None => no_type(index),
    })
}

/// The TYPEs of the spec at `handle`, a JSON array.
#[no_mangle]
pub extern "C" fn sm_spec_types(handle: u32) -> i32 {
    with_spec(handle, |loaded| {
        let names: Vec<&str> = loaded.types.iter().map(DocType::name).collect();
        reply(OK, json(&names))
    })
}

/// The index of the TYPE named at `name` in the spec at `handle`, or [`BAD_ARGUMENT`] with the
/// CLI's message for an unknown TYPE.
///
/// # Safety
/// `name..name + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_spec_index(handle: u32, name: *const u8, len: usize) -> i32 {
    // SAFETY: as the caller promises.
    let name = unsafe { text(name, len) };
    with_spec(handle, |loaded| {
        match loaded.types.iter().position(|t| t.name() == name) {
            Some(i) => i32::try_from(i).unwrap_or(BAD_ARGUMENT),
            None => {
                let names: Vec<String> = loaded.types.iter().map(|t| t.name().to_owned()).collect();
                reply(
                    BAD_ARGUMENT,
                    unknown_type(
                        &name,
                        names.iter().map(String::as_str),
                        &known_in(&loaded.dir, &names),
                    ),
                )
            }
        }
    })
}

/// 1 when the document at `data` is valid as the TYPE at `index` of the spec at `handle`.
///
/// # Safety
/// `data..data + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_spec_accepts(
    handle: u32,
    index: u32,
    data: *const u8,
    len: usize,
) -> i32 {
    // SAFETY: as the caller promises.
    let data = unsafe { bytes(data, len) };
    with_type(handle, index, |ty| i32::from(ty.accepts(data)))
}

/// The verdict on the document at `data` as the TYPE at `index` of the spec at `handle`: the
/// CLI's JSON verdict.
///
/// # Safety
/// `data..data + len` is a buffer of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_spec_verdict(
    handle: u32,
    index: u32,
    data: *const u8,
    len: usize,
) -> i32 {
    // SAFETY: as the caller promises.
    let data = unsafe { bytes(data, len) };
    with_type(handle, index, |ty| {
        reply(OK, ty.judge_bytes(data).to_json(None))
    })
}

/// [`sm_spec_verdict`] with the messages in the language of the locale at `locale` (empty:
/// English) when the spec has it: its locale files (`<stem>.<tag>.md`) were among the texts
/// [`sm_spec_load`] was given.
///
/// # Safety
/// Both ranges are buffers of [`sm_alloc`].
#[no_mangle]
pub unsafe extern "C" fn sm_spec_verdict_in(
    handle: u32,
    index: u32,
    data: *const u8,
    len: usize,
    locale: *const u8,
    locale_len: usize,
) -> i32 {
    // SAFETY: as the caller promises.
    let (data, locale) = unsafe { (bytes(data, len), text(locale, locale_len)) };
    with_type(handle, index, |ty| verdict_in(ty, data, &locale))
}

/// The JSON Schema of the TYPE at `index` of the spec at `handle`: what `specmint schema
/// --spec DIR TYPE` prints.
#[no_mangle]
pub extern "C" fn sm_spec_schema(handle: u32, index: u32) -> i32 {
    with_type(handle, index, |ty| reply(OK, ty.schema()))
}

/// The Rust module generated for the TYPE at `index` of the spec at `handle`: what `specmint
/// generate --spec DIR` writes to `rust/<name>.rs`.
#[no_mangle]
pub extern "C" fn sm_spec_rust(handle: u32, index: u32) -> i32 {
    with_spec(handle, |loaded| {
        let Some(source) = loaded.sources.get(index as usize) else {
            return no_type(index);
        };
        match specmint_codegen::generate(
            std::slice::from_ref(source),
            &generate_options(&loaded.dir),
        ) {
            Ok(files) => {
                let rust = files
                    .into_iter()
                    .find(|(path, _)| path == &format!("rust/{}.rs", source.name))
                    .map(|(_, text)| text)
                    .unwrap_or_default();
                reply(OK, rust)
            }
            Err(d) => reply(SPEC_ERROR, diagnostics(&d)),
        }
    })
}

/// The options `specmint generate --spec DIR` emits with, run from DIR's parent with the
/// default output directory.
fn generate_options(dir: &str) -> specmint_codegen::Options {
    let mut command = "specmint generate".to_owned();
    if dir != specmint::SPEC_DIR {
        command += &format!(" --spec {dir}");
    }
    specmint_codegen::Options {
        regenerate_with: Some(command),
        spec_dir_in_files: Some(dir.to_owned()),
        ..specmint::bundle_options()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out() -> String {
        OUT.with(|out| String::from_utf8(out.borrow().clone()).unwrap())
    }

    fn load(files: &serde_json::Value, dir: &str) -> i32 {
        let files = files.to_string();
        // SAFETY: both are live slices for the call.
        unsafe { sm_spec_load(files.as_ptr(), files.len(), dir.as_ptr(), dir.len()) }
    }

    const MD: &str = "# Note v1\n\n## Fields of a `note`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `text` | non-blank string | ✔ | The text. |\n\n## Error codes\n\n| Code | When |\n|---|---|\n| `bad_note` | Not JSON or not the shape. |\n| `blank` | Blank. |\n";
    const TOML: &str =
        "[spec]\nroot = \"note\"\n\n[errors]\nparse = \"bad_note\"\nnon_blank = \"blank\"\n";

    #[test]
    fn a_spec_given_as_text_judges_as_the_cli_does() {
        let handle = load(
            &serde_json::json!({"note.md": MD, "note.toml": TOML}),
            "spec",
        );
        assert!(handle >= 0, "{}", out());
        let handle = handle as u32;
        assert_eq!(sm_spec_types(handle), OK);
        assert_eq!(out(), r#"["note"]"#);
        let doc = br#"{"text": " "}"#;
        // SAFETY: a live slice.
        assert_eq!(
            unsafe { sm_spec_accepts(handle, 0, doc.as_ptr(), doc.len()) },
            0
        );
        assert_eq!(
            unsafe { sm_spec_verdict(handle, 0, doc.as_ptr(), doc.len()) },
            OK
        );
        assert_eq!(
            out(),
            r#"{"valid":false,"errors":[{"code":"blank","path":"text","pointer":"/text","message":"`text` must not be blank","line":1,"column":10}]}"#
        );
        assert_eq!(sm_spec_schema(handle, 0), OK);
        assert!(
            out().contains("specmint schema --spec spec note"),
            "{}",
            out()
        );
        assert_eq!(sm_spec_rust(handle, 0), OK);
        assert!(out().contains("pub struct Note"), "{}", out());
        assert_eq!(sm_spec_schema(handle, 1), BAD_ARGUMENT);
        assert_eq!(out(), "no TYPE at index 1");
        sm_spec_free(handle);
        assert_eq!(sm_spec_types(handle), BAD_ARGUMENT);
    }

    #[test]
    fn a_broken_spec_answers_every_diagnostic_at_its_line_and_column() {
        let md = MD.replace(
            "| `text` | non-blank string |",
            "| `text` | non-blank strin |",
        );
        let files = serde_json::json!({"note.md": md, "note.toml": TOML});
        assert_eq!(load(&files, "specs"), SPEC_ERROR);
        let diagnostics: serde_json::Value = serde_json::from_str(&out()).unwrap();
        let first = &diagnostics[0];
        assert_eq!(first["file"], "specs/note.md");
        assert_eq!(first["line"], 7);
        assert_eq!(first["column"], 12);
        assert!(first["text"]
            .as_str()
            .unwrap()
            .starts_with("specs/note.md:7:12: error: "));

        assert_eq!(load(&serde_json::json!({"a.txt": ""}), "spec"), SPEC_ERROR);
        assert!(out().contains("`spec` holds no spec"), "{}", out());
        assert_eq!(
            load(&serde_json::json!(["not", "an object"]), "spec"),
            BAD_ARGUMENT
        );
    }
}
