//! [`locate`] / [`locate_key`]: a small iterative JSON walker over bytes, no dependencies.

/// Where the value at the RFC 6901 `pointer` starts in `input`, as a 1-based
/// `(line, column)`; the column counts chars (Unicode scalar values), not bytes, and lines
/// are separated by `\n`.
///
/// The empty pointer is the whole document (its first non-whitespace character). Object
/// members are matched by their unescaped key (the first member if a key repeats); array
/// elements by a decimal index without leading zeros. `None` if the pointer does not
/// resolve, is not a valid pointer, or the input is malformed along the way. Only the part
/// of the input on the way to the target is examined; this never panics and never
/// recurses.
#[must_use]
pub fn locate(input: &str, pointer: &str) -> Option<(usize, usize)> {
    locate_all(input, &[(pointer, Want::Value)])[0]
}

/// Where the key of the object member at `pointer` starts in `input` (its opening quote),
/// as a 1-based `(line, column)` like [`locate`]: `"/findings/0/reasoning"` gives the
/// position of `"reasoning"` inside `findings[0]`. Use it for problems with a key itself
/// (an unknown or forbidden key). `None` for the empty pointer, for an array element, or
/// when [`locate`] would give `None`.
#[must_use]
pub fn locate_key(input: &str, pointer: &str) -> Option<(usize, usize)> {
    locate_all(input, &[(pointer, Want::Key)])[0]
}

/// What [`locate_all`] looks for at a pointer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// The value, as [`locate`] finds it.
    Value,
    /// The member's key, as [`locate_key`] finds it.
    Key,
    /// The value, or when the pointer does not resolve, the value of its nearest ancestor
    /// that does (a missing member points at the object that lacks it).
    Nearest,
}

/// The places of many pointers in one input, each as [`locate`], [`locate_key`] or the
/// nearest existing ancestor would give it ([`Want`]), in the order asked.
///
/// Linear in the input whatever the number of pointers (issue 48: a document with half a
/// million violations located each from the start took minutes): the pointers are merged
/// into a tree, the document is walked once along it (a container is entered only when a
/// pointer goes through it, the rest skipped), and the offsets found are turned into lines
/// and columns in one sweep. Never recurses.
#[must_use]
pub fn locate_all(input: &str, wants: &[(&str, Want)]) -> Vec<Option<(usize, usize)>> {
    let mut tree = Tree::default();
    let nodes: Vec<Option<(usize, bool)>> = wants.iter().map(|(p, _)| tree.insert(p)).collect();
    tree.walk(input.as_bytes());
    let offsets: Vec<Option<usize>> = nodes
        .iter()
        .zip(wants)
        .map(|(found, (_, want))| {
            let (node, whole) = (*found)?;
            if !whole && *want != Want::Nearest {
                return None;
            }
            match want {
                Want::Value => tree.nodes[node].value_at,
                Want::Key => tree.nodes[node].key_at,
                Want::Nearest => {
                    let mut at = node;
                    loop {
                        if let Some(found) = tree.nodes[at].value_at {
                            break Some(found);
                        }
                        at = tree.nodes[at].parent?;
                    }
                }
            }
        })
        .collect();
    line_cols(input, &offsets)
}

/// The pointers asked for, merged: node 0 is the whole document.
#[derive(Default)]
struct Tree {
    nodes: Vec<Node>,
}

#[derive(Default)]
struct Node {
    parent: Option<usize>,
    /// Children by unescaped key (object members).
    keys: std::collections::HashMap<String, usize>,
    /// Children by array index (tokens that are well-formed indices; such a token is also
    /// in `keys`, since the container decides which it is).
    indices: std::collections::HashMap<usize, usize>,
    /// Where the member's key starts (its opening quote), for an object member.
    key_at: Option<usize>,
    /// Where the value starts.
    value_at: Option<usize>,
}

