//! Reading a `--store` value that names a PostgreSQL server, in either of libpq's forms: the
//! URL (`postgresql://user:password@host:5432/db?sslmode=verify-full&sslrootcert=ca.pem`) and
//! the keyword form (`host=db.example port=5432 user=u password='p w' dbname=db`).
//!
//! What this module owns: telling the keyword form from a file's path (a value that starts
//! `key=` is never a path: it is PostgreSQL when every key is a libpq keyword, else refused),
//! the password-free form of an address for messages ([`redacted`]), the passwords an address
//! holds (so a message that might quote one can be scrubbed, [`secrets`]), and taking out the
//! TLS settings (`sslmode`, `sslrootcert`) the PostgreSQL client's own parser does not know
//! ([`split_tls`]). Nothing here needs the `postgres` feature: a build without it still
//! refuses a keyword form rather than creating a file named after it.

/// The connection keywords libpq knows (PostgreSQL 17's list): the keys of the keyword form.
pub(crate) const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "require_auth",
    "channel_binding",
    "connect_timeout",
    "client_encoding",
    "options",
    "application_name",
    "fallback_application_name",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "tcp_user_timeout",
    "replication",
    "gssencmode",
    "sslmode",
    "sslnegotiation",
    "sslcompression",
    "sslcert",
    "sslkey",
    "sslcertmode",
    "sslpassword",
    "sslrootcert",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
    "service",
    "target_session_attrs",
    "load_balance_hosts",
];

/// How the URL form is written, for the messages that refuse an address.
pub(crate) const URL_FORM: &str =
    "postgresql://USER@HOST:PORT/DB?sslmode=verify-full&sslrootcert=CA.pem";

/// Whether `value` is a `postgres://` or `postgresql://` URL (scheme in any case).
pub(crate) fn is_postgres_url(value: &str) -> bool {
    ["postgres://", "postgresql://"].iter().any(|scheme| {
        value
            .get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
    })
}

/// Whether `value` starts as the keyword form does: a word, then `=` (spaces allowed around
/// it). Such a value is never read as a file's path.
pub(crate) fn is_keyword_form(value: &str) -> bool {
    let rest = value.trim_start();
    let word = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    word > 0 && rest[word..].trim_start().starts_with('=')
}

/// Whether `value` starts `postgres:` or `postgresql:` without the `//` of a URL: a mistyped
/// URL, never a path.
pub(crate) fn is_mistyped_url(value: &str) -> bool {
    ["postgres:", "postgresql:"].iter().any(|scheme| {
        value
            .get(..scheme.len())
            .is_some_and(|s| s.eq_ignore_ascii_case(scheme))
    }) && !is_postgres_url(value)
}

/// The `key = value` pairs of a keyword form, as libpq and the PostgreSQL client read them (a
/// value is a run of non-spaces or `'quoted'`, `\` escaping the next character in either).
/// `Err` says what is wrong without quoting the value (it may hold a password).
pub(crate) fn keyword_pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        if key.is_empty() {
            if chars.peek().is_some() {
                return Err("has a `=` with no keyword before it".to_owned());
            }
            return Ok(pairs);
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next() != Some('=') {
            return Err(format!("`{}` has no `=value`", shown_key(&key)));
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'\'').is_some() {
            loop {
                match chars.next() {
                    None => {
                        return Err(format!(
                            "the quoted value of `{}` has no closing `'`",
                            shown_key(&key)
                        ))
                    }
                    Some('\'') => break,
                    Some('\\') => value.extend(chars.next()),
                    Some(c) => value.push(c),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                if c == '\\' {
                    value.extend(chars.next());
                } else {
                    value.push(c);
                }
            }
            if value.is_empty() {
                return Err(format!("`{}` has an empty value", shown_key(&key)));
            }
        }
        pairs.push((key, value));
    }
}

/// A key as a message may name it: a libpq keyword, else `?` (an unknown key may be a
/// password's tail, split off by an unquoted space).
fn shown_key(key: &str) -> &str {
    if KEYWORDS.contains(&key) {
        key
    } else {
        "?"
    }
}

/// Why a value that starts as a keyword form is not one libpq would read: `None` when it is.
pub(crate) fn keyword_form_problem(value: &str) -> Option<String> {
    match keyword_pairs(value) {
        Err(why) => Some(why),
        Ok(pairs) => pairs
            .iter()
            .any(|(key, _)| !KEYWORDS.contains(&key.as_str()))
            .then(|| {
                "has a key that is not a libpq connection keyword (host, port, dbname, user, password, sslmode, ...)".to_owned()
            }),
    }
}

