//! The requests: hover, definition, references, completion, code actions, formatting and
//! document symbols, each on the loader's reading of the spec ([`Analysis`]).

use std::collections::BTreeMap;
use std::str::FromStr;

use lsp_types::{
    CodeAction, CodeActionKind, CompletionItem, CompletionItemKind, DocumentSymbol, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, Position, Range, SymbolKind, TextEdit, Uri,
    WorkspaceEdit,
};
use serde_json::Value;
use specmint_codegen::model::{GuardedRule, TypeDef};
use specmint_codegen::outline::{
    Table, CAP_UNITS, ERROR_RULES, RULE_FUNCTIONS, RULE_TABLES, VALUE_IF_MUST,
};
use specmint_codegen::Pos;

use super::analysis::{locale_of, path_uri, Analysis, Side, Workspace};
use super::cells;
use super::text::{cell_end, split_row, Text};
use crate::servers::framing::{INVALID_PARAMS, METHOD_NOT_FOUND};
use specmint::runtime::messages::PLACEHOLDERS;

type Reply = Result<Value, (i64, String)>;

/// Answers one request.
pub fn request(ws: &mut Workspace, method: &str, params: Value) -> Reply {
    let known = [
        "textDocument/hover",
        "textDocument/definition",
        "textDocument/references",
        "textDocument/completion",
        "textDocument/codeAction",
        "textDocument/formatting",
        "textDocument/documentSymbol",
    ];
    if !known.contains(&method) {
        return Err((METHOD_NOT_FOUND, format!("method not found: `{method}`")));
    }
    let Some(uri) = params.pointer("/textDocument/uri").and_then(Value::as_str) else {
        return Err((
            INVALID_PARAMS,
            format!("invalid params: `{method}` takes `textDocument.uri`"),
        ));
    };
    if !ws.has_file(uri) {
        return Ok(Value::Null); // neither open nor on disk (deleted, a typo): nothing to say
    }
    if let Some((key, _)) = locale_of(uri) {
        // A locale file: completion of its codes and placeholders; nothing else to say.
        if method != "textDocument/completion" {
            return Ok(Value::Null);
        }
        let a = ws.analysis_of(&key);
        let this = super::uri_path(uri).map(|p| path_uri(&p));
        let Some((_, _, text)) = a.locales.iter().find(|(_, u, _)| Some(u) == this.as_ref()) else {
            return Ok(Value::Null);
        };
        let position = params
            .get("position")
            .cloned()
            .map(serde_json::from_value::<Position>)
            .and_then(Result::ok)
            .ok_or((
                INVALID_PARAMS,
                format!("invalid params: `{method}` takes `position`"),
            ))?;
        let items = locale_completion(&a, text, text.offset(position));
        return serde_json::to_value(items).map_err(|e| (INVALID_PARAMS, e.to_string()));
    }
    let Some((a, side)) = ws.analysis(uri) else {
        return Ok(Value::Null); // not a spec's file: nothing to say
    };
    let position = params
        .get("position")
        .cloned()
        .map(serde_json::from_value::<Position>);
    let at = match position {
        Some(Ok(p)) => Some(a.text(side).offset(p)),
        Some(Err(e)) => return Err((INVALID_PARAMS, format!("invalid params: `position`: {e}"))),
        None => None,
    };
    let need_at = || {
        at.ok_or((
            INVALID_PARAMS,
            format!("invalid params: `{method}` takes `position`"),
        ))
    };
    let json = |v: Result<Value, serde_json::Error>| v.map_err(|e| (INVALID_PARAMS, e.to_string()));
    match method {
        "textDocument/hover" => json(serde_json::to_value(hover(&a, side, need_at()?))),
        "textDocument/definition" => json(serde_json::to_value(definition(&a, side, need_at()?))),
        "textDocument/references" => json(serde_json::to_value(references(&a, side, need_at()?))),
        "textDocument/completion" => json(serde_json::to_value(completion(&a, side, need_at()?))),
        "textDocument/codeAction" => {
            let range = params
                .get("range")
                .cloned()
                .map(serde_json::from_value::<Range>)
                .and_then(Result::ok)
                .ok_or((
                    INVALID_PARAMS,
                    "invalid params: `textDocument/codeAction` takes `range`".to_owned(),
                ))?;
            json(serde_json::to_value(code_actions(&a, side, range)))
        }
        "textDocument/formatting" => json(serde_json::to_value(match side {
            Side::Md => format_tables(&a),
            Side::Toml => Vec::new(),
        })),
        _ => json(serde_json::to_value(symbols(&a, side))),
    }
}

/// The name under the cursor: a code span's text, a TOML string's, or the word.
fn token_at(text: &Text, at: usize) -> Option<(usize, usize)> {
    let pos = text.position(at);
    let line_start = text.line_start(pos.line as usize);
    let line = text.line(pos.line as usize);
    let i = at - line_start;
    for q in ['`', '"'] {
        let before = line[..i].matches(q).count();
        if before % 2 == 1 {
            let open = line[..i].rfind(q)? + 1;
            let close = line[i..].find(q).map_or(line.len(), |c| i + c);
            return Some((line_start + open, line_start + close));
        }
    }
    let word = |c: char| c.is_alphanumeric() || "_-.[]".contains(c);
    let s = line[..i].rfind(|c| !word(c)).map_or(0, |s| s + 1);
    let e = line[i..].find(|c| !word(c)).map_or(line.len(), |e| i + e);
    (s < e).then_some((line_start + s, line_start + e))
}

