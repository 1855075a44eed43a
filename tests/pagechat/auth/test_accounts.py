from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    InvalidCredentials,
    InvalidEmail,
    JwtAuthenticator,
    WeakPassword,
    create_account,
    ensure_account,
)

_STRONG = "correct horse battery"


async def test_a_created_account_can_log_in(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator
) -> None:
    async with sessions.begin() as session:
        user = await create_account(
            session=session, email="ada@example.com", password=_STRONG, is_admin=True
        )

    token = await authenticator.login(email="ada@example.com", password=_STRONG, client="ip")

    principal = await authenticator.authenticate(token)
    assert principal is not None and principal.id == user.id and principal.is_admin


@pytest.mark.parametrize("email", ["", "ada", "ada@", "@example.com", "a da@example.com"])
async def test_an_invalid_email_is_refused(
    sessions: async_sessionmaker[AsyncSession], email: str
) -> None:
    async with sessions.begin() as session:
        with pytest.raises(InvalidEmail):
            await create_account(session=session, email=email, password=_STRONG)


async def test_ensuring_an_account_twice_creates_it_once_and_keeps_its_password(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator
) -> None:
    async with sessions.begin() as session:
        first, created_first = await ensure_account(
            session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD
        )
    async with sessions.begin() as session:
        second, created_second = await ensure_account(
            session=session, email=DEMO_EMAIL, password="changed"
        )

    assert (created_first, created_second) == (True, False)
    assert first.id == second.id
    assert await authenticator.login(email=DEMO_EMAIL, password=DEMO_PASSWORD, client="ip")


@pytest.mark.parametrize("password", ["pw", "password1", "ada@example.com"])
async def test_a_weak_password_is_refused_by_the_library_not_only_the_cli(
    sessions: async_sessionmaker[AsyncSession], authenticator: JwtAuthenticator, password: str
) -> None:
    async with sessions.begin() as session:
        with pytest.raises(WeakPassword):
            await create_account(session=session, email="ada@example.com", password=password)

    with pytest.raises(InvalidCredentials):
        await authenticator.login(email="ada@example.com", password=password, client="ip")
