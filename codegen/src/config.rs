//! The `build.rs` adapter ([`Config`]): reads a spec directory, runs [`generate`], and
//! writes the files.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::diff;
use crate::emit::Options;
use crate::error::Error;
use crate::files::{read_spec_dir, write_if_changed};
use crate::pipeline::generate;

/// Builder for a downstream `build.rs`, like `prost-build`: reads a spec directory,
/// generates, and writes `rust/<name>.rs` and `schema/<name>.schema.json` into the output
/// directory (default `OUT_DIR`). Include a module with
/// `pub mod orders { include!(concat!(env!("OUT_DIR"), "/rust/orders.rs")); }`.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("specmint-config-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(dir.join("spec")).unwrap();
/// std::fs::write(dir.join("spec/notes.md"), "# Notes v1\n\n\
///     ## Fields of a `note`\n\n\
///     | Field | Type | Required | Meaning |\n|---|---|---|---|\n\
///     | `title` | non-blank string | ✔ | The title. |\n\n\
///     ## Errors\n\n| Code | When |\n|---|---|\n\
///     | `bad_note` | Not a note. |\n| `blank` | A blank value. |\n").unwrap();
/// std::fs::write(dir.join("spec/notes.toml"), "[spec]\nroot = \"note\"\n\n\
///     [errors]\nenum = \"NoteError\"\nparse = \"bad_note\"\nnon_blank = \"blank\"\n").unwrap();
///
/// specmint_codegen::Config::new()
///     .spec_dir(dir.join("spec"))
///     .out_dir(dir.join("out")) // in build.rs: leave it out, OUT_DIR is the default
///     .type_attribute("notes.note", "#[derive(Eq)]")
///     .run()
///     .expect("the spec is consistent");
/// let rust = std::fs::read_to_string(dir.join("out/rust/notes.rs")).unwrap();
/// assert!(rust.contains("pub struct Note {"));
/// assert!(dir.join("out/schema/notes.schema.json").is_file());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct Config {
    spec_dir: PathBuf,
    out_dir: Option<PathBuf>,
    schema_dir: Option<PathBuf>,
    options: Options,
    against: Option<PathBuf>,
    fail_on: Vec<diff::Break>,
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
            against: None,
            fail_on: diff::Break::ALL.to_vec(),
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

    /// Adds outer attributes to generated types, like `prost-build`'s hook of the same name:
    /// `path` is `<spec>.<table>` (the spec's file stem and the table's name, as in the
    /// Markdown: `orders.line_item`), `<spec>` for every type of a spec, or `.` for every
    /// type; `attribute` is written as in Rust (`#[derive(Hash)]`, several allowed). Types
    /// are the structs of field tables and the enums of enum, union and states tables. The
    /// attributes go after the type's derives, so a derive's helper attribute works:
    /// `#[validate(custom = crate::checks::totals)]` on a field table's struct. A path
    /// naming no type, text that is not an attribute, or `#[validate(..)]` on a type that is
    /// no field table's struct fails the build with a diagnostic.
    ///
    /// ```no_run
    /// specmint_codegen::Config::new()
    ///     .type_attribute("orders.line", "#[derive(Eq, Hash)]")
    ///     .field_attribute("orders.order.order_id", r#"#[serde(alias = "id")]"#)
    ///     .run()
    ///     .unwrap_or_else(|_| std::process::exit(1));
    /// ```
    pub fn type_attribute(mut self, path: impl Into<String>, attribute: impl Into<String>) -> Self {
        self.options
            .type_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Adds outer attributes to one generated struct field: `path` is
    /// `<spec>.<table>.<key>` (`orders.line.sku`, the JSON key). See
    /// [`Config::type_attribute`]. The members a selector chooses live in its body enum and
    /// take no attributes.
    pub fn field_attribute(
        mut self,
        path: impl Into<String>,
        attribute: impl Into<String>,
    ) -> Self {
        self.options
            .field_attributes
            .push((path.into(), attribute.into()));
        self
    }

    /// Every option at once (replacing what [`Config::runtime_path`],
    /// [`Config::derive_path`] and the attribute hooks set so far).
    pub fn options(mut self, options: Options) -> Self {
        self.options = options;
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

    /// Also compares the specs with the ones in `dir` (the last released version, say,
    /// kept in the repository) as `specmint diff dir <spec_dir>` does, and fails the build
    /// with [`Error::Breaking`] when a change breaks one of the [`Config::fail_on`]
    /// categories (all of them unless told). A relative `dir` is relative to the package
    /// root; it is watched like the spec directory.
    ///
    /// ```no_run
    /// use specmint_codegen::{diff::Break, Config};
    /// // build.rs: the stored documents must stay valid; code may change.
    /// if let Err(e) = Config::new()
    ///     .check_against("spec-released")
    ///     .fail_on(&[Break::Documents, Break::Readers])
    ///     .run()
    /// {
    ///     eprintln!("{e}");
    ///     std::process::exit(1);
    /// }
    /// ```
    pub fn check_against(mut self, dir: impl Into<PathBuf>) -> Self {
        self.against = Some(dir.into());
        self
    }

    /// The categories [`Config::check_against`] refuses (`--fail-on` of `specmint diff`).
    pub fn fail_on(mut self, categories: &[diff::Break]) -> Self {
        self.fail_on = categories.to_vec();
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
        if let Some(against) = &self.against {
            println!("cargo:rerun-if-changed={}", against.display());
            let display = against.to_string_lossy().replace('\\', "/");
            let old = read_spec_dir(against, &display)?;
            let found = diff::diff(&old, &sources).map_err(|e| Error::Spec(e.diagnostics))?;
            if found.breaks_any(&self.fail_on) {
                return Err(Error::Breaking(Box::new(found)));
            }
        }
        write_if_changed(&out_dir, &files)?;
        if let Some(dir) = &self.schema_dir {
            write_if_changed(dir, &schemas_only(&files))?;
        }
        Ok(())
    }
}

/// The `schema/<name>.schema.json` files of [`generate`]'s output, as `<name>.schema.json`.
fn schemas_only(files: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    files
        .iter()
        .filter_map(|(rel, text)| Some((rel.strip_prefix("schema/")?.to_owned(), text.clone())))
        .collect()
}
