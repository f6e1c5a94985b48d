#!/usr/bin/env bash
# Prints the path of the specmint binary the peer-tool scripts run: $SPECMINT_BIN when it is
# set (test.sh sets it to the binary its `cargo test --workspace` run built, so no script
# builds the CLI again with another feature set), else the one `cargo build --bin specmint`
# leaves in the target dir.
set -euo pipefail
if [ -n "${SPECMINT_BIN:-}" ]; then
  echo "$SPECMINT_BIN"
  exit
fi
cd "$(dirname "$0")/../.."
cargo build --quiet --bin specmint
echo "${CARGO_TARGET_DIR:-target}/debug/specmint"
