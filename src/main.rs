//! The `specmint` command line: a thin layer over the library.
//!
//! ```text
//! specmint validate <TYPE> <FILE|-> [--format human|json] [--max-input-bytes N]
//! specmint schema <TYPE>
//! specmint generate [--spec DIR] [--out DIR] [--check]
//! specmint handoff --home DIR --agent ID <FILE|-> [--format human|json]
//! specmint handoff read --home DIR TASK ROUND FROM TO [--format human|json]
//! specmint mcp --home DIR --agent ID
//! ```
//! Exit status: 0 valid / done, 1 invalid / drift, 2 usage or I/O error.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use specmint::bundled::{self, Bundled};
use specmint::runtime::document::{check_size, extracted_range, locate, locate_key};
use specmint::Violation;

mod cli;
use cli::{read_input, Format, UsageError};

const USAGE: &str = "\
usage:
  specmint validate <TYPE> <FILE|-> [--format human|json] [--max-input-bytes N]
  specmint schema <TYPE>
  specmint generate [--spec DIR] [--out DIR] [--check]
  specmint handoff --home DIR --agent ID <FILE|-> [--format human|json]
  specmint handoff read --home DIR TASK ROUND FROM TO [--format human|json]
  specmint mcp --home DIR --agent ID
  specmint envelope new PACKAGE_ID [--intent TEXT] --store DB
  specmint envelope apply --store DB FILE|-
  specmint envelope show PACKAGE_ID --store DB
  specmint task submit --store DB FILE|-
  specmint task claim|show --store DB ID
  specmint task move --store DB ID STATE [--reason TEXT]
  specmint task complete --store DB ID --evidence FILE|-
  specmint task reject --store DB ID --reason TEXT
  specmint task bind --store DB ID --ledger FILE
  specmint taskpack convert IN OUT [--max-inline-bytes N]
  specmint taskpack conformance FILE [--format human|json]
  specmint taskpack land FILE [--store DIR] [--trust-machine-facts]
  specmint taskpack merge RECEIPT --into ID [--store DIR]
  specmint passport new --title TEXT --goal TEXT [--current-state TEXT] [--next-step TEXT]
                        [--id ID] [--file FILE|-] [--store DIR]
  specmint passport show ID [--store DIR]
  specmint passport list [--store DIR]
  specmint --help

envelope, task, passport and taskpack land/merge commands take --format human|json

exit status: 0 valid / done, 1 invalid / drift, 2 usage or I/O error";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(UsageError(message)) => {
            eprintln!("specmint: {message}");
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<u8, UsageError> {
    match args.first().map(String::as_str) {
        Some("validate") => validate(&args[1..]),
        Some("schema") => schema(&args[1..]),
        Some("generate") => generate(&args[1..]),
        Some("handoff") => cli::handoff::run(&args[1..]),
        Some("mcp") => cli::mcp::run(&args[1..]),
        Some("envelope") => cli::envelope::run(&args[1..]),
        Some("task") => cli::task::run(&args[1..]),
        Some("taskpack") => cli::taskpack::run(&args[1..]),
        Some("passport") => cli::passport::run(&args[1..]),
        Some("--help" | "-h" | "help") => {
            println!("{USAGE}\n\nTYPE: {}", bundled::names().join(" | "));
            Ok(0)
        }
        Some(other) => Err(UsageError(format!("unknown command `{other}`"))),
        None => Err(UsageError("missing command".to_owned())),
    }
}

fn find_type(name: Option<&String>) -> Result<&'static Bundled, UsageError> {
    let known = bundled::names().join(", ");
    let name = name.ok_or_else(|| UsageError(format!("missing TYPE (one of: {known})")))?;
    bundled::find(name)
        .ok_or_else(|| UsageError(format!("unknown TYPE `{name}` (one of: {known})")))
}

