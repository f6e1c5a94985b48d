"""The reliability suite: specmint tried as an attacker and as a crash would, from outside.

Usage: tests/peers/reliability.py SPECMINT_BINARY [--full]

Each probe drives the CLI (or `specmint mcp`) the way the issue that found the problem did and
checks that nothing was lost, torn, leaked or left behind. The table at the end has one row
per probe: attempts, failures, and what was measured. `./test.sh` runs the short form; `--full`
is the size the probes were first run at (800 concurrent filings, 200 kills of a pack with a
16 MiB attachment, a 110 MiB flat pack, a zip of 110 x 1 MiB attachments). Exit status 1 when
any attempt failed.
"""

import base64
import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FULL = "--full" in sys.argv[2:]
BIN = str(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else sys.exit(__doc__)
RNG = random.Random(int(os.environ.get("SPECMINT_RELIABILITY_SEED", "21")))
MEMORY_BOUND = 64 << 20

rows = []


def probe(name):
    """Runs a probe function (returning attempts, failures as a list of strings, and a note)
    and records its row; an exception is a failure of the probe itself."""

    def register(fn):
        started = time.monotonic()
        try:
            attempts, failures, note = fn()
        except Exception as error:  # noqa: BLE001 - the table must say what broke
            attempts, failures, note = 1, [f"the probe itself failed: {error!r}"], ""
        seconds = time.monotonic() - started
        rows.append((name, attempts, failures, note, seconds))
        for failure in failures[:5]:
            print(f"  {name}: {failure}", file=sys.stderr)
        return fn

    return register


def run(args, stdin=None, cwd=None):
    return subprocess.run([BIN, *args], input=stdin, cwd=cwd, capture_output=True)


def peak_rss(args, cwd=None):
    """Runs the command and returns (exit status, peak resident set in bytes): the kernel's
    high-water mark of the program's own memory (VmHWM, which an exec starts afresh; the
    rusage of a child would count the pages of this process it was forked from), read every
    5 ms until it exits. The mark only rises, so the last reading misses at most the last 5 ms."""
    child = subprocess.Popen([BIN, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    status = Path(f"/proc/{child.pid}/status")
    while child.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) * 1024)
        except OSError:
            pass
        time.sleep(0.005)
    return child.returncode, peak


WORK = Path(tempfile.mkdtemp(prefix="specmint-reliability-"))


def scratch():
    """A fresh folder for one probe, under one folder removed when the suite ends."""
    return Path(tempfile.mkdtemp(dir=WORK))


# ---------------------------------------------------------------------------------------------
# Concurrency


LEG_CAP = 100
TEAM_MEMBER = '[team_member]\nrole = "planner"\ntask_id = "task-1"\nround = 2\nparent = "boss"\n'


@probe("concurrent filings to one leg")
def concurrent_filings():
    home = scratch()
    n = 800 if FULL else 48
    for i in range(n):
        member = home / "agents" / ".ephemeral" / f"a{i}"
        member.mkdir(parents=True)
        (member / "agent.toml").write_text(TEAM_MEMBER, "utf-8")

    def file(i):
        packet = {"packet_id": f"pk-{i}", "objective": f"part {i}", "output_format": "diff"}
        out = run(["handoff", "--home", str(home), "--agent", f"a{i}", "-", "--format", "json"],
                  stdin=json.dumps(packet).encode())
        return i, out

    failures = []
    with ThreadPoolExecutor(max_workers=32) as pool:
        results = list(pool.map(file, range(n)))
    # A leg holds 100 packets (spec/task_packet.md, `write_failed`): past that, each filing is
    # refused whole, and which 100 get in is a race.
    full = b"already holds 100 packets"
    refused = [i for i, out in results if out.returncode == 1 and full in out.stdout]
    for i, out in results:
        if out.returncode != 0 and i not in refused:
            failures.append(f"filing {i}: exit {out.returncode}: {out.stdout[:200]!r} {out.stderr[:200]!r}")
    filed = sorted(f"pk-{i}" for i, out in results if out.returncode == 0)
    if len(filed) != min(n, LEG_CAP):
        failures.append(f"{len(filed)} filed of {n}, where {min(n, LEG_CAP)} fit")
    # A leg is one file per packet: `<from>-to-<to>.json`, then `.01.json`, `.02.json`, ...
    leg = sorted((home / "team_packets" / "task-1" / "r2").glob("planner-to-executor*.json"))
    ids = sorted(json.loads(p.read_text("utf-8"))["packet_id"] for p in leg)
    if ids != filed:
        failures.append(f"the leg holds {len(ids)} packets, {len(set(ids))} distinct, for {len(filed)} filed")
    for log in ("artifacts.jsonl", "security_audit.jsonl"):
        rows_ = (home / log).read_text("utf-8").splitlines() if (home / log).exists() else []
        if len(rows_) < len(filed):
            failures.append(f"{log} has {len(rows_)} rows for {len(filed)} filings")
    note = f"{n} processes, one leg: {len(filed)} filed, {len(refused)} refused as the leg was full"
    return n, failures, note


TASK = {
    "objective": "Add a --json flag",
    "outputFormat": "a commit",
    "toolAndSourceGuidance": "cargo",
    "boundaries": ["no schema changes"],
    "filesAndInterfaces": ["src/report.rs"],
    "acceptanceCheck": {"passFailCommand": "cargo test report", "endToEndVerification": "run it"},
    "contextID": "ctx-7",
}


@probe("racing claims of one queue")
def racing_claims():
    directory = scratch()
    store = str(directory / "work.db")
    tasks = 40 if FULL else 12
    workers = 16 if FULL else 8
    for _ in range(tasks):
        out = run(["task", "submit", "--store", store, "-", "--format", "json"], stdin=json.dumps(TASK).encode())
        if out.returncode != 0:
            return 1, [f"submit: {out.stdout!r} {out.stderr!r}"], ""

    def worker(_):
        won = []
        while True:
            out = run(["task", "claim", "--next", "--store", store, "--format", "json"])
            if out.returncode != 0:
                return won, f"claim: exit {out.returncode}: {out.stderr[:200]!r}"
            task = json.loads(out.stdout)["task_id"]
            if task is None:
                return won, None
            won.append(task)

    failures = []
    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(worker, range(workers)))
    claimed = [t for won, _ in results for t in won]
    failures += [error for _, error in results if error]
    if sorted(claimed) != sorted(set(claimed)):
        failures.append(f"a task was claimed twice: {len(claimed)} claims of {len(set(claimed))} tasks")
    if len(set(claimed)) != tasks:
        failures.append(f"{len(set(claimed))} of {tasks} tasks claimed")
    return len(claimed), failures, f"{workers} workers, {tasks} tasks, each claimed once"


