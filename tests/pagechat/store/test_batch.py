"""Group commit on SQLite (store/batch.py), through SqlChatStore as the app uses it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from pagechat.identity import Principal
from pagechat.store import (
    AssistantRecord,
    ConversationNotFound,
    SqlChatStore,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)
from pagechat.store.base import TurnIds
from pagechat.store.users import create_user


@pytest.fixture
async def engine(sqlite_url: str) -> Any:
    engine = create_engine(sqlite_url)
    await upgrade_async(engine)
    yield engine
    await engine.dispose()


async def _user(engine: AsyncEngine, email: str) -> Principal:
    async with create_sessionmaker(engine).begin() as session:
        row = await create_user(session=session, email=email, password_hash="x")
    return Principal(id=row.id, email=email)


def _commits(engine: AsyncEngine) -> list[int]:
    seen: list[int] = []
    event.listen(engine.sync_engine, "commit", lambda _conn: seen.append(1))
    return seen


async def test_turns_begun_together_share_one_transaction_in_order(engine: AsyncEngine) -> None:
    alice = await _user(engine, "alice@example.com")
    store = SqlChatStore(create_sessionmaker(engine))
    commits = _commits(engine)

    ids = await asyncio.gather(
        *(store.begin_turn(user=alice, conversation_id=None, message=f"q{i}") for i in range(20))
    )

    assert len(commits) < 20
    for i, turn in enumerate(ids):
        detail = await store.get_conversation(user=alice, conversation_id=turn.conversation_id)
        assert [(m.role, m.content, m.status) for m in detail.messages] == [
            ("user", f"q{i}", "complete"),
            ("assistant", "", "running"),
        ]


async def test_a_missing_conversation_fails_its_turn_alone(engine: AsyncEngine) -> None:
    alice = await _user(engine, "alice@example.com")
    bob = await _user(engine, "bob@example.com")
    store = SqlChatStore(create_sessionmaker(engine))
    bobs = await store.begin_turn(user=bob, conversation_id=None, message="mine")

    results = await asyncio.gather(
        store.begin_turn(user=alice, conversation_id=None, message="fine"),
        store.begin_turn(user=alice, conversation_id=bobs.conversation_id, message="not mine"),
        store.begin_turn(user=alice, conversation_id="nope", message="missing"),
        return_exceptions=True,
    )

    assert isinstance(results[0], TurnIds)
    assert isinstance(results[1], ConversationNotFound)
    assert isinstance(results[2], ConversationNotFound)
    detail = await store.get_conversation(user=bob, conversation_id=bobs.conversation_id)
    assert [m.content for m in detail.messages] == ["mine", ""]


async def test_a_batch_the_database_refuses_is_written_one_by_one(engine: AsyncEngine) -> None:
    alice = await _user(engine, "alice@example.com")
    ghost = Principal(id="no-such-user", email="ghost@example.com")  # foreign key fails
    store = SqlChatStore(create_sessionmaker(engine))

    results = await asyncio.gather(
        store.begin_turn(user=alice, conversation_id=None, message="one"),
        store.begin_turn(user=ghost, conversation_id=None, message="refused"),
        store.begin_turn(user=alice, conversation_id=None, message="two"),
        return_exceptions=True,
    )

    assert isinstance(results[0], TurnIds) and isinstance(results[2], TurnIds)
    assert isinstance(results[1], Exception) and not isinstance(results[1], TurnIds)
    listed = await store.list_conversations(user=alice)
    assert sorted(c.title for c in listed.items) == ["one", "two"]


async def test_checkpoints_and_ends_in_one_batch_leave_the_end(engine: AsyncEngine) -> None:
    alice = await _user(engine, "alice@example.com")
    store = SqlChatStore(create_sessionmaker(engine))
    ids = await store.begin_turn(user=alice, conversation_id=None, message="q")
    running = AssistantRecord(content="partial", status="running")
    done = AssistantRecord(content="the whole answer", status="complete")

    await asyncio.gather(
        store.finish_turn(assistant_message_id=ids.assistant_message_id, record=done),
        store.checkpoint_turns({ids.assistant_message_id: running}),
    )

    detail = await store.get_conversation(user=alice, conversation_id=ids.conversation_id)
    assert (detail.messages[-1].content, detail.messages[-1].status) == (
        "the whole answer",
        "complete",
    )


async def test_ends_that_arrive_one_by_one_under_load_share_transactions(
    engine: AsyncEngine,
) -> None:
    # Regression: answers started a few milliseconds apart end a few milliseconds apart,
    # and each end was written in a transaction of its own (~2 ms of CPU each).
    alice = await _user(engine, "alice@example.com")
    store = SqlChatStore(create_sessionmaker(engine))
    turns = await asyncio.gather(
        *(store.begin_turn(user=alice, conversation_id=None, message=f"q{i}") for i in range(10))
    )
    commits = _commits(engine)

    ends = []
    for i, turn in enumerate(turns):
        record = AssistantRecord(content=f"a{i}", status="complete")
        ends.append(
            asyncio.ensure_future(
                store.finish_turn(assistant_message_id=turn.assistant_message_id, record=record)
            )
        )
        await asyncio.sleep(0.005)
    await asyncio.gather(*ends)

    assert len(commits) <= 5
    for i, turn in enumerate(turns):
        detail = await store.get_conversation(user=alice, conversation_id=turn.conversation_id)
        assert [(m.content, m.status) for m in detail.messages][-1] == (f"a{i}", "complete")
