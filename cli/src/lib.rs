//! The `specmint` command line: a thin layer over the library. Its commands, arguments and
//! options are declared once, in [`args`]; `specmint --help` lists them and `specmint
//! <COMMAND> --help` says each, with its exit status.
//!
//! Exit status: 0 valid / done, 1 invalid / refused / drift, 2 usage or I/O error.

use std::io::{Read, Write};
use std::process::ExitCode;

use specmint::database::DatabaseError;
use specmint::runtime::document::{check_size, DocumentSpec};
use specmint::Report;

mod a2a;
mod args;
mod diff;
mod envelope;
mod handoff;
mod landing;
mod lsp;
mod mcp;
mod passport;
mod spec;
mod task;
mod taskpack;

use args::Command;

fn main() -> ExitCode {
    end_at_a_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(CliError::Usage(message)) => {
            eprintln!("specmint: {message}");
            eprintln!("{}", args::usage(&args));
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
    let Some(command) = args::parse(args)? else {
        return Ok(0);
    };
    match command {
        Command::Validate(args) => spec::validate(args),
        Command::Schema(args) => spec::schema(args),
        Command::Generate(args) => spec::generate(args),
        Command::Diff(args) => diff::run(args),
        Command::Handoff(args) => handoff::run(args),
        Command::Mcp(args) => mcp::run(args),
        Command::Lsp => lsp::run(),
        Command::Envelope(command) => envelope::run(command),
        Command::Task(command) => task::run(command),
        Command::Taskpack(command) => taskpack::run(command),
        Command::Passport(command) => passport::run(command),
        Command::A2a(command) => a2a::run(command),
        Command::Completions { shell } => {
            let mut command = args::command();
            clap_complete::generate(shell, &mut command, "specmint", &mut std::io::stdout());
            Ok(0)
        }
    }
}

/// Why a command stopped without a verdict: what every command returns besides its exit
/// status. Exit status 2 either way; `main` shows the usage text after a usage error only.
pub enum CliError {
    /// Bad usage (an unknown option, a missing argument, a value that does not parse): the
    /// message, then the usage text.
    Usage(String),
    /// The command was used right but could not run (I/O, a store, a broken spec): the
    /// message alone.
    Failure(String),
}

pub use args::Format;

/// The input's first `limit + 1` bytes at most, and its total length in bytes.
pub fn read_input(file: &str, limit: usize) -> Result<(String, Vec<u8>, u64), CliError> {
    let (display, mut reader): (String, Box<dyn Read>) = if file == "-" {
        ("<stdin>".to_owned(), Box::new(std::io::stdin().lock()))
    } else {
        let f = std::fs::File::open(file)
            .map_err(|e| CliError::Failure(format!("cannot read `{file}`: {e}")))?;
        (file.to_owned(), Box::new(f))
    };
    let (input, total) = specmint::verdict::read_head(&mut reader, limit)
        .map_err(|e| CliError::Failure(format!("cannot read `{display}`: {e}")))?;
    Ok((display, input, total))
}

/// Reads a document from `file` (or stdin for `-`) no longer than `document` allows: the
/// bytes, or the size violation when the input is over the limit.
pub fn read_document(
    file: &str,
    document: &DocumentSpec,
) -> Result<Result<Vec<u8>, Report>, CliError> {
    let (_, input, total) = read_input(file, document.max_input_bytes)?;
    if total > input.len() as u64 {
        let len = usize::try_from(total).unwrap_or(usize::MAX);
        return Ok(Err(check_size(len, document).err().unwrap_or_default()));
    }
    Ok(Ok(input))
}

/// Prints a verdict: the `answer` as one line with `--format json` (as every door writes it,
/// [`specmint::answer::to_value`]), else the `human` line.
pub fn print_verdict<T: serde::Serialize + ?Sized>(
    format: Format,
    answer: &T,
    human: &str,
) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(stdout, "{}", answer_value(answer)?),
        Format::Human => writeln!(stdout, "{human}"),
    }
    .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}

/// The `answer` as every door writes it ([`specmint::answer::to_value`]).
pub fn answer_value<T: serde::Serialize + ?Sized>(
    answer: &T,
) -> Result<serde_json::Value, CliError> {
    specmint::answer::to_value(answer)
        .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}

/// A store failure (I/O, a locked or corrupt database) is not a verdict: exit 2.
pub fn store_failure(err: DatabaseError) -> CliError {
    CliError::Failure(err.to_string())
}
