//! One document's verdict, as `specmint validate` prints it.
//!
//! The CLI and the language bindings (`bindings/python`, `bindings/node`) call this module and
//! nothing else to judge a document, so they cannot disagree: [`DocType`] is a bundled spec or a
//! spec directory's spec read by the interpreter, [`DocType::judge`] validates a document and
//! places each violation in the input (line and column), and [`Verdict::to_json`] is the JSON the
//! CLI prints with `--format json` (the bindings print it without `type` and `file`).

use std::io::Seek as _;
use std::path::Path;
#[cfg(feature = "interpret")]
use std::path::PathBuf;

use crate::bundled::{self, Bundled, OtherForm, ReadStreamed};
use crate::runtime::document::{
    check_size, check_size_at_least, extracted_range, line_col, locate_all, split_serde_position,
    DocumentSpec, Want, COUNTED_PAST_LIMIT,
};
#[cfg(feature = "messages")]
use crate::runtime::messages::{check_wanted, choose_tag, Catalog};
use crate::{Report, Violation};

/// The document type a document is judged as: a bundled spec, or a spec of a spec directory
/// read from its model at run time (`validate --spec DIR`).
pub enum DocType {
    /// One of the specs bundled in this crate.
    Bundled(&'static Bundled),
    /// A spec of a spec directory, judged by the interpreter.
    #[cfg(feature = "interpret")]
    Own {
        /// TYPE: the spec's file stem in kebab case.
        name: String,
        /// The checked model.
        spec: Box<specmint_codegen::model::Spec>,
        /// The interpreter of `spec`.
        validator: specmint_codegen::Validator,
        /// The directory it was read from.
        dir: PathBuf,
    },
}

/// Why a [`DocType`] was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    /// No TYPE given, or one no spec has; the message lists the known ones.
    #[error("{0}")]
    UnknownType(String),
    /// The spec directory cannot be read, or a spec in it does not check (its
    /// `file:line:col` diagnostics).
    #[error("{0}")]
    Spec(String),
}

/// TYPE of a spec file stem: `task_packet` is `task-packet`.
#[cfg(feature = "interpret")]
fn kebab(stem: &str) -> String {
    stem.replace('_', "-")
}

impl DocType {
    /// Finds TYPE among the bundled specs, or with `spec_dir` among that directory's specs
    /// (each `<stem>.md` is TYPE `<stem>` in kebab case); only the spec asked for is loaded.
    pub fn find(spec_dir: Option<&Path>, name: Option<&str>) -> Result<DocType, FindError> {
        let Some(dir) = spec_dir else {
            let known = bundled::names().join(", ");
            let name = name
                .ok_or_else(|| FindError::UnknownType(format!("missing TYPE (one of: {known})")))?;
            return bundled::find(name).map(DocType::Bundled).ok_or_else(|| {
                FindError::UnknownType(unknown_type(
                    name,
                    bundled::names(),
                    &format!("one of: {known}"),
                ))
            });
        };
        #[cfg(not(feature = "interpret"))]
        return Err(FindError::Spec(format!(
            "cannot read specs in `{}`: this build of specmint has no interpreter (the `interpret` feature)",
            dir.display()
        )));
        #[cfg(feature = "interpret")]
        {
            let display = dir.display().to_string();
            let sources = read_dir(dir)?;
            let names: Vec<String> = sources.iter().map(|s| kebab(&s.name)).collect();
            let known = known_in(&display, &names);
            let name =
                name.ok_or_else(|| FindError::UnknownType(format!("missing TYPE ({known})")))?;
            let source = sources
                .iter()
                .find(|s| kebab(&s.name) == name)
                .ok_or_else(|| {
                    FindError::UnknownType(unknown_type(
                        name,
                        names.iter().map(String::as_str),
                        &known,
                    ))
                })?;
            Self::own(source, dir)
        }
    }

