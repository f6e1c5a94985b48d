//! The decoders the skeleton and its readers stream a JSON text's strings through: UTF-8
//! checked across reads, a string's escapes undone, base64 decoded, each a chunk at a time.

use super::*;

/// UTF-8 checked across reads: a sequence may straddle two. The one piece of code behind the
/// skeleton's check and the flat form's readability test (`flat::TextTest`).
#[derive(Default)]
pub(crate) struct Utf8Stream {
    carry: Vec<u8>,
}

/// Where fed bytes stop being UTF-8: `valid_up_to` bytes after the start of the `carried`
/// bytes held from earlier reads, a bad sequence of `len` bytes.
pub(crate) struct Utf8Bad {
    carried: usize,
    valid_up_to: usize,
    len: usize,
}

impl Utf8Stream {
    /// The next bytes.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Result<(), Utf8Bad> {
        let carried = self.carry.len();
        let mut joined;
        let whole = if self.carry.is_empty() {
            bytes
        } else {
            joined = std::mem::take(&mut self.carry);
            joined.extend_from_slice(bytes);
            &joined[..]
        };
        match std::str::from_utf8(whole) {
            Ok(_) => Ok(()),
            Err(e) => match e.error_len() {
                None => {
                    self.carry = whole[e.valid_up_to()..].to_vec();
                    Ok(())
                }
                Some(len) => Err(Utf8Bad {
                    carried,
                    valid_up_to: e.valid_up_to(),
                    len,
                }),
            },
        }
    }

    /// How many bytes of an unfinished sequence are held: none when all fed so far is UTF-8.
    pub(crate) fn carried(&self) -> usize {
        self.carry.len()
    }
}

/// [`Utf8Stream`] with `std::str::from_utf8`'s words for the first error, at file offsets.
#[derive(Default)]
pub(super) struct Utf8Check(Utf8Stream);

impl Utf8Check {
    /// `bytes` start at file offset `base`.
    pub(super) fn feed(&mut self, bytes: &[u8], base: u64) -> Result<(), SkeletonError> {
        self.0.feed(bytes).map_err(|bad| {
            SkeletonError::NotJson(format!(
                "invalid utf-8 sequence of {} bytes from index {}",
                bad.len,
                base - bad.carried as u64 + bad.valid_up_to as u64
            ))
        })
    }

    pub(super) fn finish(&self, end: u64) -> Result<(), SkeletonError> {
        match self.0.carried() {
            0 => Ok(()),
            held => Err(SkeletonError::NotJson(format!(
                "incomplete utf-8 byte sequence from index {}",
                end - held as u64
            ))),
        }
    }
}

/// What the parser says of a bad string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringError {
    Control,
    InvalidEscape,
    LoneSurrogate,
    EndOfHexEscape,
}

impl StringError {
    pub(super) fn message(self) -> &'static str {
        match self {
            StringError::Control => {
                "control character (\\u0000-\\u001F) found while parsing a string"
            }
            StringError::InvalidEscape => "invalid escape",
            StringError::LoneSurrogate => "lone leading surrogate in hex escape",
            StringError::EndOfHexEscape => "unexpected end of hex escape",
        }
    }
}

/// A JSON string's content (what lies between its quotes), unescaped as it streams: the
/// parser's rules (no raw control character; `\" \\ \/ \b \f \n \r \t \uXXXX`; a `\u` high
/// surrogate must be followed by a `\u` low one, and a low one alone is an error).
#[derive(Debug, Default, Clone)]
pub(crate) struct Unescape {
    state: EscapeState,
    /// Bytes of content consumed.
    pub consumed: u64,
}

#[derive(Debug, Default, Clone, Copy)]
pub(super) enum EscapeState {
    #[default]
    Plain,
    /// After a backslash.
    Backslash,
    /// Inside `\u`: the digits so far and their count; `high` when this is the second half.
    Hex {
        value: u32,
        digits: u8,
        high: Option<u32>,
    },
    /// After a high surrogate, waiting for `\`.
    WantBackslash(u32),
    /// After a high surrogate and `\`, waiting for `u`.
    WantU(u32),
}

impl Unescape {
    /// Whether a `"` here ends the string (not inside an escape).
    pub fn at_rest(&self) -> bool {
        matches!(self.state, EscapeState::Plain)
    }

