//! `specmint lsp` over its stdio, as an editor drives it: the requests no editor test
//! reaches (the Neovim-driven ones are `tests/peers/lsp`).

use std::io::{BufRead, Read, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::common::scratch;

fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Runs `specmint lsp` on `messages` (then `shutdown` and `exit`): its exit code and every
/// message it sent.
fn session(messages: &[Value]) -> (Option<i32>, Vec<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = Vec::new();
    let init =
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}});
    input.extend(frame(&init));
    for m in messages {
        input.extend(frame(m));
    }
    input.extend(frame(
        &json!({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}),
    ));
    input.extend(frame(&json!({"jsonrpc": "2.0", "method": "exit"})));
    let mut stdin = child.stdin.take().unwrap();
    // A server that died early closes its end: what it sent is judged below.
    let _ = stdin.write_all(&input);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let mut out = &output.stdout[..];
    let mut sent = Vec::new();
    while !out.is_empty() {
        let mut length = None;
        loop {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("a Content-Length")];
        out.read_exact(&mut body).unwrap();
        sent.push(serde_json::from_slice(&body).unwrap());
    }
    (output.status.code(), sent)
}

/// Hover, definition, references and completion on a file neither open nor on disk (deleted,
/// or a typo) answer with nothing (`null`), as for a file that is no spec's: the server used
/// to panic (exit 101) computing a position in a text without lines.
#[test]
fn requests_on_a_file_neither_open_nor_on_disk_answer_null() {
    let dir = scratch("lsp-missing");
    let mut requests = Vec::new();
    let methods = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/completion",
    ];
    for (n, method) in methods.iter().enumerate() {
        for (k, file) in ["gone.md", "gone.toml"].iter().enumerate() {
            let uri = format!("file://{}/{file}", dir.display());
            requests.push(json!({
                "jsonrpc": "2.0",
                "id": 1 + 2 * n + k,
                "method": method,
                "params": {
                    "textDocument": {"uri": uri},
                    "position": {"line": 3, "character": 5},
                    "context": {"includeDeclaration": true},
                },
            }));
        }
    }
    let (code, sent) = session(&requests);
    assert_eq!(
        code,
        Some(0),
        "the server exits as `shutdown` then `exit` say"
    );
    for request in &requests {
        let reply = sent
            .iter()
            .find(|m| m.get("id") == request.get("id"))
            .unwrap_or_else(|| panic!("no answer to {request}"));
        assert_eq!(
            reply,
            &json!({"jsonrpc": "2.0", "id": request["id"], "result": null}),
            "{request}"
        );
    }
}

/// A sidecar on disk that is a FIFO is not waited on: the server answers, and says on the
/// sidecar why it was not read.
#[cfg(unix)]
#[test]
fn a_fifo_sidecar_is_reported_not_waited_on() {
    let dir = scratch("lsp-fifo");
    let md = dir.join("a.md");
    let toml = dir.join("a.toml");
    let made = Command::new("mkfifo").arg(&toml).status().unwrap();
    assert!(made.success());
    let text = "# A\n\n## Fields of a `doc`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n| `x` | string | ✔ | X. |\n";
    let open = json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {"textDocument": {
            "uri": format!("file://{}", md.display()),
            "languageId": "markdown",
            "version": 1,
            "text": text,
        }},
    });
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(session(&[open]));
    });
    let (code, sent) = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("the server answers instead of blocking on the FIFO");
    assert_eq!(code, Some(0));
    let toml_uri = format!("file://{}", toml.display());
    let published = sent
        .iter()
        .find(|m| m["params"]["uri"] == toml_uri.as_str())
        .expect("diagnostics for the sidecar");
    let messages: Vec<&str> = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["message"].as_str())
        .collect();
    let expected = format!(
        "the file cannot be read: `{}` is a FIFO, not a regular file: refused",
        toml.display()
    );
    assert!(messages.contains(&expected.as_str()), "{messages:?}");
}

/// A shared table whose uses have their own codes and caps (issue 46): hover on a field row
/// of `address` shows the field in each of its tables (`Address`, `SellerAddress`,
/// `BuyerAddress`) with each use's path; hover on the buyer's cap row shows the schema of
/// the buyer's table (its own `maxLength`); definition of a path through either use goes to
/// the one row of the Markdown.
#[test]
fn hover_and_definition_see_each_use_of_a_shared_table() {
    let dir = scratch("lsp-shared");
    let md = dir.join("inv.md");
    std::fs::write(
        &md,
        include_str!("../../../codegen/tests/shared_tables/inv.md"),
    )
    .unwrap();
    let toml = dir.join("inv.toml");
    std::fs::write(
        &toml,
        include_str!("../../../codegen/tests/shared_tables/inv.toml"),
    )
    .unwrap();
    let (md_uri, toml_uri) = (
        format!("file://{}", md.display()),
        format!("file://{}", toml.display()),
    );
    let at = |id: u32, method: &str, uri: &str, line: u32| {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": method,
            "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": 4}},
        })
    };
    let (code, sent) = session(&[
        at(1, "textDocument/hover", &md_uri, 23),
        at(2, "textDocument/hover", &md_uri, 37),
        at(3, "textDocument/definition", &toml_uri, 12),
    ]);
    assert_eq!(code, Some(0));
    let reply = |id: u32| {
        sent.iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {id}"))["result"]
            .clone()
    };
    let field = reply(1)["contents"]["value"].as_str().unwrap().to_owned();
    for part in [
        "`address` is used at several paths with their own codes or caps, one table each: `address` (`Address`) elsewhere, `seller_address` (`SellerAddress`) at `seller.address`, `buyer_address` (`BuyerAddress`) at `buyer.address`",
        "required(code = \"BR-11\")",
        "required(code = \"BR-09\")",
        "JSON Schema (`$defs.buyer_address.properties.country_code`)",
        "JSON Schema (`$defs.address.properties.country_code`)",
    ] {
        assert!(field.contains(part), "{part}\nnot in\n{field}");
    }
    let cap = reply(2)["contents"]["value"].as_str().unwrap().to_owned();
    assert!(
        cap.contains("JSON Schema (`$defs.buyer_address.properties.line`)")
            && cap.contains("\"maxLength\": 20")
            && !cap.contains("\"maxLength\": 10"),
        "{cap}"
    );
    let def = reply(3);
    assert_eq!(def[0]["uri"], md_uri.as_str(), "{def}");
    assert_eq!(def[0]["range"]["start"]["line"], 23, "{def}");
}
