//! The Node binding's native addon (`index.js` wraps it into the package's API).
//!
//! Every verdict comes from [`specmint::verdict`], the module `specmint validate` prints from,
//! so a document gets from Node exactly what the CLI says; this crate only converts. A verdict
//! crosses in two steps, as `index.js` asks for them: `accepts` answers `valid` alone
//! ([`DocType::accepts`]: no report is built, nothing but a boolean crosses N-API), and
//! `errors` the rest, only for a refused document whose errors are read: the objects of the
//! CLI's JSON verdict (`errors`), built here through N-API rather than as JSON text for
//! `JSON.parse`.
//!
//! A TYPE is looked up once by name (`bundled_index`, `NativeSpec::index`) and named by its
//! index afterwards, and a string and a Buffer go to functions of their own, the Buffer read in
//! place ([`BufferSlice`]): a call costs a few hundred nanoseconds less than one that converts a
//! name and a `String | Buffer` each time. A string is written as UTF-8 once, into a buffer the
//! thread keeps (`with_utf8`), and its well-formedness is asked of JavaScript only when the
//! text holds a U+FFFD (`REPLACED`).
#![deny(clippy::all)]

use std::cell::RefCell;

use napi::bindgen_prelude::BufferSlice;
use napi::{Error, JsString, JsValue, Result, Status};
use napi_derive::napi;
use specmint::bundled::ALL;
use specmint::verdict::{known_in, unknown_type, DocType, FindError, Verdict};

/// Status `InvalidArg`: an unknown TYPE; `GenericFailure`: a spec that cannot be read or does
/// not check (index.js raises `SpecError` for it).
fn find_error(e: FindError) -> Error {
    match e {
        FindError::UnknownType(m) => Error::new(Status::InvalidArg, m),
        FindError::Spec(m) => Error::new(Status::GenericFailure, m),
    }
}

/// One error of a verdict: an element of the `errors` of the CLI's JSON verdict, field for field
/// and in its order; a field the JSON leaves out is left out (`undefined`).
#[napi(object)]
pub struct ErrorItem {
    pub code: String,
    pub path: String,
    pub pointer: String,
    pub message: String,
    pub measured: Option<f64>,
    pub limit: Option<f64>,
    pub line: Option<f64>,
    pub column: Option<f64>,
}

/// The verdict's errors as objects, each number as JavaScript reads it from the JSON text (the
/// nearest double).
fn errors(verdict: Verdict) -> Vec<ErrorItem> {
    verdict
        .errors
        .into_iter()
        .map(|e| ErrorItem {
            code: e.violation.code.into(),
            path: e.violation.path,
            pointer: e.violation.pointer,
            message: e.violation.message,
            measured: e.violation.measured.map(|n| n as f64),
            limit: e.violation.limit.map(|n| n as f64),
            line: e.line.map(|n| n as f64),
            column: e.column.map(|n| n as f64),
        })
        .collect()
}

/// The verdict on `data`, the head of a document of `total` bytes (the whole document when
/// `total` is absent): `index.js` hands over only the first `limit + 1` bytes of a document
/// refused for its size, so none is held whole twice.
/// With `locale`, the messages in that language when the spec has it (issue 50).
fn judge_head(ty: &DocType, data: &[u8], total: Option<f64>, locale: Option<String>) -> Verdict {
    let mut verdict = match total {
        // A JavaScript length is an integer below 2^53: exact as f64.
        Some(total) if total > data.len() as f64 => {
            let limit = ty.document().max_input_bytes;
            let head = data.len().min(limit.saturating_add(1));
            ty.judge(&data[..head], total as u64, limit)
        }
        _ => ty.judge_bytes(data),
    };
    if let Some(catalog) = locale.and_then(|l| ty.catalog(&l)) {
        verdict.localize(&catalog);
    }
    verdict
}

/// Why `locale` cannot be asked for (not a BCP 47 tag nor a POSIX locale name), or `null`.
#[napi]
pub fn locale_error(locale: String) -> Option<String> {
    specmint::runtime::messages::check_wanted(&locale)
        .err()
        .map(|e| e.0)
}

/// The bit of a `*_text` answer that says the UTF-8 written holds a U+FFFD: N-API writes one
/// for a lone surrogate, so `index.js` then asks whether the string was well-formed (and
/// refuses it when not) before it trusts the verdict in the other bit.
const REPLACED: u32 = 2;

/// Strings up to this many UTF-16 units are written into the thread's kept buffer (at most
/// three bytes a unit); a longer one gets a buffer of its own, freed after the call.
const KEPT_UNITS: usize = 1 << 16;

thread_local! {
    static UTF8: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The search for U+FFFD's UTF-8, built once (building it was 2 % of a small document's call).
static REPLACEMENT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new("\u{FFFD}"));