# ---------------------------------------------------------------------------------------------
# kill -9 at random points


def new_passport(directory, store, ident):
    (directory / "state.json").write_text(json.dumps({"title": "t", "goal": "ship it"}), "utf-8")
    out = run(["passport", "new", "--file", "state.json", "--id", ident, "--store", store], cwd=directory)
    assert out.returncode == 0, out


def stored_version(store, ident):
    return json.loads((Path(store) / f"{ident}.json").read_text("utf-8"))["version"]


def kill_after(args, delay, cwd):
    child = subprocess.Popen([BIN, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    child.wait()


@probe("kill -9 during taskpack pack")
def killed_packs():
    directory = scratch()
    store = str(directory / "store")
    new_passport(directory, store, "TP-KILL")
    size = (16 << 20) if FULL else (2 << 20)
    (directory / "big.bin").write_bytes(RNG.randbytes(size))
    rounds = 200 if FULL else 6
    failures = []
    args = ["taskpack", "pack", "TP-KILL", "--out", "x.taskpack", "--store", store,
            "--attach", "big.bin", "--ask", "which quarter?|a date range"]
    for round_ in range(rounds):
        before = stored_version(store, "TP-KILL")
        kill_after(args, RNG.uniform(0, 0.4), directory)
        after_kill = stored_version(store, "TP-KILL")
        if after_kill not in (before, before + 1):
            failures.append(f"round {round_}: version {before} became {after_kill} after a kill")
        out = run(args, cwd=directory)
        if out.returncode != 0:
            failures.append(f"round {round_}: the pack after the kill: exit {out.returncode}: {out.stdout[:300]!r}")
            continue
        left = [p.name for p in directory.iterdir() if ".tmp-" in p.name]
        left += [p.name for p in Path(store).iterdir() if ".tmp-" in p.name]
        if left:
            failures.append(f"round {round_}: temporary files outlived their writer: {left}")
        judged = run(["taskpack", "conformance", "x.taskpack"], cwd=directory)
        if judged.returncode != 0:
            failures.append(f"round {round_}: the pack is not conformant: {judged.stdout[-300:]!r}")
    return rounds, failures, f"{size >> 20} MiB attachment, killed at 0-400 ms"


def make_flat(path, attachments, passport=None):
    """Writes a flat pack of (name, bytes) attachments, one attachment in memory at a time
    (`attachments` may be a generator), so this process stays small beside the ones it
    measures."""
    passport = passport or {
        "spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-12-02T00:00:00Z",
        "origin": {}, "lineage": {"root_id": "TP-PEER-0001", "from_version": 1, "chain": ["TP-PEER-0001@1"]},
        "note": "", "passport": {"id": "TP-PEER-0001", "title": "t", "goal": "ship it"},
        "asks": [], "landing_checks": [],
    }
    head = {"taskpack": "0.1", "encoding": "flat", "note_to_reader": "x", "passport": passport}
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(head, ensure_ascii=False)[:-1] + ', "attachments": [')
        for index, (name, data) in enumerate(attachments):
            try:
                text = data.decode("utf-8")
                readable = not any(ord(c) < 9 or 13 < ord(c) < 32 for c in text)
            except UnicodeDecodeError:
                readable = False
            item = {
                "name": name,
                "encoding": "utf8" if readable else "base64",
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
                "data": text if readable else base64.b64encode(data).decode(),
            }
            out.write(("," if index else "") + "\n  " + json.dumps(item, ensure_ascii=False))
        out.write("\n]}\n")


@probe("kill -9 during taskpack land")
def killed_landings():
    directory = scratch()
    store = directory / "store"
    files = [(f"part-{i}.bin", RNG.randbytes(1 << 20)) for i in range(12 if FULL else 4)]
    make_flat(directory / "in.taskpack.json", files)
    rounds = 100 if FULL else 6
    failures = []
    for round_ in range(rounds):
        kill_after(["taskpack", "land", "in.taskpack.json", "--store", str(store)], RNG.uniform(0, 0.3), directory)
        out = run(["taskpack", "land", "in.taskpack.json", "--store", str(store)], cwd=directory)
        if out.returncode != 0:
            failures.append(f"round {round_}: the landing after the kill: exit {out.returncode}: {out.stderr[:300]!r}")
            continue
        names = [p.name for p in store.iterdir()]
        hidden = [n for n in names if n.startswith(".arriving-") or ".files.landing-" in n or ".tmp-" in n]
        if hidden:
            failures.append(f"round {round_}: left behind: {hidden}")
        for folder in (n for n in names if n.endswith(".files")):
            ident = folder[: -len(".files")]
            if f"{ident}.json" not in names:
                failures.append(f"round {round_}: {folder} has no passport")
            for name, data in files:
                if (store / folder / name).read_bytes() != data:
                    failures.append(f"round {round_}: {folder}/{name} is not the attachment")
    return rounds, failures, f"{len(files)} MiB flat pack, killed at 0-300 ms"


# ---------------------------------------------------------------------------------------------
# Hostile packs


def zip_bytes(entries):
    """A zip of (name, bytes, external attributes or None) written by hand, so that names and
    attributes no zip library would write can be (zip-slip, duplicates, symlinks)."""
    import struct
    import zlib

    out = bytearray()
    central = bytearray()
    for name, data, attributes in entries:
        raw = name.encode("utf-8")
        crc = zlib.crc32(data)
        offset = len(out)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 0, 0, 0, crc, len(data), len(data), len(raw), 0)
        out += raw + data
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0x800, 0, 0, 0, crc, len(data),
                               len(data), len(raw), 0, 0, 0, 0, attributes or 0, offset)
        central += raw
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central), len(out), 0)
    return bytes(out + central + end)