fn token(text: &Text, at: usize) -> Option<&str> {
    token_at(text, at).map(|(s, e)| &text.text[s..e])
}

/// The last segment of a path (`items[].name` -> `name`).
fn last_segment(path: &str) -> &str {
    path.rsplit('.')
        .next()
        .unwrap_or(path)
        .trim_end_matches("[]")
        .trim()
}

/// The table and row (if a body row) on the 1-based Markdown line `line`.
fn row_on(a: &Analysis, line: usize) -> Option<(&Table, Option<usize>)> {
    a.outline.tables.iter().find_map(|t| {
        let last = t.rows.last().map_or(t.pos.line + 1, |r| r.pos.line);
        if line < t.pos.line || line > last {
            return None;
        }
        Some((t, t.rows.iter().position(|r| r.pos.line == line)))
    })
}

fn md_location(a: &Analysis, side: Side, pos: Pos) -> Option<Location> {
    let text = a.text(side);
    let (s, e) = text.range_at(pos);
    Some(Location::new(
        Uri::from_str(a.uri(side)).ok()?,
        text.range(s, e),
    ))
}

// ---- hover ----------------------------------------------------------------------------

/// A Rust item of the generated file: the line that starts with `head`, with its doc
/// comment and attributes above it.
fn rust_item(rust: &str, head: &str, from: usize) -> Option<String> {
    let lines: Vec<&str> = rust.lines().collect();
    let at = (from..lines.len()).find(|&i| lines[i].trim_start().starts_with(head))?;
    let indent = lines[at].len() - lines[at].trim_start().len();
    let mut start = at;
    while start > 0 {
        let prev = lines[start - 1];
        let t = prev.trim_start();
        let deeper = prev.len() - t.len() > indent && !t.is_empty();
        if t.starts_with("///") || t.starts_with("#[") || t.starts_with(")]") || deeper {
            start -= 1;
        } else {
            break;
        }
    }
    Some(lines[start..=at].join("\n"))
}

/// The Rust field and schema fragment of `key` in `table`; with `with_copies`, in each
/// copy of it too (a shared table whose uses have their own codes or caps is one table per
/// use: `buyer_address` for `address` at `buyer.address`), each named with its use.
fn field_hover(a: &Analysis, table: &str, key: &str, with_copies: bool, out: &mut Vec<String>) {
    let (Some(spec), Some(files)) = (a.spec(), a.generated()) else {
        return;
    };
    let objects: Vec<&specmint_codegen::model::Object> = spec
        .types
        .iter()
        .filter_map(|t| match t {
            specmint_codegen::model::TypeDef::Object(o)
                if o.name == table
                    || (with_copies && o.copy_of.as_ref().is_some_and(|c| c.0 == table)) =>
            {
                Some(o)
            }
            _ => None,
        })
        .collect();
    if objects.len() > 1 {
        let uses: Vec<String> = objects
            .iter()
            .map(|o| match &o.copy_of {
                Some((_, at)) => format!("`{}` (`{}`) at `{at}`", o.name, o.rust_name),
                None => format!("`{}` (`{}`) elsewhere", o.name, o.rust_name),
            })
            .collect();
        out.push(format!(
            "`{table}` is used at several paths with their own codes or caps, one table each: {}",
            uses.join(", ")
        ));
    }
    let rust = files.get(&format!("rust/{}.rs", spec.name));
    let schema = files
        .get(&format!("schema/{}.schema.json", spec.name))
        .and_then(|s| serde_json::from_str::<Value>(s).ok());
    for o in objects {
        if let Some(rust) = rust {
            let from = rust
                .lines()
                .position(|l| l.starts_with(&format!("pub struct {} ", o.rust_name)))
                .unwrap_or(0);
            if let Some(f) = o.fields.iter().find(|f| f.key == key) {
                if let Some(item) = rust_item(rust, &format!("pub {}:", f.rust_name), from) {
                    out.push(format!("```rust\n{item}\n```"));
                }
            }
        }
        let name = &o.name;
        if let Some(fragment) = schema.as_ref().and_then(|s| {
            s.pointer(&format!("/$defs/{name}/properties/{key}"))
                .cloned()
        }) {
            out.push(format!(
                "JSON Schema (`$defs.{name}.properties.{key}`):\n```json\n{}\n```",
                serde_json::to_string_pretty(&fragment).unwrap_or_default()
            ));
        }
    }
    let caps: Vec<String> = spec
        .caps
        .iter()
        .filter(|c| last_segment(&c.binding) == key)
        .map(|c| format!("- `{}`: {} (`{}`)", c.binding, c.value_text, c.constant))
        .collect();
    if !caps.is_empty() {
        out.push(format!("Caps:\n{}", caps.join("\n")));
    }
}

