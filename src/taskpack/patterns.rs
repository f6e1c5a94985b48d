//! What a pack must never carry (TaskPack §4.1): credentials and chat transcripts.
//!
//! One definition, used by every side that needs it: `conformance` (C7, C8) judges with it and
//! packing refuses with it, because §6 requires the judge to be exactly as strict as the writer.
//! The patterns are the reference's (`CREDENTIAL` and `TRANSCRIPT` in task-passport's `bag.js`),
//! with JavaScript's `\s` spelled out so that it means here what it means there.
//!
//! They are applied to every key and string of the pack object (field values, not serialized
//! JSON: serialization turns a newline into `\n` and would blind the line-anchored transcript
//! pattern) and to the whole of every attachment, streamed. Each pattern is compiled once into
//! a DFA that is stepped one byte at a time, so a match that straddles two reads is found and an
//! attachment of any size is scanned in constant memory. Bytes that are not UTF-8 match nothing,
//! exactly as the U+FFFD that JavaScript decodes them to matches nothing.

use std::sync::OnceLock;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use specmint_runtime::json::Json;

use super::{lenient, TaskPackError};

/// JavaScript's `\s`: WhiteSpace and LineTerminator (U+FEFF included, U+0085 not).
const JS_WHITESPACE: &str = r"[\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]";

/// What a pattern finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finding {
    /// A private key block or a common token shape (C7).
    Credential,
    /// A line that opens like a chat turn (`User:`, `助手：`) (C8).
    Transcript,
}

impl Finding {
    /// Both, in check order.
    pub const ALL: [Finding; 2] = [Finding::Credential, Finding::Transcript];

    /// The code a pack carrying it is refused with: `credential` or `chat_transcript`.
    pub fn code(self) -> TaskPackError {
        match self {
            Finding::Credential => TaskPackError::Credential,
            Finding::Transcript => TaskPackError::ChatTranscript,
        }
    }

    /// The pattern, in regex syntax.
    ///
    /// The credential families are the reference's five shapes widened to the high-confidence
    /// rule families of gitleaks (its `config/gitleaks.toml`, by prefix and length; no entropy
    /// rules), and the transcript shapes add what chat logs look like today: lowercase turns
    /// (a `user:` line and an `assistant:` line, in either order; one alone is a config key)
    /// and JSON or Python messages (`{"role": "user", "content": ...}`). See spec/taskpack.md,
    /// "Departures", for each.
    pub fn pattern(self) -> String {
        let ws = JS_WHITESPACE;
        match self {
            Finding::Credential => [
                // Private key blocks: PEM, OpenSSH, PGP (`... PRIVATE KEY BLOCK-----`).
                r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY( BLOCK)?-----".to_owned(),
                // AWS access key ids (long-term AKIA, temporary ASIA, and the rarer ones).
                r"(A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}".to_owned(),
                // An AWS secret access key assigned to a name saying so.
                format!(
                    r#"(?i:aws)[A-Za-z0-9_ .-]{{0,20}}(?i:secret)[A-Za-z0-9_ .-]{{0,20}}["']?{ws}*[:=]>?{ws}*["']?[A-Za-z0-9/+]{{40}}"#
                ),
                // GitHub: classic, OAuth, user-to-server, server-to-server, refresh; fine-grained.
                r"gh[pousr]_[A-Za-z0-9]{20,}".to_owned(),
                r"github_pat_[A-Za-z0-9_]{22,}".to_owned(),
                r"glpat-[A-Za-z0-9_-]{20}".to_owned(),
                // Slack: bot/user/app-level tokens and incoming webhooks.
                r"xox[baprse]-[A-Za-z0-9-]{10,}".to_owned(),
                r"xapp-[0-9]-[A-Za-z0-9]{8,}-[0-9]+-[A-Za-z0-9]+".to_owned(),
                r"hooks\.slack\.com/(services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}".to_owned(),
                // OpenAI (legacy and project/service-account/admin keys) and Anthropic.
                r"sk-[A-Za-z0-9]{16,}".to_owned(),
                r"sk-(proj|svcacct|admin|ant-[a-z0-9]+)-[A-Za-z0-9_-]{20,}".to_owned(),
                // A JSON Web Token: two base64url JSON objects (`{"` encodes as `ey`) and a signature.
                r"ey[A-Za-z0-9_-]{17,}\.ey[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{10,}".to_owned(),
                // Stripe, Google API, npm, PyPI, Hugging Face, SendGrid, Shopify, DigitalOcean.
                r"(sk|rk)_(live|test|prod)_[A-Za-z0-9]{10,}".to_owned(),
                r"AIza[0-9A-Za-z_-]{35}".to_owned(),
                r"npm_[A-Za-z0-9]{36}".to_owned(),
                r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}".to_owned(),
                r"hf_[A-Za-z]{34}".to_owned(),
                r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}".to_owned(),
                r"shp(at|ca|pa|ss)_[a-fA-F0-9]{32}".to_owned(),
                r"do[opr]_v1_[a-f0-9]{64}".to_owned(),
            ]
            .join("|"),
            Finding::Transcript => {
                let turn = |who: &str| format!(r"(^|\n){ws}*({who}){ws}*[:：]");
                let quote = r#"["']"#;
                let role = format!(
                    r"{quote}role{quote}{ws}*:{ws}*{quote}(user|assistant|system|human|model){quote}"
                );
                let content_key = format!(r"{quote}content{quote}{ws}*:");
                [
                    turn("User|Assistant|Human|用户|助手"),
                    format!(r"{}(?s:.)*\n{ws}*assistant{ws}*:", turn("user|human")),
                    format!(r"{}(?s:.)*\n{ws}*(user|human){ws}*:", turn("assistant")),
                    format!(r"{role}{ws}*,{ws}*{content_key}"),
                    format!(
                        r#"{content_key}{ws}*"([^"\\]|\\.)*"{ws}*,{ws}*{role}"#
                    ),
                ]
                .join("|")
            }
        }
    }

    /// What it is, in the words of a refusal or a failed check.
    pub fn describe(self) -> &'static str {
        match self {
            Finding::Credential => "a credential",
            Finding::Transcript => "a chat transcript",
        }
    }
}