    /// Every spec of `dir`, each loaded and checked: the first that does not check is the error,
    /// and so is a directory that holds no spec (a folder mistyped or not yet written is not an
    /// empty set of types).
    #[cfg(feature = "interpret")]
    pub fn load_dir(dir: &Path) -> Result<Vec<DocType>, FindError> {
        let sources = read_dir(dir)?;
        if sources.is_empty() {
            return Err(FindError::Spec(format!(
                "{}: a spec is a `<name>.md` with its `<name>.toml` sidecar",
                known_in(&dir.display().to_string(), &[])
            )));
        }
        sources.iter().map(|s| Self::own(s, dir)).collect()
    }

    /// Every spec among `files` (file name → text: each `<stem>.md` with its `<stem>.toml`, as
    /// a spec directory holds them), read from memory rather than a directory (the WebAssembly
    /// build has no file system). `dir` is the directory the files are shown in, as `--spec DIR`
    /// names it: diagnostics say `DIR/<stem>.md:line:col`, and the schema's `$comment` is what
    /// `specmint schema --spec DIR` prints. The error is every diagnostic of every spec that does
    /// not check, or one saying that `files` holds no spec.
    #[cfg(feature = "interpret")]
    pub fn load_texts(
        files: &std::collections::BTreeMap<String, String>,
        dir: &str,
    ) -> Result<Vec<DocType>, specmint_codegen::Diagnostics> {
        let sources = specmint_codegen::spec_sources(files, dir);
        if sources.is_empty() {
            return Err(specmint_codegen::Diagnostics(vec![
                specmint_codegen::Diagnostic {
                    file: dir.to_owned(),
                    pos: specmint_codegen::Pos::default(),
                    message: known_in(dir, &[]),
                    hint: "a spec is a `<name>.md` with its `<name>.toml` sidecar".to_owned(),
                },
            ]));
        }
        let mut types = Vec::new();
        let mut problems = Vec::new();
        for source in &sources {
            match specmint_codegen::load(source) {
                Ok(spec) => types.push(Self::loaded(source, spec, Path::new(dir))),
                Err(d) => problems.extend(d.0),
            }
        }
        if problems.is_empty() {
            Ok(types)
        } else {
            Err(specmint_codegen::Diagnostics(problems))
        }
    }

    #[cfg(feature = "interpret")]
    fn own(source: &specmint_codegen::SpecSource, dir: &Path) -> Result<DocType, FindError> {
        let spec = specmint_codegen::load(source).map_err(|d| FindError::Spec(d.to_string()))?;
        Ok(Self::loaded(source, spec, dir))
    }

    #[cfg(feature = "interpret")]
    fn loaded(
        source: &specmint_codegen::SpecSource,
        spec: specmint_codegen::model::Spec,
        dir: &Path,
    ) -> DocType {
        DocType::Own {
            name: kebab(&source.name),
            validator: specmint_codegen::Validator::new(&spec),
            spec: Box::new(spec),
            dir: dir.to_owned(),
        }
    }

    /// TYPE, as the CLI spells it.
    pub fn name(&self) -> &str {
        match self {
            DocType::Bundled(b) => b.cli_name,
            #[cfg(feature = "interpret")]
            DocType::Own { name, .. } => name,
        }
    }

    /// The locales this type's spec has messages in (its locale files' tags), sorted.
    pub fn locales(&self) -> Vec<&str> {
        match self {
            DocType::Bundled(b) => b.messages.iter().map(|(tag, _)| *tag).collect(),
            #[cfg(feature = "interpret")]
            DocType::Own { spec, .. } => spec.messages.iter().map(|m| m.tag.as_str()).collect(),
        }
    }

