//! Load phase, Markdown side: headings, GFM tables and fenced blocks, with positions.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::diag::{LineIndex, Pos};

/// A code span with its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodeSpan {
    pub text: String,
    pub pos: Pos,
}

/// One table cell: its plain text (code spans without backticks), its Markdown text (code
/// spans with backticks, for doc comments) and its code spans.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cell {
    pub plain: String,
    pub md: String,
    pub codes: Vec<CodeSpan>,
    pub pos: Pos,
}

impl Cell {
    /// The first code span's text, or the plain text.
    pub fn key(&self) -> &str {
        self.codes
            .first()
            .map_or(self.plain.trim(), |c| c.text.trim())
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub cells: Vec<Cell>,
    pub pos: Pos,
    /// How many cells the row's source line holds (see [`source_cells`]). GFM pads a short
    /// row with empty cells and drops the cells past the header's count, so `cells` alone
    /// cannot show that a row was malformed.
    pub source_cells: usize,
}

#[derive(Debug, Clone)]
pub(crate) struct Heading {
    pub md: String,
    pub first_code: Option<CodeSpan>,
}

#[derive(Debug, Clone)]
pub(crate) struct Table {
    pub header: Vec<Cell>,
    pub rows: Vec<Row>,
    pub pos: Pos,
    /// The nearest heading above the table.
    pub heading: Option<Heading>,
}

#[derive(Debug, Clone)]
pub(crate) struct Fence {
    pub info: String,
    pub text: String,
    /// Position of the info string (or of the fence when it has none).
    pub info_pos: Pos,
    pub pos: Pos,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Document {
    /// The first level-1 heading, as Markdown text.
    pub title: Option<String>,
    pub tables: Vec<Table>,
    pub fences: Vec<Fence>,
    /// Every heading: its level (1 to 6), Markdown text and position (for an outline).
    pub headings: Vec<(u8, String, Pos)>,
}

enum Open {
    None,
    Heading { level: u8, h: Heading, pos: Pos },
    Cell { cell: Cell, in_head: bool },
    Fence(Fence),
}

/// Parses `md` into its headings, tables and fenced blocks.
pub(crate) fn parse(md: &str) -> Document {
    let lines = LineIndex::new(md);
    let pos = |offset: usize| lines.pos(md, offset);
    let mut doc = Document::default();
    let mut heading: Option<Heading> = None;
    let mut table: Option<Table> = None;
    let mut row: Option<Row> = None;
    let mut open = Open::None;

    let parser = Parser::new_ext(md, Options::ENABLE_TABLES).into_offset_iter();
    for (event, range) in parser {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open = Open::Heading {
                    level: level as u8,
                    h: Heading {
                        md: String::new(),
                        first_code: None,
                    },
                    pos: pos(range.start),
                };
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Open::Heading { level, h, pos } = std::mem::replace(&mut open, Open::None) {
                    if level == 1 && doc.title.is_none() {
                        doc.title = Some(h.md.trim().to_owned());
                    }
                    doc.headings.push((level, h.md.trim().to_owned(), pos));
                    heading = Some(h);
                }
            }
            Event::Start(Tag::Table(_)) => {
                table = Some(Table {
                    header: Vec::new(),
                    rows: Vec::new(),
                    pos: pos(range.start),
                    heading: heading.clone(),
                });
            }
            Event::End(TagEnd::Table) => {
                if let Some(t) = table.take() {
                    doc.tables.push(t);
                }
            }
            Event::Start(Tag::TableRow) => {
                row = Some(Row {
                    cells: Vec::new(),
                    pos: pos(range.start),
                    source_cells: source_cells(md[range.clone()].lines().next().unwrap_or("")),
                });
            }
            Event::End(TagEnd::TableRow) => {
                if let (Some(r), Some(t)) = (row.take(), table.as_mut()) {
                    t.rows.push(r);
                }
            }
            Event::Start(Tag::TableCell) => {
                // The cell's range starts at the space after `|`: point at its content.
                let lead = md[range.clone()].len() - md[range.clone()].trim_start().len();
                open = Open::Cell {
                    cell: Cell {
                        pos: pos(range.start + lead),
                        ..Cell::default()
                    },
                    in_head: row.is_none(),
                };
            }
            Event::End(TagEnd::TableCell) => {
                if let Open::Cell { mut cell, in_head } = std::mem::replace(&mut open, Open::None) {
                    cell.plain = cell.plain.trim().to_owned();
                    cell.md = cell.md.trim().to_owned();
                    if in_head {
                        if let Some(t) = table.as_mut() {
                            t.header.push(cell);
                        }
                    } else if let Some(r) = row.as_mut() {
                        r.cells.push(cell);
                    }
                }
            }
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let start = pos(range.start);
                let line_text = md[range.start..].lines().next().unwrap_or("");
                let info_pos = match line_text.find(info.as_ref()).filter(|_| !info.is_empty()) {
                    Some(i) => Pos {
                        line: start.line,
                        col: start.col + line_text[..i].chars().count(),
                    },
                    None => start,
                };
                open = Open::Fence(Fence {
                    info: info.trim().to_owned(),
                    text: String::new(),
                    info_pos,
                    pos: start,
                });
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Open::Fence(mut f) = std::mem::replace(&mut open, Open::None) {
                    if f.text.ends_with('\n') {
                        f.text.pop();
                    }
                    doc.fences.push(f);
                }
            }
            Event::Text(t) => match &mut open {
                Open::Heading { h, .. } => h.md.push_str(&t),
                Open::Cell { cell, .. } => {
                    cell.plain.push_str(&t);
                    cell.md.push_str(&t);
                }
                Open::Fence(f) => f.text.push_str(&t),
                Open::None => {}
            },
            Event::Code(t) => {
                let span = CodeSpan {
                    text: t.to_string(),
                    pos: pos(range.start),
                };
                match &mut open {
                    Open::Heading { h, .. } => {
                        h.md.push_str(&format!("`{t}`"));
                        if h.first_code.is_none() {
                            h.first_code = Some(span);
                        }
                    }
                    Open::Cell { cell, .. } => {
                        cell.plain.push_str(&t);
                        cell.md.push_str(&format!("`{t}`"));
                        cell.codes.push(span);
                    }
                    _ => {}
                }
            }
            Event::SoftBreak | Event::HardBreak => match &mut open {
                Open::Heading { h, .. } => h.md.push(' '),
                Open::Cell { cell, .. } => {
                    cell.plain.push(' ');
                    cell.md.push(' ');
                }
                _ => {}
            },
            _ => {}
        }
    }
    doc
}

/// The number of cells in the source line of a table row, split as GFM splits it: at every
/// `|` not escaped by a backslash (a code span does not protect a pipe), not counting a
/// leading and a trailing `|`.
pub(crate) fn source_cells(line: &str) -> usize {
    let b = line.trim().as_bytes();
    let mut pipes = 0usize;
    let (mut first, mut last) = (None, None);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'|' => {
                pipes += 1;
                first.get_or_insert(i);
                last = Some(i);
                i += 1;
            }
            _ => i += 1,
        }
    }
    let leading = first == Some(0);
    let trailing = last == Some(b.len().wrapping_sub(1)) && !(leading && pipes == 1);
    (pipes + 1).saturating_sub(usize::from(leading) + usize::from(trailing))
}
