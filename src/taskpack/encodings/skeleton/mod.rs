//! Reading the flat form in bounded memory (issue: a stranger's multi-gigabyte
//! `.taskpack.json` must not take the machine).
//!
//! A flat pack is one JSON text whose bulk is the attachments' `data` strings. The first pass
//! ([`skeleton`]) streams the text once and keeps all of it but those strings: each
//! `attachments[i].data` string of the top-level object is written as `""` and its place in
//! the file (a [`Span`]) is recorded. Everything else, the pack object and the attachments'
//! other members, is parsed afterwards from that skeleton by the one JSON parser everything
//! else uses, so the reading is the same as reading the whole text: the same duplicate keys,
//! numbers, nesting limit and syntax errors. The emptied strings are checked here as that parser
//! checks strings (control characters, escapes, surrogate pairs), so the skeleton is valid JSON
//! exactly when the file is. The second pass ([`Unescape`], [`Base64Stream`]) reads a span again
//! and yields the attachment's bytes chunk by chunk.
//!
//! The skeleton itself is capped ([`MAX_SKELETON_BYTES`]): a pack object or attachment metadata
//! larger than that is refused, by name, rather than held.
//!
//! Which strings are left out is a path ([`Elide`]): the flat form's `attachments[i].data`
//! ([`ATTACHMENTS_DATA`]), or the A2A door's `params.message.parts[i].raw` ([`PARTS_RAW`]),
//! whose skeleton numbers each left-out string (`"0"`, `"1"`, ...: its index in
//! [`Skeleton::elided`]) so that a part is tied to its span whatever keys repeat.

mod decode;
pub(crate) use decode::*;

use std::io::{self, Read};

use base64::Engine as _;

/// The most the skeleton (the file less its attachments' data) may hold: 16 MiB.
pub const MAX_SKELETON_BYTES: usize = 16 << 20;

/// One step of the path to the strings a skeleton leaves out: an object's member, or every
/// element of an array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    Key(&'static str),
    Each,
}

/// Which strings a skeleton leaves out (every string at `path` from the top-level value; the
/// path has one [`Step::Each`] and ends with a [`Step::Key`]), and what it writes in their
/// place: `""`, or with `numbered` the string's index in [`Skeleton::elided`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Elide {
    pub path: &'static [Step],
    pub numbered: bool,
}

/// The flat form's attachments' `data` strings, written as `""`.
pub(crate) const ATTACHMENTS_DATA: Elide = Elide {
    path: &[Step::Key("attachments"), Step::Each, Step::Key("data")],
    numbered: false,
};

/// A JSON-RPC `SendMessage` request's file parts' `raw` strings, numbered.
pub(crate) const PARTS_RAW: Elide = Elide {
    path: &[
        Step::Key("params"),
        Step::Key("message"),
        Step::Key("parts"),
        Step::Each,
        Step::Key("raw"),
    ],
    numbered: true,
};

impl Elide {
    /// Where the [`Step::Each`] is.
    fn each(&self) -> usize {
        self.path
            .iter()
            .position(|s| *s == Step::Each)
            .expect("an elided path has one Each")
    }

    /// The last step's key.
    fn last_key(&self) -> &'static str {
        match self.path.last() {
            Some(Step::Key(key)) => key,
            _ => unreachable!("an elided path ends with a key"),
        }
    }

    /// Whether `stack` is inside an object at the path's last step (its frames match every
    /// step but the last, whose key is not looked at).
    fn inside(&self, stack: &[Frame]) -> bool {
        let depth = self.path.len();
        stack.len() == depth
            && matches!(stack.last(), Some(Frame::Object { .. }))
            && frames_match(&stack[..depth - 1], &self.path[..depth - 1])
    }

    /// Whether a string value starting at `stack` is one to leave out.
    fn here(&self, stack: &[Frame]) -> bool {
        self.inside(stack)
            && matches!(stack.last(), Some(Frame::Object { key: Some(key), .. }) if key == self.last_key())
    }

    /// Whether the key just read (the last frame's) opens the array the path runs through.
    fn opens_each(&self, stack: &[Frame]) -> bool {
        stack.len() == self.each() && frames_match(stack, self.path)
    }
}