    /// The messages serving a reader who asks for `wanted` (a BCP 47 tag such as `zh-TW`, or
    /// a POSIX locale name such as `zh_TW.UTF-8`): the closest of the spec's locales
    /// ([`choose`](crate::runtime::messages::choose)), or `None` when the spec has none for
    /// it, or `wanted` is English, `C` or `POSIX`: then the messages stay English.
    #[cfg(feature = "messages")]
    pub fn catalog(&self, wanted: &str) -> Option<Catalog> {
        // Checked when the spec was loaded or generated: a locale that does not build now
        // cannot occur, and would only leave the messages English.
        let tag = choose_tag(self.locales(), wanted)?;
        match self {
            DocType::Bundled(b) => {
                let (tag, rows) = b.messages.iter().find(|(t, _)| *t == tag)?;
                Catalog::new(tag, rows.iter().copied()).ok()
            }
            #[cfg(feature = "interpret")]
            DocType::Own { spec, .. } => {
                let m = spec.messages.iter().find(|m| m.tag == tag)?;
                let rows = m.templates.iter().map(|(c, t)| (c.as_str(), t.as_str()));
                Catalog::new(&m.tag, rows).ok()
            }
        }
    }

    /// [`DocType::judge_bytes`] with the messages in the language a reader asks for
    /// ([`DocType::catalog`]; English when `wanted` is `None` or the spec lacks it): what a
    /// binding's `validate(TYPE, data, locale)` answers.
    ///
    /// # Errors
    ///
    /// `wanted` is neither a BCP 47 tag nor a POSIX locale name (`zh TW`).
    #[cfg(feature = "messages")]
    pub fn judge_bytes_in(&self, data: &[u8], wanted: Option<&str>) -> Result<Verdict, String> {
        let catalog = match wanted {
            Some(w) => {
                check_wanted(w).map_err(|e| e.0)?;
                self.catalog(w)
            }
            None => None,
        };
        let mut verdict = self.judge_bytes(data);
        if let Some(catalog) = &catalog {
            verdict.localize(catalog);
        }
        Ok(verdict)
    }

