#!/usr/bin/env bash
# Neovim's built-in LSP client, headless, driving `specmint lsp` (tests/peers/lsp/nvim.lua) on
# a copy of the bundled specs. Installs Debian's neovim when it is missing and we are root (as
# scripts/postgres.sh installs PostgreSQL); without root and without nvim it says SKIPPED and why.
# Usage: nvim.sh SPECMINT_BIN
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(realpath "$1")
if ! command -v nvim >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "neovim LSP check: SKIPPED: nvim is not installed and we are not root to install it (sudo apt-get install neovim)"
    exit 0
  fi
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends neovim >&2
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp spec/*.md spec/*.toml "$dir/"
SPECMINT_BIN="$bin" SPEC_DIR="$dir" timeout 60 nvim --headless --clean -u NONE \
  -c "luafile tests/peers/lsp/nvim.lua" 2>&1
