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
  # Built in a scratch target directory, removed after: only the binary is kept.
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  CARGO_TARGET_DIR="$build" cargo install mdbook --version "=$version" --locked \
    --no-default-features --quiet --root "$tools"
fi
case "$target" in /*) ;; *) target="$(pwd)/$target" ;; esac
# From guide/, where book.toml's preprocessor (repo_links.py) is found.
(cd guide && "$target/tools/mdbook-$version/bin/mdbook" build --dest-dir "$target/guide")
# mdBook skips a preprocessor it cannot start, silently: the references must be in the book.
if [ ! -f "$target/guide/docs/spec-format.html" ]; then
  echo "guide: docs/spec-format.md is not in the built book (did guide/repo_links.py run?)" >&2
  exit 1
fi
