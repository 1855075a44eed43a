"""What a page of a long conversation costs the database: one statement, which returns the
page and reads no more than the page's messages and their siblings (store/paths.py), on
SQLite and PostgreSQL. Since the message tree, a page had read the whole tree first
(issue 14, item 6).

The planner is shown a database whose statistics miss the conversation being read, as
they miss any new one: it then takes that conversation for a short one, and a query that
lets it look messages up by their conversation scans the whole conversation.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pagechat.store import SqlChatStore
from pagechat.store.base import AssistantRecord, InvalidCursor
from pagechat.store.tables import Conversation, Message
from tests.conftest import Account

LENGTH = 2_000
PAGE = 20


@contextmanager
def _recorded(engine: AsyncEngine) -> Iterator[list[tuple[str, Any]]]:
    """Every statement run meanwhile, with its parameters."""
    seen: list[tuple[str, Any]] = []

    def _record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", _record)
    try:
        yield seen
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", _record)


async def _long_conversation(
    sessions: async_sessionmaker[AsyncSession], sql_store: SqlChatStore, alice: Account, tag: str
) -> str:
    """A chain of LENGTH messages whose last answer was regenerated (the active one has a
    sibling that is on no page); the other one's answer is the active leaf."""
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="start")
    await sql_store.finish_turn(
        assistant_message_id=ids.assistant_message_id,
        record=AssistantRecord(content="started", status="complete"),
    )
    chain = [f"{tag}{i:05d}" for i in range(LENGTH - 2)]
    async with sessions.begin() as session:
        session.add_all(
            Message(
                id=mid,
                conversation_id=ids.conversation_id,
                parent_id=chain[i - 1] if i else ids.assistant_message_id,
                role="user" if i % 2 == 0 else "assistant",
                content=f"message {i}",
                payload={},
            )
            for i, mid in enumerate(chain)
        )
        session.add(
            Message(
                id=f"{tag}-regenerated",
                conversation_id=ids.conversation_id,
                parent_id=chain[-2],
                role="assistant",
                content="the answer again",
                payload={},
            )
        )
        conv = await session.get(Conversation, ids.conversation_id)
        assert conv is not None
        conv.active_leaf_id = f"{tag}-regenerated"
    return ids.conversation_id


async def _rows(engine: AsyncEngine, statement: str, parameters: Any) -> int:
    async with engine.connect() as conn:
        return len((await conn.exec_driver_sql(statement, parameters)).all())


async def _reads(
    engine: AsyncEngine, statement: str, parameters: Any
) -> tuple[int | None, list[str]]:
    """How many rows of `messages` the statement reads (PostgreSQL, from EXPLAIN ANALYZE),
    and its scans of `messages` (SQLite, from EXPLAIN QUERY PLAN: a scan reads them all,
    where a search reads what an index finds)."""
    async with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            lines = await conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters)
            details: list[str] = [detail for *_, detail in lines]
            return None, [detail for detail in details if detail.startswith("SCAN messages")]
        explained = await conn.exec_driver_sql(
            f"EXPLAIN (ANALYZE, FORMAT JSON) {statement}", parameters
        )
        document = explained.scalar_one()
        plan: list[Any] = document if isinstance(document, list) else json.loads(document)
        return _messages_read(plan[0]["Plan"]), []


def _messages_read(node: dict[str, Any]) -> int:
    read = 0
    if node.get("Relation Name") == "messages":
        per_loop = node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
        read += per_loop * node.get("Actual Loops", 0)
    return read + sum(_messages_read(child) for child in node.get("Plans", []))


