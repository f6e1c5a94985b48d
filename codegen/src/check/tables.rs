//! Tables phase: which table is which (by its header), each named table's name, the Rust
//! type names (`[types]`), and the rows a table cannot hold.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::index::Kind;
use super::Checker;
use crate::diag::Pos;
use crate::loader::markdown::{Cell, Table};
use crate::names::{did_you_mean, is_ident, is_lower_snake, is_raw_keyword, suggest};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TableKind {
    Field,
    Enum,
    Union,
    Cap,
    Error,
    Forbidden,
    States,
    Transitions,
    Text,
    Rules,
}

/// A kind, how a message names it, and its header as a spec writes it.
type FixedHeader = (TableKind, &'static str, &'static [&'static str]);

/// The kinds whose columns are all fixed words: each with how a message names it and its
/// header as a spec writes it (a union table's first column is its tag's name, so it is not
/// here).
const FIXED_HEADERS: &[FixedHeader] = &[
    (
        TableKind::Field,
        "a field table",
        &["Field", "Type", "Required", "Meaning"],
    ),
    (TableKind::Enum, "an enum table", &["Value", "Meaning"]),
    (TableKind::Cap, "a cap table", &["Cap", "Value", "Constant"]),
    (TableKind::Error, "an error table", &["Code", "When"]),
    (
        TableKind::Forbidden,
        "a forbidden-key table",
        &["Forbidden key", "Why"],
    ),
    (
        TableKind::States,
        "a states table",
        &["State", "Terminal", "Meaning"],
    ),
    (
        TableKind::Transitions,
        "a transitions table",
        &["From", "To", "On"],
    ),
    (
        TableKind::Transitions,
        "a transitions table",
        &["From", "To"],
    ),
    (
        TableKind::Text,
        "a text table",
        &["Constant", "Value", "Meaning"],
    ),
    (TableKind::Rules, "a rules table", &["Code", "On", "Rule"]),
    (TableKind::Rules, "a rules table", &["Code", "Rule"]),
];

/// How a message names the kind of a table with this header (`a cap table`), or `None`
/// for prose: for tools that show a spec's tables (`specmint lsp`).
pub(crate) fn kind_name(header: &[Cell]) -> Option<&'static str> {
    match classify(header)? {
        TableKind::Union => Some("a union table"),
        kind => FIXED_HEADERS
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|(_, name, _)| *name),
    }
}

/// The header's cells as compared: trimmed, lowercase.
fn header_words(header: &[Cell]) -> Vec<String> {
    header
        .iter()
        .map(|c| c.plain.trim().to_lowercase())
        .collect()
}

fn lowercase(columns: &[&str]) -> Vec<String> {
    columns.iter().map(|c| c.to_lowercase()).collect()
}

fn classify(header: &[Cell]) -> Option<TableKind> {
    let h = header_words(header);
    if let [_, fields, meaning] = h.as_slice() {
        if fields == "fields" && meaning == "meaning" {
            return Some(TableKind::Union);
        }
    }
    FIXED_HEADERS
        .iter()
        .find(|(_, _, columns)| lowercase(columns) == h)
        .map(|(kind, _, _)| *kind)
}

/// How a header that is no kind's is near one: such a table is a mistake, never prose, since
/// its rows would be dropped (or read by position) without a word.
enum Near {
    /// Exactly the kind's columns, in another order.
    Misordered,
    /// Every column of the kind, and these others as written.
    Extra(Vec<String>),
    /// The kind's number of columns, most of them in place: each the kind's, a
    /// misspelling of it, or naming it among other words (`Error code` for `Code`).
    Misspelt,
}

/// Whether the header cell `written` (lowercase) stands for the kind's column `column`.
fn stands_for(written: &str, column: &str) -> bool {
    let column = column.to_lowercase();
    *written == column
        || did_you_mean(written, [column.as_str()]).is_some()
        || (!column.contains(' ') && written.split_whitespace().any(|w| w == column))
}

/// The kind `header` is near (its row of [`FIXED_HEADERS`]): misordered first, then the
/// kind with the most columns all present among others, then misspelt.
fn near_kind(header: &[Cell]) -> Option<(&'static FixedHeader, Near)> {
    let h = header_words(header);
    let mut sorted = h.clone();
    sorted.sort();
    let misordered = FIXED_HEADERS.iter().find(|(_, _, columns)| {
        let mut c = lowercase(columns);
        c.sort();
        c == sorted
    });
    if let Some(fixed) = misordered {
        return Some((fixed, Near::Misordered));
    }
    let widest = FIXED_HEADERS
        .iter()
        .filter(|(_, _, columns)| {
            columns.len() < h.len() && lowercase(columns).iter().all(|c| h.contains(c))
        })
        .min_by_key(|(_, _, columns)| std::cmp::Reverse(columns.len()));
    if let Some(fixed) = widest {
        let own = lowercase(fixed.2);
        let extra = header
            .iter()
            .zip(&h)
            .filter(|(_, w)| !own.contains(w))
            .map(|(c, _)| c.plain.trim().to_owned())
            .collect();
        return Some((fixed, Near::Extra(extra)));
    }
    // Most columns in place: all of a two-column kind's, two of three, three of four.
    FIXED_HEADERS.iter().find_map(|fixed| {
        let columns = fixed.2;
        let in_place = columns
            .iter()
            .zip(&h)
            .filter(|(c, w)| stands_for(w, c))
            .count();
        let close = columns.len() == h.len() && 2 * in_place > columns.len();
        close.then_some((fixed, Near::Misspelt))
    })
}

