#!/usr/bin/env bash
# Every benchmark of issue 5, then one table of ratios against the targets.
#
#   ./scripts/bench.sh            # everything (a few minutes on 2 cores)
#   ./scripts/bench.sh --quick    # shorter criterion runs, one compile-cost repetition
#
# Results: target/bench-results/ (criterion data, alloc.jsonl, compile.json, report.md).
# Not part of test.sh: nothing here is a test, and nothing asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="$ROOT/target/bench-results"
QUICK=0
[ "${1:-}" = "--quick" ] && QUICK=1

rm -rf "$OUT"
mkdir -p "$OUT"
export CRITERION_HOME="$OUT/criterion"

CRIT_ARGS=()
if [ "$QUICK" = 1 ]; then
  CRIT_ARGS=(--warm-up-time 0.3 --measurement-time 1)
fi

echo "== 1/4 allocations per call (counting allocator)" >&2
cargo bench --quiet --bench alloc > "$OUT/alloc.jsonl"

echo "== 2/4 bytes -> verdict and validate-only (criterion)" >&2
cargo bench --quiet --bench validate -- --noplot "${CRIT_ARGS[@]}" > "$OUT/validate.txt" 2>&1 \
  || { cat "$OUT/validate.txt" >&2; exit 1; }

echo "== 3/4 codegen scaling (criterion)" >&2
cargo bench --quiet --bench codegen -- --noplot > "$OUT/codegen.txt" 2>&1 \
  || { cat "$OUT/codegen.txt" >&2; exit 1; }

echo "== 4/4 derive compile cost: 200 structs, serde only vs serde + Validate" >&2
REPS=5
[ "$QUICK" = 1 ] && REPS=1
python3 benches/compile_cost.py --root "$ROOT" --reps "$REPS" --out "$OUT/compile.json"

python3 benches/report.py "$OUT" | tee "$OUT/report.md"
