"""Server-sent events from a provider's response body: the `data` of each event, as bytes.

The SDKs decode a stream line by line in Python and build a typed model for every
event; relaying a text delta that way costs more CPU than everything else pagechat
does with it (bench/relay_cpu.py). The SDK still makes the request, checks its
status and translates its errors; the body is read here, an event at a time.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

__all__ = ["sse_data"]


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
            buffer += chunk
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
