"""A turn's run starts before its message is stored (chat/stored.py), on a real database.

What must hold although the write is still under way: a reload right after the start
finds the conversation and its running answer, the run resumes, another user still gets
404; and a write that fails ends the run with an error and stores nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from pagechat.auth import JwtAuthenticator
from pagechat.models import FunctionModel, Pause
from pagechat.server import create_app
from pagechat.store import SqlChatStore
from pagechat.testing import read_all, serve
from tests.conftest import Account


@pytest.fixture
async def live(
    sql_store: SqlChatStore, authenticator: JwtAuthenticator
) -> AsyncIterator[httpx.AsyncClient]:
    model = FunctionModel(lambda _request: ["Hello ", Pause(0.3), "there."])
    app = create_app(model=model, store=sql_store, authenticator=authenticator)
    async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=20) as client:
        yield client


@contextmanager
def _sqlite_writes_held(url: str) -> Iterator[None]:
    """Another connection holds SQLite's write lock: the turn's write waits for it."""
    db = sqlite3.connect(url.split("///", 1)[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        db.execute("ROLLBACK")
        db.close()


async def _fail_message_inserts(engine: AsyncEngine) -> None:
    """A real database error on the turn's write (as a full disk or a lost server gives)."""
    async with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            await conn.execute(
                text(
                    "CREATE TRIGGER no_messages BEFORE INSERT ON messages "
                    "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
                )
            )
        else:
            await conn.execute(
                text(
                    "CREATE FUNCTION no_messages() RETURNS trigger AS "
                    "$$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql"
                )
            )
            await conn.execute(
                text(
                    "CREATE TRIGGER no_messages BEFORE INSERT ON messages "
                    "FOR EACH ROW EXECUTE FUNCTION no_messages()"
                )
            )


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_reload_right_after_the_start_finds_the_running_answer_and_resumes_it(
    live: httpx.AsyncClient, alice: Account, bob: Account, database_url: str
) -> None:
    with _sqlite_writes_held(database_url):
        async with live.stream(
            "POST", "/api/chat/stream", json={"message": "hi"}, headers=alice.headers
        ) as started:
            run_id = started.headers["x-run-id"]
            cid = started.headers["x-conversation-id"]
        # The page reloads while the turn's write still waits for the lock.
        pending = asyncio.ensure_future(
            live.get(f"/api/conversations/{cid}", headers=alice.headers)
        )
        await asyncio.sleep(0.1)  # the request reaches the server before the lock goes
    detail = (await pending).json()
    assert [(m["role"], m["content"], m["status"]) for m in detail["messages"]] == [
        ("user", "hi", "complete"),
        ("assistant", "", "running"),
    ]
    assert detail["messages"][1]["run_id"] == run_id
    async with live.stream(
        "GET", f"/api/chat/runs/{run_id}/events", headers=alice.headers
    ) as resumed:
        frames = await read_all(resumed)
    assert "".join(f.event.get("text", "") for f in frames) == "Hello there."
    assert frames[-1].type == "complete"
    assert (await live.get(f"/api/conversations/{cid}", headers=bob.headers)).status_code == 404
    other = await live.get(f"/api/chat/runs/{run_id}/events", headers=bob.headers)
    assert other.status_code == 404


async def test_a_failed_turn_write_ends_the_run_with_an_error_and_stores_nothing(
    live: httpx.AsyncClient, alice: Account, engine: AsyncEngine
) -> None:
    await _fail_message_inserts(engine)
    async with live.stream(
        "POST", "/api/chat/stream", json={"message": "hi"}, headers=alice.headers
    ) as r:
        assert r.status_code == 200
        cid = r.headers["x-conversation-id"]
        frames = await read_all(r)
    assert frames[-1].type == "error"
    assert frames[-1].event["code"] == "unavailable"
    assert "could not be saved" in frames[-1].event["message"]
    # Neither the conversation nor half a turn: one transaction, rolled back whole.
    listed = (await live.get("/api/conversations", headers=alice.headers)).json()
    assert listed["items"] == []
    gone = await live.get(f"/api/conversations/{cid}", headers=alice.headers)
    assert gone.status_code == 404
