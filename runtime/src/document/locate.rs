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
    let offset = find(input.as_bytes(), pointer, false)?;
    line_col(input, offset)
}

/// Where the key of the object member at `pointer` starts in `input` (its opening quote),
/// as a 1-based `(line, column)` like [`locate`]: `"/findings/0/reasoning"` gives the
/// position of `"reasoning"` inside `findings[0]`. Use it for problems with a key itself
/// (an unknown or forbidden key). `None` for the empty pointer, for an array element, or
/// when [`locate`] would give `None`.
#[must_use]
pub fn locate_key(input: &str, pointer: &str) -> Option<(usize, usize)> {
    let offset = find(input.as_bytes(), pointer, true)?;
    line_col(input, offset)
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

/// RFC 6901 reference tokens, unescaped (`~1` → `/`, `~0` → `~`).
fn pointer_tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    rest.split('/')
        .map(|raw| {
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
        })
        .collect()
}

/// Byte offset of the target value (or, with `want_key`, of the target member's key).
fn find(b: &[u8], pointer: &str, want_key: bool) -> Option<usize> {
    let tokens = pointer_tokens(pointer)?;
    let mut pos = skip_ws(b, 0);
    if !is_value_start(*b.get(pos)?) {
        return None;
    }
    if tokens.is_empty() {
        return if want_key { None } else { Some(pos) };
    }
    let last = tokens.len() - 1;
    for (n, token) in tokens.iter().enumerate() {
        match *b.get(pos)? {
            b'{' => {
                let (key_pos, value_pos) = find_member(b, pos, token)?;
                if want_key && n == last {
                    return Some(key_pos);
                }
                pos = value_pos;
            }
            b'[' => {
                if want_key && n == last {
                    return None;
                }
                pos = find_element(b, pos, array_index(token)?)?;
            }
            _ => return None,
        }
    }
    Some(pos)
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

/// In the object opening at `open`, the member whose key equals `key`: (key offset, value
/// offset).
fn find_member(b: &[u8], open: usize, key: &str) -> Option<(usize, usize)> {
    let mut i = skip_ws(b, open + 1);
    if *b.get(i)? == b'}' {
        return None;
    }
    loop {
        if *b.get(i)? != b'"' {
            return None;
        }
        let key_pos = i;
        let (after_key, matches) = string_equals(b, i, key)?;
        i = skip_ws(b, after_key);
        if *b.get(i)? != b':' {
            return None;
        }
        i = skip_ws(b, i + 1);
        if !is_value_start(*b.get(i)?) {
            return None;
        }
        if matches {
            return Some((key_pos, i));
        }
        i = skip_ws(b, skip_value(b, i)?);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            _ => return None,
        }
    }
}

/// In the array opening at `open`, the offset of element `index`.
fn find_element(b: &[u8], open: usize, index: usize) -> Option<usize> {
    let mut i = skip_ws(b, open + 1);
    let mut n = 0;
    loop {
        if !is_value_start(*b.get(i)?) {
            return None;
        }
        if n == index {
            return Some(i);
        }
        i = skip_ws(b, skip_value(b, i)?);
        match *b.get(i)? {
            b',' => i = skip_ws(b, i + 1),
            _ => return None,
        }
        n += 1;
    }
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

/// Offset just past the string whose opening quote is at `i`, and whether its unescaped
/// content equals `want`.
fn string_equals(b: &[u8], i: usize, want: &str) -> Option<(usize, bool)> {
    let end = skip_string(b, i)?;
    let raw = b.get(i + 1..end - 1)?;
    if !raw.contains(&b'\\') {
        return Some((end, raw == want.as_bytes()));
    }
    // A key that does not unescape (bad escape, lone surrogate) matches nothing.
    let matches = unescape(raw).is_some_and(|s| s == want);
    Some((end, matches))
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
