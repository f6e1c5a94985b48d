#!/usr/bin/env bash
# Non-Rust consumers of generated/schema/ over the conformance corpus generated/corpus/:
# Python jsonschema, Node ajv, datamodel-code-generator (Pydantic). Prints the agreement
# table (consumer x spec -> cases, agreed, x-only) and exits 1 on any disagreement.
# Expects .venv with scripts/requirements.txt installed (test.sh does that).
set -euo pipefail
cd "$(dirname "$0")/../.."
py=.venv/bin/python
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0

# Node: ajv pinned by package-lock.json; `npm ci` only when the lock changed.
if ! command -v node >/dev/null; then
  echo "conformance: node is required (ajv)" >&2
  exit 1
fi
./scripts/npm-ci.sh scripts/conformance

$py scripts/conformance/check_corpus.py --out "$out/python.json" || status=1
node scripts/conformance/check_corpus.mjs --out "$out/node.json" || status=1
$py scripts/conformance/check_datamodel.py --out "$out/datamodel.json" || status=1

# 200 seeded random specs (codegen/tests/random_specs.rs, which also checks each case against
# the spec's rules and the Rust jsonschema): Python jsonschema and ajv over their corpora.
rnd="$out/random"
SPECMINT_RANDOM_SPECS_DIR="$rnd" cargo test --quiet -p specmint-codegen --test random_specs >/dev/null
for consumer in "$py scripts/conformance/check_corpus.py" "node scripts/conformance/check_corpus.mjs"; do
  if $consumer --generated "$rnd" >"$out/random.txt"; then
    grep -v "control run" "$out/random.txt" | awk -v who="$(basename "${consumer%% *}")" \
      '{gsub(",", ""); c += $(NF-5); a += $(NF-3); x += $(NF-1); n++}
       END {printf "random specs, %s: %d specs, %d cases, %d agreed, %d x-only\n", who, n, c, a, x}'
  else
    status=1
  fi
done
$py - "$out" <<'PY'
import json, pathlib, sys
rows = []
for name in ("python", "node", "datamodel"):
    p = pathlib.Path(sys.argv[1]) / f"{name}.json"
    if p.exists():
        rows += json.loads(p.read_text())
print()
print("agreement table (expressible cases must all agree; x-only rest on x- keywords; "
      "datamodel-code-generator: valid cases loaded)")
print(f"| {'consumer':<52} | {'spec':<16} | {'cases':>5} | {'agreed':>6} | {'x-only':>6} |")
print(f"|{'-'*54}|{'-'*18}|{'-'*7}|{'-'*8}|{'-'*8}|")
for r in rows:
    print(f"| {r['consumer']:<52} | {r['spec']:<16} | {r['cases']:>5} | {r['agreed']:>6} | {r['x_only']:>6} |")
xs = sorted({i for r in rows for i in r.get("x_only_ids", [])})
if xs:
    print(f"\nx-only cases (not held to the schema's verdict; what the schema said):")
    for i in xs:
        print(f"  {i}")
PY
exit $status