/// The table holding the last field of `path` (`buyer.address.line` → `buyer_address`), as
/// the loaded spec resolves it from its root.
fn table_holding(spec: &specmint_codegen::model::Spec, path: &str) -> Option<String> {
    use specmint_codegen::model::{Base, TypeDef};
    let mut table = spec.root.clone();
    let segs: Vec<&str> = path.split('.').collect();
    for seg in &segs[..segs.len().saturating_sub(1)] {
        let Some(TypeDef::Object(o)) = spec.type_def(&table) else {
            return None;
        };
        let f = o
            .fields
            .iter()
            .find(|f| f.key == seg.trim_end_matches("[]"))?;
        let Base::Object(next) = &f.ty.base else {
            return None;
        };
        table = next.clone();
    }
    Some(table)
}

fn const_hover(a: &Analysis, name: &str, out: &mut Vec<String>) {
    let (Some(spec), Some(files)) = (a.spec(), a.generated()) else {
        return;
    };
    let Some(rust) = files.get(&format!("rust/{}.rs", spec.name)) else {
        return;
    };
    if let Some(item) = rust_item(rust, &format!("pub const {name}:"), 0) {
        out.push(format!("```rust\n{item}\n```"));
    }
    let uses: Vec<String> = rust
        .lines()
        .filter(|l| l.contains(&format!("= {name},")) || l.contains(&format!("= {name})")))
        .map(|l| format!("- `{}`", l.trim().trim_end_matches(',')))
        .collect();
    if !uses.is_empty() {
        out.push(format!("Rules that apply it:\n{}", uses.join("\n")));
    }
    if let Some(cap) = spec.caps.iter().find(|c| c.constant == name) {
        let key = last_segment(&cap.binding).to_owned();
        // The table the cap's path lands in (a copy of a shared table, for a path through
        // one), else the field table with a row of that key.
        let table = table_holding(spec, &cap.binding).or_else(|| {
            a.outline
                .tables
                .iter()
                .find(|t| {
                    t.kind == Some("a field table")
                        && t.rows
                            .iter()
                            .any(|r| r.cells.first().is_some_and(|c| c.key == key))
                })
                .and_then(|t| t.name.clone())
        });
        if let Some(name) = table {
            field_hover_schema_only(a, &name, &key, out);
        }
    }
}

fn field_hover_schema_only(a: &Analysis, table: &str, key: &str, out: &mut Vec<String>) {
    let mut parts = Vec::new();
    field_hover(a, table, key, false, &mut parts);
    out.extend(parts.into_iter().filter(|p| p.starts_with("JSON Schema")));
}

fn code_hover(a: &Analysis, code: &str, out: &mut Vec<String>) {
    out.push(format!("Error code `{code}`, raised by:"));
    let mut places = Vec::new();
    for (side, loc) in occurrences(a, code) {
        let text = a.text(side);
        let line = loc.range.start.line as usize;
        let what = text.line(line).trim();
        if side == Side::Md
            && a.error_codes()
                .any(|(c, p)| c == code && p.line == line + 1)
        {
            continue; // the code's own row
        }
        let file = if side == Side::Md { "md" } else { "toml" };
        places.push(format!(
            "- {file}:{}: `{}`",
            line + 1,
            what.replace('`', "'")
        ));
    }
    if let (Some(spec), Some(files)) = (a.spec(), a.generated()) {
        if let Some(rust) = files.get(&format!("rust/{}.rs", spec.name)) {
            let n = rust.matches(&format!("code = \"{code}\"")).count();
            if n > 0 {
                places.push(format!(
                    "- {n} rule(s) of the generated Rust (`code = \"{code}\"`)"
                ));
            }
        }
    }
    if places.is_empty() {
        places.push("- nothing yet".to_owned());
    }
    out.push(places.join("\n"));
}

/// A rules table's row: the rule as the runtime reads it back, where it sits, its condition,
/// and its code's meaning.
fn rule_hover(a: &Analysis, code: &str, out: &mut Vec<String>) {
    let rows = a
        .spec()
        .into_iter()
        .flat_map(|s| &s.types)
        .filter_map(|t| match t {
            TypeDef::Object(o) => Some(o),
            _ => None,
        });
    for o in rows {
        for g in o.guarded.iter().filter(|g| g.code == code) {
            if let GuardedRule::Expression { text, .. } = &g.rule {
                out.push(format!(
                    "Rule `{code}` on `{}`: `{text}`{}\n\nComputed exactly by the runtime for the generated Rust, the CLI and the bindings; the schema carries it as `x-rules`.",
                    o.name,
                    g.when()
                ));
            }
        }
    }
    code_hover(a, code, out);
}

