"""The one SSE writer: a run's log, written to the client as it grows, in the protocol of
a stream adapter (`pagechat.streams`: pagechat's own, AG-UI's).

Pure ASGI, one task per response (the request's own). sse-starlette's response ran
four tasks in a task group per answer and resumed three generators per event; here,
when the run lives in this process (`MemoryEventLog`), the run itself writes each
frame to a caught-up client as it appends it (`MemoryEventLog.listen`): the send is
driven synchronously, which it is unless the socket's buffer is full, and then it
goes on in a task of its own while later frames wait and go out together after it.
So a token costs one task wake-up (the run's), as a byte-forwarding relay does. For
pagechat's own stream the frames are the log's (encoded once, at append); another
adapter renders each typed event as it is written (`StreamAdapter.render`), in the same
call. A log kept elsewhere (another worker's run, read from Redis) is read with
`follow_wire`, or `events` for an adapter that renders.

Kept from sse-starlette: a keep-alive comment every `ping` seconds, the end of the
stream when the server shuts down (its exit watcher), and `on_disconnect` when the
client goes away (the app may stop the run then). A slow client costs nothing
unbounded: the run does not wait for its readers, and uvicorn applies backpressure
per connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Callable, Coroutine, Mapping
from datetime import UTC, datetime
from typing import Any

from sse_starlette import EventSourceResponse
from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from ..runs.log import EventLog, MemoryEventLog
from ..streams import NativeStream, StreamAdapter
from .passthrough import body_send

__all__ = ["STREAM_RESPONSE", "EventStream"]

logger = logging.getLogger(__name__)

_SendCoro = Coroutine[Any, Any, None]


STREAM_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}
"""A streaming route's success in its OpenAPI `responses` (its errors stay JSON)."""


class EventStream(Response):
    """`text/event-stream` of `log` after event `after` (the SSE `id:`), told by `adapter`
    (pagechat's own stream by default).

    A `Response` for FastAPI's sake (a route returns it as it is); `__call__` is its own.
    `on_disconnect` is called when the client goes away; `on_abort` whenever the response
    ends before the log did (the client gone, a send failed, the server shutting down):
    a protocol with no resume (AG-UI) stops the run then.
    """

    media_type = None
    """Sent as `text/event-stream` (its own headers). None here because FastAPI documents a
    route's error responses in its response class's type: they are JSON; the stream is
    declared by `STREAM_RESPONSE`."""

    def __init__(
        self,
        log: EventLog,
        after: int = 0,
        *,
        adapter: StreamAdapter | None = None,
        headers: Mapping[str, str] | None = None,
        ping: float = 15.0,
        on_disconnect: Callable[[], None] | None = None,
        on_abort: Callable[[], None] | None = None,
        status_code: int = 200,  # FastAPI documents a response class's default status
    ) -> None:
        self.log = log
        self.after = after
        self.adapter = adapter or NativeStream()
        self.ping = ping
        self.on_disconnect = on_disconnect
        self.on_abort = on_abort
        raw = {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-store",
            "connection": "keep-alive",
            "x-accel-buffering": "no",
        }
        raw.update({k.lower(): v for k, v in (headers or {}).items()})
        self.raw_headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in raw.items()]
        self.status_code = status_code
        self.background = None
        self.body = b""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send(
            {"type": "http.response.start", "status": self.status_code, "headers": self.raw_headers}
        )
        if scope.get("method", "GET").upper() == "HEAD":
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        loop = asyncio.get_running_loop()
        # The start went through every middleware; the frames need not (passthrough.py).
        writer = _Writer(body_send(scope, send), loop, self.adapter)
        ending: asyncio.Future[str] = loop.create_future()
        writer.ended = ending
        watcher = loop.create_task(_await_disconnect(receive, ending))
        _live_streams(loop).add(ending)
        pinger = loop.call_later(self.ping, self._ping, writer, loop) if self.ping > 0 else None
        writer.pinger = pinger
        follower: asyncio.Task[None] | None = None
        log = self.log
        try:
            opening = self.adapter.opening()
        except Exception:  # client data the protocol cannot encode: end, and say so
            logger.exception("a stream adapter could not open its stream")
            writer.unsendable()
        else:
            if opening:
                writer.write(opening)
            if isinstance(log, MemoryEventLog):
                writer.follow_memory(log, self.after)
            else:
                follower = loop.create_task(writer.follow_remote(log, self.after))
        why = "cancelled"
        try:
            why = await ending
        finally:
            writer.stop()
            if isinstance(log, MemoryEventLog):
                log.unlisten(writer.on_append)
            _live_streams(loop).discard(ending)
            watcher.cancel()
            if follower is not None:
                follower.cancel()
            if writer.pinger is not None:
                writer.pinger.cancel()
            if why in ("disconnect", "cancelled") and self.on_disconnect is not None:
                self.on_disconnect()
            if (why != "done" or writer.broken) and self.on_abort is not None:
                self.on_abort()
        if why == "failed" and writer.error is not None:
            raise writer.error
        if why == "exit":
            # The server is shutting down: the client resumes elsewhere (Last-Event-ID).
            await writer.finish_now()

    def _ping(self, writer: _Writer, loop: asyncio.AbstractEventLoop) -> None:
        if writer.stopped:
            return
        writer.write(b": ping - %s\r\n\r\n" % str(datetime.now(UTC)).encode())
        writer.pinger = loop.call_later(self.ping, self._ping, writer, loop)


