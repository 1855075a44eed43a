"""Takeovers: the gap a follower sees when the worker running its answer stops.

Two `pagechat serve` workers on one real `redis-server` and one SQLite file; a fake
Anthropic upstream (in this process) that continues a numbered answer from its prefill.
Each round starts `--answers` answers on worker A, follows each from worker B, then
stops A: SIGKILL (B claims them when their lease lapses) or SIGTERM (A hands them over
at once). Per answer: the follower-visible gap (the longest pause between text deltas
around the stop), and that the answer completed with every word once. Also the CPU per
token of B (from /proc) while it streams answers it took over, against answers it
started itself. Run by `bench/scale.py --takeovers` (or alone); prints JSON lines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fakes.anthropic_server import FakeAnthropic
from tests.support.numbered import numbered_answer, words
from tests.support.redis_server import RedisServer, redis_server_binary
from tests.support.workers import Worker, events, seed_user, worker_env

EMAIL, PASSWORD = "bench@example.com", "bench-password-1"
PACE = 25.0
LEASE = 1.5
_TICK = os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def _p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


async def _follow(client: httpx.AsyncClient, run_id: str, stopped: asyncio.Event) -> dict[str, Any]:
    """Follow a run from the start; the longest pause between deltas after the stop."""
    text: list[str] = []
    last, gap, after, done = 0.0, 0.0, 0, None
    async with client.stream(
        "GET", f"/api/chat/runs/{run_id}/events", headers={"Last-Event-ID": "0"}
    ) as response:
        async for event in events(response):
            if event.type == "text_delta":
                now = time.monotonic()
                if stopped.is_set():
                    after += str(event.data["text"]).count(" ")
                    if last:
                        gap = max(gap, now - last)
                last = now
                text.append(str(event.data["text"]))
            if event.type in ("complete", "error", "cancelled"):
                done = event.type
                break
    return {"text": "".join(text), "end": done, "gap": gap, "after": after}


async def _round(
    a: Worker, b: Worker, headers: dict[str, str], answers: int, how: str
) -> list[dict[str, Any]]:
    stopped = asyncio.Event()
    async with (
        httpx.AsyncClient(base_url=a.url, headers=headers, timeout=60) as on_a,
        httpx.AsyncClient(base_url=b.url, headers=headers, timeout=60) as on_b,
    ):
        runs = []
        for n in range(answers):
            count = 100 + n
            async with on_a.stream(
                "POST", "/api/chat/stream", json={"message": f"words {count}"}
            ) as r:
                runs.append((count, r.headers["X-Run-Id"]))
        await asyncio.sleep(0.5)
        followers = [asyncio.create_task(_follow(on_b, rid, stopped)) for _, rid in runs]
        await asyncio.sleep(1.0)
        cpu_before = _cpu_seconds(b.pid)
        stopped.set()
        if how == "sigkill":
            await a.kill()
        else:
            await a.terminate()
        results = await asyncio.gather(*followers)
        cpu = _cpu_seconds(b.pid) - cpu_before
    out = []
    for (count, _), result in zip(runs, results, strict=True):
        out.append(
            {
                "ok": result["end"] == "complete" and result["text"] == words(count),
                "gap": result["gap"],
                "after": result["after"],
            }
        )
    if out:
        out[0]["cpu"] = cpu
    return out


async def _fresh_cpu(b: Worker, headers: dict[str, str], answers: int) -> tuple[float, int]:
    """B's CPU for answers it starts itself and streams to a follower: the baseline."""
    async with httpx.AsyncClient(base_url=b.url, headers=headers, timeout=60) as on_b:
        before = _cpu_seconds(b.pid)
        runs = []
        for n in range(answers):
            async with on_b.stream(
                "POST", "/api/chat/stream", json={"message": f"words {100 + n}"}
            ) as r:
                runs.append(r.headers["X-Run-Id"])
        never = asyncio.Event()
        await asyncio.gather(*(_follow(on_b, rid, never) for rid in runs))
        return _cpu_seconds(b.pid) - before, sum(100 + n for n in range(answers))


async def measure(rounds: int, answers: int) -> dict[str, Any]:
    """Run the rounds; the summary as a dict (also printed per round)."""
    redis = RedisServer(redis_server_binary())
    redis.start()
    tmp = Path(tempfile.mkdtemp(prefix="pagechat-takeover-"))
    database_url = f"sqlite+aiosqlite:///{tmp / 'db.sqlite'}"
    await seed_user(database_url, EMAIL, PASSWORD)
    quotas = '{"user": {"concurrent_answers": 1000, "turns_per_minute": 1000}}'
    try:
        with FakeAnthropic(responder=numbered_answer) as upstream:
            env = worker_env(
                database_url=database_url,
                redis_url=redis.url,
                upstream=upstream.base_url,
                state_dir=tmp / "state",
                PAGECHAT_QUOTAS=quotas,
                PAGECHAT_RUN_LEASE_SECONDS=str(LEASE),
            )
            a, b = Worker("a", env), Worker("b", env)
            await asyncio.gather(a.start(), b.start())
            try:
                async with httpx.AsyncClient(base_url=b.url) as client:
                    r = await client.post(
                        "/api/auth/login", json={"email": EMAIL, "password": PASSWORD}
                    )
                    headers = {"Authorization": f"Bearer {r.json()['access_token']}"}
                fresh_cpu, fresh_tokens = await _fresh_cpu(b, headers, answers)
                figures: dict[str, Any] = {}
                for how in ("sigkill", "sigterm"):
                    gaps: list[float] = []
                    failed, cpu, tokens = 0, 0.0, 0
                    for _ in range(rounds):
                        out = await _round(a, b, headers, answers, how)
                        gaps += [o["gap"] for o in out]
                        failed += sum(not o["ok"] for o in out)
                        cpu += out[0].get("cpu", 0.0)
                        tokens += sum(o["after"] for o in out)
                        await a.start()
                    figures[how] = {
                        "answers": len(gaps),
                        "not_complete_or_wrong": failed,
                        "gap_s_p50": _p(gaps, 0.5),
                        "gap_s_p99": _p(gaps, 0.99),
                        "gap_s_max": _p(gaps, 1.0),
                        "b_cpu_us_per_token": round(cpu / tokens * 1e6, 1) if tokens else None,
                    }
                    print(
                        json.dumps({"bench": "takeover", "stop": how, **figures[how]}), flush=True
                    )
            finally:
                await asyncio.gather(a.aclose(), b.aclose())
    finally:
        redis.close()
    return {
        "bench": "takeover",
        "lease_s": LEASE,
        "pace_tokens_per_s": PACE,
        "answers_per_round": answers,
        "rounds": rounds,
        "fresh_b_cpu_us_per_token": round(fresh_cpu / fresh_tokens * 1e6, 1),
        **{f"{how}_{k}": v for how, f in figures.items() for k, v in f.items()},
        "targets": {
            "sigkill_gap_p99_at_most_lease_plus_2s": (figures["sigkill"]["gap_s_p99"] or 99)
            <= LEASE + 2,
            "sigterm_gap_p99_under_1s": (figures["sigterm"]["gap_s_p99"] or 99) < 1.0,
            "every_answer_complete": figures["sigkill"]["not_complete_or_wrong"] == 0
            and figures["sigterm"]["not_complete_or_wrong"] == 0,
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--answers", type=int, default=10)
    args = parser.parse_args()
    summary = asyncio.run(measure(args.rounds, args.answers))
    print(json.dumps(summary), flush=True)
    return 0 if all(summary["targets"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
