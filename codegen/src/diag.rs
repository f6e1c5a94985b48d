//! Diagnostics: every problem in a spec, with a file position and a hint.

use std::fmt;

/// A 1-based line and column (columns count chars) in one file of a spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// 1-based line; 0 when the problem has no position (the whole file).
    pub line: usize,
    /// 1-based column in chars; 0 when the problem has no position.
    pub col: usize,
}

impl Pos {
    /// The first line's first column: where a problem of the whole file is reported.
    pub(crate) const TOP: Pos = Pos { line: 1, col: 1 };
}

/// One problem found in a spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as displayed (`spec/orders.md` or `spec/orders.toml`).
    pub file: String,
    /// Where in `file` the problem is.
    pub pos: Pos,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pos.line == 0 {
            write!(f, "{}: error: {}", self.file, self.message)?;
        } else {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, self.pos.line, self.pos.col, self.message
            )?;
        }
        if !self.hint.is_empty() {
            write!(f, "\n  hint: {}", self.hint)?;
        }
        Ok(())
    }
}

/// Every problem found in one run, sorted by file and position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The problems, in report order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }

    /// How many problems there are.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Maps byte offsets of one text to 1-based line and char column.
#[derive(Debug, Clone)]
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    pub(crate) fn pos(&self, text: &str, offset: usize) -> Pos {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let col = text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        Pos {
            line: line + 1,
            col: col + 1,
        }
    }
}

/// Which file of the spec a position is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum File {
    Md,
    Toml,
}

/// Collects every diagnostic of one spec. Dropping it with unreported errors is a bug
/// (debug builds panic), so no check can silently lose a problem.
pub(crate) struct Context {
    md_path: String,
    toml_path: String,
    diags: Vec<Diagnostic>,
    finished: bool,
}

impl Context {
    pub(crate) fn new(md_path: &str, toml_path: &str) -> Self {
        Context {
            md_path: md_path.to_owned(),
            toml_path: toml_path.to_owned(),
            diags: Vec::new(),
            finished: false,
        }
    }

    pub(crate) fn error(
        &mut self,
        file: File,
        pos: Pos,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) {
        let file = match file {
            File::Md => self.md_path.clone(),
            File::Toml => self.toml_path.clone(),
        };
        self.diags.push(Diagnostic {
            file,
            pos,
            message: message.into(),
            hint: hint.into(),
        });
    }

    /// A problem in a file of the spec other than its two (a locale file).
    pub(crate) fn in_file(
        &mut self,
        file: &str,
        pos: Pos,
        message: impl Into<String>,
        hint: impl Into<String>,
    ) {
        self.diags.push(Diagnostic {
            file: file.to_owned(),
            pos,
            message: message.into(),
            hint: hint.into(),
        });
    }

    pub(crate) fn md(&mut self, pos: Pos, message: impl Into<String>, hint: impl Into<String>) {
        self.error(File::Md, pos, message, hint);
    }

    pub(crate) fn toml(&mut self, pos: Pos, message: impl Into<String>, hint: impl Into<String>) {
        self.error(File::Toml, pos, message, hint);
    }

    /// Whether any problem has been reported so far.
    pub(crate) fn has_errors(&self) -> bool {
        !self.diags.is_empty()
    }

    /// Ends the context: `Err` with every diagnostic, sorted by file and position.
    pub(crate) fn finish(mut self) -> Result<(), Diagnostics> {
        self.finished = true;
        let mut diags = std::mem::take(&mut self.diags);
        if diags.is_empty() {
            return Ok(());
        }
        diags.sort_by(|a, b| (&a.file, a.pos).cmp(&(&b.file, b.pos)));
        diags.dedup();
        Err(Diagnostics(diags))
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if cfg!(debug_assertions)
            && !self.finished
            && !self.diags.is_empty()
            && !std::thread::panicking()
        {
            panic!(
                "specmint-codegen bug: a check context was dropped with {} unreported diagnostics",
                self.diags.len()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_chars() {
        let text = "ab\n整理x\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.pos(text, 0), Pos { line: 1, col: 1 });
        assert_eq!(idx.pos(text, 3 + 6), Pos { line: 2, col: 3 });
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "unreported diagnostics")]
    fn dropping_an_unfinished_context_with_errors_panics() {
        let mut ctx = Context::new("a.md", "a.toml");
        ctx.md(Pos { line: 1, col: 1 }, "x", "y");
        drop(ctx);
    }

    #[test]
    fn display_is_file_line_col_then_hint() {
        let mut ctx = Context::new("spec/a.md", "spec/a.toml");
        ctx.toml(Pos { line: 3, col: 2 }, "second", "h2");
        ctx.md(Pos { line: 9, col: 1 }, "first", "h1");
        let d = ctx.finish().unwrap_err();
        assert_eq!(
            d.to_string(),
            "spec/a.md:9:1: error: first\n  hint: h1\nspec/a.toml:3:2: error: second\n  hint: h2"
        );
    }
}
