//! Codegen: load + check + emit (Rust and JSON Schema) of the bundled specs, and of synthetic
//! specs of 10, 100, 1,000 and 10,000 table rows.
//!
//! Group `codegen`, functions `bundled` and `rows_N`. `scripts/bench.sh` runs this and
//! prints the times and the growth per 10× rows.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use specmint_codegen::{generate, Options, SpecSource};

/// A valid synthetic spec of about `rows` table rows: groups of ten rows, each group one
/// root field (`items_i: item_i[]`), a six-field table `item_i` and three cap rows (an
/// item cap, two char caps), plus a fixed enum table (3 rows) and error table (4 rows).
pub fn synthetic(rows: usize) -> SpecSource {
    let groups = (rows / 10).max(1);
    let mut md = String::from("# Synthetic\n\n## Top-level fields of a `doc`\n\n");
    md.push_str("| Field | Type | Required | Meaning |\n|---|---|---|---|\n");
    for i in 0..groups {
        md.push_str(&format!("| `items_{i}` | item_{i}[] | — | Group {i}. |\n"));
    }
    for i in 0..groups {
        md.push_str(&format!(
            "\n### Members of an `item_{i}`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n\
             | `name` | non-blank string | ✔ | Name {i}. |\n\
             | `note` | string? | — | Note. |\n\
             | `tags` | non-blank string[] | — | Tags. |\n\
             | `count` | uint32 | — (default 0) | Count. |\n\
             | `kind` | kind | ✔ | Kind. |\n\
             | `on` | bool | — (default false) | Switch. |\n"
        ));
    }
    md.push_str("\n## Kinds: `kind`\n\n| Value | Meaning |\n|---|---|\n| `a` | A. |\n| `b` | B. |\n| `c` | C. |\n");
    md.push_str("\n## Caps\n\n| Cap | Value | Constant |\n|---|---|---|\n");
    for i in 0..groups {
        md.push_str(&format!(
            "| `items_{i}` | 8 items | ITEMS_{i}_MAX |\n\
             | `items_{i}[].name` | 40 chars | ITEM_{i}_NAME_MAX_CHARS |\n\
             | `items_{i}[].tags[]` | 20 chars | ITEM_{i}_TAG_MAX_CHARS |\n"
        ));
    }
    md.push_str(
        "\n## Error codes\n\n| Code | When |\n|---|---|\n\
         | `invalid_doc` | Not the shape. |\n\
         | `blank_field` | Blank. |\n\
         | `field_too_long` | Too long. |\n\
         | `too_many_items` | Too many. |\n",
    );
    let toml = "[spec]\nroot = \"doc\"\n\n[errors]\nparse = \"invalid_doc\"\nnon_blank = \"blank_field\"\n\
                max_chars = \"field_too_long\"\nmax_items = \"too_many_items\"\n"
        .to_owned();
    SpecSource {
        name: "synthetic".to_owned(),
        md_path: "spec/synthetic.md".to_owned(),
        md,
        toml_path: "spec/synthetic.toml".to_owned(),
        toml,
        locales: Vec::new(),
    }
}

/// Table rows of a spec (lines starting with `|`, minus header and separator rows).
fn table_rows(md: &str) -> usize {
    let lines: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    let headers = lines.iter().filter(|l| l.starts_with("|---")).count();
    lines.len() - 2 * headers
}

fn codegen(c: &mut Criterion) {
    let options = Options::default();
    let bundled = specmint_codegen::read_spec_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(specmint::SPEC_DIR),
        specmint::SPEC_DIR,
    )
    .expect("spec/ is readable");
    let mut group = c.benchmark_group("codegen");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(300));
    group.measurement_time(Duration::from_secs(2));
    group.bench_function(BenchmarkId::from_parameter("bundled"), |b| {
        b.iter(|| generate(&bundled, &options).expect("bundled specs generate"))
    });
    for rows in [10, 100, 1_000, 10_000] {
        let source = synthetic(rows);
        let files = generate(std::slice::from_ref(&source), &options)
            .unwrap_or_else(|d| panic!("synthetic spec of {rows} rows: {d}"));
        eprintln!(
            "codegen rows_{rows}: {} table rows, {} bytes of Markdown, {} bytes emitted",
            table_rows(&source.md),
            source.md.len(),
            files.values().map(String::len).sum::<usize>()
        );
        if rows >= 10_000 {
            group.measurement_time(Duration::from_secs(10));
        }
        group.bench_function(BenchmarkId::from_parameter(format!("rows_{rows}")), |b| {
            b.iter(|| generate(std::slice::from_ref(&source), &options).expect("generates"))
        });
    }
    group.finish();
}

criterion_group!(benches, codegen);
criterion_main!(benches);
