#!/usr/bin/env python3
"""Checks that Python's jsonschema (Draft 2020-12) accepts every emitted schema.

For each spec/<name>.md with a generated/schema/<name>.schema.json:
  * the schema is valid against the 2020-12 meta-schema;
  * every ```json valid example in the Markdown is accepted by the schema;
  * every ```json invalid example whose expected codes the schema can express
    (the schema's "x-schema-expressible-codes") is rejected by it.
Prints one line per spec and exits 1 on any disagreement.

Usage: .venv/bin/python tests/peers/conformance/check_schemas.py   (as ./test.sh runs it)
"""
import json
import pathlib
import re
import sys

from jsonschema import Draft202012Validator

ROOT = pathlib.Path(__file__).resolve().parents[3]
CHECKER = Draft202012Validator.FORMAT_CHECKER
# Strings each format refuses; a check that accepts one is not there.
NOT_IN_FORMAT = {"date-time": "2024-13-01T12:00:00Z", "date": "2024-02-30", "uri": "no scheme"}
FENCE = re.compile(r"^```json[ \t]+(valid|invalid)([^\n]*)\n(.*?)^```", re.M | re.S)


def format_problems() -> list:
    """What keeps the format checker from checking: a missing package, or a Python snippet of
    the README or the guide building its validator without the checker."""
    problems = [
        f"the format checker accepts {bad!r} as a {fmt} (is its package from tests/peers/requirements.txt installed?)"
        for fmt, bad in NOT_IN_FORMAT.items()
        if CHECKER.conforms(bad, fmt)
    ]
    pages = [ROOT / "README.md", *sorted((ROOT / "guide" / "src").glob("*.md"))]
    validators = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for snippet in re.findall(r"^```python\n(.*?)^```", text, re.M | re.S):
            if "Draft202012Validator(" not in snippet:
                continue
            validators += 1
            if "format_checker=Draft202012Validator.FORMAT_CHECKER" not in snippet:
                name = page.relative_to(ROOT)
                problems.append(f"{name}: a Python snippet builds its validator without format_checker")
    if not validators:
        problems.append("README.md and guide/src/: no Python snippet builds a Draft202012Validator")
    return problems


def main() -> int:
    failures = format_problems()
    # A spec is a `.md` with its `.toml` sidecar; `<stem>.<tag>.md` beside it is a locale file.
    specs = sorted(md for md in (ROOT / "spec").glob("*.md") if md.with_suffix(".toml").exists())
    if not specs:
        print("no specs found", file=sys.stderr)
        return 1
    for md in specs:
        schema_path = ROOT / "generated" / "schema" / f"{md.stem}.schema.json"
        schema = json.loads(schema_path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema, format_checker=CHECKER)
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
