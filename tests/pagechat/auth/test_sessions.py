"""The session registry: one read per request (a Redis hit, or the session joined to its
user), and an ended session never comes back from the cache."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pagechat.auth import JwtAuthenticator, SessionCache
from pagechat.redis_client import connect_redis
from tests.conftest import TEST_SECRET, Account, make_account


@pytest.fixture
async def cache(redis_url: str) -> AsyncIterator[SessionCache]:
    cache = SessionCache(connect_redis(redis_url))
    yield cache
    await cache.aclose()


def _statements(engine: AsyncEngine) -> list[str]:
    seen: list[str] = []
    event.listen(engine.sync_engine, "before_cursor_execute", lambda *a: seen.append(a[2]))
    return seen


async def test_without_redis_each_request_reads_one_statement(
    engine: AsyncEngine, sessions: async_sessionmaker[AsyncSession], password_hash: str
) -> None:
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET)  # no point reader
    alice = await make_account(sessions, authenticator, password_hash, "alice@example.com")
    seen = _statements(engine)

    assert await authenticator.authenticate(alice.token) == alice.user

    reads = [s for s in seen if s.lstrip().upper().startswith("SELECT")]
    assert len(reads) == 1 and "auth_sessions" in reads[0] and "users" in reads[0]


async def test_with_redis_a_known_session_is_read_from_redis_alone(
    engine: AsyncEngine,
    sessions: async_sessionmaker[AsyncSession],
    password_hash: str,
    cache: SessionCache,
) -> None:
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, cache=cache)
    alice = await make_account(sessions, authenticator, password_hash, "alice@example.com")
    assert await authenticator.authenticate(alice.token) == alice.user  # fills the cache
    seen = _statements(engine)

    assert await authenticator.authenticate(alice.token) == alice.user

    assert seen == []


async def test_a_worker_that_read_the_session_before_it_ended_cannot_cache_it_back(
    sessions: async_sessionmaker[AsyncSession], password_hash: str, cache: SessionCache
) -> None:
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, cache=cache)
    alice = await make_account(sessions, authenticator, password_hash, "alice@example.com")
    session_id = authenticator.session_of(alice.token)
    assert session_id is not None

    await authenticator.sign_out(alice.token)
    # A slower worker finishes its read from before the sign-out and fills the cache.
    await cache.put(session_id, alice.user)

    assert await cache.get(session_id) is None
    assert await authenticator.authenticate(alice.token) is None


async def test_when_redis_is_down_the_database_decides(
    sessions: async_sessionmaker[AsyncSession], password_hash: str, redis_url: str
) -> None:
    gone = SessionCache(connect_redis(redis_url.rsplit(":", 1)[0] + ":1"))  # nothing listens
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, cache=gone)
    alice = await make_account(sessions, authenticator, password_hash, "alice@example.com")
    other: Account = await make_account(sessions, authenticator, password_hash, "bob@example.com")

    assert await authenticator.authenticate(alice.token) == alice.user
    await authenticator.sign_out(other.token)
    assert await authenticator.authenticate(other.token) is None
    await gone.aclose()


async def test_a_password_change_keeps_the_session_named_and_ends_the_rest(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, alice: Account
) -> None:
    second = await authenticator.issue_token(alice.user)

    ended = await authenticator.change_password(
        user=alice.user,
        current="correct horse battery staple",
        new="another long passphrase",
        client="ip",
        keep=authenticator.session_of(alice.token),
    )

    assert ended == 1
    assert await authenticator.authenticate(alice.token) == alice.user
    assert await authenticator.authenticate(second) is None
