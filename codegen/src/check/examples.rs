//! Examples phase: every fenced `json` example says what it is (valid, invalid with its
//! expected violations, or a fragment), and example constants do not clash.

use super::Checker;
use crate::loader::markdown::Fence;
use crate::model::*;
use crate::names::is_screaming_snake;

const MARK_HINT: &str =
    "mark it ```json valid, ```json valid const=NAME, ```json invalid code@path, or ```json fragment";

impl Checker<'_> {
    pub(super) fn examples(&mut self) -> Vec<Example> {
        let fences = std::mem::take(&mut self.doc.fences);
        let mut out = Vec::new();
        for f in &fences {
            let mut words = f.info.split_whitespace();
            if words.next() != Some("json") {
                continue;
            }
            let kind_word = words.next();
            let rest: Vec<&str> = words.collect();
            let mut const_name = None;
            let kind = match kind_word {
                None => {
                    self.ctx.md(
                        f.info_pos,
                        "a `json` example does not say what it is",
                        MARK_HINT,
                    );
                    continue;
                }
                Some("fragment") => ExampleKind::Fragment,
                Some("valid") => {
                    const_name = self.valid_example(f, &rest);
                    ExampleKind::Valid
                }
                Some("invalid") => ExampleKind::Invalid(self.expected_violations(f, &rest)),
                Some(other) => {
                    self.ctx.md(
                        f.info_pos,
                        format!("unknown example marker `{other}`"),
                        MARK_HINT,
                    );
                    continue;
                }
            };
            out.push(Example {
                kind,
                const_name,
                text: f.text.clone(),
                line: f.pos.line,
            });
        }
        for name in ["FORBIDDEN_KEYS", "DOCUMENT", "SHAPES"] {
            if let Some(p) = self.constants.get(name) {
                let p = *p;
                self.ctx.md(
                    p,
                    format!("constant `{name}` is reserved"),
                    "specmint emits a constant of that name; choose another",
                );
            }
        }
        out
    }

    /// A valid example's markers (`const=NAME`) and its JSON; returns its constant.
    fn valid_example(&mut self, f: &Fence, markers: &[&str]) -> Option<String> {
        let mut const_name = None;
        for w in markers {
            match w.strip_prefix("const=") {
                Some(n) if is_screaming_snake(n) => {
                    if self.constants.contains_key(n) {
                        self.ctx.md(
                            f.info_pos,
                            format!("duplicate constant `{n}`"),
                            "give the example another name",
                        );
                    } else {
                        self.constants.insert(n.to_owned(), f.info_pos);
                        const_name = Some(n.to_owned());
                    }
                }
                _ => self.ctx.md(
                    f.info_pos,
                    format!("unknown marker `{w}` on a valid example"),
                    "the only marker after `valid` is `const=SCREAMING_SNAKE_NAME`",
                ),
            }
        }
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&f.text) {
            self.ctx.md(
                f.pos,
                format!("a valid example is not JSON: {e}"),
                "fix the example or mark it `invalid`",
            );
        }
        const_name
    }

    /// An invalid example's `code@path` markers.
    fn expected_violations(&mut self, f: &Fence, markers: &[&str]) -> Vec<(String, String)> {
        let mut expect = Vec::new();
        for w in markers {
            let Some((code, path)) = w.split_once('@') else {
                self.ctx.md(
                    f.info_pos,
                    format!("`{w}` is not `code@path`"),
                    "write each expected violation as `code@path` (`code@` for the document)",
                );
                continue;
            };
            if !self.book.has(code) {
                self.ctx.md(
                    f.info_pos,
                    format!("code `{code}` is not in the error table"),
                    "use a code from the error table",
                );
            }
            expect.push((code.to_owned(), path.to_owned()));
        }
        if expect.is_empty() {
            self.ctx.md(
                f.info_pos,
                "an invalid example names no violation",
                "write the expected violations: ```json invalid code@path",
            );
        }
        expect
    }
}
