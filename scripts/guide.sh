#!/usr/bin/env bash
# Builds the user guide (guide/, an mdBook) into ${CARGO_TARGET_DIR:-target}/guide, first
# installing the pinned mdBook from crates.io when it is missing (source only, no prebuilt
# binary; --no-default-features leaves out the server, the file watcher and the search index,
# which a build check does not need). A build failure exits non-zero; the guide's links are
# held by cargo test (cli/tests/it/docs_links.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.4.52
target=${CARGO_TARGET_DIR:-target}
tools="$target/tools/mdbook-$version"
mdbook="$tools/bin/mdbook"
if [ ! -x "$mdbook" ]; then
  echo "guide: installing mdbook $version into $tools" >&2
  cargo install mdbook --version "=$version" --locked --no-default-features --quiet --root "$tools"
fi
out="$(pwd)/$target/guide"
case "$target" in /*) out="$target/guide" ;; esac
"$mdbook" build guide --dest-dir "$out"