    /// How documents of this type are read (input size limit, parse code, forbidden keys).
    pub fn document(&self) -> DocumentSpec<'_> {
        match self {
            DocType::Bundled(b) => *b.document,
            #[cfg(feature = "interpret")]
            DocType::Own { validator, .. } => validator.document(),
        }
    }

    /// Parses and validates `input` under an input size limit of `limit` bytes: the
    /// canonical JSON of a valid document, or the report.
    pub fn validate(&self, input: &[u8], limit: usize) -> Result<String, Report> {
        match self {
            DocType::Bundled(b) => b.validate(input, Some(limit)),
            #[cfg(feature = "interpret")]
            DocType::Own { validator, .. } => {
                validator.validate_with(input, &validator.document().with_max_input_bytes(limit))
            }
        }
    }

    /// The JSON Schema `specmint schema [--spec DIR] TYPE` prints.
    pub fn schema(&self) -> String {
        match self {
            DocType::Bundled(b) => b.json_schema.to_owned(),
            // What `specmint generate --spec DIR` writes, but for the `@generated` note, which
            // names the command that printed it. The note names DIR as seen from the current
            // directory, however it was given, so the CLI (`--spec spec`) and a binding handed
            // an absolute path (`Spec.load(pathlib.Path("spec").resolve())`) write the same
            // note (issue 46).
            #[cfg(feature = "interpret")]
            DocType::Own {
                spec, dir, name, ..
            } => {
                let (spec, options) = own_schema_input(spec, dir, name);
                specmint_codegen::emit_schema(&spec, &options)
            }
        }
    }

    /// [`DocType::schema_in`], or why not: `wanted` is not a BCP 47 tag (nor a POSIX locale
    /// name), or `` `task-packet` has no messages in `fr` (it has de, zh-TW) ``. What `specmint
    /// schema --locale TAG` and the bindings' `schema(TYPE, locale)` answer.
    ///
    /// # Errors
    ///
    /// The sentences above.
    #[cfg(feature = "interpret")]
    pub fn schema_in_or_why(&self, wanted: &str) -> Result<String, String> {
        check_wanted(wanted).map_err(|e| e.0)?;
        self.schema_in(wanted).ok_or_else(|| {
            let locales = self.locales();
            let has = if locales.is_empty() {
                "it has no locale files".to_owned()
            } else {
                format!("it has {}", locales.join(", "))
            };
            format!("`{}` has no messages in `{wanted}` ({has})", self.name())
        })
    }

    /// The JSON Schema of [`DocType::schema`] with each rule's message in the locale serving
    /// a reader who asks for `wanted` as ajv-errors reads it (`errorMessage`, see
    /// docs/spec-format.md, "Messages in a JSON Schema"): what `specmint schema --locale TAG
    /// TYPE` prints. `None` when the spec has no messages for `wanted`.
    #[cfg(feature = "interpret")]
    pub fn schema_in(&self, wanted: &str) -> Option<String> {
        match self {
            DocType::Bundled(b) => {
                let source = crate::bundled::source(b.module)?;
                // Checked when the library was built (the snapshot test loads the same texts).
                let spec = specmint_codegen::load(&source).ok()?;
                let options = specmint_codegen::Options {
                    spec_dir_in_files: Some(crate::SPEC_DIR.to_owned()),
                    ..crate::bundle_options()
                };
                specmint_codegen::emit_schema_in(&spec, &options, wanted)
            }
            DocType::Own {
                spec, dir, name, ..
            } => {
                let (spec, options) = own_schema_input(spec, dir, name);
                specmint_codegen::emit_schema_in(&spec, &options, wanted)
            }
        }
    }

    /// Judges a whole document held in memory under the type's own input size limit. A type
    /// judged streamed (a flat TaskPack) is judged as [`DocType::judge_path`] judges its file,
    /// its data strings streamed rather than copied and parsed into memory (a 200 MB pack held
    /// by a binding no longer costs three times its size).
    pub fn judge_bytes(&self, data: &[u8]) -> Verdict {
        let limit = self.document().max_input_bytes;
        if self.streamed().is_some() && data.len() <= limit {
            // Reading from memory cannot fail.
            if let Ok(Some(verdict)) = self.judge_streamed(&mut std::io::Cursor::new(data)) {
                return verdict;
            }
        }
        let head = data.len().min(limit.saturating_add(1));
        self.judge(&data[..head], data.len() as u64, limit)
    }

    /// Whether `data` is valid: the verdict [`DocType::judge_bytes`] gives
    /// (`judge_bytes(data).is_valid()`), reached without building a refused document's
    /// violations, their places or messages, nor an accepted one's canonical JSON. A binding
    /// answers `valid` with it and judges again only when the errors are asked for.
    pub fn accepts(&self, data: &[u8]) -> bool {
        let document = self.document();
        if data.len() > document.max_input_bytes {
            return false;
        }
        match self {
            DocType::Bundled(b) => (b.accepts)(data, b.document),
            #[cfg(feature = "interpret")]
            DocType::Own { validator, .. } => validator.accepts_with(data, &document),
        }
    }

    /// Judges a document of `total` bytes of which `input` holds the first ones (at most one
    /// byte over `limit`: an oversized input is refused without being held in memory).
    pub fn judge(&self, input: &[u8], total: u64, limit: usize) -> Verdict {
        let document = self.document().with_max_input_bytes(limit);
        let (mut report, other_form) = if total > input.len() as u64 {
            match check_total(total, &document) {
                Ok(()) => return Verdict::valid(),
                Err(report) => (report, None),
            }
        } else {
            match self.validate(input, limit) {
                Ok(_) => return Verdict::valid(),
                Err(report) => (report, self.other_form(input)),
            }
        };
        if let Some(other) = other_form {
            let mut violations = report.into_vec();
            if let Some(first) = violations.first_mut() {
                first.message.push_str(other.note.english());
            }
            report = Report::from_violations(violations);
        }
        // Places are counted in the text after a byte order mark, as the parser counts them.
        let text = String::from_utf8_lossy(input);
        let text = crate::runtime::json::strip_bom(&text);
        Verdict {
            errors: Located::all(report.into_vec(), text, &document),
            other_form,
        }
    }

    /// The bundled spec and its streamed reader, when this type's documents are judged
    /// streamed ([`DocType::judge_streamed`]).
    fn streamed(&self) -> Option<(&Bundled, ReadStreamed)> {
        match self {
            DocType::Bundled(b) => b.streamed.map(|read| (*b, read)),
            #[cfg(feature = "interpret")]
            DocType::Own { .. } => None,
        }
    }

    /// Judges the file at `path` under `limit`, as [`DocType::judge`] judges its bytes, reading
    /// no more of it than it must: a file over the limit is counted, not held; and a flat
    /// type judged streamed (a flat TaskPack) is judged in bounded memory, its data strings
    /// streamed (see [`DocType::judge_streamed`]).
    /// A file that is not a regular file (a pipe, `/dev/stdin`, a character device) is read
    /// as a stream, as standard input is.
    pub fn judge_path(&self, path: &Path, limit: usize) -> std::io::Result<Verdict> {
        let mut file = std::fs::File::open(path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            let (input, total) = read_head(&mut file, limit)?;
            return Ok(self.judge(&input, total, limit));
        }
        let size = metadata.len();
        if self.streamed().is_some() && size <= limit as u64 {
            if let Some(verdict) = self.judge_streamed(&mut file)? {
                return Ok(verdict);
            }
            file.rewind()?;
        }
        let (input, total) = read_head_sized(&mut file, limit, size)?;
        Ok(self.judge(&input, total, limit))
    }

    /// The verdict of [`DocType::judge`] on a document of a type judged streamed (a flat
    /// TaskPack, with the `taskpack` feature), computed with its data strings left out of
    /// memory: the rules run on the text less those strings (the type's [`Bundled::streamed`]
    /// reading), the digest rule reads each string's facts as it was streamed
    /// ([`crate::runtime::rules::StreamedData`]), and every place is moved back to where it is
    /// in the file. `None` when the type is not judged streamed, or its reader cannot read the
    /// file so (for a flat TaskPack: a file that is not UTF-8, a data string that is not a
    /// JSON string, more than 16 MiB besides the data): such a file is judged whole.
    pub fn judge_streamed<R: std::io::Read + std::io::Seek>(
        &self,
        reader: &mut R,
    ) -> std::io::Result<Option<Verdict>> {
        let Some((bundled, read)) = self.streamed() else {
            return Ok(None);
        };
        let Some(streamed) = read(reader)? else {
            return Ok(None);
        };
        let document = self.document();
        let verdict = bundled.validate_streamed(
            streamed.text.as_bytes(),
            Some(streamed.text.len()),
            streamed.facts,
        );
        let Err(report) = verdict else {
            return Ok(Some(Verdict::valid()));
        };
        let errors = Located::all(report.into_vec(), &streamed.text, &document)
            .into_iter()
            .map(|mut located| {
                let at_serde = located.violation.code == document.parse_error_code
                    && split_serde_position(&located.violation.message).is_some();
                if let (Some(line), Some(column)) = (located.line, located.column) {
                    let moved = (streamed.unshift)(line, column, !at_serde);
                    located.column = Some(moved);
                    if at_serde {
                        let at = format!(" at line {line} column {column}");
                        if let Some(head) = located.violation.message.strip_suffix(&at) {
                            located.violation.message =
                                format!("{head} at line {line} column {moved}");
                        }
                    }
                }
                located
            })
            .collect();
        Ok(Some(Verdict {
            errors,
            other_form: None,
        }))
    }

    /// The other form of this type `input` is in (TaskPack's zip, which `validate` does not
    /// read): a refused document in it gets the form's note, and its verdict names the form.
    fn other_form(&self, input: &[u8]) -> Option<OtherForm> {
        let other = match self {
            DocType::Bundled(b) => b.other_form,
            #[cfg(feature = "interpret")]
            DocType::Own { .. } => None,
        };
        other.filter(|other| input.starts_with(other.magic))
    }
}

