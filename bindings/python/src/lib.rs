//! `specmint._specmint`: the Python binding's native module (the package `specmint` re-exports it).
//!
//! Every verdict comes from [`specmint::verdict`], the function `specmint validate` prints, so a
//! document gets from Python exactly what the CLI says; this crate only converts. A document is
//! read from the `bytes` (or `str`) object itself, with no JSON parse on the Python side, and the
//! GIL is released while it is judged.

use std::path::PathBuf;

use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use serde_json::Value;
use specmint::verdict::{known_in, unknown_type, DocType, FindError, Located, Verdict};

pyo3::create_exception!(
    _specmint,
    SpecError,
    PyException,
    "A spec directory that cannot be read, or a spec in it that does not check (the message \
     holds its `file:line:col` diagnostics)."
);
pyo3::create_exception!(
    _specmint,
    ValidationError,
    PyException,
    "A document refused by `check`; its `report` attribute is the `Report`."
);

/// One violation: the code, where it is, and what was measured against which limit.
#[pyclass(frozen, get_all, module = "specmint")]
struct Error {
    /// The spec's error code, e.g. `field_too_long`.
    code: String,
    /// The path in the spec's notation (`constraints[3].text`); `""` for the document.
    path: String,
    /// The RFC 6901 pointer (`/constraints/3/text`); `""` for the document.
    pointer: String,
    /// The message, naming the item.
    message: String,
    /// The measured quantity (chars, items, bytes), where the rule has numbers.
    measured: Option<u64>,
    /// The limit, where the rule has numbers.
    limit: Option<u64>,
    /// The 1-based line in the input, where it can be placed.
    line: Option<usize>,
    /// The 1-based column (in chars), where it can be placed.
    column: Option<usize>,
}

#[pymethods]
impl Error {
    fn __repr__(&self) -> String {
        format!(
            "<specmint.Error {} at {:?}: {}>",
            self.code, self.path, self.message
        )
    }
}

impl Error {
    fn new(l: &Located) -> Self {
        let v = &l.violation;
        Error {
            code: v.code.to_string(),
            path: v.path.clone(),
            pointer: v.pointer.clone(),
            message: v.message.clone(),
            measured: v.measured,
            limit: v.limit,
            line: l.line,
            column: l.column,
        }
    }
}

/// A document's verdict: `valid`, and the violations in document order.
#[pyclass(frozen, module = "specmint")]
struct Report {
    verdict: Verdict,
    errors: Py<PyList>,
}

#[pymethods]
impl Report {
    /// True when the document has no violation.
    #[getter]
    fn valid(&self) -> bool {
        self.verdict.is_valid()
    }

    /// The violations (`specmint.Error`), in document order.
    #[getter]
    fn errors(&self, py: Python<'_>) -> Py<PyList> {
        self.errors.clone_ref(py)
    }

    /// The CLI's JSON verdict (`specmint validate --format json`) less `type` and `file`:
    /// `{"valid": bool, "errors": [{"code", "path", "pointer", "message", ...}]}`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        // The members of `Verdict::to_json`, in its order (absent numbers are left out).
        let errors = PyList::empty(py);
        for l in &self.verdict.errors {
            let v = &l.violation;
            let e = PyDict::new(py);
            e.set_item("code", &*v.code)?;
            e.set_item("path", &v.path)?;
            e.set_item("pointer", &v.pointer)?;
            e.set_item("message", &v.message)?;
            for (key, n) in [("measured", v.measured), ("limit", v.limit)] {
                if let Some(n) = n {
                    e.set_item(key, n)?;
                }
            }
            for (key, n) in [("line", l.line), ("column", l.column)] {
                if let Some(n) = n {
                    e.set_item(key, n)?;
                }
            }
            errors.append(e)?;
        }
        let dict = PyDict::new(py);
        dict.set_item("valid", self.verdict.is_valid())?;
        dict.set_item("errors", errors)?;
        Ok(dict)
    }

    /// That verdict as the canonical JSON text.
    fn to_json(&self) -> String {
        self.verdict.to_json(None)
    }

    fn __bool__(&self) -> bool {
        self.verdict.is_valid()
    }

    fn __repr__(&self) -> String {
        match self.verdict.errors.len() {
            0 => "<specmint.Report valid>".to_owned(),
            n => format!("<specmint.Report invalid, {n} error(s)>"),
        }
    }
}

/// The specs of a spec directory, read by the interpreter (`specmint validate --spec DIR`).
#[pyclass(frozen, module = "specmint")]
struct Spec {
    types: Vec<DocType>,
    dir: PathBuf,
}

#[pymethods]
impl Spec {
    /// Loads and checks every spec (`<stem>.md` + `<stem>.toml`) of `dir`; raises `SpecError`
    /// with the diagnostics when one does not check.
    #[staticmethod]
    fn load(py: Python<'_>, dir: PathBuf) -> PyResult<Spec> {
        let types = py
            .detach(|| DocType::load_dir(&dir))
            .map_err(|e| SpecError::new_err(e.to_string()))?;
        Ok(Spec { types, dir })
    }

    /// The TYPEs it holds (each spec's file stem in kebab case).
    #[getter]
    fn types(&self) -> Vec<String> {
        self.types.iter().map(|t| t.name().to_owned()).collect()
    }

