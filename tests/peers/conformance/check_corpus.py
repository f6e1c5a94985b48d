#!/usr/bin/env python3
"""Python's jsonschema (Draft 2020-12) over the whole conformance corpus.

For every generated/corpus/<spec>/cases.json, each case's document is validated against
generated/schema/<spec>.schema.json. On a schema-expressible case the verdict must equal the
corpus's (which the Rust validator is tested to give); an x- only case (a rule the schema carries
only in an x- keyword) is counted and listed, with what the schema said, never skipped silently.
Writes a JSON summary to --out (for the agreement table) and exits 1 on any disagreement.

Usage: tests/peers/conformance/check_corpus.py [--generated DIR] [--out FILE] [--list-x-only]
(run by tests/peers/conformance/run.sh with the project venv's python).
"""
import argparse
import json
import pathlib
import sys

from importlib.metadata import version

from jsonschema import Draft202012Validator

JSONSCHEMA_VERSION = version("jsonschema")

ROOT = pathlib.Path(__file__).resolve().parents[3]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--list-x-only", action="store_true")
    ap.add_argument("--generated", default=str(ROOT / "generated"),
                    help="a directory laid out as generated/ (schema/, corpus/)")
    args = ap.parse_args()
    generated = pathlib.Path(args.generated)
    results, failures = [], []
    paths = sorted((generated / "corpus").glob("*/cases.json"))
    if not paths:
        print(f"no corpus under {generated}/corpus/", file=sys.stderr)
        return 1
    for path in paths:
        corpus = json.loads(path.read_text(encoding="utf-8"))
        spec = corpus["spec"]
        schema = json.loads((generated / corpus["schema"]).read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        # Formats are checked (`date-time` and `uri` by the pinned rfc3339-validator and
        # rfc3986-validator), as a user who turns the format checker on sees them.
        validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
        row = {"consumer": f"python jsonschema {JSONSCHEMA_VERSION}", "spec": spec,
               "cases": 0, "agreed": 0, "x_only": 0, "x_only_ids": []}
        for case in corpus["cases"]:
            row["cases"] += 1
            valid = validator.is_valid(case["document"])
            if not case["schema_expressible"]:
                row["x_only"] += 1
                row["x_only_ids"].append(f"{case['id']} (schema: {'valid' if valid else 'invalid'})")
                continue
            if valid == case["valid"]:
                row["agreed"] += 1
            else:
                failures.append(f"python {spec} {case['id']}: schema says valid={valid}, corpus {case['valid']} ({case['description']})")
        results.append(row)
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(results, indent=1), encoding="utf-8")
    for r in results:
        print(f"{r['consumer']} {r['spec']}: {r['cases']} cases, {r['agreed']} agreed, {r['x_only']} x-only")
        if args.list_x_only:
            for i in r["x_only_ids"]:
                print(f"  x-only: {i}")
    for f in failures:
        print(f"DISAGREE {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
