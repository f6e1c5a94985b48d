#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time, one after another.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60 seconds, every target)
#
# Works on the stable toolchain: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its -Z flags, and
# --sanitizer none avoids -Zsanitizer=address (which needs a nightly std). Findings land in
# fuzz/artifacts/<target>/; each run's stats are in fuzz/logs/<target>.log. Not part of
# test.sh (CI time). Needs `cargo install cargo-fuzz` and a C++ compiler.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz list)
fi

python3 scripts/fuzz_seeds.py
mkdir -p fuzz/logs
status=0
for target in "${targets[@]}"; do
  echo "== $target (${seconds}s)"
  (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none "$target" -- \
      -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1) >"fuzz/logs/$target.log" 2>&1 || status=1
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done )|(ERROR|panicked|deadly signal)' \
    "fuzz/logs/$target.log" || true
done
exit $status