    /// Judges `data` (`bytes` or `str`) as TYPE; with `locale` (a BCP 47 tag such as
    /// `zh-TW`), the messages in that language when the spec has it.
    #[pyo3(signature = (r#type, data, locale = None))]
    fn validate(
        &self,
        py: Python<'_>,
        r#type: &str,
        data: &Bound<'_, PyAny>,
        locale: Option<&str>,
    ) -> PyResult<Report> {
        judge(py, self.find(r#type)?, data, locale)
    }

    /// Like `validate`, but raises `ValidationError` (carrying the report) when it is invalid.
    #[pyo3(signature = (r#type, data, locale = None))]
    fn check(
        &self,
        py: Python<'_>,
        r#type: &str,
        data: &Bound<'_, PyAny>,
        locale: Option<&str>,
    ) -> PyResult<Report> {
        check_report(py, judge(py, self.find(r#type)?, data, locale)?)
    }

    /// TYPE's JSON Schema (what `specmint schema --spec DIR TYPE` prints from the current
    /// directory: its `$comment` names DIR as seen from there, however it was given), as a dict;
    /// with `locale`, each rule's message in that language as ajv-errors reads it (`--locale`).
    #[pyo3(signature = (r#type, locale = None))]
    fn schema<'py>(
        &self,
        py: Python<'py>,
        r#type: &str,
        locale: Option<&str>,
    ) -> PyResult<Bound<'py, PyAny>> {
        schema_of(py, self.find(r#type)?, locale)
    }

    fn __repr__(&self) -> String {
        format!("<specmint.Spec {} {:?}>", self.dir.display(), self.types())
    }
}

impl Spec {
    fn find(&self, name: &str) -> PyResult<&DocType> {
        self.types.iter().find(|t| t.name() == name).ok_or_else(|| {
            let types = self.types();
            PyValueError::new_err(unknown_type(
                name,
                types.iter().map(String::as_str),
                &known_in(&self.dir.display().to_string(), &types),
            ))
        })
    }
}

/// Judges `data` (`bytes` or `str`) as the bundled TYPE (`task-packet`, `action-envelope`,
/// `task-envelope`, `taskpack`); with `locale` (a BCP 47 tag such as `zh-TW`), the messages
/// in that language when the spec has it (English otherwise).
#[pyfunction]
#[pyo3(signature = (r#type, data, locale = None))]
fn validate(
    py: Python<'_>,
    r#type: &str,
    data: &Bound<'_, PyAny>,
    locale: Option<&str>,
) -> PyResult<Report> {
    judge(py, &bundled(r#type)?, data, locale)
}

/// Like `validate`, but raises `ValidationError` (carrying the report) when it is invalid.
#[pyfunction]
#[pyo3(signature = (r#type, data, locale = None))]
fn check(
    py: Python<'_>,
    r#type: &str,
    data: &Bound<'_, PyAny>,
    locale: Option<&str>,
) -> PyResult<Report> {
    check_report(py, judge(py, &bundled(r#type)?, data, locale)?)
}

/// The bundled TYPE's JSON Schema (what `specmint schema TYPE` prints), as a dict; with
/// `locale`, each rule's message in that language as ajv-errors reads it (`--locale TAG`).
#[pyfunction]
#[pyo3(signature = (r#type, locale = None))]
fn schema<'py>(py: Python<'py>, r#type: &str, locale: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
    schema_of(py, &bundled(r#type)?, locale)
}

/// The bundled TYPEs.
#[pyfunction]
fn bundled_types() -> Vec<&'static str> {
    specmint::bundled::names()
}

fn bundled(name: &str) -> PyResult<DocType> {
    DocType::find(None, Some(name)).map_err(|e| match e {
        FindError::UnknownType(m) => PyValueError::new_err(m),
        FindError::Spec(m) => SpecError::new_err(m),
    })
}

fn judge(
    py: Python<'_>,
    ty: &DocType,
    data: &Bound<'_, PyAny>,
    locale: Option<&str>,
) -> PyResult<Report> {
    let verdict = if let Ok(bytes) = data.cast::<PyBytes>() {
        let input = bytes.as_bytes();
        py.detach(|| ty.judge_bytes_in(input, locale))
    } else if let Ok(text) = data.cast::<PyString>() {
        let input = text.to_str()?;
        py.detach(|| ty.judge_bytes_in(input.as_bytes(), locale))
    } else {
        return Err(PyTypeError::new_err(format!(
            "a document is `bytes` or `str`, not `{}`",
            data.get_type().name()?
        )));
    };
    let verdict = verdict.map_err(PyValueError::new_err)?;
    let errors: Vec<Error> = verdict.errors.iter().map(Error::new).collect();
    let errors = PyList::new(py, errors)?.unbind();
    Ok(Report { verdict, errors })
}

fn check_report(py: Python<'_>, report: Report) -> PyResult<Report> {
    if report.verdict.is_valid() {
        return Ok(report);
    }
    let n = report.verdict.errors.len();
    let first = &report.verdict.errors[0].violation;
    let message = format!("invalid document ({n} error(s)); first: {}", first.message);
    let report = Bound::new(py, report)?;
    let error = ValidationError::new_err(message);
    error.value(py).setattr("report", report)?;
    Err(error)
}

/// `ty`'s schema as a dict, in `locale` when given (a `ValueError` when the tag is not one or
/// the spec has no messages serving it).
fn schema_of<'py>(
    py: Python<'py>,
    ty: &DocType,
    locale: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let text = match locale {
        None => ty.schema(),
        Some(tag) => ty.schema_in_or_why(tag).map_err(PyValueError::new_err)?,
    };
    let value: Value =
        serde_json::from_str(&text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    to_python(py, &value)
}

/// A JSON value as Python's `json` module reads it (objects keep their order).
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_python(py, v)?)?;
            }
            dict.into_any()
        }
    })
}

/// specmint's validators from Python: every rule of a spec, as `specmint validate` applies it.
#[pymodule]
fn _specmint(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Error>()?;
    m.add_class::<Report>()?;
    m.add_class::<Spec>()?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(bundled_types, m)?)?;
    m.add("SpecError", py.get_type::<SpecError>())?;
    m.add("ValidationError", py.get_type::<ValidationError>())?;
    Ok(())
}
