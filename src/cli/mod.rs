//! What every command of the `specmint` binary shares: the usage error, `--format`, reading
//! an input file or stdin. Each command family lives in its own file beside this one.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use specmint::runtime::document::{check_size, DocumentSpec};
use specmint::store::DatabaseError;
use specmint::Report;

pub mod diff;
pub mod envelope;
pub mod task;

pub mod landing;
pub mod taskpack;

pub mod a2a;
pub mod handoff;
pub mod mcp;
pub mod passport;

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

#[derive(Clone, Copy, PartialEq)]
pub enum Format {
    /// Lines a person reads.
    Human,
    /// One JSON value on stdout.
    Json,
}

/// The value of a numeric option such as `--max-input-bytes N`: a non-negative integer.
pub fn count<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, CliError> {
    value
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| CliError::Usage(format!("{flag} takes a non-negative integer")))
}

impl Format {
    /// Parses the value of `--format`.
    pub fn parse(value: Option<&String>) -> Result<Self, CliError> {
        match value.map(String::as_str) {
            Some("human") => Ok(Format::Human),
            Some("json") => Ok(Format::Json),
            other => Err(CliError::Usage(format!(
                "--format takes `human` or `json`, got {}",
                other.map_or("nothing".to_owned(), |o| format!("`{o}`"))
            ))),
        }
    }
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

/// The options of a behaviour command (`envelope`, `task`): `--store DB`, `--format`, the
/// flags it takes a value for, the switches it takes, and its positional arguments, in order.
pub struct Options {
    /// `--format`, human unless given.
    pub format: Format,
    store: Option<PathBuf>,
    values: Vec<(&'static str, String)>,
    switches: Vec<&'static str>,
    positional: Vec<String>,
}

impl Options {
    /// Parses `args`; `value_flags` are the command's own flags that take a value.
    pub fn parse(args: &[String], value_flags: &[&'static str]) -> Result<Self, CliError> {
        Self::parse_with_switches(args, value_flags, &[])
    }

    /// Parses `args`; `value_flags` take a value, `switches` take none.
    pub fn parse_with_switches(
        args: &[String],
        value_flags: &[&'static str],
        switches: &[&'static str],
    ) -> Result<Self, CliError> {
        let mut options = Options {
            format: Format::Human,
            store: None,
            values: Vec::new(),
            switches: Vec::new(),
            positional: Vec::new(),
        };
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--format" => options.format = Format::parse(rest.next())?,
                "--store" => {
                    let db = rest.next().ok_or_else(|| {
                        CliError::Usage("--store takes a path or a postgres:// URL".to_owned())
                    })?;
                    options.store = Some(PathBuf::from(db));
                }
                flag if switches.contains(&flag) => {
                    let known = switches.iter().find(|&&s| s == flag);
                    options.switches.extend(known);
                }
                flag if flag.starts_with("--") => {
                    let Some(&known) = value_flags.iter().find(|&&f| f == flag) else {
                        return Err(CliError::Usage(format!("unknown option `{flag}`")));
                    };
                    let value = rest
                        .next()
                        .ok_or_else(|| CliError::Usage(format!("{known} takes a value")))?;
                    options.values.push((known, value.clone()));
                }
                _ => options.positional.push(arg.clone()),
            }
        }
        Ok(options)
    }

    /// The `--store` database file.
    pub fn store(&self) -> Result<&Path, CliError> {
        self.store
            .as_deref()
            .ok_or_else(|| CliError::Usage("missing --store DB".to_owned()))
    }

    /// The `--store` path, when given (for a command whose store has a default).
    pub fn store_path(&self) -> Option<&Path> {
        self.store.as_deref()
    }

    /// The value of `flag`, when given (the last one wins).
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(f, _)| *f == flag)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the switch `flag` was given.
    pub fn has(&self, flag: &str) -> bool {
        self.switches.contains(&flag)
    }

    /// The positional arguments, refusing more or fewer than `names` (used in messages).
    pub fn positional(&self, names: &[&str]) -> Result<&[String], CliError> {
        if let Some(missing) = names.get(self.positional.len()) {
            return Err(CliError::Usage(format!("missing {missing}")));
        }
        if let Some(extra) = self.positional.get(names.len()) {
            return Err(CliError::Usage(format!("unexpected argument `{extra}`")));
        }
        Ok(&self.positional)
    }
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

/// Prints a verdict: `json` as one line with `--format json`, else the `human` line.
pub fn print_verdict(
    format: Format,
    json: &serde_json::Value,
    human: &str,
) -> Result<(), CliError> {
    let mut stdout = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(stdout, "{json}"),
        Format::Human => writeln!(stdout, "{human}"),
    }
    .map_err(|e| CliError::Failure(format!("cannot write output: {e}")))
}

/// A store failure (I/O, a locked or corrupt database) is not a verdict: exit 2.
pub fn store_failure(err: DatabaseError) -> CliError {
    CliError::Failure(err.to_string())
}
