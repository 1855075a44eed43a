"""Stream adapters: each renders every kind of event; pagechat's own renders an event as
the frame its log made when it was appended."""

from __future__ import annotations

import pytest

from pagechat.agui import AguiStream
from pagechat.events import RunEvent
from pagechat.runs import MemoryEventLog
from pagechat.streams import NativeStream, StreamAdapter
from tests.support.events import one_of_each_kind


def _adapters() -> list[StreamAdapter]:
    return [NativeStream(), AguiStream(thread_id="t", run_id="r", frontend_tools=["confirm"])]


@pytest.mark.parametrize("adapter", _adapters(), ids=lambda a: type(a).__name__)
@pytest.mark.parametrize("event", one_of_each_kind(), ids=lambda e: e.kind)
def test_every_adapter_renders_every_kind(adapter: StreamAdapter, event: RunEvent) -> None:
    frames = adapter.render(1, event)
    assert frames == b"" or (frames.startswith((b"data: ", b"id: ")) and frames.endswith(b"\n\n"))


def test_the_native_stream_renders_an_event_as_its_frame_in_the_log() -> None:
    log = MemoryEventLog()
    native = NativeStream()
    for event in one_of_each_kind()[:6]:  # none of those ends the run
        seq = log.add(event)
        assert native.render(seq, event) == log.frames[-1]
        assert log.event(seq) == event
    assert native.render(0, one_of_each_kind()[0]).startswith(b"data: ")  # no id: not the log's


async def test_the_log_gives_its_events_typed_with_a_text_delta_made_as_it_is_read() -> None:
    log = MemoryEventLog()
    events = one_of_each_kind()[:6]
    for event in events:
        log.add(event)
    log.append_text("and more")
    log.close()

    read = [item async for item in log.events(after=2)]

    assert [seq for seq, _ in read] == [3, 4, 5, 6, 7]
    assert [event for _, event in read][:4] == events[2:]
    assert read[-1][1].kind == "text_delta" and read[-1][1].text == "and more"
