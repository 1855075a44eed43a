"""Bearer tokens backed by the users table: session tokens (JWTs naming a session row) and
API keys."""

from __future__ import annotations

import asyncio
import functools
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..defaults import TOKEN_TTL_MINUTES
from ..identity import Authenticator, Principal
from ..store.users import get_user, get_user_by_email, normalize_email, update_password_hash
from .api_keys import hash_api_key, is_api_key
from .limits import LoginLimiter, LoginLimits
from .login import AccountDisabled, InvalidCredentials, LoginThrottled, PasswordLogin
from .passwords import hash_password, needs_rehash, verify_password
from .policy import check_password
from .session_cache import SessionCache
from .sessions import SessionRegistry
from .tokens import VerifiedToken, check_secret, create_access_token, verify_access_token

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
    """Session tokens (HS256 JWTs: `sub` the user id, `sid` the session) and API keys, for
    users in the database.

    A token is honoured only while its session row exists (`registry`, auth/sessions.py)
    and its user is not disabled; the user is read on every request (or from Redis, where
    an ended session is known at once), so a demotion takes effect at once.
    """

    def __init__(
        self,
        *,
        sessions: async_sessionmaker[AsyncSession],
        secret: str,
        token_ttl: timedelta = timedelta(minutes=TOKEN_TTL_MINUTES),
        limiter: LoginLimits | None = None,
        reader: Engine | None = None,
        cache: SessionCache | None = None,
    ) -> None:
        self._sessions = sessions
        self.registry = SessionRegistry(sessions=sessions, reader=reader, cache=cache)
        """Where sessions are started, found and ended."""
        self._secret = check_secret(secret)
        # Tokens whose signature was checked, with their claims: a client sends the same
        # token with every request, and checking an HS256 JWT costs more CPU than the rest
        # of authenticating it. The session and its user are still read on every request.
        self._verified: dict[str, VerifiedToken] = {}
        self.token_ttl = token_ttl
        self.limiter: LoginLimits = limiter or LoginLimiter()

    def _verified_token(self, token: str) -> VerifiedToken | None:
        known = self._verified.get(token)
        if known is not None:
            if time.time() < known.expires:
                return known
            del self._verified[token]
            return None
        verified = verify_access_token(token, secret=self._secret)
        if verified is None:
            return None
        if len(self._verified) >= _VERIFIED_TOKENS:
            del self._verified[next(iter(self._verified))]  # the oldest
        self._verified[token] = verified
        return verified

    def session_of(self, token: str) -> str | None:
        """The session a valid session token names; None for an API key or a bad token."""
        if is_api_key(token):
            return None
        verified = self._verified_token(token)
        return verified.session_id if verified is not None else None

    async def issue_token(
        self, user: Principal, *, client: str | None = None, user_agent: str | None = None
    ) -> str:
        """A new session of `user` and its signed token, valid for `token_ttl`."""
        issued = datetime.now(UTC)
        session_id = await self.registry.start(
            user_id=user.id,
            expires_at=issued + self.token_ttl,
            client=client,
            user_agent=user_agent,
        )
        return create_access_token(
            user_id=user.id,
            secret=self._secret,
            ttl=self.token_ttl,
            now=issued,
            session_id=session_id,
        )

    async def authenticate(self, token: str) -> Principal | None:
        if is_api_key(token):
            return await self.registry.user_of_api_key(hash_api_key(token))
        verified = self._verified_token(token)
        if verified is None or verified.session_id is None:
            return None  # a token from before sessions were stored names none: signed out
        return await self.registry.user_of(session_id=verified.session_id, user_id=verified.user_id)

    async def sign_out(self, token: str) -> bool:
        """End the session `token` names; False when it names none (an API key)."""
        session_id = self.session_of(token)
        if session_id is None:
            return False
        await self.registry.end(session_id=session_id)
        return True

    async def login(
        self, *, email: str, password: str, client: str, user_agent: str | None = None
    ) -> str:
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
        if user.disabled_at is not None:
            raise AccountDisabled  # told only to whoever knows the password
        if needs_rehash(user.password_hash):
            new_hash = await asyncio.to_thread(hash_password, password)
            async with self._sessions.begin() as session:
                await update_password_hash(session=session, user_id=user.id, password_hash=new_hash)
        principal = Principal(id=user.id, email=user.email, is_admin=user.is_admin)
        return await self.issue_token(principal, client=client, user_agent=user_agent)

    async def change_password(
        self, *, user: Principal, current: str, new: str, client: str, keep: str | None
    ) -> int:
        """Replace `user`'s password and end their other sessions (all but `keep`); how many
        ended. Raises InvalidCredentials (the current password is wrong), LoginThrottled
        (counted with the logins: this is a password guess too) or WeakPassword."""
        wait = await self.limiter.retry_after(user.email, client)
        if wait is not None:
            raise LoginThrottled(wait)
        await self.limiter.failed(user.email, client)
        async with self._sessions() as session:
            row = await get_user(session=session, user_id=user.id)
        if row is None or not await asyncio.to_thread(_check, row.password_hash, current):
            raise InvalidCredentials
        await self.limiter.succeeded(user.email, client)
        check_password(new, email=user.email)
        new_hash = await asyncio.to_thread(hash_password, new)
        async with self._sessions.begin() as session:
            await update_password_hash(session=session, user_id=user.id, password_hash=new_hash)
        return await self.registry.end(user_id=user.id, keep=keep)