fn validate(args: &[String]) -> Result<u8, UsageError> {
    let mut positional = Vec::new();
    let mut format = Format::Human;
    let mut max_input_bytes = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--format" => format = Format::parse(rest.next())?,
            "--max-input-bytes" => max_input_bytes = Some(cli::count(arg, rest.next())?),
            flag if flag.starts_with("--") => {
                return Err(UsageError(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let bundled = find_type(positional.first().copied())?;
    let file = positional
        .get(1)
        .ok_or_else(|| UsageError("missing FILE (or `-` for stdin)".to_owned()))?;
    if positional.len() > 2 {
        return Err(UsageError(format!(
            "unexpected argument `{}`",
            positional[2]
        )));
    }
    // Read at most one byte over the limit, so an oversized input is refused without being
    // held in memory; the rest is only counted, for the violation's `measured`.
    let limit = max_input_bytes.unwrap_or(bundled.document.max_input_bytes);
    let (display, input, total) = read_input(file, limit)?;
    let verdict = if total > input.len() as u64 {
        let document = bundled.document.with_max_input_bytes(limit);
        check_size(usize::try_from(total).unwrap_or(usize::MAX), &document).map(|()| String::new())
    } else {
        bundled.validate(&input, max_input_bytes)
    };
    let violations = verdict
        .as_ref()
        .err()
        .map_or(&[][..], |report| report.as_slice());
    let text = String::from_utf8_lossy(&input);
    let located: Vec<Located> = violations
        .iter()
        .map(|v| Located::new(v, &text, bundled))
        .collect();
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        Format::Json => writeln!(stdout, "{}", json_verdict(bundled, &located)),
        Format::Human => human_verdict(&mut stdout, bundled, &display, &located),
    };
    written.map_err(|e| UsageError(format!("cannot write output: {e}")))?;
    Ok(if verdict.is_ok() { 0 } else { 1 })
}

/// A violation with the place in the input it points at.
struct Located<'a> {
    violation: &'a Violation,
    line_col: Option<(usize, usize)>,
}

impl<'a> Located<'a> {
    fn new(violation: &'a Violation, input: &str, bundled: &Bundled) -> Self {
        // A document cut out of surrounding prose was judged on that slice: find the position
        // in the slice, then move it to where the slice starts in the input.
        let range = extracted_range(input, bundled.document).unwrap_or(0..input.len());
        let slice = &input[range.clone()];
        // A forbidden key points at the key itself. (A spec without its own code for forbidden
        // keys reports them with its parse code, so the key's name decides, not the code.)
        let last_key = violation.pointer.rsplit('/').next().unwrap_or_default();
        let forbidden = violation.code == bundled.document.forbidden_key_code
            && bundled.document.forbidden_keys.contains(&last_key);
        let in_slice = if forbidden {
            locate_key(slice, &violation.pointer)
        } else if violation.code == bundled.document.parse_error_code {
            serde_json_position(&violation.message).or_else(|| nearest(slice, &violation.pointer))
        } else {
            nearest(slice, &violation.pointer)
        };
        Located {
            violation,
            line_col: in_slice.map(|at| shift(&input[..range.start], at)),
        }
    }
}

/// A (line, column) found in a slice, moved past `before`, the text that precedes the slice.
fn shift(before: &str, (line, column): (usize, usize)) -> (usize, usize) {
    let lines_before = before.matches('\n').count();
    if line > 1 {
        return (line + lines_before, column);
    }
    let last_line = &before[before.rfind('\n').map_or(0, |at| at + 1)..];
    (1 + lines_before, column + last_line.chars().count())
}

/// The position of the value at `pointer`, or of its nearest ancestor that exists
/// (a missing field points at the object that lacks it).
fn nearest(input: &str, pointer: &str) -> Option<(usize, usize)> {
    let mut pointer = pointer;
    loop {
        if let Some(found) = locate(input, pointer) {
            return Some(found);
        }
        pointer = &pointer[..pointer.rfind('/')?];
    }
}

/// serde_json ends its messages with ` at line L column C`; the CLI reuses that position.
fn serde_json_position(message: &str) -> Option<(usize, usize)> {
    let (_, tail) = message.rsplit_once(" at line ")?;
    let (line, column) = tail.split_once(" column ")?;
    // serde_json reports column 0 when the bad value starts a line; columns here are 1-based.
    Some((line.parse().ok()?, column.parse::<usize>().ok()?.max(1)))
}

/// The JSON verdict: each error is the [`Violation`]'s own serialization (the one the
/// library's `Report` uses) plus where it is in the input.
fn json_verdict(bundled: &Bundled, located: &[Located]) -> String {
    #[derive(serde::Serialize)]
    struct Verdict<'a> {
        valid: bool,
        #[serde(rename = "type")]
        kind: &'a str,
        errors: Vec<Error<'a>>,
    }
    #[derive(serde::Serialize)]
    struct Error<'a> {
        #[serde(flatten)]
        violation: &'a Violation,
        #[serde(skip_serializing_if = "Option::is_none")]
        line: Option<usize>,
        #[serde(skip_serializing_if = "Option::is_none")]
        column: Option<usize>,
    }
    let verdict = Verdict {
        valid: located.is_empty(),
        kind: bundled.cli_name,
        errors: located
            .iter()
            .map(|l| Error {
                violation: l.violation,
                line: l.line_col.map(|(line, _)| line),
                column: l.line_col.map(|(_, column)| column),
            })
            .collect(),
    };
    specmint::runtime::document::to_canonical_json(&verdict)
}

