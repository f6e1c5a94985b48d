//! The A2A door as a server (issue 34, items 1 and 2): `specmint a2a serve` run as a process and
//! spoken to over raw TCP from std: an idle connection holds nothing up, many clients at once
//! are all answered, slow ones are cut, the body limit is 413 over HTTP, the store quota,
//! bearer tokens (401), TLS, the refusal to serve a non-loopback address unauthenticated,
//! SIGTERM, the framing RFC 9112 leaves to the server (a chunked request closes its connection,
//! `chunked` alone, one `Host`), and slots kept from clients without a token. (The official A2A SDK lands a pack over TLS with a token in
//! tests/peers/a2a/tls_client.py, run by ./test.sh.)

use crate::common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use specmint::taskpack::flat;
use specmint::taskpack::json::Json;

const EXTENSION: &str = "https://taskpack.org/a2a/ext/taskpack/v1";

/// A door process, killed when dropped.
struct Door {
    child: Child,
    addr: SocketAddr,
    /// The first line's URL.
    url: String,
}

impl Drop for Door {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn command(store: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
    command
        .args(["a2a", "serve", "--passports"])
        .arg(store)
        .args(extra)
        // English unless a test asks: the door's default language is the environment's.
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Starts a door over `store` (`--listen 127.0.0.1:0` unless `extra` says otherwise) and reads
/// its first line.
fn start(store: &Path, extra: &[&str]) -> Door {
    let mut args = extra.to_vec();
    if !extra.contains(&"--listen") {
        args.extend(["--listen", "127.0.0.1:0"]);
    }
    start_command(command(store, &args))
}

fn start_command(mut command: Command) -> Door {
    let mut child = command.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("the first line: {line:?}"))
        .to_owned();
    let addr = url
        .split_once("://")
        .unwrap()
        .1
        .trim_end_matches('/')
        .parse()
        .unwrap();
    Door { child, addr, url }
}

/// A response: status, headers (names lowercase), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Reads a whole response (the door closes the connection: every request says
/// `Connection: close`), waiting at most 10 s.
fn read_answer(stream: &mut impl Read) -> Answer {
    let raw = read_all(stream);
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no response head in {:?}", String::from_utf8_lossy(&raw)));
    let head = String::from_utf8(raw[..end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: raw[end + 4..].to_vec(),
    }
}

/// What `stream` gives until its end, or an error (a reset after the answer: the door closed a
/// connection whose request it did not read to the end).
fn read_all(stream: &mut impl Read) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 << 10];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if raw.is_empty() && e.kind() == std::io::ErrorKind::WouldBlock => {
                panic!("no answer within the read timeout")
            }
            Err(_) => break,
        }
    }
    raw
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

fn request(method: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let path = if method == "GET" {
        "/.well-known/agent-card.json"
    } else {
        "/"
    };
    let mut out = format!("{method} {path} HTTP/1.1\r\nHost: door\r\nConnection: close\r\n");
    for (name, value) in headers {
        out.push_str(&format!("{name}: {value}\r\n"));
    }
    if method == "POST" {
        out.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    out.extend_from_slice(body);
    out
}

fn card(addr: SocketAddr) -> Answer {
    let mut stream = connect(addr);
    stream.write_all(&request("GET", &[], b"")).unwrap();
    read_answer(&mut stream)
}

fn post(addr: SocketAddr, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut stream = connect(addr);
    stream.write_all(&request("POST", headers, body)).unwrap();
    read_answer(&mut stream)
}

/// A flat handoff of root `root`, its bytes.
fn pack(root: &str) -> Vec<u8> {
    pack_with(root, &[])
}

/// A flat handoff of root `root` carrying `attachments`, its bytes.
fn pack_with(root: &str, attachments: &[flat::LuggageFile]) -> Vec<u8> {
    let pack = Json::parse(&format!(
        r#"{{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "origin":{{"actor":"ds","machine":"mbp-14"}},
            "lineage":{{"root_id":"{root}","from_version":1,"chain":["{root}@1"]}},
            "passport":{{"id":"{root}","goal":"land through the door","version":1,
              "facts":[],"decisions":[],"artifacts":[],"next_steps":["land it"]}}}}"#
    ))
    .unwrap();
    flat::write_flat(&pack, attachments, None)
        .unwrap()
        .into_bytes()
}

/// `SendMessage` with `bytes` as the file part `h.taskpack.json`.
fn send(bytes: &[u8]) -> Vec<u8> {
    let raw = base64::engine::general_purpose::STANDARD.encode(bytes);
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
        "params": {"message": {"messageId": "m1", "role": "ROLE_USER",
            "parts": [{"raw": raw, "filename": "h.taskpack.json"}]}}}))
    .unwrap()
}

const ACTIVATED: (&str, &str) = ("A2A-Extensions", EXTENSION);

/// The passports a store holds (`<id>.json`).
fn passports(store: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(store)
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter_map(|n| n.strip_suffix(".json").map(str::to_owned))
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    ids.sort();
    ids
}

#[test]
fn a_silent_connection_holds_nothing_up_and_is_closed_by_the_header_timeout() {
    let store = common::scratch("door-idle");
    let door = start(&store, &["--header-timeout", "1"]);
    let mut silent = connect(door.addr);
    // Closed by the door within 10 s (the read timeout), not answered.
    // The functional bound of the acceptance: the card answers within a second.
    let fetch = connect(door.addr);
    fetch
        .set_read_timeout(Some(Duration::from_secs(1)))
        .unwrap();
    let mut fetch = fetch;
    fetch.write_all(&request("GET", &[], b"")).unwrap();
    let answer = read_answer(&mut fetch);
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["supportedInterfaces"][0]["url"], door.url);
    // The silent one is closed by the door (end of stream, no response), not left open.
    let mut got = Vec::new();
    assert_eq!(silent.read_to_end(&mut got).unwrap(), 0, "{got:?}");
}

