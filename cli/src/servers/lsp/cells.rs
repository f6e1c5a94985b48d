//! Completion in a field table's Type and Required cells, and the hover that explains a
//! Required cell's condition. Completion reads the outline (what the loader reads of the
//! Markdown, loaded or not); the hover reads the loaded spec's condition.

use lsp_types::{CompletionItem, CompletionItemKind};
use specmint_codegen::model::{Condition, Quantifier, TypeDef};
use specmint_codegen::outline::{Table, BUILTIN_TYPES};

use super::analysis::Analysis;

/// The formats among the built-in types, with what each accepts.
const FORMATS: [(&str, &str); 4] = [
    (
        "date-time",
        "format: an RFC 3339 date-time (`2024-05-01T10:00:00Z`)",
    ),
    ("date", "format: an RFC 3339 full date (`2024-05-01`)"),
    ("uri", "format: an absolute URI (`https://example.org/a`)"),
    ("email", "format: an email address (`a@example.org`)"),
];

/// The qualifiers a Type cell adds to its base type, with what each says.
const QUALIFIERS: [(&str, &str); 6] = [
    (
        "non-blank",
        "text that is not empty or only whitespace: `non-blank string`",
    ),
    (
        "relative-path",
        "a relative path: no leading `/`, no `..` segment",
    ),
    (
        "matching `REGEX`",
        "text matching a regular expression: `string matching `^[a-z]+$``",
    ),
    (
        "?",
        "after the type, no space: absent or `null` allowed (`zone?`)",
    ),
    ("[]", "after the type, no space: a list of it (`parcel[]`)"),
    (
        "1..=10",
        "after an integer or number type: an inclusive range (`int32 1..=10`)",
    ),
];

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    }
}

/// Whether `label` starts with `typed`, case ignored (as most servers filter).
fn starts(label: &str, typed: &str) -> bool {
    label.to_lowercase().starts_with(&typed.to_lowercase())
}

/// The names of the spec's tables, in order.
fn table_names(a: &Analysis) -> impl Iterator<Item = &str> {
    a.outline.tables.iter().filter_map(|t| t.name.as_deref())
}

/// Completion in a Type cell, `typed` being the cell's text before the cursor: the base
/// types, the spec's tables, the formats and the qualifiers, those starting with the word
/// being typed; after a whole type name, that type with `?`, `[]` and `[]?`.
pub fn type_cell(a: &Analysis, typed: &str) -> Vec<CompletionItem> {
    let word = typed.rsplit(char::is_whitespace).next().unwrap_or("");
    let mut items = Vec::new();
    for b in BUILTIN_TYPES {
        if *b == "decimal" {
            // Never alone: a decimal states its scale.
            items.push(item(
                "decimal(2)",
                CompletionItemKind::KEYWORD,
                "exact decimal: `decimal(S)`, at most S fraction digits; `decimal(P, S)`, at most P digits",
            ));
            continue;
        }
        let detail = FORMATS
            .iter()
            .find(|(f, _)| f == b)
            .map_or("built-in type", |(_, d)| d);
        items.push(item(b, CompletionItemKind::KEYWORD, detail));
    }
    items.extend(table_names(a).map(|n| item(n, CompletionItemKind::STRUCT, "table of this spec")));
    for (q, detail) in QUALIFIERS {
        items.push(item(q, CompletionItemKind::OPERATOR, detail));
    }
    let whole = BUILTIN_TYPES
        .iter()
        .copied()
        .filter(|b| *b != "decimal")
        .chain(table_names(a))
        .find(|t| t.eq_ignore_ascii_case(word));
    if let Some(t) = whole {
        for (suffix, detail) in [
            ("?", "absent or `null` allowed"),
            ("[]", "a list"),
            ("[]?", "a list, absent or `null` allowed"),
        ] {
            let label = format!("{t}{suffix}");
            items.push(item(&label, CompletionItemKind::OPERATOR, detail));
        }
    }
    items.retain(|i| starts(&i.label, word));
    items
}

/// What a Required cell's text before the cursor asks for next.
enum Want {
    /// The forms of a whole cell.
    Forms,
    /// A field of the row's table (after `if`, `unless`, `any`, `every`).
    Field { lists: bool },
    /// A value of the field named first (after `is`, `not`, `,`, `or`).
    Value,
    /// An error code (after `✔`).
    Code,
}

