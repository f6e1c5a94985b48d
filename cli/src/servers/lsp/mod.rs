//! `specmint lsp`: a Language Server Protocol server over stdio for a spec directory's
//! Markdown and TOML sidecar, on [`lsp_types`]' protocol types.
//!
//! The framing and the loop are this module's own (as `specmint mcp`'s line layer is), so
//! that every message gets an answer: a header without `Content-Length`, a body that is not
//! UTF-8 or not JSON is answered with JSON-RPC's `-32700` (`id: null`); JSON that is not a
//! JSON-RPC 2.0 message, or a body over [`MAX_BODY_BYTES`], with `-32600`; a request before
//! `initialize` with `-32002`; an unknown method with `-32601`; params that do not fit the
//! method with `-32602`. The server keeps serving after each.
//!
//! Diagnostics come from the same load and check as `specmint generate`
//! ([`specmint_codegen::load`]) run on the open buffers (a file not open is read from
//! disk). They are published for both files of the spec after `didOpen` and after the
//! changes stop for [`DEBOUNCE`] (a burst of keystrokes is checked once); every publish
//! replaces the file's whole list, so a fixed file is left with none. A file that is no
//! spec's (no sidecar and no field table) gets an empty list and answers every request.
//!
//! The features (hover, definition, references, completion, code actions, formatting,
//! document symbols) are in [`features`]; positions and ranges in [`text`].

mod analysis;
mod features;
mod text;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::mcp::framing::{error_reply, INVALID_REQUEST, PARSE_ERROR};
use crate::CliError;
use analysis::{SpecKey, Workspace};

/// The largest message body read (a 5 MB spec in a `didOpen` fits many times over); a
/// longer one is read to its end, discarded and answered `-32600`.
pub const MAX_BODY_BYTES: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 8 << 10;
/// How long the changes must stop before a spec is checked again.
pub const DEBOUNCE: Duration = Duration::from_millis(10);

/// JSON-RPC: the method is not one the server has.
const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC: the params do not fit the method.
const INVALID_PARAMS: i64 = -32602;
/// LSP: a request before `initialize`.
const SERVER_NOT_INITIALIZED: i64 = -32002;

/// One thing read from stdin.
enum Incoming {
    /// A JSON-RPC message (an object with `"jsonrpc": "2.0"`).
    Message(Value),
    /// Not a message: this reply.
    Reply(Value),
}

/// Reads one framed message: `None` at the end of input.
fn read_message(input: &mut impl BufRead) -> std::io::Result<Option<Incoming>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_any = false;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER_LINE as u64)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            return Ok(if saw_any {
                Some(Incoming::Reply(error_reply(
                    Value::Null,
                    PARSE_ERROR,
                    "parse error: the input ended inside a message's header",
                )))
            } else {
                None
            });
        }
        saw_any = true;
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length =
                    Some(value.trim().parse::<usize>().map_err(|_| {
                        format!("`Content-Length: {}` is not a length", value.trim())
                    }));
            }
        }
    }
    let length = match length {
        Some(Ok(n)) => n,
        Some(Err(why)) => return Ok(Some(parse_error(&why))),
        None => return Ok(Some(parse_error("the header has no `Content-Length`"))),
    };
    if length > MAX_BODY_BYTES {
        std::io::copy(
            &mut input.by_ref().take(length as u64),
            &mut std::io::sink(),
        )?;
        return Ok(Some(Incoming::Reply(error_reply(
            Value::Null,
            INVALID_REQUEST,
            &format!(
                "invalid request: the message is {length} bytes, over the {MAX_BODY_BYTES} read"
            ),
        ))));
    }
    let mut body = vec![0; length];
    if let Err(e) = input.read_exact(&mut body) {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            return Ok(Some(parse_error(
                "the input ended before `Content-Length` bytes",
            )));
        }
        return Err(e);
    }
    Ok(Some(judge(&body)))
}

fn parse_error(why: &str) -> Incoming {
    Incoming::Reply(error_reply(
        Value::Null,
        PARSE_ERROR,
        &format!("parse error: {why}"),
    ))
}

