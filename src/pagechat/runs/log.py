"""A run's event log: numbered, append-only, followed by any number of readers.

Sequence numbers start at 1 and are the SSE `id:`. A reader that resumes
`after=N` gets event N+1 onward — exactly what it missed, then live events —
and stops when the log is closed.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import AsyncIterator

from ..protocol import StreamEvent

__all__ = ["EventLog", "MemoryEventLog"]


class EventLog(abc.ABC):
    """Where a run's events live; in memory for one process (Redis for several later)."""

    @abc.abstractmethod
    def append(self, event: StreamEvent) -> int:
        """Add an event; returns its sequence number."""

    @abc.abstractmethod
    def close(self) -> None:
        """No more events: readers stop once they have read everything."""

    @property
    @abc.abstractmethod
    def closed(self) -> bool: ...

    @property
    @abc.abstractmethod
    def last_seq(self) -> int: ...

    @abc.abstractmethod
    def follow(self, after: int = 0) -> AsyncIterator[tuple[int, str]]:
        """Yield `(seq, json)` for every event after `after`, waiting for new ones."""


class MemoryEventLog(EventLog):
    def __init__(self) -> None:
        # Serialized once on append: every reader sends the same bytes.
        self._frames: list[str] = []
        self._closed = False
        self._waiters: list[asyncio.Future[None]] = []

    def append(self, event: StreamEvent) -> int:
        if self._closed:
            raise RuntimeError("event log is closed")
        self._frames.append(event.model_dump_json())
        self._wake()
        return len(self._frames)

    def close(self) -> None:
        self._closed = True
        self._wake()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def last_seq(self) -> int:
        return len(self._frames)

    def _wake(self) -> None:
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def follow(self, after: int = 0) -> AsyncIterator[tuple[int, str]]:
        seq = max(0, after)
        frames = self._frames
        while True:
            while seq < len(frames):
                seq += 1
                yield seq, frames[seq - 1]
            if self._closed:
                return
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter
