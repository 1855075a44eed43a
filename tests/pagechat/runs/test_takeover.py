"""Claiming a run whose owner stopped: one winner, counted, bounded (real redis-server)."""

from __future__ import annotations

import asyncio
import json

from redis.asyncio import Redis

from pagechat.runs.redis_log import RunKeys
from pagechat.runs.takeover import CLAIM_SCRIPT, claim_run, read_entries


async def _claim(redis: Redis, keys: RunKeys, worker: str, max_takeovers: int = 3):  # type: ignore[no-untyped-def]
    return await claim_run(
        redis,
        redis.register_script(CLAIM_SCRIPT),
        keys,
        worker_id=worker,
        lease_seconds=5,
        max_takeovers=max_takeovers,
        max_events=1000,
        log_ttl=60,
    )


async def _orphan(redis: Redis, *, resume: bool = True) -> RunKeys:
    keys = RunKeys("pagechat:", "r1")
    meta: dict[str | bytes, str | bytes] = {"owner": "u1", "conversation": "c1", "worker": "x"}
    if resume:
        meta["resume"] = "{}"
    await redis.hset(keys.meta, mapping=meta)  # type: ignore[arg-type]
    await redis.xadd(
        keys.log, {"t": "text_delta", "d": '{"type":"text_delta","text":"hi"}'}, id="1-0"
    )
    return keys


async def test_of_workers_racing_for_an_orphan_exactly_one_claims_it(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    keys = await _orphan(redis)
    outcomes = await asyncio.gather(*(_claim(redis, keys, f"w{i}") for i in range(8)))
    winners = [i for i, o in enumerate(outcomes) if o.claimed]
    assert len(winners) == 1 and outcomes[winners[0]].takeovers == 1
    assert await redis.get(keys.lease) == f"w{winners[0]}".encode()
    assert await redis.hget(keys.meta, "worker") == f"w{winners[0]}".encode()
    assert await read_entries(redis, keys) == [
        (1, "text_delta", b'{"type":"text_delta","text":"hi"}')
    ]
    await redis.aclose()


async def test_a_run_taken_over_too_often_is_ended_with_a_clear_error(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    keys = await _orphan(redis)
    for count in (1, 2):
        assert (await _claim(redis, keys, "w", max_takeovers=2)).takeovers == count
        await redis.delete(keys.lease)  # its new owner died too
    outcome = await _claim(redis, keys, "w", max_takeovers=2)
    assert not outcome.claimed and outcome.ended is not None
    entries = await read_entries(redis, keys)
    assert [seq for seq, _, _ in entries] == [1, 2]
    ended = json.loads(entries[-1][2])
    assert ended["type"] == "error" and ended["code"] == "interrupted"
    assert "stopped 3 times" in ended["message"]
    assert await redis.hget(keys.meta, "ended") == b"error"
    await redis.aclose()


async def test_a_run_with_no_resume_recipe_is_ended_interrupted(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    keys = await _orphan(redis, resume=False)
    outcome = await _claim(redis, keys, "w")
    assert outcome.ended is not None and outcome.ended.code == "interrupted"
    assert not await redis.exists(keys.lease)
    await redis.aclose()
