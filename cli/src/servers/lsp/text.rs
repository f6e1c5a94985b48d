//! One file's text with its line starts: the checker's positions (1-based line, column in
//! chars) to LSP's (0-based line, UTF-16 units) and back, and the ranges a diagnostic covers
//! (the table cell, the TOML key or value, not the line).

use lsp_types::{Position, Range};
use specmint_codegen::Pos;

/// A file's text and where its lines start (always at least one line, the first at 0: the
/// text of a file neither open nor on disk is empty, and has that one empty line).
#[derive(Debug, Clone)]
pub struct Text {
    pub text: String,
    starts: Vec<usize>,
}

impl Default for Text {
    fn default() -> Self {
        Text::new(String::new())
    }
}

impl Text {
    pub fn new(text: String) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Text { text, starts }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Line `n` (0-based) without its line end; empty past the end.
    pub fn line(&self, n: usize) -> &str {
        let Some(&start) = self.starts.get(n) else {
            return "";
        };
        let end = self.starts.get(n + 1).map_or(self.text.len(), |e| e - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// The byte offset of line `n`'s start (the text's end past the last line).
    pub fn line_start(&self, n: usize) -> usize {
        self.starts.get(n).copied().unwrap_or(self.text.len())
    }

    /// The LSP position of a byte offset (clamped to the text, and to a char boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let col: usize = self.text[self.starts[line]..offset]
            .chars()
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, col as u32)
    }

    /// The byte offset of an LSP position (UTF-16 units), clamped to its line.
    pub fn offset(&self, at: Position) -> usize {
        let (line, character) = (at.line as usize, at.character as usize);
        if line >= self.starts.len() {
            return self.text.len();
        }
        let text = self.line(line);
        let mut units = 0;
        for (i, c) in text.char_indices() {
            if units >= character {
                return self.starts[line] + i;
            }
            units += c.len_utf16();
        }
        self.starts[line] + text.len()
    }

    /// The byte offset of a checker position (1-based line, 1-based column in chars).
    pub fn offset_of(&self, pos: Pos) -> usize {
        let Some(line) = pos.line.checked_sub(1) else {
            return 0;
        };
        let text = self.line(line);
        let col = pos.col.saturating_sub(1);
        self.line_start(line) + text.char_indices().nth(col).map_or(text.len(), |(i, _)| i)
    }

    /// An LSP range of two byte offsets.
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end))
    }

    /// The range a problem at `pos` covers: a whole-file problem (line 0) the first line; in a
    /// table row the cell from `pos` to its closing `|` (the row itself when `pos` is its
    /// leading `|`); in TOML the quoted string, the `[table]` or the key at `pos`; else the
    /// rest of the line.
    pub fn range_at(&self, pos: Pos) -> (usize, usize) {
        if pos.line == 0 {
            return (0, self.line(0).len());
        }
        let start = self.offset_of(pos);
        let line_start = self.line_start(pos.line - 1);
        let line = self.line(pos.line - 1);
        let line_end = line_start + line.len();
        let rest = &self.text[start.min(line_end)..line_end];
        let trimmed_end = |s: &str| s.trim_end().len();
        let is_row = line.trim_start().starts_with('|');
        if is_row {
            if line[..start - line_start].trim().is_empty() {
                return (start, start + trimmed_end(rest));
            }
            return (start, start + trimmed_end(&rest[..cell_end(rest)]));
        }
        let end = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(rest.len(), |i| i + 2),
            Some('[') => rest.find(']').map_or(rest.len(), |i| {
                i + 1 + usize::from(rest[i + 1..].starts_with(']'))
            }),
            Some(c) if c.is_alphanumeric() || c == '_' || c == '-' => rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
                .unwrap_or(rest.len()),
            _ => trimmed_end(rest),
        };
        (start, start + end.max(usize::from(!rest.is_empty())))
    }
}

/// Where the cell that starts `rest` ends: its first `|` not escaped by a backslash (GFM
/// splits cells there, in code spans too), or the end.
pub fn cell_end(rest: &str) -> usize {
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'|' => return i,
            _ => i += 1,
        }
    }
    b.len()
}

/// The cells of a table row line, split as GFM splits them: each with its byte range in the
/// line (trimmed), the leading and trailing `|` not making cells.
pub fn split_row(line: &str) -> Vec<(usize, usize)> {
    let end = line.trim_end().len();
    let mut start = line.len() - line.trim_start().len();
    if line[start..end].starts_with('|') {
        start += 1;
    }
    let mut cells = Vec::new();
    while start <= end {
        let len = cell_end(&line[start..end]);
        let cell = &line[start..start + len];
        let s = start + (cell.len() - cell.trim_start().len());
        cells.push((s, (start + cell.trim_end().len()).max(s)));
        start += len + 1;
        if start >= end {
            break;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_range_ends_at_its_pipe_and_counts_utf16() {
        let t = Text::new("x\n| `a` | 整理 string | ✔ |\n".to_owned());
        let (s, e) = t.range_at(Pos { line: 2, col: 9 });
        assert_eq!(&t.text[s..e], "整理 string");
        assert_eq!(t.position(e), Position::new(1, 17));
        assert_eq!(t.offset(Position::new(1, 17)), e);
        let (s, e) = t.range_at(Pos { line: 2, col: 1 });
        assert_eq!(&t.text[s..e], "| `a` | 整理 string | ✔ |");
    }

    #[test]
    fn toml_ranges_are_the_key_or_the_string() {
        let t = Text::new("[erors]\nparse = \"bad doc\"\n".to_owned());
        let (s, e) = t.range_at(Pos { line: 1, col: 2 });
        assert_eq!(&t.text[s..e], "erors");
        let (s, e) = t.range_at(Pos { line: 2, col: 9 });
        assert_eq!(&t.text[s..e], "\"bad doc\"");
    }

    /// The text of a file neither open nor on disk: every position is its one empty line's
    /// start (it used to have no line, and `position` panicked).
    #[test]
    fn an_empty_text_has_one_line() {
        let t = Text::default();
        assert_eq!(t.line_count(), 1);
        assert_eq!(t.position(0), Position::new(0, 0));
        assert_eq!(t.position(7), Position::new(0, 0));
        assert_eq!(t.offset(Position::new(3, 4)), 0);
        assert_eq!(t.range_at(Pos { line: 2, col: 3 }), (0, 0));
    }

    #[test]
    fn rows_split_as_gfm_splits_them() {
        let line = "| `a` | b \\| c |  |";
        let cells: Vec<&str> = split_row(line).iter().map(|&(s, e)| &line[s..e]).collect();
        assert_eq!(cells, ["`a`", "b \\| c", ""]);
        let line = "a | b";
        let cells: Vec<&str> = split_row(line).iter().map(|&(s, e)| &line[s..e]).collect();
        assert_eq!(cells, ["a", "b"]);
    }
}
