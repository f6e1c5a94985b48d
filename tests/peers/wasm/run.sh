#!/usr/bin/env bash
# The WebAssembly module's proof (issue 52):
#   1. under Node's WebAssembly, every case of every generated corpus (the four bundled specs,
#      the acceptance crate's spec, the own-spec fixture, this folder's spec and, with
#      RANDOM_DIR, the random specs) gets exactly the verdict `specmint validate --format json`
#      prints for it (corpus.test.mjs), and the API holds to the CLI (api.test.mjs);
#   2. in headless Chromium (Debian's, driven by puppeteer-core), the playground shows a spec
#      mistake's diagnostic at its line, and a document's errors as the CLI gives them
#      (browser.test.mjs), and saves a screenshot.
#
#   tests/peers/wasm/run.sh [RANDOM_DIR]
#   tests/peers/wasm/run.sh --prepare    # only install: Chromium and the pinned npm packages
#
# The module is $SPECMINT_WASM when that is set (test.sh builds it among its builds; set and
# empty: it could not be built), else what scripts/wasm.sh builds (it installs Debian's wasm32
# toolchain when missing and root). Chromium is Debian's, installed the same way. Where either
# cannot be, that part says SKIPPED and why, and the script goes on (exit 0).
# SPECMINT_WASM_SCREENSHOT names the screenshot (default: $CARGO_TARGET_DIR/playground.png).
set -euo pipefail
cd "$(dirname "$0")/../../.."

chromium=${SPECMINT_CHROMIUM:-/usr/bin/chromium}
# Chromium, installed when missing and root; false (having said why) when it cannot be.
have_chromium() {
  [ -x "$chromium" ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "wasm browser test: SKIPPED: no Chromium at $chromium and not root to install it (sudo apt-get install chromium, or set SPECMINT_CHROMIUM)"
    return 1
  fi
  echo "wasm: installing Debian's chromium" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  if ! apt-get install -y -qq --no-install-recommends chromium >&2 || [ ! -x "$chromium" ]; then
    echo "wasm browser test: SKIPPED: apt-get could not install chromium at $chromium"
    return 1
  fi
}

if [ "${1:-}" = --prepare ]; then
  if have_chromium; then
    tests/peers/npm-ci.sh tests/peers/wasm
  fi
  exit 0
fi
random=${1:-}
if [ -n "${SPECMINT_WASM+set}" ]; then
  module=$SPECMINT_WASM
else
  module=$(scripts/wasm.sh)
fi
if [ -z "$module" ]; then
  echo "wasm: SKIPPED: no WebAssembly module (scripts/wasm.sh said why)"
  exit 0
fi
cli=$(tests/peers/specmint-bin.sh)
cli=$(realpath "$cli")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The CLI's verdicts on every corpus, once per TYPE.
"$cli" generate --spec tests/acceptance/spec --out "$work/acceptance" >/dev/null
"$cli" generate --spec tests/fixtures/own_spec --out "$work/own" >/dev/null
"$cli" generate --spec tests/peers/wasm/spec --out "$work/signup" >/dev/null
extra=()
if [ -n "$random" ]; then
  extra=(--spec-generated "$random/spec" "$random")
fi
python3 tests/peers/bindings/verdicts.py --cli "$cli" --out "$work/verdicts" --generated generated \
  --spec-generated tests/acceptance/spec "$work/acceptance" \
  --spec-generated tests/fixtures/own_spec "$work/own" \
  --spec-generated tests/peers/wasm/spec "$work/signup" "${extra[@]}"

echo "wasm: $module ($(wc -c <"$module") bytes, $(gzip -9 -c "$module" | wc -c) gzipped)"
status=0
SPECMINT_WASM="$module" SPECMINT_BIN="$cli" SPECMINT_BINDINGS_VERDICTS="$work/verdicts" \
  node --test --test-reporter=spec tests/peers/wasm/corpus.test.mjs tests/peers/wasm/api.test.mjs \
  >"$work/node.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  grep -v '^✔' "$work/node.txt" >&2
  exit "$status"
fi
echo "node --test tests/peers/wasm (Node's WebAssembly): $(grep -E '^ℹ (tests|pass|fail) ' "$work/node.txt" | sed 's/^ℹ //' | paste -sd ' ' -)"

# The browser: Debian's Chromium, installed when missing and root.
if ! have_chromium; then
  exit 0
fi
tests/peers/npm-ci.sh tests/peers/wasm >&2
SPECMINT_WASM="$module" SPECMINT_BIN="$cli" SPECMINT_CHROMIUM="$chromium" \
  SPECMINT_WASM_SCREENSHOT="${SPECMINT_WASM_SCREENSHOT:-$(realpath -m "${CARGO_TARGET_DIR:-target}")/playground.png}" \
  node --test --test-reporter=spec tests/peers/wasm/browser.test.mjs >"$work/browser.txt" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  grep -v '^✔' "$work/browser.txt" >&2
  exit "$status"
fi
echo "node --test tests/peers/wasm/browser.test.mjs (headless $("$chromium" --version 2>/dev/null | head -n 1)): $(grep -E '^ℹ (tests|pass|fail) ' "$work/browser.txt" | sed 's/^ℹ //' | paste -sd ' ' -)"
