#!/usr/bin/env bash
# The bindings' proof (issue 25): every case of every generated corpus, through the Python and
# the Node binding, gets exactly the verdict `specmint validate --format json` prints for it.
#
#   tests/peers/bindings/run.sh RANDOM_DIR
#
# RANDOM_DIR: what codegen/tests/it/random_specs.rs writes under SPECMINT_RANDOM_SPECS_DIR (the
# random specs, their schemas and corpora). The corpora: the four bundled specs (generated/),
# the acceptance crate's spec (tests/acceptance/spec), the own-spec fixture and the random specs.
#
# Both addons are the dev-profile cdylibs `cargo build --workspace --lib --tests` leaves in the
# target dir (test.sh builds them right after its `cargo test` run, with the same features, so
# nothing else is rebuilt); each is put beside its package's own files in a scratch directory,
# as `pip install` and `npm run build` would place it. Expects .venv with tests/peers/requirements.txt.
set -euo pipefail
cd "$(dirname "$0")/../../.."
random=$1
py=.venv/bin/python
target=${CARGO_TARGET_DIR:-target}
cli=$(tests/peers/specmint-bin.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

case "$(uname -s)" in
  Darwin) ext=dylib ;;
  *) ext=so ;;
esac

# The CLI's verdicts, once per TYPE over all its files.
"$cli" generate --spec tests/acceptance/spec --out "$work/acceptance" >/dev/null
"$cli" generate --spec tests/fixtures/own_spec --out "$work/own" >/dev/null
$py tests/peers/bindings/verdicts.py --cli "$cli" --out "$work/verdicts" --generated generated \
  --spec-generated tests/acceptance/spec "$work/acceptance" \
  --spec-generated tests/fixtures/own_spec "$work/own" \
  --spec-generated "$random/spec" "$random"

# Python: the package's files and the extension module, as maturin lays them out.
mkdir -p "$work/python"
cp -R bindings/python/python/specmint "$work/python/"
cp "$target/debug/lib_specmint.$ext" "$work/python/specmint/_specmint.abi3.so"
PYTHONPATH="$work/python" SPECMINT_BINDINGS_VERDICTS="$work/verdicts" \
  $py -m pytest -q -p no:cacheprovider bindings/python/tests

# Node: the package's files and the addon, as `npm run build` names it when it has no platform.
mkdir -p "$work/node"
cp bindings/node/index.js bindings/node/index.d.ts bindings/node/package.json "$work/node/"
cp "$target/debug/libspecmint_node.$ext" "$work/node/specmint.node"
status=0
SPECMINT_NODE_PACKAGE="$work/node" SPECMINT_BINDINGS_VERDICTS="$work/verdicts" \
  node --test --test-reporter=spec bindings/node/test/ >"$work/node.txt" || status=$?
if [ "$status" -ne 0 ]; then
  grep -v '^✔' "$work/node.txt" >&2
  exit "$status"
fi
echo "node --test bindings/node/test: $(grep -E '^ℹ (tests|pass|fail) ' "$work/node.txt" | sed 's/^ℹ //' | paste -sd ' ' -)"

# The Python and JavaScript examples of README.md and the guide, run against these two builds.
$py tests/peers/bindings/doc_examples.py --python-path "$work/python" --node-package "$work/node"