/// `f` of the UTF-8 of `text` and whether it holds a U+FFFD, written in one pass (N-API's
/// `napi_get_value_string_utf8` with room enough: a UTF-16 unit is at most three bytes, and
/// the unit count costs nothing to ask), where napi-rs's `String` counts the bytes in a pass
/// of its own and allocates.
fn with_utf8<R>(text: &JsString, f: impl FnOnce(&[u8]) -> R) -> Result<(R, bool)> {
    let value = text.value();
    let mut units = 0usize;
    // SAFETY: `value` is a live string handle of `value.env` for this call; a null buffer asks
    // for the length in UTF-16 units only.
    let status = unsafe {
        napi::sys::napi_get_value_string_utf16(
            value.env,
            value.value,
            std::ptr::null_mut(),
            0,
            &mut units,
        )
    };
    check(status)?;
    let room = units.saturating_mul(3).saturating_add(1);
    let write = |buffer: &mut Vec<u8>| -> Result<(R, bool)> {
        if buffer.len() < room {
            buffer.resize(room, 0);
        }
        let mut written = 0usize;
        // SAFETY: `buffer` holds `room` writable bytes; N-API writes at most `room - 1` of them
        // and a terminating NUL, and says how many it wrote before the NUL.
        let status = unsafe {
            napi::sys::napi_get_value_string_utf8(
                value.env,
                value.value,
                buffer.as_mut_ptr().cast(),
                room,
                &mut written,
            )
        };
        check(status)?;
        let bytes = &buffer[..written.min(room - 1)];
        let replaced = REPLACEMENT.find(bytes).is_some();
        Ok((f(bytes), replaced))
    };
    if units > KEPT_UNITS {
        return write(&mut Vec::new());
    }
    UTF8.with(|kept| match kept.try_borrow_mut() {
        Ok(mut buffer) => write(&mut buffer),
        // Not reached (nothing here calls back into JavaScript), but never a panic.
        Err(_) => write(&mut Vec::new()),
    })
}

fn check(status: napi::sys::napi_status) -> Result<()> {
    if status == napi::sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Error::new(
            Status::StringExpected,
            "a document string could not be read".to_owned(),
        ))
    }
}

/// A `*_text` verdict: bit 0 the verdict, [`REPLACED`] when the text holds a U+FFFD.
fn text_answer((valid, replaced): (bool, bool)) -> u32 {
    u32::from(valid) | if replaced { REPLACED } else { 0 }
}

/// The TYPE at `index` of `types`; an index no lookup gave is an `InvalidArg`.
fn at<T>(types: &[T], index: u32) -> Result<&T> {
    usize::try_from(index)
        .ok()
        .and_then(|i| types.get(i))
        .ok_or_else(|| Error::new(Status::InvalidArg, format!("no TYPE at index {index}")))
}

fn bundled(index: u32) -> Result<DocType> {
    Ok(DocType::Bundled(at(ALL, index)?))
}

/// The index of the bundled TYPE (what the other `bundled_*` functions take), or the CLI's
/// message for an unknown TYPE.
#[napi]
pub fn bundled_index(name: String) -> Result<u32> {
    DocType::find(None, Some(&name)).map_err(find_error)?;
    let index = ALL.iter().position(|b| b.cli_name == name);
    Ok(index
        .and_then(|i| u32::try_from(i).ok())
        .unwrap_or(u32::MAX))
}

/// Whether the Buffer `data` is valid as the bundled TYPE at `index`.
#[napi]
pub fn bundled_accepts(index: u32, data: BufferSlice) -> Result<bool> {
    Ok(bundled(index)?.accepts(&data))
}

/// Whether the string `data` is valid as the bundled TYPE at `index` (bit 0), and `REPLACED` (2) when its UTF-8 holds a U+FFFD.
#[napi]
pub fn bundled_accepts_text(index: u32, data: JsString) -> Result<u32> {
    let ty = bundled(index)?;
    with_utf8(&data, |bytes| ty.accepts(bytes)).map(text_answer)
}

/// The errors of the Buffer `data` as the bundled TYPE at `index` (none when it is valid);
/// `data` is the head of a document of `total` bytes when `total` is given.
#[napi]
pub fn bundled_errors(
    index: u32,
    data: BufferSlice,
    total: Option<f64>,
    locale: Option<String>,
) -> Result<Vec<ErrorItem>> {
    Ok(errors(judge_head(&bundled(index)?, &data, total, locale)))
}

/// The errors of the string `data` as the bundled TYPE at `index` (none when it is valid);
/// `data` is the head of a document of `total` UTF-8 bytes when `total` is given.
#[napi]
pub fn bundled_errors_text(
    index: u32,
    data: JsString,
    total: Option<f64>,
    locale: Option<String>,
) -> Result<Vec<ErrorItem>> {
    let ty = bundled(index)?;
    Ok(errors(
        with_utf8(&data, |bytes| judge_head(&ty, bytes, total, locale))?.0,
    ))
}

