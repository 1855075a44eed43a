"""Every client JSON is bounded in depth and size before a run starts (a 422 naming the
limit), and a run whose frames cannot be encoded still ends with its terminal event, on
pagechat's stream and on AG-UI's (issue 34, item 4)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import MutableMapping
from typing import Any

import pytest

from pagechat.agui import AguiStream
from pagechat.chat.frontend_tools import MAX_FRONTEND_TOOLS
from pagechat.pages import register_page
from pagechat.protocol import MAX_JSON_DEPTH, MAX_JSON_VALUES, parse_event
from pagechat.runs.log import MemoryEventLog
from pagechat.server.sse import EventStream
from pagechat.streams import UNSENDABLE, NativeStream
from tests.reliability.conftest import Live


def _deep(levels: int) -> dict[str, Any]:
    """A JSON object `levels` deep, counting itself."""
    value: dict[str, Any] = {}
    for _ in range(levels - 1):
        value = {"x": value}
    return value


def _agui(**fields: Any) -> dict[str, Any]:
    return {
        "threadId": "thread",
        "runId": "client-run",
        "state": {},
        "messages": [{"id": "u1", "role": "user", "content": "Hello"}],
        "tools": [],
        "context": [],
        "forwardedProps": {},
        **fields,
    }


def _agui_events(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


@pytest.mark.parametrize(
    ("field", "over", "limit"),
    [
        ("state", _deep(254), "MAX_JSON_DEPTH"),
        ("state", _deep(MAX_JSON_DEPTH + 1), "MAX_JSON_DEPTH"),
        ("state", {"xs": [0] * MAX_JSON_VALUES}, "MAX_JSON_VALUES"),
        ("forwardedProps", _deep(MAX_JSON_DEPTH + 1), "MAX_JSON_DEPTH"),
        (
            "tools",
            [{"name": "t", "description": "", "parameters": _deep(MAX_JSON_DEPTH)}],
            "MAX_JSON_DEPTH",
        ),
    ],
)
async def test_an_agui_json_just_over_a_limit_is_a_422_naming_it(
    live: Live, field: str, over: Any, limit: str
) -> None:
    register_page("ledger")

    response = await live.client.post(
        "/api/agui/ledger", json=_agui(**{field: over}), headers=live.alice.headers
    )

    assert response.status_code == 422
    assert field in response.json()["detail"] and limit in response.json()["detail"]
    listed = await live.client.get("/api/conversations", headers=live.alice.headers)
    assert listed.json()["items"] == []


async def test_an_agui_state_at_the_limit_is_answered_to_the_end(live: Live) -> None:
    register_page("ledger")
    live.script("Hello back.")

    response = await live.client.post(
        "/api/agui/ledger", json=_agui(state=_deep(MAX_JSON_DEPTH)), headers=live.alice.headers
    )

    assert response.status_code == 200
    assert _agui_events(response.text)[-1]["type"] == "RUN_FINISHED"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/chat/stream", {"message": "hi", "context": _deep(MAX_JSON_DEPTH + 1)}),
        ("/api/chat/stream", {"message": "hi", "context": {"xs": [0] * MAX_JSON_VALUES}}),
        ("/api/chat/actions", {"action": "save", "data": _deep(MAX_JSON_DEPTH + 1)}),
    ],
)
async def test_page_context_and_action_data_just_over_a_limit_are_a_422(
    live: Live, path: str, body: dict[str, Any]
) -> None:
    register_page("ledger")

    response = await live.client.post(path, json=body, headers=live.alice.headers)

    assert response.status_code == 422
    assert "MAX_JSON_" in json.dumps(response.json()["detail"])


async def test_an_agui_stream_that_cannot_encode_its_opening_ends_with_run_error() -> None:
    # The route refuses such a state now; were any frame unencodable, this is the end.
    log = MemoryEventLog()
    aborted: list[bool] = []
    adapter = AguiStream(thread_id="t", run_id="r", state=_deep(400))
    stream = EventStream(log, adapter=adapter, on_abort=lambda: aborted.append(True))
    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(60)
        return {"type": "http.disconnect"}

    scope = {"type": "http", "method": "POST", "path": "/api/agui/ledger"}
    await asyncio.wait_for(stream(scope, receive, send), 5)

    events = _agui_events(b"".join(m.get("body", b"") for m in sent[1:]).decode())
    assert [e["type"] for e in events] == ["RUN_STARTED", "RUN_ERROR"]
    assert events[-1]["message"] == UNSENDABLE
    assert sent[-1]["more_body"] is False
    assert aborted == [True]  # the run is stopped: nobody could see it


def test_pagechats_own_stream_ends_with_an_error_event_when_it_cannot_go_on() -> None:
    frame = NativeStream().failed().decode()

    event = parse_event(frame.split("data: ", 1)[1].strip())
    assert event.type == "error" and event.message == UNSENDABLE


async def test_one_frontend_tool_over_the_limit_is_a_422(live: Live) -> None:
    register_page("ledger")
    tool = {"description": "", "parameters": {"type": "object"}}
    tools = [{"name": f"t{n}", **tool} for n in range(MAX_FRONTEND_TOOLS + 1)]

    response = await live.client.post(
        "/api/agui/ledger", json=_agui(tools=tools), headers=live.alice.headers
    )

    assert response.status_code == 422
    assert f"At most {MAX_FRONTEND_TOOLS} frontend tools" in response.json()["detail"]