/// Reads at most one byte over `limit` from `reader`, and counts the rest without holding it:
/// `(the bytes read, the reader's total)`. An oversized input is refused without being held.
/// The rest is counted up to [`COUNTED_PAST_LIMIT`] bytes past the limit and no further, so
/// endless input (`/dev/zero`, a stream that never closes) is answered: a total past
/// `limit + COUNTED_PAST_LIMIT` means "at least that much" ([`DocType::judge`] says so).
pub fn read_head(reader: &mut impl std::io::Read, limit: usize) -> std::io::Result<(Vec<u8>, u64)> {
    read_head_sized(reader, limit, 0)
}

/// [`read_head`] of a reader expected to hold `size` bytes (a regular file's length): the
/// buffer is that large from the start (up to 64 MiB), so a small file is read in one call and one more that
/// finds its end, rather than a probe and a few growing reads. The length is only a hint: a
/// file that grew or shrank since is read as it is.
fn read_head_sized(
    reader: &mut impl std::io::Read,
    limit: usize,
    size: u64,
) -> std::io::Result<(Vec<u8>, u64)> {
    use std::io::Read as _;
    let head = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    // Never more than 64 MiB on trust: a sparse file can claim any length.
    let room = size.min(head).min(64 << 20);
    let mut input = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    (&mut *reader).take(head).read_to_end(&mut input)?;
    let mut total = input.len() as u64;
    if input.len() > limit {
        total += std::io::copy(&mut reader.take(COUNTED_PAST_LIMIT), &mut std::io::sink())?;
    }
    Ok((input, total))
}