fn state_hover(a: &Analysis, state: &str, out: &mut Vec<String>) {
    let mut lines = vec![format!("State `{state}`; transitions:")];
    for t in a
        .outline
        .tables
        .iter()
        .filter(|t| t.kind == Some("a transitions table"))
    {
        for r in &t.rows {
            let cells: Vec<&str> = r.cells.iter().map(|c| c.key.as_str()).collect();
            if cells.first() == Some(&state) || cells.get(1) == Some(&state) {
                lines.push(format!("- {}", cells.join(" → ")));
            }
        }
    }
    out.push(lines.join("\n"));
}

fn hover(a: &Analysis, side: Side, at: usize) -> Option<Hover> {
    let text = a.text(side);
    let mut out = Vec::new();
    let word = token(text, at).unwrap_or_default().to_owned();
    let is_code = |w: &str| a.error_codes().any(|(c, _)| c == w);
    if side == Side::Md {
        let line = text.position(at).line as usize + 1;
        if let Some((t, Some(r))) = row_on(a, line) {
            let cells = &t.rows[r].cells;
            let first = cells.first().map(|c| c.key.clone()).unwrap_or_default();
            match t.kind {
                Some("a cap table") => {
                    if let Some(c) = cells.get(2) {
                        const_hover(a, c.plain.trim(), &mut out);
                    }
                }
                Some("a field table") => {
                    if let Some(name) = &t.name {
                        let start = text.line_start(line - 1);
                        let (column, _) = cell_before(&text.text[start..at]);
                        if column == 2 {
                            out.extend(cells::condition_hover(a, name, &first));
                        }
                        out.push(format!("Field `{first}` of `{name}`"));
                        field_hover(a, name, &first, true, &mut out);
                    }
                }
                Some("an error table") => code_hover(a, &first, &mut out),
                Some("a rules table") => rule_hover(a, &first, &mut out),
                Some("a states table") => state_hover(a, &first, &mut out),
                Some("a text table") => {
                    if let Some(c) = cells.first() {
                        const_hover(a, c.plain.trim(), &mut out);
                    }
                }
                _ => {}
            }
        }
    }
    if out.is_empty() && !word.is_empty() {
        if is_code(&word) {
            code_hover(a, &word, &mut out);
        } else if word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            const_hover(a, &word, &mut out);
        }
    }
    if out.is_empty() {
        return None;
    }
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: out.join("\n\n"),
        }),
        range: None,
    })
}

// ---- definition and references --------------------------------------------------------

/// Whether `written` (a code span, a TOML string or key) names `name`: itself, or a path
/// with `name` as a segment.
fn names(written: &str, name: &str) -> bool {
    written == name
        || written
            .split(['.', ' '])
            .any(|s| s.trim_end_matches("[]") == name)
}

/// Every place `name` is written: the Markdown tables' code spans and first cells, the
/// sidecar's strings and keys.
fn occurrences(a: &Analysis, name: &str) -> Vec<(Side, Location)> {
    let mut out = Vec::new();
    let Ok(md_uri) = Uri::from_str(&a.md_uri) else {
        return out;
    };
    for t in &a.outline.tables {
        for r in &t.rows {
            for (i, c) in r.cells.iter().enumerate() {
                let mut hit = c.codes.iter().any(|(s, _)| names(s, name));
                hit |= i == 0 && c.codes.is_empty() && names(&c.key, name);
                if hit {
                    let (s, e) = a.md.range_at(c.pos);
                    out.push((Side::Md, Location::new(md_uri.clone(), a.md.range(s, e))));
                }
            }
        }
    }
    if let Ok(toml_uri) = Uri::from_str(&a.toml_uri) {
        for n in 0..a.toml.line_count() {
            let line = a.toml.line(n);
            let start = a.toml.line_start(n);
            let mut found = Vec::new();
            let mut rest = line;
            let mut base = 0;
            while let Some(open) = rest.find('"') {
                let Some(close) = rest[open + 1..].find('"') else {
                    break;
                };
                let s = &rest[open + 1..open + 1 + close];
                if names(s, name) {
                    found.push((base + open, base + open + close + 2));
                }
                base += open + close + 2;
                rest = &rest[open + close + 2..];
            }
            if let Some((key, _)) = line.split_once('=') {
                let k = key.trim();
                if k == name || k.trim_matches('"') == name {
                    let s = line.find(k).unwrap_or(0);
                    found.push((s, s + k.len()));
                }
            }
            for (s, e) in found {
                out.push((
                    Side::Toml,
                    Location::new(toml_uri.clone(), a.toml.range(start + s, start + e)),
                ));
            }
        }
    }
    out
}

fn definition(a: &Analysis, side: Side, at: usize) -> Vec<Location> {
    let Some(word) = token(a.text(side), at) else {
        return Vec::new();
    };
    let here = a.text(side).position(at).line as usize + 1;
    let defs = a.definitions();
    let find = |name: &str, elsewhere: bool| -> Vec<Location> {
        defs.iter()
            .filter(|(n, p)| *n == name && !(elsewhere && side == Side::Md && p.line == here))
            .filter_map(|(_, p)| md_location(a, Side::Md, *p))
            .collect()
    };
    // Another row's name first (a cap row's path goes to its field), then the row itself.
    [
        find(word, true),
        find(last_segment(word), true),
        find(word, false),
    ]
    .into_iter()
    .find(|l| !l.is_empty())
    .unwrap_or_default()
}