/// Completion in a Required cell of `table`'s row `row` (none for a new row), `typed` being
/// the cell's text before the cursor: the forms of a cell (`✔`, ``✔ `code` ``, `—`,
/// `— (default V)`, the conditions); after `if` / `unless` the table's fields; after `is`,
/// `is not`, `,` or `or` the values of the field the condition names; after `✔` the codes.
/// Inside an open code span the names come without backticks.
pub fn required_cell(
    a: &Analysis,
    table: &Table,
    row: Option<usize>,
    typed: &str,
) -> Vec<CompletionItem> {
    let typed = typed.trim_start();
    let quoted = typed.matches('`').count() % 2 == 1;
    let (head, partial) = if quoted {
        typed.rsplit_once('`').unwrap_or(("", typed))
    } else {
        typed
            .rsplit_once(char::is_whitespace)
            .unwrap_or(("", typed))
    };
    let head = head.trim_end();
    let last = head.rsplit(char::is_whitespace).next().unwrap_or("");
    let want = match last {
        "" => Want::Forms,
        "if" | "unless" => Want::Field { lists: false },
        "any" | "every" => Want::Field { lists: true },
        "is" | "not" | "or" => Want::Value,
        _ if last.ends_with(',') => Want::Value,
        "✔" | "✓" | "yes" | "Yes" => Want::Code,
        _ => return Vec::new(),
    };
    let name = |n: &str| {
        if quoted {
            n.to_owned()
        } else {
            format!("`{n}`")
        }
    };
    let mut items: Vec<CompletionItem> = match want {
        Want::Forms => forms(a, table, row),
        Want::Code => a
            .error_codes()
            .map(|(c, _)| item(&name(c), CompletionItemKind::CONSTANT, "error code"))
            .collect(),
        Want::Field { lists } => fields(a, table, row, lists)
            .into_iter()
            .map(|(f, ty)| item(&name(&f), CompletionItemKind::FIELD, &ty))
            .collect(),
        Want::Value => {
            let field = head.split('`').nth(1).unwrap_or("");
            values(a, table, field)
                .into_iter()
                .map(|(v, of)| item(&name(&v), CompletionItemKind::ENUM_MEMBER, &of))
                .collect()
        }
    };
    items.retain(|i| starts(&i.label, partial));
    items
}

/// The forms of a whole Required cell.
fn forms(a: &Analysis, table: &Table, row: Option<usize>) -> Vec<CompletionItem> {
    let keyword = |l: &str, d: &str| item(l, CompletionItemKind::KEYWORD, d);
    let mut items = vec![keyword("✔", "required")];
    items.extend(a.error_codes().map(|(c, _)| {
        keyword(
            &format!("✔ `{c}`"),
            "required, reported with its own code when absent, null or blank",
        )
    }));
    items.push(keyword("—", "optional"));
    let ty = row
        .and_then(|r| table.rows.get(r))
        .and_then(|r| r.cells.get(1))
        .map(|c| c.plain.trim().trim_end_matches('?').to_owned())
        .unwrap_or_default();
    let defaults: Vec<String> = enum_values(a, &ty);
    if defaults.is_empty() {
        items.push(keyword("— (default V)", "optional, read as V when absent"));
    }
    for v in defaults {
        items.push(keyword(
            &format!("— (default {v})"),
            "optional, read as this value when absent",
        ));
    }
    for (form, detail) in [
        (
            "if `field` is `value`",
            "required while a field has a value",
        ),
        (
            "if `field` is `a`, `b` or `c`",
            "required while a field has one of the values",
        ),
        (
            "if `field` is not `value`",
            "required while a field has none of the values (or is absent)",
        ),
        (
            "unless `field` is `value`",
            "the same as `if `field` is not `value``",
        ),
        (
            "if any `list[].field` is `value`",
            "required while some item of a list has a value",
        ),
        (
            "if every `list[].field` is `value`",
            "required while every item of a list (at least one) has a value",
        ),
    ] {
        items.push(item(form, CompletionItemKind::SNIPPET, detail));
    }
    items
}

/// The field table named `name`.
fn field_table<'a>(a: &'a Analysis, name: &str) -> Option<&'a Table> {
    a.outline
        .tables
        .iter()
        .find(|t| t.kind == Some("a field table") && t.name.as_deref() == Some(name))
}

/// The values of the enum (or states) table `name`, in order.
fn enum_values(a: &Analysis, name: &str) -> Vec<String> {
    a.outline
        .tables
        .iter()
        .filter(|t| matches!(t.kind, Some("an enum table" | "a states table")))
        .filter(|t| t.name.as_deref() == Some(name))
        .flat_map(|t| t.rows.iter())
        .filter_map(|r| r.cells.first().map(|c| c.key.clone()))
        .collect()
}

