#!/usr/bin/env python3
"""datamodel-code-generator round trip: every generated/schema/<spec>.schema.json becomes
Pydantic v2 models (in a temporary directory), and the root model must load every valid case
of generated/corpus/<spec>/cases.json (the spec's valid examples are among them), in strict
JSON mode. Invalid expressible cases are also tried and the refusals counted, for information
only: Pydantic is a data-binding tool, not a validator the corpus holds to its verdicts.
Writes a JSON summary to --out and exits 1 if any valid case fails to load.

Usage: tests/peers/conformance/check_datamodel.py [--out FILE]
(run by tests/peers/conformance/run.sh with the project venv's python).
"""
import argparse
import importlib.util
import json
import pathlib
import subprocess
import sys
import tempfile
from importlib.metadata import version

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = pathlib.Path(sys.executable).parent / "datamodel-codegen"


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    args = ap.parse_args()
    consumer = f"datamodel-code-generator {version('datamodel-code-generator')} (pydantic {version('pydantic')})"
    results, failures = [], []
    paths = sorted((ROOT / "generated" / "corpus").glob("*/cases.json"))
    if not paths:
        print("no corpus under generated/corpus/", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        for path in paths:
            corpus = json.loads(path.read_text(encoding="utf-8"))
            spec = corpus["spec"]
            schema_path = ROOT / "generated" / corpus["schema"]
            schema = json.loads(schema_path.read_text(encoding="utf-8"))
            out = pathlib.Path(tmp) / f"{spec}_models.py"
            subprocess.run(
                [str(BIN), "--input", str(schema_path), "--input-file-type", "jsonschema",
                 "--output", str(out), "--output-model-type", "pydantic_v2.BaseModel",
                 "--disable-timestamp", "--formatters", "black"],
                check=True, capture_output=True,
            )
            module_spec = importlib.util.spec_from_file_location(f"{spec}_models", out)
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[module_spec.name] = module  # pydantic's generics look the module up
            module_spec.loader.exec_module(module)
            root_def = schema["$ref"].rsplit("/", 1)[-1]
            model = getattr(module, camel(root_def), None) or getattr(module, "Model")
            row = {"consumer": consumer, "spec": spec, "cases": 0, "agreed": 0, "x_only": 0,
                   "invalid_tried": 0, "invalid_refused": 0}
            for case in corpus["cases"]:
                text = json.dumps(case["document"], ensure_ascii=False)
                try:
                    model.model_validate_json(text, strict=True)
                    loaded, why = True, ""
                except Exception as e:  # pydantic.ValidationError, or anything the model raises
                    loaded, why = False, str(e).splitlines()[0:3]
                if case["valid"]:
                    row["cases"] += 1
                    if loaded:
                        row["agreed"] += 1
                    else:
                        failures.append(f"{spec} {case['id']}: valid case not loaded: {why}")
                elif case["schema_expressible"]:
                    row["invalid_tried"] += 1
                    row["invalid_refused"] += 0 if loaded else 1
            results.append(row)
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(results, indent=1), encoding="utf-8")
    for r in results:
        print(f"{r['consumer']} {r['spec']}: {r['cases']} valid cases, {r['agreed']} loaded; "
              f"(informational) {r['invalid_refused']} of {r['invalid_tried']} expressible invalid cases refused")
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