/// Whether each frame is at its step: an object at that key, an array at [`Step::Each`].
fn frames_match(stack: &[Frame], path: &[Step]) -> bool {
    stack.iter().zip(path).all(|pair| match pair {
        (Frame::Object { key: Some(key), .. }, Step::Key(want)) => key == want,
        (Frame::Array { .. }, Step::Each) => true,
        _ => false,
    })
}

/// Where one left-out string's content (between its quotes) lies in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    /// Offset of the first byte after the opening quote.
    pub start: u64,
    /// Offset of the closing quote.
    pub end: u64,
    /// Where the opening quote is, as the text is counted (the text starts after a BOM):
    /// its 1-based line, and its 1-based column in bytes and in chars.
    pub line: usize,
    /// See [`Span::line`].
    pub quote_column: usize,
    /// See [`Span::line`].
    pub quote_chars: usize,
    /// How many chars the content holds (its bytes are `end - start`).
    pub chars: usize,
    /// How many bytes the string holds once unescaped.
    pub unescaped: u64,
}

impl Span {
    /// A column of `line` in the skeleton moved to the file: past every span of the line whose
    /// opening quote comes before it, by what that span left out (in bytes, or in chars).
    pub(crate) fn unshift(spans: &[Span], line: usize, column: usize, in_chars: bool) -> usize {
        let mut shift = 0;
        for span in spans.iter().filter(|s| s.line == line) {
            let (quote, left_out) = if in_chars {
                (span.quote_chars, span.chars)
            } else {
                (span.quote_column, (span.end - span.start) as usize)
            };
            if quote - shift < column {
                shift += left_out;
            }
        }
        column + shift
    }
}

/// Where an emptied string's opening quote is, and how many chars it held so far.
#[derive(Debug, Clone, Copy)]
struct Place {
    line: usize,
    quote_column: usize,
    quote_chars: usize,
    chars: usize,
    unescaped: u64,
}

fn chars_in(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xc0 != 0x80).count()
}

/// The file less the strings its [`Elide`] leaves out.
#[derive(Debug)]
pub(crate) struct Skeleton {
    /// The JSON text, every left-out string emptied (or numbered).
    pub text: String,
    /// Per opening of the path's array (an `attachments` member of the top-level object: a
    /// repeated key makes several), per element: the span of its last `data` member (the
    /// path's last key), when that member is a string.
    pub spans: Vec<Vec<Option<Span>>>,
    /// Every string left out, in file order (a repeated `data` member's too).
    pub elided: Vec<Span>,
}

/// Why the first pass stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SkeletonError {
    /// Reading failed.
    Io(String),
    /// Not UTF-8, or a `data` string that is not a JSON string: the parser's words.
    NotJson(String),
    /// The skeleton outgrew [`MAX_SKELETON_BYTES`].
    TooLarge,
}

enum Frame {
    Object {
        /// The last key read, decoded (`None` while unread or when it does not decode).
        key: Option<String>,
        expect_key: bool,
        /// A `:` was read and the value's first byte was not yet.
        after_colon: bool,
    },
    Array {
        index: usize,
    },
}

enum Lex {
    /// Between tokens, or inside a number or literal.
    Outside,
    /// Inside a string that is kept: `escaped` after a backslash; `key` when the string is an
    /// object key, whose raw bytes are gathered to decode it.
    Kept { escaped: bool, key: Option<Vec<u8>> },
    /// Inside an emptied `data` string.
    Emptied(Unescape, Place),
}

/// Streams `reader` once and returns its skeleton, the flat form's attachments' data left out
/// (see the module doc).
pub(crate) fn skeleton(reader: impl Read) -> Result<Skeleton, SkeletonError> {
    skeleton_of(reader, ATTACHMENTS_DATA)
}

