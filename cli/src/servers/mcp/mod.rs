//! `specmint mcp` ([`crate::args::Mcp`]): over MCP stdio (rmcp),
//! the `team_handoff` tool (with `--home/--agent`) and the Action Envelope and Task Envelope
//! tools of a store ([`tools`], with `--store`); one server holds both when both are given.
//! Every line read is answered or passed on by the line layer
//! ([`framing::lines`](crate::servers::framing::lines)).
//!
//! `team_handoff`:
//! The caller's identity is the `--agent` the server was started with, never a tool
//! parameter: the tool's one parameter is `packet`. A filing answers the tool result
//! `{"ok": true, "path", "bytes"}` (as text and as structured content); a refusal is a tool
//! result with `isError` whose text starts with its code (`not_a_team_member: ...`).
//! The message loop runs on a single-threaded runtime and never blocks on a call: a filing
//! (which may wait, a bounded time, for its leg's lock) and a store tool (the PostgreSQL client
//! is synchronous) run on the runtime's blocking threads, so `ping` is answered meanwhile.

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use specmint::task_packet::answer::Filed;
use specmint::task_packet::handoff::{self, FILLED_KEYS, TOOL_NAME};
use specmint::task_packet::{JSON_SCHEMA, MINIMAL_PACKET_EXAMPLE};

use crate::args::Mcp;
use crate::output::CliError;

pub mod tools;

