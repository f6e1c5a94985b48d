#!/usr/bin/env python3
"""Runs any executor over the conformance corpus (<generated>/corpus/<spec>/cases.json).

Executor protocol (see guide/src/validation.md, "The executor protocol"):
  * the command is run once per case, with the case's `text` (when it has one: a decimal's
    exact spelling) or its `document` as compact UTF-8 JSON on
    stdin; `{spec}` in the command is replaced by the spec's module name (`task_packet`),
    `{type}` by its CLI type name (`task-packet`);
  * it prints one JSON object on stdout: {"valid": bool, "errors": [{"code", "path"}, ...]}
    (other members are ignored); its exit status is ignored unless it is >= 2 (an error);
  * a verdict agrees when `valid` matches and, unless --verdict-only, the multiset of
    (code, path) pairs equals the case's `errors`.

  scripts/run_corpus.py [--generated DIR] [--spec NAME] [--verdict-only] [--expressible-only] -- CMD ARGS...
  scripts/run_corpus.py -- target/debug/specmint validate {type} - --format json
  scripts/run_corpus.py --generated out -- specmint validate --spec spec {type} - --format json

--generated DIR reads DIR/corpus/*/cases.json (what `specmint generate --spec SPEC --out DIR`
writes for a spec of your own); the default is this repository's generated/.

Prints a line per disagreement and a summary; exits 1 on any disagreement.
"""
import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def corpora(generated, only):
    for path in sorted((generated / "corpus").glob("*/cases.json")):
        corpus = json.loads(path.read_text(encoding="utf-8"))
        if only is None or corpus["spec"] == only:
            yield corpus


def pairs(errors):
    return sorted((e["code"], e["path"]) for e in errors)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--generated", type=pathlib.Path, default=ROOT / "generated",
                    help="the directory `specmint generate --out` wrote (default: this repository's generated/)")
    ap.add_argument("--spec")
    ap.add_argument("--verdict-only", action="store_true", help="compare valid/invalid only")
    ap.add_argument("--expressible-only", action="store_true", help="skip (and count) x- only cases")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    command = [c for c in args.command if c != "--"] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the executor command after --")
    disagreements = 0
    found = False
    for corpus in corpora(args.generated, args.spec):
        found = True
        spec = corpus["spec"]
        argv = [a.replace("{spec}", spec).replace("{type}", spec.replace("_", "-")) for a in command]
        ran = agreed = skipped = 0
        for case in corpus["cases"]:
            if args.expressible_only and not case["schema_expressible"]:
                skipped += 1
                continue
            ran += 1
            # A case whose numbers' spelling matters (a decimal's) carries its exact `text`.
            text = case.get("text")
            if text is None:
                text = json.dumps(case["document"], ensure_ascii=False, separators=(",", ":"))
            stdin = text.encode()
            out = subprocess.run(argv, input=stdin, capture_output=True)
            try:
                if out.returncode >= 2:
                    raise ValueError(f"exit {out.returncode}: {out.stderr.decode(errors='replace').strip()}")
                got = json.loads(out.stdout)
                ok = got["valid"] == case["valid"]
                if ok and not args.verdict_only:
                    ok = pairs(got.get("errors", [])) == pairs(case["errors"])
            except (ValueError, KeyError, TypeError) as e:
                got, ok = {"executor error": str(e)}, False
            if ok:
                agreed += 1
            else:
                disagreements += 1
                want = {"valid": case["valid"], "errors": case["errors"]}
                print(f"DISAGREE {spec} {case['id']}: want {json.dumps(want)} got {json.dumps(got, ensure_ascii=False)[:400]}")
        print(f"{spec}: {ran} cases run, {agreed} agreed, {skipped} x-only skipped")
    if not found:
        print(f"no corpus found under {args.generated / 'corpus'}/", file=sys.stderr)
        return 1
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