/// Streams `reader` once and returns its skeleton, the strings `elide` names left out.
pub(crate) fn skeleton_of(mut reader: impl Read, elide: Elide) -> Result<Skeleton, SkeletonError> {
    let mut scan = Scan::new(elide);
    let mut utf8 = Utf8Check::default();
    let mut buffer = vec![0u8; 1 << 16];
    let mut first = true;
    loop {
        let n = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(SkeletonError::Io(e.to_string())),
        };
        let chunk = if std::mem::take(&mut first) {
            let (chunk, offset) = first_chunk(&mut reader, &mut buffer, n, &mut utf8)?;
            scan.offset = offset;
            chunk
        } else {
            utf8.feed(&buffer[..n], scan.offset)?;
            &buffer[..n]
        };
        scan.feed(chunk)?;
        if scan.text.len() > MAX_SKELETON_BYTES {
            return Err(SkeletonError::TooLarge);
        }
    }
    utf8.finish(scan.offset)?;
    scan.finish()
}

/// The first read, checked as UTF-8, less a leading byte order mark (it is not part of the
/// text: `strip_bom`), with the file offset its first byte has. A first read that ends inside
/// a mark is joined with the next bytes.
fn first_chunk<'b>(
    reader: &mut impl Read,
    buffer: &'b mut [u8],
    n: usize,
    utf8: &mut Utf8Check,
) -> Result<(&'b [u8], u64), SkeletonError> {
    let mut len = n;
    if n < 3 && b"\xef\xbb\xbf".starts_with(&buffer[..n]) {
        let mut head = buffer[..n].to_vec();
        while head.len() < 3 {
            let mut one = [0u8; 1];
            match reader.read(&mut one) {
                Ok(0) => break,
                Ok(_) => head.push(one[0]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(SkeletonError::Io(e.to_string())),
            }
        }
        buffer[..head.len()].copy_from_slice(&head);
        len = head.len();
    }
    let chunk = &buffer[..len];
    utf8.feed(chunk, 0)?;
    Ok(match chunk.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => (rest, 3),
        None => (chunk, 0),
    })
}

/// The first pass's state between bytes.
struct Scan {
    /// What is left out.
    elide: Elide,
    /// The skeleton so far.
    text: Vec<u8>,
    spans: Vec<Vec<Option<Span>>>,
    elided: Vec<Span>,
    stack: Vec<Frame>,
    lex: Lex,
    scratch: Vec<u8>,
    /// Position in the file, and (line, column) in the text as the parser counts them.
    offset: u64,
    line: usize,
    column: usize,
    chars: usize,
}

impl Scan {
    fn new(elide: Elide) -> Self {
        Scan {
            elide,
            text: Vec::new(),
            spans: Vec::new(),
            elided: Vec::new(),
            stack: Vec::new(),
            lex: Lex::Outside,
            scratch: Vec::new(),
            offset: 0,
            line: 1,
            column: 0,
            chars: 0,
        }
    }
}

impl Scan {
    /// One read's bytes.
    fn feed(&mut self, chunk: &[u8]) -> Result<(), SkeletonError> {
        let mut next = 0;
        while next < chunk.len() {
            let byte = chunk[next];
            match &self.lex {
                Lex::Emptied(..) => {
                    if let Some(run) = self.emptied(chunk, next)? {
                        next += run;
                        continue;
                    }
                }
                Lex::Kept { .. } => self.kept(byte),
                Lex::Outside => self.outside(byte),
            }
            next += 1;
            if byte == b'\n' {
                self.line += 1;
                self.column = 0;
                self.chars = 0;
            } else {
                self.column += 1;
                self.chars += chars_in(&[byte]);
            }
            self.offset += 1;
        }
        Ok(())
    }

