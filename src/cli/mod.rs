//! What every command of the `specmint` binary shares: the usage error, `--format`, reading
//! an input file or stdin. Each command family lives in its own file beside this one.

use std::io::Read;

pub mod taskpack;

/// A failure that is not a verdict: bad usage or I/O. Exit status 2.
pub struct UsageError(pub String);

#[derive(Clone, Copy, PartialEq)]
pub enum Format {
    /// Lines a person reads.
    Human,
    /// One JSON value on stdout.
    Json,
}

impl Format {
    /// Parses the value of `--format`.
    pub fn parse(value: Option<&String>) -> Result<Self, UsageError> {
        match value.map(String::as_str) {
            Some("human") => Ok(Format::Human),
            Some("json") => Ok(Format::Json),
            other => Err(UsageError(format!(
                "--format takes `human` or `json`, got {}",
                other.map_or("nothing".to_owned(), |o| format!("`{o}`"))
            ))),
        }
    }
}

/// The input's first `limit + 1` bytes at most, and its total length in bytes.
pub fn read_input(file: &str, limit: usize) -> Result<(String, Vec<u8>, u64), UsageError> {
    let (display, reader): (String, Box<dyn Read>) = if file == "-" {
        ("<stdin>".to_owned(), Box::new(std::io::stdin().lock()))
    } else {
        let f = std::fs::File::open(file)
            .map_err(|e| UsageError(format!("cannot read `{file}`: {e}")))?;
        (file.to_owned(), Box::new(f))
    };
    let fail = |e: std::io::Error| UsageError(format!("cannot read `{display}`: {e}"));
    let mut reader = reader;
    let mut input = Vec::new();
    let head = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    (&mut reader)
        .take(head)
        .read_to_end(&mut input)
        .map_err(fail)?;
    let mut total = input.len() as u64;
    if input.len() > limit {
        total += std::io::copy(&mut reader, &mut std::io::sink()).map_err(fail)?;
    }
    Ok((display, input, total))
}