async def _analyze(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        await conn.execute(text("ANALYZE"))


async def _beside_another(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    sql_store: SqlChatStore,
    alice: Account,
    *,
    counted: bool = False,
) -> str:
    """A long conversation beside another one; the planner's statistics count only the
    other one, unless `counted`."""
    await _long_conversation(sessions, sql_store, alice, "a")
    await _analyze(engine)
    conversation_id = await _long_conversation(sessions, sql_store, alice, "b")
    if counted:
        await _analyze(engine)
    return conversation_id


@pytest.fixture
async def conversation_id(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    sql_store: SqlChatStore,
    alice: Account,
) -> str:
    """A long conversation the planner's statistics miss, beside one they count."""
    return await _beside_another(engine, sessions, sql_store, alice)


async def test_a_page_of_a_long_conversation_reads_only_the_page(
    engine: AsyncEngine, sql_store: SqlChatStore, alice: Account, conversation_id: str
) -> None:

    with _recorded(engine) as newest:
        first = await sql_store.get_conversation(
            user=alice.user, conversation_id=conversation_id, limit=PAGE
        )
    assert first.older is not None
    middle = str(int(first.older) - LENGTH // 2)
    with _recorded(engine) as earlier:
        page = await sql_store.get_conversation(
            user=alice.user, conversation_id=conversation_id, limit=PAGE, before=middle
        )

    assert [len(first.messages), len(page.messages)] == [PAGE, PAGE]
    assert (first.messages[-1].content, first.messages[-1].sibling_count) == ("the answer again", 2)
    assert len(newest) == len(earlier) == 1
    for statement, parameters in [*newest, *earlier]:
        # The page and the one message past it, which says there is an older page.
        assert await _rows(engine, statement, parameters) == PAGE + 1
        read, scans = await _reads(engine, statement, parameters)
        assert scans == []
        # Each message of the page, its parent and its siblings: a few rows each.
        assert read is None or read < 10 * (PAGE + 1)


async def test_the_history_of_a_long_conversation_reads_only_its_newest_messages(
    engine: AsyncEngine, sql_store: SqlChatStore, alice: Account, conversation_id: str
) -> None:

    with _recorded(engine) as seen:
        history = await sql_store.history(
            user=alice.user, conversation_id=conversation_id, limit=PAGE
        )

    assert len(history) == PAGE and history[-1].content == "the answer again"
    assert len(seen) == 1
    [(statement, parameters)] = seen
    assert await _rows(engine, statement, parameters) == PAGE + 1
    read, scans = await _reads(engine, statement, parameters)
    assert scans == []
    assert read is None or read < 10 * (PAGE + 1)


async def _switch_reads(
    engine: AsyncEngine, sql_store: SqlChatStore, alice: Account, **switch: Any
) -> list[tuple[int, int | None]]:
    """Switches a version; each read's rows returned and rows of `messages` read."""
    with _recorded(engine) as seen:
        await sql_store.select_branch(user=alice.user, **switch)
    reads = [s for s in seen if s[0].lstrip().upper().startswith(("SELECT", "WITH"))]
    assert reads
    counted = []
    for statement, parameters in reads:
        read, scans = await _reads(engine, statement, parameters)
        assert scans == [], statement
        counted.append((await _rows(engine, statement, parameters), read))
    return counted


@pytest.mark.parametrize("statistics", ["missing", "counted"])
async def test_switching_versions_at_the_end_of_a_long_conversation_reads_only_that_branch(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    sql_store: SqlChatStore,
    alice: Account,
    statistics: str,
) -> None:
    # A click on a regenerated answer's arrows had read the whole tree (every message's id,
    # parent and seq) to find the sibling and the end of its branch.
    conversation_id = await _beside_another(
        engine, sessions, sql_store, alice, counted=statistics == "counted"
    )

    counted = await _switch_reads(
        engine,
        sql_store,
        alice,
        conversation_id=conversation_id,
        message_id="b-regenerated",
        position=1,
    )

    page = await sql_store.get_conversation(
        user=alice.user, conversation_id=conversation_id, limit=PAGE
    )
    assert (page.messages[-1].content, page.messages[-1].sibling_position) == (
        f"message {LENGTH - 3}",
        1,
    )
    # The conversation, the message's parent, the sibling, the end of its branch.
    for rows, read in counted:
        assert rows == 1
        assert read is None or read < 20


@pytest.mark.parametrize("statistics", ["missing", "counted"])
async def test_switching_versions_halfway_up_reads_only_the_branch_below(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    sql_store: SqlChatStore,
    alice: Account,
    statistics: str,
) -> None:
    conversation_id = await _beside_another(engine, sessions, sql_store, alice)
    half = LENGTH // 2  # the chain's messages with an even index are questions
    # A second version of a question halfway up: the walk back down is half the chain.
    again = await sql_store.begin_branch(
        user=alice.user,
        conversation_id=conversation_id,
        message_id=f"b{half:05d}",
        kind="edit",
        run_id="halfway",
        message="asked again",
    )
    await sql_store.finish_turn(
        assistant_message_id=again.assistant_message_id,
        record=AssistantRecord(content="answered again", status="complete"),
    )
    if statistics == "counted":
        await _analyze(engine)

    counted = await _switch_reads(
        engine,
        sql_store,
        alice,
        conversation_id=conversation_id,
        message_id=again.user_message_id,
        position=1,
    )

    page = await sql_store.get_conversation(
        user=alice.user, conversation_id=conversation_id, limit=PAGE
    )
    # Down the older version's branch, newest child by newest child, to its regenerated end.
    assert page.messages[-1].content == "the answer again"
    below = LENGTH - 2 - half
    for rows, read in counted:
        assert rows == 1
        # Each step down looks up one message and its newest child: about two rows a
        # step, where reading the conversation would be LENGTH for each of them.
        assert read is None or read < 2 * below + 20


async def test_a_cursor_from_another_conversation_is_refused(
    sql_store: SqlChatStore, alice: Account
) -> None:
    mine = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="mine")
    other = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="other")
    await sql_store.begin_turn(user=alice.user, conversation_id=None, message="newest")
    cursor_there = await sql_store.get_conversation(
        user=alice.user, conversation_id=other.conversation_id, limit=1
    )
    assert cursor_there.older is not None

    with pytest.raises(InvalidCursor):
        await sql_store.get_conversation(
            user=alice.user,
            conversation_id=mine.conversation_id,
            limit=1,
            before=cursor_there.older,
        )
