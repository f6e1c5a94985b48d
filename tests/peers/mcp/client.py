"""`specmint mcp` driven by the official Python MCP SDK (pinned in tests/peers/requirements.txt).

Usage: tests/peers/mcp/client.py SPECMINT_BINARY

A real client from another ecosystem: initialize, list the tools, file a packet, and every
refusal case of tests/fixtures/handoff_refusals.json (the table the Rust tests run through the
library, the CLI and a raw JSON-RPC client), each asserting its code, that nothing but one
tool_calls.jsonl row was written, and that row.
"""

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = json.loads((ROOT / "tests/fixtures/handoff_refusals.json").read_text("utf-8"))
MINIMAL = ROOT / "generated/rust/task_packet.rs"
LEG = "team_packets/task-1/r2/planner-to-executor"


def minimal_packet_example() -> str:
    """MINIMAL_PACKET_EXAMPLE as generated (a Rust string literal of JSON)."""
    for line in MINIMAL.read_text("utf-8").splitlines():
        if line.startswith("pub const MINIMAL_PACKET_EXAMPLE: &str = "):
            literal = line.split(" = ", 1)[1].rstrip(";")
            return json.loads(literal)
    raise SystemExit("MINIMAL_PACKET_EXAMPLE not found")


def write_member(home: Path, agent: str, toml: str) -> None:
    directory = home / "agents" / ".ephemeral" / agent
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "agent.toml").write_text(toml, "utf-8")


def snapshot(home: Path) -> dict:
    return {
        str(p.relative_to(home)): p.read_bytes()
        for p in sorted(home.rglob("*"))
        if p.is_file() and p.name != "tool_calls.jsonl"
    }


def tool_calls(home: Path) -> list:
    log = home / "tool_calls.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text("utf-8").splitlines()]


async def session_call(binary: str, home: Path, agent: str, arguments: dict, check_tools=None):
    params = StdioServerParameters(command=binary, args=["mcp", "--home", str(home), "--agent", agent])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "specmint", init
            if check_tools:
                check_tools((await session.list_tools()).tools)
            return await session.call_tool("team_handoff", arguments)


def check_tools(tools) -> None:
    assert [t.name for t in tools] == ["team_handoff"], tools
    tool = tools[0]
    assert minimal_packet_example() in tool.description, tool.description
    schema = tool.input_schema
    assert schema["required"] == ["packet"], schema
    assert list(schema["properties"]) == ["packet"], schema
    assert "packet" in schema["$defs"], schema


def fill_leg(binary: str, home: Path, count: int) -> None:
    write_member(home, "filler", FIXTURE["default_agent_toml"])
    for i in range(count):
        packet = {"packet_id": f"pk-fill-{i}", "objective": "x", "output_format": "diff"}
        subprocess.run(
            [binary, "handoff", "--home", str(home), "--agent", "filler", "-"],
            input=json.dumps(packet).encode(),
            check=True,
            stdout=subprocess.DEVNULL,
        )


async def refusal(binary: str, case: dict) -> None:
    agent = case.get("agent", FIXTURE["default_agent"])
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        toml = case["agent_toml"] if "agent_toml" in case else FIXTURE["default_agent_toml"]
        if toml is not None:
            plain = agent and "/" not in agent and len(agent) <= 64
            write_member(home, agent if plain else "eph-p1", toml)
        arguments = {}
        if "packet" in case:
            packet = case["packet"]
            pad = case.get("pad")
            if pad:
                text = pad["repeat"] * pad["times"]
                packet = dict(packet, **{pad["key"]: [text] if pad.get("list") else text})
            arguments["packet"] = packet
        setup = case.get("setup")
        if setup == "full_leg":
            fill_leg(binary, home, 100)
        elif setup == "team_packets_is_a_file":
            (home / "team_packets").write_text("")
        before, calls_before = snapshot(home), len(tool_calls(home))
        result = await session_call(binary, home, agent, arguments)
        text = result.content[0].text
        name = case["name"]
        assert result.is_error, (name, text)
        code, _, message = text.partition(": ")
        assert code == case["code"], (name, text)
        if "message_starts" in case:
            assert message.startswith(case["message_starts"]), (name, text)
        assert snapshot(home) == before, (name, "a refusal wrote files")
        calls = tool_calls(home)
        assert len(calls) == calls_before + 1, name
        row = calls[-1]
        assert row["error_class"] == code and row["tool"] == "team_handoff", (name, row)
        detail = row["params"]["detail"]
        assert len(detail) <= 200 and text.startswith(detail), (name, detail)


async def main(binary: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        write_member(home, "eph-p1", FIXTURE["default_agent_toml"])
        packet = {"packet_id": "pk-1", "objective": "do it", "output_format": "markdown"}
        result = await session_call(binary, home, "eph-p1", {"packet": packet}, check_tools)
        assert not result.is_error, result
        filed = json.loads(result.content[0].text)
        assert filed["ok"] is True and filed["path"] == f"{LEG}.json", filed
        assert (home / filed["path"]).stat().st_size == filed["bytes"], filed
        assert oct((home / filed["path"]).stat().st_mode & 0o777) == "0o600"
        # The same packet as a JSON-encoded string re-files its own slot.
        result = await session_call(binary, home, "eph-p1", {"packet": json.dumps(packet)})
        assert json.loads(result.content[0].text)["path"] == f"{LEG}.json", result
    codes = set()
    for case in FIXTURE["cases"]:
        await refusal(binary, case)
        codes.add(case["code"])
    schema = json.loads((ROOT / "generated/schema/task_packet.schema.json").read_text("utf-8"))
    # Every code but reading a leg back's (`no_valid_packets`), which filing never raises.
    table = set(schema["x-error-codes"]["codes"]) - {"no_valid_packets"}
    assert codes == table, codes ^ table
    print(f"mcp_client: initialize, tools/list, 2 filings and {len(FIXTURE['cases'])} refusals "
          f"({len(codes)} codes) through the Python MCP SDK: ok")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
