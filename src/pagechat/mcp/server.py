"""pagechat as an MCP server: an app's global tools for MCP clients (Claude Desktop, IDEs).

Calls go through `execute_tool`, exactly as in a chat turn: the input is
validated against the tool's schema, progress is reported to the client, a
timeout or an exception is an error result. The client is whoever runs the
command on this machine, so it acts as the account named by `--user` (tools
meant for admins only are offered to an admin account only).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

if TYPE_CHECKING:
    from fastapi import FastAPI

from ..store.users import get_user_by_email
from ..tools import ToolConfig, ToolContext, ToolProgress, ToolResult
from ..tools.execute import execute_tool
from ..tools.registry import global_tools
from ..tools.sources import SourceNumbers, with_sources

__all__ = ["McpUserNotFound", "build_mcp_server", "serve_app_tools", "serve_stdio"]

logger = logging.getLogger(__name__)


class McpUserNotFound(LookupError):
    """`--user` names no account, or is left out while the tools need a user (the
    operator's mistake)."""


ContextFactory = Callable[[], AbstractAsyncContextManager[ToolContext]]
"""A fresh `ToolContext` (with its database session) for each call."""


def _text(text: str) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=text)]


def build_mcp_server(tools: Sequence[ToolConfig], *, context: ContextFactory) -> Server[Any]:
    """An MCP server offering `tools` to MCP clients; each call gets `context`'s ToolContext."""
    by_name = {tool.name: tool for tool in tools}
    listing = types.ListToolsResult(
        tools=[
            types.Tool(name=t.name, description=t.description, input_schema=t.input_schema)
            for t in by_name.values()
        ]
    )

    async def list_tools(
        _ctx: ServerRequestContext[Any, Any], _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return listing

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = by_name.get(params.name)
        if tool is None:
            return types.CallToolResult(
                content=_text(f"No tool named {params.name!r}."), is_error=True
            )
        result = ToolResult("", is_error=True)
        async with context() as tool_context:
            async for item in execute_tool(tool, dict(params.arguments or {}), tool_context):
                if isinstance(item, ToolProgress):
                    total = 1.0 if item.progress is not None else None
                    await ctx.session.report_progress(item.progress or 0.0, total, item.message)
                else:
                    result = item
        # Its sources listed after its text, numbered from 1: this call is the client's whole view.
        text = with_sources(result.text, SourceNumbers().number(result.sources))
        return types.CallToolResult(
            content=_text(text),
            is_error=result.is_error,
            structured_content=result.payload,
        )

    return Server(
        "pagechat",
        version=version("pagechat"),
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: Server[Any]) -> None:
    """Serve one client on stdin/stdout until it disconnects."""
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


async def serve_app_tools(app: FastAPI, *, user_email: str | None) -> None:
    """Start `app` (migrations, its tools), then serve its global tools on stdio."""
    async with app.router.lifespan_context(app):
        sessions: async_sessionmaker[AsyncSession] | None = app.state.sessions
        user_id: str | None = None
        is_admin = False
        if user_email is not None:
            if sessions is None:
                raise McpUserNotFound("this app has no accounts; leave out --user")
            async with sessions() as session:
                row = await get_user_by_email(session=session, email=user_email.strip().lower())
            if row is None:
                raise McpUserNotFound(f"no account for {user_email}")
            user_id, is_admin = row.id, row.is_admin
        tools = [t for t in global_tools() if t.allowed_for(is_admin=is_admin)]
        needing = [t.name for t in tools if t.needs_user]
        if user_id is None and needing:
            # Else every call of them would fail: refuse now, saying what to do.
            raise McpUserNotFound(
                f"this app's tools act for a signed-in user ({', '.join(needing[:5])}"
                f"{', ...' if len(needing) > 5 else ''}): pass --user EMAIL, the account "
                "their calls act as"
            )

        @asynccontextmanager
        async def context() -> AsyncIterator[ToolContext]:
            if sessions is None:
                yield ToolContext(user_id=user_id, is_admin=is_admin)
                return
            async with sessions() as session:
                yield ToolContext(user_id=user_id, is_admin=is_admin, session=session)

        logger.info("serving %d tools over MCP (stdio)", len(tools))
        await serve_stdio(build_mcp_server(tools, context=context))
