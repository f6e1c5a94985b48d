//! `team_handoff` end to end: every refusal code through the library, the CLI and the MCP
//! server (a raw JSON-RPC client over the server's stdio), filing and re-filing, the audit
//! rows, concurrent writers in real processes, a writer killed mid-write, and the composer's
//! read side.

use crate::common;
use specmint_test_support::mcp_client;

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use mcp_client::McpServer;
use serde_json::{json, Value};
use specmint::task_packet::compose::{self, NeverTrim, NO_VALID_PACKETS};
use specmint::task_packet::handoff::{self, team_handoff};
use specmint::task_packet::leg::Leg;
use specmint::task_packet::{PacketError, Role, TaskPacket, MINIMAL_PACKET_EXAMPLE};
use specmint::test_hooks::PAUSE_BEFORE_RENAME_ENV;

const PLANNER: &str =
    "[team_member]\nrole = \"planner\"\ntask_id = \"task-1\"\nround = 2\nparent = \"boss\"\n";
const LEG: &str = "team_packets/task-1/r2/planner-to-executor";

/// A home directory under the system temp dir, removed on drop.
struct Home(PathBuf);

impl Home {
    fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "specmint-handoff-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Home(dir)
    }

    /// A home with `agent` as a role member (ephemeral layout) whose record is `toml`.
    fn with_member(agent: &str, toml: &str) -> Self {
        let home = Home::new();
        home.member(agent, toml);
        home
    }

    fn member(&self, agent: &str, toml: &str) {
        let dir = self.0.join("agents/.ephemeral").join(agent);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("agent.toml"), toml).unwrap();
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Every file under the home except `tool_calls.jsonl`, with its bytes.
    fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(root, &path, out);
                } else {
                    let rel = path.strip_prefix(root).unwrap().display().to_string();
                    if rel != "tool_calls.jsonl" {
                        out.insert(rel, std::fs::read(&path).unwrap());
                    }
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.0, &self.0, &mut out);
        out
    }

    fn rows(&self, log: &str) -> Vec<Value> {
        std::fs::read_to_string(self.0.join(log))
            .unwrap_or_default()
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect()
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------------------------------
// The refusal cases (tests/fixtures/handoff_refusals.json), through three doors.

struct Case {
    name: String,
    code: String,
    agent: String,
    /// `None`: the argument is absent.
    packet: Option<Value>,
    message_starts: Option<String>,
    home: Home,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(common::root().join("tests/fixtures/handoff_refusals.json"))
        .unwrap();
    let fixture: Value = serde_json::from_str(&text).unwrap();
    let default_toml = fixture["default_agent_toml"].as_str().unwrap();
    fixture["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let agent = case
                .get("agent")
                .or(fixture.get("default_agent"))
                .and_then(Value::as_str)
                .unwrap()
                .to_owned();
            let home = Home::new();
            let toml = match case.get("agent_toml") {
                None => Some(default_toml),
                Some(value) => value.as_str(),
            };
            if let Some(toml) = toml {
                // An invalid agent id is never resolved; give its record a plain name.
                let dir_name = if agent.is_empty() || agent.contains('/') || agent.len() > 64 {
                    "eph-p1"
                } else {
                    agent.as_str()
                };
                home.member(dir_name, toml);
            }
            let mut packet = case.get("packet").cloned();
            if let (Some(pad), Some(Value::Object(object))) = (case.get("pad"), packet.as_mut()) {
                let text = pad["repeat"]
                    .as_str()
                    .unwrap()
                    .repeat(pad["times"].as_u64().unwrap() as usize);
                let value = if pad["list"] == true {
                    json!([text])
                } else {
                    json!(text)
                };
                object.insert(pad["key"].as_str().unwrap().to_owned(), value);
            }
            match case.get("setup").and_then(Value::as_str) {
                Some("full_leg") => fill_leg(&home, 100),
                Some("team_packets_is_a_file") => {
                    std::fs::write(home.path().join("team_packets"), "").unwrap()
                }
                Some(other) => panic!("unknown setup `{other}`"),
                None => {}
            }
            Case {
                name: case["name"].as_str().unwrap().to_owned(),
                code: case["code"].as_str().unwrap().to_owned(),
                agent,
                packet,
                message_starts: case
                    .get("message_starts")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                home,
            }
        })
        .collect()
}

/// Files `n` distinct packets on the leg task-1/r2 planner → executor, through the library.
fn fill_leg(home: &Home, n: usize) {
    for i in 0..n {
        let packet =
            json!({"packet_id": format!("pk-fill-{i}"), "objective": "x", "output_format": "diff"});
        team_handoff(home.path(), "filler", Some(&packet.to_string()))
            .map(|_| ())
            .or_else(|r| {
                // The first call makes the filler a member.
                assert_eq!(r.code.code(), "not_a_team_member");
                home.member("filler", PLANNER);
                team_handoff(home.path(), "filler", Some(&packet.to_string())).map(|_| ())
            })
            .unwrap();
    }
}

/// Runs every case through `door` (which returns the refusal's code and message) and checks
/// the code, that nothing but one `tool_calls.jsonl` row was written, and that row.
fn each_case(door: impl Fn(&Case) -> (String, String)) {
    let cases = cases();
    for case in &cases {
        let before = case.home.snapshot();
        let calls_before = case.home.rows("tool_calls.jsonl").len();
        let (code, message) = door(case);
        let name = &case.name;
        assert_eq!(code, case.code, "{name}: {message}");
        if let Some(start) = &case.message_starts {
            assert!(message.starts_with(start.as_str()), "{name}: {message}");
        }
        if code == "invalid_packet" || code == "missing_packet" {
            assert!(
                message.contains(MINIMAL_PACKET_EXAMPLE),
                "{name}: {message}"
            );
        }
        assert_eq!(
            case.home.snapshot(),
            before,
            "{name}: a refusal wrote files"
        );
        let calls = case.home.rows("tool_calls.jsonl");
        assert_eq!(calls.len(), calls_before + 1, "{name}");
        let row = calls.last().unwrap();
        assert_eq!(row["error_class"], case.code, "{name}");
        assert_eq!(row["tool"], "team_handoff", "{name}");
        assert_eq!(row["agent_id"], case.agent.as_str(), "{name}");
        let detail = row["params"]["detail"].as_str().unwrap();
        assert!(detail.chars().count() <= 200, "{name}");
        assert!(
            format!("{code}: {message}").starts_with(detail),
            "{name}: the detail is the message's head"
        );
    }
    // Every code of the spec's error table has a case, and no case names another code
    // (`no_valid_packets` is reading a leg's, not filing's: see its own test).
    let covered: BTreeSet<&str> = cases.iter().map(|c| c.code.as_str()).collect();
    let table: BTreeSet<&str> = PacketError::ALL
        .iter()
        .map(|e| e.code())
        .filter(|&code| code != NO_VALID_PACKETS)
        .collect();
    assert_eq!(covered, table);
}

#[test]
fn every_refusal_code_through_the_library() {
    each_case(|case| {
        let argument = case.packet.as_ref().map(Value::to_string);
        let refusal =
            team_handoff(case.home.path(), &case.agent, argument.as_deref()).expect_err(&case.name);
        (refusal.code.code().to_owned(), refusal.message)
    });
}

#[test]
fn every_refusal_code_through_the_cli() {
    each_case(|case| {
        let input = case
            .packet
            .as_ref()
            .map(Value::to_string)
            .unwrap_or_default();
        let home = case.home.path().to_str().unwrap();
        let out = common::specmint(
            &[
                "handoff",
                "--home",
                home,
                "--agent",
                &case.agent,
                "-",
                "--format",
                "json",
            ],
            input.as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1), "{}", case.name);
        let result: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(result["ok"], false, "{}", case.name);
        assert_eq!(result.as_object().unwrap().len(), 3, "{}", case.name);
        (
            result["code"].as_str().unwrap().to_owned(),
            result["message"].as_str().unwrap().to_owned(),
        )
    });
}