fn references(a: &Analysis, side: Side, at: usize) -> Vec<Location> {
    let Some(word) = token(a.text(side), at) else {
        return Vec::new();
    };
    let name = if a.definitions().iter().any(|(n, _)| *n == word) {
        word
    } else {
        last_segment(word)
    };
    occurrences(a, name).into_iter().map(|(_, l)| l).collect()
}

// ---- completion -----------------------------------------------------------------------

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    }
}

/// Completion in a locale file's `Code | Message` table: the spec's codes in the first cell,
/// the placeholders (with what each holds) after an open `{` in the message.
fn locale_completion(a: &Analysis, text: &Text, at: usize) -> Vec<CompletionItem> {
    let pos = text.position(at);
    let line = text.line(pos.line as usize);
    let before = &line[..at
        .saturating_sub(text.line_start(pos.line as usize))
        .min(line.len())];
    if !before.trim_start().starts_with('|') {
        return Vec::new();
    }
    // The cell the cursor is in: the first holds the code, the second the message.
    let bars = before.matches('|').count() - before.matches("\\|").count();
    if bars <= 1 {
        return a
            .error_codes()
            .map(|(c, _)| item(c, CompletionItemKind::CONSTANT, "error code"))
            .collect();
    }
    let open = before.rfind('{');
    if open.is_some_and(|o| before.rfind('}').is_none_or(|c| c < o)) {
        return PLACEHOLDERS
            .iter()
            .map(|(name, meaning)| item(name, CompletionItemKind::VARIABLE, meaning))
            .collect();
    }
    Vec::new()
}

/// Every field path from the root table (`items[].name`), through field tables.
fn field_paths(a: &Analysis) -> Vec<String> {
    let tables: BTreeMap<&str, &Table> = a
        .outline
        .tables
        .iter()
        .filter(|t| t.kind == Some("a field table"))
        .filter_map(|t| Some((t.name.as_deref()?, t)))
        .collect();
    let root = a
        .spec()
        .map(|s| s.root.clone())
        .or_else(|| {
            a.toml.text.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == "root").then(|| v.trim().trim_matches('"').to_owned())
            })
        })
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut stack = vec![(root, String::new(), 0)];
    while let Some((table, prefix, depth)) = stack.pop() {
        let Some(t) = tables.get(table.as_str()) else {
            continue;
        };
        for r in &t.rows {
            let key = r.cells.first().map(|c| c.key.clone()).unwrap_or_default();
            let ty = r.cells.get(1).map(|c| c.plain.clone()).unwrap_or_default();
            let path = format!("{prefix}{key}");
            out.push(path.clone());
            let base = ty.trim().trim_end_matches('?');
            let (base, array) = match base.strip_suffix("[]") {
                Some(b) => (b, true),
                None => (base, false),
            };
            if depth < 6 && out.len() < 5000 && tables.contains_key(base) {
                let next = if array {
                    format!("{path}[].")
                } else {
                    format!("{path}.")
                };
                stack.push((base.to_owned(), next, depth + 1));
            }
        }
    }
    out.sort();
    out
}

/// The cell of a table row the cursor is in, from the row's text before the cursor: its
/// index (how many unescaped `|` stand before it, less the leading one) and its text before
/// the cursor.
fn cell_before(before: &str) -> (usize, &str) {
    let mut column = 0usize;
    let mut rest = before.trim_start();
    if let Some(r) = rest.strip_prefix('|') {
        rest = r;
        while rest.len() > cell_end(rest) {
            column += 1;
            rest = &rest[cell_end(rest) + 1..];
        }
    }
    (column, rest)
}

