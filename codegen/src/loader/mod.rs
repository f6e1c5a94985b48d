//! Load phase: one spec's two files, as text ([`SpecSource`]), read into what the checker
//! cross-checks: the Markdown's headings, GFM tables and fences with positions
//! ([`markdown`]), and the TOML sidecar walked with spans ([`sidecar`]). Nothing here judges
//! what the tables mean: that is the check phase's (`check`).

pub(crate) mod markdown;
pub(crate) mod sidecar;

/// One spec's two files, as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecSource {
    /// Module name: the file stem (`orders`).
    pub name: String,
    /// The Markdown path as displayed in diagnostics (`spec/orders.md`).
    pub md_path: String,
    /// The Markdown text.
    pub md: String,
    /// The sidecar path as displayed (`spec/orders.toml`).
    pub toml_path: String,
    /// The sidecar text; empty when the file is missing (reported as a diagnostic).
    pub toml: String,
    /// The messages in other languages beside the spec (`<stem>.<locale>.md`), sorted by tag.
    pub locales: Vec<LocaleSource>,
}

/// One locale file of a spec (`<stem>.<locale>.md`), as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleSource {
    /// The tag, as the file name spells it (`zh-TW`).
    pub tag: String,
    /// The path as displayed in diagnostics (`spec/orders.zh-TW.md`).
    pub path: String,
    /// The Markdown text.
    pub md: String,
}