def bomb():
    import zlib

    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(1 << 20)
    body = b"".join(compressor.compress(chunk) for _ in range(1100)) + compressor.flush()
    import struct

    name = b"data/files/zeros.bin"
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x800, 8, 0, 0, 0, len(body), 1024, len(name), 0)
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0x031E, 20, 0x800, 8, 0, 0, 0, len(body), 1024,
                          len(name), 0, 0, 0, 0, 0, 0) + name
    out = local + name + body
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(out), 0)
    return out + central + end


@probe("hostile packs")
def hostile_packs():
    directory = scratch()
    symlink = (0o120777 << 16)
    cases = {
        "zip-slip": zip_bytes([("data/files/../../escaped.txt", b"out", None)]),
        "absolute": zip_bytes([("/tmp/specmint-absolute.txt", b"out", None)]),
        "symlink": zip_bytes([("data/files/link", b"/etc/passwd", symlink)]),
        "duplicate": zip_bytes([("data/files/a.txt", b"1", None), ("data/files/a.txt", b"2", None)]),
        "file-and-folder": zip_bytes([("data/files/a", b"1", None), ("data/files/a/b.txt", b"2", None)]),
        "backslash": zip_bytes([("data\\files\\..\\..\\x.txt", b"out", None)]),
        "too-many-entries": zip_bytes([(f"data/files/{i}", b"", None) for i in range(10_001)]),
        "truncated": zip_bytes([("data/passport.json", b"{}", None)])[:-30],
    }
    if FULL:
        # Inflating to the 1 GiB limit takes a while; cli/tests/it/taskpack_hostile.rs stops smaller
        # bombs under smaller limits.
        cases["bomb"] = bomb()
    failures = []
    attempts = 0
    for name, data in cases.items():
        case = directory / name
        case.mkdir()
        pack = case / "in.taskpack"
        pack.write_bytes(data)
        store = case / "store"
        attempts += 2
        judged = run(["taskpack", "conformance", str(pack), "--format", "json"])
        verdict = json.loads(judged.stdout) if judged.stdout.startswith(b"{") else {}
        c1 = [c for c in verdict.get("checks", []) if c.get("id") == "C1"]
        if judged.returncode != 2 or not c1 or c1[0].get("status") != "fail":
            failures.append(f"{name}: conformance exit {judged.returncode}, C1 {c1}")
        landed = run(["taskpack", "land", str(pack), "--store", str(store), "--format", "json"])
        if landed.returncode != 1 or b"invalid_taskpack" not in landed.stdout:
            failures.append(f"{name}: land exit {landed.returncode}: {landed.stdout[:300]!r}")
        written = [str(p.relative_to(case)) for p in case.rglob("*") if p.is_file() and p != pack]
        if written:
            failures.append(f"{name}: files written: {written}")
        for outside in (directory / "escaped.txt", directory.parent / "escaped.txt", Path("/tmp/specmint-absolute.txt")):
            if outside.exists():
                failures.append(f"{name}: wrote {outside}")
    return attempts, failures, f"{len(cases)} zips, conformance and land each"


