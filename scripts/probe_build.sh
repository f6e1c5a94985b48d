#!/usr/bin/env bash
# The cold build of a fresh crate that depends on specmint for `TaskPacket` alone (its default
# features), as BENCHMARKS.md ("The house: build and test times") reports it: its normal crate
# count and the wall time of `cargo build` into an empty target directory, offline, with the
# lock file of the checkout it builds against.
#
#   scripts/probe_build.sh [SPECMINT_DIR]      # default: this checkout
#
# For the before/after numbers, run it on a worktree of the older commit too
# (`git worktree add /tmp/before c8e5582 && scripts/probe_build.sh /tmp/before`).
set -euo pipefail
specmint=$(cd "${1:-$(dirname "$0")/..}" && pwd)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
mkdir -p "$probe/src"
cat >"$probe/Cargo.toml" <<TOML
[package]
name = "specmint-probe"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
specmint = { path = "$specmint" }
TOML
cat >"$probe/src/main.rs" <<'RS'
fn main() {
    let input = br#"{"packet_id":"pk-1","goal_id":"t-1","round":1,"from_role":"planner","to_role":"executor","objective":"do it","output_format":"markdown"}"#;
    let packet = specmint::task_packet::TaskPacket::from_json_slice(input).unwrap();
    println!("{}", packet.packet_id);
}
RS
cp "$specmint/Cargo.lock" "$probe/Cargo.lock"
cd "$probe"
crates=$(cargo tree --offline -e normal --prefix none | awk '{print $1}' | sort -u | wc -l)
# Wall seconds and CPU seconds (user + system, all of cargo's and rustc's processes): the CPU
# time says the same on a busy machine, the wall time only on an idle one.
/usr/bin/time -f '%e %U %S' -o "$probe/time" env CARGO_TARGET_DIR="$probe/target" \
  cargo build --offline --quiet
read -r wall user sys <"$probe/time"
./target/debug/specmint-probe >/dev/null
printf 'probe against %s: %s crates (cargo tree -e normal, the probe included), cold build %.1f s wall, %.1f s CPU\n' \
  "$specmint" "$crates" "$wall" "$(echo "$user + $sys" | bc)"
