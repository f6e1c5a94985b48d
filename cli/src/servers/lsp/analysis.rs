//! The open buffers, the spec each belongs to, and what the loader says of it: the
//! diagnostics (as `specmint generate` reports them, with LSP ranges), the Markdown's
//! outline and, for a spec that loads, its generated Rust and JSON Schema.

use std::cell::OnceCell;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::str::FromStr;

use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    TextDocumentContentChangeEvent, Uri,
};
use serde_json::Value;
use specmint_codegen::outline::{outline, Outline};
use specmint_codegen::{model::Spec, Diagnostics, Options, Pos, SpecSource};

use super::text::Text;
use super::uri_path;

/// A spec: its directory and file stem.
pub type SpecKey = (PathBuf, String);

/// Which of a spec's two files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Md,
    Toml,
}

/// The open buffers, and each spec's analysis until one of its files changes.
#[derive(Default)]
pub struct Workspace {
    open: HashMap<PathBuf, Text>,
    cache: HashMap<SpecKey, Rc<Analysis>>,
}

/// One spec as the buffers (or the disk) have it now.
pub struct Analysis {
    pub md_uri: String,
    pub toml_uri: String,
    pub md: Text,
    pub toml: Text,
    /// The spec's sources, `None` when the files are no spec (no sidecar, no field table).
    pub source: Option<SpecSource>,
    pub outline: Outline,
    /// The loaded spec, or every problem; `None` when no spec.
    pub loaded: Option<Result<Spec, Diagnostics>>,
    /// Files that could not be read from disk (not a regular file, too big) or not as UTF-8:
    /// (side, why).
    unreadable: Vec<(Side, String)>,
    /// The locale files beside the spec (`<stem>.<tag>.md`): their path as diagnostics name
    /// it, URI and text.
    pub locales: Vec<(String, String, Text)>,
    generated: OnceCell<Option<BTreeMap<String, String>>>,
}

/// A `file:` URI for `path` (the bytes URIs may not hold, percent-encoded).
pub fn path_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The spec a locale file (`<stem>.<tag>.md`, its messages in another language) belongs to,
/// and its tag: `None` for any other file.
pub fn locale_of(uri: &str) -> Option<(SpecKey, String)> {
    let path = uri_path(uri)?;
    if path.extension()?.to_str()? != "md" {
        return None;
    }
    let (stem, tag) = path.file_stem()?.to_str()?.split_once('.')?;
    let dir = path.parent()?;
    // As a spec directory is read: `<stem>.<tag>.md` beside `<stem>.md` (a tag that is not
    // BCP 47 is the loader's diagnostic, in that file).
    (!stem.is_empty() && !tag.is_empty() && dir.join(format!("{stem}.md")).is_file())
        .then(|| ((dir.to_path_buf(), stem.to_owned()), tag.to_owned()))
}

/// The spec a file belongs to, and which of its files it is (a locale file counts as its
/// spec's Markdown: a change to it is a change to the spec).
pub fn key_of(uri: &str) -> Option<(SpecKey, Side)> {
    if let Some((key, _)) = locale_of(uri) {
        return Some((key, Side::Md));
    }
    let path = uri_path(uri)?;
    let side = match path.extension()?.to_str()? {
        "md" => Side::Md,
        "toml" => Side::Toml,
        _ => return None,
    };
    let stem = path.file_stem()?.to_str()?.to_owned();
    Some(((path.parent()?.to_path_buf(), stem), side))
}

impl Workspace {
    pub fn key_of(&mut self, uri: &str) -> Option<SpecKey> {
        let (key, _) = key_of(uri)?;
        self.cache.remove(&key);
        Some(key)
    }

    /// A buffer opened: the spec it is part of.
    pub fn open(&mut self, uri: &str, text: String) -> Option<SpecKey> {
        let path = uri_path(uri)?;
        self.open.insert(path, Text::new(text));
        self.key_of(uri)
    }

