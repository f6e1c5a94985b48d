#!/usr/bin/env bash
# The stores benchmark (benches/engines/stores.rs) on SQLite and on a throwaway PostgreSQL
# server started here with fsync on, so "durable" means on disk for both.
#
#   ./scripts/bench_stores.sh [COUNT]      # operations per row, default 2000
#
# Prints a Markdown table (BENCHMARKS.md, "Stores"). Not part of test.sh: nothing here is a
# test, and nothing asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'scripts/postgres.sh stop "$dir"; rm -rf "$dir"' EXIT
query=$(SPECMINT_PG_DURABLE=1 scripts/postgres.sh start "$dir")
SPECMINT_BENCH_PG="$query" cargo bench --quiet --bench engines -- stores "${1:-2000}"
