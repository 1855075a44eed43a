from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from argon2 import PasswordHasher
from sqlalchemy import delete, event, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

import pagechat.auth.authenticator as authenticator_module
from pagechat.auth import InvalidCredentials, JwtAuthenticator, LoginLimiter, LoginThrottled
from pagechat.store import create_engine, create_sessionmaker, upgrade_async
from pagechat.store.db import create_point_reader
from pagechat.store.tables import User
from tests.conftest import PASSWORD, TEST_SECRET, Account, make_account


async def test_login_gives_a_token_for_that_user(
    authenticator: JwtAuthenticator, alice: Account
) -> None:
    token = await authenticator.login(email="Alice@Example.com", password=PASSWORD, client="ip")

    assert await authenticator.authenticate(token) == alice.user


@pytest.mark.parametrize(
    ("email", "password"), [("alice@example.com", "wrong"), ("nobody@example.com", PASSWORD)]
)
async def test_a_wrong_password_and_an_unknown_email_fail_alike(
    authenticator: JwtAuthenticator, alice: Account, email: str, password: str
) -> None:
    with pytest.raises(InvalidCredentials):
        await authenticator.login(email=email, password=password, client="ip")


async def test_a_deleted_users_token_stops_working(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, alice: Account
) -> None:
    async with sessions.begin() as session:
        await session.execute(delete(User).where(User.id == alice.user.id))

    assert await authenticator.authenticate(alice.token) is None


async def test_the_admin_flag_is_read_fresh(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, admin: Account
) -> None:
    async with sessions.begin() as session:
        await session.execute(update(User).where(User.id == admin.user.id).values(is_admin=False))

    user = await authenticator.authenticate(admin.token)

    assert user is not None and not user.is_admin


async def test_a_token_from_another_secret_is_refused(
    sessions: async_sessionmaker[AsyncSession], alice: Account
) -> None:
    other = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET + "-other")

    assert await other.authenticate(alice.token) is None


async def test_too_many_attempts_lock_even_the_right_password_out(
    sessions: async_sessionmaker[AsyncSession], alice: Account
) -> None:
    authenticator = JwtAuthenticator(
        sessions=sessions, secret=TEST_SECRET, limiter=LoginLimiter(max_attempts=2)
    )
    for _ in range(2):
        with pytest.raises(InvalidCredentials):
            await authenticator.login(email="alice@example.com", password="guess", client="ip")

    with pytest.raises(LoginThrottled) as caught:
        await authenticator.login(email="alice@example.com", password=PASSWORD, client="ip")
    assert 0 < caught.value.retry_after <= 300
    # Another address is not punished for this one's guesses.
    assert await authenticator.login(email="alice@example.com", password=PASSWORD, client="ip2")


async def test_an_unknown_email_costs_a_password_verification_like_a_known_one(
    sessions: async_sessionmaker[AsyncSession], alice: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Timing is what leaks, and timings are noisy in tests: count the argon2 work instead.
    verified: list[str] = []
    real_verify = PasswordHasher.verify

    def counting(self: PasswordHasher, hash: str, password: str | bytes) -> bool:
        verified.append(hash)
        return real_verify(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET)
    for email in ("alice@example.com", "nobody@example.com"):
        with pytest.raises(InvalidCredentials):
            await authenticator.login(email=email, password="wrong guess", client="ip")

    assert len(verified) == 2
    assert all(h.startswith("$argon2id$") for h in verified)


async def test_on_sqlite_the_user_is_read_without_the_async_driver(
    sqlite_url: str, password_hash: str
) -> None:
    engine = create_engine(sqlite_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    reader = create_point_reader(sqlite_url)
    assert reader is not None
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, reader=reader)
    alice = await make_account(sessions, authenticator, password_hash, "alice@example.com")
    through_reader: list[str] = []
    through_async: list[str] = []
    event.listen(reader, "before_cursor_execute", lambda *a: through_reader.append(a[2]))
    event.listen(engine.sync_engine, "before_cursor_execute", lambda *a: through_async.append(a[2]))
    try:
        assert await authenticator.authenticate(alice.token) == alice.user
    finally:
        reader.dispose()
        await engine.dispose()
    assert any("FROM auth_sessions" in s and "JOIN users" in s for s in through_reader)
    assert through_async == []


async def test_a_reader_that_fails_falls_back_to_the_async_read(
    tmp_path: Path, sessions: async_sessionmaker[AsyncSession], alice: Account
) -> None:
    # A file without the users table: the point read fails like a busy file would.
    reader = create_point_reader(f"sqlite+aiosqlite:///{tmp_path}/empty.db")
    assert reader is not None
    authenticator = JwtAuthenticator(sessions=sessions, secret=TEST_SECRET, reader=reader)
    try:
        assert await authenticator.authenticate(alice.token) == alice.user
    finally:
        reader.dispose()


def test_only_a_sqlite_file_gets_a_point_reader() -> None:
    assert create_point_reader("sqlite+aiosqlite:///:memory:") is None
    assert create_point_reader("postgresql+asyncpg://u@localhost/db") is None


async def test_a_token_used_before_its_user_was_deleted_stops_working(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, alice: Account
) -> None:
    # Its signature is checked once and remembered; its user is still read every time.
    assert await authenticator.authenticate(alice.token) == alice.user
    async with sessions.begin() as session:
        await session.execute(delete(User).where(User.id == alice.user.id))

    assert await authenticator.authenticate(alice.token) is None


async def test_a_remembered_token_stops_working_when_it_expires(
    authenticator: JwtAuthenticator, alice: Account, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = datetime.now(UTC)
    authenticator.token_ttl = timedelta(minutes=1)
    token = await authenticator.issue_token(alice.user)
    assert await authenticator.authenticate(token) == alice.user

    later = (now + timedelta(minutes=2)).timestamp()
    monkeypatch.setattr(authenticator_module, "time", SimpleNamespace(time=lambda: later))
    assert await authenticator.authenticate(token) is None


async def test_a_forged_token_is_refused_whatever_was_remembered(
    authenticator: JwtAuthenticator, alice: Account
) -> None:
    assert await authenticator.authenticate(alice.token) == alice.user
    header, claims, signature = alice.token.split(".")
    forged = f"{header}.{claims}.{signature[:-4]}AAAA"

    assert await authenticator.authenticate(forged) is None