#[test]
fn every_refusal_code_through_the_mcp_server() {
    each_case(|case| {
        let mut server = McpServer::start(
            env!("CARGO_BIN_EXE_specmint"),
            case.home.path(),
            &case.agent,
        );
        let arguments = match &case.packet {
            Some(packet) => json!({ "packet": packet }),
            None => json!({}),
        };
        let result = server.call(&arguments);
        assert_eq!(result["isError"], true, "{}", case.name);
        let text = result["content"][0]["text"].as_str().unwrap();
        let (code, message) = text.split_once(": ").unwrap();
        (code.to_owned(), message.to_owned())
    });
}

#[test]
fn the_mcp_tool_shows_the_minimal_packet_and_takes_only_a_packet() {
    let home = Home::with_member("eph-p1", PLANNER);
    let mut server = McpServer::start(env!("CARGO_BIN_EXE_specmint"), home.path(), "eph-p1");
    let list = server.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    let tool = &tools[0];
    assert_eq!(tool["name"], "team_handoff");
    assert!(tool["description"]
        .as_str()
        .unwrap()
        .contains(MINIMAL_PACKET_EXAMPLE));
    let schema = &tool["inputSchema"];
    assert_eq!(schema["required"], json!(["packet"]));
    // The packet, and the language of a refusal's messages (issue 50), optional.
    assert_eq!(
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["locale", "packet"]
    );
    // The packet is the emitted schema, less the four keys the server fills.
    let emitted: Value = serde_json::from_str(specmint::task_packet::JSON_SCHEMA).unwrap();
    let mut packet = emitted["$defs"]["packet"].clone();
    packet["required"] = json!(["objective", "output_format", "packet_id"]);
    assert_eq!(schema["$defs"]["packet"], packet);
    assert_eq!(
        schema["properties"]["packet"]["anyOf"][0]["$ref"],
        emitted["$ref"]
    );

    // A filing through the server, the identity from its --agent.
    let result = server.call(&json!({ "packet": { "packet_id": "pk-1", "objective": "do it", "output_format": "markdown" }, "agent": "someone-else" }));
    assert_eq!(result["isError"], false, "{result}");
    let filed: Value =
        serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(
        filed,
        json!({ "ok": true, "path": format!("{LEG}.json"), "bytes": filed["bytes"] })
    );
    assert_eq!(result["structuredContent"], filed);
    assert_eq!(home.rows("security_audit.jsonl")[0]["agent_id"], "eph-p1");
}

// ---------------------------------------------------------------------------------------
// Filing.

fn minimal(packet_id: &str) -> String {
    json!({ "packet_id": packet_id, "objective": "do it", "output_format": "markdown" }).to_string()
}

#[test]
fn a_packet_is_filled_from_the_record_and_written_canonical_and_private() {
    let home = Home::with_member("eph-p1", PLANNER);
    let argument = r#"{"packet_id":"pk-1","objective":"整理清單","output_format":" JSON ","constraints":[{"id":"c1","text":"只讀"}],"audience":["verifier","channel:telegram"]}"#;
    let filed = team_handoff(home.path(), "eph-p1", Some(argument)).unwrap();
    assert_eq!(filed.path, format!("{LEG}.json"));
    let written = std::fs::read_to_string(home.path().join(&filed.path)).unwrap();
    assert_eq!(filed.bytes, written.len());
    assert_eq!(
        written,
        r#"{"packet_id":"pk-1","goal_id":"task-1","round":2,"from_role":"planner","to_role":"executor","objective":"整理清單","output_format":{"kind":"json","schema":null},"constraints":[{"id":"c1","text":"只讀"}],"audience":["verifier","channel:telegram"],"fidelity":"none","irreversible":false}"#
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(home.path().join(&filed.path))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert_eq!(
        filed.to_json(),
        json!({ "ok": true, "path": filed.path, "bytes": filed.bytes })
    );

    let artifacts = home.rows("artifacts.jsonl");
    assert_eq!(artifacts.len(), 1);
    let a = &artifacts[0];
    assert_eq!(
        (
            a["origin"].as_str(),
            a["task_id"].as_str(),
            a["round"].as_u64()
        ),
        (Some("produced"), Some("task-1"), Some(2))
    );
    assert_eq!(a["path"], filed.path.as_str());
    let events = home.rows("security_audit.jsonl");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["event"], "team_handoff");
    assert_eq!(
        events[0]["details"],
        json!({
            "task_id": "task-1", "round": 2, "from_role": "planner", "to_role": "executor",
            "bytes": filed.bytes, "constraints": 1, "audience": ["verifier", "channel:telegram"],
            "path": filed.path,
        })
    );
    assert!(home.rows("tool_calls.jsonl").is_empty());
}

#[test]
fn a_json_string_holding_the_packet_is_the_same_packet() {
    let home = Home::with_member("eph-p1", PLANNER);
    let argument = Value::from(minimal("pk-1")).to_string();
    let filed = team_handoff(home.path(), "eph-p1", Some(&argument)).unwrap();
    assert_eq!(filed.path, format!("{LEG}.json"));
}

#[test]
fn written_identity_is_kept_when_it_agrees_with_the_record() {
    let home = Home::with_member("eph-p1", PLANNER);
    let filed = team_handoff(
        home.path(),
        "eph-p1",
        Some(r#"{"packet_id":"p","goal_id":"task-1","round":2,"from_role":"planner","to_role":"executor","objective":"x","output_format":"diff"}"#),
    )
    .unwrap();
    assert_eq!(filed.path, format!("{LEG}.json"));
}

#[test]
fn a_shape_refusal_names_every_shape_problem_before_the_hint() {
    let home = Home::with_member("eph-p1", PLANNER);
    let argument = r#"{"packet_id":"pk-1","objective":"do it","output_format":"markdown","fidelity":"high","audience":["a",true]}"#;
    let refusal = team_handoff(home.path(), "eph-p1", Some(argument)).unwrap_err();
    assert_eq!(refusal.code.code(), "invalid_packet");
    assert_eq!(
        refusal.message,
        format!(
            "unknown variant `high`, expected one of `full`, `mcp_only`, `none` at line 1 column 84; \
             `audience[1]` must be a string, found a boolean{}",
            handoff::shape_hint()
        )
    );
}

#[test]
fn the_plain_layout_and_the_agent_role_fallback_file_unpinned() {
    let home = Home::new();
    let dir = home.path().join("agents/exec-7");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("agent.toml"), "[agent]\nrole = \"executor\"\n").unwrap();
    let argument =
        r#"{"packet_id":"p","goal_id":"task-5","round":9,"objective":"x","output_format":"files"}"#;
    let filed = team_handoff(home.path(), "exec-7", Some(argument)).unwrap();
    assert_eq!(
        filed.path,
        "team_packets/task-5/r9/executor-to-verifier.json"
    );
    // Unpinned, the goal_id cannot be filled.
    let refusal = team_handoff(home.path(), "exec-7", Some(&minimal("q"))).unwrap_err();
    assert_eq!(refusal.code.code(), "invalid_packet");
    assert!(
        refusal.message.starts_with("missing field `goal_id`"),
        "{}",
        refusal.message
    );
}

#[test]
fn the_ephemeral_layout_wins_over_the_plain_one() {
    let home = Home::with_member("eph-1", PLANNER);
    let plain = home.path().join("agents/eph-1");
    std::fs::create_dir_all(&plain).unwrap();
    std::fs::write(plain.join("agent.toml"), "[agent]\nrole = \"main\"\n").unwrap();
    assert!(team_handoff(home.path(), "eph-1", Some(&minimal("p"))).is_ok());
}

