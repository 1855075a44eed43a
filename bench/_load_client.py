"""Load-generator process for `bench/load.py`: many SSE streams on raw asyncio sockets.

httpx costs tens of microseconds per line; at 500 streams x 50 events/s that
would make the client, not the server, the bottleneck on a 2-core machine. This
client speaks just enough HTTP/1.1: it writes one request per connection, reads
the head, de-chunks the body and cuts SSE frames, stamping each frame with the
`time.monotonic()` of the read that completed it (CLOCK_MONOTONIC is system-wide,
so the stamps compare with the upstream's send times). JSON is parsed only after
every stream has ended.

Run as `python bench/_load_client.py SPEC.json OUT.json`. SPEC holds `host`,
`port`, `start_at` (a monotonic time), `timeout` (seconds per stream) and
`streams`: `[{key, at, request}]`, `at` seconds after `start_at`, `request` the
raw HTTP request as text. OUT gets one record per stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import sys
import time
from typing import Any, cast

_MONO = time.monotonic


class _Stream(asyncio.Protocol):
    """One HTTP/1.1 request whose response is read as SSE frames (or a plain body)."""

    def __init__(self, request: bytes, done: asyncio.Future[None]) -> None:
        self.request = request
        self.done = done
        self.transport: asyncio.Transport | None = None
        self.t_connected = 0.0
        self.t_head = 0.0
        self.t_end = 0.0
        self.status = 0
        self.headers: dict[str, str] = {}
        self.error: str | None = None
        self.complete = False
        self._head = bytearray()
        self._head_done = False
        self._chunked = False
        self._length: int | None = None
        self._raw = bytearray()
        self._need = 0  # payload bytes left in the current chunk
        self._skip = 0  # CRLF bytes left after it
        self._sse = bytearray()
        self.body = bytearray()
        self.frames: list[tuple[float, bytes]] = []
        self.reads = 0

    # -- asyncio.Protocol ---------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses; they quack alike.
        self.transport = cast(asyncio.Transport, transport)
        self.t_connected = _MONO()
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        t = _MONO()
        self.reads += 1
        if not self._head_done:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                return
            self._parse_head(bytes(self._head[:end]))
            self.t_head = t
            data = bytes(self._head[end + 4 :])
            self._head = bytearray()
        if self._chunked:
            self._dechunk(data, t)
        else:
            self.body += data
            if self._length is not None and len(self.body) >= self._length:
                self._finish(t)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.complete and self.error is None:
            if self._head_done and not self._chunked and self._length is None:
                self._finish(_MONO())  # a body delimited by the connection's end
                return
            self.error = f"connection lost: {exc!r}" if exc else "connection closed early"
        if self.t_end == 0.0:
            self.t_end = _MONO()
        if not self.done.done():
            self.done.set_result(None)

    # -- parsing --------------------------------------------------------------------

    def _parse_head(self, head: bytes) -> None:
        self._head_done = True
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ", 2)
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self._chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        length = self.headers.get("content-length")
        self._length = int(length) if length and length.isdigit() else None

    def _dechunk(self, data: bytes, t: float) -> None:
        buf = self._raw
        buf += data
        pos = 0
        end = len(buf)
        while pos < end:
            if self._skip:
                step = min(self._skip, end - pos)
                pos += step
                self._skip -= step
            elif self._need:
                step = min(self._need, end - pos)
                self._sse += buf[pos : pos + step]
                pos += step
                self._need -= step
                if not self._need:
                    self._skip = 2
            else:
                eol = buf.find(b"\r\n", pos)
                if eol < 0:
                    break
                size = int(bytes(buf[pos:eol]).split(b";", 1)[0], 16)
                pos = eol + 2
                if size == 0:
                    self._frames(t)
                    self._finish(t)
                    return
                self._need = size
        del buf[:pos]
        self._frames(t)

    def _frames(self, t: float) -> None:
        sse = self._sse
        if b"\r" in sse:
            # sse-starlette's own frames (pings) use CRLF; ours use LF.
            normalized = sse.replace(b"\r\n", b"\n")
            sse.clear()
            sse += normalized
        while True:
            cut = sse.find(b"\n\n")
            if cut < 0:
                return
            self.frames.append((t, bytes(sse[:cut])))
            del sse[: cut + 2]

    def _finish(self, t: float) -> None:
        self.complete = True
        self.t_end = t
        if self.transport is not None:
            self.transport.close()
        if not self.done.done():
            self.done.set_result(None)


def _events(frames: list[tuple[float, bytes]]) -> list[list[Any]]:
    """`[t, id, type, text]` per SSE event; `text` is the delta, the final or error message."""
    out: list[list[Any]] = []
    for t, frame in frames:
        seq: int | None = None
        data: list[str] = []
        for line in frame.decode().split("\n"):
            if line.startswith("id:"):
                seq = int(line[3:].strip())
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if not data:
            continue  # a comment (ping)
        try:
            event = json.loads("\n".join(data))
        except ValueError:
            out.append([t, seq, "unparsable", "\n".join(data)[:200]])
            continue
        kind = event.get("type")
        text: str | None = None
        if kind == "content_block_delta":  # the raw reference relay forwards Anthropic's events
            kind, text = "text_delta", (event.get("delta") or {}).get("text")
        elif kind == "message_stop":
            kind = "complete"
        elif kind == "text_delta":
            text = event.get("text")
        elif kind == "complete":
            text = (event.get("payload") or {}).get("message")
        elif kind == "error":
            text = f"{event.get('code')}: {event.get('message')}"
        out.append([t, seq, kind, text])
    return out


async def _one(
    loop: asyncio.AbstractEventLoop,
    host: str,
    port: int,
    spec: dict[str, Any],
    start_at: float,
    limit: float,
) -> dict[str, Any]:
    delay = start_at + spec["at"] - _MONO()
    if delay > 0:
        await asyncio.sleep(delay)
    done: asyncio.Future[None] = loop.create_future()
    stream = _Stream(spec["request"].encode(), done)
    t_start = _MONO()
    try:
        async with asyncio.timeout(limit):
            await loop.create_connection(lambda: stream, host, port)
            await done
    except TimeoutError:
        stream.error = stream.error or f"timeout after {limit} s"
    except OSError as exc:
        stream.error = stream.error or f"connect failed: {exc!r}"
    finally:
        if stream.transport is not None and not stream.transport.is_closing():
            stream.transport.close()
    return {
        "key": spec["key"],
        "t_start": t_start,
        "t_connected": stream.t_connected,
        "t_head": stream.t_head,
        "t_end": stream.t_end or _MONO(),
        "status": stream.status,
        "run_id": stream.headers.get("x-run-id"),
        "conversation_id": stream.headers.get("x-conversation-id"),
        "error": stream.error,
        "reads": stream.reads,
        "body": bytes(stream.body[:500]).decode("utf-8", "replace") if stream.body else None,
        "frames": stream.frames,
    }


async def _main(spec: dict[str, Any]) -> list[dict[str, Any]]:
    loop = asyncio.get_running_loop()
    tasks = [
        asyncio.create_task(
            _one(loop, spec["host"], spec["port"], s, spec["start_at"], spec["timeout"])
        )
        for s in spec["streams"]
    ]
    # A collector pause here would delay the stamping of reads and be blamed on the server.
    gc.collect()
    gc.freeze()
    gc.disable()
    results = await asyncio.gather(*tasks)
    cpu = time.process_time()
    gc.enable()
    for record in results:
        record["events"] = _events(record.pop("frames"))
    return [*results, {"client_cpu_s": cpu}]


def main() -> None:
    spec_path, out_path = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    runner: Any = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    results = runner(_main(spec))
    with open(out_path, "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main()
