#!/usr/bin/env bash
# `npm ci` in DIR when its package-lock.json differs from the one last installed there (kept as
# a stamp in DIR/node_modules), so test runs reuse an install that is still current.
set -euo pipefail
dir=$1
lock=$dir/package-lock.json
stamp=$dir/node_modules/.specmint-lock
if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$stamp"; then
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$lock" "$stamp"
fi
