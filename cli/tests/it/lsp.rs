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

/// A shipment spec whose conditions read an enum, a list's items and a `bool`.
const SHIP_MD: &str = "# Ship v1

## Fields of a `shipment`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `mode` | mode | ✔ `no_mode` | How. |
| `zone` | zone? | — | Where. |
| `parcels` | parcel[] | — | The parcels. |
| `customs_ref` | string? | unless `zone` is `domestic` | The customs reference. |
| `hazmat` | string? | if any `parcels[].fragile` is `true` | The hazmat class. |

## Fields of a `parcel`

| Field | Type | Required | Meaning |
|---|---|---|---|
| `fragile` | bool | ✔ | Whether fragile. |

## Modes: `mode`

| Value | Meaning |
|---|---|
| `air` | Air. |
| `sea` | Sea. |
| `Road` | Road. |

## Zones: `zone`

| Value | Meaning |
|---|---|
| `domestic` | Domestic. |
| `eu` | Within the EU. |

## Error codes

| Code | When |
|---|---|
| `bad_doc` | Not the shape. |
| `no_mode` | No mode. |
| `no_ref` | No customs reference. |
";

const SHIP_TOML: &str =
    "[spec]\nroot = \"shipment\"\n\n[errors]\nparse = \"bad_doc\"\nrequired_if = \"no_ref\"\n";

fn did_open(uri: &str, text: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {"textDocument": {
            "uri": uri, "languageId": "markdown", "version": 1, "text": text,
        }},
    })
}

/// Opens `md` (with `toml` on disk beside it) and sends `request` at the end of each line
/// of `at` (1-based lines of `md`): each answer's result, in order, and every message sent.
fn ask_at(md: &str, toml: &str, method: &str, at: &[(usize, usize)]) -> (Vec<Value>, Vec<Value>) {
    let dir = scratch("lsp-cells");
    std::fs::write(dir.join("ship.toml"), toml).unwrap();
    let uri = format!("file://{}", dir.join("ship.md").display());
    let mut messages = vec![did_open(&uri, md)];
    for (n, &(line, character)) in at.iter().enumerate() {
        messages.push(json!({
            "jsonrpc": "2.0",
            "id": 1 + n,
            "method": method,
            "params": {
                "textDocument": {"uri": uri},
                "position": {"line": line - 1, "character": character},
            },
        }));
    }
    let (code, sent) = session(&messages);
    assert_eq!(code, Some(0));
    let results = (1..=at.len())
        .map(|id| {
            sent.iter()
                .find(|m| m["id"] == id)
                .unwrap_or_else(|| panic!("no answer {id}"))["result"]
                .clone()
        })
        .collect();
    (results, sent)
}

/// The spec with `row` added as the last row of the `shipment` table: the text, the row's
/// 1-based line and its length in UTF-16 units (the cursor at its end).
fn with_row(row: &str) -> (String, usize, usize) {
    let after = "| `hazmat` |";
    let at = SHIP_MD.find(after).unwrap();
    let eol = at + SHIP_MD[at..].find('\n').unwrap() + 1;
    let text = format!("{}{row}\n{}", &SHIP_MD[..eol], &SHIP_MD[eol..]);
    let line = SHIP_MD[..eol].lines().count() + 1;
    (text, line, row.encode_utf16().count())
}

/// The labels of the completion items at the end of `row` (a new last row of `shipment`).
fn labels_after(row: &str) -> Vec<String> {
    let (md, line, character) = with_row(row);
    let (results, _) = ask_at(
        &md,
        SHIP_TOML,
        "textDocument/completion",
        &[(line, character)],
    );
    results[0]
        .as_array()
        .unwrap_or_else(|| panic!("a list of items after `{row}`: {}", results[0]))
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_owned())
        .collect()
}

/// A broken row (an unknown type) whose Required cell names a code: the type is reported,
/// and the code (which only that row produces) is not also "produced by nothing".
#[test]
fn a_broken_row_publishes_no_produced_by_nothing_for_its_code() {
    let md = SHIP_MD.replace(
        "| `mode` | mode | ✔ `no_mode` |",
        "| `mode` | mood | ✔ `no_mode` |",
    );
    let (_, sent) = ask_at(&md, SHIP_TOML, "textDocument/hover", &[]);
    let messages: Vec<String> = sent
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .flat_map(|m| m["params"]["diagnostics"].as_array().unwrap().clone())
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("unknown type `mood`")),
        "{messages:?}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("produced by nothing")),
        "{messages:?}"
    );
}

