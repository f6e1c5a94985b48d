//! Texts phase: `Constant | Value | Meaning` tables, the exact strings a spec names (headings
//! a reader looks for, markers, prefixes), each becoming a `&str` constant.

use super::Checker;
use crate::loader::markdown::{Row, Table};
use crate::model::TextConstant;

impl Checker<'_> {
    /// Every row of every text table: a SCREAMING_SNAKE_CASE constant no other row (text or
    /// cap) defines, and a Value cell holding the exact text in a code span.
    pub(super) fn texts(&mut self, tables: &[&Table]) -> Vec<TextConstant> {
        tables
            .iter()
            .flat_map(|t| &t.rows)
            .filter_map(|row| self.text_row(row))
            .collect()
    }

    fn text_row(&mut self, row: &Row) -> Option<TextConstant> {
        let [const_cell, value_cell, meaning_cell, ..] = row.cells.as_slice() else {
            self.ctx.md(
                row.pos,
                "a text row needs three cells",
                "write `| CONSTANT | `exact text` | what it is |`",
            );
            return None;
        };
        let constant = self.new_constant(const_cell, "SECTION_HEADER")?;
        let ([code], true) = (
            value_cell.codes.as_slice(),
            value_cell.md.trim().starts_with('`'),
        ) else {
            self.ctx.md(
                value_cell.pos,
                format!("the value of `{constant}` is not one code span"),
                "write the exact text in one code span, like `## Constraints`",
            );
            return None;
        };
        Some(TextConstant {
            constant,
            value: code.text.clone(),
            meaning: meaning_cell.plain.trim().to_owned(),
        })
    }
}