/// Both patterns in one lazy DFA (every match reported, so finding one does not stop the
/// other), stepped once per byte.
fn dfa() -> &'static DFA {
    static DFA_: OnceLock<DFA> = OnceLock::new();
    DFA_.get_or_init(|| {
        let patterns = Finding::ALL.map(Finding::pattern);
        DFA::builder()
            // Never give up for a full cache: this DFA is small, and a fallback would be a
            // second matcher to keep equal to this one.
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .minimum_cache_clear_count(None),
            )
            .build_many(&patterns)
            .expect("the TaskPack patterns compile")
    })
}

/// Every pattern, stepped together over one stream (an attachment, a string).
#[derive(Clone)]
pub struct StreamScan {
    dfa: &'static DFA,
    cache: Cache,
    start: LazyStateID,
    state: LazyStateID,
    found: [bool; 2],
    idle: Idle,
}

/// The state the DFA rests in between candidates (no match under way, not after a line
/// break), and the bytes that leave it there: a run of those is skipped without stepping, which
/// is most of any text. Lazy state ids change when the cache is cleared (never seen with these
/// patterns, whose DFA is small), so skipping stops after a clear.
#[derive(Clone)]
struct Idle {
    state: LazyStateID,
    stays: [bool; 256],
    clears: usize,
}

