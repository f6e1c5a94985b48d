//! `specmint mcp --home DIR --agent ID`: the `team_handoff` tool over MCP stdio (rmcp).
//!
//! The caller's identity is the `--agent` the server was started with, never a tool
//! parameter: the tool's one parameter is `packet`. A filing answers the tool result
//! `{"ok": true, "path", "bytes"}` (as text and as structured content); a refusal is a tool
//! result with `isError` whose text starts with its code (`not_a_team_member: ...`).
//! Calls run one at a time on a single-threaded runtime: filing is short blocking file I/O.

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Value};
use specmint::task_packet::handoff::{self, FILLED_KEYS, TOOL_NAME};
use specmint::task_packet::{JSON_SCHEMA, MINIMAL_PACKET_EXAMPLE};

use super::UsageError;

/// `specmint mcp ...`.
pub fn run(args: &[String]) -> Result<u8, UsageError> {
    let mut home = None;
    let mut agent = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let slot = match arg.as_str() {
            "--home" => &mut home,
            "--agent" => &mut agent,
            other => return Err(UsageError(format!("unexpected argument `{other}`"))),
        };
        *slot = Some(
            rest.next()
                .ok_or_else(|| UsageError(format!("{arg} takes a value")))?
                .clone(),
        );
    }
    let server = HandoffServer {
        home: home
            .ok_or_else(|| UsageError("missing --home DIR".to_owned()))?
            .into(),
        agent: agent.ok_or_else(|| UsageError("missing --agent ID".to_owned()))?,
        tool: tool(),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| super::failure(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(async {
            let service = server.serve(rmcp::transport::stdio()).await?;
            service.waiting().await?;
            Ok::<_, Box<dyn std::error::Error>>(())
        })
        .map_err(|e| UsageError(format!("MCP server: {e}")))?;
    Ok(0)
}

struct HandoffServer {
    home: PathBuf,
    agent: String,
    tool: Tool,
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

impl ServerHandler for HandoffServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("specmint", env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![self.tool.clone()]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != TOOL_NAME {
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}` (this server has `{TOOL_NAME}`)",
                    request.name
                ),
                None,
            ));
        }
        let packet = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("packet"))
            .map(Value::to_string);
        let result = match handoff::team_handoff(&self.home, &self.agent, packet.as_deref()) {
            Ok(filed) => {
                let value = filed.to_json();
                let mut result =
                    CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
                result.structured_content = Some(value);
                result
            }
            Err(refusal) => CallToolResult::error(vec![ContentBlock::text(refusal.to_string())]),
        };
        Ok(result.into())
    }
}