#[test]
fn past_max_connections_a_client_waits_for_a_slot_and_is_served_when_one_frees() {
    let store = common::scratch("door-cap");
    let door = start(
        &store,
        &["--max-connections", "2", "--header-timeout", "30"],
    );
    let first = connect(door.addr);
    let second = connect(door.addr);
    // Both slots are held by silent connections: a third waits in the listen backlog, its
    // request unread (a door without the cap answers it in milliseconds).
    let mut third = connect(door.addr);
    third
        .set_read_timeout(Some(Duration::from_millis(700)))
        .unwrap();
    third.write_all(&request("GET", &[], b"")).unwrap();
    let mut buf = [0u8; 1];
    let waiting = third.read(&mut buf);
    assert!(
        waiting.as_ref().is_err_and(|e| matches!(
            e.kind(),
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
        )),
        "answered past the cap: {waiting:?}"
    );
    // One slot frees: the waiting client is served, the other silent one still held.
    drop(first);
    third
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let answer = read_answer(&mut third);
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["supportedInterfaces"][0]["url"], door.url);
    drop(second);
}

#[test]
fn two_hundred_concurrent_card_fetches_all_answer() {
    let store = common::scratch("door-many");
    let door = start(&store, &[]);
    let expected = card(door.addr).body;
    let addr = door.addr;
    let gate = Arc::new(std::sync::Barrier::new(200));
    let fetches: Vec<_> = (0..200)
        .map(|_| {
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                let mut stream = connect(addr);
                gate.wait();
                stream.write_all(&request("GET", &[], b"")).unwrap();
                let answer = read_answer(&mut stream);
                (answer.status, answer.body)
            })
        })
        .collect();
    for fetch in fetches {
        assert_eq!(fetch.join().unwrap(), (200, expected.clone()));
    }
}

#[test]
fn a_body_over_the_limit_is_413_while_it_is_read_and_the_door_answers_after() {
    let store = common::scratch("door-413");
    let door = start(&store, &["--max-pack-bytes", "3000"]);
    // 3000 bytes of pack in base64, and 1 MiB for the JSON around it.
    let limit = 3000 / 3 * 4 + (1 << 20);
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32602,"message":"the request body is over {limit} bytes: too big for this door"}}}}"#
    );
    // Declared too big: refused before a byte of it is read.
    let mut stream = connect(door.addr);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: door\r\nContent-Length: {}\r\n\r\n",
        limit + 1
    );
    stream.write_all(head.as_bytes()).unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(
        (answer.status, String::from_utf8(answer.body).unwrap()),
        (413, message.clone())
    );
    // Not declared (chunked): refused once what arrived passes the limit.
    let mut stream = connect(door.addr);
    stream
        .write_all(b"POST / HTTP/1.1\r\nHost: door\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = vec![b' '; 64 << 10];
    let mut sent = 0;
    while sent <= limit {
        stream
            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .unwrap();
        stream.write_all(&chunk).unwrap();
        stream.write_all(b"\r\n").unwrap();
        sent += chunk.len();
    }
    let answer = read_answer(&mut stream);
    assert_eq!(
        (answer.status, String::from_utf8(answer.body).unwrap()),
        (413, message)
    );
    // The door goes on: the card, and a pack within the limit lands.
    assert_eq!(card(door.addr).status, 200);
    let landed = post(door.addr, &[ACTIVATED], &send(&pack("TP-ROOT-0413")));
    assert_eq!(landed.status, 200);
    assert_eq!(landed.json()["result"]["task"]["id"], "TP-ROOT-0413");
    // No temporary body is left behind in the store.
    assert_eq!(passports(&store).len(), 1);
}

#[cfg(target_os = "linux")]
/// A process's peak resident set (`VmHWM`), in bytes.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmHWM in {status}"));
    kb << 10
}

