#![no_main]
//! One `specmint mcp` session's input, line by line, through the line layer in front of rmcp
//! (`specmint_cli::servers::framing::lines`, the program's own), and every line it passes on
//! through rmcp's own reading of a client message.
//!
//! Asserts: every non-blank line is answered here, passed on, or is a notification dropped
//! before the handshake; an answer is a JSON-RPC 2.0 error with one of the layer's three codes
//! and the request's id when one could be read (else null); only JSON-RPC 2.0 objects are passed
//! on, and the session is ready only after `initialize` and `notifications/initialized` passed.

use libfuzzer_sys::fuzz_target;
use serde_json::Value;

use specmint_cli::servers::framing::lines::{judge, Line, Session};
use specmint_cli::servers::framing::{INVALID_REQUEST, NOT_INITIALIZED, PARSE_ERROR};

fuzz_target!(|data: &[u8]| {
    let mut session = Session::New;
    let mut initialized = (false, false);
    for line in data.split(|&b| b == b'\n') {
        let before = session;
        let parsed: Option<Value> = std::str::from_utf8(line)
            .ok()
            .and_then(|t| serde_json::from_str(t).ok());
        let readable_id = parsed
            .as_ref()
            .and_then(|v| v.get("id"))
            .filter(|id| id.is_string() || id.is_number())
            .cloned();
        match judge(line, &mut session) {
            Line::Blank => assert!(std::str::from_utf8(line).is_ok_and(|t| t.trim().is_empty())),
            Line::Reply(reply) => {
                assert_eq!(reply["jsonrpc"], "2.0");
                let code = reply["error"]["code"].as_i64().unwrap();
                assert!(
                    [PARSE_ERROR, INVALID_REQUEST, NOT_INITIALIZED].contains(&code),
                    "{reply}"
                );
                assert!(!reply["error"]["message"].as_str().unwrap().is_empty());
                let id = &reply["id"];
                match &readable_id {
                    Some(read)
                        if code != PARSE_ERROR && parsed.as_ref().is_some_and(Value::is_object) =>
                    {
                        assert_eq!(id, read, "the reply carries the request's id")
                    }
                    _ => assert!(id.is_null() || id.is_string() || id.is_number(), "{reply}"),
                }
                assert_eq!(session, before, "an answered line moves nothing on");
            }
            Line::Forward => {
                let message = parsed.expect("only JSON is passed on");
                assert_eq!(message["jsonrpc"], "2.0");
                let method = message.get("method").and_then(Value::as_str);
                if method == Some("initialize") && before == Session::New {
                    initialized.0 = true;
                }
                if method == Some("notifications/initialized") && before == Session::Initializing {
                    initialized.1 = true;
                }
                // rmcp reads what is passed on: it may refuse it, never panic.
                let _ = serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(message);
            }
            Line::Drop => {
                assert_ne!(session, Session::Ready, "a ready session drops nothing");
                assert!(parsed
                    .as_ref()
                    .is_some_and(|m| m.get("id").is_none_or(Value::is_null)));
            }
        }
        if session == Session::Ready {
            assert!(
                initialized.0 && initialized.1,
                "ready without the handshake"
            );
        }
    }
});
