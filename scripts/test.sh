#!/usr/bin/env bash
# The whole test suite: the Rust workspace (unit, integration, trybuild UI, doc tests),
# the drift check, and the non-Rust consumers of the emitted schemas.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --all-targets
cargo test --workspace --doc
cargo run --quiet -- generate --check

# Python: a pinned jsonschema in a project-local virtualenv.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/requirements.txt
.venv/bin/python scripts/check_schemas.py
