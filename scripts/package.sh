#!/usr/bin/env bash
# The bindings as packages that install without Rust (issue 49); nothing is published.
#
#   scripts/package.sh [--profile release|dev] [--out DIR]
#
# Writes, for the machine it runs on (Linux shown):
#   DIR/python/specmint-VERSION-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
#       one wheel for every CPython >= 3.10 (abi3) on any glibc >= 2.17 (maturin checks the tag
#       against the extension's symbols)
#   DIR/node/specmint-VERSION.tgz                     the main package: index.js, its types, no addon
#   DIR/node/specmint-linux-x64-gnu-VERSION.tgz       the platform package: the prebuilt addon
#       napi-rs's layout: the main package lists the platform packages as optionalDependencies,
#       npm installs the one whose os/cpu/libc match, and index.js loads it.
#
# --profile: release (the default: what partners get) or dev (test.sh: a quicker build, the same
#   layout). --out: default dist/. Honours CARGO_TARGET_DIR. Needs Rust, Python 3 with venv, Node
#   with npm; maturin and Zig come pinned from scripts/package-requirements.txt into .venv/ (or
#   $SPECMINT_PACKAGE_VENV). On Linux with glibc both binaries are linked by Zig against glibc
#   2.17 (a native link here, on glibc 2.36, would need GLIBC_2.34 symbols: manylinux_2_34 at
#   best, refused by Ubuntu 20.04 or RHEL 8); elsewhere the host's toolchain links them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() {
  echo "usage: scripts/package.sh [--profile release|dev] [--out DIR]" >&2
  exit 2
}
profile=release
out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) [ $# -ge 2 ] || usage; profile=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    *) usage ;;
  esac
done
case "$profile" in
  dev) profile_dir=debug ;;
  release) profile_dir=release ;;
  *) usage ;;
esac
mkdir -p "$out/python" "$out/node"
out=$(cd "$out" && pwd)
rm -f "$out"/python/*.whl "$out"/node/*.tgz
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"
target=$(cd "$target" && pwd)
export CARGO_TARGET_DIR="$target"

venv=${SPECMINT_PACKAGE_VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
venv=$(cd "$venv" && pwd)
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/package-requirements.txt

# The platform as napi-rs names it (bindings/node/platform.js), and how to link for it.
suffix=$(node -p "require('./bindings/node/platform.js').platformArchABI()")
case "$suffix" in
  linux-x64-gnu) triple=x86_64-unknown-linux-gnu ;;
  linux-arm64-gnu) triple=aarch64-unknown-linux-gnu ;;
  *) triple= ;;
esac

# Python: maturin builds the extension and the wheel, and audits the manylinux tag.
maturin_args=(build --profile "$profile" -m bindings/python/Cargo.toml --out "$out/python")
if [ -n "$triple" ]; then
  maturin_args+=(--zig --compatibility manylinux2014)
fi
# maturin runs `python -m ziglang` with the first python on PATH: the venv's.
PATH="$venv/bin:$PATH" "$venv/bin/maturin" "${maturin_args[@]}"

# Node: the addon, linked the same way (maturin's `zig cc` wrapper as cargo's linker), in a
# target dir of its own: cargo's linker setting also reaches the build scripts, which maturin
# links natively, so in one directory each build would redo the other's shared crates.
node_target="$target/package-node"
cargo_args=(build -p specmint-node --lib --profile "$profile" --target-dir "$node_target")
lib_dir="$node_target/$profile_dir"
if [ -n "$triple" ]; then
  linker="$target/package/zigcc-$triple.sh"
  mkdir -p "$target/package"
  cat >"$linker" <<EOF
#!/bin/sh
export CARGO_ZIGBUILD_ZIG_COMMAND="$venv/bin/python" CARGO_ZIGBUILD_ZIG_COMMAND_ARGS="-m ziglang"
exec "$venv/bin/maturin" zig cc -- -g -fno-sanitize=all -target ${triple%%-*}-linux-gnu.2.17 "\$@"
EOF
  chmod +x "$linker"
  cargo_args+=(--target "$triple")
  lib_dir="$node_target/$triple/$profile_dir"
  export "CARGO_TARGET_$(echo "$triple" | tr 'a-z-' 'A-Z_')_LINKER=$linker"
fi
cargo "${cargo_args[@]}"
case "$suffix" in
  darwin-*) addon="$lib_dir/libspecmint_node.dylib" ;;
  win32-*) addon="$lib_dir/specmint_node.dll" ;;
  *) addon="$lib_dir/libspecmint_node.so" ;;
esac
# What maturin's audit does for the wheel, for the addon: no glibc symbol newer than 2.17.
if [ -n "$triple" ]; then
  if command -v objdump >/dev/null; then
    newest=$(objdump -T "$addon" | grep -o 'GLIBC_[0-9.]*' | sed 's/^GLIBC_//' | sort -uV | tail -1)
    if [ "$(printf '%s\n' "$newest" 2.17 | sort -V | tail -1)" != 2.17 ]; then
      echo "scripts/package.sh: the Node addon needs glibc $newest, newer than 2.17" >&2
      exit 1
    fi
  else
    echo "scripts/package.sh: no objdump: the Node addon's glibc symbols not checked" >&2
  fi
fi

# The two npm packages, staged apart from the checkout (no addon built there slips in), their
# package.json as @napi-rs/cli 3 writes them (`napi create-npm-dirs`, `napi pre-publish`).
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/main" "$stage/platform"
cp bindings/node/index.js bindings/node/index.d.ts bindings/node/platform.js bindings/node/package.json bindings/node/README.md "$stage/main/"
cp "$addon" "$stage/platform/specmint.$suffix.node"
node - "$stage" "$suffix" <<'EOF'
const fs = require('node:fs');
const path = require('node:path');
const [stage, suffix] = process.argv.slice(2);
const [platform, arch, abi] = suffix.split('-');
const mainFile = path.join(stage, 'main', 'package.json');
const main = JSON.parse(fs.readFileSync(mainFile, 'utf8'));
const name = `${main.name}-${suffix}`;
const binary = `${main.napi.binaryName}.${suffix}.node`;
const pick = (keys) => Object.fromEntries(keys.filter((k) => k in main).map((k) => [k, main[k]]));
const platformPackage = {
  name,
  version: main.version,
  cpu: [arch],
  main: binary,
  files: [binary],
  ...pick(['description', 'keywords', 'author', 'homepage', 'license', 'engines', 'repository', 'bugs']),
  os: [platform],
  ...(abi === 'gnu' ? { libc: ['glibc'] } : abi === 'musl' ? { libc: ['musl'] } : {}),
};
fs.writeFileSync(path.join(stage, 'platform', 'package.json'), `${JSON.stringify(platformPackage, null, 2)}\n`);
fs.writeFileSync(path.join(stage, 'platform', 'README.md'), `# \`${name}\`\n\nThe ${suffix} native addon of \`${main.name}\`: install \`${main.name}\`, which brings it.\n`);
main.optionalDependencies = { [name]: main.version };
fs.writeFileSync(mainFile, `${JSON.stringify(main, null, 2)}\n`);
EOF
(cd "$stage/platform" && npm pack --silent --pack-destination "$out/node" >/dev/null)
(cd "$stage/main" && npm pack --silent --pack-destination "$out/node" >/dev/null)

echo "scripts/package.sh ($profile):"
ls -1 "$out"/python/*.whl "$out"/node/*.tgz | sed "s|^$root/||; s|^|  |"
