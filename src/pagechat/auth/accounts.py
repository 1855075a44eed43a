"""Accounts: creating them (the CLI's `users create`, the demo account of `make run`),
disabling and enabling them (`users disable`, `users enable`)."""

from __future__ import annotations

import asyncio
import re

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..identity import Principal
from ..store.credentials import set_disabled
from ..store.tables import User
from ..store.users import (
    EmailTaken,
    create_user,
    get_user_by_email,
    normalize_email,
    principal_of,
)
from .passwords import hash_password
from .policy import WeakPassword, check_password
from .sessions import SessionRegistry

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "EmailTaken",
    "InvalidEmail",
    "NoSuchAccount",
    "WeakPassword",
    "create_account",
    "disable_account",
    "enable_account",
    "ensure_account",
]

DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "demo"

# Deliberately loose: one '@', something on each side, no spaces. Delivery is not our job.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


class InvalidEmail(ValueError):
    """Not an email address."""


class NoSuchAccount(LookupError):
    """No account has this email address."""


def _checked(email: str) -> str:
    normalized = normalize_email(email)
    if not _EMAIL.match(normalized) or len(normalized) > 320:
        raise InvalidEmail(email)
    return normalized


async def create_account(
    *, session: AsyncSession, email: str, password: str, is_admin: bool = False
) -> User:
    """A new user. Raises InvalidEmail, EmailTaken, or WeakPassword (auth/policy.py).

    The password policy is checked here, not only by the CLI, so no program built on
    pagechat creates an account with a guessable password by calling this.
    """
    _checked(email)  # a bad email is told first: it is the bigger mistake
    check_password(password, email=email)
    return await _insert(session=session, email=email, password=password, is_admin=is_admin)


async def _insert(*, session: AsyncSession, email: str, password: str, is_admin: bool) -> User:
    normalized = _checked(email)
    if not password:
        raise ValueError("password must not be empty")
    password_hash = await asyncio.to_thread(hash_password, password)
    return await create_user(
        session=session, email=normalized, password_hash=password_hash, is_admin=is_admin
    )


async def ensure_account(
    *, session: AsyncSession, email: str, password: str, is_admin: bool = False
) -> tuple[User, bool]:
    """The user with `email`, created when missing; True when it was created.

    An existing account is left exactly as it is (its password too). The password
    policy is not applied: this makes the demo account (`demo@example.com` / `demo`,
    `make run`, `pagechat users ensure-demo`) and test fixtures, on purpose and by name.
    """
    existing = await get_user_by_email(session=session, email=_checked(email))
    if existing is not None:
        return existing, False
    try:
        return await _insert(
            session=session, email=email, password=password, is_admin=is_admin
        ), True
    except EmailTaken:
        # Created by a concurrent caller between our look-up and our insert.
        user = await get_user_by_email(session=session, email=email)
        if user is None:
            raise
        return user, False


async def _set_disabled(
    sessions: async_sessionmaker[AsyncSession], email: str, disabled: bool
) -> Principal:
    async with sessions.begin() as session:
        user = await get_user_by_email(session=session, email=email)
        if user is None:
            raise NoSuchAccount(normalize_email(email))
        await set_disabled(session=session, user_id=user.id, disabled=disabled)
        return principal_of(user)


async def disable_account(
    *, sessions: async_sessionmaker[AsyncSession], registry: SessionRegistry, email: str
) -> tuple[Principal, int]:
    """Disable the account `email` and end all its sessions; the user and how many ended.

    From now on its password and API keys are refused (its keys are kept, for `enable`).
    Its running answers are stopped by each worker that runs one
    (`pagechat.server.disabled.stop_disabled_runs`). Raises NoSuchAccount.
    """
    # Disabled first: a login racing with this finds the flag, or its session ends below.
    user = await _set_disabled(sessions, email, True)
    return user, await registry.end(user_id=user.id)


async def enable_account(*, sessions: async_sessionmaker[AsyncSession], email: str) -> Principal:
    """Let the account `email` sign in again (and its API keys work). Raises NoSuchAccount."""
    return await _set_disabled(sessions, email, False)
