"""A deployment of real `pagechat serve` workers on one Redis (or a Redis Cluster) and one
database, behind a fake Anthropic upstream: what the scale-out and takeover tests share.

`deploy` seeds an account, starts the upstream (a numbered answer by default,
tests/support/numbered.py) and the workers side by side, logs in once and stops all of
it afterwards. The workers are `Worker`s (tests/support/workers.py): a test kills,
pauses, terminates or restarts them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.fakes.anthropic_server import FakeAnthropic, Responder
from tests.support.numbered import numbered_answer
from tests.support.redis_cluster import RedisClusterServers
from tests.support.redis_server import RedisServer
from tests.support.workers import Worker, seed_user, worker_env

__all__ = ["Deployment", "deploy"]


@dataclass
class Deployment:
    """Running workers, their upstream and Redis, and an account's headers."""

    workers: list[Worker]
    upstream: FakeAnthropic
    redis: RedisServer | RedisClusterServers
    """One Redis (a test may restart it), or a Redis Cluster."""
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def a(self) -> Worker:
        """The first worker."""
        return self.workers[0]

    @property
    def b(self) -> Worker:
        """The second worker."""
        return self.workers[1]

    @property
    def redis_url(self) -> str:
        """Where the workers' Redis is."""
        return self.redis.url

    def client(self, worker: Worker) -> httpx.AsyncClient:
        """A client of `worker`, signed in as the deployment's account."""
        return httpx.AsyncClient(base_url=worker.url, headers=self.headers, timeout=30)


@asynccontextmanager
async def deploy(
    *,
    database_url: str,
    redis: RedisServer | RedisClusterServers,
    state_dir: Path,
    email: str,
    password: str,
    workers: int = 2,
    responder: Responder = numbered_answer,
    env_of: Mapping[str, Mapping[str, str]] | None = None,
    **env: str,
) -> AsyncIterator[Deployment]:
    """`workers` workers (named a, b, c...) on `redis` and `database_url`, signed in as a
    new account `email`; `env`: more of their settings; `env_of`: one worker's own (by its
    name: `{"a": {"REDIS_URL": ...}}`, its way to Redis through a proxy)."""
    await seed_user(database_url, email, password)
    sharded = isinstance(redis, RedisClusterServers)
    with FakeAnthropic(responder=responder) as upstream:
        settings = worker_env(
            database_url=database_url,
            redis_url=redis.url,
            upstream=upstream.base_url,
            state_dir=state_dir,
            **({"PAGECHAT_REDIS_CLUSTER": "true"} if sharded else {}),
            **env,
        )
        own = env_of or {}
        running = [Worker(name, {**settings, **own.get(name, {})}) for name in "abcdefgh"[:workers]]
        try:
            await asyncio.gather(*(w.start() for w in running))
            deployment = Deployment(running, upstream, redis)
            async with httpx.AsyncClient(base_url=running[0].url) as client:
                r = await client.post(
                    "/api/auth/login", json={"email": email, "password": password}
                )
                deployment.headers = {"Authorization": f"Bearer {r.json()['access_token']}"}
            yield deployment
        finally:
            await asyncio.gather(*(w.aclose() for w in running))
