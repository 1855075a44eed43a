"""The database fences a taken-over run's old owner (`RunFence`, store/turn_rows.py).

An answer's checkpoints and end name their run and its takeover epoch; the row takes a
write only from the run it belongs to now and from no owner older than the last one that
wrote it. On SQLite and PostgreSQL.
"""

from __future__ import annotations

from pagechat.protocol import Usage
from pagechat.store import AssistantRecord
from pagechat.store.base import RunFence, TurnIds
from tests.pagechat.store.conftest import Setup


def _record(text: str, status: str, writer: RunFence | None) -> AssistantRecord:
    return AssistantRecord(content=text, status=status, writer=writer)  # type: ignore[arg-type]


async def _answer(s: Setup, ids: TurnIds) -> tuple[str, str]:
    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    answer = detail.messages[-1]
    return answer.content, answer.status


async def test_a_slow_old_owner_cannot_overwrite_the_answer_of_the_worker_that_took_over(
    s: Setup,
) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    mid = ids.assistant_message_id
    old, new = RunFence("r1", 0), RunFence("r1", 1)
    await s.store.checkpoint_turns({mid: _record("w0 ", "running", old)})
    await s.store.checkpoint_turns({mid: _record("w0 w1 w2 ", "running", new)})

    # The old owner wakes up: its checkpoint and its end change nothing.
    await s.store.checkpoint_turns({mid: _record("w0 w1 ", "running", old)})
    assert await _answer(s, ids) == ("w0 w1 w2 ", "running")
    await s.store.finish_turn(assistant_message_id=mid, record=_record("w0 w1 ", "complete", old))
    assert await _answer(s, ids) == ("w0 w1 w2 ", "running")

    await s.store.finish_turn(
        assistant_message_id=mid, record=_record("w0 w1 w2 w3 ", "complete", new)
    )
    assert await _answer(s, ids) == ("w0 w1 w2 w3 ", "complete")


async def test_a_new_owner_overwrites_the_end_an_old_owner_stored_while_it_stalled(
    s: Setup,
) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    mid = ids.assistant_message_id
    old, new = RunFence("r1", 0), RunFence("r1", 1)
    # The old owner's end reached the database before the new owner's first write.
    await s.store.finish_turn(assistant_message_id=mid, record=_record("w0 w1 ", "complete", old))

    await s.store.checkpoint_turns({mid: _record("w0 w1 w2 ", "running", new)})
    assert await _answer(s, ids) == ("w0 w1 w2 ", "running")
    await s.store.finish_turn(
        assistant_message_id=mid, record=_record("w0 w1 w2 w3 ", "complete", new)
    )
    await s.store.finish_turn(assistant_message_id=mid, record=_record("w0 ", "cancelled", old))

    assert await _answer(s, ids) == ("w0 w1 w2 w3 ", "complete")


async def test_an_answer_ends_once_per_owner(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    mid = ids.assistant_message_id
    fence = RunFence("r1", 1)
    await s.store.finish_turn(assistant_message_id=mid, record=_record("done", "complete", fence))

    await s.store.finish_turn(assistant_message_id=mid, record=_record("late", "cancelled", fence))
    await s.store.checkpoint_turns({mid: _record("late", "running", fence)})

    assert await _answer(s, ids) == ("done", "complete")
    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    assert detail.messages[-1].run_id is None, "a finished answer is followed by no client"


async def test_continue_starts_a_new_run_whose_first_owner_writes_the_answer(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    mid = ids.assistant_message_id
    await s.store.finish_turn(
        assistant_message_id=mid, record=_record("part ", "cancelled", RunFence("r1", 2))
    )
    await s.store.begin_branch(
        user=s.alice,
        conversation_id=ids.conversation_id,
        message_id=mid,
        kind="continue",
        run_id="r2",
    )

    await s.store.checkpoint_turns({mid: _record("part one", "running", RunFence("r2", 0))})
    assert await _answer(s, ids) == ("part one", "running")
    await s.store.finish_turn(
        assistant_message_id=mid, record=_record("part one two", "complete", RunFence("r2", 0))
    )
    assert await _answer(s, ids) == ("part one two", "complete")


async def test_a_write_without_a_fence_is_not_held_back(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q")
    mid = ids.assistant_message_id

    await s.store.finish_turn(assistant_message_id=mid, record=_record("hi", "complete", None))

    assert await _answer(s, ids) == ("hi", "complete")


async def test_an_end_the_fence_refused_counts_no_tokens(s: Setup) -> None:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="q", run_id="r1")
    mid = ids.assistant_message_id
    new = _record("w0 w1 ", "complete", RunFence("r1", 1))
    new.usage = Usage(input_tokens=50, output_tokens=8)
    await s.store.finish_turn(assistant_message_id=mid, record=new)

    old = _record("w0 ", "complete", RunFence("r1", 0))
    old.usage = Usage(input_tokens=25, output_tokens=40)
    await s.store.finish_turn(assistant_message_id=mid, record=old)

    [row] = await s.store.usage(by=["user"])
    assert (row.answers, row.input_tokens, row.output_tokens) == (1, 50, 8)
