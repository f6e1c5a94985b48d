//! Where a change is: the model keeps no spans, so a change names what to look for (a table's
//! heading, then a row's code span) and this finds it in the side's text.

use super::Location;
use crate::SpecSource;

/// What to look for in one side's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Needle {
    /// `text` in the Markdown, searched from the first line holding `` `after` `` (a
    /// table's name in its heading) when given.
    Md { after: Option<String>, text: String },
    /// `text` in the sidecar.
    Toml(String),
    /// The top of the Markdown.
    Start,
}

/// The first heading line naming table `name` (its code span), else any line holding it.
fn heading(md: &str, name: &str) -> Option<(usize, usize)> {
    let span = format!("`{name}`");
    md.lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with('#') && l.contains(&span))
        .map(|(i, l)| (i + 1, l[..l.find(&span).unwrap_or(0)].chars().count() + 1))
        .or_else(|| first(md, &span, 0))
}

impl Needle {
    /// The code span `` `text` `` in the Markdown after table `after`'s heading.
    pub(super) fn row(after: Option<&str>, text: &str) -> Needle {
        Needle::Md {
            after: after.map(str::to_owned),
            text: format!("`{text}`"),
        }
    }

    /// A table's heading (its name as a code span).
    pub(super) fn table(name: &str) -> Needle {
        Needle::Md {
            after: Some(name.to_owned()),
            text: format!("`{name}`"),
        }
    }

    /// The first-column cell `` `text` `` of a table row (an error code, a forbidden key).
    pub(super) fn cell(text: &str) -> Needle {
        Needle::text(&format!("| `{text}` |"))
    }

    /// `text` as written (a constant in a Constant cell is not a code span).
    pub(super) fn text(text: &str) -> Needle {
        Needle::Md {
            after: None,
            text: text.to_owned(),
        }
    }
}

/// Line 1, column 1 of `file`.
pub(super) fn start(file: String) -> Location {
    Location {
        file,
        line: 1,
        col: 1,
    }
}

/// Where `needle` is in `source`; the Markdown's first line when it is not found.
pub(super) fn find(source: &SpecSource, needle: &Needle) -> Location {
    let found = match needle {
        Needle::Md { after, text } => {
            let from = after
                .as_ref()
                .and_then(|a| heading(&source.md, a))
                .map_or(0, |(line, _)| line - 1);
            first(&source.md, text, from)
                .or_else(|| first(&source.md, text, 0))
                .map(|(line, col)| (source.md_path.clone(), line, col))
                .or_else(|| {
                    // A name the Markdown does not spell as a code span: its sidecar line.
                    let bare = text.trim_matches('`');
                    first(&source.toml, bare, 0)
                        .map(|(line, col)| (source.toml_path.clone(), line, col))
                })
        }
        Needle::Toml(text) => {
            first(&source.toml, text, 0).map(|(line, col)| (source.toml_path.clone(), line, col))
        }
        Needle::Start => None,
    };
    match found {
        Some((file, line, col)) => Location { file, line, col },
        None => start(source.md_path.clone()),
    }
}

/// The 1-based line and char column of the first `needle` at or after line index `from`.
fn first(text: &str, needle: &str, from: usize) -> Option<(usize, usize)> {
    text.lines().enumerate().skip(from).find_map(|(i, line)| {
        line.find(needle)
            .map(|at| (i + 1, line[..at].chars().count() + 1))
    })
}