/// The input size limit of the bundled TYPE at `index`, in bytes.
#[napi]
pub fn bundled_max_input_bytes(index: u32) -> Result<f64> {
    Ok(bundled(index)?.document().max_input_bytes as f64)
}

/// The bundled TYPE's JSON Schema (JSON text); with `locale` (checked by the caller), each
/// rule's message in that language as ajv-errors reads it (`specmint schema --locale TAG`).
#[napi]
pub fn schema_bundled(name: String, locale: Option<String>) -> Result<String> {
    schema_text(
        &DocType::find(None, Some(&name)).map_err(find_error)?,
        locale,
    )
}

/// `ty`'s schema, in `locale` when given: a spec without messages serving it is the one
/// `GenericFailure` of a schema, a `RangeError` in `index.js`.
fn schema_text(ty: &DocType, locale: Option<String>) -> Result<String> {
    match locale {
        None => Ok(ty.schema()),
        Some(tag) => ty
            .schema_in_or_why(&tag)
            .map_err(|why| Error::new(Status::GenericFailure, why)),
    }
}

/// The bundled TYPEs.
#[napi]
pub fn bundled_types() -> Vec<String> {
    specmint::bundled::names()
        .into_iter()
        .map(str::to_owned)
        .collect()
}

/// The specs of a spec directory, read by the interpreter (`specmint validate --spec DIR`).
#[napi]
pub struct NativeSpec {
    types: Vec<DocType>,
    dir: String,
}

#[napi]
impl NativeSpec {
    /// Loads and checks every spec of `dir`.
    #[napi(factory)]
    pub fn load(dir: String) -> Result<NativeSpec> {
        let types = DocType::load_dir(std::path::Path::new(&dir)).map_err(find_error)?;
        Ok(NativeSpec { types, dir })
    }

    /// The TYPEs it holds.
    #[napi(getter)]
    pub fn types(&self) -> Vec<String> {
        self.types.iter().map(|t| t.name().to_owned()).collect()
    }

    /// The index of TYPE (what `accepts`, `accepts_text` and `verdict` take), or the CLI's
    /// message for an unknown TYPE.
    #[napi]
    pub fn index(&self, name: String) -> Result<u32> {
        match self.types.iter().position(|t| t.name() == name) {
            Some(i) => Ok(u32::try_from(i).unwrap_or(u32::MAX)),
            None => {
                let types = self.types();
                Err(Error::new(
                    Status::InvalidArg,
                    unknown_type(
                        &name,
                        types.iter().map(String::as_str),
                        &known_in(&self.dir, &types),
                    ),
                ))
            }
        }
    }

    /// Whether the Buffer `data` is valid as the TYPE at `index`.
    #[napi]
    pub fn accepts(&self, index: u32, data: BufferSlice) -> Result<bool> {
        Ok(at(&self.types, index)?.accepts(&data))
    }

    /// Whether the string `data` is valid as the TYPE at `index` (bit 0), and `REPLACED` (2) when its UTF-8 holds a U+FFFD.
    #[napi]
    pub fn accepts_text(&self, index: u32, data: JsString) -> Result<u32> {
        let ty = at(&self.types, index)?;
        with_utf8(&data, |bytes| ty.accepts(bytes)).map(text_answer)
    }

    /// The errors of the Buffer `data` as the TYPE at `index` (none when it is valid); `data`
    /// is the head of a document of `total` bytes when `total` is given.
    #[napi]
    pub fn errors(
        &self,
        index: u32,
        data: BufferSlice,
        total: Option<f64>,
        locale: Option<String>,
    ) -> Result<Vec<ErrorItem>> {
        Ok(errors(judge_head(
            at(&self.types, index)?,
            &data,
            total,
            locale,
        )))
    }

    /// The errors of the string `data` as the TYPE at `index` (none when it is valid); `data`
    /// is the head of a document of `total` UTF-8 bytes when `total` is given.
    #[napi]
    pub fn errors_text(
        &self,
        index: u32,
        data: JsString,
        total: Option<f64>,
        locale: Option<String>,
    ) -> Result<Vec<ErrorItem>> {
        let ty = at(&self.types, index)?;
        Ok(errors(
            with_utf8(&data, |bytes| judge_head(ty, bytes, total, locale))?.0,
        ))
    }

    /// The input size limit of the TYPE at `index`, in bytes.
    #[napi]
    pub fn max_input_bytes(&self, index: u32) -> Result<f64> {
        Ok(at(&self.types, index)?.document().max_input_bytes as f64)
    }

    /// TYPE's JSON Schema (JSON text): what `specmint schema --spec DIR TYPE` prints from the
    /// current directory (its `$comment` names DIR as seen from there); with `locale`, as
    /// `--locale TAG` prints it.
    #[napi]
    pub fn schema(&self, name: String, locale: Option<String>) -> Result<String> {
        let index = self.index(name)?;
        schema_text(at(&self.types, index)?, locale)
    }
}
