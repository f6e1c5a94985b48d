//! Messages in other languages: each locale file of the spec (`<stem>.<locale>.md`), its tag
//! BCP 47, its `Code | Message` table giving every code the spec's rules raise a template
//! whose placeholders exist, and naming no code the spec does not have.

use std::collections::BTreeMap;

use specmint_runtime::messages::{parse_locale, Template, PROBLEM_KINDS};

use super::Checker;
use crate::diag::Pos;
use crate::loader::markdown;
use crate::loader::LocaleSource;
use crate::model::Messages;
use crate::names::suggest;

const TABLE_HINT: &str =
    "a locale file holds one table `| Code | Message |`, a row per code of the spec's error table";

impl Checker<'_> {
    /// Every locale file, checked (diagnostics in that file), and every `Code | Message` table
    /// of the spec itself (under a heading naming its locale), as the model's messages.
    pub(super) fn messages(&mut self, parse: Option<&str>) -> Vec<Messages> {
        let locales = self.source.locales.clone();
        let mut out: Vec<Messages> = locales
            .iter()
            .filter_map(|l| self.locale(l, parse))
            .collect();
        let md_path = self.source.md_path.clone();
        let md = self.source.md.clone();
        let doc = markdown::parse(&md);
        for table in doc.tables.iter().filter(is_messages) {
            let Some(tag) = table.heading.as_ref().and_then(|h| h.first_code.as_ref()) else {
                self.ctx.in_file(
                    &md_path,
                    table.pos,
                    "a `| Code | Message |` table names no locale",
                    "put it under a heading naming its BCP 47 tag as a code span (`## Messages in `zh-TW``), or in a locale file `<stem>.<tag>.md`",
                );
                continue;
            };
            if let Err(e) = parse_locale(&tag.text) {
                self.ctx.in_file(
                    &md_path,
                    tag.pos,
                    e.0,
                    "write a BCP 47 tag such as `zh-TW`, `de` or `pt-BR`",
                );
                continue;
            }
            if out.iter().any(|m| m.tag == tag.text) {
                self.ctx.in_file(
                    &md_path,
                    tag.pos,
                    format!("the messages in `{}` are given twice", tag.text),
                    "keep one `| Code | Message |` table per locale, in the spec or in its locale file",
                );
                continue;
            }
            out.push(self.rows(&md_path, &md, table, &tag.text, parse));
        }
        out.sort_by(|a, b| a.tag.cmp(&b.tag));
        out
    }

    fn locale(&mut self, source: &LocaleSource, parse: Option<&str>) -> Option<Messages> {
        let path = source.path.as_str();
        if let Err(e) = parse_locale(&source.tag) {
            self.ctx.in_file(
                path,
                Pos::TOP,
                format!("the locale of `{path}`: {}", e.0),
                format!(
                    "name the file `{}.<tag>.md` with a BCP 47 tag such as `zh-TW`, `de` or `pt-BR`",
                    self.source.name
                ),
            );
            return None;
        }
        let doc = markdown::parse(&source.md);
        let mut tables = doc.tables.iter().filter(is_messages);
        let Some(table) = tables.next() else {
            self.ctx.in_file(
                path,
                Pos::TOP,
                format!("`{path}` has no `| Code | Message |` table"),
                TABLE_HINT,
            );
            return None;
        };
        if let Some(second) = tables.next() {
            self.ctx.in_file(
                path,
                second.pos,
                "a second `| Code | Message |` table",
                "keep every message of a locale in one table",
            );
        }
        Some(self.rows(path, &source.md, table, &source.tag, parse))
    }

    /// The rows of one locale's `Code | Message` table in `md` (the file `path`), checked.
    fn rows(
        &mut self,
        path: &str,
        md: &str,
        table: &markdown::Table,
        tag: &str,
        parse: Option<&str>,
    ) -> Messages {
        let lines: Vec<&str> = md.lines().collect();
        let codes: Vec<&str> = self.book.rows.iter().map(|r| r.code.as_str()).collect();
        let mut seen: BTreeMap<String, Pos> = BTreeMap::new();
        let mut templates = Vec::new();
        for row in &table.rows {
            let code_cell = &row.cells[0];
            let code = code_cell.key().to_owned();
            // `` `invalid_packet` missing ``: the parse code's message for one kind of problem.
            let kind = code_cell
                .plain
                .trim()
                .strip_prefix(code.as_str())
                .map(str::trim)
                .filter(|k| !k.is_empty())
                .map(str::to_owned);
            if !codes.contains(&code.as_str()) {
                self.ctx.in_file(
                    path,
                    code_cell.pos,
                    format!("`{code}` is not a code of `{}`", self.source.md_path),
                    suggest(
                        &code,
                        codes.iter().copied(),
                        "give a message to each code of the spec's error table, and to no other",
                    ),
                );
                continue;
            }
            if let Some(kind) = &kind {
                let kinds = PROBLEM_KINDS.iter().map(|(k, _)| *k);
                if !kinds.clone().any(|k| k == kind) {
                    self.ctx.in_file(
                        path,
                        code_cell.pos,
                        format!("unknown problem kind `{kind}` after `{code}`"),
                        suggest(
                            kind,
                            kinds,
                            "a kind is one of syntax, missing, unknown_key, duplicate_key, type, enum, value",
                        ),
                    );
                    continue;
                }
                if parse != Some(code.as_str()) {
                    self.ctx.in_file(
                        path,
                        code_cell.pos,
                        format!("`{code}` is not the parse code: only the parse code has a message per problem kind"),
                        format!(
                            "write the kind after the parse code `{}`, or drop `{kind}`",
                            parse.unwrap_or_default()
                        ),
                    );
                    continue;
                }
            }
            let key = match &kind {
                Some(kind) => format!("{code} {kind}"),
                None => code.clone(),
            };
            if let Some(first) = seen.get(&key) {
                self.ctx.in_file(
                    path,
                    code_cell.pos,
                    format!(
                        "`{key}` has a second message (the first is on line {})",
                        first.line
                    ),
                    "give each code one message per locale",
                );
                continue;
            }
            seen.insert(key.clone(), code_cell.pos);
            let line = lines
                .get(row.pos.line.saturating_sub(1))
                .copied()
                .unwrap_or("");
            let Some((text, col)) = second_cell(line) else {
                continue;
            };
            if text.trim().is_empty() {
                self.ctx.in_file(
                    path,
                    row.pos,
                    format!("`{code}` has an empty message"),
                    "write the message the reader sees for this code",
                );
                continue;
            }
            match Template::parse(&text) {
                Ok(_) => templates.push((key, text)),
                Err(e) => self.ctx.in_file(
                    path,
                    Pos {
                        line: row.pos.line,
                        col: col + cell_offset(&text, e.offset),
                    },
                    format!("the message of `{code}`: {}", e.message),
                    e.hint,
                ),
            }
        }
        for code in &codes {
            if !seen.contains_key(*code) && !self.book.engine.iter().any(|e| e == code) {
                self.ctx.in_file(
                    path,
                    table.pos,
                    format!("`{code}` has no message in `{tag}`"),
                    format!(
                        "add a row `| `{code}` | … |` (every code the rules raise needs a message in every locale)"
                    ),
                );
            }
        }
        Messages {
            tag: tag.to_owned(),
            path: path.to_owned(),
            templates,
        }
    }
}

