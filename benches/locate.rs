//! Placing a report's violations in their document (issue 48, finding 1): `locate_all`, one
//! walk for every pointer, against the baseline of placing each pointer from the document's
//! start (`locate` once per violation, as reports were placed before), in one process run.
//!
//! Group `locate/<n>`: an array of `n` objects, a violation missing under each
//! (`/i/missing`, placed at its object); functions `locate_all` and `one_at_a_time`. The ratio
//! grows with `n`: the baseline is quadratic, `locate_all` linear.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use specmint::runtime::document::{locate, locate_all, Want};

fn places(c: &mut Criterion) {
    // `cargo test` runs this once per function without `--bench`, in the debug build: the
    // quadratic baseline at 10,000 would take a minute there, so that size is benched only.
    let benching = std::env::args().any(|a| a == "--bench");
    let sizes: &[usize] = if benching {
        &[100, 1_000, 10_000]
    } else {
        &[100, 1_000]
    };
    for &n in sizes {
        let text = format!("[{}]", vec![r#"{"a": 1}"#; n].join(",\n "));
        let pointers: Vec<String> = (0..n).map(|i| format!("/{i}/missing")).collect();
        let wants: Vec<(&str, Want)> = pointers
            .iter()
            .map(|p| (p.as_str(), Want::Nearest))
            .collect();
        // Both contenders give the same places.
        let one_at_a_time = |text: &str| -> Vec<Option<(usize, usize)>> {
            pointers
                .iter()
                .map(|p| locate(text, p).or_else(|| locate(text, &p[..p.rfind('/').unwrap()])))
                .collect()
        };
        assert_eq!(locate_all(&text, &wants), one_at_a_time(&text));
        let mut group = c.benchmark_group(format!("locate/{n}"));
        group.bench_function(BenchmarkId::from_parameter("locate_all"), |b| {
            b.iter(|| locate_all(std::hint::black_box(&text), &wants))
        });
        group.bench_function(BenchmarkId::from_parameter("one_at_a_time"), |b| {
            b.iter(|| one_at_a_time(std::hint::black_box(&text)))
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20);
    targets = places
}
criterion_main!(benches);
