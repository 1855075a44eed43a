"""Relay overhead: tokens through the whole pagechat HTTP stack vs a bare SSE endpoint.

An instant model streams N tokens; pagechat relays them through the agent
loop, the run's event log and sse-starlette. The same N tokens go through a
bare Starlette SSE endpoint with no agent loop. Both are served by one
uvicorn on loopback and read by one httpx client. Prints one JSON line.

Targets: ratio (pagechat events/s ÷ bare events/s) ≥ 0.5; first event < 10 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import threading
import time
from collections.abc import AsyncIterator

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.responses import StreamingResponse
from starlette.routing import Mount, Route

from pagechat.identity import Principal
from pagechat.models import ScriptedModel
from pagechat.server import StaticTokens, create_app
from pagechat.store import MemoryChatStore

TOKEN = "bench-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _build(tokens: list[str], runs: int) -> Starlette:
    model = ScriptedModel([tokens] * runs)
    chat_app = create_app(
        model=model,
        store=MemoryChatStore(),
        authenticator=StaticTokens({TOKEN: Principal(id="bench", email="bench@example.com")}),
    )

    async def bare(request: object) -> StreamingResponse:
        async def frames() -> AsyncIterator[str]:
            yield 'id: 1\ndata: {"type":"status","message":"Thinking..."}\n\n'
            for i, tok in enumerate(tokens, start=2):
                yield f"id: {i}\ndata: {json.dumps({'type': 'text_delta', 'text': tok})}\n\n"
            done = json.dumps({"type": "complete", "payload": {"message": ""}})
            yield f"id: {len(tokens) + 2}\ndata: {done}\n\n"

        return StreamingResponse(frames(), media_type="text/event-stream")

    return Starlette(routes=[Route("/bare", bare), Mount("/", app=chat_app)])


async def _measure(
    client: httpx.AsyncClient, method: str, url: str, body: object
) -> tuple[float, float, int]:
    start = time.perf_counter()
    first = 0.0
    count = 0
    async with client.stream(
        method, url, json=body, headers={"Authorization": f"Bearer {TOKEN}"}
    ) as response:
        response.raise_for_status()
        async for line in response.aiter_lines():
            if line.startswith("data:"):
                if count == 0:
                    first = time.perf_counter() - start
                count += 1
    return time.perf_counter() - start, first, count


async def _main(n_tokens: int, repeats: int) -> dict[str, object]:
    tokens = [f"tok{i} " for i in range(n_tokens)]
    app = _build(tokens, repeats + 1)
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        await asyncio.sleep(0.01)
    base = f"http://127.0.0.1:{port}"
    ours: list[tuple[float, float, int]] = []
    bare: list[tuple[float, float, int]] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await _measure(client, "POST", "/api/chat/stream", {"message": "warm up"})
        for _ in range(repeats):
            ours.append(await _measure(client, "POST", "/api/chat/stream", {"message": "go"}))
            bare.append(await _measure(client, "GET", "/bare", None))
    server.should_exit = True
    thread.join(5)
    ours_eps = statistics.median(n / t for t, _, n in ours)
    bare_eps = statistics.median(n / t for t, _, n in bare)
    return {
        "bench": "relay",
        "tokens": n_tokens,
        "repeats": repeats,
        "events_per_run": ours[0][2],
        "pagechat_events_per_s": round(ours_eps),
        "bare_events_per_s": round(bare_eps),
        "ratio": round(ours_eps / bare_eps, 3),
        "pagechat_first_event_ms": round(statistics.median(f for _, f, _ in ours) * 1000, 2),
        "bare_first_event_ms": round(statistics.median(f for _, f, _ in bare) * 1000, 2),
        "targets": {"ratio_min": 0.5, "first_event_ms_max": 10},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_main(args.tokens, args.repeats))))


if __name__ == "__main__":
    main()
