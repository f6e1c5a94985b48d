#!/usr/bin/env bash
# The bindings' proof (issue 25): every case of every generated corpus, through the Python and
# the Node binding, gets exactly the verdict `specmint validate --format json` prints for it;
# and the packages partners install run without Rust (issue 49).
#
#   tests/peers/bindings/run.sh RANDOM_DIR [PACKAGES_DIR]
#
# RANDOM_DIR: what codegen/tests/it/random_specs.rs writes under SPECMINT_RANDOM_SPECS_DIR (the
# random specs, their schemas and corpora). The corpora: the four bundled specs (generated/),
# the acceptance crate's spec (tests/acceptance/spec), the own-spec fixture and the random specs.
#
# PACKAGES_DIR: what `scripts/package.sh --profile dev --out PACKAGES_DIR` wrote (test.sh runs
# it among its builds); without it, this script runs that first, into a scratch directory.
# The wheel is installed into a fresh virtualenv and the two npm tarballs into a fresh folder,
# each with a PATH that holds no cargo or rustc, and each binding's own tests (bindings/python/
# tests, bindings/node/test) run there, from outside the checkout, against what was installed:
# SPECMINT_INSTALLED_IN makes them assert that the package and its native module come from that
# virtualenv or folder and that no cargo or rustc is on PATH. Expects .venv with
# tests/peers/requirements.txt (verdicts.py; the fresh virtualenv takes its pytest pin from it).
set -euo pipefail
cd "$(dirname "$0")/../../.."
random=$1
packages=${2:-}
root=$PWD
py=.venv/bin/python
cli=$(tests/peers/specmint-bin.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$packages" ]; then
  packages="$work/packages"
  scripts/package.sh --profile dev --out "$packages" >/dev/null
fi
packages=$(cd "$packages" && pwd)

# The CLI's verdicts, once per TYPE over all its files.
"$cli" generate --spec tests/acceptance/spec --out "$work/acceptance" >/dev/null
"$cli" generate --spec tests/fixtures/own_spec --out "$work/own" >/dev/null
$py tests/peers/bindings/verdicts.py --cli "$cli" --out "$work/verdicts" --generated generated \
  --spec-generated tests/acceptance/spec "$work/acceptance" \
  --spec-generated tests/fixtures/own_spec "$work/own" \
  --spec-generated "$random/spec" "$random"

# A PATH without Rust: every directory of PATH that holds neither cargo nor rustc, and a
# directory of links to what the others hold besides Rust's tools. (Debian's rustc-web, which
# scripts/wasm.sh installs, puts cargo and rustc in /usr/bin, beside grep, sed and the rest.)
# node and npm are linked first, so theirs are the ones found.
mkdir "$work/bin"
ln -s "$(command -v node)" "$(command -v npm)" "$work/bin/"
no_rust="$work/bin"
declare -A linked=([node]=1 [npm]=1)
links=()
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
  [ -n "$dir" ] || continue
  if [ ! -e "$dir/cargo" ] && [ ! -e "$dir/rustc" ]; then
    no_rust="$no_rust:$dir"
    continue
  fi
  for tool in "$dir"/*; do
    name=${tool##*/}
    case $name in
      cargo* | rustc* | rustdoc* | rust-* | rustfmt* | clippy-driver*) continue ;;
    esac
    if [ -z "${linked[$name]:-}" ]; then
      linked[$name]=1
      links+=("$tool")
    fi
  done
done
if [ "${#links[@]}" -gt 0 ]; then
  ln -s "${links[@]}" "$work/bin/"
fi

# Python: the wheel, alone from its file (--no-index), and the pinned pytest in a fresh
# virtualenv; the tests run from a scratch directory, so no `specmint` of the checkout is found.
SECONDS=0
python3 -m venv "$work/venv"
mkdir "$work/run"
(
  export PATH="$work/venv/bin:$no_rust"
  cd "$work/run"
  python -m pip install --quiet --disable-pip-version-check --no-index "$packages"/python/specmint-*.whl
  python -m pip install --quiet --disable-pip-version-check "$(grep '^pytest==' "$root/tests/peers/requirements.txt")"
  echo "python: $(python -c 'import specmint; print(specmint.__file__)') (a fresh venv, installed in ${SECONDS}s)"
  SPECMINT_INSTALLED_IN="$work/venv" SPECMINT_BINDINGS_VERDICTS="$work/verdicts" \
    python -m pytest -q -p no:cacheprovider "$root/bindings/python/tests"
)

# Node: the main package and the platform package, installed from their tarballs alone
# (--offline: the platform package satisfies the main one's optionalDependencies).
mkdir "$work/app"
SECONDS=0
(
  export PATH="$no_rust"
  cd "$work/app"
  npm install --offline --no-audit --no-fund --silent "$packages"/node/*.tgz
  echo "node: $(node -p "require.resolve('specmint')") (a fresh folder, installed in ${SECONDS}s)"
)
status=0
(cd "$work/app" && PATH="$no_rust" SPECMINT_NODE_PACKAGE="$work/app/node_modules/specmint" \
  SPECMINT_INSTALLED_IN="$work/app" SPECMINT_BINDINGS_VERDICTS="$work/verdicts" \
  node --test --test-reporter=spec "$root/bindings/node/test/" >"$work/node.txt") || status=$?
if [ "$status" -ne 0 ]; then
  grep -v '^✔' "$work/node.txt" >&2
  exit "$status"
fi
echo "node --test bindings/node/test: $(grep -E '^ℹ (tests|pass|fail) ' "$work/node.txt" | sed 's/^ℹ //' | paste -sd ' ' -)"

# The Python and JavaScript examples of README.md and the guide, run against these two builds.
# (The installed packages: the fresh venv's site packages, the fresh folder's node_modules.)
site=$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
$py tests/peers/bindings/doc_examples.py --python-path "$site" --node-package "$work/app/node_modules/specmint"