#[test]
fn a_client_that_stops_reading_an_answer_is_cut_by_the_write_timeout() {
    let store = common::scratch("door-unread");
    let door = start(&store, &["--write-timeout", "1"]);
    // The answer echoes the luggage: 16 MiB of it is about 21 MiB of base64, more than the
    // two sockets' buffers hold, so the door's writes wait for a client that never reads.
    let line = "luggage nobody reads, one line of many, 0123456789abcdefghijklmn\n";
    let attachment = flat::LuggageFile {
        name: "unread.log".to_owned(),
        bytes: line.repeat((16 << 20) / line.len()).into_bytes(),
    };
    let body = send(&pack_with(
        "TP-ROOT-UNREAD",
        std::slice::from_ref(&attachment),
    ));
    let mut stream = connect(door.addr);
    stream
        .write_all(&request("POST", &[ACTIVATED], &body))
        .unwrap();
    // Not reading: once the pack has landed (the answer is written after it, however long
    // the landing takes on a loaded machine) and past the second's wait for the client, the
    // door gives the connection up; what is read after is what the sockets held, not the
    // answer.
    let landed_by = std::time::Instant::now() + Duration::from_secs(120);
    while passports(&store).is_empty() {
        assert!(
            std::time::Instant::now() < landed_by,
            "the pack never landed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(3));
    let answer = read_answer(&mut stream);
    let declared: usize = answer
        .headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map_or(0, |(_, v)| v.parse().unwrap());
    assert_eq!(answer.status, 200);
    assert!(declared > 21 << 20, "{declared}");
    assert!(
        answer.body.len() < declared,
        "the whole answer ({declared} bytes) reached a client that read nothing for 3 s after the landing"
    );
    // The door serves others, and the pack landed whole (the cut was the answer's, not the
    // landing's).
    assert_eq!(card(door.addr).status, 200);
    assert_eq!(passports(&store).len(), 1, "{:?}", passports(&store));
}

#[cfg(target_os = "linux")]
#[test]
fn a_large_pack_lands_in_bounded_memory_decoded_from_the_spooled_body() {
    let store = common::scratch("door-large");
    let door = start(&store, &[]);
    // The door warmed up: a small landing first, so what is measured is the large one.
    let small = post(door.addr, &[ACTIVATED], &send(&pack("TP-ROOT-SMALL")));
    assert_eq!(small.status, 200);
    // A flat pack with a 32 MiB text attachment: the body is about 43 MiB of base64.
    let line = "the luggage of a large handoff, one line of many, 0123456789abc\n";
    let attachment = flat::LuggageFile {
        name: "big.log".to_owned(),
        bytes: line.repeat((32 << 20) / line.len()).into_bytes(),
    };
    let flat = pack_with("TP-ROOT-LARGE", std::slice::from_ref(&attachment));
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"messageId":"m1","role":"ROLE_USER","parts":[{{"raw":"{}","filename":"h.taskpack.json"}}]}}}}}}"#,
        base64::engine::general_purpose::STANDARD.encode(&flat)
    );
    assert!(body.len() > 42 << 20, "{}", body.len());
    let before = peak_rss(door.child.id());
    let mut stream = TcpStream::connect(door.addr).unwrap();
    // Not a timing: only a guard against a hang (a debug build lands this in seconds).
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream
        .write_all(&request("POST", &[ACTIVATED], body.as_bytes()))
        .unwrap();
    let landed = read_answer(&mut stream);
    let after = peak_rss(door.child.id());
    // The answer, its one long string (the luggage, echoed) cut out to be read apart.
    let text = String::from_utf8(landed.body).unwrap();
    let head = &text[..text.len().min(400)];
    assert_eq!(
        (
            landed.status,
            landed
                .headers
                .iter()
                .find(|(n, _)| n == "content-length")
                .map(|(_, v)| v.clone())
        ),
        (200, Some(text.len().to_string())),
        "{head}"
    );
    let (start, rest) = text
        .split_once(r#""raw":""#)
        .unwrap_or_else(|| panic!("{head}"));
    let (raw, end) = rest.split_once('"').unwrap();
    let answer: Value = serde_json::from_str(&format!(r#"{start}"raw":""{end}"#)).unwrap();
    let task = &answer["result"]["task"];
    assert_eq!(task["id"], "TP-ROOT-LARGE", "{head}");
    assert_eq!(task["artifacts"][0]["artifactId"], "data/files/big.log");
    let id = task["metadata"][EXTENSION]["landed"]["passport_id"]
        .as_str()
        .unwrap();
    // Nothing lost: the luggage landed whole, and the answer carries it whole (streamed from
    // the store, its length declared).
    let luggage = std::fs::read(store.join(format!("{id}.files/big.log"))).unwrap();
    assert!(luggage == attachment.bytes, "the landed luggage differs");
    let echoed = base64::engine::general_purpose::STANDARD
        .decode(raw)
        .unwrap();
    assert!(echoed == attachment.bytes, "the answer's luggage differs");
    // Held whole, the body (then the pack, then the answer's luggage) would grow the peak by
    // more than the body's size.
    let growth = after.saturating_sub(before);
    eprintln!(
        "peak RSS {} -> {} KiB (+{} KiB) landing a {} KiB body",
        before >> 10,
        after >> 10,
        growth >> 10,
        body.len() >> 10
    );
    assert!(
        growth < 16 << 20,
        "the peak resident set grew by {} KiB landing a {} KiB body",
        growth >> 10,
        body.len() >> 10
    );
}

#[test]
fn an_answer_streamed_with_its_luggage_is_the_librarys_answer_byte_for_byte() {
    // Binary luggage of several streamed chunks, and a last chunk that needs padding.
    let bytes: Vec<u8> = (0..(400 << 10) + 1).map(|i| (i * 7 % 251) as u8).collect();
    served_with_luggage_as_the_library_answers("door-streamed", "TP-ROOT-STREAM", bytes);
}

#[test]
fn a_small_answer_with_luggage_written_whole_is_the_librarys_answer_byte_for_byte() {
    // Under the one chunk past which an answer is streamed: written whole on the blocking pool.
    let bytes: Vec<u8> = (0..(1 << 10) + 2).map(|i| (i * 7 % 251) as u8).collect();
    served_with_luggage_as_the_library_answers("door-small-answer", "TP-ROOT-SMALL", bytes);
}

/// Lands a pack of root `root` whose one luggage file holds `bytes` through a door, then checks
/// the door's `GetTask` answer against `Door::handle`'s (bytes and `Content-Length`) and the
/// landing's artifacts against it.
fn served_with_luggage_as_the_library_answers(scratch: &str, root: &str, bytes: Vec<u8>) {
    let store = common::scratch(scratch);
    let door = start(&store, &[]);
    let luggage = [flat::LuggageFile {
        name: "blob.bin".to_owned(),
        bytes,
    }];
    let landed = post(door.addr, &[ACTIVATED], &send(&pack_with(root, &luggage)));
    assert_eq!(landed.status, 200);
    let get = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 7, "method": "GetTask",
        "params": {"id": root}}))
    .unwrap();
    let served = post(door.addr, &[ACTIVATED], &get);
    let library = specmint::taskpack::a2a::Door {
        store: specmint::taskpack::passports::PassportStore::open(&store).unwrap(),
        max_pack_bytes: specmint::taskpack::a2a::DEFAULT_MAX_PACK_BYTES,
    };
    let expected = library.handle(&get, true).to_js_compact();
    assert_eq!(served.status, 200);
    assert_eq!(
        served.header("content-length"),
        Some(expected.len().to_string().as_str())
    );
    assert!(
        served.body == expected.as_bytes(),
        "the streamed answer differs from Door::handle's"
    );
    let task: Value = serde_json::from_str(&expected).unwrap();
    let raw = task["result"]["artifacts"][0]["parts"][0]["raw"]
        .as_str()
        .unwrap();
    assert!(
        base64::engine::general_purpose::STANDARD
            .decode(raw)
            .unwrap()
            == luggage[0].bytes
    );
    // The landing's answer carries the same luggage.
    let sent: Value = serde_json::from_slice(&landed.body).unwrap();
    assert_eq!(
        sent["result"]["task"]["artifacts"],
        task["result"]["artifacts"]
    );
}

