//! `specmint mcp`: every non-blank line is answered (issue 21, item 4), and the server keeps
//! serving after each. One server process, one line at a time, each reply read before the
//! next line is sent, so a line that went unanswered would hang here, not pass.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

#[test]
fn every_malformed_line_gets_its_json_rpc_reply_and_the_server_keeps_serving() {
    let db = common::fresh_db("mcp_lines", "lines");
    // The task tools that only read need a store: `task init` makes it.
    let init = common::specmint(&["task", "init", "--store", db.to_str().unwrap()], b"");
    assert_eq!(init.status.code(), Some(0));
    let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args(["mcp", "--store", db.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut exchange = |line: &[u8]| -> Value {
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
        let mut reply = String::new();
        stdout.read_line(&mut reply).unwrap();
        serde_json::from_str(&reply).unwrap_or_else(|e| panic!("{e}: {reply}"))
    };
    let deep_array = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let deep_call = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"name":"task_submit","arguments":{{"envelope":{}1{}}}}}}}"#,
        "[".repeat(50_000),
        "]".repeat(50_000)
    );
    let long = vec![b' '; (16 << 20) + 1];
    let before_initialize: Vec<(&[u8], Value)> = vec![
        (
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            error(
                json!(1),
                -32002,
                "the session is not initialized: send `initialize` before `tools/list`",
            ),
        ),
        (
            b"not json",
            error(
                Value::Null,
                -32700,
                "parse error: expected ident at line 1 column 2",
            ),
        ),
    ];
    for (line, reply) in before_initialize {
        assert_eq!(exchange(line), reply);
    }
    let init = exchange(
        br#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "specmint", "{init}");
    assert_eq!(
        exchange(br#"{"jsonrpc":"2.0","id":"early","method":"tools/list"}"#),
        error(
            json!("early"),
            -32002,
            "the session is not initialized: send `notifications/initialized` before `tools/list`"
        )
    );
    stdin_notify(&mut exchange);
    let cases: Vec<(&[u8], Value)> = vec![
        (
            b"not json",
            error(Value::Null, -32700, "parse error: expected ident at line 1 column 2"),
        ),
        (
            b"{",
            error(Value::Null, -32700, "parse error: EOF while parsing an object at line 1 column 1"),
        ),
        (
            b"\xff\xfe{}",
            error(Value::Null, -32700, "parse error: the line is not UTF-8 (invalid utf-8 sequence of 1 bytes from index 0)"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"} trailing"#,
            error(Value::Null, -32700, "parse error: trailing characters at line 1 column 48"),
        ),
        (
            deep_array.as_bytes(),
            error(Value::Null, -32700, "parse error: recursion limit exceeded at line 1 column 128"),
        ),
        (
            deep_call.as_bytes(),
            error(Value::Null, -32700, "parse error: recursion limit exceeded at line 1 column 226"),
        ),
        (
            &long,
            error(Value::Null, -32600, "invalid request: the line is over 16777216 bytes"),
        ),
        (
            b"[1,2]",
            error(Value::Null, -32600, "invalid request: a message is one JSON-RPC 2.0 object (batches are not taken)"),
        ),
        (
            br#"{"jsonrpc":"1.0","id":4,"method":"tools/list"}"#,
            error(json!(4), -32600, "invalid request: `jsonrpc` must be \"2.0\""),
        ),
        (
            br#"{"jsonrpc":"2.0","id":5}"#,
            error(json!(5), -32600, "invalid request: no `method`"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":6,"method":7}"#,
            error(json!(6), -32600, "invalid request: `method` must be a string"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}"#,
            error(Value::Null, -32600, "invalid request: `id` must be a string or a number"),
        ),
        (
            br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":5}"#,
            error(json!(7), -32600, "invalid request: `params` must be an object or an array"),
        ),
    ];
    for (line, reply) in cases {
        assert_eq!(
            exchange(line),
            reply,
            "{}",
            String::from_utf8_lossy(&line[..line.len().min(80)])
        );
        // Still serving: a real call answers after each.
        let list = exchange(br#"{"jsonrpc":"2.0","id":"next","method":"tools/call","params":{"name":"task_list","arguments":{}}}"#);
        assert_eq!(
            list["result"]["structuredContent"],
            json!({"ok": true, "tasks": []}),
            "{list}"
        );
    }
    // A blank line is skipped, not answered: the next reply is the next line's.
    let list = exchange(b"   \n{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}");
    assert_eq!(list["id"], 8, "{list}");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// The initialized notification gets no reply; a ping after it does.
fn stdin_notify(exchange: &mut impl FnMut(&[u8]) -> Value) {
    let pong = exchange(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"ping\",\"method\":\"ping\"}",
    );
    assert_eq!(pong, json!({"jsonrpc": "2.0", "id": "ping", "result": {}}));
}
