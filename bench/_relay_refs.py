"""The reference relays of `bench/relay_cpu.py`: what the same work costs with no framework.

Served by uvicorn exactly as `pagechat serve` is (uvloop, httptools), each answers
`POST /relay` with `{"message": ...}` by asking the fake Anthropic upstream
(`ANTHROPIC_BASE_URL`) for the reply and streaming it back as SSE:

* `sdk_app`: the official `anthropic` SDK on its aiohttp transport, as pagechat
  uses it; each text delta becomes one `text_delta` frame, then a `complete`.
  This is the cost of the SDK alone.
* `raw_app`: aiohttp posts the request and the upstream's bytes are forwarded as
  they arrive, unparsed. This is the floor: reading and writing the bytes.
* `floor_app`: the least a relay does to answer as pagechat does with the SDK making
  the request: the SDK's `messages.create` (its request building, status check and
  errors), the body read, split and parsed the way pagechat reads it
  (`pagechat.models._sse`, `_transport`), each text delta framed as pagechat frames it
  (`pagechat.runs.log.encode_text`, numbered `id:`s), then a `complete`. No account,
  no storage, no markers, no run log: what is left of pagechat's cost above this is
  what those cost.

Run as `uvicorn --factory _relay_refs:sdk_app` (or `raw_app`, `floor_app`) from `bench/`.
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

from pagechat.models._sse import event_json, sse_data
from pagechat.models._transport import body_chunks
from pagechat.runs.log import encode_text

__all__ = ["floor_app", "raw_app", "sdk_app"]

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


def floor_app() -> Starlette:
    client = AsyncAnthropic(api_key="bench-key", max_retries=0, http_client=DefaultAioHttpClient())

    async def relay(request: Request) -> StreamingResponse:
        message = (await request.json())["message"]
        stream = await client.messages.create(
            model=_MODEL,
            max_tokens=_MAX_TOKENS,
            messages=[{"role": "user", "content": message}],
            stream=True,
        )

        async def frames() -> AsyncIterator[bytes]:
            seq = 0
            parts: list[str] = []
            try:
                async for data in sse_data(body_chunks(stream.response)):
                    event = event_json(data)
                    if event.get("type") == "content_block_delta":
                        text = event["delta"].get("text")
                        if text:
                            seq += 1
                            parts.append(text)
                            yield b"id: %d\ndata: %s\n\n" % (seq, encode_text(text))
            finally:
                await stream.close()
            final: dict[str, object] = {"type": "complete", "payload": {"message": "".join(parts)}}
            yield _frame(seq + 1, final)

        return StreamingResponse(frames(), media_type="text/event-stream")

    return Starlette(routes=[Route("/relay", relay, methods=["POST"]), Route("/health", _health)])
