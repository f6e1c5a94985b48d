//! The spec files of a directory, read as [`SpecSource`]s: each `<name>.md` with its
//! `<name>.toml`, prose left out.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use super::{read_regular_file, MAX_SPEC_FILE_BYTES};
use crate::check;
use crate::loader::{LocaleSource, SpecSource};

/// Reads every `<name>.md` in `dir` with its `<name>.toml` and its locale files
/// (`<name>.<locale>.md`, the messages in other languages), sorted by name. Paths are
/// displayed as `<display_prefix>/<file>`. A Markdown file without a sidecar is a spec only
/// when it has a field table (`Field | Type | Required | Meaning`): then its `toml` is empty
/// and [`load`](crate::load) reports the missing sidecar. Without one it is prose (a
/// `README.md`, notes) and is left out.
///
/// Every file is read with [`read_regular_file`]: a sidecar that is a FIFO, a device (a link
/// to `/dev/zero`, which a cloned repository can carry) or over [`MAX_SPEC_FILE_BYTES`] is an
/// error naming it, and nothing blocks or grows without bound.
pub fn read_spec_dir(dir: &Path, display_prefix: &str) -> io::Result<Vec<SpecSource>> {
    let shown = |file: &str| shown_in(display_prefix, file);
    let read = |path: &Path, file: &str| -> io::Result<String> {
        let shown_as = shown(file);
        let bytes = read_regular_file(path, &shown_as, MAX_SPEC_FILE_BYTES)?;
        String::from_utf8(bytes).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!("`{shown_as}` is not UTF-8: {}", e.utf8_error()),
            )
        })
    };
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("md") || !path.is_file() {
            continue;
        }
        let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        files.insert(name.to_owned(), read(&path, name)?);
        let toml_file = path.with_extension("toml");
        let toml_name = toml_file
            .file_name()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        match read(&toml_file, &toml_name) {
            Ok(t) => {
                files.insert(toml_name, t);
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(spec_sources(&files, display_prefix))
}

/// `file` of a directory displayed as `display_prefix`: `<display_prefix>/<file>`.
fn shown_in(display_prefix: &str, file: &str) -> String {
    if display_prefix.is_empty() {
        file.to_owned()
    } else {
        format!("{}/{file}", display_prefix.trim_end_matches('/'))
    }
}

/// The specs among `files` (file name → text, the files of one directory), as
/// [`read_spec_dir`] reads them from a directory: for a spec directory read from elsewhere,
/// such as a git revision (`specmint diff --against`).
pub fn spec_sources(files: &BTreeMap<String, String>, display_prefix: &str) -> Vec<SpecSource> {
    let display = |file: String| shown_in(display_prefix, &file);
    let mut out = Vec::new();
    for (file, md) in files {
        let Some(name) = file.strip_suffix(".md") else {
            continue;
        };
        if locale_of(files, name).is_some() {
            continue;
        }
        let toml = match files.get(&format!("{name}.toml")) {
            Some(t) => t.clone(),
            None if !check::has_field_table(md) => continue,
            None => String::new(),
        };
        out.push(SpecSource {
            name: name.to_owned(),
            md_path: display(format!("{name}.md")),
            md: md.clone(),
            toml_path: display(format!("{name}.toml")),
            toml,
            locales: locales_of(files, name, &display),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// `(spec stem, tag)` when `stem_and_tag` (a Markdown file's name without `.md`) is a locale
/// file of a spec among `files`: `<stem>.<tag>` beside `<stem>.md`.
fn locale_of<'a>(
    files: &BTreeMap<String, String>,
    stem_and_tag: &'a str,
) -> Option<(&'a str, &'a str)> {
    let (stem, tag) = stem_and_tag.split_once('.')?;
    files
        .contains_key(&format!("{stem}.md"))
        .then_some((stem, tag))
}

/// The locale files of the spec `stem` among `files` (`<stem>.<tag>.md`), sorted by tag.
fn locales_of(
    files: &BTreeMap<String, String>,
    stem: &str,
    display: &dyn Fn(String) -> String,
) -> Vec<LocaleSource> {
    files
        .iter()
        .filter_map(|(file, md)| {
            let (of, tag) = locale_of(files, file.strip_suffix(".md")?)?;
            (of == stem).then(|| LocaleSource {
                tag: tag.to_owned(),
                path: display(file.clone()),
                md: md.clone(),
            })
        })
        .collect()
}