/// Whether a table with this header is a field table (`Field | Type | Required | Meaning`).
pub(super) fn is_field_table(header: &[Cell]) -> bool {
    classify(header) == Some(TableKind::Field)
}

/// A table named in the code span of its heading.
pub(super) struct Named<'t> {
    pub kind: Kind,
    pub name: String,
    pub pos: Pos,
    pub table: &'t Table,
}

/// The spec's tables by what they are, in spec order.
pub(super) struct Tables<'t> {
    /// Field, enum and union tables.
    pub named: Vec<Named<'t>>,
    pub caps: Vec<&'t Table>,
    pub errors: Vec<&'t Table>,
    pub forbidden: Vec<&'t Table>,
    /// States tables (`kind` is [`Kind::Enum`]).
    pub states: Vec<Named<'t>>,
    pub transitions: Vec<&'t Table>,
    /// Text tables (`Constant | Value | Meaning`).
    pub texts: Vec<&'t Table>,
    /// Rules tables (`Code | On | Rule`, `Code | Rule`).
    pub rules: Vec<&'t Table>,
}

/// A row's value that another row of the same table already has, or whose Rust variant it
/// already has (with that row's value).
pub(super) enum Clash {
    Value,
    /// The earlier value with that variant.
    Variant(String),
}

/// The `(value, variant)` pairs of the rows read so far (enum values, error codes, union tags,
/// states), to tell whether a new row repeats one: a set and a map, so that a table of many
/// rows is checked in linear time (a linear search per row was quadratic: 48 s for an enum
/// of 100,000 values).
#[derive(Debug, Default)]
pub(super) struct Names {
    values: HashSet<String>,
    /// variant → the first value with it.
    variants: HashMap<String, String>,
}

impl Names {
    /// Whether `(value, variant)` repeats a row added: first the value, then the variant;
    /// when not, it is added. One rule for enum values, error codes, union tags and states.
    pub(super) fn add(&mut self, value: &str, variant: &str) -> Option<Clash> {
        if self.values.contains(value) {
            return Some(Clash::Value);
        }
        if let Some(other) = self.variants.get(variant) {
            return Some(Clash::Variant(other.clone()));
        }
        self.values.insert(value.to_owned());
        self.variants.insert(variant.to_owned(), value.to_owned());
        None
    }
}