/// A Type cell's base and whether it is a list (`parcel[]?` → `parcel`, true).
fn base_of(ty: &str) -> (String, bool) {
    let t = ty.trim().trim_end_matches('?');
    match t.strip_suffix("[]") {
        Some(b) => (b.trim().to_owned(), true),
        None => (t.to_owned(), false),
    }
}

/// The fields a condition on row `row` of `table` can read, each with its Type cell: every
/// other field, and with `lists` the lists' items (`labels[]`) and their members
/// (`parcels[].fragile`).
fn fields(a: &Analysis, table: &Table, row: Option<usize>, lists: bool) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (n, r) in table.rows.iter().enumerate() {
        if Some(n) == row {
            continue;
        }
        let (Some(key), Some(ty)) = (r.cells.first(), r.cells.get(1)) else {
            continue;
        };
        let (base, list) = base_of(&ty.plain);
        if !lists {
            out.push((key.key.clone(), ty.plain.clone()));
            continue;
        }
        if !list {
            continue;
        }
        match field_table(a, &base) {
            Some(elem) => out.extend(elem.rows.iter().filter_map(|m| {
                let (mk, mt) = (m.cells.first()?, m.cells.get(1)?);
                Some((format!("{}[].{}", key.key, mk.key), mt.plain.clone()))
            })),
            None => out.push((format!("{}[]", key.key), base)),
        }
    }
    out
}

/// The values the field at `path` (from `table`: `zone`, `route.risk`, `parcels[].fragile`)
/// can hold, when it is an enum or a `bool`, each with its type's name.
fn values(a: &Analysis, table: &Table, path: &str) -> Vec<(String, String)> {
    let mut at = table;
    let mut ty = String::new();
    for (n, step) in path.split('.').enumerate() {
        if n > 0 {
            let Some(next) = field_table(a, &base_of(&ty).0) else {
                return Vec::new();
            };
            at = next;
        }
        let key = step.trim_end_matches("[]");
        let Some(row) = at
            .rows
            .iter()
            .find(|r| r.cells.first().is_some_and(|c| c.key == key))
        else {
            return Vec::new();
        };
        ty = row
            .cells
            .get(1)
            .map(|c| c.plain.clone())
            .unwrap_or_default();
    }
    let base = base_of(&ty).0;
    if base == "bool" {
        return ["true", "false"]
            .iter()
            .map(|v| ((*v).to_owned(), "bool".to_owned()))
            .collect();
    }
    enum_values(a, &base)
        .into_iter()
        .map(|v| (v, base.clone()))
        .collect()
}

/// The explanation of the condition of field `key` of `table` in the loaded spec: what it
/// reads and when it holds.
pub fn condition_hover(a: &Analysis, table: &str, key: &str) -> Option<String> {
    let spec = a.spec()?;
    let field = spec.types.iter().find_map(|t| match t {
        TypeDef::Object(o) if o.name == table => o.fields.iter().find(|f| f.key == key),
        _ => None,
    })?;
    let ri = field.rules.required_if.as_ref()?;
    let c = &ri.condition;
    Some(format!(
        "**Condition**: `{key}` is required when {}; absent, `null` or blank while it holds is error `{}`.\n\n\
         Reads {}.\n\nHolds when {}.",
        c.describe(),
        ri.code,
        reads(c, table),
        holds(c),
    ))
}

/// What a condition reads, step by step.
fn reads(c: &Condition, table: &str) -> String {
    let steps: Vec<String> = c
        .steps
        .iter()
        .map(|s| {
            let items = if s.items { " (each item)" } else { "" };
            format!("`{}` of `{}`{items}", s.member.key, s.table)
        })
        .collect();
    format!(
        "`{}` from the `{table}` the row belongs to: {}",
        c.path,
        steps.join(", then ")
    )
}

/// When a condition holds, in words.
fn holds(c: &Condition) -> String {
    let values = c
        .values
        .iter()
        .map(|v| format!("`{}`", v.key))
        .collect::<Vec<_>>();
    let values = match values.as_slice() {
        [one] => one.clone(),
        _ => format!("one of {}", values.join(", ")),
    };
    match (c.quantifier, c.negated) {
        (Quantifier::Any, false) => format!("at least one value reached is {values}"),
        (Quantifier::Any, true) => {
            format!("no value reached is {values} (so also when the list is empty or absent)")
        }
        (Quantifier::Every, false) => {
            format!("at least one value is reached and every value reached is {values}")
        }
        (Quantifier::Every, true) => {
            format!("some value reached is not {values}, or none is reached")
        }
        (_, false) => format!("the value is {values} (an absent or `null` value is none)"),
        (_, true) => format!("the value is not {values}, or is absent or `null`"),
    }
}