    /// A buffer closed: it is read from disk again.
    pub fn close(&mut self, uri: &str) -> Option<SpecKey> {
        self.open.remove(&uri_path(uri)?);
        self.key_of(uri)
    }

    /// Applies `didChange`'s content changes (whole text or ranges) to a buffer.
    pub fn change(&mut self, uri: &str, changes: &[Value]) -> Option<SpecKey> {
        let path = uri_path(uri)?;
        let text = self.open.get_mut(&path)?;
        for change in changes {
            let Ok(change) =
                serde_json::from_value::<TextDocumentContentChangeEvent>(change.clone())
            else {
                continue;
            };
            let next = match change.range {
                None => change.text,
                Some(r) => {
                    let (s, e) = (text.offset(r.start), text.offset(r.end));
                    let (s, e) = (s.min(e), s.max(e));
                    let mut t = std::mem::take(&mut text.text);
                    t.replace_range(s..e, &change.text);
                    t
                }
            };
            *text = Text::new(next);
        }
        self.key_of(uri)
    }

    /// The analysis of the spec `uri` belongs to (`None` for a URI that is no `.md` or
    /// `.toml` file).
    pub fn analysis(&mut self, uri: &str) -> Option<(Rc<Analysis>, Side)> {
        let (key, side) = key_of(uri)?;
        Some((self.analysis_of(&key), side))
    }

    pub fn analysis_of(&mut self, key: &SpecKey) -> Rc<Analysis> {
        if let Some(a) = self.cache.get(key) {
            return a.clone();
        }
        let a = Rc::new(self.analyse(key));
        self.cache.insert(key.clone(), a.clone());
        a
    }