#[test]
fn a_request_whose_rest_passes_the_skeleton_bound_is_refused_and_a_bom_is_not_json() {
    let store = common::scratch("door-skeleton");
    let door = specmint::taskpack::a2a::Door {
        store: specmint::taskpack::passports::PassportStore::open(&store).unwrap(),
        max_pack_bytes: specmint::taskpack::a2a::DEFAULT_MAX_PACK_BYTES,
    };
    // A text part past 16 MiB: only `raw` strings are left in the body, the rest is held.
    let text = "x".repeat(flat::MAX_SKELETON_BYTES);
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"parts":[{{"text":"{text}"}}]}}}}}}"#
    );
    assert_eq!(
        door.handle(body.as_bytes(), true).to_js_compact(),
        format!(
            r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32600,"message":"the request body less its file parts' `raw` strings is over {} bytes: too big for this door"}}}}"#,
            flat::MAX_SKELETON_BYTES
        )
    );
    // As large a `raw` string is left in the body: read past, then decoded from it (here, to
    // its last character, which is not base64).
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{{"message":{{"parts":[{{"raw":"{text}!","filename":"p.taskpack.json"}}]}}}}}}"#
    );
    assert_eq!(
        door.handle(body.as_bytes(), true).to_js_compact(),
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"`message.parts[0].raw` is not standard base64"}}"#
    );
    // A byte order mark is not JSON text, as when the body was parsed whole.
    let get = br#"{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":"TP-NONE"}}"#;
    let with_bom = [&b"\xef\xbb\xbf"[..], get].concat();
    assert_eq!(
        door.handle(&with_bom, true).to_js_compact(),
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"the request body is not JSON"}}"#
    );
    assert_eq!(
        door.handle(get, true).to_js_compact(),
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"no task `TP-NONE`: no passport of this store has it as lineage.root_id or id"}}"#
    );
}

#[test]
fn json_rpc_takes_only_a_listed_bearer_token_and_the_card_declares_the_scheme() {
    let store = common::scratch("door-token");
    let tokens = store.join("tokens");
    std::fs::write(
        &tokens,
        "# the door's tokens\n\n  first-token-1  \nsecond.token~2/+==\n",
    )
    .unwrap();
    let door = start(&store, &["--token-file", tokens.to_str().unwrap()]);
    // The card stays public and declares the scheme, as a2a-sdk 1.3.0 reads it.
    let card = card(door.addr).json();
    assert_eq!(
        card["securitySchemes"],
        json!({"bearer": {"httpAuthSecurityScheme": {
            "description": "A token the door's operator gave you (specmint a2a serve \
                            --token-file), sent as `Authorization: Bearer TOKEN` on every \
                            JSON-RPC request.",
            "scheme": "Bearer"}}})
    );
    assert_eq!(
        card["securityRequirements"],
        json!([{"schemes": {"bearer": {"list": []}}}])
    );
    let get = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 3, "method": "GetTask",
        "params": {"id": "TP-NONE-0000"}}))
    .unwrap();
    let missing = post(door.addr, &[], &get);
    assert_eq!(missing.status, 401);
    assert_eq!(
        missing.header("www-authenticate"),
        Some(r#"Bearer realm="specmint""#)
    );
    assert_eq!(
        String::from_utf8(missing.body).unwrap(),
        "unauthorized: this door takes `Authorization: Bearer TOKEN` on JSON-RPC (the Agent \
         Card's securitySchemes)"
    );
    for wrong in [
        "Bearer first-token",
        "Bearer first-token-12",
        "Basic Zmlyc3Q=",
    ] {
        let answer = post(door.addr, &[("Authorization", wrong)], &get);
        assert_eq!(answer.status, 401, "{wrong}");
    }
    let wrong = post(door.addr, &[("Authorization", "Bearer nope")], &get);
    assert_eq!(
        wrong.header("www-authenticate"),
        Some(r#"Bearer realm="specmint", error="invalid_token""#)
    );
    // A pack sent without a token lands nothing.
    let refused = post(door.addr, &[ACTIVATED], &send(&pack("TP-ROOT-0401")));
    assert_eq!(refused.status, 401);
    assert!(passports(&store).is_empty());
    // Either token passes (the scheme's name in any case).
    for given in ["Bearer first-token-1", "bearer second.token~2/+=="] {
        let answer = post(door.addr, &[("Authorization", given)], &get);
        assert_eq!(answer.status, 200, "{given}");
        assert_eq!(answer.json()["error"]["code"], -32001);
    }
    let landed = post(
        door.addr,
        &[ACTIVATED, ("Authorization", "Bearer first-token-1")],
        &send(&pack("TP-ROOT-0401")),
    );
    assert_eq!(landed.json()["result"]["task"]["id"], "TP-ROOT-0401");
}

/// Runs `specmint a2a serve` expecting it to refuse to start: (exit code, stderr).
fn refused_to_start(store: &Path, args: &[&str]) -> (i32, String) {
    let out = command(store, args).output().unwrap();
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_token_file_that_cannot_serve_refuses_to_start() {
    let store = common::scratch("door-token-file");
    let file = store.join("tokens");
    let flag = ["--token-file", file.to_str().unwrap()];
    let (code, err) = refused_to_start(&store, &[flag[0], flag[1], "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "specmint: cannot read --token-file `{}`: ",
            file.display()
        )),
        "{err}"
    );
    std::fs::write(&file, "# nothing yet\n\n").unwrap();
    let (code, err) = refused_to_start(&store, &[flag[0], flag[1], "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
        "--token-file `{}` holds no token (one per line; blank lines and lines starting with # \
         are skipped)",
        file.display()
    )),
        "{err}"
    );
    std::fs::write(&file, "good\ntwo words\n").unwrap();
    let (code, err) = refused_to_start(&store, &[flag[0], flag[1], "--listen", "127.0.0.1:0"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(&format!(
            "--token-file `{}`, line 2: not a bearer token",
            file.display()
        )),
        "{err}"
    );
}

#[test]
fn every_address_needs_a_token_and_a_public_url() {
    let store = common::scratch("door-open");
    let (code, err) = refused_to_start(&store, &["--listen", "0.0.0.0:0"]);
    assert_eq!(code, 2);
    assert!(err.starts_with(
        "specmint: --listen 0.0.0.0:0: not a loopback address, so anyone who reaches it could land \
         packs: give --token-file FILE (or --allow-unauthenticated to serve without tokens)"
    ), "{err}");
    let (code, err) = refused_to_start(&store, &["--listen", "[::]:0", "--allow-unauthenticated"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "specmint: --listen [::]:0: every address of this machine, which the Agent Card cannot \
         advertise: give --public-url URL, the URL clients reach the door at"
        ),
        "{err}"
    );
    let (code, err) = refused_to_start(
        &store,
        &[
            "--listen",
            "127.0.0.1:0",
            "--public-url",
            "door.example:8080",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with(
            "specmint: --public-url `door.example:8080` is not an http:// or https:// URL with a host"
        ),
        "{err}"
    );
    // Given both, it serves, and the card advertises the public URL.
    let door = start(
        &store,
        &[
            "--listen",
            "0.0.0.0:0",
            "--allow-unauthenticated",
            "--public-url",
            "https://door.example/a2a/",
        ],
    );
    let addr = SocketAddr::from(([127, 0, 0, 1], door.addr.port()));
    assert_eq!(
        card(addr).json()["supportedInterfaces"][0]["url"],
        "https://door.example/a2a/"
    );
}

/// The bytes of every file under `dir`.
fn tree_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let meta = e.metadata().unwrap();
            if meta.is_dir() {
                tree_bytes(&e.path())
            } else {
                meta.len()
            }
        })
        .sum()
}

