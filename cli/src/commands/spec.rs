//! The spec toolkit's own commands: `validate` and `schema` (a document or a schema of a
//! bundled spec or of a spec directory) and `generate` (the committed snapshot, or any spec
//! directory's output). Declared in [`crate::args`].

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use specmint::runtime::messages::Catalog;

use specmint::answer::ValidateFailure;
use specmint::notes::Note;
use specmint::verdict::{DocType, FindError, Verdict};

use crate::args;
use crate::output::{answer_value, read_input, CliError, Format};

/// Finds TYPE (see [`DocType::find`]): an unknown TYPE is a usage error, a spec directory that
/// cannot be read or does not check a failure.
fn find_type(spec_dir: Option<&Path>, name: &str) -> Result<DocType, CliError> {
    DocType::find(spec_dir, Some(name)).map_err(|e| match e {
        FindError::UnknownType(m) => CliError::Usage(m),
        FindError::Spec(m) => CliError::Failure(m),
    })
}

pub fn validate(args: args::Validate) -> Result<u8, CliError> {
    let format = args.format.format;
    let ty = match find_type(args.doc_type.spec.as_deref(), &args.doc_type.name) {
        Err(CliError::Failure(message)) if format == Format::Json => {
            print_failure(&ValidateFailure::spec(&message))?;
            return Ok(2);
        }
        found => found?,
    };
    let limit = args
        .max_input_bytes
        .unwrap_or(ty.document().max_input_bytes);
    let wanted = super::wanted_locale(args.locale)?;
    // Set once, before any document is judged: `validate` runs once per process.
    let _ = CATALOG.set(wanted.and_then(|w| ty.catalog(&w)));
    if args.jsonl || args.files.len() > 1 {
        let jobs = args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        return super::bulk::validate_many(&ty, &args.files, args.jsonl, format, limit, jobs);
    }
    let mut worst = 0;
    for file in &args.files {
        let status = match validate_file(&ty, file, limit, format) {
            Ok(status) => status,
            Err(CliError::Usage(message) | CliError::Failure(message)) => {
                match format {
                    Format::Json => print_failure(&ValidateFailure::io(file, ty.name(), &message))?,
                    Format::Human => eprintln!("specmint: {message}"),
                }
                2
            }
        };
        worst = worst.max(status);
    }
    Ok(worst)
}

/// One JSON error object on stdout (`--format json`).
fn print_failure(failure: &ValidateFailure) -> Result<(), CliError> {
    writeln!(std::io::stdout().lock(), "{}", answer_value(failure)?)
        .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}

/// Judges one file and prints its verdict: 0 valid, 1 invalid; `Err` when it cannot be read.
fn validate_file(ty: &DocType, file: &str, limit: usize, format: Format) -> Result<u8, CliError> {
    let (text, status) = file_answer(ty, file, limit, format)?;
    std::io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    Ok(status)
}

/// One file's verdict as `validate` prints it, and its status: 0 valid, 1 invalid; `Err`
/// when it cannot be read.
pub(super) fn file_answer(
    ty: &DocType,
    file: &str,
    limit: usize,
    format: Format,
) -> Result<(String, u8), CliError> {
    // Read at most one byte over the limit, so an oversized input is refused without being
    // held in memory; the rest is only counted, for the violation's `measured`.
    let (display, mut verdict) = if file == "-" {
        let (display, input, total) = read_input(file, limit)?;
        (display, ty.judge(&input, total, limit))
    } else {
        let verdict = ty
            .judge_path(Path::new(file), limit)
            .map_err(|e| CliError::Failure(format!("cannot read `{file}`: {e}")))?;
        (file.to_owned(), verdict)
    };
    other_form_advice(ty, &mut verdict);
    let mut out = Vec::new();
    let written = match format {
        Format::Json => writeln!(out, "{}", verdict.to_json(Some((ty.name(), &display)))),
        Format::Human => human_verdict(&mut out, ty.name(), &display, &verdict),
    };
    written.map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    let text = String::from_utf8(out).map_err(|e| CliError::Failure(e.to_string()))?;
    Ok((text, if verdict.is_valid() { 0 } else { 1 }))
}

/// The messages `validate` writes in, when not English (`--locale`, or the environment's).
static CATALOG: OnceLock<Option<Catalog>> = OnceLock::new();

/// What every verdict `validate` prints goes through, one file or many: its messages in the
/// reader's language (when asked and the spec has it), and for a document refused for being
/// in the other form of its type (TaskPack's zip: the library's note says `validate` reads
/// the flat form), the commands that read that form.
pub(super) fn other_form_advice(ty: &DocType, verdict: &mut Verdict) {
    let catalog = CATALOG.get().and_then(Option::as_ref);
    if let Some(catalog) = catalog {
        verdict.localize(catalog);
    }
    if verdict.other_form.is_none() || ty.name() != "taskpack" {
        return;
    }
    if let Some(first) = verdict.errors.first_mut() {
        // The advice follows the message it ends: in the catalog's language when the message
        // was written in it (the catalog has its code), else English.
        let tag = catalog
            .filter(|c| c.codes().any(|code| code == first.violation.code.as_str()))
            .map(|c| c.tag());
        first
            .violation
            .message
            .push_str(&specmint::notes::render(Note::ZipCommands, tag, &[]));
    }
}

