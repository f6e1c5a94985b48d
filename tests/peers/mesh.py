"""A mesh of machines in one test (issue 34, item 8): three network namespaces joined by veth
pairs, one holding PostgreSQL with TLS, two holding agents that claim tasks from it with
`sslmode=verify-full` and hand a pack to each other's A2A door over TLS with a bearer token.

    tests/peers/mesh.py SPECMINT_BINARY

Made by the test itself, as root, removed after: namespaces `sm<pid>db`, `sm<pid>a`,
`sm<pid>b`, three veth pairs, addresses in 10.77.0.0/16 that exist only inside them (the
machine's own network is not touched). The certificates (one test CA, a server certificate per
address) are made by tests/peers/harness.py.

    db  10.77.1.1 ---- 10.77.1.2  a
    db  10.77.2.1 ---- 10.77.2.2  b
    a   10.77.3.1 ---- 10.77.3.2  b

Checked: every task claimed exactly once by the workers of both agents; the pack sent by `a`
lands once in `b`'s passports; nothing answers on a loopback-only or unauthenticated path (the
server and the doors listen on their veth addresses only, the database refuses a connection
without TLS, a door refuses a landing without the token, a `verify-full` connection refuses a
certificate another CA signed); no password in any output. Where namespaces cannot be made (not
root, no `ip`), it says SKIPPED and why, on stdout and stderr, and exits 0: never a silent pass.
"""

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import certificates, check, failures  # noqa: E402


def skip(why):
    message = f"mesh: SKIPPED: {why} (the mesh test needs root and `ip netns`)"
    print(message, flush=True)
    print(message, file=sys.stderr, flush=True)
    sys.exit(0)


def sh(*args, check_status=True, **kwargs):
    out = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    if check_status and out.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))}: exit {out.returncode}: {out.stderr.strip()}")
    return out


# ---------------------------------------------------------------------------------------------
# The network: namespaces and veth pairs


class Mesh:
    def __init__(self):
        tag = f"sm{os.getpid() % 100000}"
        self.ns = {"db": f"{tag}db", "a": f"{tag}a", "b": f"{tag}b"}
        self.links = [
            ("db", "a", "10.77.1.1", "10.77.1.2"),
            ("db", "b", "10.77.2.1", "10.77.2.2"),
            ("a", "b", "10.77.3.1", "10.77.3.2"),
        ]
        self.made = []

    def up(self):
        for name in self.ns.values():
            sh("ip", "netns", "add", name)
            self.made.append(name)
            sh("ip", "-n", name, "link", "set", "lo", "up")
        for i, (left, right, left_addr, right_addr) in enumerate(self.links):
            # veth names are at most 15 bytes; the namespace's tag keeps them unique.
            l_dev, r_dev = f"{self.ns['db'][:-2]}{i}l", f"{self.ns['db'][:-2]}{i}r"
            sh("ip", "link", "add", l_dev, "netns", self.ns[left], "type", "veth",
               "peer", "name", r_dev, "netns", self.ns[right])
            for side, dev, addr in ((left, l_dev, left_addr), (right, r_dev, right_addr)):
                sh("ip", "-n", self.ns[side], "addr", "add", f"{addr}/24", "dev", dev)
                sh("ip", "-n", self.ns[side], "link", "set", dev, "up")

    def down(self):
        for name in self.made:
            pids = sh("ip", "netns", "pids", name, check_status=False).stdout.split()
            for pid in pids:
                try:
                    os.kill(int(pid), 9)
                except (ProcessLookupError, ValueError):
                    pass
            sh("ip", "netns", "del", name, check_status=False)

    def run(self, where, *args, **kwargs):
        return sh("ip", "netns", "exec", self.ns[where], *args, **kwargs)

    def popen(self, where, *args, **kwargs):
        return subprocess.Popen(["ip", "netns", "exec", self.ns[where], *map(str, args)], **kwargs)


# ---------------------------------------------------------------------------------------------
# The database: a throwaway PostgreSQL cluster in the `db` namespace, TLS only over TCP


def start_database(mesh, work):
    """scripts/postgres.sh's throwaway cluster, started inside `db`: listening on db's two veth
    addresses only (and its Unix socket), `ssl = on` with the test CA's certificate for both,
    and pg_hba admitting TCP connections over TLS only (the script's TLS mode). Its connections
    are trusted, so the password the agents' URLs carry is not checked: it is there to prove
    that no answer prints it."""
    home = work / "pg"
    env = dict(os.environ, SPECMINT_PG_LISTEN="10.77.1.1,10.77.2.1", SPECMINT_PG_PORT="5432",
               SPECMINT_PG_CERT=str(work / "db.pem"), SPECMINT_PG_KEY=str(work / "db.key"))
    query = mesh.run("db", ROOT / "scripts" / "postgres.sh", "start", home, env=env).stdout.strip()
    user = dict(pair.split("=", 1) for pair in query.split("&"))["user"]
    return {"port": 5432, "home": home, "user": user}


