//! What the workspace's tests and benches share, one crate instead of files compiled into
//! each by path:
//!
//! - [`mcp_client`]: a raw MCP client for `specmint mcp` (the CLI's tests and benches);
//! - [`timing`]: latencies of steps that take turns (the CLI's benches);
//! - [`counting`]: a counting global allocator (the library's `tests/alloc.rs` and
//!   `benches/alloc.rs`; each declares the `#[global_allocator]` static itself);
//! - [`child`]: contenders run in processes of their own (the TaskPack benches);
//! - [`contenders`]: the benchmarks' fixtures and contenders per spec.

use std::path::Path;

pub mod child;
pub mod contenders;
pub mod counting;
pub mod mcp_client;
pub mod timing;

/// The repository's root (the library `specmint`'s package: `spec/`, `tests/peers/`), the
/// folder above this crate's.
pub fn repository_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support/ is a folder of the repository")
}
