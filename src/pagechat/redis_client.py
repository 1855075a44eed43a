"""The Redis client pagechat's shared parts use: one server, or a Redis Cluster.

Runs (runs/redis.py), quotas and the login limiter take either; what differs between
the two is kept in the few places that must know (a run's flush groups its script calls
by shard). Needs the `redis` extra.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from .extras import require_extra

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.cluster import RedisCluster

__all__ = ["RedisClient", "connect_redis", "is_cluster"]

RedisClient: TypeAlias = "Redis | RedisCluster"
"""A client of one Redis server or of a Redis Cluster."""


def connect_redis(url: str, *, cluster: bool = False, **options: object) -> RedisClient:
    """A client for `url`: of the cluster it is a node of when `cluster`, else of that server."""
    require_extra("redis", "REDIS_URL")
    if cluster:
        from redis.asyncio.cluster import RedisCluster

        return RedisCluster.from_url(url, **options)
    from redis.asyncio import Redis
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    # After a Redis restart every pooled connection is dead, and each fails the first
    # command sent on it; one quick retry on a fresh connection makes a restart cost the
    # answers that were running, not the next ones too. Only a refused or closed
    # connection is retried, never a timeout (the command may have run).
    options.setdefault("retry", Retry(ExponentialBackoff(cap=0.2, base=0.02), 2))
    options.setdefault("retry_on_error", [RedisConnectionError])
    return Redis.from_url(url, **options)  # type: ignore[arg-type]


def is_cluster(client: RedisClient) -> bool:
    """Whether `client` talks to a Redis Cluster (keys of one script call: one shard)."""
    from redis.asyncio.cluster import RedisCluster

    return isinstance(client, RedisCluster)
