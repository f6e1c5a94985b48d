"""`specmint mcp` (team_handoff) driven by the official Python MCP SDK (pinned in
tests/peers/requirements.txt): the interop proof that a real client from another ecosystem
speaks to the server.

Usage: tests/peers/mcp/client.py SPECMINT_BINARY

What only this client proves, through the SDK's own handshake, models and transport: the
server initializes, its tool list parses (one tool, `team_handoff`, showing the minimal packet
and taking only `packet`), a packet files both as an object and as a JSON-encoded string (the
file 0600, its size the reported `bytes`, the structured result the text's JSON), and a refusal
comes back as the SDK's error result for every shape of `packet` the SDK carries (absent, null,
a string, a list, an object), each with the code tests/fixtures/handoff_refusals.json states.

Each refusal case lives in that fixture, and every case of it (every refusal code of the
spec's table but `no_valid_packets`) runs through the library, the CLI and the MCP server in
cli/tests/it/handoff.rs (`every_refusal_code_through_*`, with a raw JSON-RPC client:
test-support/src/mcp_client.rs), which also checks that a refusal writes nothing but its one
tool_calls.jsonl row. The SDK sends the same bytes for the other cases, so they are not
repeated here.
"""

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from session import Server

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = json.loads((ROOT / "tests/fixtures/handoff_refusals.json").read_text("utf-8"))
MINIMAL = ROOT / "generated/rust/task_packet.rs"
LEG = "team_packets/task-1/r2/planner-to-executor"
# One fixture case for each shape of the `packet` argument the SDK has to carry.
SDK_CASES = {
    "absent": "no packet argument",
    "null": "null",
    "string": "a string that is not JSON",
    "list": "not an object",
    "object": "misspelt key",
}


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


def check_tools(tools) -> None:
    assert [t.name for t in tools] == ["team_handoff"], tools
    tool = tools[0]
    assert minimal_packet_example() in tool.description, tool.description
    schema = tool.input_schema
    assert schema["required"] == ["packet"], schema
    assert sorted(schema["properties"]) == ["locale", "packet"], schema  # locale: issue 50
    assert "packet" in schema["$defs"], schema


def shape(case: dict) -> str:
    if "packet" not in case:
        return "absent"
    packet = case["packet"]
    return {type(None): "null", str: "string", list: "list", dict: "object"}[type(packet)]


async def filings(binary: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        write_member(home, FIXTURE["default_agent"], FIXTURE["default_agent_toml"])
        async with Server(binary, "--home", str(home), "--agent", FIXTURE["default_agent"]) as server:
            check_tools((await server.session.list_tools()).tools)
            packet = {"packet_id": "pk-1", "objective": "do it", "output_format": "markdown"}
            result = await server.session.call_tool("team_handoff", {"packet": packet})
            assert not result.is_error, result
            filed = json.loads(result.content[0].text)
            assert filed["ok"] is True and filed["path"] == f"{LEG}.json", filed
            assert result.structured_content == filed, result
            assert (home / filed["path"]).stat().st_size == filed["bytes"], filed
            assert oct((home / filed["path"]).stat().st_mode & 0o777) == "0o600"
            # The same packet as a JSON-encoded string re-files its own slot.
            result = await server.session.call_tool("team_handoff", {"packet": json.dumps(packet)})
            assert not result.is_error, result
            assert json.loads(result.content[0].text)["path"] == f"{LEG}.json", result


async def refusal(binary: str, case: dict) -> None:
    """CASE (one without a setup, by the default agent) through the SDK: its error result."""
    assert "setup" not in case and "agent" not in case and "pad" not in case, case
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        toml = case["agent_toml"] if "agent_toml" in case else FIXTURE["default_agent_toml"]
        if toml is not None:
            write_member(home, FIXTURE["default_agent"], toml)
        arguments = {"packet": case["packet"]} if "packet" in case else {}
        async with Server(binary, "--home", str(home), "--agent", FIXTURE["default_agent"]) as server:
            result = await server.session.call_tool("team_handoff", arguments)
    text = result.content[0].text
    name = case["name"]
    assert result.is_error, (name, text)
    code, _, message = text.partition(": ")
    assert code == case["code"], (name, text)
    if "message_starts" in case:
        assert message.startswith(case["message_starts"]), (name, text)


async def main(binary: str) -> None:
    await filings(binary)
    by_name = {case["name"]: case for case in FIXTURE["cases"]}
    for kind, name in SDK_CASES.items():
        case = by_name[name]
        assert shape(case) == kind, (name, kind)
        await refusal(binary, case)
    assert set(SDK_CASES) == {shape(case) for case in FIXTURE["cases"]}, "a packet shape without an SDK case"
    codes = sorted({by_name[name]["code"] for name in SDK_CASES.values()})
    print(f"mcp client: initialize, tools/list, 2 filings and {len(SDK_CASES)} refusals "
          f"({', '.join(SDK_CASES)} packet; {', '.join(codes)}) through the Python MCP SDK: ok; "
          f"the fixture's {len(FIXTURE['cases'])} refusal cases run in cli/tests/it/handoff.rs")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1]))
