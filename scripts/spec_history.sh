#!/usr/bin/env bash
# Rebuilds tests/fixtures/diff/spec-history.bundle: one commit per commit of this repository's
# mainline (first parents: a merged branch counts as its merge, so the history is the one main
# went through, not branches interleaved by date) that changed spec/, holding that commit's spec/ and nothing else, oldest first, each with
# the original's short hash and subject as its message. cli/tests/it/diff.rs replays `specmint diff`
# over each consecutive pair and compares with the golden outputs beside the bundle; the
# bundle makes that test independent of how deep a checkout's history is.
#
#   ./scripts/spec_history.sh [REV]     # history up to REV (default HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rev=${1:-HEAD}
out=$root/tests/fixtures/diff/spec-history.bundle
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$work" init -q
for commit in $(git rev-list --reverse --first-parent "$rev" -- spec); do
  git -C "$work" rm -rq --ignore-unmatch spec >/dev/null
  mkdir -p "$work/spec"
  git archive "$commit" spec | tar -x -C "$work"
  git -C "$work" add -A spec
  subject=$(git log -1 --format='%h %s' "$commit" | cut -c1-120)
  GIT_AUTHOR_DATE=$(git log -1 --format=%aI "$commit") GIT_COMMITTER_DATE=$(git log -1 --format=%cI "$commit") \
    git -C "$work" -c user.name=specmint -c user.email=specmint@localhost -c commit.gpgsign=false \
    commit -q --allow-empty -m "$subject"
done
git -C "$work" bundle create -q "$out" HEAD
echo "$(git -C "$work" rev-list --count HEAD) commits → $out ($(du -h "$out" | cut -f1))"