def stop_database(mesh, work):
    mesh.run("db", ROOT / "scripts" / "postgres.sh", "stop", work / "pg", check_status=False)


# ---------------------------------------------------------------------------------------------
# The checks


TASK = {
    "objective": "Render the quarterly charts",
    "outputFormat": "a commit",
    "toolAndSourceGuidance": "r",
    "boundaries": ["no schema changes"],
    "filesAndInterfaces": ["charts/q3.R"],
    "acceptanceCheck": {"passFailCommand": "make charts", "endToEndVerification": "open the PDF"},
    "contextID": "ctx-mesh",
}
TASKS = 24
WORKERS_PER_AGENT = 4
PASSWORD = "s3cr3t-" + secrets.token_hex(8)


def claims(mesh, bin_, urls):
    """Both agents' workers claim with --next until none is left; every task once."""
    def worker(where):
        won, errors = [], []
        while True:
            out = mesh.run(where, bin_, "task", "claim", "--next", "--store", urls[where], "--format", "json",
                           check_status=False)
            if PASSWORD in out.stdout + out.stderr:
                errors.append(f"{where}: the password in an answer")
            if out.returncode != 0:
                errors.append(f"{where}: claim: exit {out.returncode}: {out.stderr.strip()[:300]}")
                return where, won, errors
            task = json.loads(out.stdout)["task_id"]
            if task is None:
                return where, won, errors
            won.append(task)

    with ThreadPoolExecutor(max_workers=2 * WORKERS_PER_AGENT) as pool:
        results = list(pool.map(worker, ["a", "b"] * WORKERS_PER_AGENT))
    return results



def send(url, ca, token, pack):
    """Run inside agent a's namespace: the official A2A SDK fetches b's card over TLS (verified
    against the test CA), lands PACK with the token, and tries once without it. Prints JSON."""
    import ssl

    import httpx
    from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, create_client
    from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions
    from a2a.types import a2a_pb2

    uri = "https://taskpack.org/a2a/ext/taskpack/v1"
    context = ssl.create_default_context(cafile=ca)
    path = Path(pack)
    message = a2a_pb2.SendMessageRequest(message=a2a_pb2.Message(
        message_id="m-mesh", role=a2a_pb2.ROLE_USER,
        parts=[a2a_pb2.Part(raw=path.read_bytes(), filename=path.name, media_type="application/octet-stream")]))

    async def go():
        report = {}
        async with httpx.AsyncClient(timeout=30, verify=context) as anonymous:
            card = await A2ACardResolver(anonymous, url).get_agent_card()
            report["schemes"] = sorted(card.security_schemes.keys())
            body = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "TP-NONE"}}
            r = await anonymous.post(url, json=body, headers={"A2A-Extensions": uri, "A2A-Version": "1.0"})
            report["anonymous"] = [r.status_code, r.headers.get("www-authenticate")]
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(timeout=30, verify=context, headers=headers) as http:
            client = await create_client(card, ClientConfig(streaming=False, httpx_client=http))
            active = ClientCallContext(service_parameters=ServiceParametersFactory.create([with_a2a_extensions([uri])]))
            events = [e async for e in client.send_message(message, context=active)]
            task = events[0].task if events and events[0].HasField("task") else None
            report["task"] = task.id if task is not None else None
            report["state"] = int(task.status.state) if task is not None else None
        return report

    print(json.dumps(asyncio.run(go())))


def refused_on(mesh, where, host, port):
    """True when nothing accepts a TCP connection at host:port from inside `where`."""
    probe = ("import socket,sys\n"
             "try:\n socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close(); print('open')\n"
             "except OSError as e: print('refused', e)")
    out = mesh.run(where, sys.executable, "-c", probe, host, port, check_status=False)
    return out.stdout.startswith("refused")


