"""What only a database gives: surviving restarts, recovery after a crash, one-query loads."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pagechat.identity import Principal
from pagechat.store import (
    AssistantRecord,
    SqlChatStore,
    create_engine,
    create_sessionmaker,
    upgrade_async,
)
from pagechat.store.tables import Conversation, Message
from pagechat.store.turns import INTERRUPTED_NOTE
from pagechat.store.users import create_user
from tests.conftest import Account


@contextmanager
def _statements(engine: AsyncEngine) -> Iterator[list[str]]:
    seen: list[str] = []

    def _record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    event.listen(engine.sync_engine, "before_cursor_execute", _record)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", _record)


async def test_conversations_survive_a_new_engine(
    database_url: str, sql_store: SqlChatStore, alice: Account
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="remember me")
    await sql_store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="I will.", status="complete"),
    )

    reopened = create_engine(database_url)
    try:
        store = SqlChatStore(create_sessionmaker(reopened))
        detail = await store.get_conversation(user=alice.user, conversation_id=ids.conversation_id)
    finally:
        await reopened.dispose()

    assert [m.content for m in detail.messages] == ["remember me", "I will."]


async def test_startup_marks_unfinished_answers_interrupted(
    sql_store: SqlChatStore, alice: Account
) -> None:
    done = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="one")
    await sql_store.finish_turn(
        assistant_message_id=done.assistant_message_id,
        record=AssistantRecord(content="answered", status="complete"),
    )
    crashed = await sql_store.begin_turn(
        user=alice.user, conversation_id=done.conversation_id, message="two", run_id="run-1"
    )

    marked = await sql_store.mark_interrupted()

    assert marked == 1
    detail = await sql_store.get_conversation(
        user=alice.user, conversation_id=crashed.conversation_id
    )
    assert [(m.content, m.status) for m in detail.messages] == [
        ("one", "complete"),
        ("answered", "complete"),
        ("two", "complete"),
        ("", "interrupted"),
    ]
    assert detail.messages[-1].error == INTERRUPTED_NOTE
    assert detail.messages[-1].run_id is None
    # The model is told on the next turn that this answer never finished.
    history = await sql_store.history(user=alice.user, conversation_id=done.conversation_id)
    assert history[-1].status == "interrupted"


async def test_a_thousand_message_conversation_loads_in_as_many_statements_as_a_short_one(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    sql_store: SqlChatStore,
    alice: Account,
) -> None:
    short = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="short")
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="start")
    async with sessions.begin() as session:
        session.add_all(
            Message(
                id=f"m{i:04d}",
                conversation_id=ids.conversation_id,
                parent_id=f"m{i - 1:04d}" if i else ids.assistant_message_id,
                role="user" if i % 2 else "assistant",
                content=f"message {i}",
                payload={},
            )
            for i in range(998)
        )
        conv = await session.get(Conversation, ids.conversation_id)
        assert conv is not None
        conv.active_leaf_id = "m0997"

    with _statements(engine) as few:
        await sql_store.get_conversation(user=alice.user, conversation_id=short.conversation_id)
    with _statements(engine) as seen:
        detail = await sql_store.get_conversation(
            user=alice.user, conversation_id=ids.conversation_id
        )

    assert len(detail.messages) == 1000
    assert detail.messages[-1].content == "message 997"
    assert len(seen) == len(few) == 1


async def test_deleting_a_conversation_deletes_its_messages(
    sessions: async_sessionmaker[AsyncSession], sql_store: SqlChatStore, alice: Account
) -> None:
    keep = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="keep")
    drop = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="drop")

    await sql_store.delete_conversation(user=alice.user, conversation_id=drop.conversation_id)

    async with sessions() as session:
        left = await session.scalars(select(Message.conversation_id))
        assert set(left) == {keep.conversation_id}
        assert await session.scalar(select(func.count()).select_from(Message)) == 2


async def test_an_answer_finished_after_its_conversation_was_deleted_is_dropped(
    sessions: async_sessionmaker[AsyncSession], sql_store: SqlChatStore, alice: Account
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="bye")
    await sql_store.delete_conversation(user=alice.user, conversation_id=ids.conversation_id)

    await sql_store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="too late", status="cancelled"),
    )

    async with sessions() as session:
        assert await session.scalar(select(func.count()).select_from(Message)) == 0


async def test_a_burst_of_turns_on_sqlite_is_not_refused_as_database_is_locked(
    sqlite_url: str,
) -> None:
    engine = create_engine(sqlite_url)

    def _impatient(dbapi_connection: Any, _record: Any) -> None:
        # A busy loop makes a waiting writer give up; a 1 ms busy timeout makes it give up now.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=1")
        cursor.close()

    event.listen(engine.sync_engine, "connect", _impatient)
    try:
        await upgrade_async(engine)
        sessions = create_sessionmaker(engine)
        async with sessions.begin() as session:
            row = await create_user(session=session, email="burst@example.com", password_hash="x")
        user = Principal(id=str(row.id), email=row.email)
        store = SqlChatStore(sessions)

        async def turn(i: int) -> None:
            ids = await store.begin_turn(user=user, conversation_id=None, message=f"question {i}")
            await store.finish_turn(
                assistant_message_id=ids.assistant_message_id,
                record=AssistantRecord(content=f"answer {i}", status="complete"),
            )

        await asyncio.gather(*(turn(i) for i in range(40)))
        listed = await store.list_conversations(user=user, limit=100)
        assert listed.total == 40
    finally:
        await engine.dispose()