impl Tree {
    /// The node of `pointer`, added with its ancestors, and `true`; for a pointer with a
    /// malformed token, the node of the tokens before it and `false`; `None` for a pointer
    /// that is neither empty nor starts with `/`.
    fn insert(&mut self, pointer: &str) -> Option<(usize, bool)> {
        if self.nodes.is_empty() {
            self.nodes.push(Node::default());
        }
        let mut at = 0;
        if pointer.is_empty() {
            return Some((at, true));
        }
        for raw in pointer.strip_prefix('/')?.split('/') {
            let Some(token) = unescape_token(raw) else {
                return Some((at, false));
            };
            at = match self.nodes[at].keys.get(&token) {
                Some(&child) => child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node {
                        parent: Some(at),
                        ..Node::default()
                    });
                    if let Some(index) = array_index(&token) {
                        self.nodes[at].indices.insert(index, child);
                    }
                    self.nodes[at].keys.insert(token, child);
                    child
                }
            };
        }
        Some((at, true))
    }

    /// Fills in `key_at` and `value_at` of every node the input holds: each container on the
    /// way to a node is read once, member by member (the first member of a repeated key
    /// counts); malformed input ends the reading of the container it is in.
    fn walk(&mut self, b: &[u8]) {
        let Some(root) = self.nodes.first_mut() else {
            return;
        };
        let pos = skip_ws(b, 0);
        if !b.get(pos).is_some_and(|&c| is_value_start(c)) {
            return;
        }
        root.value_at = Some(pos);
        let mut pending = vec![(0, pos)];
        while let Some((node, pos)) = pending.pop() {
            if self.nodes[node].keys.is_empty() {
                continue;
            }
            match b[pos] {
                b'{' => self.members(b, node, pos, &mut pending),
                b'[' => self.elements(b, node, pos, &mut pending),
                _ => {}
            }
        }
    }

    /// The members of the object opening at `open`: each key, its `:` and its value, then `,`.
    fn members(&mut self, b: &[u8], node: usize, open: usize, pending: &mut Vec<(usize, usize)>) {
        let _ = (|| -> Option<()> {
            let mut i = skip_ws(b, open + 1);
            if *b.get(i)? == b'}' {
                return None;
            }
            loop {
                if *b.get(i)? != b'"' {
                    return None;
                }
                let key_pos = i;
                let after_key = skip_string(b, i)?;
                let raw = b.get(i + 1..after_key - 1)?;
                i = skip_ws(b, after_key);
                if *b.get(i)? != b':' {
                    return None;
                }
                i = skip_ws(b, i + 1);
                if !is_value_start(*b.get(i)?) {
                    return None;
                }
                let child = if raw.contains(&b'\\') {
                    unescape(raw).and_then(|key| self.nodes[node].keys.get(&key).copied())
                } else {
                    std::str::from_utf8(raw)
                        .ok()
                        .and_then(|key| self.nodes[node].keys.get(key).copied())
                };
                if let Some(child) = child {
                    let found = &mut self.nodes[child];
                    if found.value_at.is_none() {
                        found.key_at = Some(key_pos);
                        found.value_at = Some(i);
                        pending.push((child, i));
                    }
                }
                i = skip_ws(b, skip_value(b, i)?);
                match *b.get(i)? {
                    b',' => i = skip_ws(b, i + 1),
                    _ => return None,
                }
            }
        })();
    }

    /// The elements of the array opening at `open`, each value then `,`, up to the last index
    /// asked for.
    fn elements(&mut self, b: &[u8], node: usize, open: usize, pending: &mut Vec<(usize, usize)>) {
        let Some(&last) = self.nodes[node].indices.keys().max() else {
            return;
        };
        let _ = (|| -> Option<()> {
            let mut i = skip_ws(b, open + 1);
            let mut n = 0;
            loop {
                if !is_value_start(*b.get(i)?) {
                    return None;
                }
                if let Some(&child) = self.nodes[node].indices.get(&n) {
                    self.nodes[child].value_at = Some(i);
                    pending.push((child, i));
                }
                if n == last {
                    return None;
                }
                i = skip_ws(b, skip_value(b, i)?);
                match *b.get(i)? {
                    b',' => i = skip_ws(b, i + 1),
                    _ => return None,
                }
                n += 1;
            }
        })();
    }
}

/// The 1-based `(line, column)` of each offset, as [`line_col`] gives it, in one sweep over
/// `input` (the offsets sorted first), so many places cost one reading of the text.
fn line_cols(input: &str, offsets: &[Option<usize>]) -> Vec<Option<(usize, usize)>> {
    let mut order: Vec<usize> = (0..offsets.len())
        .filter(|&n| offsets[n].is_some())
        .collect();
    order.sort_unstable_by_key(|&n| offsets[n]);
    let mut out = vec![None; offsets.len()];
    // The sweep's place: a char boundary, its line, and the chars before it on that line.
    let (mut at, mut line, mut column) = (0, 1, 0);
    for n in order {
        let Some(offset) = offsets[n] else { continue };
        let Some(between) = input.get(at..offset) else {
            // Past the end or inside a char: no place (as `line_col` says).
            continue;
        };
        match between.rfind('\n') {
            Some(last) => {
                line += between.bytes().filter(|&b| b == b'\n').count();
                column = between[last + 1..].chars().count();
            }
            None => column += between.chars().count(),
        }
        at = offset;
        out[n] = Some((line, column + 1));
    }
    out
}

