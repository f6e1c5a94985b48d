"""`specmint lsp` driven by a Python LSP client (lsprotocol's types over stdio).

1. Every golden mistake of codegen/tests/mistakes/ (a spec `spec/mini.md` + `mini.toml` and the
   stderr `specmint generate` prints for it): opened in the server, its published diagnostics,
   written back as `file:line:col: error: message` and `  hint: ...`, equal the golden file, and
   each starts at its golden line and column.
2. The bundled specs (spec/*.md): no diagnostic; hover on CONSTRAINT_TEXT_MAX_CHARS's row shows
   the constant; definition, references, completion, formatting (idempotent), symbols.
3. An edit that breaks a spec, its diagnostic at the cell, the code action that fixes it, and
   the diagnostics gone; malformed messages answered with JSON-RPC errors.
4. 500 edits of spec/task_packet.md, each adding a field of a name no earlier edit used: the
   server's resident memory grows by less than 1 MiB (a load keeps nothing for the process; it
   grew about 4.6 KiB per distinct spec while names and shapes were interned, 2.4 MiB here;
   scripts/bench_lsp.py --distinct measures more edits).

Usage: client.py SPECMINT_BIN
"""

import json
import pathlib
import shutil
import sys
import tempfile

from lsprotocol import types as T

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from lspclient import Client  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
BIN = sys.argv[1]
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def uri_of(p):
    return pathlib.Path(p).resolve().as_uri()


def open_doc(c, path, text=None):
    text = pathlib.Path(path).read_text() if text is None else text
    uri = uri_of(path)
    lang = "markdown" if str(path).endswith(".md") else "toml"
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}})
    return uri


def render(diags, display):
    out = []
    for d in diags:
        first, _, hint = d["message"].partition("\nhint: ")
        line, col = d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1
        out.append((display, line, col, first, hint))
    return out


def golden_mistakes(c, work):
    cases = sorted(p.stem for p in (ROOT / "codegen/tests/mistakes").glob("*.md"))
    for name in cases:
        base = ROOT / "codegen/tests/mistakes" / name
        d = work / name / "spec"
        d.mkdir(parents=True)
        shutil.copy(f"{base}.md", d / "mini.md")
        if pathlib.Path(f"{base}.toml").exists():
            shutil.copy(f"{base}.toml", d / "mini.toml")
        golden = pathlib.Path(f"{base}.stderr").read_text().rstrip("\n")
        md_uri = open_doc(c, d / "mini.md")
        # Both files are published after an open (the sidecar's list too).
        want = [md_uri, uri_of(d / "mini.toml")] if (d / "mini.toml").exists() else [md_uri]
        got = {u: c.wait_diagnostics(u) for u in want}
        rows = render(got.get(md_uri, []), "spec/mini.md")
        rows += render(got.get(uri_of(d / "mini.toml"), []), "spec/mini.toml")
        rows.sort(key=lambda r: (r[0], r[1], r[2]))
        text = []
        for display, line, col, first, hint in rows:
            whole = any(
                l.startswith(f"{display}: error: {first}") for l in golden.splitlines()
            )
            text.append(f"{display}: error: {first}" if whole and line == 1 and col == 1 and f"{display}:1:1:" not in golden else f"{display}:{line}:{col}: error: {first}")
            if hint:
                text.append(f"  hint: {hint}")
        got_text = "\n".join(text)
        check(got_text == golden, f"golden {name}:\n--- want\n{golden}\n--- got\n{got_text}")
        c.notify("textDocument/didClose", {"textDocument": {"uri": md_uri}})
    print(f"golden mistakes: {len(cases)} cases through the server")
    return len(cases)


def bundled(c):
    # The specs (a `.md` with its `.toml` sidecar), not their locale files (`<stem>.<tag>.md`).
    for md in sorted(md for md in (ROOT / "spec").glob("*.md") if md.with_suffix(".toml").exists()):
        uri = open_doc(c, md)
        diags = c.wait_diagnostics(uri)
        check(diags == [], f"{md.name}: no diagnostic, got {diags}")
        fmt = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}, list[T.TextEdit])
        # Formatting twice is a no-op the second time.
        text = md.read_text()
        lines = text.split("\n")
        for e in sorted(fmt, key=lambda e: -e["range"]["start"]["line"]):
            lines[e["range"]["start"]["line"]] = e["newText"]
        formatted = "\n".join(lines)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": formatted}]})
        again = c.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
        check(again == [], f"{md.name}: formatting a formatted file is a no-op, got {again[:2]}")
        check(c.wait_diagnostics(uri) == [], f"{md.name}: the formatted spec still loads")
        syms = c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, list[T.DocumentSymbol])
        check(len(syms) >= 1 and syms[0].get("children"), f"{md.name}: symbols")
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]})
        c.wait_diagnostics(uri)


