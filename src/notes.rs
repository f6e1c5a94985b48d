//! The library's own notes appended to a refusal's message: not a spec's code (those are the
//! spec's locale files), but specmint's words after it: what `validate` says of a TaskPack zip,
//! and the packet shape `team_handoff` asks for instead.
//!
//! English is here, in [`Note::english`], byte for byte what the doors wrote before they spoke
//! other languages. Their translations are the library's too: one Markdown table per locale,
//! `src/locales/notes.<tag>.md` (`| Note | Message |`, a row per note), included in the build.
//! A row is the appended text itself, its leading punctuation included (the cell is trimmed);
//! `{example}` and `{keys}` are filled in by the caller ([`Note::placeholders`]). A note
//! follows the messages it is appended to: rendered in the locale of the spec's catalog
//! that wrote them ([`render`]), English when that locale has no table.
//!
//! Every locale a bundled spec declares has a row for every note (the unit test
//! `every_note_has_a_row_in_every_bundled_locale` fails when one is removed).

/// A note the library appends to a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Note {
    /// A TaskPack refused by the flat form's judge is a zip (the `.taskpack` form).
    ZipForm,
    /// The CLI's commands that read a zip, after [`Note::ZipForm`].
    ZipCommands,
    /// `team_handoff`'s refusal of a packet's shape: the minimal packet and the optional keys.
    SendShape,
}

impl Note {
    /// Every note.
    pub const ALL: &'static [Note] = &[Note::ZipForm, Note::ZipCommands, Note::SendShape];

    /// Its id, the Note cell of a locale's table.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Note::ZipForm => "zip_form",
            Note::ZipCommands => "zip_commands",
            Note::SendShape => "send_shape",
        }
    }

    /// The English text (with its placeholders), as appended.
    #[must_use]
    pub const fn english(self) -> &'static str {
        match self {
            Note::ZipForm => {
                "; this is a zip (the `.taskpack` form) and `validate` reads the flat form \
                 (`.taskpack.json`)"
            }
            Note::ZipCommands => {
                ": judge the zip with `specmint taskpack conformance FILE`, or write its flat form \
                 with `specmint taskpack convert FILE OUT.taskpack.json`"
            }
            Note::SendShape => {
                " · send this shape — these seven keys are enough: {example} · optional keys, all \
                 defaulting to empty: {keys}"
            }
        }
    }

    /// The placeholders its text takes (the same in every locale).
    #[must_use]
    pub const fn placeholders(self) -> &'static [&'static str] {
        match self {
            Note::ZipForm | Note::ZipCommands => &[],
            Note::SendShape => &["example", "keys"],
        }
    }
}

/// The locales the notes are written in besides English: `(tag, the table's Markdown)`.
pub const LOCALES: &[(&str, &str)] = &[
    ("de", include_str!("locales/notes.de.md")),
    ("zh-TW", include_str!("locales/notes.zh-TW.md")),
];

/// The rows of a locale's table: `(note id, text)`, in order, the text unescaped (`\|` is `|`)
/// and trimmed. Lines that are not rows of a `Note | Message` table are prose.
#[must_use]
pub fn rows(markdown: &str) -> Vec<(String, String)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in markdown.lines() {
        let line = line.trim();
        let Some(inner) = line.strip_prefix('|') else {
            in_table = false;
            continue;
        };
        let cells = split_cells(inner.strip_suffix('|').unwrap_or(inner));
        if cells.len() != 2 {
            continue;
        }
        let (first, second) = (cells[0].trim(), cells[1].trim());
        if first == "Note" && second == "Message" {
            in_table = true;
            continue;
        }
        if !in_table || first.chars().all(|c| matches!(c, '-' | ':')) {
            continue;
        }
        let id = first.trim_matches('`');
        rows.push((id.to_owned(), second.to_owned()));
    }
    rows
}

/// A row's cells, split at each `|` not escaped as `\|`.
fn split_cells(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                if let Some(cell) = cells.last_mut() {
                    cell.push('|');
                }
            }
            '|' => cells.push(String::new()),
            c => {
                if let Some(cell) = cells.last_mut() {
                    cell.push(c);
                }
            }
        }
    }
    cells
}

/// A table's rows: `(note id, text)`.
type Rows = Vec<(String, String)>;

/// `note`'s text in `tag`'s table, or `None` when the library has no such table or row.
#[must_use]
pub fn translated(note: Note, tag: &str) -> Option<&'static str> {
    static TABLES: std::sync::OnceLock<Vec<(&'static str, Rows)>> = std::sync::OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        LOCALES
            .iter()
            .map(|(tag, markdown)| (*tag, rows(markdown)))
            .collect()
    });
    let (_, rows) = tables.iter().find(|(t, _)| *t == tag)?;
    rows.iter()
        .find(|(id, _)| id == note.id())
        .map(|(_, text)| text.as_str())
}

