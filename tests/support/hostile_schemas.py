"""Frontend tools whose JSON Schemas hold backtracking patterns, and a model that calls
them with the text that makes Python's `re` take seconds: for the loop-lag test and its
benchmark (bench/loop_lag.py)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx

from pagechat.models import FunctionModel, ModelRequest, ScriptItem, tool_call
from pagechat.models.base import ToolResultsTurn

__all__ = ["EVIL", "HOSTILE_TOOLS", "agui_run", "health_lags", "hostile_model", "tool_results"]

EVIL = "a" * 25 + "!"
"""About 3 s for `re.search("^(a+)+$", EVIL)`; doubling with each further `a`."""

HOSTILE_TOOLS: list[dict[str, Any]] = [
    {
        "name": "hostile_pattern",
        "description": "A string checked by a backtracking pattern.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}},
            "required": ["code"],
        },
    },
    {
        "name": "hostile_keys",
        "description": "Keys checked by a backtracking pattern.",
        "parameters": {
            "type": "object",
            "patternProperties": {"^(a+)+$": {"type": "string"}},
            "additionalProperties": False,
        },
    },
]
_ARGUMENTS = {"hostile_pattern": {"code": EVIL}, "hostile_keys": {EVIL: "x"}}


def hostile_model() -> FunctionModel:
    """Calls the hostile tool it is offered with the evil text, then answers `done`."""

    def reply(request: ModelRequest) -> list[ScriptItem] | str:
        if any(isinstance(m, ToolResultsTurn) for m in request.messages):
            return "done"
        name = next(t.name for t in request.tools if t.name in _ARGUMENTS)
        return [tool_call(name, _ARGUMENTS[name])]

    return FunctionModel(reply)


def tool_results(model: FunctionModel) -> list[tuple[str, bool]]:
    """What the model was told of its tool calls: (text, is_error) each."""
    return [
        (r.content, r.is_error)
        for request in model.requests
        for m in request.messages
        if isinstance(m, ToolResultsTurn)
        for r in m.results
    ]


async def agui_run(
    client: httpx.AsyncClient, headers: dict[str, str], tool: dict[str, Any], thread: str
) -> list[dict[str, Any]]:
    """One AG-UI run on page `ledger` offering `tool`; its events."""
    body = {
        "threadId": thread,
        "runId": f"client-{thread}",
        "state": {},
        "messages": [{"id": "u1", "role": "user", "content": "Check it."}],
        "tools": [tool],
        "context": [],
        "forwardedProps": {},
    }
    response = await client.post("/api/agui/ledger", json=body, headers=headers, timeout=120)
    assert response.status_code == 200, response.text
    return [json.loads(line[5:]) for line in response.text.splitlines() if line[:5] == "data:"]


async def health_lags(client: httpx.AsyncClient, stop: asyncio.Event) -> list[float]:
    """Seconds between one answer of `/api/health` and the next, asked back to back (20 ms
    apart) until `stop` is set. The gaps, not each request's time: the client shares the
    server's event loop, so a stall that falls between two requests shows only here."""
    gaps: list[float] = []
    last = time.perf_counter()
    while not stop.is_set():
        response = await client.get("/api/health", timeout=120)
        assert response.status_code == 200
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
        await asyncio.sleep(0.02)
    return gaps
