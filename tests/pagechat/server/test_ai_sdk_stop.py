"""Stop and resume on `/api/ai-sdk/{page}`, on a real uvicorn: a plain `useChat` app's
`stop()` (the request aborted) stops the run; a resumable chat's answer outlives its
connection, is followed again from its start (`resumeStream`) and stopped by its route."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from pagechat.pages import clear_pages, register_page
from pagechat.runs import Run
from pagechat.tools import clear_tools
from tests.support.ai_sdk import read_ui_stream
from tests.support.harness import ALICE, AUTH_A, AUTH_B, Harness, harness


@pytest.fixture
def _page() -> Iterator[None]:
    clear_tools()
    clear_pages()
    register_page("ledger")
    yield
    clear_tools()
    clear_pages()


@pytest.fixture
async def h(_page: None) -> AsyncIterator[Harness]:
    async with harness() as h:
        yield h


def _body(text: str, chat: str = "chat-1", **extra: Any) -> dict[str, Any]:
    message = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": text}]}
    return {"id": chat, "messages": [message], "trigger": "submit-message", **extra}


async def _first_text_then_drop(h: Harness, body: dict[str, Any]) -> Run:
    """Post, read until the answer's first text, and go away."""
    async with h.client.stream("POST", "/api/ai-sdk/ledger", json=body, headers=AUTH_A) as r:
        assert r.status_code == 200
        run_id = r.headers["x-run-id"]
        async for line in r.aiter_lines():
            if '"text-delta"' in line:
                break
    return h.runs.get(run_id, owner_id=ALICE.id)


async def _ended(run: Run) -> None:
    for _ in range(200):
        if run.done:
            return
        await asyncio.sleep(0.02)


async def _answer(h: Harness, chat: str = "chat-1") -> dict[str, Any]:
    detail = (await h.client.get(f"/api/conversations/{chat}", headers=AUTH_A)).json()
    answer: dict[str, Any] = detail["messages"][-1]
    return answer


async def test_aborting_the_request_stops_the_run_on_the_server(h: Harness) -> None:
    model = h.script(["slow "] * 200, delay=0.02)
    run = await _first_text_then_drop(h, _body("go"))

    await _ended(run)
    assert run.terminal == "cancelled"
    answer = await _answer(h)
    assert answer["status"] == "cancelled" and answer["content"].startswith("slow ")
    assert len(model.requests) == 1


async def test_a_resumable_answer_outlives_its_connection_and_resumes_from_its_start(
    h: Harness,
) -> None:
    h.script(["word "] * 40, delay=0.02)
    run = await _first_text_then_drop(h, _body("go", resumable=True))
    await asyncio.sleep(0.1)
    assert not run.done  # the connection went, the answer goes on

    response = await h.client.get("/api/ai-sdk/ledger/chat-1/stream", headers=AUTH_A)
    assert response.status_code == 200
    assert response.headers["x-vercel-ai-ui-message-stream"] == "v1"
    read = read_ui_stream(response.text)
    assert read.error is None, read.error
    assert read.types[0] == "start" and read.types[-1] == "finish"
    # Every word once, from the first: the SDK replaces the message with this one.
    assert [p["text"] for p in read.parts("text")] == ["word " * 40]
    assert run.terminal == "complete"
    assert read.message is not None and read.message["id"] == (await _answer(h))["id"]

    nothing = await h.client.get("/api/ai-sdk/ledger/chat-1/stream", headers=AUTH_A)
    assert nothing.status_code == 204


async def test_the_stop_route_stops_a_resumable_answer(h: Harness) -> None:
    h.script(["slow "] * 400, delay=0.02)
    run = await _first_text_then_drop(h, _body("go", resumable=True))

    stopped = await h.client.post("/api/ai-sdk/ledger/chat-1/stop", headers=AUTH_A)

    assert stopped.status_code == 202
    assert stopped.json() == {"run_id": run.id, "stopped": True}
    await _ended(run)
    assert run.terminal == "cancelled"
    assert (await _answer(h))["status"] == "cancelled"
    again = await h.client.post("/api/ai-sdk/ledger/chat-1/stop", headers=AUTH_A)
    assert again.json() == {"run_id": None, "stopped": False}


async def test_resuming_a_chat_with_nothing_running_is_204_and_anothers_404(h: Harness) -> None:
    fresh = await h.client.get("/api/ai-sdk/ledger/never-used/stream", headers=AUTH_A)
    assert fresh.status_code == 204
    h.script(["Done."])
    async with h.client.stream("POST", "/api/ai-sdk/ledger", json=_body("hi"), headers=AUTH_A) as r:
        await r.aread()
    assert (
        await h.client.get("/api/ai-sdk/ledger/chat-1/stream", headers=AUTH_A)
    ).status_code == 204
    theirs = await h.client.get("/api/ai-sdk/ledger/chat-1/stream", headers=AUTH_B)
    assert theirs.status_code == 404
    no_session = await h.client.get("/api/ai-sdk/ledger/chat-1/stream")
    assert no_session.status_code == 401
    unknown_page = await h.client.get("/api/ai-sdk/ledgre/chat-1/stream", headers=AUTH_A)
    assert unknown_page.status_code == 400
