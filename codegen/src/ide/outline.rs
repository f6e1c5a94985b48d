//! The Markdown side of a spec as the loader reads it, for tools that show or edit a spec
//! (`specmint lsp`: symbols, hover, completion, formatting): headings, tables (with the kind
//! the checker gives their header) and fenced blocks, each with its position. It is the
//! loader's own parse ([`pulldown_cmark`], GFM tables), not a second one, and it never fails:
//! a half-typed table is read as far as it goes.

use crate::diag::Pos;
use crate::loader::markdown;

/// One spec Markdown file's structure.
#[derive(Debug, Clone, Default)]
pub struct Outline {
    /// Every heading, in order.
    pub headings: Vec<Heading>,
    /// Every GFM table, in order.
    pub tables: Vec<Table>,
    /// Every fenced code block (the examples among them), in order.
    pub fences: Vec<Fence>,
}

/// A heading.
#[derive(Debug, Clone)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// Its Markdown text (code spans with backticks).
    pub text: String,
    /// Where its line starts.
    pub pos: Pos,
}

/// A table cell.
#[derive(Debug, Clone)]
pub struct Cell {
    /// The text without Markdown (code spans without backticks), trimmed.
    pub plain: String,
    /// The first code span's text, else the plain text: what the checker reads as the
    /// cell's name (`constraints[].text`).
    pub key: String,
    /// Each code span: its text and the position of its opening backtick.
    pub codes: Vec<(String, Pos)>,
    /// Where the cell's content starts.
    pub pos: Pos,
}

/// A row of a table.
#[derive(Debug, Clone)]
pub struct Row {
    /// Its cells, as many as the header has (GFM pads and cuts).
    pub cells: Vec<Cell>,
    /// Where the row's line starts.
    pub pos: Pos,
}

/// A GFM table.
#[derive(Debug, Clone)]
pub struct Table {
    /// How the checker names the table's kind (`a field table`, `a cap table`, `an error
    /// table`, ...), or `None` for a table it reads as prose.
    pub kind: Option<&'static str>,
    /// The name in the first code span of the heading above it (`order` in ``## Fields of an `order` ``), if any.
    pub name: Option<String>,
    /// The header cells.
    pub header: Vec<Cell>,
    /// The body rows.
    pub rows: Vec<Row>,
    /// Where the header line starts.
    pub pos: Pos,
}

/// A fenced code block.
#[derive(Debug, Clone)]
pub struct Fence {
    /// The info string (`json valid`).
    pub info: String,
    /// Where the opening fence starts.
    pub pos: Pos,
    /// How many lines its body has.
    pub lines: usize,
}

/// The built-in types a Type cell names (`string`, `uint32`, `date-time`, ...).
pub const BUILTIN_TYPES: &[&str] = crate::check::BUILTIN_TYPES;

/// The rule kinds the sidecar's `[errors]` maps to codes (`parse`, `non_blank`,
/// `max_chars`, ...).
pub const ERROR_RULES: &[&str] = crate::loader::sidecar::ERROR_RULES;

/// The sidecar's rule tables (`[[unique]]`, ..., `[[any_of]]`, `[[value_if]]`).
pub const RULE_TABLES: &[&str] = crate::loader::sidecar::RULE_TABLES;

/// What `must` of a `[[value_if]]` may say, each with what it means.
pub const VALUE_IF_MUST: &[(&str, &str)] = &[
    ("> 0", "greater than a bound (exclusive)"),
    (">= 0", "at least a bound"),
    ("= 0", "equal to a bound"),
    ("<= 0", "at most a bound"),
    ("< 0", "less than a bound (exclusive)"),
    ("absent", "absent or null (a `T?` field)"),
];

/// The functions a rules table's Rule cell may call, each with what it gives.
pub const RULE_FUNCTIONS: &[(&str, &str)] = specmint_runtime::expr::FUNCTIONS;

/// The units of a cap row's Value cell.
pub const CAP_UNITS: &[&str] = &["chars", "bytes", "items"];

fn cell(c: &markdown::Cell) -> Cell {
    Cell {
        plain: c.plain.clone(),
        key: c.key().to_owned(),
        codes: c.codes.iter().map(|s| (s.text.clone(), s.pos)).collect(),
        pos: c.pos,
    }
}

/// Reads `md` as the loader does.
pub fn outline(md: &str) -> Outline {
    let doc = markdown::parse(md);
    Outline {
        headings: doc
            .headings
            .iter()
            .map(|(level, text, pos)| Heading {
                level: *level,
                text: text.clone(),
                pos: *pos,
            })
            .collect(),
        tables: doc
            .tables
            .iter()
            .map(|t| Table {
                kind: crate::check::table_kind_name(&t.header),
                name: t
                    .heading
                    .as_ref()
                    .and_then(|h| h.first_code.as_ref())
                    .map(|c| c.text.clone()),
                header: t.header.iter().map(cell).collect(),
                rows: t
                    .rows
                    .iter()
                    .map(|r| Row {
                        cells: r.cells.iter().map(cell).collect(),
                        pos: r.pos,
                    })
                    .collect(),
                pos: t.pos,
            })
            .collect(),
        fences: doc
            .fences
            .iter()
            .map(|f| Fence {
                info: f.info.clone(),
                pos: f.pos,
                lines: if f.text.is_empty() {
                    0
                } else {
                    f.text.lines().count()
                },
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_their_kind_name_and_cells() {
        let md = "# T\n\n## Fields of a `doc`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `name` | string | ✔ | N. |\n\n| Note | Text |\n|---|---|\n| a | b |\n\n```json valid\n{}\n```\n";
        let o = outline(md);
        assert_eq!(o.headings.len(), 2);
        assert_eq!((o.headings[1].level, o.headings[1].pos.line), (2, 3));
        assert_eq!(o.tables[0].kind, Some("a field table"));
        assert_eq!(o.tables[0].name.as_deref(), Some("doc"));
        assert_eq!(o.tables[0].rows[0].cells[0].key, "name");
        assert_eq!(o.tables[0].rows[0].cells[1].pos, Pos { line: 7, col: 12 });
        assert_eq!(o.tables[1].kind, None);
        assert_eq!(
            (o.fences[0].info.as_str(), o.fences[0].lines),
            ("json valid", 1)
        );
    }
}
