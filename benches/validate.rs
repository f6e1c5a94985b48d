//! Bytes in → verdict out, and validate-only on a parsed value, for every spec in
//! `support::specs()`, every fixture, every contender, in one process run.
//!
//! Group `verdict/<spec>/<fixture>`, function = contender; group `validate_only/<spec>/<fixture>`.
//! `scripts/bench.sh` runs this and prints the ratios.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use specmint_test_support::contenders as support;

fn verdict(c: &mut Criterion) {
    for spec in support::specs() {
        spec.assert_verdicts();
        for fixture in &spec.fixtures {
            let mut group = c.benchmark_group(format!("verdict/{}/{}", spec.spec, fixture.name));
            group.throughput(Throughput::Bytes(fixture.bytes.len() as u64));
            for contender in &spec.contenders {
                group.bench_with_input(
                    BenchmarkId::from_parameter(contender.name),
                    fixture.bytes.as_slice(),
                    |b, bytes| b.iter(|| (contender.check)(std::hint::black_box(bytes))),
                );
            }
            group.finish();
        }
        for fixture in &spec.fixtures {
            let mut group =
                c.benchmark_group(format!("validate_only/{}/{}", spec.spec, fixture.name));
            for contender in &spec.contenders {
                let Some(prepare) = &contender.validate_only else {
                    continue;
                };
                let run = prepare(&fixture.bytes);
                group.bench_function(BenchmarkId::from_parameter(contender.name), |b| {
                    b.iter(|| std::hint::black_box(run()))
                });
            }
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = verdict
}
criterion_main!(benches);
