//! The scanners: both patterns in one lazy DFA, stepped once per byte over a stream (a
//! string, an attachment as it is read), and the base64 runs of an attachment decoded and
//! scanned too.

use super::*;

/// A lazy DFA of `patterns` (every match reported), as the scanners build it. The syntax is
/// not held to UTF-8 because a token boundary is any byte but a token's: a pattern that is
/// (every Unicode class) still matches only UTF-8.
pub fn build_dfa(patterns: &[String]) -> DFA {
    DFA::builder()
        .syntax(regex_automata::util::syntax::Config::new().utf8(false))
        // Never give up for a full cache: this DFA is small, and a fallback would be a
        // second matcher to keep equal to this one.
        .configure(
            DFA::config()
                .match_kind(MatchKind::All)
                .minimum_cache_clear_count(None),
        )
        .build_many(patterns)
        .expect("the TaskPack patterns compile")
}

/// Both patterns in one lazy DFA (every match reported, so finding one does not stop the
/// other), stepped once per byte.
pub(super) fn dfa() -> &'static DFA {
    static DFA_: OnceLock<DFA> = OnceLock::new();
    DFA_.get_or_init(|| build_dfa(&Finding::ALL.map(Finding::pattern)))
}

/// Every pattern, stepped together over one stream (an attachment, a string).
#[derive(Clone)]
pub struct StreamScan {
    dfa: &'static DFA,
    cache: Cache,
    start: LazyStateID,
    state: LazyStateID,
    found: [bool; 2],
    pub(super) idle: Idle,
}

/// The state the DFA rests in between candidates (no match under way, not after a line
/// break), and the bytes that leave it there: a run of those is skipped without stepping, which
/// is most of any text. Lazy state ids change when the cache is cleared (never seen with these
/// patterns, whose DFA is small), so skipping stops after a clear.
#[derive(Clone)]
pub(super) struct Idle {
    state: LazyStateID,
    pub(super) stays: [bool; 256],
    clears: usize,
}

impl Idle {
    pub(super) fn derive(dfa: &DFA, cache: &mut Cache, start: LazyStateID) -> Idle {
        let step = |cache: &mut Cache, from, byte| {
            dfa.next_state(cache, from, byte)
                .expect("a lazy DFA that never gives up always has a next state")
        };
        let once = step(cache, start, b'Q');
        let state = step(cache, once, b'Q');
        let mut stays = [false; 256];
        if state == once {
            for byte in 0..=255u8 {
                stays[byte as usize] = step(cache, state, byte) == state;
            }
        }
        Idle {
            state,
            stays,
            clears: cache.clear_count(),
        }
    }
}

impl Default for StreamScan {
    fn default() -> Self {
        let dfa = dfa();
        let mut cache = dfa.create_cache();
        let state = dfa
            .start_state(&mut cache, &start::Config::new().anchored(Anchored::No))
            .expect("an unanchored start state exists");
        let idle = Idle::derive(dfa, &mut cache, state);
        StreamScan {
            dfa,
            cache,
            start: state,
            state,
            found: [false; 2],
            idle,
        }
    }
}

impl StreamScan {
    /// Feeds the next bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        if self.found == [true; 2] {
            return;
        }
        let (dfa, cache) = (self.dfa, &mut self.cache);
        let mut state = self.state;
        let mut rest = bytes;
        while let Some((&byte, tail)) = rest.split_first() {
            if state == self.idle.state && self.idle.stays[byte as usize] {
                let run = rest.iter().position(|b| !self.idle.stays[*b as usize]);
                rest = &rest[run.unwrap_or(rest.len())..];
                continue;
            }
            rest = tail;
            // The fast path: from a known, unremarkable state, a step is one table lookup.
            let next = if state.is_tagged() {
                None
            } else {
                Some(dfa.next_state_untagged(cache, state, byte)).filter(|n| !n.is_unknown())
            };
            state = match next {
                Some(next) => next,
                None => dfa
                    .next_state(cache, state, byte)
                    .expect("a lazy DFA that never gives up always has a next state"),
            };
            if state.is_match() {
                record(dfa, cache, state, &mut self.found);
            }
            if cache.clear_count() != self.idle.clears {
                // The idle state's id died with the cache. Re-deriving it would step the DFA
                // and could clear the cache again under the current state, so skipping just
                // stops; every byte is stepped from here on.
                self.idle.stays = [false; 256];
            }
        }
        self.state = state;
    }

    /// What was found, in [`Finding::ALL`] order.
    pub fn finish(mut self) -> Vec<Finding> {
        self.take()
    }

    /// What was found in the stream so far, in [`Finding::ALL`] order; then starts a new
    /// stream, keeping the DFA's cache (so scanning many short texts, the strings of a pack
    /// object, builds it once).
    pub fn take(&mut self) -> Vec<Finding> {
        let end = self
            .dfa
            .next_eoi_state(&mut self.cache, self.state)
            .expect("a lazy DFA that never gives up always has an end state");
        if end.is_match() {
            record(self.dfa, &self.cache, end, &mut self.found);
        }
        let found = Finding::ALL
            .into_iter()
            .filter(|f| self.found[*f as usize])
            .collect();
        self.found = [false; 2];
        if self.cache.clear_count() != self.idle.clears {
            // The start state's id died with the cache: look it up again.
            self.start = self
                .dfa
                .start_state(
                    &mut self.cache,
                    &start::Config::new().anchored(Anchored::No),
                )
                .expect("an unanchored start state exists");
        }
        self.state = self.start;
        found
    }
}

