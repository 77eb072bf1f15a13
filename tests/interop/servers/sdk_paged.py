"""A low-level server from the official MCP Python SDK whose ``tools/list`` is paginated, over stdio.

Run it as ``python tests/interop/servers/sdk_paged.py [--tools N] [--page-size K]`` (defaults: 250 tools,
100 a page). The tools are ``tool_000`` .. ``tool_<N-1>``; every page but the last carries a ``nextCursor``,
and calling any tool answers the text ``"<name> ok"``.

The cursor is the offset of the next page as a string: opaque to the client, as the spec asks, but easy to
read in a log. An unknown cursor or tool name is a JSON-RPC ``-32602`` error.
(spec: 2025-06-18 server/utilities/pagination — "Invalid cursors SHOULD result in an error with code -32602")
"""

from __future__ import annotations

import argparse

import anyio
import mcp.types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError


def build_server(tool_count: int, page_size: int) -> Server:
    """Build the low-level server for ``tool_count`` tools served ``page_size`` at a time."""
    width = max(3, len(str(tool_count - 1)))
    names = [f"tool_{index:0{width}d}" for index in range(tool_count)]
    known = set(names)
    schema = {"type": "object", "properties": {}}

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        cursor = params.cursor if params is not None else None
        start = 0
        if cursor is not None:
            if not cursor.isdigit() or int(cursor) >= tool_count:
                raise MCPError(code=types.INVALID_PARAMS, message=f"invalid cursor {cursor!r}")
            start = int(cursor)
        end = min(start + page_size, tool_count)
        page = [
            types.Tool(name=name, description=f"Paged tool number {name[5:]}.", input_schema=schema)
            for name in names[start:end]
        ]
        return types.ListToolsResult(tools=page, next_cursor=str(end) if end < tool_count else None)

    async def call_tool(
        ctx: ServerRequestContext, params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in known:
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool {params.name!r}")
        return types.CallToolResult(content=[types.TextContent(text=f"{params.name} ok")])

    return Server("sdk-paged", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


async def serve(server: Server) -> None:
    """Serve ``server`` over this process's stdin and stdout until stdin closes."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def main() -> None:
    """Parse the command line and serve."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=250, help="how many tools to serve (default 250)")
    parser.add_argument("--page-size", type=int, default=100, help="tools per tools/list page (default 100)")
    args = parser.parse_args()
    if args.tools < 1 or args.page_size < 1:
        parser.error("--tools and --page-size must be at least 1")
    anyio.run(serve, build_server(args.tools, args.page_size))


if __name__ == "__main__":
    main()
