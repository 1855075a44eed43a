"""Creating accounts: the CLI's `users create` and the demo account of `make run`."""

from __future__ import annotations

import asyncio
import re

from sqlalchemy.ext.asyncio import AsyncSession

from ..store.tables import User
from ..store.users import EmailTaken, create_user, get_user_by_email, normalize_email
from .passwords import hash_password
from .policy import WeakPassword, check_password

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "EmailTaken",
    "InvalidEmail",
    "WeakPassword",
    "create_account",
    "ensure_account",
]

DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "demo"

# Deliberately loose: one '@', something on each side, no spaces. Delivery is not our job.
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+$")


class InvalidEmail(ValueError):
    """Not an email address."""


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
