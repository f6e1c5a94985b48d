#!/usr/bin/env bash
# TaskPack's A2A binding (issue 22): `specmint a2a serve` driven by the official A2A SDK
# (a2a-sdk, pinned in requirements.txt beside this file, installed into the project venv with
# the rest of tests/peers/requirements.txt so one resolver sees both), sending a pack specmint made
# and packs task-passport's library made (tests/peers/taskpassport/, pinned); the task-passport
# packs are also the open-reading checks (facts without `claim`, decisions as strings).
set -euo pipefail
cd "$(dirname "$0")/../../.."
bin=$(tests/peers/specmint-bin.sh)
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check \
  -r tests/peers/requirements.txt -r tests/peers/a2a/requirements.txt
./tests/peers/npm-ci.sh tests/peers/taskpassport
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A pack specmint made: a passport with an ask and a landing check, packed flat.
store="$work/home"
id=$("$bin" passport new --store "$store" --title "A2A door" --goal "land through A2A" \
  --next-step "finish the charts" --format json | .venv/bin/python -c 'import json,sys; print(json.load(sys.stdin)["passport_id"])')
"$bin" taskpack pack "$id" --store "$store" --flat --out "$work/specmint.taskpack.json" \
  --ask "which quarter counts as Q3?|a date range" --check "this machine renders PDF|r --version" \
  --actor ds --machine mbp-14 >/dev/null
node tests/peers/a2a/taskpassport_packs.mjs --specmint "$bin" --work "$work/tp"
.venv/bin/python tests/peers/a2a/client.py "$bin" "$work/specmint.taskpack.json" \
  "$work/tp/for-a2a.taskpack" "$work/tp/for-a2a.taskpack.json" "$work/tp/string-decisions.taskpack.json"
# The door over TLS with a bearer token (issue 34): the SDK's resolver sees the scheme, its
# AuthInterceptor lands the pack, a client without the token gets 401.
.venv/bin/python tests/peers/a2a/tls_client.py "$bin" "$work/specmint.taskpack.json"
# The load and faults run in short (scripts/bench_a2a_load.py; its full form's numbers are in
# BENCHMARKS.md): 8 clients landing twice each while 5 idle and 2 slow-drip connections are held.
.venv/bin/python scripts/bench_a2a_load.py "$bin" "$work/specmint.taskpack.json" \
  --clients 8 --landings 2 --idle 5 --slow 2 --header-timeout 2