/// `specmint mcp ...`.
pub fn run(args: Mcp) -> Result<u8, CliError> {
    let Mcp {
        home,
        agent,
        store: db,
        ledger,
        locale,
    } = args;
    // As `validate` and the A2A door: the environment's language when no --locale is given
    // (the client that starts the server passes its user's environment).
    let locale = crate::commands::wanted_locale(locale)?;
    let handoff = match (home, agent) {
        (Some(home), Some(agent)) => Some((home, agent)),
        (None, None) => None,
        (Some(_), None) => return Err(CliError::Usage("missing --agent ID".to_owned())),
        (None, Some(_)) => return Err(CliError::Usage("missing --home DIR".to_owned())),
    };
    let store = match (db, ledger) {
        (Some(db), ledger) => {
            let ledger = match ledger
                .as_deref()
                .map(crate::commands::task::load_ledger)
                .transpose()?
            {
                Some(Err(refusal)) => {
                    return Err(CliError::Failure(format!("--ledger: {refusal}")))
                }
                Some(Ok(ledger)) => Some(ledger),
                None => None,
            };
            Some(Arc::new(tools::StoreTools::new(db, ledger)))
        }
        (None, Some(_)) => {
            return Err(CliError::Usage(
                "--ledger goes with --store DB (it is what task_bind binds against)".to_owned(),
            ))
        }
        (None, None) => None,
    };
    if handoff.is_none() && store.is_none() {
        return Err(CliError::Usage(
            "missing --home DIR --agent ID or --store DB (or both)".to_owned(),
        ));
    }
    let mut tools = Vec::new();
    if handoff.is_some() {
        tools.push(tool());
    }
    if store.is_some() {
        tools.extend(tools::tools());
    }
    let server = McpServer {
        handoff,
        store,
        tools,
        locale,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(async {
            // rmcp reads only what the line layer passes on (see `framing::lines`).
            let (ours, theirs) = tokio::io::duplex(1 << 16);
            let rmcp = async {
                let service = server.serve(tokio::io::split(theirs)).await?;
                service.waiting().await?;
                Ok::<_, Box<dyn std::error::Error>>(())
            };
            let lines = crate::servers::framing::lines::serve(
                tokio::io::BufReader::new(tokio::io::stdin()),
                tokio::io::stdout(),
                ours,
            );
            let (served, read) = tokio::join!(rmcp, lines);
            read?;
            served
        })
        // The server's I/O or protocol failing is a failure, not bad usage.
        .map_err(|e| CliError::Failure(format!("MCP server: {e}")))?;
    Ok(0)
}

/// The tools of one server: `team_handoff` with `--home/--agent`, the store's with
/// `--store`, or both.
struct McpServer {
    handoff: Option<(PathBuf, String)>,
    store: Option<Arc<tools::StoreTools>>,
    tools: Vec<Tool>,
    /// `--locale`: the language of `team_handoff`'s validation messages, unless a call names
    /// its own.
    locale: Option<String>,
}

/// The tool: its description shows the minimal packet; its input schema has the one
/// parameter `packet`, the emitted TaskPacket schema or a string holding such a packet.
fn tool() -> Tool {
    let mut packet_schema: Value = serde_json::from_str(JSON_SCHEMA).unwrap_or_default();
    // The caller may leave out the keys the server fills from its record.
    if let Some(required) = packet_schema["$defs"]["packet"]["required"].as_array_mut() {
        required.retain(|key| !FILLED_KEYS.iter().any(|filled| key == *filled));
    }
    let input = json!({
        "type": "object",
        "properties": {
            "packet": {
                "description": "The TaskPacket, as a JSON object or a JSON-encoded string of one. goal_id, round, from_role and to_role may be omitted: they are filled from your team record.",
                "anyOf": [
                    { "$ref": packet_schema["$ref"] },
                    { "type": "string", "description": "A TaskPacket object, JSON-encoded." },
                ],
            },
            "locale": {
                "type": "string",
                "description": "The language of a refusal's messages, a BCP 47 tag such as zh-TW (default: the server's --locale, else its environment's LC_ALL, LC_MESSAGES or LANG, else English); codes do not change.",
            },
        },
        "required": ["packet"],
        "additionalProperties": false,
        "$defs": packet_schema["$defs"],
    });
    let description = format!(
        "File a TaskPacket for the next role of your team (planner → executor, executor → verifier, verifier → executor). Your identity is this server's agent; the packet describes the work. These seven keys are enough: {MINIMAL_PACKET_EXAMPLE} (goal_id, round, from_role and to_role may be omitted and are filled from your record). Optional keys, all defaulting to empty: {}. Returns {{\"ok\": true, \"path\", \"bytes\"}}; a refusal starts with its code.",
        handoff::optional_keys().join(", ")
    );
    let schema: JsonObject = match input {
        Value::Object(object) => object,
        _ => JsonObject::new(),
    };
    Tool::new(TOOL_NAME, description, Arc::new(schema))
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("specmint", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(store) = &self.store {
            let arguments = request.arguments.clone().unwrap_or_default();
            let (store, name) = (store.clone(), request.name.to_string());
            // Off the runtime's thread: the PostgreSQL client is synchronous and runs a
            // runtime of its own, which cannot start inside this one.
            let called = tokio::task::spawn_blocking(move || store.call(&name, &arguments))
                .await
                .map_err(|e| {
                    ErrorData::internal_error(format!("the store call failed: {e}"), None)
                })?;
            if let Some(result) = called {
                return Ok(result?.into());
            }
        }
        let Some((home, agent)) = self.handoff.as_ref().filter(|_| request.name == TOOL_NAME)
        else {
            let names: Vec<&str> = self.tools.iter().map(|t| t.name.as_ref()).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}` (this server has {})",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
        };
        let packet = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("packet"))
            .map(Value::to_string);
        let locale = match request.arguments.as_ref().and_then(|a| a.get("locale")) {
            None | Some(Value::Null) => self.locale.clone(),
            Some(Value::String(tag)) => {
                specmint::runtime::messages::check_wanted(tag)
                    .map_err(|e| ErrorData::invalid_params(format!("`locale`: {}", e.0), None))?;
                Some(tag.clone())
            }
            Some(_) => {
                return Err(ErrorData::invalid_params(
                    "`locale` is a string such as \"zh-TW\"".to_owned(),
                    None,
                ))
            }
        };
        // Off the runtime's thread: a filing waits for its leg's lock (a bounded wait), and the
        // message loop keeps answering meanwhile (`ping`, other calls).
        let (home, agent) = (home.clone(), agent.clone());
        let filed = tokio::task::spawn_blocking(move || {
            let messages = locale.and_then(|tag| {
                specmint::bundled::find("task-packet")
                    .and_then(|b| specmint::verdict::DocType::Bundled(b).catalog(&tag))
            });
            handoff::team_handoff_in(&home, &agent, packet.as_deref(), messages.as_ref())
        })
        .await
        .map_err(|e| ErrorData::internal_error(format!("the filing failed: {e}"), None))?;
        let result = match filed {
            Ok(filed) => tools::done(&Filed::from(&filed)),
            Err(refusal) => CallToolResult::error(vec![ContentBlock::text(refusal.to_string())]),
        };
        Ok(result.into())
    }
}
