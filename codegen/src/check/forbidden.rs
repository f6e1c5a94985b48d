//! Forbidden keys phase: the keys refused anywhere in the document, and their code.

use super::codes::Ask;
use super::Checker;
use crate::diag::File;
use crate::loader::markdown::Table;

impl Checker<'_> {
    /// The forbidden keys (none of them a declared field, none repeated) and their code:
    /// `[errors] forbidden_key`, which must exist when there are any.
    pub(super) fn forbidden_keys(&mut self, tables: &[&Table]) -> (Vec<String>, Option<String>) {
        let mut keys = Vec::new();
        for t in tables {
            for row in &t.rows {
                let Some(cell) = row.cells.first() else {
                    continue;
                };
                let key = cell.key().to_owned();
                if key.is_empty() {
                    continue;
                }
                if let Some(o) = self
                    .index
                    .objects
                    .iter()
                    .find(|o| o.fields.iter().any(|f| f.key == key))
                {
                    self.ctx.md(
                        cell.pos,
                        format!("forbidden key `{key}` is a field of `{}`", o.name),
                        "a key cannot be both declared and forbidden: remove the row or the field",
                    );
                } else if keys.contains(&key) {
                    self.ctx.md(
                        cell.pos,
                        format!("duplicate forbidden key `{key}`"),
                        "remove one row",
                    );
                } else {
                    keys.push(key);
                }
            }
        }
        let code = if keys.is_empty() {
            self.book.mapping("forbidden_key")
        } else {
            let ask = Ask::new("forbidden_key", "forbidden keys", tables[0].pos, File::Md);
            self.book.mapped(&mut self.ctx, ask)
        };
        (keys, code)
    }
}
