//! The `specmint` command line as a library (the program's `main` calls [`main`]): a thin layer
//! over the library `specmint`. Its commands, arguments and options are declared once, in
//! [`args`]; `specmint --help` lists them and `specmint <COMMAND> --help` says each, with its
//! exit status. The commands are in [`commands`], one module per command family; the servers
//! (MCP, LSP, the A2A door) in [`servers`]; what they share to read input and print verdicts
//! in [`output`].
//!
//! Exit status: 0 valid / done, 1 invalid / refused / drift, 2 usage or I/O error.

use std::process::ExitCode;

pub mod args;
pub mod commands;
pub mod output;
pub mod servers;

use args::Command;
use commands::{diff, envelope, handoff, passport, spec, task, taskpack};
use output::CliError;
use servers::{a2a, lsp, mcp};

/// The program: runs the command `std::env::args` names and returns its exit status, after
/// printing what stopped it, if anything (the usage text too after a usage error).
pub fn main() -> ExitCode {
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
    // SAFETY: `signal` with `SIG_DFL` installs no handler; it runs first thing in `main`
    // (which the program's `main` calls first thing), before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Runs the command `args` (the program's arguments, without its name) names: its exit status,
/// or why it stopped without a verdict. `Ok(0)` after `--help` and `--version`, which clap
/// prints.
///
/// # Errors
///
/// A usage error, or a command that could not run.
pub fn run(args: &[String]) -> Result<u8, CliError> {
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