    /// A file's text: its open buffer, else the disk (`None` when missing). The disk is read
    /// as every spec file is ([`specmint_codegen::read_regular_file`]): a FIFO, a device or a
    /// file over [`specmint_codegen::MAX_SPEC_FILE_BYTES`] is not read, and said so.
    fn read(&self, path: &Path, side: Side, unreadable: &mut Vec<(Side, String)>) -> Option<Text> {
        if let Some(t) = self.open.get(path) {
            return Some(t.clone());
        }
        let shown_as = path.display().to_string();
        let limit = specmint_codegen::MAX_SPEC_FILE_BYTES;
        let bytes = match specmint_codegen::read_regular_file(path, &shown_as, limit) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                unreadable.push((side, format!("the file cannot be read: {e}")));
                return None;
            }
        };
        Some(Text::new(match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                unreadable.push((side, format!("the file is not UTF-8: {}", e.utf8_error())));
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        }))
    }

    /// Whether the file `uri` names is open or on disk (a link counts, whatever it points at).
    pub fn has_file(&self, uri: &str) -> bool {
        uri_path(uri).is_some_and(|path| {
            self.open.contains_key(&path) || std::fs::symlink_metadata(&path).is_ok()
        })
    }

    fn analyse(&self, (dir, stem): &SpecKey) -> Analysis {
        let md_path = dir.join(format!("{stem}.md"));
        let toml_path = dir.join(format!("{stem}.toml"));
        let mut unreadable = Vec::new();
        let md = self.read(&md_path, Side::Md, &mut unreadable);
        let toml = self.read(&toml_path, Side::Toml, &mut unreadable);
        let mut files = BTreeMap::new();
        if let Some(md) = &md {
            files.insert(format!("{stem}.md"), md.text.clone());
        }
        if let Some(toml) = &toml {
            files.insert(format!("{stem}.toml"), toml.text.clone());
        }
        let display = dir
            .file_name()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut locales = Vec::new();
        for path in self.locale_paths(dir, stem) {
            let mut ignored = Vec::new();
            let Some(text) = self.read(&path, Side::Md, &mut ignored) else {
                continue;
            };
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            files.insert(name.to_string(), text.text.clone());
            locales.push((format!("{display}/{name}"), path_uri(&path), text));
        }
        let source = specmint_codegen::spec_sources(&files, &display).pop();
        let md = md.unwrap_or_default();
        Analysis {
            md_uri: path_uri(&md_path),
            toml_uri: path_uri(&toml_path),
            outline: outline(&md.text),
            loaded: source.as_ref().map(specmint_codegen::load),
            source,
            md,
            toml: toml.unwrap_or_default(),
            unreadable,
            locales,
            generated: OnceCell::new(),
        }
    }

    /// The locale files of spec `stem` in `dir`, open or on disk, sorted.
    fn locale_paths(&self, dir: &Path, stem: &str) -> Vec<PathBuf> {
        let is_locale = |p: &Path| {
            p.parent() == Some(dir) && locale_of(&path_uri(p)).is_some_and(|((_, s), _)| s == stem)
        };
        let mut paths: Vec<PathBuf> = self.open.keys().filter(|p| is_locale(p)).cloned().collect();
        if let Ok(entries) = std::fs::read_dir(dir) {
            paths.extend(
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| is_locale(p)),
            );
        }
        paths.sort();
        paths.dedup();
        paths
    }

    /// The diagnostics of every file of spec `key`, by URI (an empty list for a file with
    /// none, so that a fixed problem is cleared).
    pub fn diagnostics(&mut self, key: &SpecKey) -> BTreeMap<String, Value> {
        let a = self.analysis_of(key);
        let mut out: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        out.insert(a.md_uri.clone(), Vec::new());
        if a.source.is_some() {
            out.insert(a.toml_uri.clone(), Vec::new());
        }
        for (side, why) in &a.unreadable {
            let uri = a.uri(*side).to_owned();
            out.entry(uri).or_default().push(Diagnostic {
                range: a.text(*side).range(0, 0),
                severity: Some(DiagnosticSeverity::ERROR),
                source: Some("specmint".to_owned()),
                message: why.clone(),
                ..Diagnostic::default()
            });
        }
        for (_, uri, _) in &a.locales {
            out.insert(uri.clone(), Vec::new());
        }
        if let Some(Err(diags)) = &a.loaded {
            for d in diags.iter() {
                if let Some((_, uri, text)) = a.locales.iter().find(|(file, _, _)| *file == d.file)
                {
                    let (s, e) = text.range_at(d.pos);
                    let mut message = d.message.clone();
                    if !d.hint.is_empty() {
                        message.push_str("\nhint: ");
                        message.push_str(&d.hint);
                    }
                    out.entry(uri.clone()).or_default().push(Diagnostic {
                        range: text.range(s, e),
                        severity: Some(DiagnosticSeverity::ERROR),
                        source: Some("specmint".to_owned()),
                        message,
                        ..Diagnostic::default()
                    });
                    continue;
                }
                let side = a.side_of(&d.file);
                out.entry(a.uri(side).to_owned())
                    .or_default()
                    .push(a.diagnostics_for(side, d));
            }
        }
        out.into_iter()
            .map(|(uri, d)| (uri, serde_json::to_value(d).unwrap_or_default()))
            .collect()
    }
}

impl Analysis {
    pub fn uri(&self, side: Side) -> &str {
        match side {
            Side::Md => &self.md_uri,
            Side::Toml => &self.toml_uri,
        }
    }

    pub fn text(&self, side: Side) -> &Text {
        match side {
            Side::Md => &self.md,
            Side::Toml => &self.toml,
        }
    }

    /// Which file a diagnostic's `file` names (the Markdown for anything else).
    pub fn side_of(&self, file: &str) -> Side {
        match &self.source {
            Some(s) if s.toml_path == file => Side::Toml,
            _ => Side::Md,
        }
    }

    /// The spec, when it loads.
    pub fn spec(&self) -> Option<&Spec> {
        self.loaded.as_ref()?.as_ref().ok()
    }

