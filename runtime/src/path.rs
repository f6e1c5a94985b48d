//! Locations inside a document, built on the stack while validating.

use core::fmt;

/// One step of a [`Path`]: a struct field or a list index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Seg<'a> {
    /// A named field (`text` in `constraints[3].text`).
    Field(&'a str),
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
    seg: Option<Seg<'a>>,
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
    pub fn field(&'a self, name: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Field(name)),
        }
    }

    /// Runs `f` with the path of the member reached from `self` through the fields `names`
    /// in turn (`self` itself for none): a path of several steps built on the stack.
    ///
    /// ```
    /// use specmint_runtime::Path;
    ///
    /// let at = Path::ROOT.with_fields(&["seller", "vat_id"], |p| p.dotted());
    /// assert_eq!(at, "seller.vat_id");
    /// ```
    pub fn with_fields<R>(&self, names: &[&str], f: impl FnOnce(&Path<'_>) -> R) -> R {
        match names.split_first() {
            None => f(self),
            Some((first, rest)) => self.field(first).with_fields(rest, f),
        }
    }

    /// The path of element `i` of the list at `self`.
    pub fn index(&'a self, i: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Some(Seg::Index(i)),
        }
    }

    /// The dotted path of the field `name` beside the last segment of `self` (in the same
    /// object): `a.b` gives `a.name`, a top-level field gives `name`.
    pub fn sibling_dotted(&self, name: &str) -> String {
        match self.parent {
            Some(parent) => parent.field(name).dotted(),
            None => name.to_owned(),
        }
    }

    /// `true` for [`Path::ROOT`] (a path with no segments).
    pub fn is_root(&self) -> bool {
        self.seg.is_none() && self.parent.is_none_or(Path::is_root)
    }

    /// The segments from the root, in order (none for the root).
    pub fn segments(&self) -> Vec<Seg<'a>> {
        let mut segments = self.parent.map_or_else(Vec::new, Path::segments);
        segments.extend(self.seg);
        segments
    }

    /// The last segment, `None` for the root.
    pub fn last(&self) -> Option<Seg<'a>> {
        self.seg
    }

    /// Dotted/indexed notation: `constraints[3].text`; root fields bare; `""` for the root.
    pub fn dotted(&self) -> String {
        self.render().0
    }

    /// RFC 6901 JSON pointer: `/constraints/3/text`; `""` for the root. `~` is escaped as
    /// `~0` and `/` as `~1`.
    pub fn pointer(&self) -> String {
        self.render().1
    }

    /// Both notations, `(dotted, pointer)`, each allocated once at its exact length.
    pub fn render(&self) -> (String, String) {
        let (dotted_len, pointer_len) = self.rendered_len();
        let mut dotted = String::with_capacity(dotted_len);
        let mut pointer = String::with_capacity(pointer_len);
        self.write(&mut dotted, &mut pointer);
        debug_assert_eq!((dotted.len(), pointer.len()), (dotted_len, pointer_len));
        (dotted, pointer)
    }

    /// Byte lengths of the two notations.
    fn rendered_len(&self) -> (usize, usize) {
        let (mut dotted, mut pointer) = match self.parent {
            Some(parent) => parent.rendered_len(),
            None => (0, 0),
        };
        match self.seg {
            None => {}
            Some(Seg::Field(name)) => {
                dotted += name.len() + usize::from(dotted != 0);
                pointer +=
                    1 + name.len() + name.bytes().filter(|&b| b == b'~' || b == b'/').count();
            }
            Some(Seg::Index(i)) => {
                let digits = decimal(i).len();
                dotted += digits + 2;
                pointer += digits + 1;
            }
        }
        (dotted, pointer)
    }

    fn write(&self, dotted: &mut String, pointer: &mut String) {
        if let Some(parent) = self.parent {
            parent.write(dotted, pointer);
        }
        match self.seg {
            None => {}
            Some(Seg::Field(name)) => push_key(dotted, pointer, name),
            Some(Seg::Index(i)) => push_index(dotted, pointer, i),
        }
    }
}

/// Appends `[index]` to a dotted path and `/index` to its JSON Pointer.
pub(crate) fn push_index(dotted: &mut String, pointer: &mut String, index: usize) {
    let digits = decimal(index);
    dotted.push('[');
    dotted.push_str(digits.as_str());
    dotted.push(']');
    pointer.push('/');
    pointer.push_str(digits.as_str());
}

/// Appends `.key` (`key` at the root) to a dotted path and `/key` to its JSON Pointer, `~`
/// escaped as `~0` and `/` as `~1`.
pub(crate) fn push_key(dotted: &mut String, pointer: &mut String, key: &str) {
    if !dotted.is_empty() {
        dotted.push('.');
    }
    dotted.push_str(key);
    pointer.push('/');
    if key.bytes().any(|b| b == b'~' || b == b'/') {
        for c in key.chars() {
            match c {
                '~' => pointer.push_str("~0"),
                '/' => pointer.push_str("~1"),
                c => pointer.push(c),
            }
        }
    } else {
        pointer.push_str(key);
    }
}

impl Path<'_> {
    /// Writes the dotted notation without allocating; `started` says whether anything was
    /// written before (a field after it takes a `.`).
    fn write_dotted(&self, f: &mut fmt::Formatter<'_>, started: &mut bool) -> fmt::Result {
        if let Some(parent) = self.parent {
            parent.write_dotted(f, started)?;
        }
        match self.seg {
            None => {}
            Some(Seg::Field(name)) => {
                if *started {
                    f.write_str(".")?;
                }
                f.write_str(name)?;
                // As in `render`: a `.` goes before a field once anything was written (an
                // empty key writes nothing).
                *started |= !name.is_empty();
            }
            Some(Seg::Index(i)) => {
                f.write_str("[")?;
                f.write_str(decimal(i).as_str())?;
                f.write_str("]")?;
                *started = true;
            }
        }
        Ok(())
    }
}

/// The decimal digits of `i`, on the stack (no `fmt` machinery).
fn decimal(mut i: usize) -> Digits {
    let mut buf = [0u8; 20];
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    Digits { buf, start }
}

struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    fn as_str(&self) -> &str {
        // ASCII digits only.
        core::str::from_utf8(&self.buf[self.start..]).unwrap_or_default()
    }

    fn len(&self) -> usize {
        self.buf.len() - self.start
    }
}

impl fmt::Display for Path<'_> {
    /// Formats the dotted notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_dotted(f, &mut false)
    }
}