fn human_verdict(
    out: &mut impl Write,
    bundled: &Bundled,
    display: &str,
    located: &[Located],
) -> std::io::Result<()> {
    for l in located {
        let v = l.violation;
        match l.line_col {
            Some((line, column)) => write!(out, "{display}:{line}:{column}: ")?,
            None => write!(out, "{display}: ")?,
        }
        writeln!(out, "error[{}]: {}", v.code, v.message)?;
    }
    match located.len() {
        0 => writeln!(out, "{display}: valid {}", bundled.cli_name),
        1 => writeln!(out, "{display}: invalid {} (1 error)", bundled.cli_name),
        n => writeln!(out, "{display}: invalid {} ({n} errors)", bundled.cli_name),
    }
}

fn schema(args: &[String]) -> Result<u8, UsageError> {
    let bundled = find_type(args.first())?;
    if let Some(extra) = args.get(1) {
        return Err(UsageError(format!("unexpected argument `{extra}`")));
    }
    print!("{}", bundled.json_schema);
    Ok(0)
}

fn generate(args: &[String]) -> Result<u8, UsageError> {
    let mut spec_dir = PathBuf::from(specmint::SPEC_DIR);
    let mut out_dir = PathBuf::from(specmint::GENERATED_DIR);
    let mut check = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--check" => check = true,
            "--spec" | "--out" => {
                let dir = rest
                    .next()
                    .ok_or_else(|| UsageError(format!("{arg} takes a directory")))?;
                if arg == "--spec" {
                    spec_dir = dir.into()
                } else {
                    out_dir = dir.into()
                }
            }
            other => return Err(UsageError(format!("unexpected argument `{other}`"))),
        }
    }
    let display_prefix = spec_dir.display().to_string();
    let sources = specmint_codegen::read_spec_dir(&spec_dir, &display_prefix).map_err(|e| {
        UsageError(format!(
            "cannot read specs in `{}`: {e}",
            spec_dir.display()
        ))
    })?;
    let files = match specmint_codegen::generate(&sources, &specmint::bundle_options()) {
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
        println!("run `specmint generate` to refresh {}", out_dir.display());
        return Ok(1);
    }
    specmint_codegen::write_if_changed(&out_dir, &files)
        .map_err(|e| UsageError(format!("cannot write `{}`: {e}", out_dir.display())))?;
    println!("{}: wrote {} files", out_dir.display(), files.len());
    Ok(0)
}