impl Checker<'_> {
    /// Classifies the tables (dropping malformed rows of known ones) and names the named
    /// ones; registers field, enum and union tables in the index.
    pub(super) fn tables<'t>(&mut self, all: &'t mut [Table]) -> Tables<'t> {
        for t in all.iter_mut() {
            if classify(&t.header).is_some() {
                self.drop_malformed_rows(t);
            }
        }
        let all: &'t [Table] = all;
        let mut out = Tables {
            named: Vec::new(),
            caps: Vec::new(),
            errors: Vec::new(),
            forbidden: Vec::new(),
            states: Vec::new(),
            transitions: Vec::new(),
            texts: Vec::new(),
            rules: Vec::new(),
        };
        let mut names_seen: BTreeMap<String, Pos> = BTreeMap::new();
        for t in all {
            let Some(table_kind) = classify(&t.header) else {
                self.near_kind(t);
                continue;
            };
            let kind = match table_kind {
                TableKind::Field => Kind::Object,
                TableKind::Enum => Kind::Enum,
                TableKind::States => Kind::States,
                TableKind::Union => Kind::Union,
                TableKind::Cap => {
                    out.caps.push(t);
                    continue;
                }
                TableKind::Error => {
                    out.errors.push(t);
                    continue;
                }
                TableKind::Forbidden => {
                    out.forbidden.push(t);
                    continue;
                }
                TableKind::Transitions => {
                    out.transitions.push(t);
                    continue;
                }
                TableKind::Text => {
                    out.texts.push(t);
                    continue;
                }
                TableKind::Rules => {
                    out.rules.push(t);
                    continue;
                }
            };
            let Some((name, pos)) = self.table_name(t, &mut names_seen) else {
                continue;
            };
            let named = Named {
                kind,
                name,
                pos,
                table: t,
            };
            if table_kind == TableKind::States {
                self.index.kinds.insert(named.name.clone(), Kind::States);
                out.states.push(named);
                continue;
            }
            self.index.kinds.insert(named.name.clone(), kind);
            out.named.push(named);
        }
        out
    }

    /// Reports a table whose header is near a kind's (`near_kind`). What would have named it
    /// is left silent: codes missing from an error table, types naming the table.
    fn near_kind(&mut self, t: &Table) {
        let Some((&(table_kind, kind, columns), near)) = near_kind(&t.header) else {
            return;
        };
        match table_kind {
            TableKind::Error => self.book.table_refused = true,
            TableKind::Cap => self.cap_table_refused = true,
            _ => {}
        }
        if let Some(code) = t.heading.as_ref().and_then(|h| h.first_code.as_ref()) {
            self.index.refused.insert(code.text.clone());
        }
        let written: Vec<&str> = t.header.iter().map(|c| c.plain.trim()).collect();
        let (written, columns) = (written.join(" | "), columns.join(" | "));
        let (message, hint) = match near {
            Near::Misordered => (
                format!("the columns `{written}` are those of {kind}, in another order"),
                format!("the columns of {kind} are `{columns}`, in that order (they are read by position)"),
            ),
            Near::Extra(extra) => (
                format!(
                    "the columns `{written}` are those of {kind} and `{}`",
                    extra.join(" | ")
                ),
                format!("{kind} has exactly the columns `{columns}`: remove the others (a table that shares only some of them is prose)"),
            ),
            Near::Misspelt => (
                format!("the columns `{written}` are nearly those of {kind}"),
                format!("did you mean `{columns}`? a header that is no kind's is prose, and its rows would be dropped"),
            ),
        };
        self.ctx.md(t.pos, message, hint);
    }

    /// The name in the heading's first code span: present, lower_snake_case, not repeated.
    fn table_name(&mut self, t: &Table, seen: &mut BTreeMap<String, Pos>) -> Option<(String, Pos)> {
        let Some(code) = t.heading.as_ref().and_then(|h| h.first_code.clone()) else {
            self.ctx.md(
                t.pos,
                "this table has no name",
                "put the table's name in a code span in the heading above it: ## Members of a `name`",
            );
            return None;
        };
        if !is_lower_snake(&code.text) {
            self.ctx.md(
                code.pos,
                format!("table name `{}` is not lower_snake_case", code.text),
                "name tables like `tool_scope`: lowercase ASCII letters, digits and `_`",
            );
            return None;
        }
        // A Type cell reads these words as built-in types, never as the table.
        const BUILT_IN: &[&str] = &[
            "string", "bool", "uint32", "uint64", "int32", "int64", "number", "any", "object",
            "date", "uri", "email",
        ];
        if BUILT_IN.contains(&code.text.as_str()) {
            self.ctx.md(
                code.pos,
                format!("table name `{}` is a built-in type", code.text),
                "rename the table: a Type cell would read the word as the built-in type",
            );
            return None;
        }
        if let Some(prev) = seen.get(&code.text) {
            self.ctx.md(
                code.pos,
                format!("duplicate table name `{}`", code.text),
                format!(
                    "it is already the name of the table under line {}",
                    prev.line
                ),
            );
            return None;
        }
        seen.insert(code.text.clone(), code.pos);
        Some((code.text, code.pos))
    }

    /// `[types]`, then the Rust type of every named table: no two tables may share one.
    /// Returns Rust type name → table name.
    pub(super) fn rust_names(&mut self, tables: &Tables<'_>) -> BTreeMap<String, String> {
        for (k, v) in std::mem::take(&mut self.side.types) {
            if !self.index.kinds.contains_key(&k.value) {
                self.ctx.toml(
                    k.pos,
                    format!("[types] names `{}`, which is no table in the spec", k.value),
                    suggest(
                        &k.value,
                        self.index.names_of(None),
                        format!("known tables: {}", self.index.known_tables()),
                    ),
                );
            } else if !is_ident(&v.value) || is_raw_keyword(&v.value) {
                self.ctx.toml(
                    v.pos,
                    format!("`{}` is not a Rust type name", v.value),
                    "write an UpperCamelCase identifier",
                );
            } else {
                self.index.rust_names.insert(k.value, v.value);
            }
        }
        let mut rust_seen: BTreeMap<String, String> = BTreeMap::new();
        for n in tables.named.iter().chain(&tables.states) {
            let rn = self.index.rust_name_of(&n.name);
            if let Some(other) = rust_seen.get(&rn) {
                self.ctx.md(
                    n.pos,
                    format!(
                        "tables `{other}` and `{}` both become the Rust type `{rn}`",
                        n.name
                    ),
                    "rename one, or give one another Rust name in the sidecar's [types]",
                );
            }
            rust_seen.insert(rn, n.name.clone());
        }
        rust_seen
    }

    /// Reports, and drops, each row whose source holds another number of cells than the
    /// header (GFM would silently pad it or drop its extra cells), so the row is reported
    /// once and not misread.
    fn drop_malformed_rows(&mut self, t: &mut Table) {
        let want = t.header.len();
        let rows = std::mem::take(&mut t.rows);
        for row in rows {
            let got = row.source_cells;
            if got == want {
                t.rows.push(row);
                continue;
            }
            let hint = if got > want {
                "a `|` inside a cell ends the cell, even inside a code span: write it as `\\|`"
            } else {
                "give the row one cell per header column (an empty cell is `| |`)"
            };
            self.ctx.md(
                row.pos,
                format!("this row has {got} cells but the table's header has {want}"),
                hint,
            );
        }
    }
}