/// The shortest run of base64 characters that is decoded and scanned: 20 chars, 15 bytes,
/// shorter than any credential above, longer than most words and identifiers.
pub const BASE64_RUN_MIN_CHARS: usize = 20;

/// What an attachment is scanned with: its bytes, and the bytes every base64 run in it decodes
/// to (standard or URL-safe alphabet; a line break inside a run of at least
/// [`BASE64_RUN_MIN_CHARS`] continues it, so wrapped PEM/MIME bodies decode whole; `=` or any
/// other byte ends it). Decoding is one level deep and streams: a run is decoded four
/// characters at a time from where it starts and scanned as it is decoded, so memory stays
/// constant whatever the run's length. A run that does not start on a base64 boundary of its
/// own (glued to a word) decodes to noise, which matches nothing.
#[derive(Clone, Default)]
pub struct AttachmentScan {
    pub(super) raw: StreamScan,
    decoded: StreamScan,
    /// The run's first chars, until it is long enough to decode.
    head: Vec<u8>,
    /// Whether the run under way is being decoded.
    decoding: bool,
    /// Sextets waiting for a full quantum, and how many.
    quantum: u32,
    sextets: u8,
    found: [bool; 2],
}

pub(super) fn sextet(byte: u8) -> Option<u8> {
    match byte {
        b'A'..=b'Z' => Some(byte - b'A'),
        b'a'..=b'z' => Some(byte - b'a' + 26),
        b'0'..=b'9' => Some(byte - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

impl AttachmentScan {
    /// Feeds the next bytes of the attachment.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.raw.feed(bytes);
        for &byte in bytes {
            match sextet(byte) {
                Some(value) if self.decoding => self.push(value),
                Some(_) => {
                    self.head.push(byte);
                    if self.head.len() == BASE64_RUN_MIN_CHARS {
                        self.decoding = true;
                        let head = std::mem::take(&mut self.head);
                        for &b in &head {
                            self.push(sextet(b).expect("the head is base64"));
                        }
                        self.head = head;
                        self.head.clear();
                    }
                }
                None if self.decoding && matches!(byte, b'\n' | b'\r') => {}
                None => self.end_run(),
            }
        }
    }

    pub(super) fn push(&mut self, value: u8) {
        self.quantum = self.quantum << 6 | u32::from(value);
        self.sextets += 1;
        if self.sextets == 4 {
            let [_, a, b, c] = self.quantum.to_be_bytes();
            self.decoded.feed(&[a, b, c]);
            self.quantum = 0;
            self.sextets = 0;
        }
    }

    pub(super) fn end_run(&mut self) {
        self.head.clear();
        if !self.decoding {
            return;
        }
        // A partial quantum: 2 sextets are 1 byte, 3 are 2.
        let bits = u32::from(self.sextets) * 6;
        let tail = (self.quantum << (24 - bits)).to_be_bytes();
        let n = (bits / 8) as usize;
        self.decoded.feed(&tail[1..1 + n]);
        for finding in self.decoded.take() {
            self.found[finding as usize] = true;
        }
        self.decoding = false;
        self.quantum = 0;
        self.sextets = 0;
    }

    /// What was found in the attachment or in a base64 run inside it, in [`Finding::ALL`] order.
    pub fn finish(mut self) -> Vec<Finding> {
        self.end_run();
        for finding in self.raw.finish() {
            self.found[finding as usize] = true;
        }
        Finding::ALL
            .into_iter()
            .filter(|f| self.found[*f as usize])
            .collect()
    }
}

/// Marks the patterns a match state reports.
pub(super) fn record(dfa: &DFA, cache: &Cache, state: LazyStateID, found: &mut [bool; 2]) {
    for i in 0..dfa.match_len(cache, state) {
        found[dfa.match_pattern(cache, state, i).as_usize()] = true;
    }
}