/// A body: a JSON-RPC 2.0 message, or the reply that says why not.
fn judge(body: &[u8]) -> Incoming {
    let text = match std::str::from_utf8(body) {
        Ok(t) => t,
        Err(e) => return parse_error(&format!("the message is not UTF-8 ({e})")),
    };
    let message: Value = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return parse_error(&e.to_string()),
    };
    let id = message
        .get("id")
        .filter(|i| i.is_string() || i.is_number())
        .cloned()
        .unwrap_or(Value::Null);
    let invalid = |why: &str| {
        Incoming::Reply(error_reply(
            id.clone(),
            INVALID_REQUEST,
            &format!("invalid request: {why}"),
        ))
    };
    let Some(object) = message.as_object() else {
        return invalid("a message is one JSON-RPC 2.0 object (batches are not taken)");
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    match object.get("method") {
        Some(Value::String(_)) => Incoming::Message(message),
        Some(_) => invalid("`method` must be a string"),
        None if object.contains_key("result") || object.contains_key("error") => {
            Incoming::Message(message)
        }
        None => invalid("no `method`"),
    }
}

/// Serves LSP on stdin/stdout until `exit` or the end of input.
pub fn run() -> Result<u8, CliError> {
    let (tx, rx) = mpsc::channel::<Incoming>();
    std::thread::spawn(move || {
        let mut input = BufReader::new(std::io::stdin().lock());
        // An I/O error on stdin ends the session as its end does.
        while let Ok(Some(m)) = read_message(&mut input) {
            if tx.send(m).is_err() {
                break;
            }
        }
    });
    let mut server = Server {
        out: std::io::stdout().lock(),
        ws: Workspace::default(),
        state: State::New,
        dirty: BTreeSet::new(),
        last_change: Instant::now(),
    };
    loop {
        let next = if server.dirty.is_empty() {
            rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            let wait = DEBOUNCE.saturating_sub(server.last_change.elapsed());
            rx.recv_timeout(wait)
        };
        match next {
            Ok(Incoming::Reply(reply)) => server.send(&reply)?,
            Ok(Incoming::Message(m)) => {
                if let Some(code) = server.handle(m)? {
                    return Ok(code);
                }
            }
            Err(RecvTimeoutError::Timeout) => server.flush_diagnostics()?,
            // The client went away without `exit`: as `exit` without `shutdown` says.
            Err(RecvTimeoutError::Disconnected) => return Ok(1),
        }
    }
}

#[derive(PartialEq)]
enum State {
    New,
    Running,
    ShutDown,
}

struct Server<W: Write> {
    out: W,
    ws: Workspace,
    state: State,
    /// Specs changed since they were last checked.
    dirty: BTreeSet<SpecKey>,
    last_change: Instant,
}

impl<W: Write> Server<W> {
    fn send(&mut self, message: &Value) -> Result<(), CliError> {
        let body = message.to_string();
        write!(self.out, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.out.flush())
            .map_err(|e| CliError::Failure(format!("cannot write to the client: {e}")))
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), CliError> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// Handles one message; `Some(status)` when the server is to exit.
    fn handle(&mut self, m: Value) -> Result<Option<u8>, CliError> {
        let Some(method) = m.get("method").and_then(Value::as_str).map(str::to_owned) else {
            return Ok(None); // a response to a request of ours: none is sent
        };
        let id = m.get("id").cloned();
        let params = m.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = id else {
            return self.notification(&method, params);
        };
        let reply = match (&self.state, method.as_str()) {
            (State::New, "initialize") => {
                self.state = State::Running;
                Ok(initialize_result())
            }
            (State::New, _) => Err((
                SERVER_NOT_INITIALIZED,
                format!("the server is not initialized: send `initialize` before `{method}`"),
            )),
            (State::Running, "initialize") => Err((
                INVALID_REQUEST,
                "invalid request: `initialize` was already sent".to_owned(),
            )),
            (State::ShutDown, _) => Err((
                INVALID_REQUEST,
                format!("invalid request: the server is shut down (`{method}` after `shutdown`)"),
            )),
            (State::Running, "shutdown") => {
                self.state = State::ShutDown;
                Ok(Value::Null)
            }
            (State::Running, _) => {
                self.flush_diagnostics()?;
                features::request(&mut self.ws, &method, params)
            }
        };
        let message = match reply {
            Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
            Err((code, message)) => error_reply(id, code, &message),
        };
        self.send(&message)?;
        Ok(None)
    }

    fn notification(&mut self, method: &str, params: Value) -> Result<Option<u8>, CliError> {
        if method == "exit" {
            return Ok(Some(u8::from(self.state != State::ShutDown)));
        }
        if self.state != State::Running {
            return Ok(None);
        }
        let uri = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .map(str::to_owned);
        match (method, uri) {
            ("textDocument/didOpen", Some(uri)) => {
                let text = params
                    .pointer("/textDocument/text")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let key = self.ws.open(&uri, text.to_owned());
                if let Some(key) = key {
                    self.dirty.remove(&key);
                    self.publish(&key)?;
                } else {
                    self.notify(
                        "textDocument/publishDiagnostics",
                        json!({ "uri": uri, "diagnostics": [] }),
                    )?;
                }
            }
            ("textDocument/didChange", Some(uri)) => {
                let changes = params
                    .get("contentChanges")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                if let Some(key) = self.ws.change(&uri, &changes) {
                    self.dirty.insert(key);
                    self.last_change = Instant::now();
                }
            }
            ("textDocument/didSave", Some(uri)) => {
                if let Some(key) = self.ws.key_of(&uri) {
                    self.dirty.insert(key);
                }
            }
            ("textDocument/didClose", Some(uri)) => {
                if let Some(key) = self.ws.close(&uri) {
                    self.dirty.insert(key);
                }
            }
            _ => {}
        }
        Ok(None)
    }

