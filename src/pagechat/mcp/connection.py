"""One MCP server's session: opened once, reused by every call, reopened after a crash.

The SDK's sessions live in anyio cancel scopes, which must be entered and left
by the same task. So each server gets an owner task that opens the session,
lists the tools, then waits; calls from runs use the open session, and a call
that finds the connection broken wakes the owner, which closes the session in
its own task and opens a new one (with backoff). Closing the app sets
`_closing` and the owner leaves the session the way it entered it.

A server whose tools change says so (`notifications/tools/list_changed`): a watcher
task of the session re-lists them and the registry is updated. On the 2026 protocol the
SDK delivers it through a `subscriptions/listen` stream, which the watcher opens and
closes in its own task; on earlier ones it arrives at the session's message handler.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import AsyncExitStack
from importlib.metadata import version
from typing import Any

import httpx2
from mcp import Client, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.client.subscriptions import ListenNotSupportedError
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.dispatcher import ProgressFnT
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, Implementation, Tool, ToolListChangedNotification

from .config import McpServer

__all__ = ["McpConnection", "McpToolFailed", "McpUnavailable", "ProgressCallback"]

logger = logging.getLogger(__name__)

ProgressCallback = ProgressFnT

_BACKOFF_FIRST = 0.25
_BACKOFF_MAX = 15.0
_LIST_PAGES = 50
"""tools/list pages read at most: a server that pages forever cannot hang start-up."""


class McpUnavailable(Exception):
    """The MCP server cannot be reached, or died during the call (the provider's failure)."""


class McpToolFailed(Exception):
    """The server answered the call with a protocol error (e.g. unknown tool, bad params)."""


class McpConnection:
    """One MCP server's session, kept open (and reopened), reporting its tools as they change."""

    def __init__(
        self, server: McpServer, *, on_tools: Callable[[McpConnection, list[Tool]], None]
    ) -> None:
        self.server = server
        self._on_tools = on_tools
        self._client: Client | None = None
        self._ready = asyncio.Event()
        self._broken = asyncio.Event()
        self._closing = False
        self._tools_changed = asyncio.Event()
        """Set by a `notifications/tools/list_changed` of the earlier protocols."""
        self._owner: asyncio.Task[None] | None = None
        self.connects = 0
        """How many times a session was opened: 1 at start, +1 per reconnect."""

    async def start(self) -> bool:
        """Start the owner; True when the server is ready within its connect timeout."""
        self._owner = asyncio.create_task(self._own(), name=f"mcp-{self.server.name}")
        try:
            async with asyncio.timeout(self.server.connect_timeout):
                await self._ready.wait()
        except TimeoutError:
            logger.warning("MCP server %s is not ready yet; retrying in the background", self.name)
            return False
        return True

    @property
    def name(self) -> str:
        """The server's name, as configured."""
        return self.server.name

    async def aclose(self) -> None:
        """Close the session and stop reconnecting."""
        self._closing = True
        self._broken.set()
        if self._owner is not None:
            try:
                async with asyncio.timeout(10):
                    await self._owner
            except TimeoutError:
                self._owner.cancel()
                logger.warning("MCP server %s did not close within 10 s", self.name)
            except Exception:
                logger.exception("closing MCP server %s failed", self.name)

    async def call(
        self, tool: str, arguments: dict[str, Any], progress: ProgressCallback | None
    ) -> CallToolResult:
        """Call `tool`; McpUnavailable when the server is down, McpToolFailed on a refusal."""
        try:
            async with asyncio.timeout(self.server.connect_timeout):
                await self._ready.wait()
        except TimeoutError:
            raise McpUnavailable(f"the MCP server {self.name} is not available") from None
        client = self._client
        if client is None:
            raise McpUnavailable(f"the MCP server {self.name} is not available")
        try:
            return await client.call_tool(tool, arguments, progress_callback=progress)
        except MCPError as exc:
            if _is_connection_error(exc):
                self._mark_broken()
                raise McpUnavailable(f"the MCP server {self.name} stopped answering") from exc
            raise McpToolFailed(exc.error.message if exc.error else str(exc)) from exc
        except (
            OSError,
            EOFError,
            httpx2.HTTPError,
            RuntimeError,
        ) as exc:
            self._mark_broken()
            raise McpUnavailable(f"the MCP server {self.name} stopped answering") from exc

    def _mark_broken(self) -> None:
        self._ready.clear()
        self._broken.set()

    def _open(self, stack: AsyncExitStack) -> Client:
        server = self.server
        if server.command is not None:
            params = StdioServerParameters(
                command=server.command,
                args=list(server.args),
                env=dict(server.env) if server.env else None,
                cwd=server.cwd,
            )
            transport: Any = stdio_client(params)
        else:
            assert server.url is not None
            http = create_mcp_http_client(headers=dict(server.headers))
            stack.push_async_callback(http.aclose)
            transport = streamable_http_client(server.url, http_client=http)
        return Client(
            transport,
            cache=None,
            client_info=Implementation(name="pagechat", version=version("pagechat")),
            message_handler=self._on_message,
        )

    async def _on_message(self, message: Any) -> None:
        if isinstance(getattr(message, "root", message), ToolListChangedNotification):
            self._tools_changed.set()

    async def _watch_tools(self, client: Client) -> None:
        """Re-list the tools whenever the server says they changed (until cancelled)."""
        try:
            async with client.listen(tools_list_changed=True) as changes:
                async for _change in changes:
                    await self._relist(client)
            return
        except ListenNotSupportedError:
            pass
        except Exception as exc:  # a lost stream: calls find out whether the session is
            logger.warning("MCP server %s: no tool change events: %s", self.name, _describe(exc))
            return
        while True:
            await self._tools_changed.wait()
            self._tools_changed.clear()
            await self._relist(client)

    async def _relist(self, client: Client) -> None:
        try:
            tools = await _list_tools(client)
        except Exception as exc:
            logger.warning("MCP server %s: re-listing tools failed: %s", self.name, _describe(exc))
            return
        self._on_tools(self, tools)

    async def _own(self) -> None:
        delay = _BACKOFF_FIRST
        while not self._closing:
            try:
                async with AsyncExitStack() as stack:
                    client = await stack.enter_async_context(self._open(stack))
                    tools = await _list_tools(client)
                    self.connects += 1
                    self._on_tools(self, tools)
                    self._client = client
                    self._broken.clear()
                    self._ready.set()
                    delay = _BACKOFF_FIRST
                    watcher = asyncio.create_task(
                        self._watch_tools(client), name=f"mcp-{self.name}-tools"
                    )
                    try:
                        await self._broken.wait()
                    finally:
                        watcher.cancel()
                        await asyncio.gather(watcher, return_exceptions=True)
            except Exception as exc:
                if not self._closing:
                    logger.warning("MCP server %s failed: %s", self.name, _describe(exc))
            finally:
                self._client = None
                self._ready.clear()
            if self._closing:
                return
            # Wait before reconnecting, but let a close end the wait at once.
            self._broken.clear()
            try:
                async with asyncio.timeout(delay):
                    await self._broken.wait()
            except TimeoutError:
                pass
            delay = min(delay * 2, _BACKOFF_MAX)


async def _list_tools(client: Client) -> list[Tool]:
    tools: list[Tool] = []
    cursor: str | None = None
    for _ in range(_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _is_connection_error(exc: MCPError) -> bool:
    error = exc.error
    message = (error.message if error else str(exc)).lower()
    return "connection closed" in message or ("closed" in message and "stream" in message)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(e) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"
