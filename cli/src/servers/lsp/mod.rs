//! `specmint lsp`: a Language Server Protocol server over stdio for a spec directory's
//! Markdown and TOML sidecar, on [`lsp_types`]' protocol types.
//!
//! The framing ([`crate::servers::framing::headers`], shared with `specmint mcp`'s line layer)
//! and the loop are the CLI's own, so that every message gets an answer: a header without
//! `Content-Length`, a body that is not UTF-8 or not JSON is answered with JSON-RPC's `-32700`
//! (`id: null`); JSON that is not a JSON-RPC 2.0 message, or a body over
//! [`MAX_BODY_BYTES`](crate::servers::framing::headers::MAX_BODY_BYTES), with `-32600`; a request before
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

pub mod analysis;
mod cells;
pub mod features;
pub mod text;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::output::CliError;
use crate::servers::framing::headers::{read_message, write_message, Incoming};
use crate::servers::framing::{error_reply, INVALID_REQUEST, NOT_INITIALIZED};
use analysis::{SpecKey, Workspace};

/// How long the changes must stop before a spec is checked again.
pub const DEBOUNCE: Duration = Duration::from_millis(10);

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
        write_message(&mut self.out, message)
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
                NOT_INITIALIZED,
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

    #[test]
    fn file_uris_are_decoded() {
        assert_eq!(
            uri_path("file:///tmp/a%20b/x.md"),
            Some(PathBuf::from("/tmp/a b/x.md"))
        );
        assert_eq!(uri_path("untitled:1"), None);
    }
}
