//! What every command shares: [`CliError`] (why a command stopped without a verdict), reading
//! its input ([`read_input`], [`read_document`]) and writing its verdict ([`print_verdict`],
//! [`answer_value`]).

use std::io::{Read, Write};

use specmint::database::DatabaseError;
use specmint::runtime::document::{check_size, DocumentSpec};
use specmint::Report;

pub use crate::args::Format;

/// Why a command stopped without a verdict: what every command returns besides its exit
/// status. Exit status 2 either way; [`crate::main`] shows the usage text after a usage error only.
pub enum CliError {
    /// Bad usage (an unknown option, a missing argument, a value that does not parse): the
    /// message, then the usage text.
    Usage(String),
    /// The command was used right but could not run (I/O, a store, a broken spec): the
    /// message alone.
    Failure(String),
}

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
