#!/usr/bin/env bash
# Installs the JSON Schema command-line tools a team would reach for, pinned, for the bulk
# bench (cli/benches/bulk.rs runs each beside specmint on the same files; run by hand, not by
# test.sh): ajv-cli (npm, benches/peers/package-lock.json), check-jsonschema (PyPI,
# benches/peers/requirements.txt, in a virtualenv of its own) and jsonschema-cli (crates.io,
# built by cargo install --locked; its default features build aws-lc, a few minutes cold).
# Everything goes under $CARGO_TARGET_DIR/tools (target/tools by default) and benches/peers/
# node_modules; a tool already installed at its pinned version is kept.
#   scripts/bench_peers.sh        -> prints the three tools' paths, one per line
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=${CARGO_TARGET_DIR:-$root/target}/tools
mkdir -p "$tools"
JSONSCHEMA_CLI=0.60.2

"$root/tests/peers/npm-ci.sh" "$root/benches/peers" >&2

venv=$tools/peers-venv
if ! cmp -s "$root/benches/peers/requirements.txt" "$venv/.specmint-requirements" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/benches/peers/requirements.txt" >&2
  cp "$root/benches/peers/requirements.txt" "$venv/.specmint-requirements"
fi

cli=$tools/jsonschema-cli-$JSONSCHEMA_CLI
if [ ! -x "$cli/bin/jsonschema-cli" ]; then
  cargo install --quiet --locked jsonschema-cli --version "=$JSONSCHEMA_CLI" --root "$cli" >&2
fi

echo "$root/benches/peers/node_modules/.bin/ajv"
echo "$venv/bin/check-jsonschema"
echo "$cli/bin/jsonschema-cli"
