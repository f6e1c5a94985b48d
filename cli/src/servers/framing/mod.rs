//! JSON-RPC 2.0 framing, one module for both stdio servers: the error codes and error
//! replies they share, `specmint mcp`'s newline-delimited messages ([`lines`], in front of
//! rmcp) and `specmint lsp`'s `Content-Length`-framed ones ([`headers`]). Each reads its input
//! itself so that every message gets an answer, the server keeps serving after each.

pub mod headers;
pub mod lines;

use serde_json::{json, Value};

/// JSON-RPC 2.0's parse error.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0's invalid request.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC 2.0: the method is not one the server has.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC 2.0: the params do not fit the method.
pub const INVALID_PARAMS: i64 = -32602;
/// A request before the session is initialized (LSP's `ServerNotInitialized`, the code MCP
/// servers use for it too).
pub const NOT_INITIALIZED: i64 = -32002;

/// A JSON-RPC error reply.
pub fn error_reply(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}