    /// What `specmint generate` writes for the spec (`rust/<name>.rs`, `schema/...`), when
    /// it loads.
    pub fn generated(&self) -> Option<&BTreeMap<String, String>> {
        self.generated
            .get_or_init(|| {
                let source = self.source.as_ref()?;
                self.spec()?;
                let options = Options {
                    regenerate_with: Some("specmint generate".to_owned()),
                    ..Options::default()
                };
                specmint_codegen::generate(std::slice::from_ref(source), &options).ok()
            })
            .as_ref()
    }

    /// The byte range a problem at `pos` covers: a fenced example the whole block, else as
    /// [`Text::range_at`] says.
    pub fn problem_range(&self, side: Side, pos: Pos) -> (usize, usize) {
        let text = self.text(side);
        if side == Side::Md && pos.line > 0 {
            if let Some(f) = self.outline.fences.iter().find(|f| f.pos.line == pos.line) {
                let start = text.offset_of(pos);
                let last = pos.line + f.lines; // the closing fence (0-based: pos.line - 1 + lines + 1)
                let end = text.line_start(last) + text.line(last).len();
                return (start, end.max(start));
            }
        }
        text.range_at(pos)
    }

    /// The codes of the error table (`| `code` | When |` rows).
    pub fn error_codes(&self) -> impl Iterator<Item = (&str, Pos)> {
        self.outline
            .tables
            .iter()
            .filter(|t| t.kind == Some("an error table"))
            .flat_map(|t| t.rows.iter())
            .filter_map(|r| r.cells.first())
            .map(|c| (c.key.as_str(), c.pos))
    }

    /// Where each name is defined in the Markdown: the first cell of a field, enum, states,
    /// error or cap row, and a named table's header.
    pub fn definitions(&self) -> Vec<(&str, Pos)> {
        let mut out = Vec::new();
        for t in &self.outline.tables {
            match t.kind {
                Some(
                    "a field table" | "an enum table" | "a states table" | "an error table"
                    | "a cap table" | "a union table" | "a text table",
                ) => {}
                _ => continue,
            }
            if let Some(name) = &t.name {
                out.push((name.as_str(), t.pos));
            }
            for r in &t.rows {
                if let Some(c) = r.cells.first() {
                    out.push((c.key.as_str(), c.pos));
                }
            }
        }
        out
    }

    pub fn diagnostics_for(&self, side: Side, d: &specmint_codegen::Diagnostic) -> Diagnostic {
        let text = self.text(side);
        let (s, e) = self.problem_range(side, d.pos);
        let named: Vec<&str> = d.message.split('`').skip(1).step_by(2).collect();
        // The spec's error code the problem is about: one the message calls a code, else
        // the first it names that the error table has.
        let called = d
            .message
            .split("code `")
            .nth(1)
            .and_then(|r| r.split('`').next());
        let code = called
            .or_else(|| {
                named
                    .iter()
                    .find(|n| self.error_codes().any(|(c, _)| c == **n))
                    .copied()
            })
            .map(|c| NumberOrString::String(c.to_owned()));
        let mut related = Vec::new();
        let defs = self.definitions();
        for n in &named {
            let last = n
                .rsplit(['.', ' '])
                .next()
                .unwrap_or(n)
                .trim_end_matches("[]");
            for (name, pos) in &defs {
                let same_line = side == Side::Md && pos.line == d.pos.line;
                if (name == n || *name == last) && !same_line && related.len() < 4 {
                    let (ds, de) = self.md.range_at(*pos);
                    if let Ok(uri) = Uri::from_str(&self.md_uri) {
                        related.push(DiagnosticRelatedInformation {
                            location: Location::new(uri, self.md.range(ds, de)),
                            message: format!("`{name}` is here"),
                        });
                    }
                }
            }
        }
        let mut message = d.message.clone();
        if !d.hint.is_empty() {
            message.push_str("\nhint: ");
            message.push_str(&d.hint);
        }
        Diagnostic {
            range: text.range(s, e),
            severity: Some(DiagnosticSeverity::ERROR),
            code,
            source: Some("specmint".to_owned()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            ..Diagnostic::default()
        }
    }
}
