//! The Action Envelope engine's answers (see [`crate::answer`]): what `specmint envelope new|apply`
//! prints with `--format json` and the action tools of `specmint mcp --store` return. A package
//! (`envelope show`, the `package_show` tool) is answered by its [`Manifest`] itself; a refusal by
//! the [`Refusal`](crate::Refusal) itself.
//!
//! [`Manifest`]: super::manifest::Manifest

use serde::Serialize;

use super::engine;
use super::PackageState;

/// An applied (or replayed) envelope: `{"ok": true, "package_id", "replayed", "revision",
/// "state"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Applied<'a> {
    /// Always `true`.
    pub ok: bool,
    /// The package.
    pub package_id: &'a str,
    /// Whether the envelope had already been applied (its recorded outcome is answered).
    pub replayed: bool,
    /// The package's revision right after the action.
    pub revision: u64,
    /// The package's state right after the action.
    pub state: PackageState,
}

impl<'a> From<&'a engine::Applied> for Applied<'a> {
    fn from(applied: &'a engine::Applied) -> Self {
        Applied {
            ok: true,
            package_id: &applied.package_id,
            replayed: applied.replayed,
            revision: applied.revision,
            state: applied.state,
        }
    }
}
