"""Accounts in the database: keyword-only functions on an `AsyncSession`.

They flush but never commit: the caller owns the transaction. Passwords
arrive already hashed (hashing is `pagechat.auth`'s business).
"""

from __future__ import annotations

import uuid

from sqlalchemy import Connection, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..identity import Principal
from .tables import User

__all__ = [
    "EmailTaken",
    "create_user",
    "get_user",
    "get_user_by_email",
    "normalize_email",
    "principal_of",
    "read_principal",
    "update_password_hash",
]


class EmailTaken(ValueError):
    """An account with this email address already exists."""


def normalize_email(email: str) -> str:
    """The email as stored: trimmed and lower-cased."""
    return email.strip().lower()


def principal_of(user: User) -> Principal:
    """The account as the principal requests are made by."""
    return Principal(id=user.id, email=user.email, is_admin=user.is_admin)


async def create_user(
    *, session: AsyncSession, email: str, password_hash: str, is_admin: bool = False
) -> User:
    """Add an account (email normalized) and return its row."""
    user = User(
        id=uuid.uuid4().hex,
        email=normalize_email(email),
        password_hash=password_hash,
        is_admin=is_admin,
    )
    # A savepoint, so a duplicate leaves the caller's transaction usable.
    try:
        async with session.begin_nested():
            session.add(user)
    except IntegrityError:
        raise EmailTaken(user.email) from None
    return user


async def get_user(*, session: AsyncSession, user_id: str) -> User | None:
    """The account `user_id`, if any."""
    return await session.get(User, user_id)


_READ_PRINCIPAL = f"SELECT id, email, is_admin FROM {User.__tablename__} WHERE id = ?"


def read_principal(*, connection: Connection, user_id: str) -> Principal | None:
    """The user as a principal, read synchronously (`store.db.create_point_reader`, SQLite).

    One fixed statement, given to the driver as it is: compiling a select per request
    costs more than SQLite takes to answer it.
    """
    row = connection.exec_driver_sql(_READ_PRINCIPAL, (user_id,)).first()
    return None if row is None else Principal(id=row[0], email=row[1], is_admin=bool(row[2]))


async def get_user_by_email(*, session: AsyncSession, email: str) -> User | None:
    """The account with this email (normalized), if any."""
    result = await session.execute(select(User).where(User.email == normalize_email(email)))
    return result.scalar_one_or_none()


async def update_password_hash(*, session: AsyncSession, user_id: str, password_hash: str) -> None:
    """Store a new password hash for account `user_id`."""
    await session.execute(
        update(User).where(User.id == user_id).values(password_hash=password_hash)
    )