fn completion(a: &Analysis, side: Side, at: usize) -> Vec<CompletionItem> {
    let text = a.text(side);
    let pos = text.position(at);
    let line = text.line(pos.line as usize);
    let before = &line[..at - text.line_start(pos.line as usize)];
    let codes = || {
        a.error_codes()
            .map(|(c, _)| item(c, CompletionItemKind::CONSTANT, "error code"))
            .collect::<Vec<_>>()
    };
    if side == Side::Toml {
        let trimmed = before.trim_start();
        if trimmed.starts_with("[[") && !trimmed.contains("]]") {
            return RULE_TABLES
                .iter()
                .map(|t| item(t, CompletionItemKind::MODULE, "a rule table"))
                .collect();
        }
        if before.contains('=') {
            let key = before.split('=').next().unwrap_or("").trim();
            let paths = |detail: &str, wrap: &dyn Fn(&str) -> String| {
                field_paths(a)
                    .iter()
                    .map(|p| item(&wrap(p), CompletionItemKind::FIELD, detail))
                    .collect::<Vec<_>>()
            };
            if [
                "path", "field", "fields", "a", "b", "list", "value", "by", "key",
            ]
            .contains(&key)
            {
                return paths("field path", &|p| p.to_owned());
            }
            if key == "must" {
                return VALUE_IF_MUST
                    .iter()
                    .map(|(m, what)| item(m, CompletionItemKind::OPERATOR, what))
                    .collect();
            }
            if key == "if" || key == "unless" {
                // A condition names a path in a code span, then `is` and its values.
                return paths("condition on a field", &|p| format!("`{p}` is "));
            }
            return codes();
        }
        let section = text.text[..at]
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('['))
            .unwrap_or("");
        if section.trim() == "[errors]" {
            return ERROR_RULES
                .iter()
                .map(|r| item(r, CompletionItemKind::PROPERTY, "rule kind"))
                .collect();
        }
        return Vec::new();
    }
    let Some((t, row)) = row_on(a, pos.line as usize + 1) else {
        return Vec::new();
    };
    let (column, typed) = cell_before(before);
    let values_of = |table: &str| {
        a.outline
            .tables
            .iter()
            .filter(|t| t.name.as_deref() == Some(table))
            .flat_map(|t| t.rows.iter())
            .filter_map(|r| r.cells.first())
            .map(|c| item(&c.key, CompletionItemKind::ENUM_MEMBER, table))
            .collect::<Vec<_>>()
    };
    match (t.kind, column) {
        (Some("a field table"), 1) => cells::type_cell(a, typed),
        (Some("a field table"), 2) if before.contains("default") => {
            let ty = split_row(line)
                .get(1)
                .map(|&(s, e)| line[s..e].trim().trim_end_matches('?').to_owned())
                .unwrap_or_default();
            values_of(&ty)
        }
        (Some("a field table"), 2) => cells::required_cell(a, t, row, typed),
        (Some("a cap table"), 0) => field_paths(a)
            .iter()
            .map(|p| item(&format!("`{p}`"), CompletionItemKind::FIELD, "field path"))
            .collect(),
        (Some("a cap table"), 1) => {
            let n: String = before.rsplit('|').next().unwrap_or("").trim().to_owned();
            CAP_UNITS
                .iter()
                .map(|u| {
                    let mut i = item(u, CompletionItemKind::UNIT, "cap unit");
                    if !n.is_empty() {
                        i.insert_text = Some((*u).to_owned());
                    }
                    i
                })
                .collect()
        }
        (Some("a rules table"), 0) => codes(),
        (Some("a rules table"), 1) if t.rows.first().is_some_and(|r| r.cells.len() == 3) => {
            // The objects a rule may sit on: the document, member tables, items of lists.
            let paths = field_paths(a);
            let mut out = vec![item("—", CompletionItemKind::VALUE, "the document")];
            for p in &paths {
                if paths.iter().any(|q| q.starts_with(&format!("{p}[]."))) {
                    out.push(item(
                        &format!("`{p}[]`"),
                        CompletionItemKind::FIELD,
                        "each item",
                    ));
                } else if paths.iter().any(|q| q.starts_with(&format!("{p}."))) {
                    out.push(item(
                        &format!("`{p}`"),
                        CompletionItemKind::FIELD,
                        "a member table",
                    ));
                }
            }
            out
        }
        (Some("a rules table"), _) => {
            // The members read from the row's object (its On cell), then the functions.
            let on = split_row(line)
                .get(1)
                .filter(|_| t.rows.first().is_some_and(|r| r.cells.len() == 3))
                .map(|&(s, e)| line[s..e].trim().trim_matches('`').to_owned())
                .filter(|on| !on.is_empty() && on != "—" && on != "-")
                .map(|on| format!("{on}."))
                .unwrap_or_default();
            let mut out: Vec<CompletionItem> = field_paths(a)
                .iter()
                .filter_map(|p| p.strip_prefix(on.as_str()))
                .map(|p| item(p, CompletionItemKind::FIELD, "member"))
                .collect();
            out.extend(
                RULE_FUNCTIONS
                    .iter()
                    .map(|(f, what)| item(&format!("{f}("), CompletionItemKind::FUNCTION, what)),
            );
            out
        }
        (Some("a transitions table"), 0 | 1) => {
            let states = a
                .outline
                .tables
                .iter()
                .filter(|t| t.kind == Some("a states table"))
                .flat_map(|t| t.rows.iter())
                .filter_map(|r| r.cells.first())
                .map(|c| item(&c.key, CompletionItemKind::ENUM_MEMBER, "state"))
                .collect();
            states
        }
        _ => Vec::new(),
    }
}

// ---- code actions ---------------------------------------------------------------------