#[test]
fn the_store_quota_refuses_a_landing_past_it_before_writing_anything() {
    let store = common::scratch("door-quota");
    let one = pack("TP-ROOT-0001");
    let quota = (3 * one.len()).to_string();
    let door = start(&store, &["--max-store-bytes", &quota]);
    let mut landed = 0;
    let refusal = loop {
        let answer = post(
            door.addr,
            &[ACTIVATED],
            &send(&pack(&format!("TP-ROOT-{landed:04}"))),
        );
        let answer = answer.json();
        if answer.get("error").is_some() {
            break answer["error"].clone();
        }
        landed += 1;
        assert!(landed < 10, "the quota refused nothing");
    };
    assert!(landed >= 1);
    assert_eq!(passports(&store).len(), landed);
    // The running total is what the store holds.
    let used = tree_bytes(&store);
    let expected = format!(
        "the store is full: landing this pack ({} bytes) would pass the store quota of {quota} \
         bytes ({used} bytes used); nothing was written",
        one.len()
    );
    assert_eq!(refusal, json!({"code": -32040, "message": expected}));
    // Restarted, the door measures the store and refuses the same way.
    drop(door);
    let door = start(&store, &["--max-store-bytes", &quota]);
    let answer = post(door.addr, &[ACTIVATED], &send(&pack("TP-ROOT-0099"))).json();
    assert_eq!(
        answer["error"],
        json!({"code": -32040, "message": expected})
    );
    assert_eq!(passports(&store).len(), landed);
}

#[test]
fn slow_clients_are_cut_while_others_are_served() {
    let store = common::scratch("door-slow");
    let door = start(&store, &["--header-timeout", "1", "--body-timeout", "2"]);
    let addr = door.addr;
    // One drips its head, one its body, a byte every 100 ms, until the door cuts them.
    let head_drip = std::thread::spawn(move || {
        drip(
            addr,
            b"",
            b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: door\r\nX-Slow: ",
        )
    });
    let body_drip = std::thread::spawn(move || {
        drip(
            addr,
            b"POST / HTTP/1.1\r\nHost: door\r\nContent-Length: 100000\r\n\r\n",
            b"",
        )
    });
    // Meanwhile the card answers.
    for _ in 0..5 {
        assert_eq!(card(addr).status, 200);
        std::thread::sleep(Duration::from_millis(200));
    }
    // The head dripper got nothing; the body dripper a 408.
    assert_eq!(head_drip.join().unwrap(), b"");
    let cut = body_drip.join().unwrap();
    let cut = read_answer(&mut &cut[..]);
    assert_eq!(
        (cut.status, String::from_utf8(cut.body).unwrap()),
        (
            408,
            "the request body did not arrive within --body-timeout".to_owned()
        )
    );
}

/// Sends `head` at once, then `slow` and spaces after it a byte every 100 ms until the door
/// closes the connection (8 s at most); what the door answered meanwhile.
fn drip(addr: SocketAddr, head: &[u8], slow: &[u8]) -> Vec<u8> {
    let mut stream = connect(addr);
    let mut reader = stream.try_clone().unwrap();
    let answered = std::thread::spawn(move || read_all(&mut reader));
    stream.write_all(head).unwrap();
    let started = Instant::now();
    for byte in slow.iter().chain(std::iter::repeat(&b' ')) {
        if stream.write_all(&[*byte]).is_err() || started.elapsed() > Duration::from_secs(8) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    answered.join().unwrap()
}

fn sigterm(child: &Child) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) with a pid this test spawned and has not reaped.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
}

#[test]
fn sigterm_lets_the_landing_under_way_finish_then_exits_0() {
    let store = common::scratch("door-term");
    let mut door = start(&store, &[]);
    let body = send(&pack("TP-ROOT-0015"));
    let mut stream = connect(door.addr);
    let mut whole = request("POST", &[ACTIVATED], &body);
    let rest = whole.split_off(whole.len() - 100);
    stream.write_all(&whole).unwrap();
    // The request is under way (its head read, its body not all there) when SIGTERM comes.
    std::thread::sleep(Duration::from_millis(300));
    sigterm(&door.child);
    // It stops taking connections.
    let asked = Instant::now();
    while TcpStream::connect(door.addr).is_ok() {
        assert!(asked.elapsed() < Duration::from_secs(10), "still accepting");
        std::thread::sleep(Duration::from_millis(20));
    }
    stream.write_all(&rest).unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.json()["result"]["task"]["id"], "TP-ROOT-0015");
    assert_eq!(door.child.wait().unwrap().code(), Some(0));
    assert_eq!(passports(&store).len(), 1);
}

