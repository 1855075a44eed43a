"""A resumable `useChat` answer across two workers sharing Redis and a database: started on
one, followed again from its start and stopped through the other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import JwtAuthenticator
from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem
from pagechat.pages import clear_pages, register_page
from pagechat.runs.redis import RedisRunManager
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.testing import serve
from pagechat.tools import clear_tools
from tests.conftest import Account
from tests.support.ai_sdk import read_ui_stream


@pytest.fixture(autouse=True)
def _page() -> Iterator[None]:
    clear_tools()
    clear_pages()
    register_page("ledger")
    yield
    clear_tools()
    clear_pages()


def _words(_request: ModelRequest) -> list[ScriptItem]:
    items: list[ScriptItem] = []
    for i in range(1, 31):
        items += [f"w{i} ", Pause(0.03)]
    return items


@pytest.fixture
async def workers(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, redis_url: str
) -> AsyncIterator[tuple[str, str]]:
    async with AsyncExitStack() as stack:
        urls = []
        for _ in range(2):
            redis = Redis.from_url(redis_url)
            stack.push_async_callback(redis.aclose)
            app = create_app(
                model=FunctionModel(_words),
                store=SqlChatStore(sessions),
                authenticator=authenticator,
                sessions=sessions,
                runs=RedisRunManager(redis),
            )
            urls.append(await stack.enter_async_context(serve(app)))
        yield urls[0], urls[1]


def _body(text: str) -> dict[str, Any]:
    message = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": text}]}
    return {"id": "chat-w", "messages": [message], "resumable": True}


async def _start_and_drop(url: str, who: Account) -> None:
    async with (
        httpx.AsyncClient(base_url=url, timeout=10) as client,
        client.stream("POST", "/api/ai-sdk/ledger", json=_body("go"), headers=who.headers) as r,
    ):
        assert r.status_code == 200
        async for line in r.aiter_lines():
            if '"text-delta"' in line:
                break


async def test_another_worker_resumes_a_resumable_answer_from_its_start(
    workers: tuple[str, str], alice: Account
) -> None:
    first, second = workers
    await _start_and_drop(first, alice)

    async with httpx.AsyncClient(base_url=second, timeout=10) as client:
        response = await client.get("/api/ai-sdk/ledger/chat-w/stream", headers=alice.headers)
    assert response.status_code == 200
    read = read_ui_stream(response.text)
    assert read.error is None, read.error
    assert [p["text"] for p in read.parts("text")] == ["".join(f"w{i} " for i in range(1, 31))]
    assert read.types[-1] == "finish"


async def test_another_worker_stops_a_resumable_answer(
    workers: tuple[str, str], alice: Account, bob: Account
) -> None:
    first, second = workers
    await _start_and_drop(first, alice)

    async with httpx.AsyncClient(base_url=second, timeout=10) as client:
        theirs = await client.post("/api/ai-sdk/ledger/chat-w/stop", headers=bob.headers)
        assert theirs.status_code == 404
        stopped = await client.post("/api/ai-sdk/ledger/chat-w/stop", headers=alice.headers)
        assert stopped.status_code == 202 and stopped.json()["stopped"] is True
        for _ in range(100):
            detail = (await client.get("/api/conversations/chat-w", headers=alice.headers)).json()
            if detail["messages"][-1]["status"] != "running":
                break
            await asyncio.sleep(0.05)
    answer = detail["messages"][-1]
    assert answer["status"] == "cancelled"
    assert not answer["content"].endswith("w30 ")
