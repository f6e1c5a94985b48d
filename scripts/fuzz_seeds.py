#!/usr/bin/env python3
"""Writes the fuzz seed corpora into fuzz/corpus/<target>/ (kept out of git).

Seeds come from generated/corpus/<spec>/ when it exists, else from every fenced
```json valid|invalid|fragment``` block of spec/<spec>.md; the spec loader gets each
spec's Markdown and sidecar joined by a NUL byte; locate gets example pointers, a NUL,
and an example document. A new spec needs nothing here: its document target's corpus is
fuzz/corpus/<spec>/.
"""
import hashlib
import pathlib
import re

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


if __name__ == "__main__":
    main()
