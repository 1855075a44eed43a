"""MCP servers' tools in pagechat's tool registry.

A server's tools become `ToolConfig`s: their input schemas are checked as JSON
Schema and then validate every call like our own tools' do; progress
notifications stream as tool progress; Stop or the per-call timeout cancels the
call, and the SDK tells the server (`notifications/cancelled`); a crashed or
hung server answers as a tool error, so the answer goes on.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from mcp.types import CallToolResult, Tool

from ..tools import ToolConfig, ToolContext, ToolProgress, ToolResult
from ..tools.registry import get_tool, register_tool, unregister_tool
from .config import McpServer
from .connection import McpConnection, McpToolFailed, McpUnavailable

__all__ = ["McpTools"]

logger = logging.getLogger(__name__)

_TOOL_NAME = re.compile(r"[^A-Za-z0-9_-]")
_MAX_NAME = 64
"""The longest tool name the providers accept (`^[a-zA-Z0-9_-]{1,64}$`)."""
_MAX_DESCRIPTION = 2_000


class McpTools:
    """Connects to the app's MCP servers at start-up and keeps their tools registered."""

    def __init__(self, servers: Sequence[McpServer]) -> None:
        names = [s.name for s in servers]
        if len(set(names)) != len(names):
            raise ValueError(f"MCP server names must be unique: {names}")
        self._connections = [McpConnection(s, on_tools=self._register) for s in servers]
        self._registered: dict[str, set[str]] = {s.name: set() for s in servers}

    @property
    def connections(self) -> list[McpConnection]:
        """The connections, one per configured server."""
        return list(self._connections)

    def tool_names(self, server: str) -> set[str]:
        """The names under which `server`'s tools are registered now."""
        return set(self._registered.get(server, ()))

    async def start(self) -> None:
        """Open every session (in parallel); a server that is down is retried in the background."""
        await asyncio.gather(*(c.start() for c in self._connections))

    async def aclose(self) -> None:
        """Close every connection and unregister the tools they brought."""
        await asyncio.gather(*(c.aclose() for c in self._connections))
        for names in self._registered.values():
            for name in names:
                unregister_tool(name)
            names.clear()

    def _register(self, connection: McpConnection, tools: list[Tool]) -> None:
        server = connection.server
        mine = self._registered[server.name]
        for name in mine:
            unregister_tool(name)
        mine.clear()
        for tool in tools:
            config = _tool_config(connection, tool)
            if config is None:
                continue
            existing = get_tool(config.name)
            if existing is not None:
                logger.warning(
                    "MCP tool %s of %s is not offered: a tool of that name exists (set a prefix)",
                    config.name,
                    server.name,
                )
                continue
            register_tool(config)
            mine.add(config.name)
        logger.info("MCP server %s: %d tools", server.name, len(mine))


def _tool_config(connection: McpConnection, tool: Tool) -> ToolConfig | None:
    server = connection.server
    name = _TOOL_NAME.sub("_", server.prefix + tool.name)[:_MAX_NAME]
    schema = dict(tool.input_schema) if tool.input_schema else {"type": "object"}
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as exc:
        logger.warning("MCP tool %s of %s has an invalid schema: %s", tool.name, server.name, exc)
        return None
    if schema.get("type") != "object":
        logger.warning("MCP tool %s of %s does not take an object", tool.name, server.name)
        return None
    description = (tool.description or tool.title or tool.name)[:_MAX_DESCRIPTION]

    async def execute(params: dict[str, Any], _ctx: ToolContext) -> AsyncIterator[Any]:
        async for item in _call(connection, tool.name, params):
            yield item

    return ToolConfig(
        name=name,
        description=description,
        input_schema=schema,
        executor=execute,
        timeout=server.timeout,
        requires_approval=server.needs_approval(tool.name),
        approval_reason=f"Runs {tool.name} on the MCP server {server.name}.",
    )


async def _call(connection: McpConnection, tool: str, params: dict[str, Any]) -> AsyncIterator[Any]:
    updates: asyncio.Queue[ToolProgress] = asyncio.Queue()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        share = min(1.0, max(0.0, progress / total)) if total else None
        updates.put_nowait(ToolProgress(stage="progress", message=message or "", progress=share))

    call = asyncio.create_task(connection.call(tool, params, on_progress))
    waiter: asyncio.Future[ToolProgress] | None = None
    try:
        while not call.done():
            waiter = asyncio.ensure_future(updates.get())
            await asyncio.wait({call, waiter}, return_when=asyncio.FIRST_COMPLETED)
            if waiter.done():
                yield waiter.result()
            else:
                waiter.cancel()
            waiter = None
        while not updates.empty():
            yield updates.get_nowait()
        try:
            result = call.result()
        except McpUnavailable as exc:
            yield ToolResult(f"The tool {tool} could not run: {exc}.", is_error=True)
            return
        except McpToolFailed as exc:
            yield ToolResult(f"The tool {tool} failed: {exc}", is_error=True)
            return
        yield _result(result)
    finally:
        if waiter is not None:
            waiter.cancel()
        # Stop or the timeout: cancelling the call makes the SDK send notifications/cancelled.
        if not call.done():
            call.cancel()
            await asyncio.gather(call, return_exceptions=True)


def _result(result: CallToolResult) -> ToolResult:
    parts: list[str] = []
    for block in result.content:
        kind = getattr(block, "type", "")
        if kind == "text":
            parts.append(str(getattr(block, "text", "")))
        elif kind in ("image", "audio"):
            parts.append(f"[{kind}: {getattr(block, 'mime_type', 'unknown type')}]")
        elif kind == "resource_link":
            parts.append(f"[resource: {getattr(block, 'uri', '')}]")
        elif kind == "resource":
            resource = getattr(block, "resource", None)
            parts.append(
                str(getattr(resource, "text", "") or f"[resource: {getattr(resource, 'uri', '')}]")
            )
    structured = getattr(result, "structured_content", None)
    if not parts and structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False))
    return ToolResult("\n".join(parts) or "(no output)", is_error=bool(result.is_error))
