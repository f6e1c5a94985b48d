#!/usr/bin/env bash
# The whole test suite: the Rust workspace (unit, integration, trybuild UI, doc tests),
# the drift check, and the non-Rust consumers of the emitted schemas.
set -euo pipefail
cd "$(dirname "$0")"

# SPECMINT_RECORD: the engine and lifecycle tests' CLI calls are recorded for the MCP
# differential below (cli/tests/it/common.rs, `Recording`).
record=$(mktemp -d)
pg_dir=$(mktemp -d)
random_specs=$(mktemp -d)
packages=$(mktemp -d)
trap 'scripts/postgres.sh stop "$pg_dir"; rm -rf "$pg_dir" "$record" "$random_specs" "$packages"' EXIT
SPECMINT_RECORD="$record" cargo test --workspace --all-targets
cargo test --workspace --doc
# The CLI that run built (the workspace's feature set): every step below runs this one binary,
# the peer-tool scripts too (tests/peers/specmint-bin.sh), rather than building it again with the
# root package's features alone.
export SPECMINT_BIN="${CARGO_TARGET_DIR:-target}/debug/specmint"

# Everything that builds or installs runs first, one step at a time (cargo, pip and npm each
# hold one tree); the runs after it go in two lanes side by side (below).

# PostgreSQL: a throwaway cluster on a Unix socket (scripts/postgres.sh installs Debian's server
# first when it is missing and we are root).
pg_query=$(scripts/postgres.sh start "$pg_dir")
"$SPECMINT_BIN" generate --check

# Python: the pinned packages of every step (jsonschema, the MCP and A2A SDKs, the bindings'
# and conformance tools) in a project-local virtualenv; Node: the pinned task-passport.
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/peers/requirements.txt
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/peers/a2a/requirements.txt
./tests/peers/npm-ci.sh tests/peers/taskpassport
./tests/peers/npm-ci.sh tests/peers/conformance

# 200 seeded random specs with their schemas and corpora (codegen/tests/it/random_specs.rs),
# written once for the bindings and conformance runs.
SPECMINT_RANDOM_SPECS_DIR="$random_specs" cargo test --quiet --workspace --test it random_specs:: >/dev/null

# The Python (PyO3) and Node (napi-rs) bindings as partners install them: the abi3 manylinux
# wheel and the npm main and platform packages (scripts/package.sh; the dev profile here, the
# release one for real packaging). Each binding is built alone (its own feature set), linked
# by Zig for an explicit target triple (under $CARGO_TARGET_DIR: x86_64-unknown-linux-gnu/ and
# package-node/), so the artifacts of the run above are neither reused nor disturbed: about two
# minutes cold, 7 s warm.
SECONDS=0
scripts/package.sh --profile dev --out "$packages"
echo "scripts/package.sh --profile dev: ${SECONDS}s"

# The user guide (guide/, an mdBook) builds into $CARGO_TARGET_DIR/guide: scripts/guide.sh first
# installs the pinned mdBook into the target directory when it is missing (from crates.io, about
# 80 seconds cold). Its links are held by cargo test (docs_links::), its examples run there too
# (docs_examples::), and its CLI reference and the man pages are regenerated there (cli_reference::).
scripts/guide.sh

# The WebAssembly module (bindings/wasm) for wasm32-unknown-unknown, the standard library built
# from source too: scripts/wasm.sh installs Debian's toolchain when it is missing and we are root
# (else it says SKIPPED and SPECMINT_WASM is empty), about 2 minutes cold, a second warm. Then
# Chromium and the pinned puppeteer-core for its browser test (installed the same way).
SECONDS=0
SPECMINT_WASM=$(scripts/wasm.sh)
export SPECMINT_WASM
echo "scripts/wasm.sh: ${SECONDS}s"
tests/peers/wasm/run.sh --prepare

# Lane 1: the Rust side again on PostgreSQL, the bindings and the conformance corpus.
lane_rust() {
  # The engine and lifecycle suites once more, on PostgreSQL, and the tests that start clusters
  # of their own (TLS as sslmode says; 16 claimers and the MCP server through a stop and
  # restart). --workspace: the same feature set as the run above, so its test binaries are
  # reused, not rebuilt.
  SPECMINT_TEST_PG="$pg_query" cargo test --workspace --test it -- envelope_engine:: task_lifecycle:: store_server::
  # Every case of every corpus (bundled, acceptance, own spec, random specs) through the Python
  # binding's pytest and the Node binding's test runner, each equal to the CLI's verdict: the
  # wheel installed into a fresh virtualenv and the npm tarballs into a fresh folder, with no
  # cargo or rustc on PATH.
  ./tests/peers/bindings/run.sh "$random_specs" "$packages"
  # Conformance corpus (generated/corpus/): Python jsonschema, Node ajv and
  # datamodel-code-generator against generated/schema/, with the agreement table.
  # (The Rust side, the typify round trip and the bounded differential run are in cargo test.)
  SPECMINT_RANDOM_SPECS_DIR="$random_specs" ./tests/peers/conformance/run.sh
}

