#!/usr/bin/env bash
# Long differential run: the jsonschema crate on the emitted schemas against the Rust validator
# on N mutated documents per spec (default 100,000; the test suite runs 5,000).
#   scripts/differential.sh [N] [SEED]      (or SPECMINT_DIFFERENTIAL_DOCS / _SEED)
set -euo pipefail
cd "$(dirname "$0")/.."
export SPECMINT_DIFFERENTIAL_DOCS="${1:-${SPECMINT_DIFFERENTIAL_DOCS:-100000}}"
if [ -n "${2:-}" ]; then export SPECMINT_DIFFERENTIAL_SEED="$2"; fi
cargo test --release --test it -- --nocapture differential::the_schema_and_the_rust_validator_agree
