"""Bearer tokens backed by the users table."""

from __future__ import annotations

import asyncio
import functools
import time
from datetime import timedelta

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..defaults import TOKEN_TTL_MINUTES
from ..identity import Authenticator, Principal
from ..store.users import (
    get_user,
    get_user_by_email,
    normalize_email,
    principal_of,
    read_principal,
    update_password_hash,
)
from .limits import LoginLimiter, LoginLimits
from .login import InvalidCredentials, LoginThrottled, PasswordLogin
from .passwords import hash_password, needs_rehash, verify_password
from .tokens import check_secret, create_access_token, verify_access_token

__all__ = ["JwtAuthenticator"]


@functools.cache
def _dummy_hash() -> str:
    return hash_password("pagechat: no such user")


def _check(stored: str | None, password: str) -> bool:
    # An unknown email is verified against a dummy hash, so a miss costs as long as a
    # wrong password and response times do not tell which emails have accounts.
    ok = verify_password(stored or _dummy_hash(), password)
    return ok and stored is not None


_VERIFIED_TOKENS = 4096
"""Verified tokens remembered per process (each ~200 bytes); the oldest goes first."""


class JwtAuthenticator(Authenticator, PasswordLogin):
    """JWT bearer tokens (HS256, `sub` = user id) for users in the database.

    A token is honoured only while its user exists; the user's admin flag is
    read fresh on every request, so a demotion takes effect at once.
    """

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        secret: str,
        token_ttl: timedelta = timedelta(minutes=TOKEN_TTL_MINUTES),
        limiter: LoginLimits | None = None,
        reader: Engine | None = None,
    ) -> None:
        self._sessions = sessions
        self._reader = reader
        """On SQLite, where the user is read per request (`store.db.create_point_reader`)."""
        self._secret = check_secret(secret)
        # Tokens whose signature was checked, with their user and expiry: a client sends
        # the same token with every request, and checking an HS256 JWT costs more CPU than
        # the rest of authenticating it. The user is still read on every request.
        self._verified: dict[str, tuple[str, float]] = {}
        self.token_ttl = token_ttl
        self.limiter: LoginLimits = limiter or LoginLimiter()

    def _verified_user(self, token: str) -> str | None:
        known = self._verified.get(token)
        if known is not None:
            user_id, expires = known
            if time.time() < expires:
                return user_id
            del self._verified[token]
            return None
        verified = verify_access_token(token, secret=self._secret)
        if verified is None:
            return None
        if len(self._verified) >= _VERIFIED_TOKENS:
            del self._verified[next(iter(self._verified))]  # the oldest
        self._verified[token] = verified
        return verified[0]

    def issue_token(self, user: Principal) -> str:
        """A signed token for `user`, valid for `token_ttl`."""
        return create_access_token(user_id=user.id, secret=self._secret, ttl=self.token_ttl)

    async def authenticate(self, token: str) -> Principal | None:
        user_id = self._verified_user(token)
        if user_id is None:
            return None
        if self._reader is not None:
            try:
                with self._reader.connect() as connection:
                    return read_principal(connection=connection, user_id=user_id)
            except OperationalError:
                pass  # the file is busy beyond a short wait: read it the usual way
        async with self._sessions() as session:
            user = await get_user(session=session, user_id=user_id)
            return principal_of(user) if user is not None else None

    async def login(self, *, email: str, password: str, client: str) -> str:
        email = normalize_email(email)
        wait = await self.limiter.retry_after(email, client)
        if wait is not None:
            raise LoginThrottled(wait)
        # Counted before the check: a burst of parallel guesses is held to the limit too.
        await self.limiter.failed(email, client)
        async with self._sessions() as session:
            user = await get_user_by_email(session=session, email=email)
        stored = user.password_hash if user is not None else None
        # Verified even when there is no such account (`_check`): the same work, the same
        # time, whichever the case. Regression: `user is None or ...` skipped it.
        ok = await asyncio.to_thread(_check, stored, password)
        if user is None or not ok:
            raise InvalidCredentials
        await self.limiter.succeeded(email, client)
        if needs_rehash(user.password_hash):
            new_hash = await asyncio.to_thread(hash_password, password)
            async with self._sessions.begin() as session:
                await update_password_hash(session=session, user_id=user.id, password_hash=new_hash)
        return self.issue_token(principal_of(user))
