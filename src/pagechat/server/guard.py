"""uvicorn's HTTP protocol (httptools), with the limits a public server needs.

uvicorn bounds idle keep-alive connections and, with `limit_concurrency`, the
number of connections, but not how large a request's headers may grow nor how
long a client may take to send them: a client that trickles one header byte a
second (slowloris) or sends megabytes of headers holds a connection, and memory,
for as long as it likes. This protocol answers such a client 431 (headers too
large) or 408 (too slow to send its headers, or its body stalls) and closes the
connection; everyone else is served as before. nginx in front does the same
(docs/deploy.md); this holds without it.

`pagechat serve` selects it by import string (`http=`), so each worker of
`--workers N` loads it; its limits come from the settings (PAGECHAT_MAX_HEADER_BYTES,
PAGECHAT_HEADER_TIMEOUT_SECONDS, PAGECHAT_BODY_TIMEOUT_SECONDS).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..defaults import BODY_TIMEOUT_SECONDS, HEADER_TIMEOUT_SECONDS, MAX_HEADER_BYTES
from ..settings import Settings

__all__ = ["GuardedHttpProtocol"]

_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol that answers oversized or slow headers and stalled bodies."""

    max_header_bytes: int = MAX_HEADER_BYTES
    header_timeout: float = HEADER_TIMEOUT_SECONDS
    body_timeout: float = BODY_TIMEOUT_SECONDS
    _configured = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _configure(type(self))
        self._header_bytes = 0
        self._in_headers = False
        self._oversized = False
        self._timer: asyncio.TimerHandle | None = None

    # -- the header's size --------------------------------------------------------

    def on_message_begin(self) -> None:
        """Parser callback: a request starts; its headers are counted from zero."""
        super().on_message_begin()
        self._header_bytes = 0
        self._in_headers = True

    def on_url(self, url: bytes) -> None:
        """Parser callback: the request target, counted against `max_header_bytes`."""
        self._count(len(url))
        if not self._oversized:
            super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Parser callback: a header, counted against `max_header_bytes`."""
        self._count(len(name) + len(value) + 4)
        if not self._oversized:
            super().on_header(name, value)

    def _count(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > self.max_header_bytes:
            self._oversized = True

    def on_headers_complete(self) -> None:
        """Parser callback: the headers are in; stops the header timer, starts the body one."""
        self._in_headers = False
        self._stop_timer()
        if self._oversized:
            return  # not started: data_received answers 431
        super().on_headers_complete()
        if self.parser is not None and not self.transport.is_closing():
            self._start_timer(self.body_timeout)

    def on_body(self, body: bytes) -> None:
        """Parser callback: a piece of body; restarts the body timer."""
        if self._oversized:
            return
        super().on_body(body)
        self._start_timer(self.body_timeout)

    def on_message_complete(self) -> None:
        """Parser callback: the request is in; stops the body timer."""
        self._stop_timer()
        if not self._oversized:
            super().on_message_complete()

    # -- the time to send them ----------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        # A connection that sends nothing at all holds a slot too.
        self._start_timer(self.header_timeout)

    def data_received(self, data: bytes) -> None:
        if self._timer is None and not self._in_headers and self.cycle_done():
            # The first bytes of a request: its headers must arrive in time.
            self._start_timer(self.header_timeout)
        super().data_received(data)
        if self._oversized and not self.transport.is_closing():
            self._refuse(431)

    def cycle_done(self) -> bool:
        """Whether no response is under way on the connection."""
        return self.cycle is None or self.cycle.response_complete

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        super().connection_lost(exc)

    def _start_timer(self, seconds: float) -> None:
        self._stop_timer()
        self._timer = self.loop.call_later(seconds, self._too_slow)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and self.cycle.response_started:
            # The app is answering; a stalled body only ends the connection.
            self.transport.close()
            return
        self._refuse(408)

    def _refuse(self, status: int) -> None:
        self._stop_timer()
        reason = _REASONS[status]
        body = reason + b"\n"
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, reason, len(body), body)
        )
        self.transport.close()


def _configure(cls: type[GuardedHttpProtocol]) -> None:
    if cls._configured:
        return
    settings = Settings()
    cls.max_header_bytes = settings.max_header_bytes
    cls.header_timeout = settings.header_timeout_seconds
    cls.body_timeout = settings.body_timeout_seconds
    cls._configured = True
