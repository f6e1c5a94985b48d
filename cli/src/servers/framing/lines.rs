//! `specmint mcp`'s framing, the line layer in front of rmcp: every non-blank line on stdin is
//! answered.
//!
//! rmcp's stdio transport drops a line it cannot read without a word, and the caller waits
//! forever. So the server reads stdin itself, one line (one JSON-RPC message) at a time, and
//! only a line that is a JSON-RPC 2.0 message reaches rmcp, through an in-memory duplex
//! pipe; rmcp's replies and this layer's own share stdout, one whole line at a time. The
//! rules (guide/src/operating.md, "The MCP server's lines"):
//!
//! - a line longer than [`MAX_LINE_BYTES`] is read to its end and discarded: `-32600`;
//! - not UTF-8, not JSON, text after the value, nesting deeper than serde_json's 128 levels
//!   (a 100k-deep array, a packet 50k levels deep): `-32700` parse error;
//! - JSON that is not a JSON-RPC 2.0 message object (an array, `"jsonrpc"` not `"2.0"`, no
//!   `method` string and no `result`/`error`): `-32600` invalid request;
//! - a request other than `initialize` before the session is initialized (`initialize`
//!   answered, `notifications/initialized` sent): `-32002`, saying to initialize first; a
//!   notification then is dropped, as JSON-RPC never answers one;
//! - the reply carries the request's `id` when one can be read (a string or a number),
//!   else `id: null`; blank lines are skipped; the server keeps serving after each.

use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::sync::Mutex;

use super::{error_reply, INVALID_REQUEST, NOT_INITIALIZED, PARSE_ERROR};

/// The longest line read (a JSON-RPC message, its newline excluded): 16 MiB, above the
/// largest document a tool takes (a TaskPacket, an envelope) with room for JSON-RPC around it.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// What became of one line.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// Nothing to do (blank).
    Blank,
    /// A JSON-RPC message for rmcp.
    Forward,
    /// Answered here: this reply.
    Reply(Value),
    /// A notification that cannot be handled yet: dropped, unanswered.
    Drop,
}

/// Where the session is: rmcp takes requests only after the handshake.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub enum Session {
    /// Nothing forwarded yet: only `initialize` goes through.
    #[default]
    New,
    /// `initialize` forwarded: waiting for `notifications/initialized`.
    Initializing,
    /// Everything goes through.
    Ready,
}

/// Judges one line (without its newline), moving `session` on when it is forwarded.
pub fn judge(line: &[u8], session: &mut Session) -> Line {
    let text = match std::str::from_utf8(line) {
        Ok(text) => text,
        Err(e) => {
            return Line::Reply(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!("parse error: the line is not UTF-8 ({e})"),
            ))
        }
    };
    if text.trim().is_empty() {
        return Line::Blank;
    }
    let message: Value = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => {
            return Line::Reply(error_reply(
                Value::Null,
                PARSE_ERROR,
                &format!("parse error: {e}"),
            ))
        }
    };
    let Value::Object(object) = &message else {
        return Line::Reply(error_reply(
            Value::Null,
            INVALID_REQUEST,
            "invalid request: a message is one JSON-RPC 2.0 object (batches are not taken)",
        ));
    };
    let id = match object.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id.clone()),
        _ => None,
    };
    let invalid = |why: &str| {
        Line::Reply(error_reply(
            id.clone().unwrap_or(Value::Null),
            INVALID_REQUEST,
            &format!("invalid request: {why}"),
        ))
    };
    if object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    if object
        .get("id")
        .is_some_and(|i| id.is_none() && !i.is_null())
    {
        return invalid("`id` must be a string or a number");
    }
    let method = match object.get("method") {
        Some(Value::String(method)) => method.as_str(),
        Some(_) => return invalid("`method` must be a string"),
        None if id.is_some() && (object.contains_key("result") || object.contains_key("error")) => {
            // A response to a request of the server's.
            return Line::Forward;
        }
        None => return invalid("no `method`"),
    };
    if object
        .get("params")
        .is_some_and(|p| !p.is_object() && !p.is_array())
    {
        return invalid("`params` must be an object or an array");
    }
    match (*session, method, &id) {
        (Session::Ready, _, _) => Line::Forward,
        (Session::New, "initialize", Some(_)) => {
            *session = Session::Initializing;
            Line::Forward
        }
        (Session::Initializing, "notifications/initialized", None) => {
            *session = Session::Ready;
            Line::Forward
        }
        (_, _, None) => Line::Drop,
        (state, _, Some(id)) => {
            let why = if state == Session::New {
                format!("the session is not initialized: send `initialize` before `{method}`")
            } else {
                format!(
                    "the session is not initialized: send `notifications/initialized` before `{method}`"
                )
            };
            Line::Reply(error_reply(id.clone(), NOT_INITIALIZED, &why))
        }
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`] into `line` (newline dropped). Returns
/// `None` at the end of input, `Some(false)` when the line was longer (the rest of it is
/// read and discarded).
async fn read_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut fits = true;
    let mut any = false;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(any.then_some(fits));
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..at], at + 1),
            None => (buf, buf.len()),
        };
        let ends = done > chunk.len();
        if fits && line.len() + chunk.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(chunk);
        } else {
            fits = false;
            line.clear();
        }
        input.consume(done);
        if ends {
            return Ok(Some(fits));
        }
    }
}

/// Writes one whole line to the shared output.
async fn write_line(output: &Mutex<impl AsyncWrite + Unpin>, line: &[u8]) -> std::io::Result<()> {
    let mut output = output.lock().await;
    output.write_all(line).await?;
    output.write_all(b"\n").await?;
    output.flush().await
}

/// Serves `input` to rmcp's end of the pipe (`to_rmcp`, `from_rmcp`) and answers here what
/// rmcp would not, everything written to `output`. Returns at the end of input once rmcp's
/// replies are written.
///
/// # Errors
///
/// Reading the input or writing the output failed.
pub async fn serve(
    mut input: impl AsyncBufRead + Unpin,
    output: impl AsyncWrite + Unpin + Send + 'static,
    pipe: DuplexStream,
) -> std::io::Result<()> {
    let output = Arc::new(Mutex::new(output));
    let (from_rmcp, mut to_rmcp) = tokio::io::split(pipe);
    let replies = {
        let output = Arc::clone(&output);
        async move {
            let mut from_rmcp = tokio::io::BufReader::new(from_rmcp);
            let mut line = Vec::new();
            loop {
                line.clear();
                if from_rmcp.read_until(b'\n', &mut line).await? == 0 {
                    return Ok::<_, std::io::Error>(());
                }
                let text = line.strip_suffix(b"\n").unwrap_or(&line);
                write_line(&output, text).await?;
            }
        }
    };
    let requests = async move {
        let mut session = Session::New;
        let mut line = Vec::new();
        while let Some(fits) = read_line(&mut input, &mut line).await? {
            let verdict = if fits {
                judge(&line, &mut session)
            } else {
                Line::Reply(error_reply(
                    Value::Null,
                    INVALID_REQUEST,
                    &format!("invalid request: the line is over {MAX_LINE_BYTES} bytes"),
                ))
            };
            match verdict {
                Line::Blank | Line::Drop => {}
                Line::Forward => {
                    to_rmcp.write_all(&line).await?;
                    to_rmcp.write_all(b"\n").await?;
                    to_rmcp.flush().await?;
                }
                Line::Reply(reply) => write_line(&output, reply.to_string().as_bytes()).await?,
            }
        }
        // The end of input ends rmcp's too.
        to_rmcp.shutdown().await
    };
    let (sent, answered) = tokio::join!(requests, replies);
    sent.and(answered)
}
