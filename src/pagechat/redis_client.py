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

    return Redis.from_url(url, **options)  # type: ignore[arg-type]


def is_cluster(client: RedisClient) -> bool:
    """Whether `client` talks to a Redis Cluster (keys of one script call: one shard)."""
    from redis.asyncio.cluster import RedisCluster

    return isinstance(client, RedisCluster)
