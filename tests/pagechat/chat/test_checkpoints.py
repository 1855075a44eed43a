"""Running answers are saved in batches, at most once per interval, on a real SQLite store.

Time is driven, not waited for: the interval is a minute, and the event loop's clock is
moved on past it, so a test never depends on how busy the machine is.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

import pytest

from pagechat.chat.checkpoints import Checkpointer
from pagechat.identity import Principal
from pagechat.store import AssistantRecord, SqlChatStore, TurnIds
from tests.conftest import Account

INTERVAL = 60.0


class LoopClock:
    """The running loop's clock, moved on by hand: timers due by then fire."""

    def __init__(self, loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch) -> None:
        real = loop.time
        self.offset = 0.0
        monkeypatch.setattr(loop, "time", lambda: real() + self.offset)

    async def advance(self, seconds: float) -> None:
        """Move on `seconds`, let the timers now due run, and wait for what they started."""
        self.offset += seconds
        for _ in range(2):  # one pass for the loop to pick the timers up, one to run them
            await asyncio.sleep(0)
        started = _other_tasks()
        if started:
            await asyncio.wait(started)


@pytest.fixture
async def clock(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopClock]:
    yield LoopClock(asyncio.get_running_loop(), monkeypatch)


async def _content(store: SqlChatStore, user: Principal, ids: TurnIds) -> tuple[str, str]:
    detail = await store.get_conversation(user=user, conversation_id=ids.conversation_id)
    message = detail.messages[-1]
    return message.content, message.status


def _running(texts: dict[str, str], mid: str) -> AssistantRecord:
    return AssistantRecord(texts[mid], "running")


def _other_tasks() -> set[asyncio.Task[object]]:
    return {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}


async def test_the_latest_text_of_each_running_answer_is_saved_after_the_interval(
    sql_store: SqlChatStore, alice: Account, clock: LoopClock
) -> None:
    first = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    second = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="b")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)
    texts = {first.assistant_message_id: "", second.assistant_message_id: ""}

    for word in ["The ", "quick ", "fox"]:
        for mid in texts:
            texts[mid] += word
            checkpoints.touch(mid, functools.partial(_running, texts, mid))
    # Nothing is written per token: the first save comes only after the interval.
    await clock.advance(INTERVAL * 0.9)
    assert await _content(sql_store, alice.user, first) == ("", "running")

    await clock.advance(INTERVAL * 0.2)

    assert await _content(sql_store, alice.user, first) == ("The quick fox", "running")
    assert await _content(sql_store, alice.user, second) == ("The quick fox", "running")
    # Idle again: no timer fires a write and no task is left behind.
    assert not _other_tasks()


async def test_a_forgotten_answer_is_not_saved_again(
    sql_store: SqlChatStore, alice: Account, clock: LoopClock
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)

    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("partial", "running"))
    checkpoints.forget(ids.assistant_message_id)
    await clock.advance(INTERVAL)

    assert await _content(sql_store, alice.user, ids) == ("", "running")


async def test_closing_cancels_the_pending_save_and_leaves_nothing_running(
    sql_store: SqlChatStore, alice: Account, clock: LoopClock
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)
    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("partial", "running"))

    await checkpoints.aclose()
    await clock.advance(INTERVAL)

    assert await _content(sql_store, alice.user, ids) == ("", "running")
    assert not _other_tasks()


async def test_a_failed_save_is_retried_with_the_next_change(
    sql_store: SqlChatStore, alice: Account, clock: LoopClock
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)

    def broken() -> AssistantRecord:
        raise RuntimeError("snapshot failed")

    checkpoints.touch(ids.assistant_message_id, broken)
    await clock.advance(INTERVAL)
    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("later", "running"))
    await clock.advance(INTERVAL)

    assert await _content(sql_store, alice.user, ids) == ("later", "running")
