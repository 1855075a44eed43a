"""The chat routes' SSE response, driven as an ASGI server drives it."""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping
from typing import Any

from pagechat.events import Complete, Status, TextDelta
from pagechat.protocol import ChatResponsePayload
from pagechat.runs.log import MemoryEventLog
from pagechat.server.sse import EventStream


class _Client:
    """An ASGI server's side of one response: what was sent, and a send that can stall."""

    def __init__(self) -> None:
        self.messages: list[MutableMapping[str, Any]] = []
        self.gone = asyncio.Event()
        self.stall_after: int | None = None
        self.unstall = asyncio.Event()

    async def send(self, message: MutableMapping[str, Any]) -> None:
        if self.stall_after is not None and len(self.messages) >= self.stall_after:
            self.stall_after = None
            await self.unstall.wait()  # the socket's buffer is full
        self.messages.append(message)

    async def receive(self) -> dict[str, Any]:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])

    @property
    def ended(self) -> bool:
        return bool(self.messages) and self.messages[-1].get("more_body") is False


_SCOPE = {"type": "http", "method": "POST", "path": "/api/chat/stream"}


def _complete() -> Complete:
    return Complete(payload=ChatResponsePayload(message="abc"))


async def test_events_sent_while_the_client_is_slow_arrive_in_order_and_the_stream_ends() -> None:
    log = MemoryEventLog()
    client = _Client()
    client.stall_after = 2  # the start, the first frame; then the send waits
    response = asyncio.create_task(EventStream(log, 0)(_SCOPE, client.receive, client.send))
    await asyncio.sleep(0)
    log.add(Status(message="Thinking..."))
    for text in "abc":
        log.add(TextDelta(text=text))
    log.add(_complete())
    log.close()
    await asyncio.sleep(0.01)
    assert not client.ended
    client.unstall.set()
    await asyncio.wait_for(response, 5)
    assert client.body == b"".join(log.frames)
    assert client.ended
    assert client.messages[0]["type"] == "http.response.start"


async def test_a_resumed_stream_sends_what_came_after_the_last_event_id() -> None:
    log = MemoryEventLog()
    for text in "abcd":
        log.add(TextDelta(text=text))
    log.close()
    client = _Client()
    await asyncio.wait_for(EventStream(log, 2)(_SCOPE, client.receive, client.send), 5)
    assert client.body == b"".join(log.frames[2:])
    assert client.body.startswith(b"id: 3\n")


async def test_a_client_that_goes_away_is_told_to_the_app_and_the_run_goes_on() -> None:
    log = MemoryEventLog()
    client = _Client()
    stopped: list[bool] = []
    stream = EventStream(log, 0, on_disconnect=lambda: stopped.append(True))
    response = asyncio.create_task(stream(_SCOPE, client.receive, client.send))
    log.add(TextDelta(text="a"))
    await asyncio.sleep(0)
    client.gone.set()
    await asyncio.wait_for(response, 5)
    assert stopped == [True]
    # The log is the run's, not the connection's: it goes on, nobody writes to the socket.
    sent = len(client.messages)
    log.add(TextDelta(text="b"))
    assert len(client.messages) == sent


async def test_a_quiet_stream_is_kept_alive_with_comments() -> None:
    log = MemoryEventLog()
    client = _Client()
    response = asyncio.create_task(
        EventStream(log, 0, ping=0.01)(_SCOPE, client.receive, client.send)
    )
    await asyncio.sleep(0.05)
    log.close()
    await asyncio.wait_for(response, 5)
    assert b": ping" in client.body
    assert client.ended
