"""Load and faults on `specmint a2a serve` (issue 34, item 7, the door's half).

    .venv/bin/python scripts/bench_a2a_load.py SPECMINT PACK [--clients 64] [--landings 8]
        [--idle 50] [--slow 10]

Starts the door with a token over a fresh store, holds IDLE silent connections and SLOW
connections that drip a request head a byte every 0.5 s (each reopened as soon as the door's
header timeout closes it), and meanwhile runs CLIENTS official a2a-sdk clients at once, each
landing PACK LANDINGS times in a row (the extension activated, the token sent by the SDK's
AuthInterceptor). Then checks that every landing was answered with a Task, that the store holds
exactly one passport per answer (none lost) and that each is whole JSON naming its own id (none
torn), and prints the landing latencies' p50/p99 and the throughput. Exit 1 on any failure.
"""

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from a2a.client import A2ACardResolver, ClientCallContext, ClientConfig, create_client
from a2a.client.auth.credentials import CredentialService
from a2a.client.auth.interceptor import AuthInterceptor
from a2a.client.service_parameters import ServiceParametersFactory, with_a2a_extensions
from a2a.types import a2a_pb2

URI = "https://taskpack.org/a2a/ext/taskpack/v1"
TOKEN = "bench-token"


class Token(CredentialService):
    async def get_credentials(self, security_scheme_name, context):
        return TOKEN


async def hold_idle(host, port, stop, opened):
    """One silent connection, reopened whenever the door closes it."""
    while not stop.is_set():
        reader, writer = await asyncio.open_connection(host, port)
        opened.append(1)
        closed = asyncio.ensure_future(reader.read())
        await asyncio.wait([closed, asyncio.ensure_future(stop.wait())], return_when=asyncio.FIRST_COMPLETED)
        writer.close()


async def hold_slow(host, port, stop, opened):
    """One connection dripping a request head a byte every 0.5 s, reopened once cut."""
    head = b"GET /.well-known/agent-card.json HTTP/1.1\r\nHost: door\r\nX-Slow: " + b"x" * 10_000
    while not stop.is_set():
        reader, writer = await asyncio.open_connection(host, port)
        opened.append(1)
        try:
            for byte in head:
                if stop.is_set():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.5)
        except (ConnectionError, OSError):
            pass
        writer.close()


async def land(client, pack, landings, latencies, answers, errors):
    active = ClientCallContext(service_parameters=ServiceParametersFactory.create([with_a2a_extensions([URI])]))
    request = a2a_pb2.SendMessageRequest(message=a2a_pb2.Message(
        message_id="m-bench", role=a2a_pb2.ROLE_USER,
        parts=[a2a_pb2.Part(raw=pack.read_bytes(), filename=pack.name, media_type="application/octet-stream")]))
    for _ in range(landings):
        started = time.perf_counter()
        try:
            events = [e async for e in client.send_message(request, context=active)]
            task = events[0].task
            answers.append(task.metadata[URI]["landed"]["passport_id"])
        except Exception as e:  # noqa: BLE001 - every failure is counted and shown
            errors.append(repr(e))
        latencies.append(time.perf_counter() - started)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("specmint")
    parser.add_argument("pack", type=Path)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--landings", type=int, default=8)
    parser.add_argument("--idle", type=int, default=50)
    parser.add_argument("--slow", type=int, default=10)
    parser.add_argument("--header-timeout", default="10")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="specmint-a2a-load-"))
    (work / "tokens").write_text(TOKEN + "\n", "utf-8")
    store = work / "store"
    server = subprocess.Popen(
        [args.specmint, "a2a", "serve", "--passports", str(store), "--listen", "127.0.0.1:0",
         "--token-file", str(work / "tokens"), "--header-timeout", args.header_timeout],
        stdout=subprocess.PIPE, text=True,
    )
    failures = []
    try:
        base = server.stdout.readline().strip()[len("listening on "):]
        host, port = base[len("http://"):].rstrip("/").rsplit(":", 1)
        stop = asyncio.Event()
        opened_idle, opened_slow = [], []
        holders = [asyncio.ensure_future(hold_idle(host, int(port), stop, opened_idle)) for _ in range(args.idle)]
        holders += [asyncio.ensure_future(hold_slow(host, int(port), stop, opened_slow)) for _ in range(args.slow)]
        await asyncio.sleep(0.5)
        limits = httpx.Limits(max_connections=args.clients, max_keepalive_connections=args.clients)
        async with httpx.AsyncClient(timeout=120, limits=limits) as http:
            card = await A2ACardResolver(http, base).get_agent_card()
            client = await create_client(card, ClientConfig(streaming=False, httpx_client=http),
                                         interceptors=[AuthInterceptor(Token())])
            latencies, answers, errors = [], [], []
            started = time.perf_counter()
            await asyncio.gather(*(land(client, args.pack, args.landings, latencies, answers, errors)
                                   for _ in range(args.clients)))
            elapsed = time.perf_counter() - started
            card_started = time.perf_counter()
            await A2ACardResolver(http, base).get_agent_card()
            card_latency = time.perf_counter() - card_started
        stop.set()
        for holder in holders:
            holder.cancel()
        await asyncio.gather(*holders, return_exceptions=True)

        expected = args.clients * args.landings
        stored = sorted(p for p in store.glob("*.json") if not p.name.startswith("."))
        torn = []
        for path in stored:
            try:
                if json.loads(path.read_text("utf-8"))["id"] != path.stem:
                    torn.append(path.name)
            except (ValueError, KeyError) as e:
                torn.append(f"{path.name}: {e}")
        missing = sorted(set(answers) - {p.stem for p in stored})
        print(f"landings: {len(answers)} answered of {expected}, {len(errors)} errors; "
              f"store: {len(stored)} passports, {len(missing)} answered but missing, {len(torn)} torn")
        print(f"held: {args.idle} idle ({len(opened_idle)} opened in all), "
              f"{args.slow} slow-drip ({len(opened_slow)} opened in all)")
        print(f"landing latency: p50 {percentile(latencies, 50) * 1000:.0f} ms, "
              f"p99 {percentile(latencies, 99) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms, "
              f"mean {statistics.mean(latencies) * 1000:.0f} ms")
        print(f"throughput: {expected / elapsed:.1f} landings/s ({elapsed:.2f} s for {expected}); "
              f"the card after: {card_latency * 1000:.0f} ms")
        if errors:
            failures.append(f"errors: {errors[:3]}")
        if len(answers) != expected or len(stored) != expected or missing or torn:
            failures.append("lost or torn landings")
    finally:
        server.terminate()
        code = server.wait(timeout=30)
        if code != 0:
            failures.append(f"the door exited {code} on SIGTERM")
    for failure in failures:
        print(f"FAIL {failure}")
    print("load: " + ("all answered, none lost or torn" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
