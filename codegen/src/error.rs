//! Why a build script's [`Config::run`](crate::Config::run) failed ([`Error`]).

use std::fmt;
use std::io;

use crate::diag::Diagnostics;
use crate::diff;

/// Why [`Config::run`](crate::Config::run) failed.
#[derive(Debug)]
pub enum Error {
    /// Reading the specs or writing the output failed.
    Io(io::Error),
    /// The specs have problems.
    Spec(Diagnostics),
    /// No output directory: neither [`Config::out_dir`](crate::Config::out_dir) nor `OUT_DIR`.
    NoOutDir,
    /// [`Config::check_against`](crate::Config::check_against): the edit breaks a category
    /// the project must not break; the whole diff, to print.
    Breaking(Box<diff::SpecDiff>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => write!(f, "specmint: {e}"),
            Error::Spec(d) => write!(f, "{d}"),
            Error::NoOutDir => f.write_str("specmint: no out_dir and OUT_DIR is not set"),
            Error::Breaking(d) => write!(
                f,
                "specmint: the spec change breaks what this project must not break:\n{}",
                d.render(diff::Format::Human)
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Io(e)
    }
}
