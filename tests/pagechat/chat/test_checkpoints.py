"""Running answers are saved in batches, at most once per interval, on a real SQLite store."""

from __future__ import annotations

import asyncio
import functools

from pagechat.chat.checkpoints import Checkpointer
from pagechat.identity import Principal
from pagechat.store import AssistantRecord, SqlChatStore, TurnIds
from tests.conftest import Account

INTERVAL = 0.05


async def _content(store: SqlChatStore, user: Principal, ids: TurnIds) -> tuple[str, str]:
    detail = await store.get_conversation(user=user, conversation_id=ids.conversation_id)
    message = detail.messages[-1]
    return message.content, message.status


def _running(texts: dict[str, str], mid: str) -> AssistantRecord:
    return AssistantRecord(texts[mid], "running")


def _other_tasks() -> set[asyncio.Task[object]]:
    return {t for t in asyncio.all_tasks() if t is not asyncio.current_task()}


async def test_the_latest_text_of_each_running_answer_is_saved_after_the_interval(
    sql_store: SqlChatStore, alice: Account
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
    assert await _content(sql_store, alice.user, first) == ("", "running")

    await asyncio.sleep(INTERVAL * 4)

    assert await _content(sql_store, alice.user, first) == ("The quick fox", "running")
    assert await _content(sql_store, alice.user, second) == ("The quick fox", "running")
    # Idle again: no timer fires a write and no task is left behind.
    assert not _other_tasks()


async def test_a_forgotten_answer_is_not_saved_again(
    sql_store: SqlChatStore, alice: Account
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)

    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("partial", "running"))
    checkpoints.forget(ids.assistant_message_id)
    await asyncio.sleep(INTERVAL * 4)

    assert await _content(sql_store, alice.user, ids) == ("", "running")


async def test_closing_cancels_the_pending_save_and_leaves_nothing_running(
    sql_store: SqlChatStore, alice: Account
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)
    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("partial", "running"))

    await checkpoints.aclose()
    await asyncio.sleep(INTERVAL * 4)

    assert await _content(sql_store, alice.user, ids) == ("", "running")
    assert not _other_tasks()


async def test_a_failed_save_is_retried_with_the_next_change(
    sql_store: SqlChatStore, alice: Account
) -> None:
    ids = await sql_store.begin_turn(user=alice.user, conversation_id=None, message="a")
    checkpoints = Checkpointer(sql_store, interval=INTERVAL)

    def broken() -> AssistantRecord:
        raise RuntimeError("snapshot failed")

    checkpoints.touch(ids.assistant_message_id, broken)
    await asyncio.sleep(INTERVAL * 4)
    checkpoints.touch(ids.assistant_message_id, lambda: AssistantRecord("later", "running"))
    await asyncio.sleep(INTERVAL * 4)

    assert await _content(sql_store, alice.user, ids) == ("later", "running")