#[test]
fn sigterm_past_the_grace_with_a_landing_stuck_leaves_nothing_and_exits_0() {
    use specmint::test_hooks::PAUSE_BEFORE_RENAME_ENV;
    let store = common::scratch("door-term-stuck");
    let marker = store.with_extension("paused");
    let mut command = command(
        &store,
        &["--listen", "127.0.0.1:0", "--shutdown-grace", "1"],
    );
    command.env(PAUSE_BEFORE_RENAME_ENV, &marker);
    let mut door = start_command(command);
    let addr = door.addr;
    let client = std::thread::spawn(move || {
        let mut stream = connect(addr);
        stream
            .write_all(&request("POST", &[ACTIVATED], &send(&pack("TP-ROOT-0016"))))
            .unwrap();
        let mut got = Vec::new();
        let _ = stream.read_to_end(&mut got);
        got
    });
    // The landing stops before its rename (the test hook) and never goes on.
    while !marker.exists() {
        assert!(door.child.try_wait().unwrap().is_none());
        std::thread::sleep(Duration::from_millis(10));
    }
    sigterm(&door.child);
    assert_eq!(door.child.wait().unwrap().code(), Some(0));
    let mut stderr = String::new();
    door.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert_eq!(
        stderr,
        "a2a: 1 connection(s) still open after --shutdown-grace: closing them\n"
    );
    // The client got no answer, and the store holds no passport: the next arrival finds
    // nothing of this one.
    assert_eq!(client.join().unwrap(), b"");
    assert!(passports(&store).is_empty());
    let _ = std::fs::remove_file(&marker);
}

/// A self-signed certificate for `localhost` and 127.0.0.1: (certificate PEM, key PEM, DER).
fn certificate() -> (String, String, Vec<u8>) {
    let key = rcgen::KeyPair::generate().unwrap();
    let params =
        rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), key.serialize_pem(), cert.der().to_vec())
}

#[test]
fn the_door_serves_https_with_the_certificate_it_is_given() {
    let store = common::scratch("door-tls");
    let (cert, key, der) = certificate();
    let (cert_file, key_file) = (store.join("cert.pem"), store.join("key.pem"));
    std::fs::write(&cert_file, cert).unwrap();
    std::fs::write(&key_file, key).unwrap();
    let door = start(
        &store,
        &[
            "--tls-cert",
            cert_file.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
    );
    assert_eq!(door.url, format!("https://{}/", door.addr));
    let mut roots = rustls::RootCertStore::empty();
    roots.add(der.into()).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
    let tls = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let mut stream = rustls::StreamOwned::new(tls, connect(door.addr));
    stream.write_all(&request("GET", &[], b"")).unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 200);
    assert_eq!(answer.json()["supportedInterfaces"][0]["url"], door.url);
    // Plain HTTP on the TLS port gets no HTTP answer.
    let mut plain = connect(door.addr);
    plain.write_all(&request("GET", &[], b"")).unwrap();
    let mut got = Vec::new();
    let _ = plain.read_to_end(&mut got);
    assert!(!got.starts_with(b"HTTP/"), "{got:?}");
    // A certificate file that holds none, and a flag without its pair, refuse to start.
    let (code, err) = refused_to_start(
        &store,
        &[
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            key_file.to_str().unwrap(),
            "--tls-key",
            key_file.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "specmint: --tls-cert `{}` holds no certificate (PEM `BEGIN CERTIFICATE`)",
            key_file.display()
        )),
        "{err}"
    );
    let (code, err) = refused_to_start(
        &store,
        &[
            "--listen",
            "127.0.0.1:0",
            "--tls-cert",
            cert_file.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--tls-key"), "{err}");
}

/// What `stream` gives until the door closes it: the bytes, and whether it was closed (end of
/// stream or a reset) rather than left open past the read timeout.
fn read_until_closed(stream: &mut TcpStream) -> (Vec<u8>, bool) {
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 << 10];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (raw, true),
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return (raw, false)
            }
            Err(_) => return (raw, true),
        }
    }
}

/// The status lines of the responses `raw` holds (one after another's body, or first).
fn status_lines(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    text.match_indices("HTTP/1.1 ")
        .map(|(at, _)| text[at..].split("\r\n").next().unwrap().to_owned())
        .collect()
}

/// RFC 9112 §6.1: a request with both `Content-Length` and `Transfer-Encoding` is a smuggling
/// attempt (a proxy in front may have framed it by the length); the door answers it and
/// closes the connection, so what was smuggled after the chunked body is never served.
#[test]
fn a_request_with_a_length_and_chunked_is_answered_alone_and_its_connection_closed() {
    let store = common::scratch("door-cl-te");
    let door = start(&store, &["--header-timeout", "30"]);
    let smuggled = "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: door\r\n\r\n";
    for framing in [
        "Content-Length: 62\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\nContent-Length: 62\r\n",
    ] {
        let mut stream = connect(door.addr);
        stream
            .write_all(
                format!("POST / HTTP/1.1\r\nHost: door\r\n{framing}\r\n0\r\n\r\n{smuggled}")
                    .as_bytes(),
            )
            .unwrap();
        let (raw, closed) = read_until_closed(&mut stream);
        assert_eq!(
            status_lines(&raw),
            ["HTTP/1.1 200 OK"],
            "{framing:?}: {}",
            String::from_utf8_lossy(&raw)
        );
        assert!(closed, "{framing:?}: the connection was left open");
        let answer = read_answer(&mut &raw[..]);
        assert_eq!(answer.header("connection"), Some("close"));
        assert_eq!(answer.json()["error"]["code"], -32700);
    }
    // A request framed by its length alone keeps its connection, as before.
    let mut stream = connect(door.addr);
    stream
        .write_all(
            format!("POST / HTTP/1.1\r\nHost: door\r\nContent-Length: 2\r\n\r\n{{}}{smuggled}")
                .as_bytes(),
        )
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(3)))
        .unwrap();
    let (raw, _) = read_until_closed(&mut stream);
    assert_eq!(
        status_lines(&raw),
        ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"],
        "{}",
        String::from_utf8_lossy(&raw)
    );
}