    /// Checks every changed spec and publishes its diagnostics.
    fn flush_diagnostics(&mut self) -> Result<(), CliError> {
        for key in std::mem::take(&mut self.dirty) {
            self.publish(&key)?;
        }
        Ok(())
    }

    fn publish(&mut self, key: &SpecKey) -> Result<(), CliError> {
        let published: BTreeMap<String, Value> = self.ws.diagnostics(key);
        for (uri, diagnostics) in published {
            self.notify(
                "textDocument/publishDiagnostics",
                json!({ "uri": uri, "diagnostics": diagnostics }),
            )?;
        }
        Ok(())
    }
}

fn initialize_result() -> Value {
    json!({
        "capabilities": {
            "positionEncoding": "utf-16",
            "textDocumentSync": { "openClose": true, "change": 2, "save": true },
            "hoverProvider": true,
            "definitionProvider": true,
            "referencesProvider": true,
            "completionProvider": { "triggerCharacters": ["|", "`", "\"", " ", "."] },
            "codeActionProvider": { "codeActionKinds": ["quickfix"] },
            "documentFormattingProvider": true,
            "documentSymbolProvider": true,
        },
        "serverInfo": { "name": "specmint", "version": env!("CARGO_PKG_VERSION") },
    })
}

/// The path of a `file:` URI (percent-decoded), or `None` for another scheme.
pub fn uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if let (b'%', Some(b)) = (bytes[i], hex) {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8(out).ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply_of(input: &[u8]) -> Value {
        match read_message(&mut &input[..]).unwrap().unwrap() {
            Incoming::Reply(r) => r,
            Incoming::Message(m) => panic!("read as a message: {m}"),
        }
    }

    #[test]
    fn malformed_messages_are_answered() {
        let r = reply_of(b"Content-Length: 3\r\n\r\n{x}");
        assert_eq!(r["error"]["code"], -32700);
        let r = reply_of(b"Content-Length: 2\r\n\r\n\xff\xfe");
        assert_eq!(r["error"]["code"], -32700);
        let r = reply_of(b"X: 1\r\n\r\n");
        assert_eq!(
            r["error"]["message"],
            "parse error: the header has no `Content-Length`"
        );
        let r = reply_of(b"Content-Length: 9\r\n\r\n{\"id\":7}\n");
        assert_eq!(
            (r["error"]["code"].clone(), r["id"].clone()),
            (json!(-32600), json!(7))
        );
        let r = reply_of(b"Content-Length: 2\r\n\r\n[]");
        assert_eq!(r["error"]["code"], -32600);
    }

    /// A body over [`MAX_BODY_BYTES`] is read to its end, discarded and answered `-32600`,
    /// and the message after it is read as usual: the stream stays in step.
    #[test]
    fn an_oversized_body_is_answered_and_skipped() {
        let length = MAX_BODY_BYTES + 1;
        let mut input = format!("Content-Length: {length}\r\n\r\n").into_bytes();
        input.resize(input.len() + length, b' ');
        input.extend_from_slice(b"Content-Length: 2\r\n\r\n[]");
        let mut reader = &input[..];
        let Some(Incoming::Reply(r)) = read_message(&mut reader).unwrap() else {
            panic!("not answered");
        };
        assert_eq!(r["error"]["code"], -32600);
        assert_eq!(
            r["error"]["message"],
            format!(
                "invalid request: the message is {length} bytes, over the {MAX_BODY_BYTES} read"
            )
        );
        let Some(Incoming::Reply(next)) = read_message(&mut reader).unwrap() else {
            panic!("the next message was not read");
        };
        assert_eq!(next["error"]["code"], -32600);
        assert!(reader.is_empty());
    }

    #[test]
    fn file_uris_are_decoded() {
        assert_eq!(
            uri_path("file:///tmp/a%20b/x.md"),
            Some(PathBuf::from("/tmp/a b/x.md"))
        );
        assert_eq!(uri_path("untitled:1"), None);
    }
}