fn code_actions(a: &Analysis, side: Side, range: Range) -> Vec<CodeAction> {
    let mut out = Vec::new();
    let Some(Err(diags)) = &a.loaded else {
        return out;
    };
    let text = a.text(side);
    let Ok(uri) = Uri::from_str(a.uri(side)) else {
        return out;
    };
    let edit = |uri: &Uri, range: Range, new_text: String| WorkspaceEdit {
        changes: Some(
            [(uri.clone(), vec![TextEdit { range, new_text }])]
                .into_iter()
                .collect(),
        ),
        ..WorkspaceEdit::default()
    };
    for d in diags.iter().filter(|d| a.side_of(&d.file) == side) {
        let (s, e) = a.problem_range(side, d.pos);
        let r = text.range(s, e);
        if r.end < range.start || r.start > range.end {
            continue;
        }
        let lsp = a.diagnostics_for(side, d);
        if let Some(meant) = d
            .hint
            .strip_prefix("did you mean `")
            .and_then(|h| h.split('`').next())
        {
            let written = d.message.split('`').skip(1).step_by(2);
            let found = written
                .filter(|w| !w.is_empty())
                .find_map(|w| text.text[s..e].find(w).map(|i| (s + i, w.len())));
            if let Some((at, len)) = found {
                out.push(CodeAction {
                    title: format!("Change to `{meant}`"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp.clone()]),
                    edit: Some(edit(&uri, text.range(at, at + len), meant.to_owned())),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                });
            }
        }
        let missing = d
            .message
            .strip_prefix("code `")
            .and_then(|m| m.strip_suffix("` is not in the error table"));
        if let Some(code) = missing {
            let last = a
                .outline
                .tables
                .iter()
                .filter(|t| t.kind == Some("an error table"))
                .map(|t| t.rows.last().map_or(t.pos.line + 1, |r| r.pos.line))
                .next_back();
            if let (Some(last), Ok(md_uri)) = (last, Uri::from_str(&a.md_uri)) {
                let at = a.md.line_start(last);
                let row = format!("| `{code}` | (say when `{code}` is raised) |\n");
                out.push(CodeAction {
                    title: format!("Add the missing error code row `{code}`"),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![lsp.clone()]),
                    edit: Some(edit(&md_uri, a.md.range(at, at), row)),
                    ..CodeAction::default()
                });
            }
        }
    }
    out
}

// ---- formatting -----------------------------------------------------------------------

fn format_tables(a: &Analysis) -> Vec<TextEdit> {
    let text = &a.md;
    let mut edits = Vec::new();
    for t in &a.outline.tables {
        let first = t.pos.line - 1;
        let last = t.rows.last().map_or(first + 1, |r| r.pos.line - 1);
        let indent: String = text
            .line(first)
            .chars()
            .take_while(|c| c.is_whitespace())
            .collect();
        let rows: Vec<Vec<String>> = (first..=last)
            .map(|n| {
                let line = text.line(n);
                split_row(line)
                    .iter()
                    .map(|&(s, e)| line[s..e].to_owned())
                    .collect()
            })
            .collect();
        let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
        let align: Vec<(bool, bool)> = (0..columns)
            .map(|i| {
                let d = rows.get(1).and_then(|r| r.get(i)).map_or("", |d| d.trim());
                (d.starts_with(':'), d.len() > 1 && d.ends_with(':'))
            })
            .collect();
        let width = |s: &str| s.chars().count();
        let widths: Vec<usize> = (0..columns)
            .map(|i| {
                rows.iter()
                    .enumerate()
                    .filter(|(n, _)| *n != 1)
                    .filter_map(|(_, r)| r.get(i))
                    .map(|c| width(c))
                    .max()
                    .unwrap_or(0)
                    .max(3)
            })
            .collect();
        for (n, row) in rows.iter().enumerate() {
            let cells: Vec<String> = (0..columns)
                .map(|i| {
                    let w = widths[i];
                    let (left, right) = align[i];
                    if n == 1 {
                        let dashes = w - usize::from(left) - usize::from(right);
                        return format!(
                            "{}{}{}",
                            if left { ":" } else { "" },
                            "-".repeat(dashes),
                            if right { ":" } else { "" }
                        );
                    }
                    let c = row.get(i).map_or("", String::as_str);
                    let pad = w - width(c);
                    match (left, right) {
                        (false, true) => format!("{}{c}", " ".repeat(pad)),
                        (true, true) => {
                            format!("{}{c}{}", " ".repeat(pad / 2), " ".repeat(pad - pad / 2))
                        }
                        _ => format!("{c}{}", " ".repeat(pad)),
                    }
                })
                .collect();
            let formatted = format!("{indent}| {} |", cells.join(" | "));
            let line = first + n;
            if text.line(line) != formatted {
                let s = text.line_start(line);
                edits.push(TextEdit {
                    range: text.range(s, s + text.line(line).len()),
                    new_text: formatted,
                });
            }
        }
    }
    edits
}

// ---- document symbols -----------------------------------------------------------------