fn human_verdict(
    out: &mut impl Write,
    type_name: &str,
    display: &str,
    verdict: &Verdict,
) -> std::io::Result<()> {
    let located = &verdict.errors;
    for l in located {
        let v = &l.violation;
        match (l.line, l.column) {
            (Some(line), Some(column)) => write!(out, "{display}:{line}:{column}: ")?,
            _ => write!(out, "{display}: ")?,
        }
        writeln!(out, "error[{}]: {}", v.code, v.message)?;
    }
    match located.len() {
        0 => writeln!(out, "{display}: valid {type_name}"),
        1 => writeln!(out, "{display}: invalid {type_name} (1 error)"),
        n => writeln!(out, "{display}: invalid {type_name} ({n} errors)"),
    }
}

pub fn schema(args: args::Schema) -> Result<u8, CliError> {
    let ty = find_type(args.doc_type.spec.as_deref(), &args.doc_type.name)?;
    match args.locale {
        None => print!("{}", ty.schema()),
        Some(tag) => {
            super::check_locale(&tag)?;
            let schema = ty
                .schema_in_or_why(&tag)
                .map_err(|why| CliError::Usage(format!("--locale: {why}")))?;
            print!("{schema}");
        }
    }
    Ok(0)
}

/// The options `specmint generate --spec SPEC_DIR --out OUT_DIR` emits with: the bundled specs'
/// (generated code reaches the runtime through this crate), and a `@generated` note naming the
/// command that refreshes exactly these files (the flags that are not the defaults, repeated),
/// which is also the `--check` hint. The bundled specs' note stays `specmint generate`.
///
/// The files name both directories as seen from OUT_DIR's parent, not as typed, so that
/// `generate --check` gives the same answer from any directory and with relative or absolute
/// paths (`--spec spec --out out` from the project and `--spec /p/spec --out /p/out` from
/// elsewhere write the same bytes).
fn generate_options(spec_dir: &Path, out_dir: &Path) -> specmint_codegen::Options {
    let (spec_dir, out_dir) = &as_seen_from_out_parent(spec_dir, out_dir);
    specmint_codegen::Options {
        regenerate_with: Some(regenerate_command(spec_dir, out_dir)),
        spec_dir_in_files: Some(spec_dir.display().to_string()),
        ..specmint::bundle_options()
    }
}

/// `specmint generate` with the flags that are not the defaults.
fn regenerate_command(spec_dir: &Path, out_dir: &Path) -> String {
    let mut command = "specmint generate".to_owned();
    if spec_dir != Path::new(specmint::SPEC_DIR) {
        command += &format!(" --spec {}", spec_dir.display());
    }
    if out_dir != Path::new(specmint::GENERATED_DIR) {
        command += &format!(" --out {}", out_dir.display());
    }
    command
}

/// `spec_dir` and `out_dir` relative to the real (symlinks resolved) parent of `out_dir`;
/// as given when either cannot be resolved or `out_dir` has no parent.
fn as_seen_from_out_parent(spec_dir: &Path, out_dir: &Path) -> (PathBuf, PathBuf) {
    let resolved = || -> Option<(PathBuf, PathBuf)> {
        let spec = std::fs::canonicalize(spec_dir).ok()?;
        let out = resolve_partly(out_dir)?;
        let base = out.parent()?;
        Some((relative_to(base, &spec), relative_to(base, &out)))
    };
    resolved().unwrap_or_else(|| (spec_dir.to_owned(), out_dir.to_owned()))
}

/// `path` made absolute: its longest existing ancestor resolved, the rest appended (an
/// output directory need not exist yet).
fn resolve_partly(path: &Path) -> Option<PathBuf> {
    let absolute = std::env::current_dir().ok()?.join(path);
    let mut rest = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            for part in rest.iter().rev() {
                match part {
                    std::path::Component::ParentDir => {
                        out.pop();
                    }
                    std::path::Component::Normal(p) => out.push(p),
                    _ => {}
                }
            }
            return Some(out);
        }
        rest.push(existing.components().next_back()?);
        existing = existing.parent()?;
    }
}

/// `path` relative to `base` (both absolute and resolved), with `..` where it is not below.
fn relative_to(base: &Path, path: &Path) -> PathBuf {
    let base: Vec<_> = base.components().collect();
    let path: Vec<_> = path.components().collect();
    let common = base.iter().zip(&path).take_while(|(a, b)| a == b).count();
    let mut out: PathBuf = base[common..].iter().map(|_| "..").collect();
    out.extend(&path[common..]);
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

pub fn generate(args: args::Generate) -> Result<u8, CliError> {
    let args::Generate {
        spec: spec_dir,
        out: out_dir,
        check,
    } = args;
    let display_prefix = spec_dir.display().to_string();
    let sources = specmint_codegen::read_spec_dir(&spec_dir, &display_prefix).map_err(|e| {
        CliError::Failure(format!(
            "cannot read specs in `{}`: {e}",
            spec_dir.display()
        ))
    })?;
    let options = generate_options(&spec_dir, &out_dir);
    let files = match specmint_codegen::generate(&sources, &options) {
        Ok(files) => files,
        Err(diagnostics) => {
            eprintln!("{diagnostics}");
            return Ok(1);
        }
    };
    if check {
        let drifted = specmint_codegen::check_dir(&out_dir, &files);
        if drifted.is_empty() {
            println!("{}: up to date ({} files)", out_dir.display(), files.len());
            return Ok(0);
        }
        for path in &drifted {
            println!("{}: out of date", out_dir.join(path).display());
        }
        // The hint is run from here, so it repeats the paths as typed.
        let command = regenerate_command(&spec_dir, &out_dir);
        println!("run `{command}` to refresh {}", out_dir.display());
        return Ok(1);
    }
    specmint_codegen::write_if_changed(&out_dir, &files)
        .map_err(|e| CliError::Failure(format!("cannot write `{}`: {e}", out_dir.display())))?;
    println!("{}: wrote {} files", out_dir.display(), files.len());
    Ok(0)
}
