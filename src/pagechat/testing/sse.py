"""Reading pagechat's SSE streams: frames as sent, and the typed events of the protocol."""

from __future__ import annotations

import json
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx

from ..protocol import StreamEvent, parse_event

__all__ = ["Frame", "events", "frames", "read_all"]


@dataclass(frozen=True)
class Frame:
    """One SSE event: its `id:` (the run's sequence number; -1 without one) and JSON data."""

    id: int
    event: dict[str, Any]
    """The event exactly as sent (extra fields included)."""

    @property
    def type(self) -> str:
        """The event's type (`text_delta`, `complete`, ...)."""
        return str(self.event["type"])

    @property
    def parsed(self) -> StreamEvent:
        """The event as its protocol model (`TextDeltaEvent`, `CompleteEvent`, ...)."""
        return parse_event(json.dumps(self.event))


_LINES: weakref.WeakKeyDictionary[httpx.Response, AsyncIterator[str]] = weakref.WeakKeyDictionary()


async def frames(response: httpx.Response) -> AsyncIterator[Frame]:
    """Parse a streamed SSE body into frames (`id:` + JSON `data:`), skipping comments and pings.

    A caller may stop reading and later call `frames` again on the same response:
    reading resumes where it stopped.
    """
    lines = _LINES.get(response)
    if lines is None:
        lines = _LINES[response] = response.aiter_lines()
    event_id: int | None = None
    data: list[str] = []
    async for line in lines:
        if line == "":
            if data:
                yield Frame(event_id if event_id is not None else -1, json.loads("\n".join(data)))
            event_id, data = None, []
        elif line.startswith(":"):
            continue
        elif line.startswith("id:"):
            event_id = int(line[3:].strip())
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    if data:
        yield Frame(event_id if event_id is not None else -1, json.loads("\n".join(data)))


async def read_all(response: httpx.Response) -> list[Frame]:
    """Every frame until the stream ends."""
    return [f async for f in frames(response)]


async def events(response: httpx.Response) -> AsyncIterator[StreamEvent]:
    """The stream's events as protocol models; an event the protocol does not know fails."""
    async for frame in frames(response):
        yield frame.parsed
