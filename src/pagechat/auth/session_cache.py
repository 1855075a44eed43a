"""Sessions cached in Redis (with `REDIS_URL`): every worker sees a sign-out at once.

`pagechat:session:{sid}` holds the session's user for `CACHE_SECONDS`, or a tombstone
(`-`) from its end until it would have expired. Ending a session deletes its row, then
writes the tombstone over whatever is cached; a worker that read the row just before
fills the cache only where nothing is (`SET NX`), so it can never put a revoked session
back. Anything that changes a user without ending their sessions (an admin flag set in
the database by hand) is seen within `CACHE_SECONDS`.

Redis failing is never a reason to refuse or accept a token: a read falls back to the
database, and a lost tombstone leaves at most `CACHE_SECONDS` of a cached entry.
"""

from __future__ import annotations

import contextlib
import json
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Final

from ..identity import Principal
from ..store.tables import utcnow

if TYPE_CHECKING:
    from ..redis_client import RedisClient

__all__ = ["CACHE_SECONDS", "MISS", "SessionCache"]

logger = logging.getLogger(__name__)

CACHE_SECONDS = 60
"""How long a session's user stays cached (seconds)."""

MISS: Final = "miss"
"""`SessionCache.get`'s answer when Redis does not know the session (or cannot be reached)."""

_ENDED = b"-"


def _key(session_id: str) -> str:
    return f"pagechat:session:{session_id}"


class SessionCache:
    """Sessions' users and ended sessions, in Redis, shared by every worker."""

    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, session_id: str) -> Principal | str | None:
        """The cached user; None for an ended session; `MISS` when Redis does not know."""
        from redis.exceptions import RedisError

        try:
            value = await self.redis.get(_key(session_id))
        except RedisError:
            logger.warning("session cache unavailable; reading the database")
            return MISS
        if value is None:
            return MISS
        if value == _ENDED:
            return None
        data = json.loads(value)
        return Principal(id=data["id"], email=data["email"], is_admin=bool(data["admin"]))

    async def put(self, session_id: str, user: Principal) -> None:
        """Remember a live session's user, unless something (a tombstone) is there."""
        from redis.exceptions import RedisError

        value = json.dumps({"id": user.id, "email": user.email, "admin": user.is_admin})
        with contextlib.suppress(RedisError):  # the next request reads the database again
            await self.redis.set(_key(session_id), value, ex=CACHE_SECONDS, nx=True)

    async def ended(self, sessions: dict[str, datetime]) -> None:
        """Mark these sessions (id: expiry) ended, for every worker, until they expire."""
        from redis.exceptions import RedisError

        now = utcnow()
        try:
            for session_id, expires_at in sessions.items():
                seconds = max(1, int((expires_at - now).total_seconds()) + 1)
                await self.redis.set(_key(session_id), _ENDED, ex=seconds)
        except RedisError:
            # The rows are gone: at most CACHE_SECONDS of a cached entry remain.
            logger.warning("could not tell Redis that %d sessions ended", len(sessions))

    async def aclose(self) -> None:
        """Close the client."""
        await self.redis.aclose()
