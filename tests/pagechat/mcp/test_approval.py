"""Tool approval per MCP tool: a real MCP server's call waits for the user, and runs on
that server only once approved."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import JwtAuthenticator
from pagechat.mcp import McpServer, McpTools
from pagechat.models import FunctionModel, ScriptItem, tool_call
from pagechat.models.base import ModelRequest, ToolResultsTurn
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.testing import Frame, read_all
from pagechat.tools import clear_tools, get_tool
from tests.conftest import Account

SERVER = Path(__file__).with_name("mcp_test_server.py")


@pytest.fixture
async def mcp(tmp_path: Path) -> AsyncIterator[McpTools]:
    clear_tools()
    server = McpServer(
        name="test",
        command=sys.executable,
        args=(str(SERVER), "--stdio", str(tmp_path / "mcp.log")),
        require_approval=("add",),
    )
    tools = McpTools([server])
    await tools.start()
    try:
        yield tools
    finally:
        await tools.aclose()
        clear_tools()


@pytest.fixture
async def client(
    mcp: McpTools,
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    model: FunctionModel,
) -> AsyncIterator[httpx.AsyncClient]:
    app: FastAPI = create_app(
        model=model, store=SqlChatStore(sessions), authenticator=authenticator, sessions=sessions
    )
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://testserver"
    ) as client:
        yield client


async def _stream(
    client: httpx.AsyncClient, who: Account, method: str, url: str, **kwargs: Any
) -> list[Frame]:
    async with client.stream(method, url, headers=who.headers, **kwargs) as response:
        assert response.status_code == 200
        return await read_all(response)


def _results(request: ModelRequest) -> list[tuple[str, bool]]:
    return [
        (r.content, r.is_error)
        for m in request.messages
        if isinstance(m, ToolResultsTurn)
        for r in m.results
    ]


def test_only_the_listed_tools_need_approval(mcp: McpTools) -> None:
    add, slow = get_tool("add"), get_tool("slow")
    assert add is not None and slow is not None
    assert add.approval_needed({"a": 1, "b": 2}) == "Runs add on the MCP server test."
    assert slow.approval_needed({"steps": 1}) is None


@pytest.mark.parametrize(("decision", "told"), [("approved", ("5", False)), ("denied", None)])
async def test_an_mcp_call_waits_for_approval_and_runs_on_the_server_only_if_approved(
    client: httpx.AsyncClient,
    alice: Account,
    model: FunctionModel,
    replies: list[list[ScriptItem]],
    decision: str,
    told: tuple[str, bool] | None,
) -> None:
    replies.append(["Adding.", tool_call("add", {"a": 2, "b": 3})])
    replies.append(["Done."])

    paused = (await _stream(client, alice, "POST", "/api/chat/stream", json={"message": "2+3"}))[
        -1
    ].event
    assert paused["type"] == "approval_requested" and paused["tool"] == "add"
    response = await client.post(
        f"/api/chat/approvals/{paused['approval_id']}",
        json={"decision": decision, "note": "not now"},
        headers=alice.headers,
    )
    assert response.status_code == 200
    frames = await _stream(
        client, alice, "GET", f"/api/chat/runs/{response.json()['run_id']}/events"
    )

    assert frames[-1].event["type"] == "complete"
    [(output, is_error)] = _results(model.requests[-1])
    if told is not None:
        assert (output, is_error) == told, "the MCP server added the numbers"
    else:
        assert is_error and "did not approve" in output and "not now" in output