/// A Type cell offers what starts with the word being typed, case ignored: base types,
/// tables, formats and qualifiers, and after a whole type name its `?` / `[]` forms.
#[test]
fn type_cell_completion_is_filtered_by_the_word_typed_and_offers_the_qualifiers() {
    let labels = labels_after("| `x` | NON");
    assert_eq!(labels, ["non-blank"]);
    let labels = labels_after("| `x` | non-blank str");
    assert_eq!(labels, ["string"]);
    let labels = labels_after("| `x` | d");
    assert_eq!(labels, ["decimal(2)", "date-time", "date"]);
    let labels = labels_after("| `x` | deci");
    assert_eq!(labels, ["decimal(2)"]);
    let labels = labels_after("| `x` | zo");
    assert_eq!(labels, ["zone"]);
    let labels = labels_after("| `x` | parcel");
    assert_eq!(labels, ["parcel", "parcel?", "parcel[]", "parcel[]?"]);
    let labels = labels_after("| `x` | string ");
    for q in [
        "relative-path",
        "matching `REGEX`",
        "?",
        "[]",
        "1..=10",
        "non-blank",
        "email",
    ] {
        assert!(labels.contains(&q.to_owned()), "{q} in {labels:?}");
    }
    let labels = labels_after("| `x` | string m");
    assert_eq!(labels, ["mode", "matching `REGEX`"]);
}

