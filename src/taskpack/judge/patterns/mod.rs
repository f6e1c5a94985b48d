//! What a pack must never carry (TaskPack §4.1): credentials and chat transcripts.
//!
//! One definition, used by every side that needs it: `conformance` (C7, C8) judges with it and
//! packing refuses with it, because §6 requires the judge to be exactly as strict as the writer.
//! The patterns are the reference's (`CREDENTIAL` and `TRANSCRIPT` in task-passport's `bag.js`),
//! with JavaScript's `\s` spelled out so that it means here what it means there, widened to
//! more credential families, and anchored at token boundaries so that a credential's prefix
//! inside a word (`task-3f9a2b7c8d1e4f5a6b`) is ordinary text (issue 34, item 6).
//!
//! They are applied to every key and string of the pack object (field values, not serialized
//! JSON: serialization turns a newline into `\n` and would blind the line-anchored transcript
//! pattern) and to the whole of every attachment, streamed. Each pattern is compiled once into
//! a DFA that is stepped one byte at a time, so a match that straddles two reads is found and an
//! attachment of any size is scanned in constant memory. Bytes that are not UTF-8 match nothing,
//! exactly as the U+FFFD that JavaScript decodes them to matches nothing.

mod scan;
pub use scan::{build_dfa, AttachmentScan, StreamScan, BASE64_RUN_MIN_CHARS};

use std::sync::OnceLock;

use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::hybrid::LazyStateID;
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};

use specmint_runtime::json::Json;

use crate::taskpack::{lenient, TaskPackError};

/// JavaScript's `\s`: WhiteSpace and LineTerminator (U+FEFF included, U+0085 not).
macro_rules! js_whitespace {
    () => {
        r"[\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]"
    };
}