    /// `chunk[at]` inside an emptied string. `Some(n)`: a run of `n` plain bytes was taken at
    /// once (the bulk of a data string), position included.
    fn emptied(&mut self, chunk: &[u8], at_byte: usize) -> Result<Option<usize>, SkeletonError> {
        let Lex::Emptied(unescape, place) = &mut self.lex else {
            unreachable!("called inside an emptied string");
        };
        let byte = chunk[at_byte];
        if unescape.at_rest() && !is_special(byte) {
            let run = 1 + plain_run(&chunk[at_byte + 1..]);
            let run_chars = chars_in(&chunk[at_byte..at_byte + run]);
            unescape.consumed += run as u64;
            place.chars += run_chars;
            place.unescaped += run as u64;
            self.column += run;
            self.chars += run_chars;
            self.offset += run as u64;
            return Ok(Some(run));
        }
        if byte == b'"' && unescape.at_rest() {
            let end = self.offset;
            if self.elide.numbered {
                self.text
                    .extend_from_slice(self.elided.len().to_string().as_bytes());
            }
            self.text.push(b'"');
            let Some(Frame::Array { index }) = self.stack.get(self.elide.each()) else {
                unreachable!("an emptied string sits in the path's array");
            };
            let index = *index;
            let element = self.spans.last_mut().expect("the array's member was seen");
            if element.len() <= index {
                element.resize(index + 1, None);
            }
            let span = Span {
                start: end - unescape.consumed,
                end,
                line: place.line,
                quote_column: place.quote_column,
                quote_chars: place.quote_chars,
                chars: place.chars,
                unescaped: place.unescaped,
            };
            element[index] = Some(span);
            self.elided.push(span);
            self.lex = Lex::Outside;
        } else {
            place.chars += chars_in(&[byte]);
            self.scratch.clear();
            if let Err(kind) = unescape.feed(&[byte], &mut self.scratch) {
                return Err(SkeletonError::NotJson(at(
                    kind.message(),
                    self.line,
                    self.column + 1,
                )));
            }
            place.unescaped += self.scratch.len() as u64;
        }
        Ok(None)
    }

    /// A byte inside a string that is kept.
    fn kept(&mut self, byte: u8) {
        let Lex::Kept { escaped, key } = &mut self.lex else {
            unreachable!("called inside a kept string");
        };
        if let Some(raw) = key {
            raw.push(byte);
        }
        if *escaped {
            *escaped = false;
        } else if byte == b'\\' {
            *escaped = true;
        } else if byte == b'"' {
            if let (Some(raw), Some(Frame::Object { key, .. })) = (key, self.stack.last_mut()) {
                *key = serde_json::from_slice::<String>(raw).ok();
                if self.elide.opens_each(&self.stack) {
                    self.spans.push(Vec::new());
                }
            }
            self.lex = Lex::Outside;
        }
        self.text.push(byte);
    }

    /// A byte between tokens, or inside a number or literal.
    fn outside(&mut self, byte: u8) {
        if !byte.is_ascii_whitespace() {
            value_starts(self.elide, &mut self.stack, &mut self.spans, byte);
        }
        match byte {
            b'"' => {
                let is_key = matches!(
                    self.stack.last(),
                    Some(Frame::Object {
                        expect_key: true,
                        ..
                    })
                );
                if let Some(Frame::Object { expect_key, .. }) = self.stack.last_mut() {
                    *expect_key = false;
                }
                self.lex = if !is_key && self.elide.here(&self.stack) {
                    Lex::Emptied(
                        Unescape::default(),
                        Place {
                            line: self.line,
                            quote_column: self.column + 1,
                            quote_chars: self.chars + 1,
                            chars: 0,
                            unescaped: 0,
                        },
                    )
                } else {
                    Lex::Kept {
                        escaped: false,
                        key: is_key.then(|| vec![b'"']),
                    }
                };
            }
            b'{' => self.stack.push(Frame::Object {
                key: None,
                expect_key: true,
                after_colon: false,
            }),
            b'[' => self.stack.push(Frame::Array { index: 0 }),
            b'}' | b']' => {
                self.stack.pop();
            }
            b',' => match self.stack.last_mut() {
                Some(Frame::Object { expect_key, .. }) => *expect_key = true,
                Some(Frame::Array { index }) => *index += 1,
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { after_colon, .. }) = self.stack.last_mut() {
                    *after_colon = true;
                }
            }
            _ => {}
        }
        self.text.push(byte);
    }

    /// The skeleton, once the reader is at its end.
    fn finish(self) -> Result<Skeleton, SkeletonError> {
        if let Lex::Emptied(..) = self.lex {
            return Err(SkeletonError::NotJson(at(
                "EOF while parsing a string",
                self.line,
                self.column,
            )));
        }
        let text = String::from_utf8(self.text).expect("checked as UTF-8 while read");
        Ok(Skeleton {
            text,
            spans: self.spans,
            elided: self.elided,
        })
    }
}

