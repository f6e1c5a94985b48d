//! `--token-file`: the bearer tokens the door takes, and the check of a request's
//! `Authorization` header against them in constant time.

use std::path::Path;

use hyper::header::HeaderValue;

use crate::output::CliError;

/// The tokens of a `--token-file`: one per line; blank lines and lines starting with `#` are
/// skipped, the others trimmed.
pub(super) struct Tokens(Vec<Vec<u8>>);

/// What a request's `Authorization` header is worth.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Admission {
    /// One of the tokens.
    Admitted,
    /// No `Authorization: Bearer …` header.
    Missing,
    /// A bearer token that is none of them.
    Wrong,
}

impl Tokens {
    /// Reads `file`: refused when it cannot be read, holds no token, or holds a line that is
    /// not a bearer token (RFC 6750's `b64token`: what a client can send).
    pub(super) fn read(file: &Path) -> Result<Tokens, CliError> {
        let text = std::fs::read_to_string(file).map_err(|e| {
            CliError::Failure(format!(
                "cannot read --token-file `{}`: {e}",
                file.display()
            ))
        })?;
        let mut tokens = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let token = line.trim();
            if token.is_empty() || token.starts_with('#') {
                continue;
            }
            if !is_b64token(token) {
                return Err(CliError::Failure(format!(
                    "--token-file `{}`, line {}: not a bearer token (letters, digits and \
                     - . _ ~ + /, then = only at the end)",
                    file.display(),
                    n + 1
                )));
            }
            tokens.push(token.as_bytes().to_vec());
        }
        if tokens.is_empty() {
            return Err(CliError::Failure(format!(
                "--token-file `{}` holds no token (one per line; blank lines and lines starting \
                 with # are skipped)",
                file.display()
            )));
        }
        Ok(Tokens(tokens))
    }

    /// Whether `authorization` (the header's value) is `Bearer TOKEN` with one of the tokens.
    /// The token given is compared with every token, each byte of each, whatever matched
    /// before: the time taken says nothing of how close a guess was.
    pub(super) fn admit(&self, authorization: Option<&HeaderValue>) -> Admission {
        let Some(given) = authorization.and_then(|v| bearer(v.as_bytes())) else {
            return Admission::Missing;
        };
        let mut matched = 0u8;
        for token in &self.0 {
            matched |= same(token, given);
        }
        if std::hint::black_box(matched) == 1 {
            Admission::Admitted
        } else {
            Admission::Wrong
        }
    }
}

/// The token of `Bearer TOKEN` (the scheme's case ignored), else `None`.
fn bearer(value: &[u8]) -> Option<&[u8]> {
    let (scheme, rest) = value.split_at_checked(6)?;
    if !scheme.eq_ignore_ascii_case(b"bearer") || rest.first() != Some(&b' ') {
        return None;
    }
    let token = rest.trim_ascii();
    (!token.is_empty()).then_some(token)
}

/// 1 when `token` and `given` are the same bytes, else 0: every byte of `token` is looked at,
/// whatever differs first.
fn same(token: &[u8], given: &[u8]) -> u8 {
    let mut differ = u8::from(token.len() != given.len());
    for (i, byte) in token.iter().enumerate() {
        differ |= byte ^ given.get(i).copied().unwrap_or(!byte);
    }
    u8::from(std::hint::black_box(differ) == 0)
}

/// RFC 6750 §2.1: `1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`.
fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b))
}
