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

echo "== 1/5 allocations per call (counting allocator)" >&2
cargo bench --quiet --bench alloc > "$OUT/alloc.jsonl"

echo "== 2/5 instructions per call (callgrind)" >&2
if command -v valgrind > /dev/null; then
  mkdir -p "$OUT/instructions"
  BIN=$(cargo bench --no-run --bench instructions --message-format=json 2>/dev/null \
    | python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "instructions" and m.get("executable"):
        print(m["executable"])')
  (cd "$OUT/instructions" && valgrind --tool=callgrind \
      --toggle-collect='instructions::measured' --dump-after='instructions::measured' \
      --callgrind-out-file='cg.%p' "$BIN" > ids.txt 2> valgrind.log) \
    || { tail -20 "$OUT/instructions/valgrind.log" >&2; exit 1; }
else
  echo "   valgrind not found: no instruction counts (apt-get install valgrind)" >&2
fi

echo "== 3/5 bytes -> verdict and validate-only (criterion)" >&2
cargo bench --quiet --bench validate -- --noplot "${CRIT_ARGS[@]}" > "$OUT/validate.txt" 2>&1 \
  || { cat "$OUT/validate.txt" >&2; exit 1; }

echo "== 4/5 codegen scaling, and placing many violations (criterion)" >&2
cargo bench --quiet --bench codegen -- --noplot > "$OUT/codegen.txt" 2>&1 \
  || { cat "$OUT/codegen.txt" >&2; exit 1; }
cargo bench --quiet --bench locate -- --noplot > "$OUT/locate.txt" 2>&1 \
  || { cat "$OUT/locate.txt" >&2; exit 1; }

echo "== 5/5 derive compile cost: 200 structs, serde only vs serde + Validate" >&2
REPS=5
[ "$QUICK" = 1 ] && REPS=1
INSTR=()
command -v valgrind > /dev/null && INSTR=(--instructions)
python3 benches/compile_cost.py --root "$ROOT" --reps "$REPS" "${INSTR[@]}" --out "$OUT/compile.json"

python3 benches/report.py "$OUT" | tee "$OUT/report.md"
