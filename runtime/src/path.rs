//! Locations inside a document, built on the stack while validating.

use core::fmt::{self, Write as _};

/// One step of a [`Path`]: a struct field or a list index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    /// A named field (`text` in `constraints[3].text`).
    Field(&'static str),
    /// A zero-based list index (`3` in `constraints[3].text`).
    Index(usize),
}

/// A location in a document, as a linked list of segments living on the stack.
///
/// Building a path never allocates; [`Path::dotted`] and [`Path::pointer`] render it only
/// when a violation is recorded.
///
/// ```
/// use specmint_runtime::Path;
///
/// let list = Path::ROOT.field("constraints");
/// let item = list.index(3);
/// let text = item.field("text");
/// assert_eq!(text.dotted(), "constraints[3].text");
/// assert_eq!(text.pointer(), "/constraints/3/text");
/// assert_eq!(Path::ROOT.dotted(), "");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    seg: Option<Seg>,
}

impl Path<'static> {
    /// The document itself: renders as the empty string in both notations.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        seg: None,
    };
}

impl Default for Path<'static> {
    fn default() -> Self {
        Path::ROOT
    }
}

impl<'a> Path<'a> {
    /// The path of field `name` inside the value at `self`.
    pub fn field(&'a self, name: &'static str) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Field(name)),
        }
    }

    /// The path of element `i` of the list at `self`.
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Index(i)),
        }
    }

    /// `true` for [`Path::ROOT`] (a path with no segments).
    pub fn is_root(&self) -> bool {
        self.seg.is_none() && self.parent.is_none_or(Path::is_root)
    }

    /// The last segment, `None` for the root.
    pub fn last(&self) -> Option<Seg> {
        self.seg
    }

    /// Dotted/indexed notation: `constraints[3].text`; root fields bare; `""` for the root.
    pub fn dotted(&self) -> String {
        let mut out = String::new();
        self.write_dotted(&mut out);
        out
    }

    /// RFC 6901 JSON pointer: `/constraints/3/text`; `""` for the root. `~` is escaped as
    /// `~0` and `/` as `~1`.
    pub fn pointer(&self) -> String {
        let mut out = String::new();
        self.write_pointer(&mut out);
        out
    }

    fn write_dotted(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write_dotted(out);
        }
        match self.seg {
            None => {}
            Some(Seg::Field(name)) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Some(Seg::Index(i)) => {
                // Writing to a String cannot fail.
                let _ = write!(out, "[{i}]");
            }
        }
    }

    fn write_pointer(&self, out: &mut String) {
        if let Some(parent) = self.parent {
            parent.write_pointer(out);
        }
        match self.seg {
            None => {}
            Some(Seg::Field(name)) => {
                out.push('/');
                for c in name.chars() {
                    match c {
                        '~' => out.push_str("~0"),
                        '/' => out.push_str("~1"),
                        c => out.push(c),
                    }
                }
            }
            Some(Seg::Index(i)) => {
                let _ = write!(out, "/{i}");
            }
        }
    }
}

impl fmt::Display for Path<'_> {
    /// Formats the dotted notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.dotted())
    }
}
