"""Takeovers: the gap a follower sees when the worker running its answer stops.

Two `pagechat serve` workers on one real `redis-server` and one SQLite file; a fake
Anthropic upstream (in this process) that continues a numbered answer from its prefill.
Each round starts `--answers` answers on worker A, follows each from worker B, then
stops A: SIGKILL (B claims them when their lease lapses) or SIGTERM (A hands them over
at once). Per answer: the follower-visible gap (the longest pause between text deltas
around the stop), and that the answer completed with every word once. Also the CPU per
token of B (from /proc) while it streams answers it took over, against answers it
starts itself right after each round, as many and each as long as one streamed after the
stop (a turn's fixed costs weigh the same per token); a warm-up round of each kind first.
`--profile DIR` records py-spy's stacks of B for each. Run by `bench/scale.py
--takeovers` (or alone); prints JSON lines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
import tempfile
import time
from collections.abc import AsyncIterator
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


@contextlib.asynccontextmanager
async def _profiled(pid: int, out: Path | None) -> AsyncIterator[None]:
    """py-spy on `pid` while the block runs, its collapsed stacks in `out` (None: not)."""
    if out is None:
        yield
        return
    spy = await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")),
        *("record", "--pid", str(pid), "--rate", "250", "--nonblocking"),
        *("--format", "raw", "--output", str(out)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await asyncio.sleep(0.5)  # attached
    try:
        yield
    finally:
        spy.send_signal(signal.SIGINT)
        await spy.wait()


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
    a: Worker,
    b: Worker,
    headers: dict[str, str],
    answers: int,
    how: str,
    profile: Path | None = None,
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
        async with _profiled(b.pid, profile):
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


async def _fresh_cpu(
    b: Worker, headers: dict[str, str], counts: list[int], profile: Path | None = None
) -> tuple[float, int]:
    """B's CPU for answers it starts itself and streams to a follower on B: the baseline.
    `counts`: each answer's length in words (the takeover round's, after its stop)."""
    async with (
        httpx.AsyncClient(base_url=b.url, headers=headers, timeout=60) as on_b,
        _profiled(b.pid, profile),
    ):
        before = _cpu_seconds(b.pid)
        runs = []
        for count in counts:
            async with on_b.stream(
                "POST", "/api/chat/stream", json={"message": f"words {count}"}
            ) as r:
                runs.append(r.headers["X-Run-Id"])
        never = asyncio.Event()
        await asyncio.gather(*(_follow(on_b, rid, never) for rid in runs))
        return _cpu_seconds(b.pid) - before, sum(counts)


async def _rounds(
    a: Worker,
    b: Worker,
    headers: dict[str, str],
    rounds: int,
    answers: int,
    how: str,
    profile: Path | None = None,
) -> dict[str, Any]:
    """`rounds` takeover rounds, each followed by a baseline round of as many answers B
    starts itself, each as long as one streamed after the stop (so the turn's fixed costs
    weigh the same per token); the figures, each round's printed."""
    gaps: list[float] = []
    failed = 0
    ratios: list[float] = []
    cpu = fresh_cpu = 0.0
    tokens = fresh_tokens = 0
    for number in range(rounds):
        spied = profile / f"{how}-{number + 1}" if profile is not None else None
        out = await _round(a, b, headers, answers, how, spied and spied.with_suffix(".taken"))
        await a.start()
        round_cpu = out[0].get("cpu", 0.0)
        after = [o["after"] for o in out]
        base_cpu, base_tokens = await _fresh_cpu(
            b, headers, [max(1, n) for n in after], spied and spied.with_suffix(".fresh")
        )
        per_token = round_cpu / max(1, sum(after)) * 1e6
        base_per_token = base_cpu / max(1, base_tokens) * 1e6
        print(
            json.dumps(
                {
                    "round": number + 1,
                    "stop": how,
                    "tokens": sum(after),
                    "b_cpu_us_per_token": round(per_token, 1),
                    "fresh_b_cpu_us_per_token": round(base_per_token, 1),
                }
            ),
            flush=True,
        )
        gaps += [o["gap"] for o in out]
        failed += sum(not o["ok"] for o in out)
        cpu, tokens = cpu + round_cpu, tokens + sum(after)
        fresh_cpu, fresh_tokens = fresh_cpu + base_cpu, fresh_tokens + base_tokens
        ratios.append(per_token / base_per_token if base_per_token else float("inf"))
    return {
        "answers": len(gaps),
        "not_complete_or_wrong": failed,
        "gap_s_p50": _p(gaps, 0.5),
        "gap_s_p99": _p(gaps, 0.99),
        "gap_s_max": _p(gaps, 1.0),
        "b_cpu_us_per_token": round(cpu / tokens * 1e6, 1) if tokens else None,
        "fresh_b_cpu_us_per_token": round(fresh_cpu / fresh_tokens * 1e6, 1)
        if fresh_tokens
        else None,
        "cpu_vs_fresh_median": _p(ratios, 0.5),
    }


async def measure(
    rounds: int, answers: int, warmup: int = 1, profile: Path | None = None
) -> dict[str, Any]:
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
                # B's first answers and first takeovers import and warm what they use
                # (once per process, not per token): not measured.
                for how in ("sigkill", "sigterm")[: 2 * warmup]:
                    await _round(a, b, headers, 2, how)
                    await a.start()
                    await _fresh_cpu(b, headers, [50, 50])
                figures: dict[str, Any] = {}
                for how in ("sigkill", "sigterm"):
                    figures[how] = await _rounds(a, b, headers, rounds, answers, how, profile)
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
        **{f"{how}_{k}": v for how, f in figures.items() for k, v in f.items()},
        "targets": {
            "sigkill_gap_p99_at_most_lease_plus_2s": (figures["sigkill"]["gap_s_p99"] or 99)
            <= LEASE + 2,
            "sigterm_gap_p99_under_1s": (figures["sigterm"]["gap_s_p99"] or 99) < 1.0,
            "every_answer_complete": figures["sigkill"]["not_complete_or_wrong"] == 0
            and figures["sigterm"]["not_complete_or_wrong"] == 0,
            "cpu_per_token_after_takeover_at_most_fresh": all(
                (f["cpu_vs_fresh_median"] or 99) <= 1.0 for f in figures.values()
            ),
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--answers", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=1, help="unmeasured rounds of each stop")
    parser.add_argument("--profile", type=Path, help="py-spy B into DIR/<stop>-<round>.*")
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    summary = asyncio.run(measure(args.rounds, args.answers, args.warmup, args.profile))
    print(json.dumps(summary), flush=True)
    return 0 if all(summary["targets"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