/// `note` in the language of `tag` (the tag of the catalog that wrote the messages it follows;
/// `None` for English), its placeholders filled from `values` (`(name, value)`): English when
/// the library has no table for `tag`, or no row for the note in it.
#[must_use]
pub fn render(note: Note, tag: Option<&str>, values: &[(&str, &str)]) -> String {
    let template = tag
        .and_then(|tag| translated(note, tag))
        .unwrap_or_else(|| note.english());
    fill(template, values)
}

/// `template` with each `{name}` of `values` replaced, in one pass (a value is never read
/// again for placeholders); any other brace is kept as written.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let named = after.find('}').and_then(|close| {
            let name = &after[..close];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, value)| (close, *value))
        });
        match named {
            Some((close, value)) => {
                out.push_str(value);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholders `{name}` a text names (a name of letters and `_`), in order.
    fn placeholders_in(text: &str) -> Vec<&str> {
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            rest = &rest[open + 1..];
            if let Some(close) = rest.find('}') {
                let name = &rest[..close];
                if !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                    found.push(name);
                }
            }
        }
        found
    }

    /// The tags every bundled spec declares (its locale files), each once.
    fn bundled_locales() -> Vec<&'static str> {
        let mut tags: Vec<&str> = crate::bundled::ALL
            .iter()
            .flat_map(|b| b.messages.iter().map(|(tag, _)| *tag))
            .collect();
        tags.sort_unstable();
        tags.dedup();
        tags
    }

    #[test]
    fn every_note_has_a_row_in_every_bundled_locale() {
        let tags = bundled_locales();
        assert!(tags.contains(&"zh-TW") && tags.contains(&"de"), "{tags:?}");
        for tag in tags {
            let markdown = LOCALES
                .iter()
                .find(|(t, _)| *t == tag)
                .map(|(_, m)| *m)
                .unwrap_or_else(|| panic!("no src/locales/notes.{tag}.md for a bundled locale"));
            let rows = rows(markdown);
            for note in Note::ALL {
                let found: Vec<_> = rows.iter().filter(|(id, _)| id == note.id()).collect();
                assert_eq!(
                    found.len(),
                    1,
                    "`{}` in notes.{tag}.md: {found:?}",
                    note.id()
                );
                assert!(!found[0].1.is_empty(), "`{}` in notes.{tag}.md", note.id());
                assert_eq!(translated(*note, tag), Some(found[0].1.as_str()));
            }
            for (id, _) in &rows {
                assert!(
                    Note::ALL.iter().any(|n| n.id() == id),
                    "notes.{tag}.md: `{id}` is no note"
                );
            }
        }
    }

    #[test]
    fn every_row_takes_the_placeholders_of_its_english_note() {
        for note in Note::ALL {
            assert_eq!(placeholders_in(note.english()), note.placeholders());
            for (tag, _) in LOCALES {
                let text = translated(*note, tag).unwrap();
                let mut named = placeholders_in(text);
                named.sort_unstable();
                let mut wanted = note.placeholders().to_vec();
                wanted.sort_unstable();
                assert_eq!(named, wanted, "`{}` in notes.{tag}.md: {text}", note.id());
            }
        }
    }

    #[test]
    fn a_note_renders_in_its_locale_and_english_otherwise() {
        let values = [("example", "{\"a\":1}"), ("keys", "b, c")];
        assert_eq!(
            render(Note::SendShape, None, &values),
            " · send this shape — these seven keys are enough: {\"a\":1} · optional keys, all \
             defaulting to empty: b, c"
        );
        assert_eq!(
            render(Note::SendShape, Some("zh-TW"), &values),
            "。請改送這個形狀——這七個鍵就足夠了：{\"a\":1}；選填的鍵（預設皆為空）：b, c"
        );
        // No table for French, and a value holding a placeholder's name is not filled again.
        assert_eq!(
            render(
                Note::SendShape,
                Some("fr"),
                &[("example", "{keys}"), ("keys", "k")]
            ),
            " · send this shape — these seven keys are enough: {keys} · optional keys, all \
             defaulting to empty: k"
        );
        assert_eq!(
            render(Note::ZipForm, Some("de"), &[]),
            translated(Note::ZipForm, "de").unwrap()
        );
    }

    #[test]
    fn a_cell_may_hold_an_escaped_bar() {
        let rows =
            rows("x\n\n| Note | Message |\n|---|---|\n| `zip_form` | a \\| b |\n\n| `x` | y |\n");
        assert_eq!(rows, vec![("zip_form".to_owned(), "a | b".to_owned())]);
    }
}