/// JavaScript's `\s`, as a constant.
const JS_WHITESPACE: &str = js_whitespace!();

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
    /// The credential pattern is any of [`credential_families`]. The transcript shapes are the
    /// reference's and what chat logs look like today: lowercase turns (a `user:` line and an
    /// `assistant:` line, in either order; one alone is a config key) and JSON or Python
    /// messages (`{"role": "user", "content": ...}`). See spec/taskpack.md, beside C7 and C8.
    pub fn pattern(self) -> String {
        let ws = JS_WHITESPACE;
        match self {
            Finding::Credential => credential_families()
                .iter()
                .map(Family::pattern)
                .collect::<Vec<_>>()
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
                    format!(r#"{content_key}{ws}*"([^"\\]|\\.)*"{ws}*,{ws}*{role}"#),
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

/// The bytes a token is made of: a credential must not have one of them just before it or
/// just after it, or it is the middle of a longer word (`task-3f9a2b7c8d1e4f5a6b` holds
/// `sk-` and 16 alphanumerics, `disk-monitor7f9b8c6d5x2k4q` too, and neither is a key).
/// ASCII only, as bytes: any other byte (a non-ASCII letter's, one that is not UTF-8) is a
/// boundary, so the rule errs toward refusing.
pub const TOKEN_BYTES: &str = "A-Za-z0-9_-";

/// One credential family: a name, its shape, and whether the shape must stand alone as a token.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// What spec/taskpack.md calls it.
    pub name: &'static str,
    /// The shape, in regex syntax.
    pub shape: &'static str,
    /// Whether the shape is anchored at token boundaries ([`TOKEN_BYTES`]).
    pub bounded: bool,
}

impl Family {
    /// The shape, anchored when [`Family::bounded`]: at the start of the text or after a byte
    /// that cannot be part of the token, and ended likewise. Both sides are bytes the DFA
    /// consumes (or the start and the end of the stream), so the rule holds in the streamed,
    /// byte-by-byte scan: no look-around is needed.
    pub fn pattern(&self) -> String {
        self.anchored(self.bounded)
    }

    /// The shape, anchored or not (the unanchored one is what was matched before issue 34,
    /// item 6; the benchmark compares both).
    pub fn anchored(&self, bounded: bool) -> String {
        let shape = self.shape;
        if bounded {
            let edge = format!("(?-u:[^{TOKEN_BYTES}])");
            format!("(?:^|{edge})(?:{shape})(?:$|{edge})")
        } else {
            format!("(?:{shape})")
        }
    }
}

/// The credential families (C7): the reference's five shapes widened to the high-confidence
/// rule families of gitleaks (its `config/gitleaks.toml`, by prefix and length; no entropy
/// rules), each anchored at token boundaries but the two that carry their own context (a
/// private key block's marker, an AWS secret assigned to a name saying so). spec/taskpack.md
/// lists each with an example.
pub fn credential_families() -> &'static [Family] {
    const FAMILIES: &[Family] = &[
        // Private key blocks: PEM, OpenSSH, PGP (`... PRIVATE KEY BLOCK-----`).
        Family {
            name: "private_key",
            shape: r"-----BEGIN[ A-Z0-9_-]{0,40}PRIVATE KEY( BLOCK)?-----",
            bounded: false,
        },
        // AWS access key ids (long-term AKIA, temporary ASIA, and the rarer ones).
        Family {
            name: "aws_access_key_id",
            shape: r"(A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}",
            bounded: true,
        },
        // An AWS secret access key assigned to a name saying so (JavaScript's `\s` spelled
        // out), ended by a byte that cannot continue its base64.
        Family {
            name: "aws_secret_access_key",
            shape: concat!(
                r#"(?i:aws)[A-Za-z0-9_ .-]{0,20}(?i:secret)[A-Za-z0-9_ .-]{0,20}["']?"#,
                js_whitespace!(),
                "*",
                r"[:=]>?",
                js_whitespace!(),
                "*",
                r#"["']?[A-Za-z0-9/+]{40}(?:$|(?-u:[^A-Za-z0-9/+]))"#
            ),
            bounded: false,
        },
        // GitHub: classic, OAuth, user-to-server, server-to-server, refresh; fine-grained.
        Family {
            name: "github",
            shape: r"gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{22,}",
            bounded: true,
        },
        Family {
            name: "gitlab",
            shape: r"glpat-[A-Za-z0-9_-]{20,}",
            bounded: true,
        },
        // Slack: bot/user/app-level tokens.
        Family {
            name: "slack_token",
            shape: r"xox[baprse]-[A-Za-z0-9-]{10,}|xapp-[0-9]-[A-Za-z0-9]{8,}-[0-9]+-[A-Za-z0-9]+",
            bounded: true,
        },
        Family {
            name: "slack_webhook",
            shape: r"hooks\.slack\.com/(services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}",
            bounded: true,
        },
        // OpenAI (legacy and project/service-account/admin keys) and Anthropic.
        Family {
            name: "openai_anthropic",
            shape: r"sk-[A-Za-z0-9]{16,}|sk-(proj|svcacct|admin|ant-[a-z0-9]+)-[A-Za-z0-9_-]{20,}",
            bounded: true,
        },
        // A JSON Web Token: two base64url JSON objects (`{"` encodes as `ey`) and a signature.
        Family {
            name: "jwt",
            shape: r"ey[A-Za-z0-9_-]{17,}\.ey[A-Za-z0-9_-]{17,}\.[A-Za-z0-9_-]{10,}",
            bounded: true,
        },
        Family {
            name: "stripe",
            shape: r"(sk|rk)_(live|test|prod)_[A-Za-z0-9]{10,}",
            bounded: true,
        },
        Family {
            name: "google_api_key",
            shape: r"AIza[0-9A-Za-z_-]{35}",
            bounded: true,
        },
        Family {
            name: "npm",
            shape: r"npm_[A-Za-z0-9]{36}",
            bounded: true,
        },
        Family {
            name: "pypi",
            shape: r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}",
            bounded: true,
        },
        Family {
            name: "hugging_face",
            shape: r"hf_[A-Za-z]{34}",
            bounded: true,
        },
        Family {
            name: "sendgrid",
            shape: r"SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
            bounded: true,
        },
        Family {
            name: "shopify",
            shape: r"shp(at|ca|pa|ss)_[a-fA-F0-9]{32}",
            bounded: true,
        },
        Family {
            name: "digitalocean",
            shape: r"do[opr]_v1_[a-f0-9]{64}",
            bounded: true,
        },
    ];
    FAMILIES
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
    fn a_credential_stands_alone_as_a_token() {
        // Inside a longer word: ordinary text (issue 34, item 6).
        for harmless in [
            "Review branch task-3f9a2b7c8d1e4f5a6b",
            "Deploy pod disk-monitor7f9b8c6d5x2k4q",
            "XAKIAABCDEFGHIJKLMNOP",
            "AKIAABCDEFGHIJKLMNOPQ",
            "refs/heads/ghp_abcdefghijklmnopqrstuvwx_old",
            "Kiosk-Betreiberinnenvereinigungsvorsitzende",
        ] {
            assert_eq!(scan_text(harmless), vec![], "{harmless}");
        }
        // At the start, the end, after and before any byte a token cannot hold.
        for credential in [
            "sk-abcdefghijklmnop0123",
            "OPENAI_API_KEY=sk-abcdefghijklmnop0123",
            "\"sk-abcdefghijklmnop0123\",",
            "https://x.test/keys/sk-abcdefghijklmnop0123?x=1",
            "é sk-abcdefghijklmnop0123",
            "(AKIAABCDEFGHIJKLMNOP)",
            "token:ghp_abcdefghijklmnopqrstuvwx\n",
        ] {
            assert_eq!(
                scan_text(credential),
                vec![Finding::Credential],
                "{credential}"
            );
        }
        // Bytes that are not UTF-8 are boundaries too (a key in a binary file).
        let mut binary = vec![0xFFu8, 0x80];
        binary.extend_from_slice(b"AKIAABCDEFGHIJKLMNOP");
        binary.push(0xC3);
        let mut scan = StreamScan::default();
        scan.feed(&binary);
        assert_eq!(scan.finish(), vec![Finding::Credential]);
    }

    /// spec/taskpack.md's table of credential families: each row's name, its Anchored cell and
    /// its example. An example written as one code span is taken as written; the three written
    /// in words (a prefix and how many more characters) are built from those words.
    fn spec_families() -> Vec<(String, String, String)> {
        let spec = include_str!("../../../../spec/taskpack.md");
        let header = "| Family | Matches | Anchored | Example |";
        let table = &spec[spec.find(header).expect("the table of families") + header.len()..];
        let code = |cell: &str| -> Option<String> {
            let inner = cell.strip_prefix('`')?.strip_suffix('`')?;
            (!inner.contains('`')).then(|| inner.to_owned())
        };
        table
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| {
                let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
                let name = code(cells[0]).expect("a family's name is code");
                let example = code(cells[3]).unwrap_or_else(|| match name.as_str() {
                    "pypi" => format!("pypi-AgEIcHlwaS5vcmc{}", "a".repeat(50)),
                    "sendgrid" => format!("SG.abcdefghijklmnopqrstuv.{}", "A".repeat(43)),
                    "digitalocean" => format!("dop_v1_{}", "0a".repeat(32)),
                    other => panic!("{other}: an example written in words this test cannot build"),
                });
                (name, cells[2].to_owned(), example)
            })
            .collect()
    }

    #[test]
    fn every_family_finds_its_example_in_spec_taskpack_md() {
        let examples = spec_families();
        assert_eq!(
            examples
                .iter()
                .map(|(name, ..)| name.as_str())
                .collect::<Vec<_>>(),
            credential_families()
                .iter()
                .map(|f| f.name)
                .collect::<Vec<_>>(),
            "spec/taskpack.md lists the families the code has, in its order"
        );
        for (family, (name, anchored, example)) in credential_families().iter().zip(&examples) {
            assert_eq!(
                family.bounded,
                anchored == "token",
                "{name}: the Anchored column"
            );
            let dfa = build_dfa(&[family.pattern()]);
            let mut cache = dfa.create_cache();
            assert!(matches(&dfa, &mut cache, example.as_bytes()), "{name}");
            assert_eq!(
                scan_text(&format!("x {example} y")),
                vec![Finding::Credential]
            );
            if family.bounded && name != "slack_webhook" {
                // Glued to the end of a word, it is part of that word (the webhook's example
                // is a URL, whose `/` stays a boundary).
                assert!(
                    !matches(&dfa, &mut cache, format!("a{example}").as_bytes()),
                    "{name}"
                );
            }
            if matches!(
                name.as_str(),
                "aws_access_key_id"
                    | "google_api_key"
                    | "npm"
                    | "hugging_face"
                    | "sendgrid"
                    | "shopify"
                    | "digitalocean"
            ) {
                // One character too many for a fixed length (the spec's list of them).
                assert!(
                    !matches(&dfa, &mut cache, format!("{example}0").as_bytes()),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn a_boundary_across_reads_is_found_at_every_split() {
        for text in [
            "x task-3f9a2b7c8d1e4f5a6b and disk-monitor7f9b8c6d5x2k4q y",
            "x sk-abcdefghijklmnop0123 y",
        ] {
            let whole = scan_text(text);
            for chunk in 1..text.len() {
                assert_eq!(streamed(text, chunk), whole, "{text} chunk {chunk}");
            }
        }
    }

    /// The harmless corpus (tests/fixtures/harmless.txt, written by harmless.py beside it).
    fn harmless() -> Vec<&'static str> {
        include_str!("../../../../tests/fixtures/harmless.txt")
            .lines()
            .collect()
    }

    /// A scanner whose DFA cache is warm (a fresh one builds its states again, slowly in a
    /// debug build).
    fn warm() -> AttachmentScan {
        thread_local! {
            static WARM: AttachmentScan = AttachmentScan::default();
        }
        WARM.with(AttachmentScan::clone)
    }

    fn attachment_findings(bytes: &[u8]) -> Vec<Finding> {
        let mut scan = warm();
        for piece in bytes.chunks(7) {
            scan.feed(piece);
        }
        scan.finish()
    }

    /// Where a corpus string is placed: a string of the pack object, a line of an attachment,
    /// base64 inside an attachment, amid the bytes of a binary one.
    fn placements(text: &str) -> [Vec<Finding>; 4] {
        use base64::Engine as _;
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut binary: Vec<u8> = (0..512u32).map(|i| (i * 7 + 128) as u8 | 0x80).collect();
        binary.extend_from_slice(text.as_bytes());
        binary.extend((0..512u32).map(|i| (i * 13) as u8 | 0x80));
        let mut raw = warm().raw;
        raw.feed(text.as_bytes());
        [
            raw.finish(),
            attachment_findings(format!("notes for the next machine\n{text}\n").as_bytes()),
            attachment_findings(format!("config blob:\n{encoded}\nend\n").as_bytes()),
            attachment_findings(&binary),
        ]
    }

    #[test]
    fn the_harmless_corpus_passes_in_every_place() {
        let corpus = harmless();
        assert!(corpus.len() >= 2000, "{}", corpus.len());
        let refused: Vec<String> = corpus
            .iter()
            .filter(|text| placements(text).iter().any(|f| !f.is_empty()))
            .map(|text| text.to_string())
            .collect();
        assert_eq!(refused, Vec::<String>::new());
        // All of it in one attachment, and as the strings of one pack object.
        assert_eq!(attachment_findings(corpus.join("\n").as_bytes()), vec![]);
        let object = Json::Array(corpus.iter().map(|s| Json::Str(s.to_string())).collect());
        assert_eq!(scan_json(&object), vec![]);
    }

    /// The secrets corpus (tests/fixtures/secrets.json): `(name, finding, text)`.
    fn secrets() -> Vec<(String, String, String)> {
        let doc: serde_json::Value =
            serde_json::from_str(include_str!("../../../../tests/fixtures/secrets.json")).unwrap();
        doc["secrets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let field = |k: &str| s[k].as_str().unwrap().to_owned();
                (field("name"), field("finding"), field("text"))
            })
            .collect()
    }

    fn matches(dfa: &DFA, cache: &mut Cache, bytes: &[u8]) -> bool {
        let config = start::Config::new().anchored(Anchored::No);
        let mut state = dfa.start_state(cache, &config).unwrap();
        for &byte in bytes {
            state = dfa.next_state(cache, state, byte).unwrap();
            if state.is_match() {
                return true;
            }
        }
        dfa.next_eoi_state(cache, state).unwrap().is_match()
    }

    /// Precision and recall per credential family (BENCHMARKS.md, "Secrets: credential
    /// patterns against ordinary text"): `cargo test -p specmint --lib credential_families_table
    /// -- --nocapture` prints the table.
    #[test]
    fn credential_families_table() {
        let secrets = secrets();
        let credentials: Vec<&(String, String, String)> =
            secrets.iter().filter(|s| s.1 == "credential").collect();
        let corpus = harmless();
        let n = corpus.len();
        let mut rows = vec![
            "| Family | Secrets corpus refused (4 places each) | Harmless passed, unanchored (before) | Harmless passed, anchored (now) |".to_owned(),
            "|---|---|---|---|".to_owned(),
        ];
        let (mut all_refused, mut all_places) = (0, 0);
        for family in credential_families() {
            let before = build_dfa(&[family.anchored(false)]);
            let now = build_dfa(&[family.pattern()]);
            let (mut cache_before, mut cache_now) = (before.create_cache(), now.create_cache());
            let own: Vec<_> = credentials
                .iter()
                .filter(|s| matches(&before, &mut cache_before, s.2.as_bytes()))
                .collect();
            assert!(
                own.iter()
                    .all(|s| matches(&now, &mut cache_now, s.2.as_bytes())),
                "{}",
                family.name
            );
            let refused: usize = own
                .iter()
                .map(|s| {
                    placements(&s.2)
                        .iter()
                        .filter(|f| f.contains(&Finding::Credential))
                        .count()
                })
                .sum();
            let places = own.len() * 4;
            all_refused += refused;
            all_places += places;
            let hits = |dfa: &DFA, cache: &mut Cache| {
                corpus
                    .iter()
                    .filter(|t| matches(dfa, cache, t.as_bytes()))
                    .count()
            };
            let (was, is) = (hits(&before, &mut cache_before), hits(&now, &mut cache_now));
            assert_eq!(is, 0, "{}", family.name);
            rows.push(format!(
                "| {} | {refused} / {places} | {} / {n} | {} / {n} |",
                family.name,
                n - was,
                n - is,
            ));
        }
        let passed = corpus
            .iter()
            .filter(|t| placements(t).iter().all(|f| f.is_empty()))
            .count();
        let unanchored: Vec<String> = credential_families()
            .iter()
            .map(|f| f.anchored(false))
            .collect();
        let before = build_dfa(&[unanchored.join("|")]);
        let mut cache = before.create_cache();
        let passed_before = corpus
            .iter()
            .filter(|t| !matches(&before, &mut cache, t.as_bytes()))
            .count();
        rows.push(format!(
            "| **all** | {all_refused} / {all_places} | {passed_before} / {n} | {passed} / {n} (in every place) |",
        ));
        assert_eq!(all_refused, all_places);
        assert_eq!(all_places, credentials.len() * 4);
        println!("{}", rows.join("\n"));
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
        // Leaving the idle state (inside a word): a line break, the bytes a token cannot hold
        // (a credential may start after one), and the first bytes of the two unbounded
        // shapes (`-----BEGIN`, `aws`). A token's first byte inside a word starts nothing
        // since issue 34, item 6.
        for byte in b"\n \t\"'=:/(-aA" {
            assert!(leaves.contains(byte), "{}", *byte as char);
        }
        for byte in b"QsgxE09_" {
            assert!(!leaves.contains(byte), "{}", *byte as char);
        }
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
