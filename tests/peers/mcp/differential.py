"""The engine and lifecycle suites' CLI calls, replayed as typed MCP tool calls through the
official Python MCP SDK: the same result and the same store.

Usage: tests/peers/mcp/differential.py RECORD_DIR SPECMINT_BINARY [--postgres QUERY]

RECORD_DIR is what `SPECMINT_RECORD=RECORD_DIR cargo test --test it -- envelope_engine::
task_lifecycle::` wrote (cli/tests/it/common.rs, `Recording`): for every `envelope` or `task`
command a test ran on a SQLite store, its arguments, stdin, the files it named, its exit
status and JSON, and copies of the store before (`ID.pre.db`) and after (`ID.post.db`).

Each call is replayed on a copy of the store as it was before it, through `specmint mcp
--store COPY` (with `--ledger FILE` for `task bind`), as the tool the call maps to: an
envelope becomes the tool named by its action with the other members as arguments, `task
submit` becomes `task_submit {envelope}`, and so on. The tool's structured result must equal
the CLI's JSON, `isError` must be exactly the CLI's exit 1, and the store after must equal the
CLI's store after, table for table (timestamps read as equal; a serde position in a message
is masked, since it points into text the caller of a typed tool never wrote). Calls a typed tool cannot
express are counted and skipped: text that is not a JSON object (a typed call carries JSON),
an envelope whose `protocol_version` is not 0.1 or whose action is not a tool name (no tool
to call), usage errors (exit 2), and commands without a tool (`envelope new`, `claim
--next`, `list --counts`, `show --history`).

With `--postgres QUERY` (what scripts/postgres.sh start prints), the same calls are replayed on
PostgreSQL: the server runs `--store postgresql:///mcp_differential?QUERY`, a database made
anew; before each call its tables are emptied and filled with the rows of the SQLite store
before (one `psql` session for the whole run), and after it they must hold the rows of the
CLI's SQLite store after. The server keeps its one connection throughout. A store before in a
layout only an older SQLite store has (the migration tests') is skipped.
"""

import asyncio
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from session import Server

ROOT = Path(__file__).resolve().parents[3]
# The vocabulary, in the spec's order: one branch of the generated schema's envelope per action.
ACTIONS = [
    branch["properties"]["action"]["const"]
    for branch in json.loads(
        (ROOT / "generated/schema/action_envelope.schema.json").read_text("utf-8")
    )["$defs"]["envelope"]["oneOf"]
]
VERBOSE = bool(os.environ.get("MCP_DIFFERENTIAL_VERBOSE"))
TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})")


POSITION = re.compile(r" at line \d+ column \d+")


def positionless(value):
    """VALUE with serde's ` at line L column C` masked in every string: a typed call has no
    text of its own, so the position is in the envelope the tool wrote (`protocol_version`
    and `action` first, then the arguments), not the caller's, and differs from the CLI's
    for that reason alone."""
    if isinstance(value, str):
        return POSITION.sub(" at line L column C", value)
    if isinstance(value, list):
        return [positionless(v) for v in value]
    if isinstance(value, dict):
        return {k: positionless(v) for k, v in value.items()}
    return value


class Skip(Exception):
    """A call no typed tool can express."""


def options(args: list) -> tuple:
    """(positional, {flag: value}, {switch}) of a CLI argument list after the command."""
    positional, values, switches = [], {}, set()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("--store", "--reason", "--state", "--evidence", "--ledger", "--context", "--intent"):
            values[arg] = args[i + 1]
            i += 2
            continue
        if arg.startswith("--"):
            switches.add(arg)
        else:
            positional.append(arg)
        i += 1
    return positional, values, switches


def read_json(record: dict, source: str):
    """The JSON a FILE or `-` argument holds, or Skip when it is not a JSON value."""
    text = record["stdin"] if source == "-" else record["files"].get(source)
    if text is None:
        raise Skip("unreadable file")
    try:
        return json.loads(text)
    except ValueError:
        raise Skip("not JSON") from None


