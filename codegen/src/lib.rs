//! specmint-codegen: load a spec (Markdown tables + TOML sidecar), check it, and emit Rust
//! and JSON Schema that cannot drift from it.
//!
//! Phases: **load** ([`pulldown_cmark`] tables, headings and fences with positions; the
//! sidecar walked with [`toml::Spanned`] spans) → **check** (every cross-check, all problems
//! collected) → **model** ([`model::Spec`]) → **emit** (cannot fail). [`generate`] is pure:
//! it returns files and touches no disk; [`Config`] is the `build.rs` adapter.
//!
//! The front door is [`Config`] (for `build.rs`), [`generate`] and [`load`], and the
//! [`Diagnostics`] they report; the checked model lives in [`model`].
//!
//! In `build.rs` (the one recipe, as in the README: each problem printed once, no panic):
//!
//! ```no_run
//! fn main() {
//!     if let Err(e) = specmint_codegen::Config::new().spec_dir("spec").run() {
//!         eprintln!("{e}"); // spec/<name>.md:LINE:COL: error: ... / hint: ...
//!         std::process::exit(1);
//!     }
//! }
//! ```

#![deny(missing_docs)]
// The build.rs recipe above is a whole file, `fn main` included: users copy it as it is.
#![allow(clippy::needless_doctest_main)]

mod check;
mod corpus;
mod diag;
mod growth;
mod interpret;
mod markdown;
mod mermaid;
pub mod model;
mod names;
mod pattern;
mod rust;
mod schema;
mod sidecar;

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use diag::{Diagnostic, Diagnostics, Pos};
pub use interpret::Validator;

/// One spec's two files, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecSource {
    /// Module name: the file stem (`orders`).
    pub name: String,
    /// The Markdown path as displayed in diagnostics (`spec/orders.md`).
    pub md_path: String,
    /// The Markdown text.
    pub md: String,
    /// The sidecar path as displayed (`spec/orders.toml`).
    pub toml_path: String,
    /// The sidecar text; empty when the file is missing (reported as a diagnostic).
    pub toml: String,
}

/// Where generated code finds its runtime and derive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Path of the runtime crate (default `::specmint_runtime`).
    pub runtime_path: String,
    /// Path of the `Validate` derive (default `::specmint_macros::Validate`).
    pub derive_path: String,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            runtime_path: "::specmint_runtime".to_owned(),
            derive_path: "::specmint_macros::Validate".to_owned(),
        }
    }
}

/// Loads and checks one spec into its model.
pub fn load(source: &SpecSource) -> Result<model::Spec, Diagnostics> {
    check::check(source)
}

/// Loads every spec and renders its files: `rust/<name>.rs`, `schema/<name>.schema.json`,
/// and `diagrams/<name>.<states>.mmd` for each state machine.
/// Pure and deterministic; all specs are checked and every problem is returned together.
pub fn generate(
    sources: &[SpecSource],
    options: &Options,
) -> Result<BTreeMap<String, String>, Diagnostics> {
    let mut all = Vec::new();
    for (what, p) in [
        ("runtime_path", &options.runtime_path),
        ("derive_path", &options.derive_path),
    ] {
        if syn::parse_str::<syn::Path>(p).is_err() {
            all.push(Diagnostic {
                file: "<options>".to_owned(),
                pos: Pos::default(),
                message: format!("{what} `{p}` is not a Rust path"),
                hint: "write a path such as `::specmint_runtime`".to_owned(),
            });
        }
    }
    let mut specs = Vec::new();
    let mut names = BTreeMap::new();
    for s in sources {
        if let Some(prev) = names.insert(s.name.clone(), s.md_path.clone()) {
            all.push(Diagnostic {
                file: s.md_path.clone(),
                pos: Pos::default(),
                message: format!("spec name `{}` is also used by {prev}", s.name),
                hint: "give every spec its own file stem".to_owned(),
            });
        }
        if !names::is_ident(&s.name) || names::is_raw_keyword(&s.name) {
            all.push(Diagnostic {
                file: s.md_path.clone(),
                pos: Pos::default(),
                message: format!("spec name `{}` cannot be a Rust module name", s.name),
                hint: "name the files in lower_snake_case: `<name>.md` and `<name>.toml`"
                    .to_owned(),
            });
        }
        match load(s) {
            Ok(spec) => specs.push(spec),
            Err(d) => all.extend(d.0),
        }
    }
    if !all.is_empty() {
        return Err(Diagnostics(all));
    }
    let mut files = BTreeMap::new();
    for spec in &specs {
        files.insert(format!("rust/{}.rs", spec.name), rust::emit(spec, options));
        files.insert(
            format!("schema/{}.schema.json", spec.name),
            schema::emit(spec),
        );
        for m in &spec.machines {
            files.insert(
                format!("diagrams/{}.{}.mmd", spec.name, m.name),
                mermaid::emit(spec, m),
            );
        }
        files.insert(
            format!("corpus/{}/cases.json", spec.name),
            corpus::emit(spec),
        );
    }
    Ok(files)
}

