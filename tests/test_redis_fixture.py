"""The Redis test server is real and each test's own."""

from __future__ import annotations

import redis.asyncio as redis

from tests.support.redis_server import RedisServer


async def test_redis_server_answers_and_forgets_on_restart(redis_server: RedisServer) -> None:
    client = redis.Redis.from_url(redis_server.url)
    try:
        await client.set("k", "v")
        assert await client.get("k") == b"v"
        await client.aclose()
        redis_server.restart()
        client = redis.Redis.from_url(redis_server.url)
        assert await client.get("k") is None
    finally:
        await client.aclose()