def tool_call(record: dict) -> tuple:
    """(tool, arguments, ledger text or None) for a recorded call."""
    family, command, *rest = record["args"]
    positional, values, switches = options(rest)
    if family == "envelope" and command == "apply" and len(positional) == 1:
        envelope = read_json(record, positional[0])
        if not isinstance(envelope, dict):
            raise Skip("not a JSON object")
        if envelope.get("protocol_version") != "0.1" or envelope.get("action") not in ACTIONS:
            raise Skip("no tool for this protocol_version or action")
        arguments = {k: v for k, v in envelope.items() if k not in ("protocol_version", "action")}
        return envelope["action"], arguments, None
    if family == "envelope" and command == "show" and len(positional) == 1:
        return "package_show", {"package_id": positional[0]}, None
    if family != "task" or switches - {"--claimable"}:
        raise Skip(f"no tool for `{family} {command}` {sorted(switches)}")
    if command == "submit" and len(positional) == 1:
        return "task_submit", {"envelope": read_json(record, positional[0])}, None
    if command == "list" and not positional:
        arguments = {}
        if "--state" in values:
            arguments["state"] = values["--state"]
        if "--claimable" in switches:
            arguments["claimable"] = True
        return "task_list", arguments, None
    if switches:
        raise Skip("a switch only list takes")
    if len(positional) == 1:
        task_id = positional[0]
        if command in ("claim", "show"):
            return f"task_{command}", {"task_id": task_id}, None
        if command == "reject" and "--reason" in values:
            return "task_reject", {"task_id": task_id, "reason": values["--reason"]}, None
        if command == "complete" and "--evidence" in values:
            evidence = read_json(record, values["--evidence"])
            return "task_complete", {"task_id": task_id, "evidence": evidence}, None
        if command == "bind" and "--ledger" in values:
            ledger = record["files"].get(values["--ledger"])
            if ledger is None:
                raise Skip("unreadable ledger")
            if record["json"].get("code") == "invalid_ledger":
                # The ledger is the operator's: the server refuses an invalid one at start.
                raise Skip("an invalid ledger, which stops `mcp --ledger` at start")
            return "task_bind", {"task_id": task_id}, ledger
    if command == "move" and len(positional) == 2:
        arguments = {"task_id": positional[0], "state": positional[1]}
        if "--reason" in values:
            arguments["reason"] = values["--reason"]
        return "task_move", arguments, None
    raise Skip(f"no tool for `task {command}` with these arguments")


def masked(row: dict) -> tuple:
    """A row as sorted (column, value) pairs, timestamps masked."""
    return tuple(sorted((k, TIME.sub("<time>", v) if isinstance(v, str) else v) for k, v in row.items()))


def sqlite_rows(db: Path) -> dict:
    """{table: [row as a dict]} of every table of DB but SQLite's own."""
    conn = sqlite3.connect(db)
    try:
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        out = {}
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            names = [d[0] for d in cursor.description]
            out[table] = [dict(zip(names, row)) for row in cursor]
        return out
    finally:
        conn.close()


def dump(db: Path) -> dict:
    """Every table's rows, sorted, timestamps masked; a store without rows reads as none."""
    if not db.exists():
        return {}
    return {table: sorted((masked(r) for r in rows), key=repr)
            for table, rows in sqlite_rows(db).items() if rows and table != "specmint_schema"}


class SqliteWork:
    """The replay's store as a SQLite file: replaced by a copy of each call's store before."""

    def __init__(self, tmp: Path):
        self.path = tmp / "work.db"
        self.store = str(self.path)

    def place(self, source: Path | None) -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        if source is not None:
            shutil.copyfile(source, self.path)

    def dump(self) -> dict:
        return dump(self.path)


def literal(value) -> str:
    """VALUE as an SQL literal (standard_conforming_strings: only `'` is doubled)."""
    if value is None:
        return "NULL"
    if isinstance(value, int):
        return str(value)
    return "'" + str(value).replace("'", "''") + "'"


