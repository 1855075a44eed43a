"""The SDKs' aiohttp transport: a streamed body read directly, and what it reports wrongly.

Both providers stream through the aiohttp transport the anthropic and openai
SDKs ship (`DefaultAioHttpClient`): it relays a stream with about a third less
CPU per token than their default httpx one (bench/load.py), and CPU per token is
what bounds how many answers one process streams at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import httpx2
from aiohttp import ClientResponse, SocketTimeoutError

__all__ = ["body_chunks", "is_connection_failure"]

_ErrorMap = Callable[[], AbstractContextManager[None]]


def _vendored_streams() -> dict[type[Any], _ErrorMap]:
    """Each SDK's own copy of the transport's stream, with that copy's error mapping.

    The copies differ slightly (which aiohttp error becomes which httpx2 error), so a
    body is read with the mapping of the SDK that opened it.
    """
    streams: dict[type[Any], _ErrorMap] = {}
    try:
        from anthropic._vendor.httpx_aiohttp import transport as anthropic_transport
    except ImportError:  # pragma: no cover - an SDK without it streams through httpx2
        pass
    else:
        streams[anthropic_transport.AiohttpResponseStream] = (
            anthropic_transport.map_aiohttp_exceptions
        )
    try:
        from openai._vendor.httpx_aiohttp import transport as openai_transport
    except ImportError:  # pragma: no cover
        pass
    else:
        streams[openai_transport.AiohttpResponseStream] = openai_transport.map_aiohttp_exceptions
    return streams


_STREAMS = _vendored_streams()


def body_chunks(response: httpx2.Response) -> AsyncIterator[bytes]:
    """A streaming response's body, chunk by chunk, as directly as it can be read.

    Through the aiohttp transport, httpx2 adds four generators between the socket
    and the reader (its byte stream, raw and decoded iterators and the transport's
    own), each resumed for every event of an answer. When the body is not encoded
    (SSE streams are not), aiohttp's stream is read directly, its errors mapped to
    httpx2's exactly as the transport maps them; otherwise httpx2 decodes it.
    """
    # httpx2 wraps the transport's stream (BoundAsyncStream, which times the response).
    stream = getattr(response.stream, "_stream", response.stream)
    errors = _STREAMS.get(type(stream))
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    if errors is None or encoding != "identity":
        return response.aiter_bytes()
    return _aiohttp_chunks(stream, errors)


async def _aiohttp_chunks(stream: Any, errors: _ErrorMap) -> AsyncIterator[bytes]:
    response: ClientResponse = stream._aiohttp_response
    content = response.content
    with errors(), _read_timeout(response):
        async for chunk in content.iter_any():
            yield chunk


@contextmanager
def _read_timeout(response: ClientResponse) -> Iterator[None]:
    """The body's read timeout, kept by one timer per answer instead of one per token.

    aiohttp keeps it by cancelling its timer and making a new one for every chunk that
    arrives: for a token stream, a timer per token. Here aiohttp's is switched off while
    the body is read, and a timer looks every quarter of the timeout whether bytes came
    since it last looked; a body that stays quiet for the timeout fails as aiohttp fails
    it (`SocketTimeoutError`, which the SDK's transport reports as a read timeout), at
    most a quarter of the timeout later than aiohttp would.
    """
    connection = response.connection
    protocol = connection.protocol if connection is not None else None
    timeout = protocol.read_timeout if protocol is not None else None
    if protocol is None or not timeout:
        yield
        return
    protocol.read_timeout = None  # aiohttp's timer, armed by the last chunk, still runs out
    content = response.content
    loop = asyncio.get_running_loop()
    every = timeout / 4
    seen = content.total_bytes
    quiet_since = loop.time()
    timer: asyncio.TimerHandle | None = None

    def look() -> None:
        nonlocal seen, quiet_since, timer
        now = loop.time()
        if content.total_bytes != seen:
            seen, quiet_since = content.total_bytes, now
        elif now - quiet_since >= timeout:
            content.set_exception(SocketTimeoutError("Timeout on reading data from socket"))
            return
        timer = loop.call_later(every, look)

    timer = loop.call_later(every, look)
    try:
        yield
    finally:
        timer.cancel()
        protocol.read_timeout = timeout


def is_connection_failure(err: BaseException) -> bool:
    """Whether a timeout the SDK reports is really a refused or unresolvable connection.

    The vendored transport maps every aiohttp connection error to `ConnectTimeout`
    (reported upstream in the review of openai-python PR #3594), so a refused
    connection arrives as `APITimeoutError`. The original error is in the cause
    chain: an `OSError` that is not a `TimeoutError`.
    """
    seen: set[int] = set()
    cause = err.__cause__ or err.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, OSError) and not isinstance(cause, TimeoutError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False
