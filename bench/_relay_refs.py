"""The reference relays of `bench/relay_cpu.py`: what the same work costs with no framework.

Served by uvicorn exactly as `pagechat serve` is (uvloop, httptools), each answers
`POST /relay` with `{"message": ...}` by asking the fake Anthropic upstream
(`ANTHROPIC_BASE_URL`) for the reply and streaming it back as SSE:

* `sdk_app`: the official `anthropic` SDK on its aiohttp transport, as pagechat
  uses it; each text delta becomes one `text_delta` frame, then a `complete`.
  This is the cost of the SDK alone.
* `raw_app`: aiohttp posts the request and the upstream's bytes are forwarded as
  they arrive, unparsed. This is the floor: reading and writing the bytes.

Run as `uvicorn --factory _relay_refs:sdk_app` (or `raw_app`) from `bench/`.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator

import aiohttp
from anthropic import AsyncAnthropic, DefaultAioHttpClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, StreamingResponse
from starlette.routing import Route

__all__ = ["raw_app", "sdk_app"]

_MODEL = "claude-bench"
_MAX_TOKENS = 4096


def _health(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


def _frame(seq: int, event: dict[str, object]) -> bytes:
    return b"id: %d\ndata: %s\n\n" % (seq, json.dumps(event, separators=(",", ":")).encode())


def sdk_app() -> Starlette:
    client = AsyncAnthropic(api_key="bench-key", max_retries=0, http_client=DefaultAioHttpClient())

    async def relay(request: Request) -> StreamingResponse:
        message = (await request.json())["message"]

        async def frames() -> AsyncIterator[bytes]:
            stream = await client.messages.create(
                model=_MODEL,
                max_tokens=_MAX_TOKENS,
                messages=[{"role": "user", "content": message}],
                stream=True,
            )
            seq = 0
            parts: list[str] = []
            async for event in stream:
                if event.type == "content_block_delta" and event.delta.type == "text_delta":
                    seq += 1
                    parts.append(event.delta.text)
                    yield _frame(seq, {"type": "text_delta", "text": event.delta.text})
            final: dict[str, object] = {"type": "complete", "payload": {"message": "".join(parts)}}
            yield _frame(seq + 1, final)

        return StreamingResponse(frames(), media_type="text/event-stream")

    return Starlette(routes=[Route("/relay", relay, methods=["POST"]), Route("/health", _health)])


def raw_app() -> Starlette:
    upstream = os.environ["ANTHROPIC_BASE_URL"].rstrip("/") + "/v1/messages"
    session: aiohttp.ClientSession | None = None

    async def relay(request: Request) -> StreamingResponse:
        nonlocal session
        if session is None:
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        message = (await request.json())["message"]
        body = {
            "model": _MODEL,
            "max_tokens": _MAX_TOKENS,
            "messages": [{"role": "user", "content": message}],
            "stream": True,
        }
        response = await session.post(upstream, json=body, headers={"x-api-key": "bench-key"})

        async def chunks() -> AsyncIterator[bytes]:
            async with response:
                async for chunk in response.content.iter_any():
                    yield chunk

        return StreamingResponse(chunks(), media_type="text/event-stream")

    return Starlette(routes=[Route("/relay", relay, methods=["POST"]), Route("/health", _health)])