/// Only `chunked`, alone, is a transfer coding the door takes (RFC 9112 §6.1: 501 for one it
/// does not implement): `gzip, chunked` would hand the landing gzip bytes. The connection is
/// closed after, its body unread.
#[test]
fn a_transfer_coding_other_than_chunked_alone_is_501_and_closes() {
    let store = common::scratch("door-te-gzip");
    let door = start(&store, &["--header-timeout", "30"]);
    for coding in ["gzip, chunked", "chunked, chunked"] {
        let mut stream = connect(door.addr);
        stream
            .write_all(
                format!(
                    "POST / HTTP/1.1\r\nHost: door\r\nTransfer-Encoding: {coding}\r\n\r\n0\r\n\r\n\
                     GET /.well-known/agent-card.json HTTP/1.1\r\nHost: door\r\n\r\n"
                )
                .as_bytes(),
            )
            .unwrap();
        let (raw, closed) = read_until_closed(&mut stream);
        assert!(closed, "{coding}: the connection was left open");
        let answer = read_answer(&mut &raw[..]);
        assert_eq!(
            (
                status_lines(&raw),
                String::from_utf8(answer.body.clone()).unwrap()
            ),
            (
                vec!["HTTP/1.1 501 Not Implemented".to_owned()],
                "the door takes `Transfer-Encoding: chunked` alone, no other transfer coding"
                    .to_owned()
            ),
            "{coding}"
        );
        assert_eq!(answer.header("connection"), Some("close"));
    }
    assert!(passports(&store).is_empty());
}

/// RFC 9112 §3.2: an HTTP/1.1 request without `Host` (or with two) is answered 400.
#[test]
fn an_http_1_1_request_without_one_host_is_400() {
    let store = common::scratch("door-no-host");
    let door = start(&store, &[]);
    for head in [
        "GET /.well-known/agent-card.json HTTP/1.1\r\nConnection: close\r\n\r\n",
        "GET /.well-known/agent-card.json HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n",
    ] {
        let mut stream = connect(door.addr);
        stream.write_all(head.as_bytes()).unwrap();
        let answer = read_answer(&mut stream);
        assert_eq!(
            (answer.status, String::from_utf8(answer.body).unwrap()),
            (
                400,
                "an HTTP/1.1 request carries one Host header (RFC 9112 §3.2)".to_owned()
            ),
            "{head:?}"
        );
    }
    // HTTP/1.0 has no Host to require.
    let mut stream = connect(door.addr);
    stream
        .write_all(b"GET /.well-known/agent-card.json HTTP/1.0\r\n\r\n")
        .unwrap();
    assert_eq!(read_answer(&mut stream).status, 200);
}

/// One response read off a kept-alive connection (its `Content-Length` body): `None` once the
/// door closed it.
fn read_one(stream: &mut TcpStream) -> Option<Answer> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let mut answer = read_answer(&mut &head[..]);
    let len: usize = answer.header("content-length")?.parse().ok()?;
    let mut body = vec![0u8; len];
    stream.read_exact(&mut body).ok()?;
    answer.body = body;
    Some(answer)
}

/// A client fetching the public card every few hundred ms on each of its connections, kept
/// alive, reconnecting whenever the door closes one, until `stop`; whether the door ever
/// closed one whose answer said `Connection: close`.
fn hog(
    addr: SocketAddr,
    ready: Arc<std::sync::Barrier>,
    stop: Arc<std::sync::atomic::AtomicBool>,
) -> bool {
    use std::sync::atomic::Ordering;
    let get = b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: door\r\n\r\n";
    let mut stream = connect(addr);
    stream.write_all(get).unwrap();
    let first = read_one(&mut stream).expect("the hog's first fetch");
    let mut told_to_close = first.header("connection") == Some("close");
    ready.wait();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(300));
        let fetched = stream
            .write_all(get)
            .ok()
            .and_then(|()| read_one(&mut stream));
        match fetched {
            Some(answer) if answer.header("connection") != Some("close") => {}
            Some(_) => {
                told_to_close = true;
                stream = connect(addr);
            }
            None => stream = connect(addr),
        }
    }
    told_to_close
}

/// Fetching the public card on kept-alive connections must not hold every slot for
/// ever. While fewer than a quarter of the slots are free, an unauthenticated request is
/// answered with `Connection: close`, so a hog's connections go back to the end of the queue
/// and a new client waiting there is served.
#[test]
fn unauthenticated_keep_alive_cannot_hold_every_slot() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let store = common::scratch("door-hog");
    let door = start(
        &store,
        &["--max-connections", "2", "--header-timeout", "30"],
    );
    let addr = door.addr;
    let ready = Arc::new(std::sync::Barrier::new(3));
    let stop = Arc::new(AtomicBool::new(false));
    let hogs: Vec<_> = (0..2)
        .map(|_| {
            let (ready, stop) = (Arc::clone(&ready), Arc::clone(&stop));
            std::thread::spawn(move || hog(addr, ready, stop))
        })
        .collect();
    ready.wait();
    // Not a timing: a door that lets the hogs keep both slots never answers this one (each
    // fetch is far within the 30 s header timeout).
    let mut stream = connect(addr);
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream.write_all(&request("GET", &[], b"")).unwrap();
    let answer = read_answer(&mut stream);
    stop.store(true, Ordering::Relaxed);
    assert_eq!(answer.status, 200);
    let told: Vec<bool> = hogs.into_iter().map(|h| h.join().unwrap()).collect();
    assert!(
        told.iter().any(|t| *t),
        "no hog was told to close: {told:?}"
    );
}

