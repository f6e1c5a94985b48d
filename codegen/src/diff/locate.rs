//! Where a change is: the model keeps no spans, so a change names what to look for (a table's
//! heading, then a row's code span) and this finds it in the side's text.

use super::Location;
use crate::diag::{Context, Pos};
use crate::loader::sidecar::{self, Spanned};
use crate::loader::SpecSource;

/// What to look for in one side's files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Needle {
    /// `text` in the Markdown, searched from the first line holding `` `after` `` (a
    /// table's name in its heading) when given.
    Md { after: Option<String>, text: String },
    /// `text` in the sidecar.
    Toml(String),
    /// A sidecar `[[kind]]` entry (`order`, `unique`): the one whose `keys` hold these values,
    /// among several the one whose `path` (absent: the top level) is `at`, `[]` aside.
    Entry {
        kind: &'static str,
        at: String,
        keys: Vec<(&'static str, String)>,
    },
    /// The transitions row of machine `machine` that holds the move (a From cell naming
    /// `from` or `*`, a To cell naming `to`, an On cell naming `on`).
    Move {
        machine: String,
        from: String,
        to: String,
        on: Option<String>,
    },
    /// The table row whose first cell is the code span `` `text` `` (an error code, a
    /// forbidden key), however the table is aligned.
    Cell(String),
    /// The error table: the heading above its `| Code | When |` header.
    ErrorTable,
    /// In the locale file of `tag`: the row of `code`, or the file's first line.
    Locale { tag: String, code: Option<String> },
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
        Needle::Cell(text.to_owned())
    }

    /// The locale file of `tag`: `code`'s row, or its first line.
    pub(super) fn locale(tag: &str, code: Option<&str>) -> Needle {
        Needle::Locale {
            tag: tag.to_owned(),
            code: code.map(str::to_owned),
        }
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
        Needle::Entry { kind, at, keys } => entry(&source.toml, kind, at, keys)
            .map(|(line, col)| (source.toml_path.clone(), line, col)),
        Needle::Move {
            machine,
            from,
            to,
            on,
        } => transition(&source.md, machine, from, to, on.as_deref())
            .map(|(line, col)| (source.md_path.clone(), line, col)),
        Needle::Cell(text) => match first_cell(&source.md, text) {
            Some((line, col)) => Some((source.md_path.clone(), line, col)),
            // Not a row of a table: where the code span, else the name, is.
            None => return find(source, &Needle::row(None, text)),
        },
        Needle::ErrorTable => {
            error_table(&source.md).map(|(line, col)| (source.md_path.clone(), line, col))
        }
        Needle::Locale { tag, code } => {
            let file = source.locales.iter().find(|l| &l.tag == tag);
            file.map(|l| {
                let (line, col) = code
                    .as_deref()
                    .and_then(|c| first_cell(&l.md, c))
                    .unwrap_or((1, 1));
                (l.path.clone(), line, col)
            })
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

/// The cells of a table row line (`| a | b |` → `a`, `b`), trimmed; `None` for another line.
fn row_cells(line: &str) -> Option<Vec<&str>> {
    let inner = line.trim().strip_prefix('|')?;
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    Some(inner.split('|').map(str::trim).collect())
}

/// The first table row whose first cell is `` `text` ``: its line and the column of its `|`.
fn first_cell(md: &str, text: &str) -> Option<(usize, usize)> {
    let span = format!("`{text}`");
    md.lines().enumerate().find_map(|(i, line)| {
        let cells = row_cells(line)?;
        let bar = line.find('|')?;
        (cells.first() == Some(&span.as_str())).then(|| (i + 1, line[..bar].chars().count() + 1))
    })
}

/// The heading above the error table (its `| Code | When |` header; the header itself when
/// no heading stands above it).
fn error_table(md: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = md.lines().collect();
    let header = lines
        .iter()
        .position(|l| row_cells(l).is_some_and(|c| c == ["Code", "When"]))?;
    let heading = lines[..header]
        .iter()
        .rposition(|l| l.trim_start().starts_with('#'));
    Some((heading.unwrap_or(header) + 1, 1))
}

/// Where the sidecar's `[[kind]]` entry with `keys` is (see [`Needle::Entry`]).
fn entry(toml: &str, kind: &str, at: &str, keys: &[(&str, String)]) -> Option<(usize, usize)> {
    let side = sidecar::parse(&mut Context::new("", ""), toml)?;
    let s = |v: &Option<Spanned<String>>| v.as_ref().map(|v| v.value.clone());
    // Each entry of the kind: its position, its `path` and its other string keys.
    type Keys = Vec<(&'static str, Option<String>)>;
    let entries: Vec<(Pos, Option<String>, Keys)> = match kind {
        "unique" => side
            .unique
            .iter()
            .map(|u| {
                let key = u.key.iter().map(|k| k.value.as_str()).collect::<Vec<_>>();
                let key = (!key.is_empty()).then(|| key.join(","));
                (u.pos, s(&u.path), vec![("key", key)])
            })
            .collect(),
        "order" => side
            .order
            .iter()
            .map(|u| (u.pos, s(&u.path), vec![("a", s(&u.a)), ("b", s(&u.b))]))
            .collect(),
        "not_equal" => side
            .not_equal
            .iter()
            .map(|u| (u.pos, s(&u.path), vec![("a", s(&u.a)), ("b", s(&u.b))]))
            .collect(),
        "not_contains" => side
            .not_contains
            .iter()
            .map(|u| {
                let keys = vec![("list", s(&u.list)), ("value", s(&u.value))];
                (u.pos, s(&u.path), keys)
            })
            .collect(),
        "digest" => side
            .digest
            .iter()
            .map(|u| {
                let keys = vec![("sha256", s(&u.sha256)), ("data", s(&u.data))];
                (u.pos, s(&u.path), keys)
            })
            .collect(),
        "contradiction" => side
            .contradiction
            .iter()
            .map(|u| {
                (
                    u.pos,
                    s(&u.path),
                    vec![("by", s(&u.by)), ("value", s(&u.value))],
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    let bare = |p: &str| p.replace("[]", "");
    let matching: Vec<&(Pos, Option<String>, Keys)> = entries
        .iter()
        .filter(|(_, _, have)| {
            have.iter().all(|(k, v)| {
                let want = keys.iter().find(|(w, _)| w == k).map(|(_, w)| w);
                v.as_ref() == want
            })
        })
        .collect();
    let at_path = matching
        .iter()
        .find(|(_, path, _)| bare(path.as_deref().unwrap_or_default()) == bare(at));
    at_path
        .or(matching.first())
        .map(|(pos, _, _)| (pos.line.max(1), pos.col.max(1)))
}

/// The transitions row holding a move: searched from machine `machine`'s heading, a table
/// row whose From cell names `from` (or is `*`), whose To cell names `to` and, when the move
/// has an event, whose On cell names `on`.
fn transition(
    md: &str,
    machine: &str,
    from: &str,
    to: &str,
    on: Option<&str>,
) -> Option<(usize, usize)> {
    let start = heading(md, machine).map_or(0, |(line, _)| line - 1);
    let names = |cell: &str, v: &str| cell.contains(&format!("`{v}`"));
    md.lines().enumerate().skip(start).find_map(|(i, line)| {
        let cells: Vec<&str> = line.trim().strip_prefix('|')?.split('|').collect();
        let (f, t) = (cells.first()?, cells.get(1)?);
        let from_ok = names(f, from) || f.trim() == "`*`" || f.trim() == "*";
        let on_ok = on.is_none_or(|on| cells.get(2).is_some_and(|c| names(c, on)));
        (from_ok && names(t, to) && on_ok).then(|| (i + 1, line.find('|').unwrap_or(0) + 1))
    })
}
