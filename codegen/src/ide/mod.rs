//! What serves the tools that show or edit a spec (`specmint lsp`): the [`outline`] of its
//! Markdown, as the loader reads it, and the words a completion offers.

pub mod outline;
