#!/usr/bin/env python3
"""Writes the fuzz seed corpora into fuzz/corpus/<target>/ (kept out of git).

Seeds come from generated/corpus/<spec>/ when it exists, else from every fenced
```json valid|invalid|fragment``` block of spec/<spec>.md; the spec loader gets each
spec's Markdown and sidecar joined by a NUL byte; locate gets example pointers, a NUL,
and an example document. A new spec needs nothing here: its document target's corpus is
fuzz/corpus/<spec>/.
"""
import hashlib
import json
import os
import pathlib
import re
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
FENCE = re.compile(r"^```json ?([^\n]*)\n(.*?)^```", re.S | re.M)
POINTERS = ["", "/packet_id", "/findings/0/reasoning", "/findings/0/evidence/0",
            "/output_format/kind", "/a~1b/~0c", "/constraints/1/text", "/-", "/01"]


def put(target, data):
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main():
    docs = []
    for md in sorted((ROOT / "spec").glob("*.md")):
        name = md.stem
        text = md.read_text(encoding="utf-8")
        sidecar = md.with_suffix(".toml")
        toml = sidecar.read_text(encoding="utf-8") if sidecar.exists() else ""
        put("spec_loader", text.encode() + b"\0" + toml.encode())
        generated = ROOT / "generated" / "corpus" / name
        if generated.is_dir():
            examples = [p.read_bytes() for p in sorted(generated.rglob("*")) if p.is_file()]
        else:
            examples = [m.group(2).encode() for m in FENCE.finditer(text)]
        for ex in examples:
            put(name, ex)
            docs.append(ex)
    for ex in docs[:8]:
        for ptr in POINTERS:
            put("locate", ptr.encode() + b"\0" + ex)
    put("locate", b'/a~1b/~0c\0{"a/b": {"~c": [1, "x\\u00e9\\"", {"k": null}]}}')
    strangers()


def cases(spec):
    path = ROOT / "generated" / "corpus" / spec / "cases.json"
    return json.loads(path.read_text("utf-8"))["cases"] if path.exists() else []


def strangers():
    """Seeds of the targets that read what strangers send (issue 27)."""
    # The flat reader and landing: every taskpack corpus document (landing's first byte odd:
    # flat); the zip reader and landing: the valid ones converted to zip by the CLI, when built.
    binary = ROOT / "target" / "debug" / "specmint"
    for i, case in enumerate(cases("taskpack")):
        flat = json.dumps(case["document"], ensure_ascii=False).encode()
        put("taskpack_flat", flat)
        put("taskpack_land", b"\x01" + flat)
        if case["valid"] and binary.exists() and i % 4 == 0:
            with tempfile.TemporaryDirectory() as tmp:
                src, out = pathlib.Path(tmp, "in.taskpack.json"), pathlib.Path(tmp, "out.taskpack")
                src.write_bytes(flat)
                done = subprocess.run([str(binary), "taskpack", "convert", str(src), str(out)],
                                      capture_output=True)
                if done.returncode == 0 and out.exists():
                    put("taskpack_zip", out.read_bytes())
                    put("taskpack_land", b"\x00" + out.read_bytes())
    # The hostile zips of cli/tests/it/taskpack_hostile.rs (zip-slip, symlinks, duplicates, bombs...),
    # which that test writes out when asked.
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(["cargo", "test", "--quiet", "--test", "taskpack_hostile"],
                              cwd=ROOT, env=dict(os.environ, SPECMINT_FUZZ_SEEDS=tmp),
                              capture_output=True)
        if done.returncode == 0:
            for seed in sorted(pathlib.Path(tmp).iterdir()):
                put("taskpack_zip", seed.read_bytes())
                put("taskpack_land", b"\x00" + seed.read_bytes())
    # The team record: each record of the handoff refusal table, both layouts.
    table = json.loads((ROOT / "tests/fixtures/handoff_refusals.json").read_text("utf-8"))
    records = {table["default_agent_toml"]} | {c["agent_toml"] for c in table["cases"] if c.get("agent_toml")}
    for record in sorted(records):
        put("agent_record", b"\x00" + record.encode())
        put("agent_record", b"\x01" + record.encode())
    # MCP lines: a whole session, then its lines alone and broken.
    session = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "fuzz", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": "c", "method": "tools/call",
         "params": {"name": "record_input", "arguments": {"action_id": "a-1", "package_id": "p",
                                                          "expected_revision": 0, "basis": {}, "payload": {}}}},
        {"jsonrpc": "2.0", "id": 3, "result": {}},
    ]
    lines = [json.dumps(m).encode() for m in session]
    put("mcp_lines", b"\n".join(lines))
    for line in lines + [b"not json", b"{", b"\xff\xfe", b'{"jsonrpc":"2.0"} x', b"[[[[", b"[]",
                         b'{"jsonrpc":"1.0","id":1,"method":"m"}', b'{"jsonrpc":"2.0","id":true}']:
        put("mcp_lines", line)
    # Envelope apply: the valid envelopes of the corpus in runs of four, and each alone.
    envelopes = []
    for case in cases("action_envelope"):
        document = case["document"]
        if isinstance(document, dict):
            document = dict(document, package_id="pkg_fuzz")
        envelopes.append(json.dumps(document).encode())
    for i in range(0, len(envelopes), 4):
        put("envelope_apply", b"\0".join(envelopes[i:i + 4]))


if __name__ == "__main__":
    main()