/// Whether `t` is a `Code | Message` table.
fn is_messages(t: &&markdown::Table) -> bool {
    t.header.len() == 2
        && t.header[0].plain.trim().eq_ignore_ascii_case("code")
        && t.header[1].plain.trim().eq_ignore_ascii_case("message")
}

/// The offset in chars of `offset` chars into a cell whose source text is `text`, counting
/// each `\|` as the two chars it is in the source.
fn cell_offset(text: &str, offset: usize) -> usize {
    text.chars()
        .take(offset)
        .map(|c| if c == '|' { 2 } else { 1 })
        .sum()
}

/// A table row's second cell as its source text (trimmed, `\|` read as `|`) and its 1-based
/// column: a template is the cell's text as written, not Markdown's rendering of it.
fn second_cell(line: &str) -> Option<(String, usize)> {
    let mut cells = Vec::new();
    let mut start = 0;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match c {
            '\\' => escaped = !escaped,
            '|' if !escaped => {
                cells.push((start, i));
                start = i + 1;
            }
            _ => escaped = false,
        }
    }
    cells.push((start, line.len()));
    // A leading `|` makes an empty first piece.
    let skip = usize::from(line.trim_start().starts_with('|'));
    let (from, to) = *cells.get(skip + 1)?;
    let raw = &line[from..to];
    let lead = raw.len() - raw.trim_start().len();
    let text = raw.trim().replace("\\|", "|");
    let col = line[..from + lead].chars().count() + 1;
    Some((text, col))
}

#[cfg(test)]
mod tests {
    use super::second_cell;

    #[test]
    fn the_second_cell_is_read_as_written() {
        assert_eq!(
            second_cell("| `a` | `{path}` 有 {measured} 個字元 |"),
            Some(("`{path}` 有 {measured} 個字元".to_owned(), 9))
        );
        assert_eq!(
            second_cell("| `a` | x \\| y |"),
            Some(("x | y".to_owned(), 9))
        );
        assert_eq!(second_cell("| `a` |"), Some((String::new(), 8)));
    }
}