def task_packet(c):
    md = ROOT / "spec/task_packet.md"
    uri = open_doc(c, md)
    c.wait_diagnostics(uri)
    lines = md.read_text().split("\n")
    cap = next(i for i, l in enumerate(lines) if "CONSTRAINT_TEXT_MAX_CHARS" in l)
    h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": cap, "character": 4}}, T.Hover)
    value = h["contents"]["value"]
    check("pub const CONSTRAINT_TEXT_MAX_CHARS: usize = 200;" in value, f"hover on the cap row: {value}")
    check('"maxLength": 200' in value, "the hover has the field's schema fragment")
    check('max_chars(max = CONSTRAINT_TEXT_MAX_CHARS, code = "field_too_long")' in value, "the hover has the rule")
    # Definition: the cap row's path goes to the field row `text` of `constraint`.
    d = c.request("textDocument/definition", {"textDocument": {"uri": uri}, "position": {"line": cap, "character": 4}}, list[T.Location])
    check(any(lines[l["range"]["start"]["line"]].startswith("| `text`") for l in d), f"definition of the cap path: {d}")
    # References of an error code: its row and every rule and sidecar entry raising it.
    row = next(i for i, l in enumerate(lines) if l.startswith("| `field_too_long`"))
    refs = c.request("textDocument/references", {"textDocument": {"uri": uri}, "position": {"line": row, "character": 4}, "context": {"includeDeclaration": True}}, list[T.Location])
    check(any(r["uri"].endswith(".toml") for r in refs) and len(refs) >= 2, f"references of field_too_long: {refs}")
    h = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": row, "character": 4}}, T.Hover)
    check("raised by" in h["contents"]["value"], "hover on an error code says where it is raised")
    # Completion: a Type cell offers the built-in types and the spec's tables.
    field = next(i for i, l in enumerate(lines) if l.startswith("| `objective`"))
    col = lines[field].index("|", 3) + 2
    items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": field, "character": col}}, list[T.CompletionItem])
    labels = {i["label"] for i in items}
    check({"string", "uint32", "constraint"} <= labels, f"type completion: {sorted(labels)[:20]}")
    # ... filtered by the word typed before the cursor (case ignored), qualifiers included.
    typed = lines[field][col:].split()[0][:3]
    items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": field, "character": col + len(typed)}}, list[T.CompletionItem])
    labels = {i["label"] for i in items}
    check(labels and all(l.lower().startswith(typed.lower()) for l in labels), f"type completion after `{typed}`: {sorted(labels)}")
    # A Required cell offers its forms, the conditions among them.
    req = lines[field].index("|", col) + 2
    items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": field, "character": req}}, list[T.CompletionItem])
    labels = {i["label"] for i in items}
    check({"✔", "—", "if `field` is `value`", "unless `field` is `value`"} <= labels, f"required completion: {sorted(labels)[:20]}")
    items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": cap, "character": 2}}, list[T.CompletionItem])
    check("`constraints[].text`" in {i["label"] for i in items}, "cap path completion")
    toml = ROOT / "spec/task_packet.toml"
    turi = open_doc(c, toml)
    c.wait_diagnostics(uri)
    tl = toml.read_text().split("\n")
    k = next(i for i, l in enumerate(tl) if l.startswith("parse ="))
    items = c.request("textDocument/completion", {"textDocument": {"uri": turi}, "position": {"line": k, "character": len(tl[k]) - 1}}, list[T.CompletionItem])
    check("field_too_long" in {i["label"] for i in items}, "error code completion in the sidecar")
    c.notify("textDocument/didClose", {"textDocument": {"uri": turi}})
    c.wait_diagnostics(uri)
    # A mistake typed in a cell: the diagnostic at the cell, the code action, and it clears.
    t = md.read_text()
    broken = t.replace("| `objective` | non-blank string |", "| `objective` | non-blank strng |", 1)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 9}, "contentChanges": [{"text": broken}]})
    diags = c.wait_diagnostics(uri)
    check(len(diags) == 1, f"one diagnostic for the typo: {diags}")
    d = diags[0]
    cell = broken.split("\n")[field]
    start = cell.index("non-blank strng")
    check(d["range"] == {"start": {"line": field, "character": start}, "end": {"line": field, "character": start + len("non-blank strng")}}, f"the range is the cell: {d['range']}")
    actions = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": d["range"], "context": {"diagnostics": diags}}, list[T.CodeAction])
    check(len(actions) == 1 and actions[0]["title"] == "Change to `string`", f"the did-you-mean action: {actions}")
    edit = actions[0]["edit"]["changes"][uri][0]
    bl = broken.split("\n")
    r = edit["range"]
    bl[field] = bl[field][: r["start"]["character"]] + edit["newText"] + bl[field][r["end"]["character"]:]
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 10}, "contentChanges": [{"text": "\n".join(bl)}]})
    check(c.wait_diagnostics(uri) == [], "the diagnostic clears after the action")
    # A code missing from the error table: the action adds its row.
    broken = t.replace("| `field_too_long` |", "| `field_too_lng` |", 1)
    c.settle(uri)
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 11}, "contentChanges": [{"text": broken}]})
    diags = c.wait_diagnostics(uri)
    ts = c.wait_diagnostics(uri_of(toml))
    missing = [d for d in ts if d["message"].startswith("code `field_too_long` is not in the error table")]
    check(missing and missing[0].get("code") == "field_too_long", f"the sidecar's missing code, with its code: {ts[:2]}")
    c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 12}, "contentChanges": [{"text": t}]})
    c.wait_diagnostics(uri)


