#!/usr/bin/env python3
"""Writes every case of the given corpora to files and records what the CLI says of each.

The bindings' proof (bindings/python/tests, bindings/node/test) holds each binding to these
verdicts: for every case, the binding's report must equal the line `specmint validate
--format json` printed for the same file, less `type` and `file`.

  tests/peers/bindings/verdicts.py --cli target/debug/specmint --out DIR \\
      [--generated GEN_DIR]...  [--spec-generated SPEC_DIR GEN_DIR]...

--generated: a corpus of the bundled specs (GEN_DIR/corpus/<spec>/cases.json, judged as the
bundled TYPE); --spec-generated: a corpus of a spec directory's specs (what `specmint generate
--spec SPEC_DIR --out GEN_DIR` writes), judged with `--spec SPEC_DIR`.

Each case's document is written twice: compact (as scripts/run_corpus.py sends it) and
indented (so lines and columns are exercised past line 1). The CLI is run once per TYPE over
all its files (it judges several FILEs in order, one JSON line each), a few TYPEs at a time.

Each TYPE is also judged with `--locale TAG` for every tag of LOCALES (issue 50): a case's
"expected_in" maps each tag to that verdict (English where the spec has no such locale), which
the bindings must give with `locale=TAG`.

Writes DIR/manifest.json: [{"spec_dir": str|null, "type": str, "cases": [{"id", "file",
"expected", "expected_in"}]}], and prints a summary line.
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import subprocess
import sys

# Files per CLI call: well under any argv limit.
CHUNK = 1000
# The locales every case is also judged in (`validate --locale TAG`).
LOCALES = ["zh-TW", "de"]
# The CLI's verdicts are English unless `--locale` says otherwise, whatever this machine's.
ENV = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}


def groups(args):
    for gen in args.generated:
        yield None, pathlib.Path(gen)
    for spec_dir, gen in args.spec_generated:
        yield pathlib.Path(spec_dir).resolve(), pathlib.Path(gen)


def write_cases(out, label, corpus):
    spec = corpus["spec"]
    folder = out / label / spec
    folder.mkdir(parents=True, exist_ok=True)
    cases = []
    for i, case in enumerate(corpus["cases"]):
        forms = (
            ("compact", json.dumps(case["document"], ensure_ascii=False, separators=(",", ":"))),
            ("indented", json.dumps(case["document"], ensure_ascii=False, indent=2)),
        )
        if "text" in case:
            # A decimal's exact spelling decides: the text as it is, once.
            forms = (("text", case["text"]),)
        for form, text in forms:
            path = folder / f"{i:05}.{form}.json"
            path.write_bytes(text.encode("utf-8"))
            cases.append({"id": f"{case['id']} ({form})", "file": str(path)})
    return cases


def judge(cli, spec_dir, type_name, cases, locale=None):
    lines = []
    for start in range(0, len(cases), CHUNK):
        chunk = cases[start:start + CHUNK]
        argv = [cli, "validate"]
        if spec_dir is not None:
            argv += ["--spec", str(spec_dir)]
        argv += [type_name, *(c["file"] for c in chunk), "--format", "json"]
        if locale is not None:
            argv += ["--locale", locale]
        run = subprocess.run(argv, capture_output=True, env=ENV)
        if run.returncode >= 2:
            raise SystemExit(f"{' '.join(argv[:5])} ...: exit {run.returncode}: {run.stderr.decode()}")
        # JSON Lines end at "\n" only: str.splitlines() would also split at a U+0085 or
        # U+2028 a message quotes (a value under a pattern), which JSON leaves unescaped.
        lines += run.stdout.decode("utf-8").split("\n")[:-1]
    if len(lines) != len(cases):
        raise SystemExit(f"{type_name}: {len(lines)} verdicts for {len(cases)} files")
    for case, line in zip(cases, lines):
        verdict = json.loads(line)
        if verdict.pop("file") != case["file"] or verdict.pop("type") != type_name:
            raise SystemExit(f"{type_name}: verdict out of order at {case['file']}")
        if locale is None:
            case["expected"] = verdict
        else:
            case.setdefault("expected_in", {})[locale] = verdict


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    ap.add_argument("--generated", action="append", default=[])
    ap.add_argument("--spec-generated", nargs=2, action="append", default=[], metavar=("SPEC_DIR", "GEN_DIR"))
    args = ap.parse_args()
    out = args.out.resolve()
    cli = str(pathlib.Path(args.cli).resolve())
    manifest = []
    for n, (spec_dir, gen) in enumerate(groups(args)):
        for path in sorted((gen / "corpus").glob("*/cases.json")):
            corpus = json.loads(path.read_text(encoding="utf-8"))
            manifest.append({
                "spec_dir": None if spec_dir is None else str(spec_dir),
                "type": corpus["spec"].replace("_", "-"),
                "cases": write_cases(out, f"g{n}", corpus),
            })
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        runs = [pool.submit(judge, cli, g["spec_dir"], g["type"], g["cases"]) for g in manifest]
        for f in runs:
            f.result()
        # After the English runs: each writes its own key of the same case dicts.
        runs = [
            pool.submit(judge, cli, g["spec_dir"], g["type"], g["cases"], tag)
            for g in manifest
            for tag in LOCALES
        ]
        for f in runs:
            f.result()
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    cases = sum(len(g["cases"]) for g in manifest)
    invalid = sum(1 for g in manifest for c in g["cases"] if not c["expected"]["valid"])
    print(f"CLI verdicts: {len(manifest)} types, {cases} documents ({invalid} invalid)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
