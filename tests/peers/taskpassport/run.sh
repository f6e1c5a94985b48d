#!/usr/bin/env bash
# TaskPack interop against task-passport 0.3.1, the reference implementation, pinned by
# package-lock.json beside this file: its packs judged by specmint, specmint's packs judged by
# it, the round trips, and the departures table of spec/taskpack.md (see interop.mjs); then work
# landed, answered and merged back across the two (landing.mjs).
set -euo pipefail
cd "$(dirname "$0")/../../.."
if ! command -v node >/dev/null; then
  echo "taskpack interop: node is required (task-passport)" >&2
  exit 1
fi
./tests/peers/npm-ci.sh tests/peers/taskpassport
bin=$(tests/peers/specmint-bin.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
node tests/peers/taskpassport/interop.mjs --specmint "$bin" --work "$work"
# Landing and merging: the round trips between the two implementations (issue 13).
node tests/peers/taskpassport/landing.mjs --specmint "$bin" --work "$work/landing"
