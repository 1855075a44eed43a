from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagechat.events import Cancelled, Status, TextDelta, to_wire
from pagechat.runs import MemoryEventLog
from pagechat.runs.log import encode_event


async def _read(log: MemoryEventLog, after: int = 0) -> list[tuple[int, str]]:
    return [item async for item in log.follow(after)]


async def test_events_are_numbered_from_one() -> None:
    log = MemoryEventLog()
    assert [log.add(TextDelta(text=t)) for t in "abc"] == [1, 2, 3]
    log.close()
    frames = await _read(log)
    assert [seq for seq, _ in frames] == [1, 2, 3]
    assert [json.loads(data)["text"] for _, data in frames] == ["a", "b", "c"]


async def test_resume_after_gives_exactly_the_missed_events() -> None:
    log = MemoryEventLog()
    for t in "abcde":
        log.add(TextDelta(text=t))
    log.close()
    assert [seq for seq, _ in await _read(log, after=2)] == [3, 4, 5]
    assert await _read(log, after=5) == []


async def test_a_follower_gets_live_events_then_stops_at_close() -> None:
    log = MemoryEventLog()
    log.add(TextDelta(text="a"))
    reader = asyncio.create_task(_read(log))
    await asyncio.sleep(0)
    log.add(TextDelta(text="b"))
    await asyncio.sleep(0)
    log.add(Cancelled())
    log.close()
    frames = await asyncio.wait_for(reader, 1)
    assert [json.loads(d)["type"] for _, d in frames] == ["text_delta", "text_delta", "cancelled"]


async def test_many_followers_see_the_same_sequence() -> None:
    log = MemoryEventLog()
    readers = [asyncio.create_task(_read(log)) for _ in range(5)]
    for i in range(50):
        log.add(TextDelta(text=str(i)))
        if i % 7 == 0:
            await asyncio.sleep(0)
    log.close()
    results = await asyncio.gather(*readers)
    assert all(r == results[0] for r in results)
    assert [seq for seq, _ in results[0]] == list(range(1, 51))


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"])))
def test_a_text_delta_is_encoded_exactly_as_pydantic_would(text: str) -> None:
    event = TextDelta(text=text)
    encoded = encode_event(event)
    assert encoded == to_wire(event).model_dump_json().encode()
    assert b"\n" not in encoded


def test_other_events_are_encoded_by_their_model() -> None:
    event = Status(message="Thinking...")
    assert encode_event(event) == to_wire(event).model_dump_json().encode()


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"])))
def test_a_text_appended_as_text_is_the_frame_of_its_event(text: str) -> None:
    by_event, by_text = MemoryEventLog(), MemoryEventLog()
    by_event.add(Status(message="Thinking..."))
    by_text.add(Status(message="Thinking..."))
    assert by_text.append_text(text) == by_event.add(TextDelta(text=text)) == 2
    assert by_text.frames == by_event.frames


async def test_an_append_after_the_close_is_refused_and_changes_nothing() -> None:
    log = MemoryEventLog()
    log.append_text("a")
    log.close()
    with pytest.raises(RuntimeError):
        log.append_text("b")
    with pytest.raises(RuntimeError):
        log.add(Cancelled())
    assert log.last_seq == 1
    assert [(seq, event) async for seq, event in log.events()] == [(1, TextDelta(text="a"))]