# ---------------------------------------------------------------------------------------------
# MCP lines


@probe("malformed MCP lines")
def malformed_mcp_lines():
    home = scratch()
    member = home / "agents" / ".ephemeral" / "a1"
    member.mkdir(parents=True)
    (member / "agent.toml").write_text(TEAM_MEMBER, "utf-8")
    initialize = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "r", "version": "1"}}})
    deep_packet = {"packet_id": "pk", "objective": "x", "output_format": "diff", "extra": None}
    nested = "1"
    for _ in range(50_000):
        nested = "[" + nested + "]"
    call = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                       "params": {"name": "team_handoff", "arguments": {"packet": deep_packet}}})
    call = call.replace("null", nested)
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}',  # before initialize
        initialize.encode(),
        b"not json",
        b"{",
        b"\xff\xfe\xfd",
        b'{"jsonrpc":"2.0","id":2,"method":"ping"} trailing',
        b"[" * 100_000,
        call.encode(),
        b'{"jsonrpc":"2.0","id":3,"method":"no/such/method"}',
        b'"a string"',
        b"[]",
        b"x" * ((17 << 20) if FULL else (16 << 20) + 10),
    ]
    server = subprocess.Popen([BIN, "mcp", "--home", str(home), "--agent", "a1"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    failures = []
    answered = 0
    for line in lines:
        server.stdin.write(line + b"\n")
        server.stdin.flush()
        if line == initialize.encode():
            server.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
            server.stdin.flush()
        reply = server.stdout.readline()
        if not reply:
            failures.append(f"no reply to {line[:40]!r}: the server ended")
            break
        try:
            message = json.loads(reply)
        except ValueError:
            failures.append(f"a reply that is not JSON to {line[:40]!r}: {reply[:100]!r}")
            continue
        if message.get("jsonrpc") != "2.0" or ("result" not in message and "error" not in message):
            failures.append(f"not a JSON-RPC reply to {line[:40]!r}: {reply[:200]!r}")
        answered += 1
    server.stdin.write(b'{"jsonrpc":"2.0","id":99,"method":"ping"}\n')
    server.stdin.flush()
    last = server.stdout.readline()
    if not last or json.loads(last).get("id") != 99:
        failures.append(f"the server stopped serving: {last[:200]!r}")
    server.stdin.close()
    server.wait(timeout=30)
    return len(lines) + 1, failures, f"{answered} of {len(lines)} lines answered, then a ping"


# ---------------------------------------------------------------------------------------------
# Secrets


@probe("secrets in packs")
def secrets():
    corpus = json.loads((ROOT / "tests/fixtures/secrets.json").read_text("utf-8"))["secrets"]
    directory = scratch()
    deep = (50 << 20) if FULL else (1 << 20)
    filler = b"the quick brown fox jumps over the lazy dog 0123456789\n"
    failures = []
    attempts = 0
    for secret in corpus:
        text = secret["text"]
        places = {
            "fact": None,
            "attachment": f"notes for the next machine\n{text}\n".encode(),
            # The filler is cut mid-line: a line break keeps the secret from being glued to the
            # word cut there, which credential patterns at token boundaries pass (issue 34, item 6).
            "deep": (filler * (deep // len(filler) + 1))[:deep] + b"\n" + text.encode() + b"\n",
            "base64": base64.b64encode(text.encode()),
            "binary": bytes(range(256)) + text.encode() + bytes(range(256)),
        }
        for place, data in places.items():
            attempts += 1
            passport = None
            if data is None:
                passport = {
                    "spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-12-02T00:00:00Z",
                    "origin": {}, "lineage": {"root_id": "TP-1", "from_version": 1, "chain": ["TP-1@1"]}, "note": "",
                    "passport": {"id": "TP-1", "title": "t", "goal": "g",
                                 "facts": [{"claim": text, "scope": "universal", "verified": True}]},
                    "asks": [], "landing_checks": [],
                }
            pack = directory / f"{secret['name']}-{place}.taskpack.json"
            make_flat(pack, [] if data is None else [("notes.bin", data)], passport)
            judged = run(["taskpack", "conformance", str(pack), "--format", "json"])
            verdict = json.loads(judged.stdout)
            failed = {c["id"] for c in verdict["checks"] if c["status"] == "fail"}
            if judged.returncode != 2 or not failed & {"C7", "C8"}:
                failures.append(f"{secret['name']} in {place}: conformance failed {sorted(failed)}")
            pack.unlink()
    return attempts, failures, f"{len(corpus)} secrets x 5 places, conformance (pack: cli/tests/it/taskpack_secrets.rs)"


# ---------------------------------------------------------------------------------------------
# Memory


@probe("flat pack in bounded memory")
def bounded_memory():
    directory = scratch()
    size_mib = 128 if FULL else 24  # a file of about 110 MiB in full
    line = "a line of notes, \"quoted\", \u00e9 \u4e2d\u6587\n".encode()

    def attachments():
        for i in range(size_mib // 4):
            yield f"bin/{i}.bin", RNG.randbytes(1 << 20)
        yield "notes/long.txt", line * ((size_mib // 2 << 20) // len(line))

    make_flat(directory / "big.taskpack.json", attachments())
    actual = (directory / "big.taskpack.json").stat().st_size
    failures = []
    peaks = {}
    commands = {
        "conformance": ["taskpack", "conformance", "big.taskpack.json"],
        "validate": ["validate", "taskpack", "big.taskpack.json"],
        "convert to zip": ["taskpack", "convert", "big.taskpack.json", "out.taskpack"],
        "convert to flat": ["taskpack", "convert", "big.taskpack.json", "out.taskpack.json"],
        "land": ["taskpack", "land", "big.taskpack.json", "--store", "store"],
        "convert the copy to zip": ["taskpack", "convert", "out.taskpack.json", "again.taskpack"],
    }
    for what, args in commands.items():
        status, peak = peak_rss(args, cwd=directory)
        peaks[what] = peak
        if status != 0:
            failures.append(f"{what}: exit {status}")
        if peak > MEMORY_BOUND:
            failures.append(f"{what}: peak RSS {peak >> 20} MiB, over {MEMORY_BOUND >> 20} MiB")
    if (directory / "again.taskpack").read_bytes() != (directory / "out.taskpack").read_bytes():
        failures.append("the flat copy does not make the same zip as the original")
    worst = max(peaks.values()) >> 20
    return len(commands), failures, f"{actual >> 20} MiB file, peak RSS at most {worst} MiB"


@probe("zip pack to flat in bounded memory")
def zip_to_flat_memory():
    """`taskpack convert IN.taskpack OUT.taskpack.json`, which held the pack whole (issue 37:
    572 MB for 110 x 1 MiB attachments): the zip is made by specmint from a flat pack (itself
    in bounded memory), converted to flat under the bound, and the flat copy converts back to
    the same zip."""
    directory = scratch()
    count = 110 if FULL else 16  # the 110 x 1 MiB in full
    line = "a line of notes, \"quoted\", \u00e9 \u4e2d\u6587\n".encode()

    def attachments():
        for i in range(count):
            yield f"bin/{i}.bin", RNG.randbytes(1 << 20)
        yield "notes/long.txt", line * ((count << 20) // 16 // len(line))

    make_flat(directory / "seed.taskpack.json", attachments())
    failures = []
    made = run(["taskpack", "convert", "seed.taskpack.json", "big.taskpack"], cwd=directory)
    (directory / "seed.taskpack.json").unlink()
    if made.returncode != 0:
        return 1, [f"making the zip: exit {made.returncode}: {made.stderr[:200]!r}"], ""
    actual = (directory / "big.taskpack").stat().st_size
    status, peak = peak_rss(["taskpack", "convert", "big.taskpack", "out.taskpack.json"], cwd=directory)
    if status != 0:
        failures.append(f"convert to flat: exit {status}")
    if peak > MEMORY_BOUND:
        failures.append(f"convert to flat: peak RSS {peak >> 20} MiB, over {MEMORY_BOUND >> 20} MiB")
    back = run(["taskpack", "convert", "out.taskpack.json", "again.taskpack"], cwd=directory)
    if back.returncode != 0 or (directory / "again.taskpack").read_bytes() != (directory / "big.taskpack").read_bytes():
        failures.append("the flat copy does not make the same zip as the original")
    return 1, failures, f"{actual >> 20} MiB zip, {count} x 1 MiB and a text file, peak RSS {peak >> 20} MiB"


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    width = max(len(r[0]) for r in rows)
    print(f"\nreliability ({'full' if FULL else 'short'} form)")
    print(f"{'probe':<{width}}  attempts  failures  seconds  measured")
    for name, attempts, failures, note, seconds in rows:
        print(f"{name:<{width}}  {attempts:>8}  {len(failures):>8}  {seconds:>7.1f}  {note}")
    failed = sum(len(r[2]) for r in rows)
    print(f"{'all':<{width}}  {sum(r[1] for r in rows):>8}  {failed:>8}")
    sys.exit(1 if failed else 0)


main()