#[test]
fn re_filing_overwrites_its_own_slot_and_new_ids_take_the_lowest_free_one() {
    let home = Home::with_member("eph-p1", PLANNER);
    let file = |id: &str, objective: &str| {
        let argument = json!({ "packet_id": id, "objective": objective, "output_format": "diff" });
        team_handoff(home.path(), "eph-p1", Some(&argument.to_string()))
            .unwrap()
            .path
    };
    assert_eq!(file("a", "1"), format!("{LEG}.json"));
    assert_eq!(file("b", "1"), format!("{LEG}.01.json"));
    assert_eq!(file("c", "1"), format!("{LEG}.02.json"));
    assert_eq!(file("a", "2"), format!("{LEG}.json"));
    let canonical = std::fs::read_to_string(home.path().join(format!("{LEG}.json"))).unwrap();
    assert!(canonical.contains(r#""objective":"2""#));
    // The spec: re-filing overwrites its own file, even with a lower slot free.
    std::fs::remove_file(home.path().join(format!("{LEG}.01.json"))).unwrap();
    assert_eq!(file("c", "2"), format!("{LEG}.02.json"));
    assert_eq!(file("d", "1"), format!("{LEG}.01.json"));
}

#[test]
fn a_refusal_detail_is_cut_to_200_chars_on_a_char_boundary() {
    let home = Home::with_member("eph-p1", PLANNER);
    let goal = "任".repeat(300);
    let argument =
        json!({ "packet_id": "p", "goal_id": goal, "objective": "x", "output_format": "diff" });
    let refusal = team_handoff(home.path(), "eph-p1", Some(&argument.to_string())).unwrap_err();
    assert_eq!(refusal.code.code(), "task_id_mismatch");
    let detail = home.rows("tool_calls.jsonl")[0]["params"]["detail"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(detail.chars().count(), 200);
    assert!(refusal.to_string().starts_with(&detail));
}

#[test]
fn validation_refusals_carry_every_indexed_message() {
    let home = Home::with_member("eph-p1", PLANNER);
    let argument =
        r#"{"packet_id":" ","objective":"x","output_format":"diff","audience":["v","　"]}"#;
    let refusal = team_handoff(home.path(), "eph-p1", Some(argument)).unwrap_err();
    assert_eq!(refusal.code.code(), "blank_field");
    assert_eq!(
        refusal.message,
        "`packet_id` must not be blank; `audience[1]` must not be blank"
    );
}

// ---------------------------------------------------------------------------------------
// Real processes at once.

/// `specmint handoff --home HOME --agent eph-p1 - --format json` on `packet`, started; with
/// `pause`, the writer stops before its rename and creates that file.
fn cli_filing(home: &Path, packet: &str, pause: Option<&Path>) -> Child {
    let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
    let home = home.to_str().unwrap();
    command
        .args([
            "handoff", "--home", home, "--agent", "eph-p1", "-", "--format", "json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(marker) = pause {
        command.env(PAUSE_BEFORE_RENAME_ENV, marker);
    }
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(packet.as_bytes()).unwrap();
    child
}

fn leg_packets(home: &Home) -> Vec<compose::LegPacket> {
    let reading =
        compose::read_leg(home.path(), "task-1", 2, Role::Planner, Role::Executor).unwrap();
    assert!(reading.skipped.is_empty(), "{:?}", reading.skipped);
    reading.packets
}

#[test]
fn thirty_two_processes_filing_distinct_packets_fill_thirty_two_slots() {
    let home = Home::with_member("eph-p1", PLANNER);
    let children: Vec<Child> = (0..32)
        .map(|i| cli_filing(home.path(), &minimal(&format!("pk-{i}")), None))
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let packets = leg_packets(&home);
    let slots: Vec<&str> = packets.iter().map(|p| p.path.as_str()).collect();
    let expected: Vec<String> = (0..32)
        .map(|n| {
            Leg::new("task-1", 2, Role::Planner, Role::Executor)
                .unwrap()
                .slot(n)
        })
        .collect();
    assert_eq!(slots, expected);
    let ids: BTreeSet<&str> = packets
        .iter()
        .map(|p| p.packet.packet_id.as_str())
        .collect();
    assert_eq!(ids.len(), 32);
    assert_eq!(home.rows("artifacts.jsonl").len(), 32);
    assert_eq!(home.rows("security_audit.jsonl").len(), 32);
}

#[test]
fn sixteen_processes_re_filing_one_packet_leave_one_file() {
    let home = Home::with_member("eph-p1", PLANNER);
    let children: Vec<Child> = (0..16)
        .map(|_| cli_filing(home.path(), &minimal("pk-same"), None))
        .collect();
    for child in children {
        assert_eq!(child.wait_with_output().unwrap().status.code(), Some(0));
    }
    let packets = leg_packets(&home);
    assert_eq!(packets.len(), 1);
    assert_eq!(packets[0].packet.packet_id, "pk-same");
    let files: Vec<String> = std::fs::read_dir(home.path().join("team_packets/task-1/r2"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".json"))
        .collect();
    assert_eq!(files, ["planner-to-executor.json"]);
}

#[test]
fn a_writer_killed_before_its_rename_leaves_no_partial_packet() {
    let home = Home::with_member("eph-p1", PLANNER);
    team_handoff(home.path(), "eph-p1", Some(&minimal("pk-old"))).unwrap();
    let before = std::fs::read(home.path().join(format!("{LEG}.json"))).unwrap();
    let marker = home.path().join("paused");
    // Re-file pk-old with another objective, and a new packet, each killed mid-write.
    for (packet, slot) in [
        (
            json!({ "packet_id": "pk-old", "objective": "changed", "output_format": "diff" })
                .to_string(),
            "planner-to-executor.json",
        ),
        (minimal("pk-new"), "planner-to-executor.01.json"),
    ] {
        let mut child = cli_filing(home.path(), &packet, Some(&marker));
        while !marker.exists() {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        std::fs::remove_file(&marker).unwrap();
        // The canonical file is the old one, whole; no sibling appeared.
        assert_eq!(
            std::fs::read(home.path().join(format!("{LEG}.json"))).unwrap(),
            before
        );
        assert_eq!(leg_packets(&home).len(), 1);
        // The killed writer left its temp file, for the slot it was filling; the one an
        // earlier killed writer left was swept under the leg's lock.
        assert_eq!(leg_temporaries(&home), [slot]);
    }
    // The next filing on the leg sweeps it.
    let filed = team_handoff(home.path(), "eph-p1", Some(&minimal("pk-new"))).unwrap();
    assert_eq!(filed.path, format!("{LEG}.01.json"));
    assert_eq!(leg_temporaries(&home), Vec::<String>::new());
    assert_eq!(leg_packets(&home).len(), 2);
}

/// The targets of the leg's temp files (`.<target>.tmp-<pid>-<n>`), sorted.
fn leg_temporaries(home: &Home) -> Vec<String> {
    let mut targets: Vec<String> = std::fs::read_dir(home.path().join("team_packets/task-1/r2"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|name| {
            let (target, _) = name.strip_prefix('.')?.rsplit_once(".tmp-")?;
            Some(target.to_owned())
        })
        .collect();
    targets.sort();
    targets
}

// ---------------------------------------------------------------------------------------
// The composer's read side.

#[test]
fn reading_a_leg_skips_malformed_siblings_and_stops_at_a_gap() {
    let home = Home::with_member("eph-p1", PLANNER);
    for id in ["a", "b", "c", "d"] {
        team_handoff(home.path(), "eph-p1", Some(&minimal(id))).unwrap();
    }
    // .01 torn by hand, .02 claims another leg, .03 removed so .04 is never reached.
    std::fs::write(
        home.path().join(format!("{LEG}.01.json")),
        "{\"packet_id\":",
    )
    .unwrap();
    let other = r#"{"packet_id":"c","goal_id":"task-1","round":2,"from_role":"verifier","to_role":"executor","objective":"x","output_format":"diff"}"#;
    std::fs::write(home.path().join(format!("{LEG}.02.json")), other).unwrap();
    std::fs::rename(
        home.path().join(format!("{LEG}.03.json")),
        home.path().join(format!("{LEG}.04.json")),
    )
    .unwrap();
    let reading =
        compose::read_leg(home.path(), "task-1", 2, Role::Planner, Role::Executor).unwrap();
    let ids: Vec<&str> = reading
        .packets
        .iter()
        .map(|p| p.packet.packet_id.as_str())
        .collect();
    assert_eq!(ids, ["a"]);
    let skipped: Vec<(&str, &str)> = reading
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.code))
        .collect();
    assert_eq!(
        skipped,
        [
            (format!("{LEG}.01.json").as_str(), "invalid_packet"),
            (format!("{LEG}.02.json").as_str(), "leg_mismatch"),
        ]
    );
    let audit: Vec<Value> = home
        .rows("security_audit.jsonl")
        .into_iter()
        .filter(|row| row["event"] == "team_packet_skipped")
        .collect();
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[1]["details"]["path"], format!("{LEG}.02.json"));
}

#[test]
fn a_leg_without_a_valid_packet_fails_the_stage() {
    let home = Home::with_member("eph-p1", PLANNER);
    let refusal =
        compose::read_leg(home.path(), "task-1", 2, Role::Planner, Role::Executor).unwrap_err();
    assert_eq!(refusal.code.code(), NO_VALID_PACKETS);
    let dir = home.path().join("team_packets/task-1/r2");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("planner-to-executor.json"), "not json").unwrap();
    let refusal =
        compose::read_leg(home.path(), "task-1", 2, Role::Planner, Role::Executor).unwrap_err();
    assert_eq!(refusal.code.code(), NO_VALID_PACKETS);
    assert!(
        refusal
            .message
            .contains("planner-to-executor.json (invalid_packet)"),
        "{}",
        refusal.message
    );
    let bad = compose::read_leg(home.path(), "../x", 2, Role::Planner, Role::Executor).unwrap_err();
    assert_eq!(bad.code.code(), "invalid_path_component");

    let (exit, result) = read_leg_cli(&home);
    assert_eq!(exit, Some(1));
    assert_eq!(result["code"], NO_VALID_PACKETS);
}

/// `specmint handoff --home HOME --agent eph-p1 -` on `input`: exit code and stdout.
fn file_cli_human(home: &Home, input: &[u8]) -> (Option<i32>, String) {
    let home = home.path().to_str().unwrap();
    let out = common::specmint(
        &["handoff", "--home", home, "--agent", "eph-p1", "-"],
        input,
    );
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// `specmint handoff read --home HOME task-1 2 planner executor --format json`.
fn read_leg_cli(home: &Home) -> (Option<i32>, Value) {
    let home = home.path().to_str().unwrap();
    let args = [
        "handoff", "read", "--home", home, "task-1", "2", "planner", "executor", "--format", "json",
    ];
    let out = common::specmint(&args, b"");
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

#[test]
fn the_cli_reads_a_leg_back_rendered_for_the_receiving_role() {
    let home = Home::with_member("eph-p1", PLANNER);
    let argument = r#"{"packet_id":"pk-1","objective":"do it","output_format":"markdown","constraints":[{"id":"c1","text":"只讀"}],"audience":["verifier"]}"#;
    let (exit, stdout) = file_cli_human(&home, argument.as_bytes());
    assert_eq!(exit, Some(0));
    assert_eq!(stdout, format!("filed {LEG}.json (255 bytes)\n"));
    let (exit, result) = read_leg_cli(&home);
    assert_eq!(exit, Some(0));
    assert_eq!(result["ok"], true);
    assert_eq!(result["skipped"], json!([]));
    let packet = &result["packets"][0];
    assert_eq!(packet["path"], format!("{LEG}.json"));
    assert_eq!(packet["packet"]["goal_id"], "task-1");
    let rendered = packet["rendered"].as_str().unwrap();
    let protected: Vec<&str> = compose::protected_ranges(rendered)
        .into_iter()
        .map(|r| &rendered[r])
        .collect();
    assert_eq!(
        protected,
        ["## 約束\n\n- `c1`: 只讀\n\n", "## 受眾\n\n- verifier\n"]
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["handoff", "--agent", "a", "-"][..],
        &["handoff", "--home", "h", "-"],
        &["handoff", "--home", "h", "--agent", "a"],
        &[
            "handoff",
            "--home",
            "h",
            "--agent",
            "a",
            "/nonexistent/packet.json",
        ],
        &[
            "handoff", "read", "--home", "h", "t", "x", "planner", "executor",
        ],
        &[
            "handoff", "read", "--home", "h", "t", "1", "boss", "executor",
        ],
        &["mcp", "--home", "h"],
    ] {
        assert_eq!(
            common::specmint(args, b"").status.code(),
            Some(2),
            "{args:?}"
        );
    }
}

#[test]
fn an_empty_cli_input_is_the_missing_argument() {
    let home = Home::with_member("eph-p1", PLANNER);
    let (exit, stdout) = file_cli_human(&home, b" \n");
    assert_eq!(exit, Some(1));
    assert!(stdout.starts_with("refused: missing_packet: "), "{stdout}");
}

#[test]
fn an_unreadable_record_is_named_on_one_line() {
    let packet = r#"{"packet_id":"pk-1","objective":"do it","output_format":"markdown"}"#;
    for (toml, code, why) in [
        (
            "[team_member]\nrole = \n",
            "not_a_team_member",
            "only a role member of a team may file a TaskPacket: `{}` is not TOML: line 2, column 8: string values must be quoted, expected literal string",
        ),
        (
            "[team_member]\nrole = \"planner\"\nround = \"x\"\n",
            "team_member_unreadable",
            "`[team_member]` in `{}` cannot be read: invalid type: string \"x\", expected u32",
        ),
    ] {
        let home = Home::with_member("eph-p1", toml);
        let path = home.path().join("agents/.ephemeral/eph-p1/agent.toml");
        let refusal = team_handoff(home.path(), "eph-p1", Some(packet)).unwrap_err();
        assert_eq!(refusal.code.code(), code);
        assert_eq!(
            refusal.message,
            why.replace("{}", &path.display().to_string())
        );
    }
}

#[test]
fn cli_input_that_is_not_utf8_is_refused_as_the_reader_refuses_it() {
    let home = Home::with_member("eph-p1", PLANNER);
    let before = home.snapshot();
    let input =
        b"{\"packet_id\":\"pk-1\",\"objective\":\"do \xff it\",\"output_format\":\"markdown\"}";
    let (exit, stdout) = file_cli_human(&home, input);
    assert_eq!(exit, Some(1));
    // The same refusal `specmint validate task-packet` gives the same bytes, not a lossy
    // U+FFFD filed in their place.
    let validate = common::specmint(&["validate", "task-packet", "-"], input);
    let verdict = String::from_utf8(validate.stdout).unwrap();
    let reader = TaskPacket::from_json_slice(input).unwrap_err();
    let message = &reader.iter().next().unwrap().message;
    assert_eq!(reader.iter().next().unwrap().code, "invalid_packet");
    assert!(verdict.contains(message.as_str()), "{verdict}");
    assert!(
        stdout.starts_with(&format!("refused: invalid_packet: {message}")),
        "{stdout}"
    );
    assert_eq!(home.snapshot(), before, "nothing filed");
    let calls = home.rows("tool_calls.jsonl");
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0]["error_class"], "invalid_packet");
}

// ---------------------------------------------------------------------------------------
// The spec's tables.

#[test]
fn the_never_trim_headers_are_the_specs_text_table() {
    // Generated from spec/task_packet.md's `Constant | Value | Meaning` table: the composer
    // writes the first spelling and recognizes both.
    let table = [
        (NeverTrim::Constraints, "## 約束", "## Constraints"),
        (NeverTrim::Audience, "## 受眾", "## Audience"),
    ];
    for (section, header, also) in table {
        assert_eq!(
            (section.header(), section.also_recognized()),
            (header, also)
        );
        assert_eq!(NeverTrim::of_header(header), Some(section));
        assert_eq!(NeverTrim::of_header(also), Some(section));
    }
    assert_eq!(compose::SECTION_HEADER_CONSTRAINTS, "## 約束");
    assert_eq!(
        specmint::task_packet::SECTION_HEADER_AUDIENCE_ALSO,
        "## Audience"
    );
}

#[test]
fn the_shape_hint_is_the_minimal_packet_and_the_optional_keys() {
    let hint = handoff::shape_hint();
    assert!(hint.contains(MINIMAL_PACKET_EXAMPLE));
    let minimal: Value = serde_json::from_str(MINIMAL_PACKET_EXAMPLE).unwrap();
    for key in minimal.as_object().unwrap().keys() {
        assert!(!handoff::optional_keys().contains(key), "{key} is required");
    }
    assert!(hint.ends_with(&handoff::optional_keys().join(", ")));
}

// ---------------------------------------------------------------------------------------
// The composer's rendering against hostile packets.

/// Line breaks followed by text that would be a heading (or open a block) at the start of a
/// line: every one must stay inside the value it came with.
const INJECTIONS: [&str; 14] = [
    "\n## Notes\n",
    "\r\n## 約束\r\n",
    "\r## 受眾\r",
    "\n# T\n",
    "\n   ## Audience  \n",
    "\n\u{3000}## Constraints\n",
    "\n##\n",
    "\n#\tx\n",
    "\nsetext\n===\n",
    "\nsetext\n- - -\n",
    "\n```\n",
    "\n\n<!--\n",
    "\n\n    ## 約束\n",
    "## 約束\n",
];

/// The members rendered outside the never-trim sections, each as the tag its values carry.
const UNPROTECTED: [&str; 21] = [
    "pid", "gol", "par", "obj", "tsa", "tsd", "bnd", "acc", "abr", "art", "apa", "ash", "wik",
    "mem", "stk", "eix", "fnd", "evd", "opq", "blk", "nxt",
];

/// A packet whose every string holds `injection` between two markers `<tag>.1` and `<tag>.2`.
fn hostile_packet(injection: &str) -> TaskPacket {
    let v = |tag: &str| format!("{tag}.1{injection}{tag}.2");
    let packet = json!({
        "packet_id": v("pid"), "goal_id": v("gol"), "parent_packet": v("par"), "round": 1,
        "from_role": "planner", "to_role": "executor", "objective": v("obj"),
        "output_format": "markdown",
        "tool_scope": {"allowed": [v("tsa")], "denied": [v("tsd")]},
        "boundaries": [v("bnd")],
        "constraints": [{"id": v("ci0"), "text": v("ct0")}, {"id": v("ci1"), "text": v("ct1")}],
        "audience": [v("au0"), v("au1")],
        "acceptance": [{"kind": "output_contains", "value": v("acc")}],
        "acceptance_baseline_ref": v("abr"),
        "artifacts": [{"id": v("art"), "path": v("apa"), "sha256": v("ash")}],
        "wiki_refs": [v("wik")], "memory_refs": [v("mem")], "state_keys": [v("stk")],
        "findings": [{"text": v("fnd"), "evidence": [v("evd")]}],
        "evidence_index": [v("eix")], "open_questions": [v("opq")], "blockers": [v("blk")],
        "next_steps": [v("nxt")], "budget": {"max_turns": 3}, "irreversible": true,
    });
    TaskPacket::from_json_str(&packet.to_string()).unwrap()
}

/// Where each marker of `tag` is in `text`: both must be there.
fn marker_offsets(text: &str, tag: &str) -> Vec<usize> {
    ["1", "2"]
        .iter()
        .map(|n| {
            let marker = format!("{tag}.{n}");
            assert_eq!(text.matches(&marker).count(), 1, "{marker} in\n{text}");
            text.find(&marker).unwrap()
        })
        .collect()
}

#[test]
fn no_packet_value_moves_the_never_trim_sections() {
    for injection in INJECTIONS {
        let rendered = compose::render_for_role(&hostile_packet(injection));
        let ranges = compose::protected_ranges(&rendered);
        assert_eq!(ranges.len(), 2, "{injection:?}:\n{rendered}");
        // Every constraint in the first section, every audience entry in the second.
        for (range, tags) in ranges
            .iter()
            .zip([&["ci0", "ct0", "ci1", "ct1"], &["au0", "au1", "au0", "au1"]])
        {
            for tag in tags {
                for at in marker_offsets(&rendered, tag) {
                    assert!(
                        range.contains(&at),
                        "{injection:?}: {tag} outside\n{rendered}"
                    );
                }
            }
        }
        // Nothing else in either.
        for tag in UNPROTECTED {
            for at in marker_offsets(&rendered, tag) {
                assert!(
                    ranges.iter().all(|r| !r.contains(&at)),
                    "{injection:?}: {tag} protected\n{rendered}"
                );
            }
        }
        assert!(rendered[ranges[0].clone()].starts_with("## 約束\n"));
        assert!(rendered[ranges[1].clone()].starts_with("## 受眾\n"));
        // A CommonMark reader sees only the composer's headings: the lines it starts with
        // `# ` or `## `, and no heading a value made (setext, or inside a list item).
        let headings: Vec<&str> = pulldown_cmark::Parser::new(&rendered)
            .into_offset_iter()
            .filter(|(event, _)| {
                matches!(
                    event,
                    pulldown_cmark::Event::Start(pulldown_cmark::Tag::Heading { .. })
                )
            })
            .map(|(_, range)| rendered[range].lines().next().unwrap())
            .collect();
        let written: Vec<&str> = rendered
            .lines()
            .filter(|l| l.starts_with("# ") || l.starts_with("## "))
            .collect();
        assert_eq!(headings, written, "{injection:?}:\n{rendered}");
        // The title, the two never-trim sections and one per list rendered.
        assert_eq!(headings.len(), 3 + 11, "{injection:?}:\n{rendered}");
    }
}

#[test]
fn a_value_continues_on_indented_lines_and_a_leading_hash_is_escaped() {
    assert_eq!(compose::value_text("plain"), "plain");
    assert_eq!(
        compose::value_text("read only Q2\n## Notes\r\nnever\remail"),
        "read only Q2\n    \\## Notes\n    never\n    email"
    );
    assert_eq!(compose::value_text("# lead"), "\\# lead");
    assert_eq!(
        compose::value_text("a\n  ===\n- -\n-x"),
        "a\n      \\===\n    \\- -\n    -x"
    );
}

#[test]
fn the_receiving_role_sees_every_member_of_the_full_example() {
    let packet = TaskPacket::from_json_str(specmint::task_packet::FULL_PACKET_EXAMPLE).unwrap();
    assert_eq!(
        compose::render_for_role(&packet),
        "# TaskPacket `pk-9f2a` (planner → executor, task `task-1183`, round 2)

**Objective:** 整理 2026 Q2 到期的客戶合約清單，輸出 CSV

**Output format:** {\"kind\":\"files\"}

**Answers packet:** `pk-9f29`

**Fidelity:** mcp_only

**Irreversible:** no

**Acceptance baseline:** task-1183#baseline

**Budget:** max_turns 5, max_tokens 120000, wall_clock_secs 900, max_cost_usd 1.25

**Tool scope (the sender's expectation, not enforced):** allowed: db_select, csv_read, file_read; denied: mail_send

## 約束

- `c1`: 只讀 2026-04-01 至 2026-06-30 的合約
- `c2`: 金額一律以新台幣顯示，不換算

## 受眾

- verifier
- channel:telegram

## Boundaries

- 不要主動聯絡客戶
- 不要修改 CRM 中的任何紀錄

## Acceptance

- must_use_tools: db_select
- must_not_use_tools: mail_send
- output_contains: 到期日

## Artifacts

- a-77 (path: data/contracts.csv, sha256: 9c1f…)

## Wiki refs

- auto/sop/contract-renewal

## Memory refs

- m-4021

## State keys

- reporting_quarter

## Evidence index

- 合約母檔 · a-77

## Findings

- 母檔共 412 筆，其中 14 筆落在本季 (evidence: a-77)

## Open questions

- 自動續約的合約要不要算進來？

## Next steps

- 產出 CSV 後交給 verifier 核對筆數
"
    );
    // The minimal packet: the members always written, and nothing for what is unset.
    let minimal = MINIMAL_PACKET_EXAMPLE.replace("<your task_id>", "t-1");
    let rendered = compose::render_for_role(&TaskPacket::from_json_str(&minimal).unwrap());
    assert!(rendered.contains("\n**Fidelity:** none\n\n**Irreversible:** no\n\n## 約束\n"));
    // A budget with some limits unset says whose they are.
    let partial = minimal.replace("}", r#","budget":{"max_tokens":10},"irreversible":true}"#);
    let rendered = compose::render_for_role(&TaskPacket::from_json_str(&partial).unwrap());
    assert!(rendered.contains(
        "**Irreversible:** yes\n\n**Budget:** max_tokens 10; the unset limits are the dispatcher's own\n"
    ), "{rendered}");
}

// ---------------------------------------------------------------------------------------
// Refusals describe the input as sent, not the text after the fill.

const UNPINNED_PLANNER: &str = "[agent]\nrole = \"planner\"\n";

#[test]
fn a_missing_key_is_reported_at_the_callers_closing_brace() {
    let home = Home::with_member("eph-p1", UNPINNED_PLANNER);
    // 60 bytes on one line: the closing brace is column 60. `goal_id` and `round` are not
    // in the record, so they stay missing; the roles are filled after the brace.
    let short = r#"{"packet_id":"q","objective":"o","output_format":"markdown"}"#;
    assert_eq!(short.len(), 60);
    let multi = "{\n  \"packet_id\": \"q\",\n  \"objective\": \"o\",\n  \"output_format\": \"markdown\"\n}\n";
    for (input, at) in [(short, "line 1 column 60"), (multi, "line 5 column 1")] {
        let refusal = team_handoff(home.path(), "eph-p1", Some(input)).unwrap_err();
        assert_eq!(refusal.code.code(), "invalid_packet");
        assert_eq!(
            refusal.message,
            format!(
                "missing field `goal_id` at {at}; `round` is required but missing{}",
                handoff::shape_hint()
            )
        );
    }
}

#[test]
fn the_size_limit_is_measured_on_the_input_as_sent() {
    let home = Home::with_member("eph-p1", UNPINNED_PLANNER);
    let objective = "x".repeat(1_100_000);
    let input = format!(r#"{{"packet_id":"q","objective":"{objective}","output_format":"diff"}}"#);
    assert_eq!(input.len(), 1_100_055);
    let refusal = team_handoff(home.path(), "eph-p1", Some(&input)).unwrap_err();
    assert_eq!(refusal.code.code(), "packet_too_large");
    assert_eq!(
        refusal.message,
        "the packet is 1100055 bytes (max 1048576) and was not parsed"
    );
    // One byte under the limit as sent is read, though the fill makes it longer.
    let objective = "x".repeat(1_048_576 - 55);
    let input = format!(r#"{{"packet_id":"q","objective":"{objective}","output_format":"diff"}}"#);
    assert_eq!(input.len(), 1_048_576);
    let refusal = team_handoff(home.path(), "eph-p1", Some(&input)).unwrap_err();
    assert_eq!(refusal.code.code(), "invalid_packet", "{}", refusal.message);
    assert!(refusal
        .message
        .starts_with("missing field `goal_id` at line 1 column 1048576;"));
}

#[test]
fn a_utility_caller_without_to_role_is_refused_the_edge() {
    let home = Home::with_member(
        "eph-p1",
        "[team_member]\nrole = \"utility\"\ntask_id = \"task-1\"\nround = 2\n",
    );
    let refusal = team_handoff(home.path(), "eph-p1", Some(&minimal("pk-1"))).unwrap_err();
    assert_eq!(refusal.code.code(), "invalid_handoff_edge");
    assert_eq!(
        refusal.message,
        "`utility` occupies no stage, so every edge touching it is refused: there is no \
         `to_role` to fill (legal: planner → executor, executor → verifier, verifier → executor)"
    );
    // Written, the edge is refused as any other.
    let written =
        r#"{"packet_id":"pk-1","objective":"o","output_format":"diff","to_role":"executor"}"#;
    let refusal = team_handoff(home.path(), "eph-p1", Some(written)).unwrap_err();
    assert_eq!(
        (refusal.code.code(), refusal.message.as_str()),
        (
            "invalid_handoff_edge",
            "`utility` → `executor` is not a stage transition (legal: planner → executor, executor → verifier, verifier → executor)"
        )
    );
}

// ---------------------------------------------------------------------------------------
// A filing is audit-logged, or not filed (issue 21, item 1).

#[test]
fn a_filing_whose_audit_log_cannot_be_appended_is_refused_with_nothing_filed() {
    // A directory where a log should be: no process, root included, can append to it.
    for log in ["artifacts.jsonl", "security_audit.jsonl"] {
        let home = Home::with_member("eph-p1", PLANNER);
        std::fs::create_dir(home.path().join(log)).unwrap();
        let refusal = team_handoff(home.path(), "eph-p1", Some(&minimal("pk-1"))).unwrap_err();
        assert_eq!(refusal.code.code(), "write_failed");
        assert!(
            refusal
                .message
                .starts_with(&format!("the audit log `{log}` cannot be appended (")),
            "{}",
            refusal.message
        );
        assert!(refusal.message.ends_with("), so nothing was filed"));
        // Nothing filed, and the other log, opened first or not at all, is not left behind.
        assert!(!home.path().join("team_packets").exists());
        let other = if log == "artifacts.jsonl" {
            "security_audit.jsonl"
        } else {
            "artifacts.jsonl"
        };
        assert!(!home.path().join(other).exists(), "{other} was left behind");
        let refused = home.rows("tool_calls.jsonl");
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0]["error_class"], "write_failed");

        // The CLI answers the same refusal, exit 1.
        let out = common::specmint(
            &[
                "handoff",
                "--home",
                home.path().to_str().unwrap(),
                "--agent",
                "eph-p1",
                "-",
                "--format",
                "json",
            ],
            minimal("pk-1").as_bytes(),
        );
        assert_eq!(out.status.code(), Some(1));
        let reply: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            (reply["ok"].clone(), reply["code"].clone()),
            (json!(false), json!("write_failed"))
        );
        assert!(!home.path().join("team_packets").exists());

        // Once the log can be appended, the same packet files.
        std::fs::remove_dir(home.path().join(log)).unwrap();
        team_handoff(home.path(), "eph-p1", Some(&minimal("pk-1"))).unwrap();
        assert_eq!(home.rows("artifacts.jsonl").len(), 1);
        assert_eq!(home.rows("security_audit.jsonl").len(), 1);
    }
}

// ---------------------------------------------------------------------------------------
// Bounded everywhere, nothing written through a planted link (the hardening issue's items
// 4 to 6): audit rows whole or not at all, no write through a link in the home, no read of
// a FIFO or a device, a lock waited for a bounded time, the MCP loop never blocked.

/// `specmint handoff --home HOME --agent eph-p1 - --format json` on `packet`, run to its end;
/// a command still running after 60 s (where it used to hang for ever) fails the test.
fn cli_filing_bounded(home: &Path, packet: &str, setup: impl FnOnce(&mut Command)) -> (i32, Value) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_specmint"));
    let home = home.to_str().unwrap();
    command
        .args([
            "handoff", "--home", home, "--agent", "eph-p1", "-", "--format", "json",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    setup(&mut command);
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(packet.as_bytes())
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`specmint handoff` did not answer within 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let reply = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {} / {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), reply)
}

/// The lines of `<home>/<log>`, as they are on disk.
fn log_lines(home: &Home, log: &str) -> Vec<String> {
    std::fs::read_to_string(home.path().join(log))
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_torn_audit_row_is_ended_before_the_next_row_is_appended() {
    let home = Home::with_member("eph-p1", PLANNER);
    team_handoff(home.path(), "eph-p1", Some(&minimal("pk-1"))).unwrap();
    // A writer killed mid-row (or a full disk) left half a row, without its newline.
    let torn = r#"{"timestamp":"2026-12-05T05:30:00.000Z","agent_id":"eph-p1","orig"#;
    for log in ["artifacts.jsonl", "security_audit.jsonl"] {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(home.path().join(log))
            .unwrap();
        file.write_all(torn.as_bytes()).unwrap();
    }
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-2"), |_| {});
    assert_eq!((code, reply["ok"].clone()), (0, json!(true)), "{reply}");
    for log in ["artifacts.jsonl", "security_audit.jsonl"] {
        let lines = log_lines(&home, log);
        assert_eq!(lines.len(), 3, "{log}: {lines:#?}");
        assert_eq!(lines[1], torn, "{log}: the torn row is left as it was");
        for i in [0, 2] {
            let row: Value = serde_json::from_str(&lines[i])
                .unwrap_or_else(|e| panic!("{log} line {}: {e}: {}", i + 1, lines[i]));
            assert_eq!(row["agent_id"], "eph-p1");
        }
    }
    assert_eq!(
        serde_json::from_str::<Value>(&log_lines(&home, "artifacts.jsonl")[2]).unwrap()["path"],
        format!("{LEG}.01.json")
    );
}

#[cfg(unix)]
#[test]
fn an_audit_row_the_disk_cannot_hold_is_not_written_at_all() {
    use std::os::unix::process::CommandExt;
    let home = Home::with_member("eph-p1", PLANNER);
    let mut largest_packet = 0;
    for n in 1..=6 {
        let filed = team_handoff(home.path(), "eph-p1", Some(&minimal(&format!("pk-{n}"))));
        largest_packet = largest_packet.max(filed.unwrap().bytes);
    }
    let artifacts = home.path().join("artifacts.jsonl");
    let before = std::fs::read(&artifacts).unwrap();
    // The packet itself fits: only the row is cut short.
    assert!(largest_packet < before.len());
    // The file size limit (RLIMIT_FSIZE) stops the writer 10 bytes into the next row, as a
    // full disk does: the write is cut short, then fails (SIGXFSZ ignored, so EFBIG).
    let limit = before.len() as u64 + 10;
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-7"), |command| {
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let rlimit = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    });
    assert_eq!(
        (code, reply["code"].clone()),
        (1, json!("write_failed")),
        "{reply}"
    );
    let message = reply["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "the packet was filed at `{LEG}.06.json` but its audit row could not be written: "
        )),
        "{message}"
    );
    let after = std::fs::read(&artifacts).unwrap();
    assert_eq!(
        (
            after.len(),
            String::from_utf8_lossy(&after[after.len().min(before.len())..])
        ),
        (before.len(), "".into()),
        "no part of the row that did not fit is left"
    );
    assert!(after == before);
    // Space is back: the next filing's row is a row of its own, and every row parses.
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-8"), |_| {});
    assert_eq!(code, 0, "{reply}");
    let rows = home.rows("artifacts.jsonl");
    assert_eq!(rows.len(), 7);
    assert_eq!(rows[6]["path"], format!("{LEG}.07.json"));
}

#[cfg(unix)]
#[test]
fn links_planted_in_the_home_are_refused_and_nothing_is_written_outside() {
    use std::os::unix::fs::symlink;
    type Plant = fn(&Path, &Path);
    let cases: [(&str, Plant, &str); 6] = [
        (
            "a symlinked artifacts.jsonl",
            |home, outside| symlink(outside.join("log"), home.join("artifacts.jsonl")).unwrap(),
            "artifacts.jsonl` is a symbolic link: refused, nothing is written through a link",
        ),
        (
            "a hard-linked artifacts.jsonl",
            |home, outside| {
                std::fs::hard_link(outside.join("log"), home.join("artifacts.jsonl")).unwrap()
            },
            "artifacts.jsonl` has 2 hard links: refused",
        ),
        (
            "a dangling symlinked security_audit.jsonl",
            |home, outside| {
                symlink(outside.join("created"), home.join("security_audit.jsonl")).unwrap()
            },
            "security_audit.jsonl` is a symbolic link: refused",
        ),
        (
            "a symlinked team_packets",
            |home, outside| symlink(outside, home.join("team_packets")).unwrap(),
            "team_packets` is a symbolic link: refused",
        ),
        (
            "a symlinked round directory",
            |home, outside| {
                std::fs::create_dir_all(home.join("team_packets/task-1")).unwrap();
                symlink(outside, home.join("team_packets/task-1/r2")).unwrap();
            },
            "team_packets/task-1/r2` is a symbolic link: refused",
        ),
        (
            "a dangling symlinked leg lock",
            |home, outside| {
                let dir = home.join("team_packets/task-1/r2");
                std::fs::create_dir_all(&dir).unwrap();
                symlink(
                    outside.join("created"),
                    dir.join(".planner-to-executor.lock"),
                )
                .unwrap();
            },
            "team_packets/task-1/r2/.planner-to-executor.lock` is a symbolic link: refused",
        ),
    ];
    for (name, plant, why) in cases {
        let home = Home::with_member("eph-p1", PLANNER);
        let outside = Home::new();
        std::fs::write(outside.path().join("log"), "").unwrap();
        plant(home.path(), outside.path());
        let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-1"), |_| {});
        assert_eq!(
            (code, reply["code"].clone()),
            (1, json!("write_failed")),
            "{name}: {reply}"
        );
        let message = reply["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("`{}/{why}", home.path().display())),
            "{name}: {message}"
        );
        // Outside the home: the file planted there still empty, nothing created beside it.
        let outside_files: Vec<String> = std::fs::read_dir(outside.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(outside_files, ["log"], "{name}");
        assert_eq!(
            std::fs::read(outside.path().join("log")).unwrap(),
            b"",
            "{name}"
        );
        assert!(
            home.rows("tool_calls.jsonl")
                .iter()
                .all(|row| row["error_class"] == "write_failed"),
            "{name}"
        );
    }
    // A refusal's row is not written through a link either.
    let home = Home::with_member("eph-p1", PLANNER);
    let outside = Home::new();
    std::fs::write(outside.path().join("log"), "").unwrap();
    symlink(
        outside.path().join("log"),
        home.path().join("tool_calls.jsonl"),
    )
    .unwrap();
    let (code, reply) = cli_filing_bounded(home.path(), "{}", |_| {});
    assert_eq!((code, reply["ok"].clone()), (1, json!(false)), "{reply}");
    assert_eq!(std::fs::read(outside.path().join("log")).unwrap(), b"");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_a_device_at_a_slot_refuses_the_filing_instead_of_stalling_it() {
    let home = Home::with_member("eph-p1", PLANNER);
    let dir = home.path().join("team_packets/task-1/r2");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("planner-to-executor.json");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-1"), |_| {});
    assert_eq!(
        (code, reply["code"].clone()),
        (1, json!("write_failed")),
        "{reply}"
    );
    assert_eq!(
        reply["message"],
        format!(
            "could not file the packet in `team_packets/task-1/r2`: `{}` is a FIFO, not a regular file: refused",
            fifo.display()
        )
    );
    std::fs::remove_file(&fifo).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &fifo).unwrap();
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-1"), |_| {});
    assert_eq!(
        (code, reply["code"].clone()),
        (1, json!("write_failed")),
        "{reply}"
    );
    assert_eq!(
        reply["message"],
        format!(
            "could not file the packet in `team_packets/task-1/r2`: `{}` is a character device, not a regular file: refused",
            fifo.display()
        )
    );
    // The caller's record is read the same way.
    let home = Home::with_member("eph-p1", PLANNER);
    let record = home.path().join("agents/.ephemeral/eph-p1/agent.toml");
    std::fs::remove_file(&record).unwrap();
    let status = Command::new("mkfifo").arg(&record).status().unwrap();
    assert!(status.success());
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-1"), |_| {});
    assert_eq!(
        (code, reply["code"].clone()),
        (1, json!("not_a_team_member")),
        "{reply}"
    );
    assert_eq!(
        reply["message"],
        format!(
            "only a role member of a team may file a TaskPacket: cannot read `{0}`: `{0}` is a FIFO, not a regular file: refused",
            record.display()
        )
    );
}

/// Holds an exclusive `flock` on `path` (created) until dropped, as a peer that hangs does.
#[cfg(unix)]
fn hold_lock(path: &Path) -> std::fs::File {
    use std::os::fd::AsRawFd;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .unwrap();
    // SAFETY: a valid open descriptor.
    assert_eq!(unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) }, 0);
    file
}

#[cfg(unix)]
#[test]
fn a_held_leg_lock_refuses_after_a_bounded_wait_and_the_mcp_server_answers_meanwhile() {
    let home = Home::with_member("eph-p1", PLANNER);
    let lock = home
        .path()
        .join("team_packets/task-1/r2/.planner-to-executor.lock");
    let _held = hold_lock(&lock);
    let refused = format!(
        "could not file the packet in `team_packets/task-1/r2`: the lock `{}` is held by another process: gave up after 10 s",
        lock.display()
    );
    let (code, reply) = cli_filing_bounded(home.path(), &minimal("pk-1"), |_| {});
    assert_eq!(
        (code, reply["code"].clone(), reply["message"].clone()),
        (1, json!("write_failed"), json!(refused))
    );

    // Over MCP: the call waits for the lock off the message loop, so a ping sent after it is
    // answered first; then the call is refused.
    let mut child = Command::new(env!("CARGO_BIN_EXE_specmint"))
        .args([
            "mcp",
            "--home",
            home.path().to_str().unwrap(),
            "--agent",
            "eph-p1",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines, replies) = std::sync::mpsc::channel::<Value>();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(serde_json::from_str(&line).unwrap()).is_err() {
                break;
            }
        }
    });
    let next = || {
        replies
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the MCP server did not answer within 60 s")
    };
    let mut send = |message: Value| {
        stdin.write_all(format!("{message}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "0"}}}),
    );
    assert_eq!(next()["id"], 1);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "team_handoff", "arguments": {"packet": minimal("pk-1")}}}),
    );
    send(json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
    let first = next();
    assert_eq!(
        (first["id"].clone(), first["result"].clone()),
        (json!(3), json!({})),
        "{first}"
    );
    let second = next();
    assert_eq!(second["id"], 2, "{second}");
    assert_eq!(second["result"]["isError"], true, "{second}");
    assert_eq!(
        second["result"]["content"][0]["text"],
        format!("write_failed: {refused}")
    );
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    assert!(!home.path().join(format!("{LEG}.json")).exists());
}

#[cfg(unix)]
#[test]
fn an_audit_log_open_to_others_is_narrowed_to_0600() {
    use std::os::unix::fs::PermissionsExt;
    let home = Home::with_member("eph-p1", PLANNER);
    for log in [
        "artifacts.jsonl",
        "security_audit.jsonl",
        "tool_calls.jsonl",
    ] {
        let path = home.path().join(log);
        std::fs::write(&path, "").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    }
    team_handoff(home.path(), "eph-p1", Some(&minimal("pk-1"))).unwrap();
    team_handoff(home.path(), "eph-p1", None).unwrap_err();
    for log in [
        "artifacts.jsonl",
        "security_audit.jsonl",
        "tool_calls.jsonl",
    ] {
        let mode = std::fs::metadata(home.path().join(log))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{log}");
    }
}

/// Issue 48, finding 17's kin: `handoff FILE` holds no more of its input than the packet's size
/// limit and one byte, counts the rest only so far, and answers endless input with the size
/// refusal ("at least") rather than reading it for ever.
#[test]
fn endless_input_is_refused_by_its_size() {
    let home = Home::with_member("eph-p1", UNPINNED_PLANNER);
    let out = common::specmint(
        &[
            "handoff",
            "--home",
            home.path().to_str().unwrap(),
            "--agent",
            "eph-p1",
            "/dev/zero",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let refusal: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counted = (1 << 20) + 1 + specmint::runtime::document::COUNTED_PAST_LIMIT;
    assert_eq!(refusal["code"], "packet_too_large", "{refusal}");
    assert_eq!(
        refusal["message"],
        format!("the packet is at least {counted} bytes (max 1048576) and was not parsed")
    );
}

/// `team_handoff` refuses an invalid packet in the language the call names (`locale`), else
/// the server's `--locale`, else its environment's, else English; the code does not change
/// (issue 50).
#[test]
fn the_mcp_tool_refuses_in_the_language_asked_for() {
    let home = Home::with_member("eph-p1", PLANNER);
    let blank = json!({ "packet_id": "pk-1", "objective": " ", "output_format": "markdown" });
    let home_dir = home.path().to_str().unwrap();
    let mut plain = McpServer::start(env!("CARGO_BIN_EXE_specmint"), home.path(), "eph-p1");
    let english = plain.call(&json!({ "packet": blank }));
    assert_eq!(
        english["content"][0]["text"],
        "blank_field: `objective` must not be blank"
    );
    let asked = plain.call(&json!({ "packet": blank, "locale": "zh-TW" }));
    assert_eq!(asked["isError"], true);
    assert_eq!(
        asked["content"][0]["text"],
        "blank_field: `objective` 不可為空白"
    );
    let mut chinese = McpServer::start_with(
        env!("CARGO_BIN_EXE_specmint"),
        &[
            "mcp", "--home", home_dir, "--agent", "eph-p1", "--locale", "zh-TW",
        ],
    );
    assert_eq!(
        chinese.call(&json!({ "packet": blank }))["content"][0]["text"],
        asked["content"][0]["text"]
    );
    // Without --locale, the environment's language, as for `validate`; `C` is English.
    let args = ["mcp", "--home", home_dir, "--agent", "eph-p1"];
    let bin = env!("CARGO_BIN_EXE_specmint");
    let mut from_env = McpServer::start_in(bin, &args, &[("LANG", "zh_TW.UTF-8")]);
    assert_eq!(
        from_env.call(&json!({ "packet": blank }))["content"][0]["text"],
        asked["content"][0]["text"]
    );
    let mut posix = McpServer::start_in(bin, &args, &[("LC_ALL", "C"), ("LANG", "zh_TW.UTF-8")]);
    assert_eq!(
        posix.call(&json!({ "packet": blank }))["content"][0]["text"],
        english["content"][0]["text"]
    );
    let german = chinese.call(&json!({ "packet": blank, "locale": "de" }));
    assert_eq!(
        german["content"][0]["text"],
        "blank_field: `objective` darf nicht leer sein"
    );
    let wrong = chinese.request(
        "tools/call",
        json!({ "name": "team_handoff", "arguments": { "packet": blank, "locale": "zh TW" } }),
    );
    assert!(
        wrong["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not a BCP 47 language tag"),
        "{wrong}"
    );
}

/// The note after a shape refusal (what to send instead) follows the refusal's language: the
/// library's own translation of it (src/locales/notes.<tag>.md), the packet and the keys as
/// they are; English, byte for byte as before, without a locale (issue 50).
#[test]
fn the_shape_hint_follows_the_refusals_language() {
    let home = Home::with_member("eph-p1", PLANNER);
    let packet = json!({ "packet_id": "pk-1", "objective": "do it", "output_format": "markdown", "fidelity": "high" });
    let mut server = McpServer::start(env!("CARGO_BIN_EXE_specmint"), home.path(), "eph-p1");
    let english = server.call(&json!({ "packet": packet }));
    assert_eq!(english["isError"], true);
    let english = english["content"][0]["text"].as_str().unwrap().to_owned();
    let serde =
        "unknown variant `high`, expected one of `full`, `mcp_only`, `none` at line 1 column 18";
    assert_eq!(
        english,
        format!("invalid_packet: {serde}{}", handoff::shape_hint())
    );
    let keys = handoff::optional_keys().join(", ");
    let chinese = server.call(&json!({ "packet": packet, "locale": "zh-TW" }));
    assert_eq!(chinese["isError"], true);
    assert_eq!(
        chinese["content"][0]["text"],
        format!(
            "invalid_packet: `fidelity` 不是允許的值之一：允許的值為 `full`, `mcp_only`, `none`。\
             請改送這個形狀——這七個鍵就足夠了：{MINIMAL_PACKET_EXAMPLE}；選填的鍵（預設皆為空）：{keys}"
        )
    );
    assert_eq!(
        handoff::shape_hint_in(Some("zh-TW")),
        format!("。請改送這個形狀——這七個鍵就足夠了：{MINIMAL_PACKET_EXAMPLE}；選填的鍵（預設皆為空）：{keys}")
    );
    let german = server.call(&json!({ "packet": packet, "locale": "de" }));
    assert!(
        german["content"][0]["text"]
            .as_str()
            .unwrap()
            .ends_with(&format!(
                "; sende stattdessen diese Form – diese sieben Schlüssel genügen: \
             {MINIMAL_PACKET_EXAMPLE}; optionale Schlüssel, alle standardmäßig leer: {keys}"
            )),
        "{german}"
    );
    // A refusal that is not the spec's validation keeps its English words and hint.
    let missing = server.request(
        "tools/call",
        json!({ "name": "team_handoff", "arguments": { "locale": "zh-TW" } }),
    );
    assert_eq!(
        missing["result"]["content"][0]["text"],
        format!(
            "missing_packet: the `packet` argument is required{}",
            handoff::shape_hint()
        )
    );
}
