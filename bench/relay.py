"""Relay overhead with an instant model: pagechat's whole HTTP stack vs a bare SSE endpoint.

The server runs in its own process (`relay.py --serve`, uvicorn with uvloop and
httptools as `pagechat serve` runs): pagechat's `create_app` with an instant model
(every answer's tokens are ready at once) and its store on SQLite in memory and,
beside it, a bare Starlette `StreamingResponse` that writes the same tokens as
`text_delta` frames. The client
is this process, on raw asyncio sockets, and checks every answer's text.

* `single`: one answer at a time of each length in `--tokens` (default 100 and
  10,000): the first event's time (request sent -> first `data:` line) and the
  tokens per second, pagechat and bare, medians over `--repeats`. The first
  event must not grow with the answer's length (target < 10 ms).
* `burst`: `--burst` answers (default 50) of `--burst-tokens` (2,000) all started
  at once: aggregate tokens per second (all tokens / time until the last one
  ended) and first-token p50, pagechat and bare; the server's CPU per token.

Targets (issue 14): single ratio (pagechat tokens/s / bare) >= 1.0 with uvloop for
the longest answer (a short one's time is mostly the turn's start and end, which the
bare endpoint does not have); burst ratio >= 0.5; first event < 10 ms at every
length. Prints one JSON line per measurement, then a summary.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import psutil

TOKEN = "bench-token"
HERE = Path(__file__).resolve()
TARGETS = {"single_ratio_min": 1.0, "burst_ratio_min": 0.5, "first_event_ms_max": 10.0}


def words(n: int) -> list[str]:
    return [f"tok{i} " for i in range(n)]


# -- the server process --------------------------------------------------------------


def _serve(port: int) -> None:
    from contextlib import asynccontextmanager

    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse, StreamingResponse
    from starlette.routing import Mount, Route

    from pagechat.identity import Principal
    from pagechat.models import FunctionModel, ModelRequest
    from pagechat.server import StaticTokens, create_app
    from pagechat.store import ChatStore, User, create_engine, create_sessionmaker, upgrade_async

    def reply(request: ModelRequest) -> list[str]:
        # "bench N" asks for N tokens.
        last = request.messages[-1]
        return words(int(str(getattr(last, "text", "")).split()[-1]))

    # In memory, every session shares the one connection: right here, where each answer
    # starts a new conversation (no reads) and the writes queue for SQLite's write lock.
    user = Principal(id="bench", email="bench@example.com")
    engine = create_engine("sqlite+aiosqlite://")
    sessions = create_sessionmaker(engine)

    @asynccontextmanager
    async def database(_app: Starlette) -> AsyncIterator[None]:
        # The chat app's own start-up does not run under a Mount: the migrations run here.
        await upgrade_async(engine)
        async with sessions.begin() as session:
            session.add(User(id=user.id, email=user.email, password_hash=""))
        yield

    chat_app = create_app(
        model=FunctionModel(reply),
        store=ChatStore(sessions),
        authenticator=StaticTokens({TOKEN: user}),
    )

    async def bare(request: Request) -> StreamingResponse:
        n = int((await request.json())["message"].split()[-1])

        async def frames() -> AsyncIterator[bytes]:
            yield b'id: 1\ndata: {"type":"status","message":"Thinking..."}\n\n'
            for i, tok in enumerate(words(n), start=2):
                event = json.dumps({"type": "text_delta", "text": tok})
                yield b"id: %d\ndata: %s\n\n" % (i, event.encode())
            done = json.dumps({"type": "complete", "payload": {"message": "".join(words(n))}})
            yield b"id: %d\ndata: %s\n\n" % (n + 2, done.encode())

        return StreamingResponse(frames(), media_type="text/event-stream")

    def health(request: Request) -> PlainTextResponse:
        return PlainTextResponse("ok")

    app = Starlette(
        routes=[
            Route("/bare", bare, methods=["POST"]),
            Route("/health", health),
            Mount("/", app=chat_app),
        ],
        lifespan=database,
    )
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        loop="uvloop",
        http="httptools",
    )


# -- the client ----------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _request(port: int, path: str, n: int) -> bytes:
    body = json.dumps({"message": f"bench {n}"}).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {TOKEN}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


async def _stream(port: int, path: str, n: int) -> dict[str, Any]:
    """One answer: when its first `data:` line and its end arrived, and its text."""
    start = time.perf_counter()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(_request(port, path, n))
    first = 0.0
    chunks: list[bytes] = []
    while chunk := await reader.read(1 << 16):
        if not first and b"data:" in chunk:
            first = time.perf_counter() - start
        chunks.append(chunk)
    total = time.perf_counter() - start
    writer.close()
    texts: list[str] = []
    for line in _dechunk(b"".join(chunks)).split(b"\n"):
        if line.startswith(b"data: "):
            event = json.loads(line[6:])
            if event.get("type") == "text_delta":
                texts.append(event["text"])
    return {"first_s": first, "total_s": total, "text": "".join(texts), "start": start}


def _dechunk(response: bytes) -> bytes:
    head, _, body = response.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" not in head.lower():
        return body
    out: list[bytes] = []
    at = 0
    while True:
        end = body.index(b"\r\n", at)
        size = int(body[at:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(body[end + 2 : end + 2 + size])
        at = end + 2 + size + 2


def _check(result: dict[str, Any], n: int) -> None:
    if result["text"] != "".join(words(n)):
        raise RuntimeError(f"answer of {n} tokens came back wrong ({len(result['text'])} chars)")


async def _single(port: int, n: int, repeats: int) -> dict[str, Any]:
    ours: list[dict[str, Any]] = []
    bare: list[dict[str, Any]] = []
    for _ in range(repeats):
        for path, into in (("/api/chat/stream", ours), ("/bare", bare)):
            result = await _stream(port, path, n)
            _check(result, n)
            into.append(result)
    ours_tps = statistics.median(n / r["total_s"] for r in ours)
    bare_tps = statistics.median(n / r["total_s"] for r in bare)
    return {
        "bench": "relay",
        "mode": "single",
        "tokens": n,
        "repeats": repeats,
        "pagechat_tokens_per_s": round(ours_tps),
        "bare_tokens_per_s": round(bare_tps),
        "ratio": round(ours_tps / bare_tps, 3),
        "pagechat_first_event_ms": round(statistics.median(r["first_s"] for r in ours) * 1e3, 2),
        "bare_first_event_ms": round(statistics.median(r["first_s"] for r in bare) * 1e3, 2),
    }


async def _burst_of(port: int, path: str, streams: int, n: int, server: psutil.Process) -> dict:  # type: ignore[type-arg]
    cpu0 = sum(server.cpu_times()[:2])
    start = time.perf_counter()
    results = await asyncio.gather(*(_stream(port, path, n) for _ in range(streams)))
    wall = time.perf_counter() - start
    cpu = sum(server.cpu_times()[:2]) - cpu0
    for result in results:
        _check(result, n)
    firsts = sorted(r["first_s"] + r["start"] - start for r in results)
    return {
        "tokens_per_s": round(streams * n / wall),
        "first_token_p50_ms": round(statistics.median(firsts) * 1e3, 1),
        "cpu_us_per_token": round(cpu / (streams * n) * 1e6, 2),
    }


async def _burst(port: int, streams: int, n: int, server: psutil.Process) -> dict[str, Any]:
    bare = await _burst_of(port, "/bare", streams, n, server)
    ours = await _burst_of(port, "/api/chat/stream", streams, n, server)
    return {
        "bench": "relay",
        "mode": "burst",
        "streams": streams,
        "tokens": n,
        "pagechat": ours,
        "bare": bare,
        "ratio": round(ours["tokens_per_s"] / bare["tokens_per_s"], 3),
    }


def _summary(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    singles = [r for r in results if r["mode"] == "single"]
    bursts = [r for r in results if r["mode"] == "burst"]
    longest = max(singles, key=lambda r: r["tokens"], default=None)
    met = {
        # A short answer's time is mostly the turn's start and end, not the relay.
        "single_ratio": longest is None or longest["ratio"] >= TARGETS["single_ratio_min"],
        "first_event": all(
            r["pagechat_first_event_ms"] < TARGETS["first_event_ms_max"] for r in singles
        ),
        "burst_ratio": all(r["ratio"] >= TARGETS["burst_ratio_min"] for r in bursts),
    }
    return {"bench": "relay", "summary": True, "targets": TARGETS, "met": met}


async def _main(args: argparse.Namespace, port: int, server: psutil.Process) -> int:
    results = []
    await _stream(port, "/api/chat/stream", 5)  # warm up both paths
    await _stream(port, "/bare", 5)
    for n in args.tokens:
        results.append(await _single(port, n, args.repeats))
        print(json.dumps(results[-1]), flush=True)
    if args.burst:
        results.append(await _burst(port, args.burst, args.burst_tokens, server))
        print(json.dumps(results[-1]), flush=True)
    print(json.dumps(_summary(results)), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tokens", type=lambda s: [int(x) for x in s.split(",")], default=[100, 10_000]
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--burst", type=int, default=50, help="answers at once (0: none)")
    parser.add_argument("--burst-tokens", type=int, default=2000)
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        _serve(args.serve)
        return 0
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, str(HERE), "--serve", str(port)],
        env={**os.environ, "PAGECHAT_LOG_LEVEL": "WARNING"},
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the relay server did not start")
            time.sleep(0.05)
        return asyncio.run(_main(args, port, psutil.Process(proc.pid)))
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


if __name__ == "__main__":
    raise SystemExit(main())
