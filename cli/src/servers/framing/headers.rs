//! `specmint lsp`'s framing: one JSON-RPC message per `Content-Length: N` header and body,
//! read here (not by a library) so that every message gets an answer: a header without
//! `Content-Length`, a body that is not UTF-8 or not JSON is answered with `-32700` (`id:
//! null`); JSON that is not a JSON-RPC 2.0 message, or a body over [`MAX_BODY_BYTES`], with
//! `-32600`.

use std::io::{BufRead, Read, Write};

use serde_json::{json, Value};

use super::{error_reply, INVALID_REQUEST, PARSE_ERROR};

/// The largest message body read (a 5 MB spec in a `didOpen` fits many times over); a
/// longer one is read to its end, discarded and answered `-32600`.
pub const MAX_BODY_BYTES: usize = 64 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 8 << 10;

/// One thing read from stdin.
pub enum Incoming {
    /// A JSON-RPC message (an object with `"jsonrpc": "2.0"`).
    Message(Value),
    /// Not a message: this reply.
    Reply(Value),
}

/// Reads one framed message: `None` at the end of input.
pub fn read_message(input: &mut impl BufRead) -> std::io::Result<Option<Incoming>> {
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

/// Writes one message, framed, and flushes.
///
/// # Errors
///
/// Writing failed.
pub fn write_message(out: &mut impl Write, message: &Value) -> std::io::Result<()> {
    let body = message.to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|()| out.flush())
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
}
