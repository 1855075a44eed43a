"""Server-side sessions and API keys: a session token's `sid` names a row, and the token
works while the row exists; an API key works while its hash's row does.

Signing out, signing out everywhere, a password change, disabling an account and an admin
all end sessions here, in the database and (with `REDIS_URL`) in the cache every worker
reads (auth/session_cache.py).
"""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..identity import Principal
from ..store.credentials import (
    SessionRow,
    add_session,
    delete_api_key,
    delete_sessions,
    get_api_key_principal,
    get_session_principal,
    list_api_keys,
    list_sessions,
    read_api_key_principal,
    read_session_principal,
)
from ..store.tables import ApiKey
from .api_keys import NewApiKey, create_api_key
from .session_cache import MISS, SessionCache

__all__ = ["SessionRegistry"]


class SessionRegistry:
    """Starts, finds and ends sessions; makes, finds and revokes API keys.

    Finding costs one read per request: the cache in Redis when there is one, else one
    statement (the session joined to its user) — on SQLite through the synchronous point
    reader (`store.db.create_point_reader`), falling back to the async driver when busy.
    """

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        reader: Engine | None = None,
        cache: SessionCache | None = None,
    ) -> None:
        self._sessions = sessions
        self._reader = reader
        self.cache = cache

    async def start(
        self,
        *,
        user_id: str,
        expires_at: datetime,
        client: str | None = None,
        user_agent: str | None = None,
    ) -> str:
        """Store a new session of `user_id`; its id (the token's `sid`)."""
        session_id = secrets.token_hex(16)
        async with self._sessions.begin() as session:
            await add_session(
                session=session,
                session_id=session_id,
                user_id=user_id,
                expires_at=expires_at,
                client=client,
                user_agent=user_agent,
            )
        return session_id

    async def user_of(self, *, session_id: str, user_id: str) -> Principal | None:
        """The user of a live session; None when it ended or its user is disabled."""
        if self.cache is not None:
            cached = await self.cache.get(session_id)
            if cached != MISS:
                # A cached user is the token's own (sid and sub are signed together).
                return cached if isinstance(cached, Principal) else None
        user = self._read_session(session_id, user_id)
        if user is MISS:
            async with self._sessions() as session:
                user = await get_session_principal(
                    session=session, session_id=session_id, user_id=user_id
                )
        if user is not None and self.cache is not None:
            await self.cache.put(session_id, user)  # type: ignore[arg-type]
        return user if isinstance(user, Principal) else None

    def _read_session(self, session_id: str, user_id: str) -> Principal | str | None:
        if self._reader is None:
            return MISS
        try:
            with self._reader.connect() as connection:
                return read_session_principal(
                    connection=connection, session_id=session_id, user_id=user_id
                )
        except OperationalError:
            return MISS  # the file is busy beyond a short wait: read it the usual way

    async def user_of_api_key(self, key_hash: str) -> Principal | None:
        """The user of the API key with this hash; None when revoked or disabled.

        Not cached: one indexed read, and a revoked key fails on every worker at once.
        """
        if self._reader is not None:
            try:
                with self._reader.connect() as connection:
                    return read_api_key_principal(connection=connection, key_hash=key_hash)
            except OperationalError:
                pass
        async with self._sessions() as session:
            return await get_api_key_principal(session=session, key_hash=key_hash)

    async def end(
        self, *, user_id: str | None = None, session_id: str | None = None, keep: str | None = None
    ) -> int:
        """End the session `session_id`, or every session of `user_id` but `keep`; how many."""
        async with self._sessions.begin() as session:
            ended = await delete_sessions(
                session=session, user_id=user_id, session_id=session_id, keep=keep
            )
        if ended and self.cache is not None:
            await self.cache.ended(ended)
        return len(ended)

    async def live(self, *, user_id: str | None = None) -> list[SessionRow]:
        """The live sessions (of `user_id`, or everyone's), newest first."""
        async with self._sessions() as session:
            return await list_sessions(session=session, user_id=user_id)

    async def new_api_key(self, *, user_id: str, name: str) -> tuple[NewApiKey, ApiKey]:
        """A new API key of `user_id` (shown this once) and its stored row."""
        async with self._sessions.begin() as session:
            made = await create_api_key(session=session, user_id=user_id, name=name)
        rows = await self.api_keys(user_id=user_id)
        return made, next(r for r in rows if r.id == made.id)

    async def api_keys(self, *, user_id: str) -> list[ApiKey]:
        """The API keys of `user_id`, newest first."""
        async with self._sessions() as session:
            return await list_api_keys(session=session, user_id=user_id)

    async def revoke_api_key(self, *, key_id: str, user_id: str | None) -> bool:
        """Revoke a key (of `user_id`, when given); False when there is no such key."""
        async with self._sessions.begin() as session:
            return await delete_api_key(session=session, key_id=key_id, user_id=user_id)
