"""Every case of every generated corpus gets from the binding exactly the CLI's verdict.

SPECMINT_BINDINGS_VERDICTS names the directory tests/peers/bindings/verdicts.py wrote: each case
as a file, with the line `specmint validate --format json` printed for it (less `type` and
`file`). The binding reads the same bytes and must give the same `valid` and the same errors
(code, path, pointer, message, measured, limit, line, column), in order.
"""
import functools
import json
import os
import pathlib

import pytest

import specmint

VERDICTS = os.environ.get("SPECMINT_BINDINGS_VERDICTS")
pytestmark = pytest.mark.skipif(not VERDICTS, reason="SPECMINT_BINDINGS_VERDICTS not set (see test.sh)")


def manifest():
    if not VERDICTS:
        return []
    return json.loads((pathlib.Path(VERDICTS) / "manifest.json").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def spec(spec_dir):
    return specmint.Spec.load(spec_dir)


def validator(group):
    if group["spec_dir"] is None:
        return specmint.validate
    return spec(group["spec_dir"]).validate


def label(group):
    where = "bundled" if group["spec_dir"] is None else pathlib.Path(group["spec_dir"]).name
    return f"{where}:{group['type']}"


GROUPS = manifest()


@pytest.mark.parametrize("group", GROUPS, ids=[label(g) for g in GROUPS])
def test_every_case_gets_the_cli_verdict(group):
    validate = validator(group)
    wrong = []
    for case in group["cases"]:
        data = pathlib.Path(case["file"]).read_bytes()
        report = validate(group["type"], data)
        expected = case["expected"]
        got = report.to_dict()
        # The attributes say what the dict says.
        attrs = {
            "valid": report.valid,
            "errors": [
                {k: getattr(e, k) for k in ("code", "path", "pointer", "message", "measured", "limit", "line", "column")
                 if getattr(e, k) is not None}
                for e in report.errors
            ],
        }
        if got != expected or attrs != expected or list(got) != list(expected):
            wrong.append((case["id"], expected, got))
    assert not wrong, f"{len(wrong)} of {len(group['cases'])} differ; first: {wrong[0]}"


@pytest.mark.parametrize("group", GROUPS, ids=[label(g) for g in GROUPS])
def test_every_case_gets_the_cli_verdict_in_each_locale(group):
    """`locale=TAG` gives what `specmint validate --locale TAG` prints (issue 50)."""
    validate = validator(group)
    wrong = []
    checked = 0
    for case in group["cases"]:
        data = pathlib.Path(case["file"]).read_bytes()
        for tag, expected in case.get("expected_in", {}).items():
            checked += 1
            got = validate(group["type"], data, locale=tag).to_dict()
            if got != expected:
                wrong.append((case["id"], tag, expected, got))
    assert all(case.get("expected_in") for case in group["cases"]), "verdicts.py judged every case in each locale"
    assert checked >= len(group["cases"])
    assert not wrong, f"{len(wrong)} of {checked} differ; first: {wrong[0]}"


def test_the_proof_covers_every_corpus():
    if not GROUPS:
        pytest.skip("no verdicts")
    kinds = {g["spec_dir"] is None for g in GROUPS}
    assert kinds == {True, False}
    assert sum(len(g["cases"]) for g in GROUPS) > 1000
