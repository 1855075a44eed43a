"""A small app for `pagechat mcp serve --app tests.pagechat.mcp.mcp_app:create_app`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from pagechat.server import create_app_from_settings
from pagechat.tools import (
    Source,
    ToolConfig,
    ToolContext,
    ToolProgress,
    ToolResult,
    register_tool,
)

_TEXT = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


async def _shout(params: dict[str, Any], ctx: ToolContext) -> AsyncIterator[Any]:
    yield ToolProgress(stage="shouting", message="Taking a breath", progress=0.5)
    who = "someone" if ctx.user_id is None else ("an admin" if ctx.is_admin else "a user")
    guide = Source(id="guide", title="How to shout", url="https://example.org/shout")
    yield ToolResult(f"{params['text'].upper()}! (asked by {who})", sources=[guide])


def _secret(_params: dict[str, Any], _ctx: ToolContext) -> str:
    return "the admin's secret"


def create_app() -> FastAPI:
    register_tool(
        ToolConfig(name="shout", description="Say it louder", input_schema=_TEXT, executor=_shout)
    )
    register_tool(
        ToolConfig(
            name="secret",
            description="Admins only",
            input_schema={"type": "object"},
            executor=_secret,
            required_role="admin",
        )
    )
    return create_app_from_settings()