/// Whether a byte ends a run of plain string content: a quote, a backslash or a control
/// character (the line feed among them, so a run never spans lines).
fn is_special(byte: u8) -> bool {
    matches!(byte, b'"' | b'\\' | 0..=0x1f)
}

/// The length of the run of plain string content at the start of `bytes`.
fn plain_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| is_special(b))
        .unwrap_or(bytes.len())
}

/// A value's first byte (not whitespace) arrived: a `data` member (the path's last key) whose
/// value is not a string has no span.
fn value_starts(elide: Elide, stack: &mut [Frame], spans: &mut [Vec<Option<Span>>], byte: u8) {
    let index = match stack.get(elide.each()) {
        Some(Frame::Array { index }) => *index,
        _ => 0,
    };
    let Some(Frame::Object {
        key, after_colon, ..
    }) = stack.last_mut()
    else {
        return;
    };
    if !std::mem::take(after_colon) {
        return;
    }
    if byte != b'"' && key.as_deref() == Some(elide.last_key()) && elide.inside(stack) {
        if let Some(slot) = spans.last_mut().and_then(|e| e.get_mut(index)) {
            *slot = None;
        }
    }
}

/// The parser's way of placing an error.
fn at(message: &str, line: usize, column: usize) -> String {
    format!("{message} at line {line} column {column}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*), so a failure reproduces.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn pick<T: Copy>(&mut self, from: &[T]) -> T {
            from[(self.next() % from.len() as u64) as usize]
        }
    }

    /// Feeds `bytes` in pieces cut at random places.
    fn pieces<'a>(rng: &mut Rng, bytes: &'a [u8]) -> Vec<&'a [u8]> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = 1 + (rng.next() % 7) as usize;
            let (head, tail) = rest.split_at(n.min(rest.len()));
            out.push(head);
            rest = tail;
        }
        out
    }

    #[test]
    fn a_streamed_string_is_what_the_parser_reads() {
        let mut rng = Rng(0x5eed_1234);
        let alphabet: &[&str] = &[
            "a",
            "\\",
            "u",
            "d",
            "D",
            "8",
            "0",
            "c",
            "C",
            "f",
            "n",
            "\\n",
            "\\\"",
            "\\u00e9",
            "\\ud83d",
            "\\ude00",
            "\\uDBFF\\uDFFF",
            "é",
            "\u{7f}",
            "\t",
            "\u{1}",
            "x",
            "/",
            "\\/",
        ];
        for _ in 0..20_000 {
            let length = (rng.next() % 8) as usize;
            let content: String = (0..length).map(|_| rng.pick(alphabet)).collect();
            let parsed = serde_json::from_str::<String>(&format!("\"{content}\""));
            let mut unescape = Unescape::default();
            let mut out = Vec::new();
            let mut streamed = Ok(());
            let mut ended_early = false;
            'feed: for piece in pieces(&mut rng, content.as_bytes()) {
                // As the skeleton does: a quote at rest ends the string.
                for byte in piece.chunks(1) {
                    if byte == b"\"" && unescape.at_rest() {
                        ended_early = true;
                        break 'feed;
                    }
                    streamed = unescape.feed(byte, &mut out);
                    if streamed.is_err() {
                        break 'feed;
                    }
                }
            }
            if ended_early {
                assert!(
                    parsed.is_err(),
                    "{content:?}: the string ends before its end"
                );
                continue;
            }
            match (parsed, streamed) {
                (Ok(text), Ok(())) => {
                    assert!(
                        unescape.at_rest(),
                        "{content:?}: the parser ended the string"
                    );
                    assert_eq!(out, text.as_bytes(), "{content:?}");
                }
                (Err(e), Ok(())) => assert!(
                    !unescape.at_rest(),
                    "{content:?}: the parser refuses it ({e}), the stream took it whole"
                ),
                (Ok(_), Err(kind)) => {
                    panic!("{content:?}: the parser reads it, the stream says {kind:?}")
                }
                // At the input's end the parser reads a `\u` escape's four digits at once and
                // says EOF where more text follows in a real file.
                (Err(e), Err(kind)) => assert!(
                    e.to_string().starts_with(kind.message()) || e.is_eof(),
                    "{content:?}: the parser says {e}, the stream {}",
                    kind.message()
                ),
            }
        }
    }

    #[test]
    fn streamed_base64_is_base64_decoded_whole() {
        let mut rng = Rng(0xba5e_6400);
        let alphabet = b"AQgw+/=9z_-\n ";
        let engine = base64::engine::general_purpose::STANDARD;
        for round in 0..20_000u32 {
            let text: Vec<u8> = if round.is_multiple_of(2) {
                // Valid base64 of random bytes, sometimes damaged in one place.
                let raw: Vec<u8> = (0..rng.next() % 20).map(|_| rng.next() as u8).collect();
                let mut text = engine.encode(raw).into_bytes();
                if !text.is_empty() && rng.next().is_multiple_of(3) {
                    let at = (rng.next() % text.len() as u64) as usize;
                    text[at] = rng.pick(alphabet);
                }
                text
            } else {
                (0..rng.next() % 14).map(|_| rng.pick(alphabet)).collect()
            };
            let whole = engine.decode(&text);
            let mut stream = Base64Stream::default();
            let mut out = Vec::new();
            let mut streamed = Ok(());
            for piece in pieces(&mut rng, &text) {
                streamed = stream.feed(piece, &mut out);
                if streamed.is_err() {
                    break;
                }
            }
            let streamed = streamed.and_then(|()| {
                let mut rest = Vec::new();
                std::mem::take(&mut stream).finish(&mut rest)?;
                out.extend(rest);
                Ok(out)
            });
            // The same bytes, or both refused (the whole decoder may name a later bad byte:
            // it decodes the last quad first).
            match (&streamed, &whole) {
                (Err(_), Err(_)) => {}
                _ => assert_eq!(streamed, whole, "{:?}", String::from_utf8_lossy(&text)),
            }
        }
    }

    /// The skeleton's text, and each element's left-out `data` string, unescaped.
    fn spans_of(text: &str) -> (String, Vec<Option<String>>) {
        let skeleton = skeleton(text.as_bytes()).expect("reads");
        let values = skeleton.spans[0]
            .iter()
            .map(|span| {
                span.map(|s| {
                    let raw = &text[s.start as usize..s.end as usize];
                    let mut out = Vec::new();
                    Unescape::default().feed(raw.as_bytes(), &mut out).unwrap();
                    String::from_utf8(out).unwrap()
                })
            })
            .collect();
        (skeleton.text, values)
    }

    #[test]
    fn only_the_attachments_data_strings_are_left_out() {
        // `data` first, a key written with an escape, a nested `data` that is not an
        // attachment's, and a `data` member repeated with a number last.
        let text = "\u{feff}{\"passport\":{\"data\":\"kept\"},\"attachments\":[\
            {\"data\":\"a\\\"b\\u00e9\",\"name\":\"x\"},\
            {\"d\\u0061ta\":\"second\",\"meta\":{\"data\":\"inner\"}},\
            {\"data\":\"gone\",\"data\":7}],\"note\":\"data\"}";
        let (skeleton, values) = spans_of(text);
        assert_eq!(
            skeleton,
            "{\"passport\":{\"data\":\"kept\"},\"attachments\":[\
            {\"data\":\"\",\"name\":\"x\"},\
            {\"d\\u0061ta\":\"\",\"meta\":{\"data\":\"inner\"}},\
            {\"data\":\"\",\"data\":7}],\"note\":\"data\"}"
        );
        assert_eq!(
            values,
            [Some("a\"bé".to_owned()), Some("second".to_owned()), None]
        );
    }

    #[test]
    fn a_bad_data_string_is_refused_in_the_parsers_words() {
        let text = "{\"attachments\":[{\"data\":\"ok\\q\"}]}";
        let expected = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
        assert_eq!(
            skeleton(text.as_bytes()).unwrap_err(),
            SkeletonError::NotJson(expected.to_string())
        );
        let control = "{\"attachments\":[{\"data\":\"a\u{1}\"}]}";
        let expected = serde_json::from_str::<serde_json::Value>(control).unwrap_err();
        assert_eq!(
            skeleton(control.as_bytes()).unwrap_err(),
            SkeletonError::NotJson(expected.to_string())
        );
        let bytes = b"{\"attachments\":[{\"data\":\"\xff\"}]}";
        assert_eq!(
            skeleton(&bytes[..]).unwrap_err(),
            SkeletonError::NotJson(
                std::str::from_utf8(std::hint::black_box(&bytes[..]))
                    .unwrap_err()
                    .to_string()
            )
        );
    }

    #[test]
    fn a_requests_parts_raw_strings_are_numbered_wherever_keys_repeat() {
        // A repeated `params`, `message`, `parts` and `raw`: every string at the path is left
        // out and numbered in file order; `raw` elsewhere, a key, and a non-string stay.
        let text = "{\"params\":{\"message\":{\"parts\":[{\"raw\":\"QUFB\"}]}},\
            \"raw\":\"top\",\"params\":{\"message\":{\"parts\":[{\"raw\":7},\
            {\"r\\u0061w\":\"Q\\u0042Q=\",\"filename\":\"raw\",\"raw\":\"Q0M=\"}],\
            \"parts\":[{\"raw\":\"RA==\"}]}}}";
        let skeleton = skeleton_of(text.as_bytes(), PARTS_RAW).expect("reads");
        assert_eq!(
            skeleton.text,
            "{\"params\":{\"message\":{\"parts\":[{\"raw\":\"0\"}]}},\
            \"raw\":\"top\",\"params\":{\"message\":{\"parts\":[{\"raw\":7},\
            {\"r\\u0061w\":\"1\",\"filename\":\"raw\",\"raw\":\"2\"}],\
            \"parts\":[{\"raw\":\"3\"}]}}}"
        );
        let left_out: Vec<(&str, u64)> = skeleton
            .elided
            .iter()
            .map(|s| (&text[s.start as usize..s.end as usize], s.unescaped))
            .collect();
        assert_eq!(
            left_out,
            [("QUFB", 4), ("Q\\u0042Q=", 4), ("Q0M=", 4), ("RA==", 4)]
        );
    }

    #[test]
    fn the_skeleton_is_capped() {
        let big = format!("{{\"passport\":\"{}\"}}", "x".repeat(MAX_SKELETON_BYTES));
        assert_eq!(
            skeleton(big.as_bytes()).unwrap_err(),
            SkeletonError::TooLarge
        );
        let data = format!(
            "{{\"attachments\":[{{\"data\":\"{}\"}}]}}",
            "x".repeat(MAX_SKELETON_BYTES)
        );
        assert_eq!(
            skeleton(data.as_bytes()).unwrap().text,
            "{\"attachments\":[{\"data\":\"\"}]}"
        );
    }
}
