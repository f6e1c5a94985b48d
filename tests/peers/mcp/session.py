"""One `specmint mcp` session through the official Python MCP SDK (pinned in
tests/peers/requirements.txt): the one SDK client both tests/peers/mcp/client.py and
tests/peers/mcp/differential.py drive the server with. (The Rust tests' raw JSON-RPC client is
test-support/src/mcp_client.rs.)

    async with Server(BINARY, "--home", HOME, "--agent", AGENT) as server:
        result = await server.session.call_tool("team_handoff", {"packet": ...})

Not run by itself; the two scripts beside it import it (Python puts a script's own folder on
its import path).
"""

from contextlib import AsyncExitStack

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


class Server:
    """`BINARY mcp ARGS...` over stdio, initialized: `session` is the SDK's ClientSession,
    `init` what `initialize` answered (the server must name itself `specmint`)."""

    def __init__(self, binary: str, *args: str):
        self.params = StdioServerParameters(command=binary, args=["mcp", *args])

    async def __aenter__(self):
        self._stack = AsyncExitStack()
        try:
            read, write = await self._stack.enter_async_context(stdio_client(self.params))
            self.session = await self._stack.enter_async_context(ClientSession(read, write))
            self.init = await self.session.initialize()
        except BaseException:
            await self._stack.aclose()
            raise
        assert self.init.server_info.name == "specmint", self.init
        return self

    async def __aexit__(self, *exc):
        return await self._stack.__aexit__(*exc)
