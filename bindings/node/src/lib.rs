//! The Node binding's native addon (`index.js` wraps it into the package's API).
//!
//! Every verdict comes from [`specmint::verdict`], the function `specmint validate` prints, so a
//! document gets from Node exactly what the CLI says; this crate only converts. The addon
//! returns the verdict as the CLI's JSON less `type` and `file`, which `index.js` parses.
#![deny(clippy::all)]

use napi::bindgen_prelude::{Buffer, Either};
use napi::{Error, Result, Status};
use napi_derive::napi;
use specmint::verdict::{known_in, unknown_type, DocType, FindError};

/// A document: a string (UTF-8) or a Buffer (its bytes, as read from a file).
type Data = Either<String, Buffer>;

fn bytes(data: &Data) -> &[u8] {
    match data {
        Either::A(text) => text.as_bytes(),
        Either::B(buffer) => buffer,
    }
}

/// Status `InvalidArg`: an unknown TYPE; `GenericFailure`: a spec that cannot be read or does
/// not check (index.js raises `SpecError` for it).
fn find_error(e: FindError) -> Error {
    match e {
        FindError::UnknownType(m) => Error::new(Status::InvalidArg, m),
        FindError::Spec(m) => Error::new(Status::GenericFailure, m),
    }
}

fn bundled(name: &str) -> Result<DocType> {
    DocType::find(None, Some(name)).map_err(find_error)
}

/// The verdict on `data` as the bundled TYPE: `{"valid": bool, "errors": [...]}` (JSON text).
#[napi]
pub fn validate_bundled(r#type: String, data: Data) -> Result<String> {
    Ok(bundled(&r#type)?.judge_bytes(bytes(&data)).to_json(None))
}

/// The bundled TYPE's JSON Schema (JSON text).
#[napi]
pub fn schema_bundled(r#type: String) -> Result<String> {
    Ok(bundled(&r#type)?.schema())
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

    /// The verdict on `data` as TYPE (JSON text).
    #[napi]
    pub fn validate(&self, r#type: String, data: Data) -> Result<String> {
        Ok(self.find(&r#type)?.judge_bytes(bytes(&data)).to_json(None))
    }

    /// TYPE's JSON Schema (JSON text).
    #[napi]
    pub fn schema(&self, r#type: String) -> Result<String> {
        Ok(self.find(&r#type)?.schema())
    }
}

impl NativeSpec {
    fn find(&self, name: &str) -> Result<&DocType> {
        self.types.iter().find(|t| t.name() == name).ok_or_else(|| {
            let types = self.types();
            Error::new(
                Status::InvalidArg,
                unknown_type(
                    name,
                    types.iter().map(String::as_str),
                    &known_in(&self.dir, &types),
                ),
            )
        })
    }
}