/// The details say what each qualifier and format is.
#[test]
fn type_cell_items_say_what_each_is() {
    let (md, line, character) = with_row("| `x` | ");
    let (results, _) = ask_at(
        &md,
        SHIP_TOML,
        "textDocument/completion",
        &[(line, character)],
    );
    let detail = |label: &str| {
        results[0]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == label)
            .unwrap_or_else(|| panic!("no `{label}`"))["detail"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert!(detail("date-time").starts_with("format: an RFC 3339 date-time"));
    assert!(detail("?").contains("absent or `null` allowed"));
    assert!(detail("1..=10").contains("inclusive range"));
    assert_eq!(detail("mode"), "table of this spec");
}

/// A Required cell offers its forms, the codes after `✔`, the table's fields after `if` /
/// `unless` (the lists' members after `any`), and the values of the field named after `is`.
#[test]
fn required_cell_completion_offers_forms_codes_fields_and_values() {
    let labels = labels_after("| `x` | string? | ");
    for form in [
        "✔",
        "✔ `no_mode`",
        "—",
        "— (default V)",
        "if `field` is `value`",
        "if `field` is `a`, `b` or `c`",
        "if `field` is not `value`",
        "unless `field` is `value`",
        "if any `list[].field` is `value`",
        "if every `list[].field` is `value`",
    ] {
        assert!(labels.contains(&form.to_owned()), "{form} in {labels:?}");
    }
    assert_eq!(
        labels_after("| `x` | string? | UNL"),
        ["unless `field` is `value`"]
    );
    assert_eq!(
        labels_after("| `x` | string? | ✔ `no_"),
        ["no_mode", "no_ref"]
    );
    assert_eq!(
        labels_after("| `x` | string? | ✔ "),
        ["`bad_doc`", "`no_mode`", "`no_ref`"]
    );
    assert_eq!(
        labels_after("| `x` | string? | if `"),
        ["mode", "zone", "parcels", "customs_ref", "hazmat"]
    );
    assert_eq!(labels_after("| `x` | string? | unless `z"), ["zone"]);
    assert_eq!(
        labels_after("| `x` | string? | if any `"),
        ["parcels[].fragile"]
    );
    assert_eq!(
        labels_after("| `x` | string? | if `mode` is "),
        ["`air`", "`sea`", "`Road`"]
    );
    assert_eq!(
        labels_after("| `x` | string? | if `mode` is `air` or `r"),
        ["Road"]
    );
    assert_eq!(
        labels_after("| `x` | string? | if `zone` is not `"),
        ["domestic", "eu"]
    );
    assert_eq!(
        labels_after("| `x` | string? | if any `parcels[].fragile` is `"),
        ["true", "false"]
    );
    assert_eq!(
        labels_after("| `x` | mode | — (default "),
        ["air", "sea", "Road"],
        "the row's own enum values"
    );
}

/// Hover on a Required cell's condition says what it reads and when it holds.
#[test]
fn hover_on_a_condition_explains_it() {
    let line_of = |key: &str| {
        SHIP_MD
            .lines()
            .position(|l| l.starts_with(&format!("| `{key}`")))
            .unwrap()
            + 1
    };
    let column_of = |key: &str, cell: &str| {
        let l = SHIP_MD.lines().nth(line_of(key) - 1).unwrap();
        l[..l.find(cell).unwrap()].encode_utf16().count() + 2
    };
    let at = [
        (line_of("customs_ref"), column_of("customs_ref", "unless")),
        (line_of("hazmat"), column_of("hazmat", "if any")),
        (line_of("hazmat"), 3),
    ];
    let (results, _) = ask_at(SHIP_MD, SHIP_TOML, "textDocument/hover", &at);
    let text = |r: &Value| r["contents"]["value"].as_str().unwrap().to_owned();
    let unless = text(&results[0]);
    assert!(unless.starts_with("**Condition**: `customs_ref` is required when `zone` is not `domestic`; absent, `null` or blank while it holds is error `no_ref`."), "{unless}");
    assert!(
        unless
            .contains("Reads `zone` from the `shipment` the row belongs to: `zone` of `shipment`."),
        "{unless}"
    );
    assert!(
        unless.contains("Holds when the value is not `domestic`, or is absent or `null`."),
        "{unless}"
    );
    let any = text(&results[1]);
    assert!(
        any.contains("`parcels` of `shipment` (each item), then `fragile` of `parcel`"),
        "{any}"
    );
    assert!(
        any.contains("Holds when at least one value reached is `true`."),
        "{any}"
    );
    assert!(
        !text(&results[2]).contains("**Condition**"),
        "only the Required cell explains the condition"
    );
}

/// In the sidecar: after `[[` the rule tables (the ones under a condition among them); after
/// `fields = ["` the spec's field paths; after `must = "` what a `[[value_if]]` may require;
/// after `if = "` a field path to start a condition with (issue 46).
#[test]
fn sidecar_completion_offers_the_rule_tables_and_what_their_keys_take() {
    let dir = scratch("lsp-sidecar");
    std::fs::write(dir.join("ship.md"), SHIP_MD).unwrap();
    let toml_uri = format!("file://{}", dir.join("ship.toml").display());
    let lines = [
        "[[",
        "[[any_of]]",
        "fields = [\"",
        "[[value_if]]",
        "must = \"",
        "if = \"",
    ];
    let text = format!("{SHIP_TOML}\n{}\n", lines.join("\n"));
    let first = SHIP_TOML.lines().count() + 2;
    let mut messages = vec![json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": {"textDocument": {
            "uri": toml_uri, "languageId": "toml", "version": 1, "text": text,
        }},
    })];
    let asked = [0, 2, 4, 5];
    for (n, &k) in asked.iter().enumerate() {
        messages.push(json!({
            "jsonrpc": "2.0",
            "id": 1 + n,
            "method": "textDocument/completion",
            "params": {
                "textDocument": {"uri": toml_uri},
                "position": {"line": first + k - 1, "character": lines[k].len()},
            },
        }));
    }
    let (code, sent) = session(&messages);
    assert_eq!(code, Some(0));
    let labels = |id: usize| -> Vec<String> {
        sent.iter()
            .find(|m| m["id"] == id)
            .unwrap_or_else(|| panic!("no answer {id}"))["result"]
            .as_array()
            .unwrap_or_else(|| panic!("items for {id}"))
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    };
    let tables = labels(1);
    for t in [
        "unique",
        "not_equal",
        "required_if",
        "any_of",
        "one_of",
        "value_if",
    ] {
        assert!(tables.iter().any(|l| l == t), "{t}: {tables:?}");
    }
    let fields = labels(2);
    assert!(fields.iter().any(|l| l == "mode"), "{fields:?}");
    assert!(
        !fields.iter().any(|l| l == "bad_doc"),
        "no codes for `fields`: {fields:?}"
    );
    assert_eq!(labels(3), ["> 0", ">= 0", "= 0", "<= 0", "< 0", "absent"]);
    let condition = labels(4);
    assert!(condition.iter().any(|l| l == "`mode` is "), "{condition:?}");
}