/// Splits `serde_json`'s trailing ` at line L column C` off a parse error's message: the
/// message without it, and the 1-based `(line, column)` it names (serde_json says column 0
/// when the bad value starts a line). `None` when the message does not end so.
#[must_use]
pub fn split_serde_position(message: &str) -> Option<(&str, (usize, usize))> {
    let (head, tail) = message.rsplit_once(" at line ")?;
    let (line, column) = tail.split_once(" column ")?;
    let number = |n: &str| {
        n.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| n.parse().ok())?
    };
    Some((head, (number(line)?, number(column)?.max(1))))
}

/// The byte offset serde_json's ` at line L column C` names in `text`: just past the `C`th
/// byte of line `L` (serde_json counts bytes, from 1, and says column 0 at a line's start).
/// `None` when `text` has no such line or the offset is past its end. The inverse of
/// [`serde_line_column`].
#[must_use]
pub fn serde_offset(text: &str, (line, column): (usize, usize)) -> Option<usize> {
    let start = match line {
        0 => return None,
        1 => 0,
        _ => text.match_indices('\n').nth(line - 2)?.0 + 1,
    };
    Some(start + column).filter(|&offset| offset <= text.len())
}

/// The `(line, column)` serde_json would report for byte `offset` of `text`, in its units
/// (bytes, see [`serde_offset`]), so a position moved between two texts reads as serde's own.
/// An `offset` past the end is taken as the end.
#[must_use]
pub fn serde_line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    (line, before.len() - start)
}

/// The 1-based `(line, column)` of byte `offset` in `input`, columns counted in chars, as
/// [`locate`] reports them. `None` when `offset` is past the end or inside a char.
#[must_use]
pub fn line_col(input: &str, offset: usize) -> Option<(usize, usize)> {
    let before = input.get(..offset)?;
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let column = before.get(line_start..)?.chars().count() + 1;
    Some((line, column))
}

/// One RFC 6901 reference token, unescaped (`~1` → `/`, `~0` → `~`); `None` for a `~`
/// followed by anything else.
fn unescape_token(raw: &str) -> Option<String> {
    let mut token = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next()? {
                '0' => token.push('~'),
                '1' => token.push('/'),
                _ => return None,
            }
        } else {
            token.push(c);
        }
    }
    Some(token)
}

fn array_index(token: &str) -> Option<usize> {
    let bytes = token.as_bytes();
    let well_formed = !bytes.is_empty()
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes.len() == 1 || bytes[0] != b'0');
    if well_formed {
        token.parse().ok()
    } else {
        None
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

fn is_value_start(c: u8) -> bool {
    matches!(
        c,
        b'{' | b'[' | b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n'
    )
}

/// Offset just past the value starting at `i`. Containers are skipped by counting brackets
/// (iteratively; strings are skipped whole), scalars up to the next delimiter.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match *b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            loop {
                match *b.get(j)? {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        c if is_value_start(c) => {
            let mut j = i + 1;
            while let Some(&c) = b.get(j) {
                if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                    break;
                }
                j += 1;
            }
            Some(j)
        }
        _ => None,
    }
}

/// Offset just past the string whose opening quote is at `i`.
fn skip_string(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        match *b.get(j)? {
            b'"' => return Some(j + 1),
            b'\\' => j += 2,
            _ => j += 1,
        }
    }
}

fn unescape(raw: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while let Some(&c) = raw.get(i) {
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        let escaped = match *raw.get(i + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = hex4(raw.get(i + 2..i + 6)?)?;
                i += 6;
                let code = if (0xD800..0xDC00).contains(&high) {
                    if raw.get(i..i + 2)? != b"\\u" {
                        return None;
                    }
                    let low = hex4(raw.get(i + 2..i + 6)?)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    i += 6;
                    0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    high
                };
                let mut buf = [0; 4];
                out.extend_from_slice(char::from_u32(code)?.encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ => return None,
        };
        let mut buf = [0; 4];
        out.extend_from_slice(escaped.encode_utf8(&mut buf).as_bytes());
        i += 2;
    }
    String::from_utf8(out).ok()
}

fn hex4(digits: &[u8]) -> Option<u32> {
    std::str::from_utf8(digits)
        .ok()
        .and_then(|s| u32::from_str_radix(s, 16).ok())
        .filter(|_| digits.iter().all(u8::is_ascii_hexdigit))
}
