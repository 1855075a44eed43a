"""Scale-out: the Redis run log against the in-memory one, and two workers against one.

Each configuration is a run of `bench/load.py`'s measurement (a fresh `pagechat serve`
on SQLite, a fake Anthropic upstream in its own process at `--pace` tokens/s, load
clients in their own processes, every stream checked event by event and against
what is stored):

* `memory-1`: one worker, runs in memory (no REDIS_URL: the embedded default);
* `redis-1`: one worker, runs in a real `redis-server` (persistence off);
* `redis-2`: `pagechat serve --workers 2` on that Redis.

At `--streams` (150) it reports, per configuration: errors, lost and duplicated
events, added inter-token delay p99, server CPU µs per token (all the server's
processes), Redis commands per token. At `--capacity-streams` (400, more than one
worker holds on 2 cores), how many replies were streaming at once for `redis-1`
and `redis-2` (`streaming_peak`, the upstream's count).

Targets (issue 13): the Redis log costs at most 15% more CPU per token than memory;
2 workers hold at least 1.8x the streams of one; 0 errors, 0 lost events. The load
generator and the upstream share the machine's cores with the workers: on 2 cores
two workers compete with them, which the output records (`cores`, `other_load`).
Prints one JSON object per run, then a summary. `--takeovers` measures instead what a
follower sees when the worker running its answer is SIGKILLed or gets SIGTERM, and the
CPU per token of the worker that took it over (bench/takeover.py).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Deadline, Processes, run_level, start_upstream
from tests.support.redis_server import RedisServer, redis_server_binary

CONFIGS = (("memory-1", False, 1), ("redis-1", True, 1), ("redis-2", True, 2))


def _args(base: argparse.Namespace, *, redis_url: str | None, workers: int) -> argparse.Namespace:
    return argparse.Namespace(
        tokens=base.tokens,
        pace=base.pace,
        users=base.users,
        clients=base.clients,
        ramp=base.ramp,
        keep=False,
        quiet_wait=base.quiet_wait,
        app=None,
        upstream_pid=base.upstream_pid,
        redis_url=redis_url,
        workers=workers,
    )


def _brief(name: str, result: dict[str, Any]) -> dict[str, Any]:
    return {
        "config": name,
        "streams": result["streams"],
        "errors": result["errors"],
        "lost_events": result["lost_events"],
        "duplicated_events": result["duplicated_events"],
        "lost_messages": result["messages"]["lost"],
        "added_delay_ms_p99": result["added_delay_ms"].get("p99"),
        "server_cpu_us_per_token": result["server_cpu_us_per_token"],
        "redis_commands_per_token": result["redis_commands_per_token"],
        "streaming_peak": result["streaming_peak"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=150)
    parser.add_argument("--capacity-streams", type=int, default=400)
    parser.add_argument("--tokens", type=int, default=100)
    parser.add_argument("--pace", type=float, default=50.0)
    parser.add_argument("--users", type=int, default=25)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--ramp", type=float, default=1.0)
    parser.add_argument("--quiet-wait", type=float, default=20.0)
    parser.add_argument("--deadline", type=float, default=900.0)
    parser.add_argument("--takeovers", action="store_true", help="only the takeover figures")
    parser.add_argument("--takeover-rounds", type=int, default=3)
    parser.add_argument("--takeover-answers", type=int, default=10)
    args = parser.parse_args()
    if args.takeovers:
        import asyncio

        from takeover import measure

        summary = asyncio.run(measure(args.takeover_rounds, args.takeover_answers))
        print(json.dumps(summary), flush=True)
        return 0 if all(summary["targets"].values()) else 1

    deadline = Deadline(args.deadline)
    procs = Processes()
    atexit.register(procs.stop_all)
    redis = RedisServer(redis_server_binary())
    redis.start()
    atexit.register(redis.stop)
    tmp = Path(tempfile.mkdtemp(prefix="pagechat-scale-"))
    procs.scratch.append(tmp)
    upstream, args.upstream_pid = start_upstream(procs, args.pace, deadline, tmp)

    runs: dict[str, dict[str, Any]] = {}
    for name, with_redis, workers in CONFIGS:
        level = _args(args, redis_url=redis.url if with_redis else None, workers=workers)
        result = run_level(args.streams, level, upstream, procs, deadline)
        runs[name] = _brief(name, result)
        print(json.dumps(runs[name] | {"other_load": result["other_load"]}), flush=True)
    capacity: dict[str, int] = {}
    for name, _with_redis, workers in CONFIGS[1:]:
        level = _args(args, redis_url=redis.url, workers=workers)
        result = run_level(args.capacity_streams, level, upstream, procs, deadline)
        capacity[name] = result["streaming_peak"]
        print(json.dumps(_brief(f"{name}-capacity", result)), flush=True)

    memory_cpu = runs["memory-1"]["server_cpu_us_per_token"]
    redis_cpu = runs["redis-1"]["server_cpu_us_per_token"]
    cpu_ratio = redis_cpu / memory_cpu if memory_cpu else float("inf")
    held_ratio = capacity["redis-2"] / capacity["redis-1"] if capacity["redis-1"] else 0.0
    clean = all(
        r["errors"] == 0
        and r["lost_events"] == 0
        and r["duplicated_events"] == 0
        and r["lost_messages"] == 0
        for r in runs.values()
    )
    print(
        json.dumps(
            {
                "bench": "scale",
                "cores": os.cpu_count(),
                "streams": args.streams,
                "redis_cpu_vs_memory": round(cpu_ratio, 3),
                "capacity_streams": args.capacity_streams,
                "streaming_at_once": capacity,
                "two_workers_vs_one": round(held_ratio, 2),
                "targets": {
                    "redis_cpu_at_most_1.15x_memory": cpu_ratio <= 1.15,
                    "two_workers_hold_1.8x": held_ratio >= 1.8,
                    "no_errors_no_lost_events": clean,
                },
            }
        ),
        flush=True,
    )
    return 0 if clean else 1


if __name__ == "__main__":
    raise SystemExit(main())
