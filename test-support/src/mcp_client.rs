//! A raw MCP client for `specmint mcp`: JSON-RPC lines over the server's stdin and stdout.
//! Shared by the CLI's tests (cli/tests/it/handoff.rs, store_server.rs) and benches
//! (cli/benches/handoff.rs, doors.rs).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

/// A running `specmint mcp --home HOME --agent AGENT`, initialized.
pub struct McpServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl McpServer {
    /// Starts `binary mcp --home home --agent agent` and runs the initialize handshake.
    pub fn start(binary: &str, home: &Path, agent: &str) -> Self {
        Self::start_with(
            binary,
            &["mcp", "--home", home.to_str().unwrap(), "--agent", agent],
        )
    }

    /// Starts `binary ARGS` (an `mcp` command line) and runs the initialize handshake.
    pub fn start_with(binary: &str, args: &[&str]) -> Self {
        Self::start_in(binary, args, &[])
    }

    /// [`McpServer::start_with`] in an environment with none of the locale variables but
    /// `vars` (the server's default language is the environment's: tests name theirs).
    pub fn start_in(binary: &str, args: &[&str], vars: &[(&str, &str)]) -> Self {
        let mut command = Command::new(binary);
        command
            .args(args)
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env_remove("LANG")
            .envs(vars.iter().copied());
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut server = McpServer {
            child,
            stdin,
            stdout,
            next_id: 1,
        };
        let init = server.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "specmint-tests", "version": "0" },
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "specmint", "{init}");
        server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        server
    }

    /// Writes `message` and its newline in one write, as a client sends a line: written
    /// straight to the unbuffered pipe, `Display` would make a write (and a read of the
    /// server's) of every token.
    fn send(&mut self, message: &Value) {
        self.stdin
            .write_all(format!("{message}\n").as_bytes())
            .unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends one request and returns its response (messages without its id are skipped).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server hung up"
            );
            let message: Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// `tools/call team_handoff` with `arguments`: the call's result.
    pub fn call(&mut self, arguments: &Value) -> Value {
        let response = self.request(
            "tools/call",
            json!({ "name": "team_handoff", "arguments": arguments }),
        );
        response["result"].clone()
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
