//! The long-running commands: the stdio servers (`specmint mcp`, `specmint lsp`, on one
//! JSON-RPC [`framing`] module) and the A2A door over HTTP (`specmint a2a serve`).

pub mod a2a;
pub mod framing;
pub mod lsp;
pub mod mcp;