class PostgresWork:
    """The replay's store as a PostgreSQL database, refilled before each call through one psql
    session (a process per call would cost more than the calls)."""

    def __init__(self, query: str, binary: str):
        admin = f"postgresql:///postgres?{query}"
        for statement in ("DROP DATABASE IF EXISTS mcp_differential WITH (FORCE)",
                          "CREATE DATABASE mcp_differential"):
            subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", admin, "-c", statement],
                           check=True, env={**os.environ, "PGOPTIONS": "-c client_min_messages=warning"})
        self.store = f"postgresql:///mcp_differential?{query}"
        for family in ("task", "envelope"):
            subprocess.run([binary, family, "init", "--store", self.store], check=True,
                           stdout=subprocess.DEVNULL)
        self.psql = subprocess.Popen(
            ["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", self.store],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        columns = json.loads(self.ask(
            "SELECT json_object_agg(table_name, columns) FROM (SELECT table_name, "
            "json_agg(column_name::text ORDER BY column_name) AS columns FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name <> 'specmint_schema' GROUP BY table_name) t"))
        self.columns = {table: set(names) for table, names in columns.items()}

    def ask(self, sql: str) -> str:
        """What SQL prints (psql ends at an error: then this raises)."""
        self.psql.stdin.write(sql.rstrip().rstrip(";") + ";\n\\echo __done__\n")
        self.psql.stdin.flush()
        lines = []
        while True:
            line = self.psql.stdout.readline()
            if not line:
                raise RuntimeError(f"psql ended at: {sql[:300]}")
            if line == "__done__\n":
                return "".join(lines)
            lines.append(line)

    def place(self, source: Path | None) -> None:
        rows = sqlite_rows(source) if source is not None else {}
        rows.pop("specmint_schema", None)
        for table, found in rows.items():
            if table not in self.columns or any(set(r) != self.columns[table] for r in found):
                raise Skip("a store layout only an older SQLite store has")
        statements = ["BEGIN", "SET LOCAL session_replication_role = replica"]
        statements += [f"DELETE FROM \"{t}\"" for t in sorted(self.columns)]
        for table, found in rows.items():
            for row in found:
                names = ", ".join(f'"{k}"' for k in row)
                values = ", ".join(literal(v) for v in row.values())
                statements.append(f'INSERT INTO "{table}" ({names}) VALUES ({values})')
        statements.append("COMMIT")
        self.ask(";\n".join(statements))

    def dump(self) -> dict:
        parts = ", ".join(f"'{t}', (SELECT coalesce(json_agg(x), '[]') FROM \"{t}\" x)"
                          for t in sorted(self.columns))
        data = json.loads(self.ask(f"SELECT json_build_object({parts})"))
        return {table: sorted((masked(r) for r in rows), key=repr) for table, rows in data.items() if rows}

    def close(self) -> None:
        self.psql.stdin.close()
        self.psql.wait()


async def check_tools(session) -> None:
    tools = {t.name: t for t in (await session.list_tools()).tools}
    expected = ACTIONS + ["package_show", "task_submit", "task_claim", "task_move", "task_complete",
                          "task_reject", "task_show", "task_list", "task_bind"]
    assert list(tools) == expected, list(tools)
    for action in ACTIONS:
        schema = tools[action].input_schema
        assert schema["required"] == ["action_id", "package_id", "expected_revision", "basis", "payload"], schema
        assert schema["additionalProperties"] is False, schema
    assert tools["task_bind"].input_schema["properties"].keys() == {"task_id"}, tools["task_bind"]


async def check_own_refusals(session, work) -> None:
    """What only the tools can be asked: a ledger from the caller, a coerced revision."""
    work.place(None)
    for arguments, start in [
        ({"task_id": "t-1"}, "ledger_not_configured: "),
        ({"task_id": "t-1", "ledger": ["fs_read"]}, "invalid_arguments: this tool takes no argument `ledger`"),
    ]:
        result = await session.call_tool("task_bind", arguments)
        assert result.is_error and result.content[0].text.startswith(start), result
    envelope = {"action_id": "a-1", "package_id": "pkg_x", "expected_revision": "0", "basis": {},
                "payload": {"input_id": "i-1", "kind": "text", "content": "c", "source": "operator",
                            "disposition": "incorporated"}}
    result = await session.call_tool("record_input", envelope)
    assert result.is_error and result.content[0].text.startswith("INVALID_ENVELOPE: "), result
    result = await session.call_tool("record_input", dict(envelope, action="cancel"))
    assert result.is_error and result.content[0].text.startswith("INVALID_ENVELOPE: `action` is the tool's"), result


async def main(record_dir: str, binary: str, postgres: str | None) -> int:
    records = sorted(Path(record_dir).glob("*.json"))
    compared, skipped, failures = Counter(), Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        work = PostgresWork(postgres, binary) if postgres else SqliteWork(Path(tmp))
        ledger_file = Path(tmp) / "ledger.json"
        # One session for every call without a ledger: the server holds its store (a SQLite
        # file replaced under it is opened anew; a PostgreSQL database is refilled in place).
        async with Server(binary, "--store", work.store) as plain:
            await check_tools(plain.session)
            await check_own_refusals(plain.session, work)
            for path in records:
                record = json.loads(path.read_text("utf-8"))
                name = f"{record['test']}: {' '.join(record['args'][:2])} ({path.stem})"
                if record["status"] == 2 or record["pre"] is False:
                    skipped["usage error or not a store"] += 1
                    continue
                try:
                    tool, arguments, ledger = tool_call(record)
                    pre = path.with_name(f"{path.stem}.pre.db") if record["pre"] else None
                    work.place(pre)
                except Skip as why:
                    skipped[str(why)] += 1
                    continue
                if VERBOSE:
                    print(f"  {name}: {tool}", flush=True)
                if ledger is None:
                    result = await asyncio.wait_for(plain.session.call_tool(tool, arguments), 60)
                else:
                    ledger_file.write_text(ledger, "utf-8")
                    async with asyncio.timeout(60), Server(
                            binary, "--store", work.store, "--ledger", str(ledger_file)) as bound:
                        result = await asyncio.wait_for(bound.session.call_tool(tool, arguments), 60)
                got = positionless(result.structured_content)
                want = positionless(record["json"])
                problems = []
                if got != want:
                    problems.append(f"result {json.dumps(got)} != CLI {json.dumps(want)}")
                if bool(result.is_error) != (record["status"] == 1):
                    problems.append(f"isError {result.is_error} but the CLI exited {record['status']}")
                if record["status"] == 1:
                    text = result.content[0].text if result.content else ""
                    code = want.get("code") or (want.get("errors") or [{}])[0].get("code")
                    if not text.startswith(f"{code}: "):
                        problems.append(f"refusal text {text!r} does not start with `{code}: `")
                post = path.with_name(f"{path.stem}.post.db")
                if work.dump() != dump(post):
                    problems.append("the store after differs from the CLI's")
                if problems:
                    failures.append(f"{name}: {tool} {json.dumps(arguments)[:300]}: " + "; ".join(problems))
                compared[tool] += 1
        if postgres:
            work.close()
    total = sum(compared.values())
    backend = "PostgreSQL" if postgres else "SQLite"
    print(f"mcp_differential ({backend}): {total} CLI calls replayed as MCP tool calls through the Python SDK, "
          f"{len(failures)} differ; {sum(skipped.values())} skipped")
    for tool, n in sorted(compared.items()):
        print(f"  {tool}: {n}")
    for why, n in sorted(skipped.items()):
        print(f"  skipped ({why}): {n}")
    for failure in failures:
        print(f"DIFFERS {failure}")
    # Every tool was exercised, refusals and replays among them.
    missing = set(ACTIONS + ["package_show", "task_submit", "task_claim", "task_move", "task_complete",
                             "task_reject", "task_show", "task_list", "task_bind"]) - set(compared)
    if missing:
        print(f"no recorded call reached {sorted(missing)}")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) not in (3, 5) or (len(sys.argv) == 5 and sys.argv[3] != "--postgres"):
        sys.exit("usage: differential.py RECORD_DIR SPECMINT_BINARY [--postgres QUERY]")
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[4] if len(sys.argv) == 5 else None)))