class _Writer:
    """Sends frames in order, synchronously when it can; at most one send in flight."""

    def __init__(self, send: Send, loop: asyncio.AbstractEventLoop, adapter: StreamAdapter) -> None:
        self._send = send
        self._loop = loop
        self._adapter = adapter
        self._queued: list[bytes] = []
        self._pending: asyncio.Task[None] | None = None
        self._log: MemoryEventLog | None = None
        self._seq = 0
        self._last_sent = False
        self.ended: asyncio.Future[str] | None = None
        self.pinger: asyncio.TimerHandle | None = None
        self.error: BaseException | None = None
        self.stopped = False
        self.broken = False

    # -- what to send ----------------------------------------------------------------

    def follow_memory(self, log: MemoryEventLog, after: int) -> None:
        self._log = log
        self._seq = max(0, after)
        log.listen(self.on_append)
        self.on_append()  # what is already there, in one write

    def on_append(self) -> None:
        """The log grew or closed (called by the run, in its own call)."""
        log = self._log
        assert log is not None
        frames = log.frames
        end = len(frames)
        start = self._seq
        if start < end:
            self._seq = end
            if self._adapter.log_frames:
                chunk = frames[start] if end == start + 1 else b"".join(frames[start:end])
            else:
                try:
                    render, event = self._adapter.render, log.event
                    chunk = b"".join([render(seq, event(seq)) for seq in range(start + 1, end + 1)])
                except Exception:  # the run must not fail for one reader's sake
                    logger.exception("a stream adapter failed")
                    self.unsendable()
                    return
            if chunk:
                self.write(chunk)
        if log.closed:
            self._end()

    async def follow_remote(self, log: EventLog, after: int) -> None:
        try:
            if self._adapter.log_frames:
                async for chunk in log.follow_wire(after):
                    self.write(chunk)
            else:
                render = self._adapter.render
                async for seq, event in log.events(after):
                    try:
                        chunk = render(seq, event)
                    except Exception:
                        logger.exception("a stream adapter failed")
                        self.unsendable()
                        return
                    if chunk:
                        self.write(chunk)
            self._end()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a lost Redis, say: the response fails as it would have
            self._fail(exc)

    def unsendable(self) -> None:
        """End the response with the adapter's terminal error: a frame could not be made.
        The stream counts as broken off (`on_abort` runs), though it ended in order."""
        self.broken = True
        self.write(self._adapter.failed())
        self._end()

    # -- sending ---------------------------------------------------------------------

    def write(self, body: bytes) -> None:
        if self.stopped or self._last_sent:
            return
        if self._pending is not None:
            self._queued.append(body)
            return
        self._drive({"type": "http.response.body", "body": body, "more_body": True})

    def _end(self) -> None:
        if self._last_sent or self.stopped:
            return
        self._last_sent = True
        if self._pending is not None:
            self._queued.append(b"")  # the end, after what waits
            return
        self._drive({"type": "http.response.body", "body": b"", "more_body": False})

    def _drive(self, message: Message) -> None:
        # The send runs here, in the caller's call: ASGI servers complete a body send
        # without suspending unless the transport is paused.
        coro: _SendCoro = self._send(message)  # type: ignore[assignment]
        try:
            yielded = coro.send(None)
        except StopIteration:
            self._sent(message)
            return
        except BaseException as exc:
            self._fail(exc)
            return
        self._pending = self._loop.create_task(self._resume(coro, yielded, message))

    async def _resume(self, coro: _SendCoro, yielded: Any, message: Message) -> None:
        """Goes on with a send that had to wait, as a task would have; then what queued."""
        try:
            while True:
                if yielded is None:
                    await asyncio.sleep(0)
                else:
                    # Only wait: the send reads the future's outcome itself when resumed.
                    await asyncio.wait((yielded,))
                yielded = coro.send(None)
        except StopIteration:
            pass
        except asyncio.CancelledError:
            coro.close()
            raise
        except BaseException as exc:
            coro.close()
            self._pending = None
            self._fail(exc)
            return
        self._pending = None
        self._sent(message)
        if self._queued:
            queued, self._queued = self._queued, []
            last = queued[-1] == b""
            body = b"".join(queued)
            self._drive({"type": "http.response.body", "body": body, "more_body": not last})

    def _sent(self, message: Message) -> None:
        if not message.get("more_body", False):
            self._settle("done")

    def _fail(self, exc: BaseException) -> None:
        if self.error is None:
            self.error = exc
        self._settle("failed")

    def _settle(self, why: str) -> None:
        self.stopped = True
        if self.ended is not None and not self.ended.done():
            self.ended.set_result(why)

    def stop(self) -> None:
        self.stopped = True
        if self._pending is not None and self._pending is not asyncio.current_task():
            self._pending.cancel()

    async def finish_now(self) -> None:
        """At shutdown: end the response, whatever waits."""
        if not self._last_sent:
            self._last_sent = True
            with contextlib.suppress(Exception):
                await self._send({"type": "http.response.body", "body": b"", "more_body": False})


async def _await_disconnect(receive: Receive, ending: asyncio.Future[str]) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            if not ending.done():
                ending.set_result("disconnect")
            return


# -- server shutdown: one watcher per event loop ends every live stream -------------------

_streams: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[asyncio.Future[str]]] = (
    weakref.WeakKeyDictionary()
)
_watchers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def _live_streams(loop: asyncio.AbstractEventLoop) -> set[asyncio.Future[str]]:
    streams = _streams.get(loop)
    if streams is None:
        streams = _streams[loop] = set()
    watcher = _watchers.get(loop)
    if watcher is None or watcher.done():
        _watchers[loop] = loop.create_task(_end_on_exit(streams), name="pagechat-sse-exit")
    return streams


async def _end_on_exit(streams: set[asyncio.Future[str]]) -> None:
    # sse-starlette's own watcher (uvicorn's exit flag, AppStatus.should_exit), shared
    # with any EventSourceResponse of the app.
    await EventSourceResponse._listen_for_exit_signal()
    for ending in list(streams):
        if not ending.done():
            ending.set_result("exit")
