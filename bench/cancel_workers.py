"""Stop latency across workers: Stop sent to worker B, the answer running on worker A.

Two `pagechat serve` processes share a real `redis-server` (persistence off) and a
SQLite file; the model is the real Anthropic SDK streaming from a fake upstream.
Each round starts a long answer on A, waits for its first words, posts the cancel
to B, and times until A's stream delivers `cancelled` (the owner got the stop
by pub/sub, cancelled the model request and wrote the terminal event). Prints
one JSON line. Target: p99 < 200 ms (issue 13), as within one process.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakes.anthropic_server import FakeAnthropic, reply
from tests.support.redis_server import RedisServer, redis_server_binary
from tests.support.workers import Worker, events, seed_user, worker_env

PASSWORD = "bench password " + "x" * 8


def _long(_body: object) -> object:
    return reply(*[f"w{i} " for i in range(2000)], tokens_per_second=50)


async def _round(a: httpx.AsyncClient, b: httpx.AsyncClient) -> float:
    async with a.stream("POST", "/api/chat/stream", json={"message": "go"}) as live:
        run_id = live.headers["X-Run-Id"]
        stream = events(live)
        async for event in stream:
            if event.type == "text_delta":
                break
        started = time.perf_counter()
        stop = await b.post(f"/api/chat/runs/{run_id}/cancel")
        stop.raise_for_status()
        async for event in stream:
            if event.type == "cancelled":
                return (time.perf_counter() - started) * 1000
    raise RuntimeError("the answer did not end cancelled")


async def _run(rounds: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        database_url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        await seed_user(database_url, "bench@example.com", PASSWORD)
        redis = RedisServer(redis_server_binary())
        redis.start()
        try:
            with FakeAnthropic(responder=_long) as upstream:  # type: ignore[arg-type]
                env = worker_env(
                    database_url=database_url,
                    redis_url=redis.url,
                    upstream=upstream.base_url,
                    state_dir=Path(tmp) / "state",
                    # Many turns a minute from one account: not what quotas are for here.
                    PAGECHAT_QUOTAS=json.dumps({"user": {"turns_per_minute": 10_000}}),
                )
                a, b = Worker("a", env), Worker("b", env)
                try:
                    await asyncio.gather(a.start(), b.start())
                    async with httpx.AsyncClient(base_url=a.url, timeout=30) as login:
                        token = (
                            await login.post(
                                "/api/auth/login",
                                json={"email": "bench@example.com", "password": PASSWORD},
                            )
                        ).json()["access_token"]
                    headers = {"Authorization": f"Bearer {token}"}
                    async with (
                        httpx.AsyncClient(base_url=a.url, headers=headers, timeout=30) as on_a,
                        httpx.AsyncClient(base_url=b.url, headers=headers, timeout=30) as on_b,
                    ):
                        await _round(on_a, on_b)  # warm-up: connections, imports
                        ms = [await _round(on_a, on_b) for _ in range(rounds)]
                finally:
                    await asyncio.gather(a.aclose(), b.aclose())
        finally:
            redis.stop()
    ordered = sorted(ms)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "bench": "cancel_across_workers",
        "rounds": rounds,
        "ms_p50": round(statistics.median(ms), 1),
        "ms_p99": round(p99, 1),
        "ms_max": round(max(ms), 1),
        "target_ms_p99": 200,
        "target_met": p99 < 200,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_run(args.rounds))))


if __name__ == "__main__":
    main()
