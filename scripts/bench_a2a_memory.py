"""The door's peak resident set (VmHWM, /proc/PID/status) landing one large flat pack over HTTP.

usage: bench_a2a_memory.py BINARY [MiB]

Starts `BINARY a2a serve` over a fresh store, lands a small pack (warm-up), reads VmHWM, lands a
flat pack whose one text attachment is MiB MiB (default 40: a ~54 MiB JSON-RPC body) and reads
VmHWM again; checks the answer is the landed Task. Linux only. See BENCHMARKS.md (A2A door)."""
import base64, hashlib, json, os, subprocess, sys, tempfile, time, http.client

binary = sys.argv[1]
mib = int(sys.argv[2]) if len(sys.argv) > 2 else 40
line = b"the luggage of a large handoff, one line of many, 0123456789abc\n"
data = line * ((mib << 20) // len(line))
pack = {"spec": "task-passport-bag/0.1", "kind": "handoff", "packed_at": "2026-08-16T03:11:04Z",
        "origin": {"actor": "ds", "machine": "mbp-14"},
        "lineage": {"root_id": "TP-ROOT-BENCH", "from_version": 1, "chain": ["TP-ROOT-BENCH@1"]},
        "passport": {"id": "TP-ROOT-BENCH", "goal": "land through the door", "version": 1,
                     "facts": [], "decisions": [], "artifacts": [], "next_steps": ["land it"]}}
flat = json.dumps({"taskpack": "0.1", "encoding": "flat", "note_to_reader": "data",
                   "passport": pack,
                   "attachments": [{"name": "big.log", "encoding": "utf8",
                                    "sha256": hashlib.sha256(data).hexdigest(),
                                    "bytes": len(data), "data": data.decode()}]}).encode()
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "SendMessage",
                   "params": {"message": {"messageId": "m1", "role": "ROLE_USER",
                                          "parts": [{"raw": base64.b64encode(flat).decode(),
                                                     "filename": "h.taskpack.json"}]}}}).encode()
store = tempfile.mkdtemp(prefix="doorbench-")
door = subprocess.Popen([binary, "a2a", "serve", "--passports", store, "--listen", "127.0.0.1:0"],
                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
url = door.stdout.readline().decode().split("listening on http://")[1].strip().rstrip("/")
host, port = url.rsplit(":", 1)

def hwm():
    for l in open(f"/proc/{door.pid}/status"):
        if l.startswith("VmHWM:"):
            return int(l.split()[1])

def post(b):
    c = http.client.HTTPConnection(host, int(port), timeout=300)
    c.request("POST", "/", body=b, headers={"A2A-Extensions": "https://taskpack.org/a2a/ext/taskpack/v1",
                                           "Content-Type": "application/json"})
    r = c.getresponse(); out = r.read(); c.close()
    return r.status, out

small = json.loads(body)  # warm-up: a pack with no attachment
flat_small = json.dumps({"taskpack": "0.1", "encoding": "flat", "note_to_reader": "data",
                         "passport": dict(pack, lineage={"root_id": "TP-W", "from_version": 1, "chain": ["TP-W@1"]}),
                         "attachments": []}).encode()
small["params"]["message"]["parts"][0]["raw"] = base64.b64encode(flat_small).decode()
assert post(json.dumps(small).encode())[0] == 200
before = hwm()
t = time.monotonic()
status, out = post(body)
took = time.monotonic() - t
after = hwm()
door.kill(); door.wait()
answer = json.loads(out)
assert status == 200 and answer["result"]["task"]["id"] == "TP-ROOT-BENCH", out[:300]
print(f"{os.path.basename(binary)}: body {len(body) >> 10} KiB, answer {len(out) >> 10} KiB, "
      f"VmHWM {before} -> {after} KiB (+{after - before} KiB), {took:.2f} s")