# Lane 2: the peers that drive the CLI.
lane_peers() {
  .venv/bin/python tests/peers/conformance/check_schemas.py
  # MCP: `specmint mcp` (team_handoff) driven by the official Python MCP SDK: the handshake, the
  # tool list, filings and a refusal per shape of `packet` (every refusal code runs through the
  # MCP server in cargo test's handoff:: above, from the same fixture).
  .venv/bin/python tests/peers/mcp/client.py "$SPECMINT_BIN"
  # The Action Envelope as typed tool calls and the task tools of `specmint mcp --store`: every
  # recorded CLI call of the engine and lifecycle suites replayed through the Python MCP SDK on
  # a copy of its store, the same result and the same store after.
  .venv/bin/python tests/peers/mcp/differential.py "$record" "$SPECMINT_BIN"
  # The same calls replayed on PostgreSQL (the server holding one connection throughout).
  .venv/bin/python tests/peers/mcp/differential.py "$record" "$SPECMINT_BIN" --postgres "$pg_query"
  # The reliability suite, short form: concurrency, kill -9 at random points, hostile packs,
  # malformed MCP lines, the secrets corpus, a flat pack and a zip converted to flat in bounded
  # memory; a table of attempts and failures (tests/peers/reliability.py BIN --full is the size
  # the probes were first run at).
  python3 tests/peers/reliability.py "$SPECMINT_BIN"
  # `specmint lsp`: a Python LSP client (lsprotocol) over every golden mistake of
  # codegen/tests/mistakes/, the bundled specs and the full request set; then Neovim's built-in
  # client, headless (installed from Debian when missing and root, else SKIPPED).
  .venv/bin/python tests/peers/lsp/client.py "$SPECMINT_BIN"
  tests/peers/lsp/nvim.sh "$SPECMINT_BIN"
  # The executor protocol on a spec of one's own: scripts/run_corpus.py over the corpus
  # `generate --spec --out` writes, each case judged by `validate --spec`.
  local own_out
  own_out=$(mktemp -d)
  "$SPECMINT_BIN" generate --spec tests/fixtures/own_spec --out "$own_out" >/dev/null
  .venv/bin/python scripts/run_corpus.py --generated "$own_out" -- \
    "$SPECMINT_BIN" validate --spec tests/fixtures/own_spec {type} - --format json
  rm -rf "$own_out"
  # This repository's pre-commit hooks (.pre-commit-hooks.yaml, as committed at HEAD) run by the
  # real pre-commit on a scratch repository keeping that spec: a stale generated/ refused, a
  # breaking change refused by `specmint diff`, a compatible one let through.
  .venv/bin/python tests/peers/precommit/run.py "$SPECMINT_BIN"
  # The WebAssembly module under Node's WebAssembly: every case of every corpus (bundled,
  # acceptance, own spec, the random specs) equal to the CLI's verdict, and a spec of our own
  # given as text; then the playground in headless Chromium (puppeteer-core): a spec mistake
  # typed and shown at its line, a pasted document's errors, a share link, a screenshot.
  tests/peers/wasm/run.sh "$random_specs"
  # TaskPack interop with its reference implementation, task-passport (npm, pinned).
  ./tests/peers/taskpassport/run.sh
  # TaskPack's A2A binding: `specmint a2a serve` driven by the official A2A SDK (a2a-sdk,
  # pinned), with packs from specmint and from task-passport (which also prove the open reading).
  ./tests/peers/a2a/run.sh
  # A mesh of machines: three network namespaces (made here as root, removed after), PostgreSQL
  # with TLS in one, two agents claiming from it with verify-full and handing a pack to each
  # other's A2A door over TLS with a token. Without root it says SKIPPED, loudly.
  .venv/bin/python tests/peers/mesh.py "$SPECMINT_BIN"
}

# Both lanes at once, each into its own log, shown whole when it ends. Each runs in a background
# subshell, where `set -e` holds (it would not in one whose status a `||` tests), so a lane ends
# at its first failure as this script would; the other lane still finishes and is shown. On 2
# cores this takes about what the longer lane takes alone.
lanes=$(mktemp -d)
trap 'scripts/postgres.sh stop "$pg_dir"; rm -rf "$pg_dir" "$record" "$random_specs" "$packages" "$lanes"' EXIT
(lane_rust) >"$lanes/rust" 2>&1 &
rust_pid=$!
(lane_peers) >"$lanes/peers" 2>&1 &
peers_pid=$!
peers_status=0
wait "$peers_pid" || peers_status=$?
echo "== lane: the peers that drive the CLI (exit $peers_status)"
cat "$lanes/peers"
rust_status=0
wait "$rust_pid" || rust_status=$?
echo "== lane: Rust on PostgreSQL, the bindings, the conformance corpus (exit $rust_status)"
cat "$lanes/rust"
if [ "$peers_status" -ne 0 ] || [ "$rust_status" -ne 0 ]; then
  echo "test.sh: a lane failed (peers: exit $peers_status; Rust, bindings, conformance: exit $rust_status)" >&2
  exit 1
fi
