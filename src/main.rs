//! The `specmint` command line: a thin layer over the library.
//!
//! ```text
//! specmint validate [--spec DIR] <TYPE> <FILE|->... [--format human|json] [--max-input-bytes N]
//! specmint schema [--spec DIR] <TYPE>
//! specmint generate [--spec DIR] [--out DIR] [--check]
//! specmint diff OLD NEW | --against REV [--spec DIR] [--format human|json|github] [--fail-on LIST]
//! specmint handoff --home DIR --agent ID <FILE|-> [--format human|json]
//! specmint handoff read --home DIR TASK ROUND FROM TO [--format human|json]
//! specmint mcp --home DIR --agent ID
//! ```
//! Exit status: 0 valid / done, 1 invalid / drift, 2 usage or I/O error.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use specmint::bundled;
use specmint::verdict::{DocType, FindError, Verdict};

mod cli;
use cli::{read_input, CliError, Format};

/// A command family: the usage lines `specmint --help` and `specmint <COMMAND> --help` show,
/// and what its exit status means. Every option a line shows is one its command takes (a
/// test runs each against the parser).
struct Family {
    name: &'static str,
    usage: &'static str,
    exit: &'static str,
}

const FAMILIES: [Family; 11] = [
    Family {
        name: "validate",
        usage: "  specmint validate [--spec DIR] <TYPE> <FILE|->... [--format human|json] [--max-input-bytes N]",
        exit: "the worst of all FILEs: 0 all valid, 1 one invalid, 2 a usage error or one could \
               not be read",
    },
    Family {
        name: "schema",
        usage: "  specmint schema [--spec DIR] <TYPE>",
        exit: "0 printed, 2 a usage error, or a --spec spec that cannot be read or does not check",
    },
    Family {
        name: "generate",
        usage: "  specmint generate [--spec DIR] [--out DIR] [--check]",
        exit: "0 written / up to date, 1 a spec does not check or (--check) the output is out of \
               date, 2 usage or I/O error",
    },
    Family {
        name: "diff",
        usage: "  specmint diff OLD NEW [--format human|json|github] [--fail-on LIST]
  specmint diff --against REV [--spec DIR] [--format human|json|github] [--fail-on LIST]",
        exit: "1 a change breaks a --fail-on category (documents,readers,rust-api,codes,machines; \
               default all), 0 otherwise, 2 usage or a side that does not load",
    },
    Family {
        name: "handoff",
        usage: "  specmint handoff --home DIR --agent ID <FILE|-> [--format human|json]
  specmint handoff read --home DIR TASK ROUND FROM TO [--format human|json]",
        exit: "0 filed / read, 1 refused with the spec's code, 2 usage or I/O error",
    },
    Family {
        name: "mcp",
        usage: "  specmint mcp --home DIR --agent ID",
        exit: "0 when the client closes the connection, 2 usage or I/O error",
    },
    Family {
        name: "envelope",
        usage: "  specmint envelope new PACKAGE_ID [--intent TEXT] --store DB [--format human|json]
  specmint envelope apply --store DB FILE|- [--format human|json]
  specmint envelope show PACKAGE_ID --store DB [--format human|json]",
        exit: "0 applied, replayed or shown, 1 refused with the spec's code, 2 usage or I/O error",
    },
    Family {
        name: "task",
        usage: "  specmint task submit --store DB FILE|- [--format human|json]
  specmint task claim|show --store DB ID [--format human|json]
  specmint task move --store DB ID STATE [--reason TEXT] [--format human|json]
  specmint task complete --store DB ID --evidence FILE|- [--format human|json]
  specmint task reject --store DB ID --reason TEXT [--format human|json]
  specmint task bind --store DB ID --ledger FILE [--format human|json]",
        exit: "0 done, 1 refused with the spec's code, 2 usage or I/O error",
    },
    Family {
        name: "taskpack",
        usage: "  specmint taskpack convert IN OUT [--max-inline-bytes N]
  specmint taskpack conformance FILE [--format human|json]
  specmint taskpack pack ID --out FILE [--store DIR] [--flat] [--kind handoff|receipt]
                        [--ask 'WHAT|ACCEPT[|WHY]']... [--check 'CHECK[|HOW]']...
                        [--attach PATH...] [--actor NAME] [--machine NAME] [--note TEXT]
                        [--format human|json]
  specmint taskpack land FILE [--store DIR] [--trust-machine-facts] [--format human|json]
  specmint taskpack merge RECEIPT --into ID [--store DIR] [--format human|json]
  specmint taskpack to-a2a PACK
  specmint taskpack from-a2a TASK.json --out PACK [--machine NAME] [--actor NAME]",
        exit: "convert, pack, land, merge: 0 done, 1 refused (with a code), 2 usage or I/O \
               error;\n             conformance: 0 conformant, 2 not conformant or a usage or \
               I/O error (1 is never used)",
    },
    Family {
        name: "a2a",
        usage: "  specmint a2a serve --store DIR --listen HOST:PORT [--max-pack-bytes N]",
        exit: "runs until stopped; 2 usage or I/O error (the address cannot be bound)",
    },
    Family {
        name: "passport",
        usage: "  specmint passport new --title TEXT --goal TEXT [--current-state TEXT] [--next-step TEXT]
                        [--id ID] [--file FILE|-] [--store DIR] [--format human|json]
  specmint passport show ID [--store DIR] [--format human|json]
  specmint passport list [--store DIR] [--format human|json]",
        exit: "0 done, 1 refused (with a code), 2 usage or I/O error",
    },
];

