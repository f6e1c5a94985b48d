//! What a rules table's arithmetic costs (issue 47): a 500-line Core Invoice
//! (`tests/acceptance/spec/core_invoice.md`, an EN 16931 subset whose sums, products and
//! per-rate sums are rows of a rules table) judged by the interpreter (what `specmint validate
//! --spec`, both bindings and the corpus runners use; the generated Rust calls the same
//! `specmint_runtime::expr`) against the same document under the same spec without its rules
//! table, in one process, rounds alternating so drift in the machine's speed hits both.
//!
//! `cargo bench --bench rules --features interpret` measures; without `--bench` (as `cargo
//! test --benches` runs it) one short round checks that it runs and that both verdicts hold.

use std::time::{Duration, Instant};

use specmint_codegen::{SpecSource, Validator};
use specmint_test_support::timing::measure;

fn spec(rules: bool) -> Validator {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/acceptance/spec");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let (mut md, mut toml) = (read("core_invoice.md"), read("core_invoice.toml"));
    if !rules {
        // The same spec with its rules table's rows dropped (their codes then raised by
        // nothing, so declared as the engine's).
        let mut codes = Vec::new();
        let table = md.find("| Code | On | Rule |").unwrap();
        let end = table + md[table..].find("\n\n").unwrap();
        for row in md[table..end].lines().skip(2) {
            codes.push(format!("{:?}", row.split('`').nth(1).unwrap()));
        }
        md.replace_range(table..end, "");
        // Its invalid examples break rules no longer stated.
        md = md.replace("```json invalid", "```text invalid");
        toml = toml.replace(
            "[errors]\n",
            &format!("[errors]\nengine = [{}]\n", codes.join(", ")),
        );
    }
    let source = SpecSource {
        name: "core_invoice".into(),
        md_path: "core_invoice.md".into(),
        md,
        toml_path: "core_invoice.toml".into(),
        toml,
        locales: Vec::new(),
    };
    Validator::new(&specmint_codegen::load(&source).unwrap_or_else(|d| panic!("{d}")))
}

/// Cents as a two-fraction-digit JSON number.
fn money(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// A valid invoice of `n` standard rated lines at 21 % and 9 %, every total and breakdown
/// computed in cents (VAT rounded half up, as the spec says).
fn invoice(n: usize) -> String {
    let mut lines = Vec::new();
    let mut taxable = [0i64; 2];
    for i in 0..n {
        let (qty, price) = ((i % 7) as i64 + 1, 100 + (i as i64 * 37) % 900);
        let net = qty * price;
        let rate = if i % 3 == 0 { 9 } else { 21 };
        taxable[usize::from(rate == 21)] += net;
        lines.push(format!(
            r#"{{"id": "{i}", "quantity": {qty}, "price": {}, "net_amount": {}, "vat_category": "S", "vat_rate": {rate}}}"#,
            money(price),
            money(net)
        ));
    }
    let vat = |base: i64, rate: i64| (base * rate + 50) / 100;
    let (v9, v21) = (vat(taxable[0], 9), vat(taxable[1], 21));
    let total = taxable[0] + taxable[1];
    format!(
        r#"{{"number": "INV-500", "issue_date": "2026-12-05", "type_code": "380", "currency": "EUR", "seller": {{"name": "Acme BV", "vat_id": "NL001"}}, "buyer": {{"name": "Bolt GmbH"}}, "lines": [{}], "totals": {{"line_total": {t}, "without_vat": {t}, "vat_total": {v}, "with_vat": {w}, "due": {w}}}, "vat_breakdown": [{{"category": "S", "taxable_amount": {}, "vat_amount": {}, "rate": 9}}, {{"category": "S", "taxable_amount": {}, "vat_amount": {}, "rate": 21}}]}}"#,
        lines.join(", "),
        money(taxable[0]),
        money(v9),
        money(taxable[1]),
        money(v21),
        t = money(total),
        v = money(v9 + v21),
        w = money(total + v9 + v21),
    )
}

fn median_us(times: &[Duration]) -> f64 {
    times[times.len() / 2].as_secs_f64() * 1e6
}

fn main() {
    let measuring = std::env::args().any(|a| a == "--bench");
    let iterations = if measuring { 400 } else { 2 };
    let (with, without) = (spec(true), spec(false));
    let started = Instant::now();
    println!("lines | without rules µs/doc | with rules µs/doc | with / without");
    for n in [1usize, 50, 500] {
        let doc = invoice(n);
        assert!(
            with.validate(doc.as_bytes()).is_ok(),
            "{n} lines: {:?}",
            with.validate(doc.as_bytes()).err()
        );
        assert!(without.validate(doc.as_bytes()).is_ok());
        // One cent off: the rules see it, the spec without them does not.
        let off = doc.replacen("\"due\": ", "\"due\": 0.01, \"paid\": ", 1);
        assert!(with.validate(off.as_bytes()).is_err() && without.validate(off.as_bytes()).is_ok());
        let bytes = doc.as_bytes();
        let times = measure(
            iterations,
            &mut [
                &mut || {
                    std::hint::black_box(without.validate(std::hint::black_box(bytes)).is_ok());
                },
                &mut || {
                    std::hint::black_box(with.validate(std::hint::black_box(bytes)).is_ok());
                },
            ],
        );
        let (a, b) = (median_us(&times[0]), median_us(&times[1]));
        println!("{n} | {a:.1} | {b:.1} | {:.2}", b / a);
    }
    eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
}