/// The size check of an input of `total` bytes as [`read_head`] counted it: over `document`'s
/// limit it is refused with the spec's size code, "at least" that many bytes when counting
/// stopped before the input ended.
///
/// # Errors
///
/// The one-violation [`Report`] when `total` is over the limit.
pub fn check_total(total: u64, document: &DocumentSpec) -> Result<(), Report> {
    let len = usize::try_from(total).unwrap_or(usize::MAX);
    if total > (document.max_input_bytes as u64).saturating_add(COUNTED_PAST_LIMIT) {
        check_size_at_least(len, document)
    } else {
        check_size(len, document)
    }
}

/// An own spec's schema as `specmint schema --spec DIR NAME` writes it: the spec with its
/// Markdown named as seen from the current directory, however DIR was given (the CLI's
/// `--spec spec` and a binding's absolute path write the same `@generated` note, issue 46),
/// and the options whose note names that command.
#[cfg(feature = "interpret")]
fn own_schema_input(
    spec: &specmint_codegen::model::Spec,
    dir: &std::path::Path,
    name: &str,
) -> (specmint_codegen::model::Spec, specmint_codegen::Options) {
    let shown = as_seen_from_current_dir(dir).display().to_string();
    let mut spec = spec.clone();
    spec.md_path = match shown.trim_end_matches('/') {
        "" => format!("{}.md", spec.name),
        dir => format!("{dir}/{}.md", spec.name),
    };
    let options = specmint_codegen::Options {
        regenerate_with: Some(format!("specmint schema --spec {shown} {name}")),
        ..crate::bundle_options()
    };
    (spec, options)
}