#[allow(deprecated)] // `DocumentSymbol::deprecated` has to be written
fn symbol(name: String, kind: SymbolKind, range: Range, selection: Range) -> DocumentSymbol {
    DocumentSymbol {
        name: if name.trim().is_empty() {
            "(unnamed)".to_owned()
        } else {
            name
        },
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

fn symbols(a: &Analysis, side: Side) -> Vec<DocumentSymbol> {
    let text = a.text(side);
    let line_range = |from: usize, to: usize| {
        let s = text.line_start(from);
        text.range(s, text.line_start(to) + text.line(to).len())
    };
    if side == Side::Toml {
        let sections: Vec<usize> = (0..text.line_count())
            .filter(|&n| text.line(n).trim_start().starts_with('['))
            .collect();
        return sections
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let end = sections
                    .get(i + 1)
                    .map_or(text.line_count() - 1, |e| e - 1)
                    .max(n);
                let name = text.line(n).trim().to_owned();
                symbol(
                    name,
                    SymbolKind::NAMESPACE,
                    line_range(n, end),
                    line_range(n, n),
                )
            })
            .collect();
    }
    let last_line = text.line_count().saturating_sub(1);
    // Tables as symbols, with their rows.
    let tables: Vec<(usize, DocumentSymbol)> = a
        .outline
        .tables
        .iter()
        .map(|t| {
            let first = t.pos.line - 1;
            let last = t.rows.last().map_or(first + 1, |r| r.pos.line - 1);
            let (kind, row_kind) = match t.kind {
                Some("a field table") => (SymbolKind::STRUCT, SymbolKind::FIELD),
                Some("an enum table" | "a states table" | "a union table") => {
                    (SymbolKind::ENUM, SymbolKind::ENUM_MEMBER)
                }
                Some("an error table") => (SymbolKind::ENUM, SymbolKind::CONSTANT),
                Some("a cap table" | "a text table") => {
                    (SymbolKind::CONSTANT, SymbolKind::CONSTANT)
                }
                _ => (SymbolKind::ARRAY, SymbolKind::STRING),
            };
            let name = t
                .name
                .clone()
                .map(|n| format!("{n} ({})", t.kind.unwrap_or("table")))
                .unwrap_or_else(|| t.kind.unwrap_or("table").to_owned());
            let mut s = symbol(
                name,
                kind,
                line_range(first, last),
                line_range(first, first),
            );
            let rows: Vec<DocumentSymbol> = t
                .rows
                .iter()
                .filter_map(|r| {
                    let c = r.cells.first()?;
                    let line = r.pos.line - 1;
                    let (cs, ce) = text.range_at(c.pos);
                    let row = line_range(line, line);
                    let sel = text.range(cs, ce.max(cs));
                    let sel = if sel.start.line == row.start.line {
                        sel
                    } else {
                        row
                    };
                    Some(symbol(c.key.clone(), row_kind, row, sel))
                })
                .collect();
            s.children = Some(rows);
            (first, s)
        })
        .collect();
    // Sections: each heading to the line before the next heading of its level or above.
    let hs = &a.outline.headings;
    let mut flat: Vec<(u8, usize, usize, DocumentSymbol)> = Vec::new();
    for (i, h) in hs.iter().enumerate() {
        let first = h.pos.line - 1;
        let end = hs[i + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(last_line, |n| n.pos.line.saturating_sub(2))
            .max(first);
        let s = symbol(
            h.text.clone(),
            SymbolKind::NAMESPACE,
            line_range(first, end),
            line_range(first, first),
        );
        flat.push((h.level, first, end, s));
    }
    nest(flat, tables)
}

/// Puts headings in their parents, and each table in the innermost section holding it.
fn nest(
    flat: Vec<(u8, usize, usize, DocumentSymbol)>,
    tables: Vec<(usize, DocumentSymbol)>,
) -> Vec<DocumentSymbol> {
    // Stack of open sections: (level, end line, symbol).
    let mut roots: Vec<DocumentSymbol> = Vec::new();
    let mut stack: Vec<(u8, usize, DocumentSymbol)> = Vec::new();
    let mut tables = tables.into_iter().peekable();
    let close = |stack: &mut Vec<(u8, usize, DocumentSymbol)>, roots: &mut Vec<DocumentSymbol>| {
        if let Some((_, _, s)) = stack.pop() {
            match stack.last_mut() {
                Some((_, _, parent)) => parent.children.get_or_insert_with(Vec::new).push(s),
                None => roots.push(s),
            }
        }
    };
    for (level, first, end, s) in flat {
        // Tables before this heading go in the innermost section that holds them.
        while let Some((line, _)) = tables.peek() {
            if *line >= first {
                break;
            }
            let (line, t) = tables.next().unwrap_or((0, s.clone()));
            while stack.last().is_some_and(|(_, e, _)| *e < line) {
                close(&mut stack, &mut roots);
            }
            match stack.last_mut() {
                Some((_, _, parent)) => parent.children.get_or_insert_with(Vec::new).push(t),
                None => roots.push(t),
            }
        }
        while stack
            .last()
            .is_some_and(|(l, e, _)| *l >= level || *e < first)
        {
            close(&mut stack, &mut roots);
        }
        stack.push((level, end, s));
    }
    for (line, t) in tables {
        while stack.last().is_some_and(|(_, e, _)| *e < line) {
            close(&mut stack, &mut roots);
        }
        match stack.last_mut() {
            Some((_, _, parent)) => parent.children.get_or_insert_with(Vec::new).push(t),
            None => roots.push(t),
        }
    }
    while !stack.is_empty() {
        close(&mut stack, &mut roots);
    }
    roots
}