/// A keyword form written from `pairs`, every value quoted.
pub(crate) fn write_keywords(pairs: &[(String, String)]) -> String {
    let quoted: Vec<String> = pairs
        .iter()
        .map(|(key, value)| {
            let escaped = value.replace('\\', "\\\\").replace('\'', "\\'");
            format!("{key}='{escaped}'")
        })
        .collect();
    quoted.join(" ")
}

/// `value` with `%XX` escapes decoded (bytes that do not make UTF-8 are replaced).
pub(crate) fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A URL's parts: everything before the query, and the query's `key=value` parameters (raw,
/// as written).
fn url_parts(url: &str) -> (&str, Vec<(&str, &str)>) {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let params = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').unwrap_or((p, "")))
        .collect();
    (base, params)
}

/// Where a URL's user info ends and its host begins: (scheme end, `@` index) when it has one.
fn user_info(url: &str) -> Option<(usize, usize)> {
    let scheme_end = url.find("://")? + 3;
    let rest = &url[scheme_end..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@')?;
    Some((scheme_end, scheme_end + at))
}

/// `value` as a message may show it: a URL's password (in its user info or a `password=`
/// parameter) and a keyword form's `password` written as `***`; a keyword form that does not
/// read is not shown at all; anything else (a file's path) as it is.
pub fn redacted(value: &str) -> String {
    if is_postgres_url(value) {
        let mut out = value.to_owned();
        if let Some((start, at)) = user_info(value) {
            if let Some(colon) = value[start..at].find(':') {
                out = format!("{}:***{}", &value[..start + colon], &value[at..]);
            }
        }
        let (base, params) = url_parts(&out);
        if params.iter().any(|(k, _)| percent_decoded(k) == "password") {
            let params: Vec<String> = params
                .iter()
                .map(|(k, v)| {
                    if percent_decoded(k) == "password" {
                        format!("{k}=***")
                    } else {
                        format!("{k}={v}")
                    }
                })
                .collect();
            out = format!("{base}?{}", params.join("&"));
        }
        return out;
    }
    if is_mistyped_url(value) {
        return "(a mistyped postgres URL, not shown)".to_owned();
    }
    if is_keyword_form(value) {
        return match keyword_pairs(value) {
            Ok(pairs) => pairs
                .iter()
                .map(|(key, v)| match key.as_str() {
                    "password" | "sslpassword" => format!("{key}=***"),
                    _ if KEYWORDS.contains(&key.as_str()) => {
                        write_keywords(&[(key.clone(), v.clone())])
                    }
                    _ => "?=***".to_owned(),
                })
                .collect::<Vec<_>>()
                .join(" "),
            Err(_) => "(an unreadable keyword form, not shown)".to_owned(),
        };
    }
    value.to_owned()
}

/// The secrets `value` holds, as written and decoded: a URL's user-info password and
/// `password=` parameter, a keyword form's `password` (and whatever an unreadable keyword form
/// or mistyped URL holds after a `password`). For scrubbing messages that might quote one.
#[cfg(feature = "postgres")]
pub(crate) fn secrets(value: &str) -> Vec<String> {
    let mut found = Vec::new();
    if is_postgres_url(value) {
        if let Some((start, at)) = user_info(value) {
            if let Some(colon) = value[start..at].find(':') {
                let raw = &value[start + colon + 1..at];
                found.extend([raw.to_owned(), percent_decoded(raw)]);
            }
        }
        for (k, v) in url_parts(value).1 {
            if percent_decoded(k) == "password" {
                found.extend([v.to_owned(), percent_decoded(v)]);
            }
        }
    } else if let Ok(pairs) = keyword_pairs(value) {
        found.extend(
            pairs
                .into_iter()
                .filter(|(key, _)| key == "password" || key == "sslpassword")
                .map(|(_, v)| v),
        );
    }
    found.retain(|s| !s.is_empty());
    found
}

/// `text` with every one of `secrets` replaced by `***`.
#[cfg(feature = "postgres")]
pub(crate) fn scrubbed(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    for secret in secrets {
        // A one-character "secret" would blank every copy of a letter: only longer ones.
        if secret.chars().count() > 1 {
            out = out.replace(secret.as_str(), "***");
        }
    }
    out
}

/// What `sslmode` says (libpq's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SslMode {
    /// No TLS.
    Disable,
    /// Plain when TLS is refused by the server (libpq also accepts `allow`, read as this).
    Prefer,
    /// TLS, not verified unless `sslrootcert` is given (then as [`SslMode::VerifyCa`]).
    Require,
    /// TLS, the server's certificate chain verified against `sslrootcert`.
    VerifyCa,
    /// [`SslMode::VerifyCa`] and the certificate names the host connected to.
    VerifyFull,
}

/// The TLS settings of an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSettings {
    /// `sslmode`; [`SslMode::Prefer`] when absent (libpq's default).
    pub mode: SslMode,
    /// `sslrootcert`: a PEM file of the certificates to trust.
    pub root_cert: Option<String>,
}

