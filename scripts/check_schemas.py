#!/usr/bin/env python3
"""Checks that Python's jsonschema (Draft 2020-12) accepts every emitted schema.

For each spec/<name>.md with a generated/schema/<name>.schema.json:
  * the schema is valid against the 2020-12 meta-schema;
  * every ```json valid example in the Markdown is accepted by the schema;
  * every ```json invalid example whose expected codes the schema can express
    (the schema's "x-schema-expressible-codes") is rejected by it.
Prints one line per spec and exits 1 on any disagreement.
"""
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator

ROOT = pathlib.Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```json[ \t]+(valid|invalid)([^\n]*)\n(.*?)^```", re.M | re.S)


def main() -> int:
    failures = []
    specs = sorted((ROOT / "spec").glob("*.md"))
    if not specs:
        print("no specs found", file=sys.stderr)
        return 1
    for md in specs:
        schema_path = ROOT / "generated" / "schema" / f"{md.stem}.schema.json"
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        expressible = set(schema.get("x-schema-expressible-codes", []))
        counts = {"valid": 0, "rejected": 0, "x-only": 0}
        for match in FENCE.finditer(md.read_text(encoding="utf-8")):
            verdict, info, body = match.group(1), match.group(2), match.group(3)
            line = md.read_text(encoding="utf-8")[: match.start()].count("\n") + 1
            document = json.loads(body)
            errors = list(validator.iter_errors(document))
            if verdict == "valid":
                counts["valid"] += 1
                if errors:
                    failures.append(f"{md.name}:{line}: valid example rejected: {errors[0].message}")
                continue
            codes = {token.split("@", 1)[0] for token in info.split() if "@" in token}
            if codes and codes <= expressible:
                counts["rejected"] += 1
                if not errors:
                    failures.append(f"{md.name}:{line}: invalid example ({', '.join(sorted(codes))}) accepted")
            else:
                counts["x-only"] += 1
        print(
            f"python jsonschema {md.stem}: meta-schema ok, {counts['valid']} valid accepted, "
            f"{counts['rejected']} invalid rejected, {counts['x-only']} invalid rest on x- keywords"
        )
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
