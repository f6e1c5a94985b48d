#!/usr/bin/env python3
"""Latency of `specmint lsp`'s diagnostics after a keystroke, and its memory over many edits.

For each spec: open it, then N times send one keystroke (an incremental `didChange` of one
character, alternately typing a mistake into a Type cell and taking it back) and time until
the diagnostics of that change are published (the server's debounce included). Prints p50/p99
and the server's resident memory (VmRSS) after the first and the last edits.

Specs: the largest bundled spec (spec/task_packet.md, 624 lines) and a generated spec of
10,000 field rows. Run on the release binary:

    cargo build --release -p specmint-cli
    .venv/bin/python scripts/bench_lsp.py target/release/specmint [--edits 10000]

With `--distinct N` it measures only what a load keeps: N edits of spec/task_packet.md, each
replacing its text with one that has an optional field of a name no earlier edit used
(`extra_0`, `extra_1`, ...), each waited for; it prints the server's VmRSS after the first and the last edit and
their difference. What a loaded spec's names cost must not stay behind once the next text
replaces it (issue 45, item 5: the bar is under 1 MiB of growth over 2,000 edits):

    .venv/bin/python scripts/bench_lsp.py target/debug/specmint --distinct 2000
"""

import argparse
import pathlib
import shutil
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests/peers/lsp"))
from lspclient import Client  # noqa: E402


def rss_kb(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def big_spec(d, rows):
    fields = "| `f0` | string | ✔ | Field 0. |\n"
    fields += "".join(f"| `f{i}` | string? | — | Field {i}. |\n" for i in range(1, rows))
    (d / "big.md").write_text(
        "# Big v1\n\n## Fields of a `doc`\n\n| Field | Type | Required | Meaning |\n|---|---|---|---|\n"
        + fields
        + "\n## Error codes\n\n| Code | When |\n|---|---|\n| `bad_doc` | Not the shape. |\n"
    )
    (d / "big.toml").write_text('[spec]\nroot = "doc"\n\n[errors]\nenum = "DocError"\nparse = "bad_doc"\n')
    return d / "big.md"


def bench(c, path, edits):
    uri = path.resolve().as_uri()
    text = path.read_text()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    c.wait_diagnostics(uri)
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if "| string |" in l or "| non-blank string |" in l)
    col = lines[row].index("string |") + 3  # between `str` and `ing`
    times, rss = [], []
    for n in range(edits):
        c.settle(uri) if n == 0 else None
        if n % 2 == 0:  # delete the `i`: `strng`, a mistake
            change = {"range": {"start": {"line": row, "character": col}, "end": {"line": row, "character": col + 1}}, "text": ""}
        else:  # type it back
            change = {"range": {"start": {"line": row, "character": col}, "end": {"line": row, "character": col}}, "text": "i"}
        t0 = time.perf_counter()
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [change]})
        diags = c.wait_diagnostics(uri)
        times.append(time.perf_counter() - t0)
        assert (len(diags) == 1) == (n % 2 == 0), len(diags)
        if n == 0 or n == edits - 1 or n == edits // 2:
            rss.append(rss_kb(c.proc.pid))
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
    return p(0.50), p(0.99), rss


def distinct(c, path, edits):
    """RSS (KiB) after the first and the last of `edits` edits of the spec at `path`, each
    adding an optional field, after its first row, of a name no earlier edit used."""
    uri = path.resolve().as_uri()
    text = path.read_text()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    assert c.wait_diagnostics(uri) == []
    c.settle(uri)
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if l.startswith("| `"))
    first = last = 0
    for n in range(edits):
        extra = f"| `extra_{n}` | string? | — | Field {n}. |"
        text = "\n".join(lines[: row + 1] + [extra] + lines[row + 1 :])
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"text": text}]})
        diags = c.wait_diagnostics(uri)
        assert diags == [], diags
        if n == 0:
            first = rss_kb(c.proc.pid)
    last = rss_kb(c.proc.pid)
    return first, last


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--edits", type=int, default=1000)
    ap.add_argument("--big-edits", type=int, default=200)
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--distinct", type=int, default=0, help="only the memory of N edits adding distinct names")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        d = pathlib.Path(d)
        (d / "spec").mkdir()
        for f in ("task_packet.md", "task_packet.toml"):
            shutil.copy(ROOT / "spec" / f, d / "spec" / f)
        if args.distinct:
            c = Client([args.bin, "lsp"])
            c.initialize()
            t0 = time.perf_counter()
            first, last = distinct(c, d / "spec/task_packet.md", args.distinct)
            took = time.perf_counter() - t0
            c.close()
            print(f"{args.distinct} distinct edits in {took:.1f} s: RSS after the first {first} KiB, after the last {last} KiB, growth {last - first} KiB")
            return
        (d / "big").mkdir()
        big = big_spec(d / "big", args.rows)
        c = Client([args.bin, "lsp"])
        c.initialize()
        print("| spec | lines | edits | p50 (ms) | p99 (ms) | RSS after 1st / middle / last edit (KiB) |")
        print("|---|---|---|---|---|---|")
        for path, edits in ((d / "spec/task_packet.md", args.edits), (big, args.big_edits)):
            p50, p99, rss = bench(c, path, edits)
            n = len(path.read_text().splitlines())
            print(f"| {path.name} | {n} | {edits} | {p50:.1f} | {p99:.1f} | {' / '.join(map(str, rss))} |")
        c.close()


main()
