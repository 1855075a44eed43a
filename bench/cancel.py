"""Stop latency: from `POST .../cancel` to the `cancelled` event at the client.

Through a real uvicorn on loopback, with the model mid-stream (a scripted pause)
and with a tool mid-run (an async tool sleeping). Prints one JSON line.
Target: p99 < 200 ms for both.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.harness import AUTH_A, Harness, harness

from pagechat.models import Pause, tool_call
from pagechat.testing import frames
from pagechat.tools import ToolConfig, ToolContext, register_tool


async def _sleepy(params: dict[str, Any], ctx: ToolContext) -> str:
    await asyncio.sleep(30)
    return "never"


async def _one(h: Harness, script: list[Any]) -> float:
    h.script(script)
    async with h.client.stream(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=AUTH_A
    ) as r:
        run_id = r.headers["x-run-id"]
        async for f in frames(r):
            if f.type in ("text_delta", "tool_start") and (
                f.type == "tool_start" or f.event["text"] == "streaming "
            ):
                break
        if script[-1] != "never":
            await asyncio.sleep(0.01)  # let the tool start
        started = time.perf_counter()
        await h.client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
        async for f in frames(r):
            if f.type == "cancelled":
                return (time.perf_counter() - started) * 1000
    raise RuntimeError("the run did not end with cancelled")


def _summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {
        "p50_ms": round(statistics.median(ms), 2),
        "p99_ms": round(ms[min(len(ms) - 1, int(len(ms) * 0.99))], 2),
        "max_ms": round(ms[-1], 2),
    }


async def _main(repeats: int) -> dict[str, Any]:
    schema = {"type": "object", "properties": {}}
    register_tool(
        ToolConfig(name="sleepy", description="Sleeps", input_schema=schema, executor=_sleepy)
    )
    async with harness() as h:
        h.client.timeout = httpx.Timeout(10)
        model_ms = [await _one(h, ["streaming ", Pause(30), "never"]) for _ in range(repeats)]
        tool_ms = [await _one(h, [tool_call("sleepy"), "never shown"]) for _ in range(repeats)]
    return {
        "bench": "cancel",
        "repeats": repeats,
        "during_model_stream": _summary(model_ms),
        "during_tool": _summary(tool_ms),
        "target_p99_ms": 200,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=50)
    print(json.dumps(asyncio.run(_main(parser.parse_args().repeats))))


if __name__ == "__main__":
    main()
