"""CPU per token of reading a model's stream: each SDK's typed events against pagechat's.

Both providers let their SDK make the request and read the body themselves
(models/_sse.py, models/_transport.py). This measures what that saves: an
upstream in its own process streams instant answers in the Anthropic and the
OpenAI format, and this process reads them either through the SDK's typed
stream (what the providers did before) or through `AnthropicModel.stream` /
`OpenAIModel.stream`. CPU is this process's own (`time.process_time`), rounds
alternate so both sides see the same machine, and the figure is the median.

    .venv/bin/python bench/provider_stream.py [--tokens 2000] [--answers 20] [--rounds 5]

Prints one JSON object per provider.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

_WORD = "token "


def _anthropic_body(tokens: int) -> bytes:
    def event(kind: str, data: dict[str, Any]) -> str:
        return f"event: {kind}\ndata: {json.dumps(data)}\n\n"

    start = {
        "type": "message_start",
        "message": {
            "id": "msg_bench",
            "type": "message",
            "role": "assistant",
            "model": "bench",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1},
        },
    }
    parts = [
        event("message_start", start),
        event(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
    ]
    delta = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": _WORD},
    }
    parts += [event("content_block_delta", delta)] * tokens
    parts += [
        event("content_block_stop", {"type": "content_block_stop", "index": 0}),
        event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": tokens},
            },
        ),
        event("message_stop", {"type": "message_stop"}),
    ]
    return "".join(parts).encode()


def _openai_body(tokens: int) -> bytes:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "bench",
            "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}],
            "usage": None,
        }
        return f"data: {json.dumps(body, separators=(',', ':'))}\n\n"

    parts = [chunk({"role": "assistant", "content": ""})]
    parts += [chunk({"content": _WORD})] * tokens
    parts.append(chunk({}, "stop"))
    usage = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "bench",
        "choices": [],
        "usage": {"prompt_tokens": 10, "completion_tokens": tokens, "total_tokens": tokens + 10},
    }
    parts.append(f"data: {json.dumps(usage)}\n\ndata: [DONE]\n\n")
    return "".join(parts).encode()


def _serve(port: multiprocessing.Queue[int], tokens: int) -> None:
    bodies = {"anthropic": _anthropic_body(tokens), "openai": _openai_body(tokens)}

    async def answer(request: web.Request, body: bytes) -> web.StreamResponse:
        await request.read()
        response = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await response.prepare(request)
        # Written in pieces of a few events, as a fast upstream's socket delivers them.
        for start in range(0, len(body), 4096):
            await response.write(body[start : start + 4096])
        await response.write_eof()
        return response

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/messages", lambda r: answer(r, bodies["anthropic"]))
        app.router.add_post("/v1/chat/completions", lambda r: answer(r, bodies["openai"]))
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port.put(site._server.sockets[0].getsockname()[1])  # type: ignore[union-attr]
        await asyncio.Event().wait()

    asyncio.run(main())


async def _cpu_per_token(read: Callable[[], Awaitable[int]], answers: int) -> float:
    started = time.process_time()
    tokens = 0
    for _ in range(answers):
        tokens += await read()
    return (time.process_time() - started) / tokens * 1e6


async def _run(base: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    import anthropic
    import openai

    from pagechat.models import ModelRequest, TextDelta, UserTurn
    from pagechat.models.anthropic import AnthropicModel
    from pagechat.models.openai import OpenAIModel

    request = ModelRequest(system="", messages=[UserTurn("go")])
    a_client = anthropic.AsyncAnthropic(
        api_key="bench", base_url=base, http_client=anthropic.DefaultAioHttpClient()
    )
    o_client = openai.AsyncOpenAI(
        api_key="bench", base_url=f"{base}/v1", http_client=openai.DefaultAioHttpClient()
    )
    a_model = AnthropicModel("bench", client=a_client)
    o_model = OpenAIModel("bench", client=o_client)

    async def a_sdk() -> int:
        n = 0
        stream = await a_client.messages.create(
            model="bench", max_tokens=10, messages=[{"role": "user", "content": "go"}], stream=True
        )
        async for event in stream:
            if event.type == "content_block_delta" and event.delta.type == "text_delta":
                n += 1
        return n

    async def o_sdk() -> int:
        n = 0
        stream = await o_client.chat.completions.create(
            model="bench", messages=[{"role": "user", "content": "go"}], stream=True
        )
        async for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                n += 1
        return n

    async def ours(model: Any) -> int:
        return sum([1 async for e in model.stream(request) if isinstance(e, TextDelta)])

    sides: dict[str, dict[str, Callable[[], Awaitable[int]]]] = {
        "anthropic": {"sdk": a_sdk, "pagechat": lambda: ours(a_model)},
        "openai": {"sdk": o_sdk, "pagechat": lambda: ours(o_model)},
    }
    results = []
    for provider, readers in sides.items():
        for read in readers.values():  # warm both up: connections, imports, caches
            assert await read() == args.tokens, provider
        figures: dict[str, list[float]] = {name: [] for name in readers}
        for _ in range(args.rounds):
            for name, read in readers.items():
                figures[name].append(await _cpu_per_token(read, args.answers))
        sdk = statistics.median(figures["sdk"])
        ours_us = statistics.median(figures["pagechat"])
        results.append(
            {
                "bench": "provider_stream",
                "provider": provider,
                "tokens": args.tokens,
                "answers": args.answers,
                "rounds": args.rounds,
                "sdk_us_per_token": round(sdk, 2),
                "pagechat_us_per_token": round(ours_us, 2),
                "ratio_to_sdk": round(ours_us / sdk, 2),
            }
        )
    await a_client.close()
    await o_client.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=2000, help="tokens per answer")
    parser.add_argument("--answers", type=int, default=20, help="answers per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    args = parser.parse_args()
    port: multiprocessing.Queue[int] = multiprocessing.Queue()
    upstream = multiprocessing.Process(target=_serve, args=(port, args.tokens), daemon=True)
    upstream.start()
    try:
        base = f"http://127.0.0.1:{port.get(timeout=30)}"
        for result in asyncio.run(_run(base, args)):
            print(json.dumps(result), flush=True)
    finally:
        upstream.terminate()
        upstream.join(5)


if __name__ == "__main__":
    main()