/// The whole usage text: every family's lines, then the exit statuses they share.
fn usage() -> String {
    let lines: Vec<&str> = FAMILIES.iter().map(|f| f.usage).collect();
    format!(
        "usage:\n{}\n  specmint <COMMAND> --help\n  specmint --help | --version\n\n\
         exit status: 0 valid / done, 1 invalid / refused / drift, 2 usage or I/O error;\n\
         \x20            taskpack conformance: 0 conformant, 2 not (`specmint <COMMAND> --help` \
         says each)",
        lines.join("\n")
    )
}

/// What `validate` and `schema` say about TYPE.
const TYPE_HELP: &str = "\
TYPE: a bundled spec, or with --spec DIR the stem of a spec file in DIR in kebab case
      (DIR/webhook_event.md is `webhook-event`), read and checked when the command runs";

fn main() -> ExitCode {
    end_at_a_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Usage(message)) => {
            eprintln!("specmint: {message}");
            eprintln!("{}", usage());
            ExitCode::from(2)
        }
        Err(CliError::Failure(message)) => {
            eprintln!("specmint: {message}");
            ExitCode::from(2)
        }
    }
}

/// A command whose stdout or stderr is a closed pipe (`specmint validate ... | head -1`) ends
/// at its first write to it, silently, killed by SIGPIPE as `cat` and `grep` are (a shell
/// reports status 141). Rust ignores SIGPIPE, which turns every write into an error: each
/// `println!` and `eprintln!` would panic (exit 101) and each checked write would report
/// `Broken pipe` once per remaining file. Restoring the default here covers every command
/// and every write, wherever it is.
fn end_at_a_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: `signal` with `SIG_DFL` installs no handler; it runs first thing in `main`,
    // before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run(args: &[String]) -> Result<u8, CliError> {
    let command = args.first().map(String::as_str);
    if let Some(command) = command.filter(|c| !c.starts_with('-')) {
        if args[1..].iter().any(|a| a == "--help" || a == "-h") {
            return command_help(command);
        }
    }
    Ok(match command {
        Some("validate") => validate(&args[1..])?,
        Some("schema") => schema(&args[1..])?,
        Some("generate") => generate(&args[1..])?,
        Some("diff") => cli::diff::run(&args[1..])?,
        Some("handoff") => cli::handoff::run(&args[1..])?,
        Some("mcp") => cli::mcp::run(&args[1..])?,
        Some("envelope") => cli::envelope::run(&args[1..])?,
        Some("task") => cli::task::run(&args[1..])?,
        Some("taskpack") => cli::taskpack::run(&args[1..])?,
        Some("passport") => cli::passport::run(&args[1..])?,
        Some("a2a") => cli::a2a::run(&args[1..])?,
        Some("--help" | "-h" | "help") => {
            println!("{}\n\nTYPE: {}", usage(), bundled::names().join(" | "));
            0
        }
        Some("--version" | "-V") => {
            println!("specmint {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some(other) => return Err(CliError::Usage(format!("unknown command `{other}`"))),
        None => return Err(CliError::Usage("missing command".to_owned())),
    })
}

/// `specmint COMMAND --help`: the usage lines of that command's family and its exit status.
fn command_help(command: &str) -> Result<u8, CliError> {
    let Some(family) = FAMILIES.iter().find(|f| f.name == command) else {
        return Err(CliError::Usage(format!("unknown command `{command}`")));
    };
    println!("usage:\n{}", family.usage);
    if matches!(command, "validate" | "schema") {
        println!("\n{TYPE_HELP}\nbundled: {}", bundled::names().join(" | "));
    }
    if command == "validate" {
        println!(
            "\nSeveral FILEs are judged in order, one result each (a JSON object per line with\n\
             --format json)."
        );
    }
    println!("\nexit status: {}", family.exit);
    Ok(0)
}

/// Finds TYPE (see [`DocType::find`]): an unknown TYPE is a usage error, a spec directory that
/// cannot be read or does not check a failure.
fn find_type(spec_dir: Option<&Path>, name: Option<&String>) -> Result<DocType, CliError> {
    DocType::find(spec_dir, name.map(String::as_str)).map_err(|e| match e {
        FindError::UnknownType(m) => CliError::Usage(m),
        FindError::Spec(m) => CliError::Failure(m),
    })
}

/// Reads `--spec DIR` out of `args` (the last one wins): the directory and the other args.
fn spec_option(args: &[String]) -> Result<(Option<PathBuf>, Vec<String>), CliError> {
    let mut dir = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--spec" {
            let value = it
                .next()
                .ok_or_else(|| CliError::Usage("--spec takes a directory".to_owned()))?;
            dir = Some(PathBuf::from(value));
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((dir, rest))
}

fn validate(args: &[String]) -> Result<u8, CliError> {
    let (spec_dir, args) = spec_option(args)?;
    let mut positional = Vec::new();
    let mut format = Format::Human;
    let mut max_input_bytes = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--format" => format = Format::parse(rest.next())?,
            "--max-input-bytes" => max_input_bytes = Some(cli::count(arg, rest.next())?),
            flag if flag.starts_with("--") => {
                return Err(CliError::Usage(format!("unknown option `{flag}`")))
            }
            _ => positional.push(arg),
        }
    }
    let ty = match find_type(spec_dir.as_deref(), positional.first().copied()) {
        Err(CliError::Failure(message)) if format == Format::Json => {
            print_failure(&serde_json::json!({ "error": { "kind": "spec", "message": message } }))?;
            return Ok(2);
        }
        found => found?,
    };
    let files = &positional[1..];
    if files.is_empty() {
        return Err(CliError::Usage(
            "missing FILE (or `-` for stdin)".to_owned(),
        ));
    }
    let limit = max_input_bytes.unwrap_or(ty.document().max_input_bytes);
    let mut worst = 0;
    for file in files {
        let status = match validate_file(&ty, file, limit, format) {
            Ok(status) => status,
            Err(CliError::Usage(message) | CliError::Failure(message)) => {
                match format {
                    Format::Json => print_failure(&serde_json::json!({
                        "file": file,
                        "type": ty.name(),
                        "error": { "kind": "io", "message": message },
                    }))?,
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
fn print_failure(error: &serde_json::Value) -> Result<(), CliError> {
    writeln!(std::io::stdout().lock(), "{error}")
        .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}

/// Judges one file and prints its verdict: 0 valid, 1 invalid; `Err` when it cannot be read.
fn validate_file(ty: &DocType, file: &str, limit: usize, format: Format) -> Result<u8, CliError> {
    // Read at most one byte over the limit, so an oversized input is refused without being
    // held in memory; the rest is only counted, for the violation's `measured`.
    let (display, verdict) = if file == "-" {
        let (display, input, total) = read_input(file, limit)?;
        (display, ty.judge(&input, total, limit))
    } else {
        let verdict = ty
            .judge_path(Path::new(file), limit)
            .map_err(|e| CliError::Failure(format!("cannot read `{file}`: {e}")))?;
        (file.to_owned(), verdict)
    };
    let mut stdout = std::io::stdout().lock();
    let written = match format {
        Format::Json => writeln!(stdout, "{}", verdict.to_json(Some((ty.name(), &display)))),
        Format::Human => human_verdict(&mut stdout, ty.name(), &display, &verdict),
    };
    written.map_err(|e| CliError::Failure(format!("cannot write output: {e}")))?;
    Ok(if verdict.is_valid() { 0 } else { 1 })
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

fn schema(args: &[String]) -> Result<u8, CliError> {
    let (spec_dir, args) = spec_option(args)?;
    let ty = find_type(spec_dir.as_deref(), args.first())?;
    if let Some(extra) = args.get(1) {
        return Err(CliError::Usage(format!("unexpected argument `{extra}`")));
    }
    print!("{}", ty.schema());
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

fn generate(args: &[String]) -> Result<u8, CliError> {
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
                    .ok_or_else(|| CliError::Usage(format!("{arg} takes a directory")))?;
                if arg == "--spec" {
                    spec_dir = dir.into()
                } else {
                    out_dir = dir.into()
                }
            }
            other => return Err(CliError::Usage(format!("unexpected argument `{other}`"))),
        }
    }
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
