//! Violations and the report that collects them.

use core::fmt;

use crate::path::Path;

/// One broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Stable machine-readable code, e.g. `field_too_long`.
    pub code: &'static str,
    /// Dotted/indexed path (`constraints[3].text`); `""` for the document.
    pub path: String,
    /// RFC 6901 pointer (`/constraints/3/text`); `""` for the document.
    pub pointer: String,
    /// Human-readable message naming the item.
    pub message: String,
    /// The measured quantity (chars, items, bytes) where the rule has numbers.
    pub measured: Option<u64>,
    /// The limit where the rule has numbers.
    pub limit: Option<u64>,
}

impl Violation {
    /// A violation at `path`, rendering the path in both notations.
    pub fn new(code: &'static str, path: &Path<'_>, message: String) -> Self {
        Self::with_message(code, path, |_| message)
    }

    /// A violation at `path` whose message is written from the dotted path, which is
    /// rendered once for both: `Violation::with_message(code, path, |at| format!("`{at}` …"))`.
    pub fn with_message(
        code: &'static str,
        path: &Path<'_>,
        message: impl FnOnce(&str) -> String,
    ) -> Self {
        let (dotted, pointer) = path.render();
        Violation {
            code,
            message: message(&dotted),
            path: dotted,
            pointer,
            measured: None,
            limit: None,
        }
    }

    /// Adds the measured value and the limit.
    pub fn with_numbers(mut self, measured: u64, limit: u64) -> Self {
        self.measured = Some(measured);
        self.limit = Some(limit);
        self
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Every violation found, in document order. Its `Display` prints one message per line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The violations, in the order they were found.
    pub violations: Vec<Violation>,
}

impl Report {
    /// An empty report (does not allocate).
    pub const fn new() -> Self {
        Report {
            violations: Vec::new(),
        }
    }

    /// Records a violation.
    pub fn push(&mut self, violation: Violation) {
        self.violations.push(violation);
    }

    /// `true` when nothing was violated.
    pub fn is_empty(&self) -> bool {
        self.violations.is_empty()
    }

    /// Number of violations.
    pub fn len(&self) -> usize {
        self.violations.len()
    }

    /// The violations, in document order.
    pub fn iter(&self) -> core::slice::Iter<'_, Violation> {
        self.violations.iter()
    }

    /// The codes of the violations, in document order.
    pub fn codes(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.violations.iter().map(|v| v.code)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            f.write_str(&v.message)?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

impl<'r> IntoIterator for &'r Report {
    type Item = &'r Violation;
    type IntoIter = core::slice::Iter<'r, Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.violations.iter()
    }
}

impl IntoIterator for Report {
    type Item = Violation;
    type IntoIter = std::vec::IntoIter<Violation>;
    fn into_iter(self) -> Self::IntoIter {
        self.violations.into_iter()
    }
}
