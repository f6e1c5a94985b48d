//! Large tables: checking and generating stay near-linear in a table's rows. Each row was
//! compared with every row before it (an enum of 100,000 values took 48 s to check in a
//! release build, and every LSP keystroke as long); the rows read so far are now a set.

use std::time::{Duration, Instant};

use specmint_codegen::load;

use crate::common::{error_lines, source};

/// A spec whose root has one field of an enum of `values` (whole `Value` cells), and an
/// error table of `codes`.
fn enum_spec(values: &[String], codes: &[String]) -> (String, String) {
    let rows: String = values
        .iter()
        .map(|v| format!("| {v} | A value. |\n"))
        .collect();
    let code_rows: String = codes
        .iter()
        .map(|c| format!("| {c} | A code. |\n"))
        .collect();
    let md = format!(
        "# Big v1\n\n## Fields of a `doc`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n\
         | `mode` | mode | ✔ | Chooses. |\n\n## Modes: `mode`\n\n| Value | Meaning |\n|---|---|\n{rows}\n\
         ## Error codes\n\n| Code | When |\n|---|---|\n| `bad_doc` | Not the shape. |\n{code_rows}"
    );
    let toml = "[spec]\nroot = \"doc\"\n\n[errors]\nparse = \"bad_doc\"\n".to_owned();
    (md, toml)
}

/// 100,000 values, the last two repeating a value and a variant of the first rows: both are
/// found (at their rows), and the check ends in a bounded time (about a second in a debug
/// build; the quadratic search took minutes). The same for error codes.
#[test]
fn a_100k_value_enum_is_checked_row_by_row_in_linear_time() {
    let n = 100_000;
    let mut values: Vec<String> = (0..n).map(|i| format!("`v{i}`")).collect();
    values.push("`v7`".to_owned());
    values.push("`v-9`".to_owned());
    let codes = ["`bad_doc`".to_owned(), "`bad-doc`".to_owned()];
    let (md, toml) = enum_spec(&values, &codes);
    let started = Instant::now();
    let lines = error_lines("big", &md, &toml);
    let took = started.elapsed();
    let row = |i: usize| 13 + i; // the enum's first row is line 13
    assert_eq!(
        lines,
        [
            format!("spec/big.md:{}:3: error: duplicate value `v7` in enum `mode`", row(n)),
            format!(
                "spec/big.md:{}:3: error: values `v9` and `v-9` both become the variant `V9`",
                row(n + 1)
            ),
            format!("spec/big.md:{}:3: error: duplicate error code `bad_doc`", row(n + 8)),
            format!(
                "spec/big.md:{}:3: error: codes `bad_doc` and `bad-doc` both become the variant `BadDoc`",
                row(n + 9)
            ),
        ]
    );
    assert!(took < Duration::from_secs(60), "checked in {took:?}");
    // Without the repeats, it loads.
    let (md, toml) = enum_spec(&values[..n], &[]);
    let spec = load(&source("big", &md, &toml)).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(spec.types.len(), 2);
}