/// A rules table (issue 47): hover on a row shows the rule as the runtime reads it back and
/// its code's meaning; completion offers the codes, the objects a rule may sit on and the
/// members and functions of the Rule cell; a rule that does not read is published at its
/// column.
#[test]
fn a_rules_table_has_hover_completion_and_diagnostics() {
    let rules = "\n## Rules\n\n| Code | On | Rule |\n|---|---|---|\n| `no_ref` | `parcels[]` | `not fragile or fragile = true` |\n| `no_mode` | — | `count(parcels[].fragile) <= 3` |\n";
    let md = format!("{SHIP_MD}{rules}");
    let line = md.lines().count();
    let row = md.lines().last().unwrap();
    let code_at = 3;
    let (results, _) = ask_at(&md, SHIP_TOML, "textDocument/hover", &[(line, code_at)]);
    let hover = results[0]["contents"]["value"].as_str().unwrap().to_owned();
    assert!(
        hover.starts_with("Rule `no_mode` on `shipment`: `count(parcels[].fragile) <= 3`"),
        "{hover}"
    );
    assert!(hover.contains("`x-rules`"), "{hover}");
    assert!(
        hover.contains("Error code `no_mode`, raised by:"),
        "{hover}"
    );
    // Completion in each column of a new row after the table.
    let labels = |upto: &str| {
        let full = "| `no_ref` | `parcels[]` | `fragile = true` |";
        assert!(full.starts_with(upto));
        let md = format!("{md}{full}\n");
        let (results, _) = ask_at(
            &md,
            SHIP_TOML,
            "textDocument/completion",
            &[(line + 1, upto.encode_utf16().count())],
        );
        results[0]
            .as_array()
            .unwrap_or_else(|| panic!("{upto}: {}", results[0]))
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    assert!(labels("| ").contains(&"no_ref".to_owned()));
    assert!(labels("| `no_ref` | ").contains(&"`parcels[]`".to_owned()));
    let in_rule = labels("| `no_ref` | `parcels[]` | `");
    assert!(in_rule.contains(&"fragile".to_owned()), "{in_rule:?}");
    assert!(in_rule.contains(&"round(".to_owned()), "{in_rule:?}");
    assert!(
        !in_rule.contains(&"mode".to_owned()),
        "read from the item: {in_rule:?}"
    );
    // A rule that does not read: published at the column of its mistake.
    let broken = md.replace(
        "`count(parcels[].fragile) <= 3`",
        "`count(parcels[].fragil) <= 3`",
    );
    let (_, sent) = ask_at(&broken, SHIP_TOML, "textDocument/hover", &[(line, code_at)]);
    let diagnostics: Vec<&Value> = sent
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .flat_map(|m| m["params"]["diagnostics"].as_array().unwrap())
        .collect();
    let fragil = diagnostics
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("`fragil` is no field of `parcel`")
        })
        .unwrap_or_else(|| panic!("{diagnostics:?}"));
    let column = row.find("count(").unwrap() + "count(".len();
    assert_eq!(fragil["range"]["start"]["line"], line - 1);
    assert_eq!(
        fragil["range"]["start"]["character"],
        row[..column].encode_utf16().count(),
        "{fragil}"
    );
}

/// A locale file (`ship.de.md`, issue 50): its problems are published on it at their place,
/// and completion offers the spec's codes in the first cell and the placeholders after `{`.
#[test]
fn a_locale_file_has_diagnostics_and_completion_of_codes_and_placeholders() {
    let dir = scratch("lsp-locale");
    std::fs::write(dir.join("ship.md"), SHIP_MD).unwrap();
    std::fs::write(dir.join("ship.toml"), SHIP_TOML).unwrap();
    // `no_ref` has no message, `no_mode`'s names an unknown placeholder.
    let locale = "# Meldungen\n\n| Code | Message |\n|---|---|\n| `bad_doc` | keine Sendung |\n| `no_mode` | `{paht}` fehlt |\n| \n| `no_ref` | `{\n";
    let uri = format!("file://{}", dir.join("ship.de.md").display());
    let ask = |id: usize, line: usize, character: usize| {
        json!({
            "jsonrpc": "2.0", "id": id, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        })
    };
    let (code, sent) = session(&[did_open(&uri, locale), ask(1, 6, 2), ask(2, 7, 15)]);
    assert_eq!(code, Some(0));
    let published: Vec<&Value> = sent
        .iter()
        .filter(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
        })
        .collect();
    let last = published.last().expect("diagnostics for the locale file");
    let messages: Vec<(u64, u64, String)> = last["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["range"]["start"]["line"].as_u64().unwrap(),
                d["range"]["start"]["character"].as_u64().unwrap(),
                d["message"]
                    .as_str()
                    .unwrap()
                    .lines()
                    .next()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    assert!(
        messages.contains(&(
            5,
            16,
            "the message of `no_mode`: unknown placeholder `{paht}`".to_owned()
        )),
        "{messages:?}"
    );
    assert!(
        messages.contains(&(2, 0, "`no_ref` has no message in `de`".to_owned())),
        "{messages:?}"
    );
    let labels = |id: usize| -> Vec<String> {
        sent.iter().find(|m| m["id"] == id).unwrap()["result"]
            .as_array()
            .unwrap_or_else(|| panic!("items for {id}"))
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(labels(1), ["bad_doc", "no_mode", "no_ref"]);
    assert_eq!(
        labels(2),
        ["path", "pointer", "code", "measured", "limit", "expected", "other", "message"]
    );
}