    /// Feeds content bytes (never the closing quote), appending the unescaped bytes to `out`.
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<u8>) -> Result<(), StringError> {
        let mut at = 0;
        while at < bytes.len() {
            if self.at_rest() {
                let run = plain_run(&bytes[at..]);
                out.extend_from_slice(&bytes[at..at + run]);
                self.consumed += run as u64;
                at += run;
                if at == bytes.len() {
                    break;
                }
            }
            let byte = bytes[at];
            at += 1;
            self.consumed += 1;
            self.state = match self.state {
                EscapeState::Plain => match byte {
                    b'\\' => EscapeState::Backslash,
                    0..=0x1f => return Err(StringError::Control),
                    _ => {
                        out.push(byte);
                        EscapeState::Plain
                    }
                },
                EscapeState::Backslash => {
                    let plain = match byte {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            self.state = EscapeState::Hex {
                                value: 0,
                                digits: 0,
                                high: None,
                            };
                            continue;
                        }
                        _ => return Err(StringError::InvalidEscape),
                    };
                    out.push(plain);
                    EscapeState::Plain
                }
                EscapeState::Hex {
                    value,
                    digits,
                    high,
                } => {
                    let digit = (byte as char)
                        .to_digit(16)
                        .ok_or(StringError::InvalidEscape)?;
                    let value = value * 16 + digit;
                    if digits < 3 {
                        EscapeState::Hex {
                            value,
                            digits: digits + 1,
                            high,
                        }
                    } else {
                        match (high, value) {
                            (None, 0xD800..=0xDBFF) => EscapeState::WantBackslash(value),
                            (None, 0xDC00..=0xDFFF) => return Err(StringError::LoneSurrogate),
                            (None, _) => {
                                push_char(out, value);
                                EscapeState::Plain
                            }
                            (Some(high), 0xDC00..=0xDFFF) => {
                                push_char(
                                    out,
                                    0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00),
                                );
                                EscapeState::Plain
                            }
                            (Some(_), _) => return Err(StringError::LoneSurrogate),
                        }
                    }
                }
                EscapeState::WantBackslash(high) => match byte {
                    b'\\' => EscapeState::WantU(high),
                    _ => return Err(StringError::EndOfHexEscape),
                },
                EscapeState::WantU(high) => match byte {
                    b'u' => EscapeState::Hex {
                        value: 0,
                        digits: 0,
                        high: Some(high),
                    },
                    _ => return Err(StringError::EndOfHexEscape),
                },
            };
        }
        Ok(())
    }
}

pub(super) fn push_char(out: &mut Vec<u8>, value: u32) {
    let c = char::from_u32(value).expect("surrogates were handled");
    let mut utf8 = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
}

/// Standard base64 (padding required, canonical) decoded as it streams, giving exactly what
/// decoding the whole text at once gives, errors included (offsets from the text's start).
#[derive(Debug, Default)]
pub(crate) struct Base64Stream {
    /// Text not yet decoded: always the last quad or less is held back, since only the last
    /// quad may be padded.
    pending: Vec<u8>,
    /// Characters decoded so far.
    decoded: usize,
}

impl Base64Stream {
    /// Feeds base64 text, appending what can be decoded to `out`.
    pub fn feed(&mut self, text: &[u8], out: &mut Vec<u8>) -> Result<(), base64::DecodeError> {
        self.pending.extend_from_slice(text);
        if self.pending.len() <= 4 {
            return Ok(());
        }
        let ready = (self.pending.len() - 1) / 4 * 4;
        if let Some(at) = self.pending[..ready].iter().position(|&b| b == b'=') {
            // A pad before the last quad: decoding the whole text fails at this byte.
            return Err(self.shifted(
                base64::engine::general_purpose::STANDARD
                    .decode(&self.pending[at / 4 * 4..])
                    .expect_err("a quad followed by more text cannot be padded"),
                at / 4 * 4,
            ));
        }
        base64::engine::general_purpose::STANDARD
            .decode_vec(&self.pending[..ready], out)
            .map_err(|e| self.shifted(e, 0))?;
        self.pending.drain(..ready);
        self.decoded += ready;
        Ok(())
    }

    /// Decodes what is left.
    pub fn finish(mut self, out: &mut Vec<u8>) -> Result<(), base64::DecodeError> {
        let rest = std::mem::take(&mut self.pending);
        base64::engine::general_purpose::STANDARD
            .decode_vec(&rest, out)
            .map_err(|e| self.shifted(e, 0))
    }

    pub(super) fn shifted(&self, error: base64::DecodeError, within: usize) -> base64::DecodeError {
        use base64::DecodeError::*;
        let base = self.decoded + within;
        match error {
            InvalidByte(at, byte) => InvalidByte(base + at, byte),
            InvalidLength(n) => InvalidLength(base + n),
            InvalidLastSymbol(at, byte) => InvalidLastSymbol(base + at, byte),
            InvalidPadding => InvalidPadding,
        }
    }
}