/// `dir` relative to the current directory (both with symlinks resolved, `..` where it is not
/// below it), so an absolute and a relative path to the same directory read the same; as given
/// when either cannot be resolved.
#[cfg(feature = "interpret")]
fn as_seen_from_current_dir(dir: &Path) -> PathBuf {
    let resolved = || -> Option<PathBuf> {
        let base = std::fs::canonicalize(std::env::current_dir().ok()?).ok()?;
        let path = std::fs::canonicalize(dir).ok()?;
        let base: Vec<_> = base.components().collect();
        let path: Vec<_> = path.components().collect();
        let common = base.iter().zip(&path).take_while(|(a, b)| a == b).count();
        let mut out: PathBuf = base[common..].iter().map(|_| "..").collect();
        out.extend(&path[common..]);
        if out.as_os_str().is_empty() {
            out.push(".");
        }
        Some(out)
    };
    resolved().unwrap_or_else(|| dir.to_owned())
}

#[cfg(feature = "interpret")]
fn read_dir(dir: &Path) -> Result<Vec<specmint_codegen::SpecSource>, FindError> {
    let display = dir.display().to_string();
    specmint_codegen::read_spec_dir(dir, &display)
        .map_err(|e| FindError::Spec(format!("cannot read specs in `{display}`: {e}")))
}

/// The TYPEs a spec directory holds, as a message lists them: `specs in `DIR`: a, b`.
pub fn known_in(display: &str, names: &[String]) -> String {
    if names.is_empty() {
        format!("`{display}` holds no spec")
    } else {
        format!("specs in `{display}`: {}", names.join(", "))
    }
}

/// The message for a TYPE no spec has: ``unknown TYPE `NAME` (LISTING)``, led inside the
/// parentheses by ``did you mean `X`?`` when one of `known` is close to it. TYPE is a spec's
/// file stem in kebab case, so a name written with `_` (`flight_plan`) is compared as
/// `flight-plan`.
pub fn unknown_type<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str> + Clone,
    listing: &str,
) -> String {
    let kebab = name.replace('_', "-");
    let meant = known
        .clone()
        .into_iter()
        .find(|k| *k == kebab)
        .or_else(|| specmint_suggest::did_you_mean(&kebab, known));
    match meant {
        Some(meant) => format!("unknown TYPE `{name}` (did you mean `{meant}`? {listing})"),
        None => format!("unknown TYPE `{name}` ({listing})"),
    }
}

/// A document's verdict: its violations in document order, each placed in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Empty when the document is valid.
    pub errors: Vec<Located>,
    /// The other form of its type the refused document is in (TaskPack's zip), whose note ends
    /// its first error's message: a caller that reads that form may say how (the CLI names
    /// its commands).
    pub other_form: Option<OtherForm>,
}

/// A violation with the place in the input it points at.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Located {
    /// The violation, as the library reports it.
    #[serde(flatten)]
    pub violation: Violation,
    /// 1-based line of the value (or key) the violation is about, where it can be found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// 1-based column, in chars, on that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl Located {
    /// Each violation placed in `input`, in one walk of the input whatever their number
    /// ([`locate_all`]): a value's violation at the value (or, when it is missing, at the
    /// nearest ancestor that is there), a forbidden key at the key, a parse error where the
    /// parser says.
    fn all(violations: Vec<Violation>, input: &str, document: &DocumentSpec) -> Vec<Located> {
        // A document cut out of surrounding prose was judged on that slice: find the position
        // in the slice, then move it to where the slice starts in the input.
        let range = extracted_range(input, document).unwrap_or(0..input.len());
        let slice = &input[range.clone()];
        let start = line_col(input, range.start).unwrap_or((1, 1));
        let wants: Vec<(&str, Want)> = violations
            .iter()
            .map(|v| {
                // A forbidden key points at the key itself. (A spec without its own code for
                // forbidden keys reports them with its parse code, so the key's name decides,
                // not the code.)
                let last_key = v.pointer.rsplit('/').next().unwrap_or_default();
                let forbidden = v.code == document.forbidden_key_code
                    && document.forbidden_keys.contains(last_key);
                (
                    v.pointer.as_str(),
                    if forbidden { Want::Key } else { Want::Nearest },
                )
            })
            .collect();
        let found = locate_all(slice, &wants);
        violations
            .into_iter()
            .zip(found)
            .map(|(violation, found)| {
                let by_parser = (violation.code == document.parse_error_code)
                    .then(|| split_serde_position(&violation.message).map(|(_, at)| at))
                    .flatten();
                let line_col = by_parser.or(found).map(|at| shift(start, at));
                Located {
                    violation,
                    line: line_col.map(|(line, _)| line),
                    column: line_col.map(|(_, column)| column),
                }
            })
            .collect()
    }
}