impl Idle {
    fn derive(dfa: &DFA, cache: &mut Cache, start: LazyStateID) -> Idle {
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
    raw: StreamScan,
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

fn sextet(byte: u8) -> Option<u8> {
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

    fn push(&mut self, value: u8) {
        self.quantum = self.quantum << 6 | u32::from(value);
        self.sextets += 1;
        if self.sextets == 4 {
            let [_, a, b, c] = self.quantum.to_be_bytes();
            self.decoded.feed(&[a, b, c]);
            self.quantum = 0;
            self.sextets = 0;
        }
    }

    fn end_run(&mut self) {
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
fn record(dfa: &DFA, cache: &Cache, state: LazyStateID, found: &mut [bool; 2]) {
    for i in 0..dfa.match_len(cache, state) {
        found[dfa.match_pattern(cache, state, i).as_usize()] = true;
    }
}

/// The findings in one text.
pub fn scan_text(text: &str) -> Vec<Finding> {
    let mut scan = StreamScan::default();
    scan.feed(text.as_bytes());
    scan.finish()
}

/// What makes an object a chat message: its `role`, when a string, and whether it has a
/// `content` (any value, `null` included).
#[derive(Default, serde::Deserialize)]
struct Message {
    #[serde(default, deserialize_with = "lenient::or_default")]
    role: Option<String>,
    #[serde(default, deserialize_with = "lenient::is_present")]
    content: bool,
}

/// Every key and string of a pack object that a pattern matches: `(finding, pointer)`, in
/// document order.
pub fn scan_json(value: &Json) -> Vec<(Finding, String)> {
    let mut found = Vec::new();
    let mut scan = StreamScan::default();
    let mut text = |text: &str| {
        scan.feed(text.as_bytes());
        scan.take()
    };
    value.walk(&mut String::new(), &mut |pointer, value| match value {
        Json::Str(s) => {
            for finding in text(s) {
                found.push((finding, pointer.to_owned()));
            }
        }
        Json::Object(members) => {
            // A chat message as data: `{"role": "user", "content": ...}` (C8).
            let message: Message = lenient::view(value);
            if message.content
                && matches!(
                    message.role.as_deref(),
                    Some("user" | "assistant" | "system" | "human" | "model")
                )
            {
                found.push((Finding::Transcript, pointer.to_owned()));
            }
            for (key, _) in members {
                for finding in text(key) {
                    found.push((
                        finding,
                        format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1")),
                    ));
                }
            }
        }
        _ => {}
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(text: &str, chunk: usize) -> Vec<Finding> {
        let mut scan = StreamScan::default();
        for piece in text.as_bytes().chunks(chunk) {
            scan.feed(piece);
        }
        scan.finish()
    }

    #[test]
    fn finds_the_reference_shapes() {
        for credential in [
            "key sk-abcdefghijklmnop0123 here",
            "ghp_abcdefghijklmnopqrstuvwx",
            "xoxb-1234567890-abc",
            "AKIAABCDEFGHIJKLMNOP",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----",
        ] {
            assert_eq!(
                scan_text(credential),
                vec![Finding::Credential],
                "{credential}"
            );
        }
        for near_miss in [
            "sk-short",
            "AKIAabcdefghijklmnop",
            "-----BEGIN PUBLIC KEY-----",
            "ghp_tooshort",
        ] {
            assert_eq!(scan_text(near_miss), vec![], "{near_miss}");
        }
    }

    #[test]
    fn transcript_is_line_anchored_with_javascripts_whitespace() {
        assert_eq!(scan_text("User: hi"), vec![Finding::Transcript]);
        assert_eq!(
            scan_text("notes\n\u{3000} 助手：好的"),
            vec![Finding::Transcript]
        );
        assert_eq!(
            scan_text("notes\n\u{feff}Human :x"),
            vec![Finding::Transcript]
        );
        // U+0085 is whitespace to Rust's `\s` but not to JavaScript's.
        assert_eq!(scan_text("x\n\u{85}User: hi"), vec![]);
        assert_eq!(scan_text("the User: field"), vec![]);
    }

    #[test]
    fn a_match_across_reads_is_found_at_every_split() {
        let text = "prefix\n  Assistant: sure, sk-0123456789abcdefXYZ";
        for chunk in 1..text.len() {
            assert_eq!(
                streamed(text, chunk),
                vec![Finding::Credential, Finding::Transcript],
                "chunk {chunk}"
            );
        }
    }

    #[test]
    fn only_bytes_that_start_nothing_are_skipped() {
        let scan = StreamScan::default();
        let leaves: Vec<u8> = (0..=255u8)
            .filter(|b| !scan.idle.stays[*b as usize])
            .collect();
        // Leaving the idle state: the first bytes of the credential shapes and a line break.
        // (The families widened in issue 21 add more first bytes; these must stay among them.)
        for byte in b"\n-Agsx" {
            assert!(leaves.contains(byte), "{}", *byte as char);
        }
        assert!(!leaves.contains(&b'Q'));
        // A match after a long skippable run, and one that starts right after a run.
        let mut text = "Q".repeat(100_000);
        text.push_str("\nHuman: hi ghp_abcdefghijklmnopqrstuvwx");
        assert_eq!(
            streamed(&text, 4096),
            vec![Finding::Credential, Finding::Transcript]
        );
    }

    #[test]
    fn a_scanner_taken_from_starts_a_new_stream() {
        let mut scan = StreamScan::default();
        scan.feed(b"notes\nUser");
        assert_eq!(scan.take(), vec![]);
        // A new stream: the `User` before is gone, and `: hi` alone is no turn.
        scan.feed(b": hi");
        assert_eq!(scan.take(), vec![]);
        scan.feed(b"AKIAABCDEFGHIJKLMNOP");
        assert_eq!(scan.take(), vec![Finding::Credential]);
        scan.feed(b"Human: x");
        assert_eq!(scan.take(), vec![Finding::Transcript]);
    }

    #[test]
    fn scans_keys_and_values_with_their_pointers() {
        let json = Json::parse(r#"{"a":["ok","User: hi"],"AKIAABCDEFGHIJKLMNOP":1}"#).unwrap();
        assert_eq!(
            scan_json(&json),
            vec![
                (Finding::Credential, "/AKIAABCDEFGHIJKLMNOP".to_owned()),
                (Finding::Transcript, "/a/1".to_owned())
            ]
        );
    }
}
