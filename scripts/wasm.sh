#!/usr/bin/env bash
# Builds the WebAssembly module (bindings/wasm) for wasm32-unknown-unknown and prints its path.
#
#   scripts/wasm.sh            # -> $CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/specmint_wasm.wasm
#
# The toolchain is Debian's alone: `rustc-web` and `cargo-web` (a Rust with the wasm32 target
# but no prebuilt standard library for it), `rust-web-src` (the standard library's source, built
# here with `-Zbuild-std`, which RUSTC_BOOTSTRAP=1 allows on that stable toolchain) and `lld-19`
# (`wasm-ld`, the linker). When they are missing they are installed first, which needs root (as
# scripts/postgres.sh installs PostgreSQL); without root, and without them, it prints nothing on
# stdout, says SKIPPED and why on stderr, and exits 0, so a caller tests for an empty answer.
# SPECMINT_WASM_CARGO and SPECMINT_WASM_RUSTC name another cargo and rustc (one whose sysroot
# holds the `rust-src` component); SPECMINT_WASM_LINKER another wasm-ld.
#
# The build is the `wasm` profile of the workspace's Cargo.toml (size first, panic = abort). The
# standard library's own dependencies (dlmalloc, compiler_builtins, ...) come from crates.io the
# first time: offline is tried first, and the online build runs only when that fails.
set -euo pipefail
cd "$(dirname "$0")/.."

skip() {
  echo "wasm.sh: SKIPPED: $*" >&2
  exit 0
}

cargo=${SPECMINT_WASM_CARGO:-/usr/bin/cargo}
rustc=${SPECMINT_WASM_RUSTC:-/usr/bin/rustc}

find_linker() {
  local candidate
  for candidate in "${SPECMINT_WASM_LINKER:-}" /usr/lib/llvm-19/bin/wasm-ld "$(command -v wasm-ld-19 || true)" "$(command -v wasm-ld || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      echo "$candidate"
      return
    fi
  done
}

# The standard library's source, where -Zbuild-std looks for it.
has_src() {
  [ -x "$rustc" ] && [ -d "$("$rustc" --print sysroot)/lib/rustlib/src/rust/library" ]
}

if ! [ -x "$cargo" ] || ! has_src || [ -z "$(find_linker)" ]; then
  if [ -n "${SPECMINT_WASM_CARGO:-}${SPECMINT_WASM_RUSTC:-}" ]; then
    skip "$cargo / $rustc: not a cargo and a rustc with the standard library's source (rust-src), or no wasm-ld"
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    skip "the wasm32 toolchain (Debian's rustc-web, cargo-web, rust-web-src, lld-19) is not installed and we cannot install it (not root, or no apt-get): sudo apt-get install rustc-web cargo-web rust-web-src lld-19"
  fi
  echo "wasm.sh: installing Debian's rustc-web, cargo-web, rust-web-src and lld-19" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends rustc-web cargo-web rust-web-src lld-19 >&2 \
    || skip "apt-get could not install rustc-web cargo-web rust-web-src lld-19"
  has_src && [ -n "$(find_linker)" ] || skip "the packages installed, but no $rustc with the library's source or no wasm-ld"
fi

target_dir=$(realpath -m "${CARGO_TARGET_DIR:-target}")
build() {
  RUSTC_BOOTSTRAP=1 RUSTC="$rustc" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$(find_linker)" \
    CARGO_TARGET_DIR="$target_dir" \
    "$cargo" build --quiet "$@" -p specmint-wasm --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort --profile wasm >&2
}
if ! build --offline 2>/dev/null; then
  echo "wasm.sh: building online (the standard library's dependencies are fetched from crates.io once)" >&2
  build
fi
echo "$target_dir/wasm32-unknown-unknown/wasm/specmint_wasm.wasm"
