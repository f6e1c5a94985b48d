#!/usr/bin/env python3
"""The Python binding against Python jsonschema and fastjsonschema on the emitted schema.

Same process, same documents: every case of each bundled spec's conformance corpus
(generated/corpus/<spec>/cases.json) as compact UTF-8 JSON bytes, judged in a loop by
  * the binding: specmint.validate(TYPE, bytes), every rule, every error (a Report);
  * jsonschema: json.loads + Draft202012Validator(schema, format_checker).iter_errors, every error;
  * fastjsonschema: json.loads + the compiled validator (first error only: it raises).
Each judge is timed over the whole corpus, `--rounds` times, best round kept; ratios are the
binding's documents/s over the baseline's. Also counted: documents each judge gets wrong
(valid/invalid against the corpus), over the x-only cases (rules only x- keywords carry) and over
all cases.

Run by hand (BENCHMARKS.md holds results), in the venv ./test.sh makes (jsonschema and
fastjsonschema pinned in tests/peers/requirements.txt), with the binding installed in release form:
  .venv/bin/pip install ./bindings/python
  .venv/bin/python scripts/bench_bindings.py [--rounds 5] [--spec task_packet]
"""
import argparse
import importlib.metadata
import json
import pathlib
import time

import fastjsonschema
from jsonschema import Draft202012Validator

import specmint

ROOT = pathlib.Path(__file__).resolve().parent.parent


def judges(type_name, schema):
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    try:
        fast = fastjsonschema.compile(schema)
    except Exception as e:  # a schema fastjsonschema cannot read is a result too
        fast = None
        print(f"  fastjsonschema cannot compile the schema: {type(e).__name__}: {e}")

    def binding(data):
        return specmint.validate(type_name, data).valid

    def with_jsonschema(data):
        return not list(validator.iter_errors(json.loads(data)))

    def with_fastjsonschema(data):
        try:
            fast(json.loads(data))
            return True
        except fastjsonschema.JsonSchemaException:
            return False

    out = [("specmint (binding)", binding), (f"jsonschema {importlib.metadata.version('jsonschema')}", with_jsonschema)]
    if fast is not None:
        out.append((f"fastjsonschema {fastjsonschema.VERSION}", with_fastjsonschema))
    return out


def best_rate(judge, documents, rounds):
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for data in documents:
            judge(data)
        best = min(best, time.perf_counter() - start)
    return len(documents) / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--spec", action="append", help="a bundled spec's module name (default: all four)")
    args = ap.parse_args()
    print("| spec | judge | documents/s | binding's speed-up | wrong of x-only | wrong of all |")
    print("|---|---|---:|---:|---:|---:|")
    for path in sorted((ROOT / "generated" / "corpus").glob("*/cases.json")):
        corpus = json.loads(path.read_text(encoding="utf-8"))
        if args.spec and corpus["spec"] not in args.spec:
            continue
        schema = json.loads((ROOT / "generated" / corpus["schema"]).read_text(encoding="utf-8"))
        type_name = corpus["spec"].replace("_", "-")
        cases = corpus["cases"]
        documents = [
            json.dumps(c["document"], ensure_ascii=False, separators=(",", ":")).encode("utf-8") for c in cases
        ]
        x_only = [i for i, c in enumerate(cases) if not c["schema_expressible"]]
        rows = []
        for name, judge in judges(type_name, schema):
            verdicts = [judge(d) for d in documents]
            wrong = [i for i, c in enumerate(cases) if verdicts[i] != c["valid"]]
            wrong_x = [i for i in wrong if i in x_only]
            rows.append((name, best_rate(judge, documents, args.rounds), len(wrong_x), len(wrong)))
        ours = rows[0][1]
        for name, rate, wrong_x, wrong in rows:
            ratio = "—" if name.startswith("specmint") else f"{ours / rate:.1f}×"
            print(
                f"| {corpus['spec']} ({len(cases)} cases, {len(x_only)} x-only) | {name} | {rate:,.0f} | "
                f"{ratio} | {wrong_x} of {len(x_only)} | {wrong} of {len(cases)} |"
            )


if __name__ == "__main__":
    main()
