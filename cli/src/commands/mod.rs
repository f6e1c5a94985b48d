//! The commands, one module per command family: each reads its arguments (declared in
//! [`crate::args`]), runs the library and prints its verdict ([`crate::output`]).

mod bulk;
pub mod diff;
pub mod envelope;
pub mod handoff;
pub mod landing;
pub mod passport;
pub mod spec;
pub mod task;
pub mod taskpack;

use crate::output::CliError;

/// `--locale TAG`: a BCP 47 tag, or a POSIX locale name as the environment spells one
/// (`zh_TW.UTF-8`, `C`); a usage error otherwise.
pub(crate) fn check_locale(tag: &str) -> Result<(), CliError> {
    specmint::runtime::messages::check_wanted(tag)
        .map_err(|e| CliError::Usage(format!("--locale: {}", e.0)))
}

/// The language a command writes its refusals in: `--locale TAG` (checked), else the
/// environment's (`LC_ALL`, `LC_MESSAGES`, `LANG`); `None` is English. What `validate`, the
/// servers and TaskPack's landing commands share.
pub(crate) fn wanted_locale(flag: Option<String>) -> Result<Option<String>, CliError> {
    match flag {
        Some(tag) => {
            check_locale(&tag)?;
            Ok(Some(tag))
        }
        None => Ok(specmint::runtime::messages::env_locale()),
    }
}