def malformed(c):
    c.send_raw(b"{not json")
    m = c.reply()
    check(m["error"]["code"] == -32700 and m["id"] is None, f"not JSON: {m}")
    c.send_raw(b"\xff\xfe")
    check(c.reply()["error"]["code"] == -32700, "not UTF-8")
    c.send({"id": 99, "method": "textDocument/nothing", "params": {}})
    m = c.reply()
    check(m["error"]["code"] == -32601 and m["id"] == 99, f"unknown method: {m}")
    c.send({"id": 100, "method": "textDocument/hover", "params": {}})
    check(c.reply()["error"]["code"] == -32602, "params without a document")
    # A file outside any spec directory, and a 5 MB Markdown file: answered, no diagnostic.
    with tempfile.TemporaryDirectory() as d:
        big = pathlib.Path(d) / "notes.md"
        # 5 MB: prose, a table of 10,000 rows, and a half-typed table at the end.
        prose = "Some prose about the spec, long enough to be a line of a real document.\n\n"
        big.write_text(prose * 70_000 + "| a | b |\n|---|---|\n" + "| x | `y` |\n" * 10_000 + "| half")
        check(big.stat().st_size > 5_000_000, "the big file is over 5 MB")
        uri = open_doc(c, big)
        check(c.wait_diagnostics(uri) == [], "a big prose file has no diagnostic")
        check(c.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}) is not None, "symbols of a big file")


def rss_kib(pid):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def distinct_specs(work, edits=500):
    # A server of its own: memory the other steps freed would take what a leak keeps unseen.
    c = Client([BIN, "lsp"])
    c.initialize()
    path = work / "spec" / "task_packet.md"
    path.parent.mkdir()
    for f in ("task_packet.md", "task_packet.toml"):
        shutil.copy(ROOT / "spec" / f, path.parent / f)
    text = path.read_text()
    uri = open_doc(c, path, text)
    check(c.wait_diagnostics(uri) == [], "the copied task_packet.md has no diagnostic")
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if l.startswith("| `"))
    first = 0
    for n in range(edits):
        extra = f"| `extra_{n}` | string? | — | Field {n}. |"
        changed = "\n".join(lines[: row + 1] + [extra] + lines[row + 1 :])
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": n + 2}, "contentChanges": [{"text": changed}]})
        if c.wait_diagnostics(uri) != []:
            check(False, f"edit {n} of task_packet.md has a diagnostic")
            break
        if n == 0:
            first = rss_kib(c.proc.pid)
    grew = rss_kib(c.proc.pid) - first
    print(f"distinct specs: {edits} edits, resident memory grew {grew} KiB")
    check(grew < 1024, f"{edits} distinct specs: resident memory grew {grew} KiB (bound 1024)")
    check(c.close() == 0, "the second server exits after shutdown and exit")


def main():
    c = Client([BIN, "lsp"])
    c.send({"id": 0, "method": "textDocument/hover", "params": {}})
    m = c.reply()
    check(m["error"]["code"] == -32002, f"before initialize: {m}")
    c.initialize()
    with tempfile.TemporaryDirectory() as work:
        n = golden_mistakes(c, pathlib.Path(work))
    bundled(c)
    task_packet(c)
    malformed(c)
    status = c.close()
    check(status == 0, f"exit status after shutdown and exit: {status}")
    with tempfile.TemporaryDirectory() as work:
        distinct_specs(pathlib.Path(work))
    if failures:
        print(f"lsp client: {len(failures)} failed")
        sys.exit(1)
    print(f"lsp client: {n} golden mistakes, the bundled specs and every request: ok")


main()