/// The JSON Schema of one checked spec: the text [`generate`] writes to
/// `schema/<name>.schema.json`.
pub fn emit_schema(spec: &model::Spec) -> String {
    schema::emit(spec)
}

/// Reads every `<name>.md` in `dir` with its `<name>.toml`, sorted by name. Paths are
/// displayed as `<display_prefix>/<file>`. A Markdown file without a sidecar is a spec only
/// when it has a field table (`Field | Type | Required | Meaning`): then its `toml` is empty
/// and [`load`] reports the missing sidecar. Without one it is prose (a `README.md`, notes)
/// and is left out.
pub fn read_spec_dir(dir: &Path, display_prefix: &str) -> io::Result<Vec<SpecSource>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") || !path.is_file() {
            continue;
        }
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let display = |file: String| {
            if display_prefix.is_empty() {
                file
            } else {
                format!("{}/{file}", display_prefix.trim_end_matches('/'))
            }
        };
        let md = std::fs::read_to_string(&path)?;
        let toml_file = path.with_extension("toml");
        let toml = match std::fs::read_to_string(&toml_file) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if !check::has_field_table(&md) {
                    continue;
                }
                String::new()
            }
            Err(e) => return Err(e),
        };
        out.push(SpecSource {
            name: name.to_owned(),
            md_path: display(format!("{name}.md")),
            md,
            toml_path: display(format!("{name}.toml")),
            toml,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// Writes `files` under `root`, creating directories, touching only files whose contents
/// differ (so cargo and editors see no spurious changes).
pub fn write_if_changed(root: &Path, files: &BTreeMap<String, String>) -> io::Result<()> {
    for (rel, contents) in files {
        let path = root.join(rel);
        if std::fs::read(&path).ok().as_deref() == Some(contents.as_bytes()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, contents)?;
    }
    Ok(())
}

/// Compares `files` with what is under `root`: returns the relative paths that differ, are
/// missing, or are extra (files in the same top-level directories that `files` does not
/// have), sorted.
pub fn check_dir(root: &Path, files: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, contents) in files {
        if std::fs::read(root.join(rel)).ok().as_deref() != Some(contents.as_bytes()) {
            out.push(rel.clone());
        }
    }
    let dirs: std::collections::BTreeSet<&str> = files
        .keys()
        .filter_map(|k| k.split_once('/').map(|(d, _)| d))
        .collect();
    for d in dirs {
        let mut stack = vec![root.join(d)];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(rel) = p.strip_prefix(root) {
                    let rel = rel
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/");
                    if !files.contains_key(&rel) {
                        out.push(rel);
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The `schema/<name>.schema.json` files of [`generate`]'s output, as `<name>.schema.json`.
fn schemas_only(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    files
        .iter()
        .filter_map(|(rel, text)| Some((rel.strip_prefix("schema/")?.to_owned(), text.clone())))
        .collect()
}

/// Why [`Config::run`] failed.
#[derive(Debug)]
pub enum Error {
    /// Reading the specs or writing the output failed.
    Io(io::Error),
    /// The specs have problems.
    Spec(Diagnostics),
    /// No output directory: neither [`Config::out_dir`] nor `OUT_DIR`.
    NoOutDir,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "specmint: {e}"),
            Error::Spec(d) => write!(f, "{d}"),
            Error::NoOutDir => f.write_str("specmint: no out_dir and OUT_DIR is not set"),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}

/// Builder for a downstream `build.rs`, like `prost-build`: reads a spec directory,
/// generates, and writes `rust/<name>.rs` and `schema/<name>.schema.json` into the output
/// directory (default `OUT_DIR`). Include a module with
/// `pub mod orders { include!(concat!(env!("OUT_DIR"), "/rust/orders.rs")); }`.
#[derive(Debug, Clone)]
pub struct Config {
    spec_dir: PathBuf,
    out_dir: Option<PathBuf>,
    schema_dir: Option<PathBuf>,
    options: Options,
}

impl Default for Config {
    fn default() -> Self {
        Self::new()
    }
}

impl Config {
    /// Specs in `spec/`, output in `OUT_DIR`, default runtime and derive paths.
    pub fn new() -> Self {
        Config {
            spec_dir: PathBuf::from("spec"),
            out_dir: None,
            schema_dir: None,
            options: Options::default(),
        }
    }

    /// The directory holding `<name>.md` + `<name>.toml` pairs.
    pub fn spec_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.spec_dir = dir.into();
        self
    }

    /// Where generated code finds the runtime (`::specmint_runtime`, or `::specmint` re-export).
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.options.runtime_path = path.into();
        self
    }

    /// Where generated code finds `#[derive(Validate)]`.
    pub fn derive_path(mut self, path: impl Into<String>) -> Self {
        self.options.derive_path = path.into();
        self
    }

    /// Output directory (default: the `OUT_DIR` environment variable).
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Also copies each spec's JSON Schema to `dir/<name>.schema.json`, a path that does not
    /// change between builds (`OUT_DIR` does), for tools outside cargo: a Python or
    /// TypeScript consumer, a schema registry, a test of another language. A relative `dir`
    /// is relative to the package root (where cargo runs `build.rs`). Files are rewritten
    /// only when their contents change; schemas of specs since removed are left in place.
    ///
    /// This is the one place a build script using [`Config`] writes outside `OUT_DIR`, and
    /// only when asked: commit the directory (and check it in CI with
    /// `specmint generate --check`) or ignore it.
    ///
    /// ```no_run
    /// // build.rs
    /// if let Err(e) = specmint_codegen::Config::new()
    ///     .spec_dir("spec")
    ///     .schema_dir("schemas")
    ///     .run()
    /// {
    ///     eprintln!("{e}");
    ///     std::process::exit(1);
    /// }
    /// // schemas/<name>.schema.json now holds each spec's schema.
    /// ```
    pub fn schema_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.schema_dir = Some(dir.into());
        self
    }

    /// Generates and writes the files. Prints `cargo:rerun-if-changed` for the directory and
    /// each spec file, and nothing else: every problem is in the `Err`, whose `Display` is
    /// each diagnostic once (`spec/<name>.md:LINE:COL: error: ..` and its hint), for the
    /// build script to print (see the crate docs' recipe).
    pub fn run(&self) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        println!("cargo:rerun-if-changed={}", self.spec_dir.display());
        let display = self.spec_dir.to_string_lossy().replace('\\', "/");
        let sources = read_spec_dir(&self.spec_dir, &display)?;
        for s in &sources {
            let md = self.spec_dir.join(format!("{}.md", s.name));
            let toml = self.spec_dir.join(format!("{}.toml", s.name));
            println!("cargo:rerun-if-changed={}", md.display());
            println!("cargo:rerun-if-changed={}", toml.display());
        }
        let files = generate(&sources, &self.options).map_err(Error::Spec)?;
        write_if_changed(&out_dir, &files)?;
        if let Some(dir) = &self.schema_dir {
            write_if_changed(dir, &schemas_only(&files))?;
        }
        Ok(())
    }
}
