"""A lean fake Anthropic Messages API for `bench/load.py`, on raw asyncio sockets.

`tests/fakes/anthropic_server.py` (uvicorn, one coroutine and one `sleep` per
token) holds 500 streams but spends about half a core doing it on a 2-core
machine, and its pace drifts (each token waits `1/pace` after the previous one
was written); measured with the load client at 500 streams x 50 tokens/s:
1.2 s of CPU for 2.1 s of streaming, inter-token gap p99 41 ms instead of 20.
This one speaks the same wire format (`message_start`, `content_block_start`,
`content_block_delta` x n, `content_block_stop`, `message_delta`,
`message_stop`, as chunked `text/event-stream`) with one timer callback per
token on an absolute schedule (token i at t0 + (i+1)/pace), and records when
each token was actually written, so the benchmark measures what pagechat adds
rather than the fake's jitter.

The reply is chosen by the last user message: `bench KEY N` streams `tokens(KEY, N)`.
Side routes for the benchmark: `GET /_stats` (counters, peak concurrent
streams, lateness of the fake's own writes) and `GET /_timings` (per KEY the
monotonic send time of every token; `?clear=1` forgets them afterwards).

Run as `python bench/_load_upstream.py --port P --tokens-per-second 50`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import re
import time
from typing import Any, cast

from pagechat.chat.titles import TITLE_INSTRUCTIONS

__all__ = ["message_for", "tokens"]

_WORDS = ("alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta")
_REQUEST = re.compile(r"bench (\S+) (\d+)")
_MAX_TOKENS = 100_000
_MONO = time.monotonic


def tokens(key: str, n: int) -> list[str]:
    """The known reply for one stream: lowercase words, each naming its index and stream.

    Lowercase so that pagechat's reply parser never holds text back as a possible
    `MARKER:`; the stream key in every token shows a reply delivered to the wrong stream.
    """
    return [f"{_WORDS[i % len(_WORDS)]}{i}-{key} " for i in range(n)]


def message_for(key: str, n: int) -> str:
    return f"bench {key} {n}"


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _chunk(payload: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(payload), payload)


def _event(name: str, data: Any) -> bytes:
    return _chunk(b"event: %s\ndata: %s\n\n" % (name.encode(), _json(data)))


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages") or []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        return " ".join(b.get("text", "") for b in content or [] if b.get("type") == "text")
    return ""


class _Upstream:
    def __init__(self, pace: float) -> None:
        self.gap = 1.0 / pace
        self.timings: dict[str, list[float]] = {}
        self.late: list[float] = []
        self.active = 0
        self.peak_active = 0
        self.started = 0
        self.finished = 0
        self.aborted = 0
        self.ids = 0

    def stats(self) -> dict[str, Any]:
        late = sorted(self.late)

        def q(p: float) -> float:
            return round(late[min(len(late) - 1, int(p * len(late)))] * 1000, 3) if late else 0.0

        return {
            "started": self.started,
            "finished": self.finished,
            "aborted": self.aborted,
            "active": self.active,
            "peak_active": self.peak_active,
            "send_late_p50_ms": q(0.5),
            "send_late_p99_ms": q(0.99),
            "send_late_max_ms": round(late[-1] * 1000, 3) if late else 0.0,
        }


class _Connection(asyncio.Protocol):
    def __init__(self, upstream: _Upstream) -> None:
        self.up = upstream
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.busy = False  # a response is being streamed
        self.handles: list[asyncio.TimerHandle] = []
        self.close_after = False
        self.sent: list[float] = []  # send times of the tokens of the current stream
        self.words: list[str] = []
        self.t0 = 0.0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses; they quack alike.
        self.transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        for handle in self.handles:
            handle.cancel()
        self.handles.clear()
        if self.busy:
            self.busy = False
            self.up.active -= 1
            self.up.aborted += 1

    def data_received(self, data: bytes) -> None:
        self.buf += data
        self._next()

    # -- requests -----------------------------------------------------------------------

    def _next(self) -> None:
        while not self.busy and self.transport is not None and not self.transport.is_closing():
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            lines = bytes(self.buf[:end]).decode("latin-1").split("\r\n")
            headers = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length") or 0)
            if len(self.buf) < end + 4 + length:
                return
            body = bytes(self.buf[end + 4 : end + 4 + length])
            del self.buf[: end + 4 + length]
            method, _, rest = lines[0].partition(" ")
            path = rest.rsplit(" ", 1)[0]
            self.close_after = headers.get("connection", "").lower() == "close"
            self._handle(method, path, body)

    def _respond(self, status: int, payload: Any) -> None:
        assert self.transport is not None
        data = _json(payload)
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}.get(status, "Error")
        head = (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(data)}\r\n\r\n"
        ).encode()
        self.transport.write(head + data)
        if self.close_after:
            self.transport.close()

    def _error(self, status: int, kind: str, message: str) -> None:
        self._respond(status, {"type": "error", "error": {"type": kind, "message": message}})

    def _handle(self, method: str, path: str, raw: bytes) -> None:
        up = self.up
        if method == "GET" and path == "/_stats":
            self._respond(200, up.stats())
            return
        if method == "GET" and path.startswith("/_timings"):
            self._respond(200, up.timings)
            if path.endswith("clear=1"):
                up.timings = {}
                up.late = []
                up.peak_active = up.active
                gc.collect()  # between runs, not during one
            return
        if (method, path.split("?", 1)[0]) != ("POST", "/v1/messages"):
            self._error(404, "not_found_error", "Not found")
            return
        try:
            body = json.loads(raw)
        except ValueError:
            self._error(400, "invalid_request_error", "The request body is not valid JSON")
            return
        if body.get("system") == TITLE_INSTRUCTIONS and body.get("stream"):
            self._title()
            return
        match = _REQUEST.search(_last_user_text(body))
        if match is None or not body.get("stream"):
            self._error(400, "invalid_request_error", "expected a streamed `bench KEY N`")
            return
        key, n = match.group(1), min(int(match.group(2)), _MAX_TOKENS)
        self._stream(key, tokens(key, n), body.get("model", "claude-bench"))

    def _title(self) -> None:
        """A conversation-title call (pagechat's chat/titles.py, once per new conversation):
        answered at once, kept out of the streams' statistics."""
        assert self.transport is not None
        start: dict[str, Any] = {
            "id": "msg_bench_title",
            "type": "message",
            "role": "assistant",
            "model": "claude-bench",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 40, "output_tokens": 1},
        }
        block = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
        }
        delta = {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "text_delta", "text": "Bench title"},
        }
        done = {
            "type": "message_delta",
            "usage": {"output_tokens": 2},
            "delta": {"stop_reason": "end_turn", "stop_sequence": None},
        }
        self.transport.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
            + _event("message_start", {"type": "message_start", "message": start})
            + _event("content_block_start", block)
            + _event("content_block_delta", delta)
            + _event("content_block_stop", {"type": "content_block_stop", "index": 0})
            + _event("message_delta", done)
            + _event("message_stop", {"type": "message_stop"})
            + b"0\r\n\r\n"
        )
        if self.close_after:
            self.transport.close()

    # -- streaming ----------------------------------------------------------------------

    def _stream(self, key: str, words: list[str], model: str) -> None:
        assert self.transport is not None
        up = self.up
        up.ids += 1
        up.started += 1
        up.active += 1
        up.peak_active = max(up.peak_active, up.active)
        self.busy = True
        self.sent = up.timings[key] = []
        message: dict[str, object] = {
            "id": f"msg_bench_{up.ids:06d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {
                "input_tokens": 25,
                "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0,
                "output_tokens": 1,
            },
        }
        self.transport.write(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\n"
            b"cache-control: no-cache\r\nrequest-id: req_bench_%06d\r\n"
            b"transfer-encoding: chunked\r\n\r\n"
            % up.ids
            + _event("message_start", {"type": "message_start", "message": message})
            + _event(
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": 0,
                    "content_block": {"type": "text", "text": ""},
                },
            )
            + _event("ping", {"type": "ping"})
        )
        self.words = words
        # Token i is due at t0 + (i+1)/pace: an absolute schedule, so lateness never adds up.
        # loop.time() is CLOCK_MONOTONIC on asyncio and uvloop alike (uvloop: in whole ms).
        self.t0 = asyncio.get_running_loop().time()
        self._schedule(0)

    def _schedule(self, i: int) -> None:
        loop = asyncio.get_running_loop()
        if i == len(self.words):
            self.handles = [loop.call_later(0, self._end, i)]
            return
        # One pending timer per stream: fewer live objects, and the end cannot overtake a token.
        self.handles = [loop.call_at(self.t0 + (i + 1) * self.up.gap, self._send, i)]

    def _send(self, i: int) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        data = _event(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": self.words[i]},
            },
        )
        now = _MONO()
        self.transport.write(data)
        self.sent.append(now)
        self.up.late.append(now - (self.t0 + (i + 1) * self.up.gap))
        self._schedule(i + 1)

    def _end(self, n: int) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        self.transport.write(
            _event("content_block_stop", {"type": "content_block_stop", "index": 0})
            + _event(
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                    "usage": {"output_tokens": n},
                },
            )
            + _event("message_stop", {"type": "message_stop"})
            + b"0\r\n\r\n"
        )
        self.handles = []
        self.busy = False
        self.up.active -= 1
        self.up.finished += 1
        if self.close_after:
            self.transport.close()
        else:
            self._next()


async def _serve(host: str, port: int, pace: float) -> None:
    # No collector pauses in the middle of a run (they showed as 30-100 ms of lateness at
    # 250+ streams); the few cycles asyncio makes are collected between runs (`/_timings`).
    gc.collect()
    gc.freeze()
    gc.disable()
    upstream = _Upstream(pace)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: _Connection(upstream), host, port, backlog=4096)
    print(f"bench upstream on http://{host}:{port}", flush=True)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tokens-per-second", type=float, default=50.0)
    args = parser.parse_args()
    runner: Any = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    with contextlib.suppress(KeyboardInterrupt):
        runner(_serve(args.host, args.port, args.tokens_per_second))


if __name__ == "__main__":
    main()
