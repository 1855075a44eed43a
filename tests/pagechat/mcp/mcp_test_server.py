"""A real MCP server, written with the SDK's MCPServer, for the MCP tool tests.

`python mcp_test_server.py --stdio LOG` speaks stdio; `--http PORT LOG` serves
streamable HTTP on 127.0.0.1 and refuses requests without `X-Test-Key: sesame`.
Every cancellation the server receives is appended to LOG, so a test can see
that Stop and timeouts reached the server.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

import uvicorn
from mcp.server.mcpserver import Context, MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

server = MCPServer("pagechat-test")
_log = Path(os.devnull)


def _note(line: str) -> None:
    with _log.open("a", encoding="utf-8") as f:
        f.write(line + "\n")


@server.tool()
def add(a: int, b: int) -> str:
    """Add two whole numbers."""
    return str(a + b)


@server.tool()
async def slow(steps: int, ctx: Context) -> str:
    """Count to `steps`, reporting progress every 0.1 s."""
    try:
        for step in range(1, steps + 1):
            await ctx.report_progress(step, steps, f"step {step} of {steps}")
            await asyncio.sleep(0.1)
    except asyncio.CancelledError:
        _note("cancelled slow")
        raise
    return f"counted to {steps}"


@server.tool()
async def hang() -> str:
    """Never answers."""
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        _note("cancelled hang")
        raise
    return "unreachable"


def extra(text: str) -> str:
    """Added by `grow`."""
    return f"extra: {text}"


@server.tool()
async def grow(ctx: Context) -> str:
    """Adds the tool `extra` and tells the client its tools changed."""
    server.add_tool(extra)
    await ctx.notify_tools_changed()  # the 2026 protocol: subscriptions/listen
    try:
        await ctx.session.send_tool_list_changed()  # the earlier ones
    except Exception as exc:
        _note(f"no legacy notification: {type(exc).__name__}")
    return "grown"


@server.tool()
def crash() -> str:
    """Kills the server process."""
    _note("crashing")
    os._exit(3)


class _RequireKey:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (b"x-test-key", b"sesame") not in scope["headers"]:
            await send({"type": "http.response.start", "status": 401, "headers": []})
            await send({"type": "http.response.body", "body": b"no key"})
            return
        await self.app(scope, receive, send)


def main() -> None:
    global _log
    parser = argparse.ArgumentParser()
    parser.add_argument("--stdio", action="store_true")
    parser.add_argument("--http", type=int, default=0)
    parser.add_argument("log")
    args = parser.parse_args()
    _log = Path(args.log)
    _note(f"started {os.getpid()}")
    if args.stdio:
        server.run("stdio")
        return
    app = _RequireKey(server.streamable_http_app())
    uvicorn.run(app, host="127.0.0.1", port=args.http, log_level="warning")


if __name__ == "__main__":
    main()