def run_mesh(mesh, bin_, work, database):
    python = str(ROOT / ".venv" / "bin" / "python")
    urls = {
        where: f"postgresql://{database['user']}:{PASSWORD}@{host}:{database['port']}/postgres"
               f"?sslmode=verify-full&sslrootcert={work / 'ca.pem'}"
        for where, host in (("a", "10.77.1.1"), ("b", "10.77.2.1"))
    }

    # Tasks, submitted by a.
    for _ in range(TASKS):
        out = mesh.run("a", bin_, "task", "submit", "--store", urls["a"], "-", "--format", "json",
                       input=json.dumps(TASK), check_status=False)
        if out.returncode != 0:
            check("a submits the tasks over verify-full", False, out.stderr.strip()[:400])
            return
    check(f"a submits {TASKS} tasks to the database in another namespace (TLS, verify-full)", True)

    results = claims(mesh, bin_, urls)
    claimed = [t for _, won, _ in results for t in won]
    errors = [e for _, _, errs in results for e in errs]
    by_agent = {w: sum(len(won) for where, won, _ in results if where == w) for w in ("a", "b")}
    check("no claim failed, no password in any answer", not errors, "; ".join(errors[:3]))
    check(f"every task claimed exactly once by {2 * WORKERS_PER_AGENT} workers on two machines "
          f"(a: {by_agent['a']}, b: {by_agent['b']})",
          len(claimed) == TASKS and len(set(claimed)) == TASKS, f"{len(claimed)} claims, {len(set(claimed))} distinct")

    # What must not get through.
    plain = urls["a"].replace("sslmode=verify-full", "sslmode=disable")
    out = mesh.run("a", bin_, "task", "list", "--store", plain, check_status=False)
    check("without TLS the database refuses the agent (exit 2), the password unprinted",
          out.returncode == 2 and PASSWORD not in out.stdout + out.stderr, f"exit {out.returncode}: {out.stderr[:300]}")
    wrong = urls["a"].replace(str(work / "ca.pem"), str(work / "other-ca.pem"))
    out = mesh.run("a", bin_, "task", "list", "--store", wrong, check_status=False)
    check("verify-full refuses a certificate another CA signed (exit 2), the password unprinted",
          out.returncode == 2 and PASSWORD not in out.stdout + out.stderr, f"exit {out.returncode}: {out.stderr[:300]}")
    check("the database listens on its veth addresses only (nothing on its loopback)",
          refused_on(mesh, "db", "127.0.0.1", database["port"]))

    # b's A2A door: TLS, a token, the card's URL the address a reaches.
    token = secrets.token_urlsafe(24)
    (work / "b-tokens").write_text(f"# agent a\n{token}\n", "utf-8")
    door_port = 8443
    public = f"https://10.77.3.2:{door_port}/"
    door = mesh.popen("b", bin_, "a2a", "serve", "--passports", work / "b-home", "--listen", f"10.77.3.2:{door_port}",
                      "--token-file", work / "b-tokens", "--tls-cert", work / "b.pem", "--tls-key", work / "b.key",
                      "--public-url", public, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = door.stdout.readline().strip()
        check("b's door listens over TLS", line.startswith("listening on https://"), line or door.stderr.read()[:400])
        check("b's door answers nothing on its loopback", refused_on(mesh, "b", "127.0.0.1", door_port))

        home = work / "a-home"
        out = mesh.run("a", bin_, "passport", "new", "--passports", home, "--title", "Charts for Q3",
                       "--goal", "hand the charts to b", "--next-step", "render them", "--format", "json")
        ident = json.loads(out.stdout)["passport_id"]
        pack = work / "handoff.taskpack.json"
        mesh.run("a", bin_, "taskpack", "pack", ident, "--passports", home, "--flat", "--out", pack,
                 "--actor", "agent-a", "--machine", "mesh-a")
        out = mesh.run("a", python, __file__, "--send", public, work / "ca.pem", token, pack, check_status=False)
        try:
            report = json.loads(out.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            check("the A2A SDK client ran in a's namespace", False, out.stderr[-800:])
            return
        check("the card declares the bearer scheme the SDK reads", bool(report["schemes"]), str(report))
        check("without the token b's door answers 401 with WWW-Authenticate",
              report["anonymous"][0] == 401 and bool(report["anonymous"][1]), str(report))
        check("with the token the SDK lands a's pack on b over TLS", report["task"] is not None, str(report))
        out = mesh.run("b", bin_, "passport", "list", "--passports", work / "b-home", "--format", "json")
        listed = json.loads(out.stdout)
        ids = [p.get("passport_id", p.get("id")) for p in (listed if isinstance(listed, list) else listed.get("passports", []))]
        check("the pack landed once in b's passports", len(ids) == 1, out.stdout[:400])
    finally:
        door.terminate()
        try:
            door.wait(timeout=10)
        except subprocess.TimeoutExpired:
            door.kill()

def main(bin_):
    if os.geteuid() != 0:
        skip("not root")
    if shutil.which("ip") is None:
        skip("no `ip` command (iproute2)")
    probe = f"smprobe{os.getpid() % 100000}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if made.returncode != 0:
        skip(f"`ip netns add` failed: {made.stderr.strip()}")
    # A namespace is not enough: the mesh joins them with veth pairs.
    veth = subprocess.run(["ip", "-n", probe, "link", "add", "smp0", "type", "veth", "peer", "name", "smp1"],
                          capture_output=True, text=True)
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    if veth.returncode != 0:
        skip(f"`ip link add ... type veth` failed: {veth.stderr.strip()}")

    work = Path(tempfile.mkdtemp(prefix="specmint-mesh-"))
    work.chmod(0o755)
    mesh = Mesh()
    try:
        mesh.up()
        certificates(work, {"db": ["10.77.1.1", "10.77.2.1"], "a": ["10.77.3.1"], "b": ["10.77.3.2"]})
        database = start_database(mesh, work)
        run_mesh(mesh, bin_, work, database)
    finally:
        stop_database(mesh, work)
        mesh.down()
        shutil.rmtree(work, ignore_errors=True)
    print(f"\nmesh: {'all passed' if not failures else f'{len(failures)} failed'}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--send":
        send(*sys.argv[2:6])
        sys.exit(0)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(str(Path(sys.argv[1]).resolve())))