/// `address` without `sslmode` and `sslrootcert` (what the PostgreSQL client's parser reads),
/// and those two settings. `Err` names a bad `sslmode` value.
#[cfg(feature = "postgres")]
pub(crate) fn split_tls(address: &str) -> Result<(String, TlsSettings), String> {
    let mut mode = None;
    let mut root_cert = None;
    let rest = if is_postgres_url(address) {
        let (base, params) = url_parts(address);
        let mut kept = Vec::new();
        for (k, v) in params {
            match percent_decoded(k).as_str() {
                "sslmode" => mode = Some(percent_decoded(v)),
                "sslrootcert" => root_cert = Some(percent_decoded(v)),
                _ => kept.push(format!("{k}={v}")),
            }
        }
        if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        }
    } else {
        let mut pairs = keyword_pairs(address)?;
        pairs.retain(|(key, value)| match key.as_str() {
            "sslmode" => {
                mode = Some(value.clone());
                false
            }
            "sslrootcert" => {
                root_cert = Some(value.clone());
                false
            }
            _ => true,
        });
        write_keywords(&pairs)
    };
    let mode = match mode.as_deref() {
        None | Some("prefer" | "allow") => SslMode::Prefer,
        Some("disable") => SslMode::Disable,
        Some("require") => SslMode::Require,
        Some("verify-ca") => SslMode::VerifyCa,
        Some("verify-full") => SslMode::VerifyFull,
        Some(other) => {
            return Err(format!(
                "sslmode `{other}` is not one of disable, allow, prefer, require, verify-ca, verify-full"
            ))
        }
    };
    Ok((rest, TlsSettings { mode, root_cert }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyword_form_is_told_from_a_path() {
        assert!(is_keyword_form("host=db port=5432"));
        assert!(is_keyword_form("  dbname = tasks"));
        assert!(!is_keyword_form("runs/date=2024/tasks.db"));
        assert!(!is_keyword_form("./date=2024.db"));
        assert!(!is_keyword_form("tasks.db"));
        assert_eq!(keyword_form_problem("host=db port=5432 user=u"), None);
        assert!(keyword_form_problem("date=2024.db").is_some());
        assert!(keyword_form_problem("host='db").is_some());
    }

    #[test]
    fn keyword_values_read_as_libpq_reads_them() {
        assert_eq!(
            keyword_pairs(r"host = db password='a \'b\' c' user=x\ y").unwrap(),
            [
                ("host".to_owned(), "db".to_owned()),
                ("password".to_owned(), "a 'b' c".to_owned()),
                ("user".to_owned(), "x y".to_owned()),
            ]
        );
        let pairs = keyword_pairs(r"password='it\'s \\ here'").unwrap();
        assert_eq!(keyword_pairs(&write_keywords(&pairs)).unwrap(), pairs);
    }

    #[test]
    fn passwords_are_redacted_in_every_form() {
        assert_eq!(
            redacted("postgresql://agent:s3cret@db.example:5432/tasks"),
            "postgresql://agent:***@db.example:5432/tasks"
        );
        assert_eq!(
            redacted("postgres://agent@db/tasks?password=s3cret&sslmode=require"),
            "postgres://agent@db/tasks?password=***&sslmode=require"
        );
        assert_eq!(
            redacted("host=db password='s 3cret' user=u"),
            "host='db' password=*** user='u'"
        );
        assert_eq!(
            redacted("postgresql:///tasks?host=/run/postgresql"),
            "postgresql:///tasks?host=/run/postgresql"
        );
        assert_eq!(redacted("tasks.db"), "tasks.db");
    }

    #[cfg(feature = "postgres")]
    #[test]
    fn tls_settings_are_taken_out_of_both_forms() {
        let (rest, tls) =
            split_tls("postgresql://u@h/db?sslmode=verify-full&sslrootcert=%2Fca.pem&x=1").unwrap();
        assert_eq!(rest, "postgresql://u@h/db?x=1");
        assert_eq!(tls.mode, SslMode::VerifyFull);
        assert_eq!(tls.root_cert.as_deref(), Some("/ca.pem"));
        let (rest, tls) = split_tls("host=h sslmode=require dbname=d").unwrap();
        assert_eq!(rest, "host='h' dbname='d'");
        assert_eq!(
            tls,
            TlsSettings {
                mode: SslMode::Require,
                root_cert: None
            }
        );
        assert_eq!(
            split_tls("postgresql://h/db").unwrap().1.mode,
            SslMode::Prefer
        );
        assert!(split_tls("postgresql://h/db?sslmode=strict")
            .unwrap_err()
            .contains("`strict`"));
    }
}