impl Verdict {
    /// The verdict of a valid document.
    fn valid() -> Verdict {
        Verdict {
            errors: Vec::new(),
            other_form: None,
        }
    }

    /// The verdict with every message in `catalog`'s language ([`DocType::catalog`]): codes,
    /// paths, pointers, numbers, lines and columns stay as they are. A code the catalog has
    /// no message for keeps its English one.
    ///
    /// ```
    /// use specmint::verdict::DocType;
    ///
    /// let packet = DocType::find(None, Some("task-packet")).unwrap();
    /// let mut verdict = packet.judge_bytes(br#"{"packet_id": " "}"#);
    /// let english = verdict.clone();
    /// verdict.localize(&packet.catalog("zh-TW").unwrap());
    /// assert_eq!(verdict.errors[0].violation.code, english.errors[0].violation.code);
    /// assert_eq!(verdict.errors[0].line, english.errors[0].line);
    /// assert_ne!(verdict.errors[0].violation.message, english.errors[0].violation.message);
    /// ```
    ///
    /// The library's note on a document in the other form of its type (TaskPack's zip, which
    /// ends the first message in English) follows the message: it is taken off before the
    /// message is rendered (so `{message}` is the English message alone) and appended again
    /// in the catalog's language ([`crate::notes`]), English when the library has no
    /// translation of it, and left as it was when the message stays English.
    #[cfg(feature = "messages")]
    pub fn localize(&mut self, catalog: &Catalog) {
        let note = self.other_form.map(|other| other.note);
        for (i, e) in self.errors.iter_mut().enumerate() {
            let noted = note.filter(|_| i == 0).and_then(|note| {
                let head = e.violation.message.strip_suffix(note.english())?;
                Some((note, head.len()))
            });
            let Some((note, head)) = noted else {
                catalog.localize(&mut e.violation);
                continue;
            };
            let mut english = e.violation.clone();
            english.message.truncate(head);
            if let Some(mut message) = catalog.message(&english) {
                message.push_str(&crate::notes::render(note, Some(catalog.tag()), &[]));
                e.violation.message = message;
            }
        }
    }

    /// No violation.
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// The verdict as JSON, in canonical form: `{"valid": bool, "errors": [...]}`, each error
    /// the [`Violation`]'s own serialization plus `line` and `column`; with `type_and_file`,
    /// also `type` and `file` (after `valid`), the line `specmint validate --format json` prints.
    pub fn to_json(&self, type_and_file: Option<(&str, &str)>) -> String {
        #[derive(serde::Serialize)]
        struct Json<'a> {
            valid: bool,
            #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
            kind: Option<&'a str>,
            #[serde(skip_serializing_if = "Option::is_none")]
            file: Option<&'a str>,
            errors: &'a [Located],
        }
        crate::runtime::document::to_canonical_json(&Json {
            valid: self.is_valid(),
            kind: type_and_file.map(|(kind, _)| kind),
            file: type_and_file.map(|(_, file)| file),
            errors: &self.errors,
        })
    }
}

/// A (line, column) found in a slice, moved to the input the slice starts in at
/// `(start_line, start_column)`: the slice's line 1 continues that line.
fn shift(
    (start_line, start_column): (usize, usize),
    (line, column): (usize, usize),
) -> (usize, usize) {
    if line > 1 {
        (line + start_line - 1, column)
    } else {
        (start_line, column + start_column - 1)
    }
}
