"""Server-sent events from a provider's response body: the `data` of each event, as bytes.

The SDKs decode a stream line by line in Python and build a typed model for every
event; relaying a text delta that way costs more CPU than everything else pagechat
does with it (bench/relay_cpu.py). The SDK still makes the request, checks its
status and translates its errors; the body is read here, an event at a time, and
each event's JSON is parsed by `event_json`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import orjson

__all__ = ["event_json", "sse_data"]


def event_json(data: bytes) -> Any:
    """An event's JSON: orjson (a fifth of the standard library's cost per text delta).

    Raises `json.JSONDecodeError` for data that is not JSON, as `json.loads` does.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        # orjson refuses an escaped lone surrogate, which the standard library reads
        # (and chat/text.py makes storable): read it as before.
        return json.loads(data)


async def sse_data(chunks: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """The data of each event in `chunks` (multi-line data joined with `\\n`).

    Events without data (comments, keep-alives) are skipped; so is an event left
    unterminated when the body ends, as the SSE specification says.
    """
    buffer = b""
    async for chunk in chunks:
        if b"\r" in chunk or buffer[-1:] == b"\r":
            buffer = _normalize(buffer + chunk)
        else:
            buffer = buffer + chunk if buffer else chunk
        start = 0
        while (end := buffer.find(b"\n\n", start)) >= 0:
            data = _data(buffer[start:end])
            start = end + 2
            if data is not None:
                yield data
        buffer = buffer[start:]
    if buffer.endswith(b"\n\r"):
        # The body ended on a CR: it ended the line after all.
        data = _data(buffer[: buffer.rfind(b"\n")])
        if data is not None:
            yield data


def _normalize(buffer: bytes) -> bytes:
    # CRLF and CR end lines too. A CR at the very end may be the first half of a CRLF
    # split between chunks: it waits for the next chunk.
    held = buffer.endswith(b"\r")
    if held:
        buffer = buffer[:-1]
    buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return buffer + b"\r" if held else buffer


def _data(block: bytes) -> bytes | None:
    # Nearly every event has one data line (`event: ...` then `data: {...}`): cut it out
    # without splitting the block into lines.
    at = block.find(b"data:")
    line = block.find(b"\ndata")  # where the first data line after the first line starts
    if at == 0:
        alone = line < 0
    else:
        alone = at > 0 and line == at - 1 and block.find(b"\ndata", at) < 0
        alone = alone and not block.startswith(b"data")
    if alone:
        end = block.find(b"\n", at)
        value = block[at + 5 : end] if end >= 0 else block[at + 5 :]
        return value[1:] if value[:1] == b" " else value
    return _data_lines(block)


def _data_lines(block: bytes) -> bytes | None:
    lines: list[bytes] = []
    for line in block.split(b"\n"):
        if line.startswith(b"data"):
            value = line[4:]
            if not value:
                lines.append(b"")
            elif value[:1] == b":":
                lines.append(value[2:] if value[1:2] == b" " else value[1:])
            # else: a field named like "database"; not ours
    return b"\n".join(lines) if lines else None
