"""A run's event log: numbered, append-only, followed by any number of readers.

Sequence numbers start at 1 and are the SSE `id:`. A reader that resumes
`after=N` gets event N+1 onward — exactly what it missed, then live events —
and stops when the log is closed.

A log holds typed events (`pagechat.events.RunEvent`) and their SSE frames, each
encoded once, as it is appended (`encode_event`, `sse_frame`): pagechat's own stream
sends those bytes to every reader (`follow_wire`); another protocol reads the events
(`events`) and renders its own frames (`pagechat.streams`).
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import AsyncIterator, Callable

import orjson

from ..events import RunEvent, TextDelta, decode_event, to_wire

__all__ = ["EventLog", "MemoryEventLog", "encode_event", "encode_text", "sse_frame"]

_dumps = orjson.dumps


def sse_frame(data: bytes, seq: int | None = None) -> bytes:
    """One SSE frame: the `id:` line when the event has a number, and one `data:` line.

    Every stream pagechat writes is framed here (its own, AG-UI's); `data` never holds
    a raw newline (JSON escapes them)."""
    if seq is None:
        return b"data: %s\n\n" % data
    return b"id: %d\ndata: %s\n\n" % (seq, data)


def encode_text(text: str) -> bytes:
    """A text delta's JSON, made without the event: the same bytes as pydantic's (orjson
    escapes exactly what `json.dumps(ensure_ascii=False)` does), at a tenth of the cost
    of building and dumping the model; nearly every event is one."""
    return b'{"type":"text_delta","text":%s}' % _dumps(text)


def encode_event(event: RunEvent) -> bytes:
    """An event as the JSON every log stores and sends (its wire model's), never with a
    raw newline (one SSE `data:` line holds it)."""
    if type(event) is TextDelta:
        return encode_text(event.text)
    return to_wire(event).model_dump_json().encode()


class EventLog(abc.ABC):
    """Where a run's events live; in memory for one process (Redis for several later)."""

    @abc.abstractmethod
    def add(self, event: RunEvent) -> int:
        """Add an event; returns its sequence number."""

    def append_text(self, text: str) -> int:
        """Add a text delta: `add(TextDelta(text=text))`, which a log may do without
        building the event (the hot path: one call per token)."""
        return self.add(TextDelta(text=text))

    @abc.abstractmethod
    def close(self) -> None:
        """No more events: readers stop once they have read everything."""

    @property
    @abc.abstractmethod
    def closed(self) -> bool:
        """Whether the run has ended: nothing more will be appended."""

    @property
    @abc.abstractmethod
    def last_seq(self) -> int:
        """The sequence number of the newest event (0 before the first)."""

    @abc.abstractmethod
    def follow(self, after: int = 0) -> AsyncIterator[tuple[int, str]]:
        """Yield `(seq, json)` for every event after `after`, waiting for new ones."""

    @abc.abstractmethod
    def follow_wire(self, after: int = 0) -> AsyncIterator[bytes]:
        """Like `follow`, as ready-to-send SSE bytes (`id:` and `data:` lines).

        Everything already in the log comes as one chunk, so a reader that fell
        behind catches up in one write instead of one per event.
        """

    async def events(self, after: int = 0) -> AsyncIterator[tuple[int, RunEvent]]:
        """Yield `(seq, event)` for every event after `after`, waiting for new ones.

        Here read from `follow`'s JSON (a log kept elsewhere holds nothing else); a log
        in this process gives the events it holds. A reader's own event that is not part
        of the log (a lost connection's error) comes with seq 0."""
        async for seq, data in self.follow(after):
            yield seq, decode_event(data)


class MemoryEventLog(EventLog):
    """A run's events in this process's memory, for readers in this process."""

    def __init__(self) -> None:
        # Encoded once, as the SSE frame, on append: every reader sends the same bytes.
        self._frames: list[bytes] = []
        # The events themselves; a text delta as its `str` (no event built per token).
        self._events: list[RunEvent | str] = []
        self._closed = False
        self._waiters: list[asyncio.Future[None]] = []
        self._listeners: list[Callable[[], None]] = []

    def add(self, event: RunEvent) -> int:
        data = encode_event(event)
        self._events.append(event)
        return self._add(event.kind, data)

    def append_text(self, text: str) -> int:
        self._events.append(text)
        return self._add("text_delta", encode_text(text))

    def _add(self, event_type: str, data: bytes) -> int:
        """Every append ends here, with the event's type and JSON (the event itself is
        already in `_events`: a listener reads both)."""
        if self._closed:
            del self._events[len(self._frames) :]
            raise RuntimeError("event log is closed")
        seq = len(self._frames) + 1
        self._frames.append(sse_frame(data, seq))
        self._wake()
        return seq

    def close(self) -> None:
        self._closed = True
        self._wake()

    @property
    def frames(self) -> list[bytes]:
        """Every SSE frame so far, in order (read-only: the log appends to it)."""
        return self._frames

    def event(self, seq: int) -> RunEvent:
        """The event numbered `seq` (1 to `last_seq`); a text delta is made as it is read."""
        event = self._events[seq - 1]
        return TextDelta(text=event) if type(event) is str else event  # type: ignore[return-value]

    def listen(self, listener: Callable[[], None]) -> None:
        """Call `listener` after every append and at close, in the appender's own call.

        For a reader that can send synchronously (`server/sse.py`): the frame reaches
        its socket without waking another task. A listener must not raise.
        """
        self._listeners.append(listener)

    def unlisten(self, listener: Callable[[], None]) -> None:
        """Stop calling `listener` on new events."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_seq(self) -> int:
        return len(self._frames)

    def _wake(self) -> None:
        for listener in self._listeners:
            listener()
        if not self._waiters:
            return
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def _wait(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        await waiter

    async def follow(self, after: int = 0) -> AsyncIterator[tuple[int, str]]:
        seq = max(0, after)
        frames = self._frames
        while True:
            while seq < len(frames):
                frame = frames[seq]
                seq += 1
                start = frame.index(b"\ndata: ") + 7
                yield seq, frame[start:-2].decode()
            if self._closed:
                return
            await self._wait()

    async def follow_wire(self, after: int = 0) -> AsyncIterator[bytes]:
        seq = max(0, after)
        frames = self._frames
        while True:
            end = len(frames)
            if seq < end:
                yield frames[seq] if end == seq + 1 else b"".join(frames[seq:end])
                seq = end
                continue
            if self._closed:
                return
            await self._wait()

    async def events(self, after: int = 0) -> AsyncIterator[tuple[int, RunEvent]]:
        seq = max(0, after)
        while True:
            while seq < len(self._frames):
                seq += 1
                yield seq, self.event(seq)
            if self._closed:
                return
            await self._wait()