/// Authenticated requests keep their connection whatever the slots: a token holder is never
/// the one pushed out.
#[test]
fn an_authenticated_request_keeps_its_connection_when_slots_are_short() {
    let store = common::scratch("door-hog-token");
    let tokens = store.join("tokens");
    std::fs::write(&tokens, "first-token-1\n").unwrap();
    let door = start(
        &store,
        &[
            "--max-connections",
            "1",
            "--header-timeout",
            "30",
            "--token-file",
            tokens.to_str().unwrap(),
        ],
    );
    let get = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 3, "method": "GetTask",
        "params": {"id": "TP-NONE-0000"}}))
    .unwrap();
    let mut stream = connect(door.addr);
    for _ in 0..3 {
        let mut rpc = request("POST", &[("Authorization", "Bearer first-token-1")], &get);
        // Kept alive: the request without its `Connection: close`.
        let text = String::from_utf8(rpc.clone()).unwrap();
        rpc = text.replace("Connection: close\r\n", "").into_bytes();
        stream.write_all(&rpc).unwrap();
        let answer = read_one(&mut stream).expect("kept alive");
        assert_eq!(answer.header("connection"), None);
        assert_eq!(answer.json()["error"]["code"], -32001);
    }
    // The card, unauthenticated, on the one slot: answered, then closed.
    let card = {
        let mut card = request("GET", &[], b"");
        let text = String::from_utf8(card.clone()).unwrap();
        card = text.replace("Connection: close\r\n", "").into_bytes();
        card
    };
    stream.write_all(&card).unwrap();
    let answer = read_one(&mut stream).expect("the card");
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("connection"), Some("close"));
    assert!(read_one(&mut stream).is_none(), "closed after");
}

/// A refused landing leaves nothing in the temporary directory: the body spooled there and the
/// pack decoded there are removed before the answer is sent, so a temporary directory filled by
/// landings is freed by each answer (what uploads under way hold stays until they end).
#[test]
fn a_refused_landing_leaves_no_temporary_file_once_answered() {
    let store = common::scratch("door-tmp-store");
    let tmp = common::scratch("door-tmp-dir");
    let mut command = command(&store, &["--listen", "127.0.0.1:0"]);
    command.env("TMPDIR", &*tmp);
    let door = start_command(command);
    // Over 1 MiB decoded, so both the body and the pack go to temporary files.
    let attachment = flat::LuggageFile {
        name: "big.log".to_owned(),
        bytes: "a line of luggage\n".repeat(1 << 17).into_bytes(),
    };
    let flat = String::from_utf8(pack_with("TP-ROOT-TMP", &[attachment]))
        .unwrap()
        .replacen("task-passport-bag/0.1", "task-passport-bag/9.9", 1);
    let answer = post(door.addr, &[ACTIVATED], &send(flat.as_bytes())).json();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let left: Vec<String> = std::fs::read_dir(&*tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, Vec::<String>::new());
    assert!(passports(&store).is_empty());
}

/// A flat handoff whose ask has no `accept`: refused with `ask_without_accept`.
fn pack_without_accept() -> Vec<u8> {
    let pack = Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "origin":{"actor":"ds","machine":"mbp-14"},
            "lineage":{"root_id":"TP-L","from_version":1,"chain":["TP-L@1"]},
            "passport":{"id":"TP-L","goal":"g","version":1,"facts":[],"decisions":[],
              "artifacts":[],"next_steps":["n"]},
            "asks":[{"id":"a1","what":"which?"}]}"#,
    )
    .unwrap();
    flat::write_flat(&pack, &[], None).unwrap().into_bytes()
}

/// The served door's refusals in the reader's language (issue 50): a message's
/// `metadata.locale`, else the request's `Accept-Language`, else `--locale`, else the
/// environment's, else English; the A2A code and `data.code` unchanged.
#[test]
fn the_door_refuses_in_the_language_the_request_or_the_server_names() {
    let dir = common::scratch("a2a-door-locale");
    let english = json!({"code": -32602, "data": {"code": "ask_without_accept"},
        "message": "ask_without_accept: ask `a1` (asks[0]) has no accept"});
    let chinese = json!({"code": -32602, "data": {"code": "ask_without_accept"},
        "message": "ask_without_accept: 請求缺少驗收條件：必須提供 `asks[0].accept`，且不可為空白"});
    let body = send(&pack_without_accept());
    let with_metadata = |locale: &str| {
        let mut request: Value = serde_json::from_slice(&body).unwrap();
        request["params"]["message"]["metadata"] = json!({ "locale": locale });
        serde_json::to_vec(&request).unwrap()
    };
    let refused = |door: &Door, headers: &[(&str, &str)], body: &[u8]| {
        let mut all = vec![ACTIVATED];
        all.extend_from_slice(headers);
        let answer = post(door.addr, &all, body);
        assert_eq!(answer.status, 200);
        answer.json()["error"].clone()
    };
    let plain = start(&dir.join("plain"), &[]);
    assert_eq!(refused(&plain, &[], &body), english);
    assert_eq!(
        refused(&plain, &[("Accept-Language", "fr, zh-TW;q=0.8")], &body),
        chinese
    );
    assert_eq!(refused(&plain, &[], &with_metadata("zh-TW")), chinese);
    // The message's metadata outranks the header.
    assert_eq!(
        refused(
            &plain,
            &[("Accept-Language", "zh-TW")],
            &with_metadata("en")
        ),
        english
    );
    let server = start(&dir.join("server"), &["--locale", "zh-TW"]);
    assert_eq!(refused(&server, &[], &body), chinese);
    assert_eq!(
        refused(&server, &[("Accept-Language", "en-GB")], &body),
        english
    );
    // A header naming nothing the door serves leaves the server's choice.
    assert_eq!(
        refused(&server, &[("Accept-Language", "fr")], &body),
        chinese
    );
    let mut command = command(&dir.join("env"), &["--listen", "127.0.0.1:0"]);
    command.env("LANG", "zh_TW.UTF-8");
    let from_env = start_command(command);
    assert_eq!(refused(&from_env, &[], &body), chinese);
    let (code, stderr) = refused_to_start(
        &dir.join("bad"),
        &["--listen", "127.0.0.1:0", "--locale", "zh TW"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--locale: `zh TW` is not a BCP 47 language tag"),
        "{stderr}"
    );
}
