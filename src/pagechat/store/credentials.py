"""Session and API key rows, and disabled accounts: what a request authenticates with.

Keyword-only functions on an `AsyncSession` that flush but never commit (the caller owns
the transaction), and two synchronous point reads for SQLite (`store.db.create_point_reader`).
Each per-request read is one statement on primary or unique keys, the user joined in.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..identity import Principal
from .tables import ApiKey, AuthSession, User, utcnow

__all__ = [
    "SessionRow",
    "add_api_key",
    "add_session",
    "delete_api_key",
    "delete_sessions",
    "disabled_among",
    "get_api_key_principal",
    "get_session_principal",
    "list_api_keys",
    "list_sessions",
    "read_api_key_principal",
    "read_session_principal",
    "set_disabled",
]


@dataclass(frozen=True, kw_only=True, slots=True)
class SessionRow:
    """A live session as an admin sees it."""

    id: str
    user_id: str
    email: str
    created_at: datetime
    expires_at: datetime
    client: str | None
    user_agent: str | None


async def add_session(
    *,
    session: AsyncSession,
    session_id: str,
    user_id: str,
    expires_at: datetime,
    client: str | None = None,
    user_agent: str | None = None,
) -> None:
    """Store a new session of `user_id`, and forget that user's expired ones."""
    await session.execute(
        delete(AuthSession).where(
            AuthSession.user_id == user_id, AuthSession.expires_at <= utcnow()
        )
    )
    session.add(
        AuthSession(
            id=session_id,
            user_id=user_id,
            expires_at=expires_at,
            client=client[:64] if client else None,
            user_agent=user_agent[:200] if user_agent else None,
        )
    )
    await session.flush()


# Fixed statements given to the driver as they are (see users.read_principal): the
# session, or the key, joined to its user, who must not be disabled.
_READ_SESSION = (
    "SELECT u.id, u.email, u.is_admin FROM auth_sessions s JOIN users u ON u.id = s.user_id"
    " WHERE s.id = ? AND s.user_id = ? AND u.disabled_at IS NULL"
)
_READ_API_KEY = (
    "SELECT u.id, u.email, u.is_admin FROM api_keys k JOIN users u ON u.id = k.user_id"
    " WHERE k.key_hash = ? AND u.disabled_at IS NULL"
)


def _principal(row: Sequence[Any] | None) -> Principal | None:
    if row is None:
        return None
    return Principal(id=row[0], email=row[1], is_admin=bool(row[2]))


def read_session_principal(
    *, connection: Connection, session_id: str, user_id: str
) -> Principal | None:
    """The user of a live session of `user_id`, read synchronously (SQLite)."""
    row = connection.exec_driver_sql(_READ_SESSION, (session_id, user_id)).first()
    return _principal(row)


def read_api_key_principal(*, connection: Connection, key_hash: str) -> Principal | None:
    """The user of an API key, by the key's hash, read synchronously (SQLite)."""
    return _principal(connection.exec_driver_sql(_READ_API_KEY, (key_hash,)).first())


_PRINCIPAL_COLUMNS = (User.id, User.email, User.is_admin)


async def get_session_principal(
    *, session: AsyncSession, session_id: str, user_id: str
) -> Principal | None:
    """The user of a live session of `user_id`; None when it ended or the user is disabled."""
    result = await session.execute(
        select(*_PRINCIPAL_COLUMNS)
        .join(AuthSession, AuthSession.user_id == User.id)
        .where(
            AuthSession.id == session_id,
            AuthSession.user_id == user_id,
            User.disabled_at.is_(None),
        )
    )
    return _principal(result.first())


async def get_api_key_principal(*, session: AsyncSession, key_hash: str) -> Principal | None:
    """The user of an API key, by the key's hash; None when revoked or the user is disabled."""
    result = await session.execute(
        select(*_PRINCIPAL_COLUMNS)
        .join(ApiKey, ApiKey.user_id == User.id)
        .where(ApiKey.key_hash == key_hash, User.disabled_at.is_(None))
    )
    return _principal(result.first())


async def delete_sessions(
    *,
    session: AsyncSession,
    user_id: str | None = None,
    session_id: str | None = None,
    keep: str | None = None,
) -> dict[str, datetime]:
    """End the sessions that match (`session_id`, else every one of `user_id`), except
    `keep`; their ids and expiry times (a cache forgets each until then)."""
    if session_id is None and user_id is None:
        raise ValueError("name a session or a user")
    query = select(AuthSession.id, AuthSession.expires_at)
    if session_id is not None:
        query = query.where(AuthSession.id == session_id)
    if user_id is not None:
        query = query.where(AuthSession.user_id == user_id)
    if keep is not None:
        query = query.where(AuthSession.id != keep)
    ended = {row.id: row.expires_at for row in (await session.execute(query)).all()}
    if ended:
        await session.execute(delete(AuthSession).where(AuthSession.id.in_(list(ended))))
    return ended


async def list_sessions(*, session: AsyncSession, user_id: str | None = None) -> list[SessionRow]:
    """The unexpired sessions (of `user_id`, or everyone's), newest first."""
    query = (
        select(AuthSession, User.email)
        .join(User, User.id == AuthSession.user_id)
        .where(AuthSession.expires_at > utcnow())
        .order_by(AuthSession.created_at.desc())
    )
    if user_id is not None:
        query = query.where(AuthSession.user_id == user_id)
    return [
        SessionRow(
            id=row.id,
            user_id=row.user_id,
            email=email,
            created_at=row.created_at,
            expires_at=row.expires_at,
            client=row.client,
            user_agent=row.user_agent,
        )
        for row, email in (await session.execute(query)).all()
    ]


async def add_api_key(
    *, session: AsyncSession, key_id: str, user_id: str, name: str, key_hash: str, prefix: str
) -> ApiKey:
    """Store an API key's hash under `name`."""
    row = ApiKey(id=key_id, user_id=user_id, name=name, key_hash=key_hash, prefix=prefix)
    session.add(row)
    await session.flush()
    return row


async def list_api_keys(*, session: AsyncSession, user_id: str) -> list[ApiKey]:
    """The API keys of `user_id`, newest first."""
    result = await session.execute(
        select(ApiKey).where(ApiKey.user_id == user_id).order_by(ApiKey.created_at.desc())
    )
    return list(result.scalars())


async def delete_api_key(*, session: AsyncSession, key_id: str, user_id: str | None) -> bool:
    """Revoke the key `key_id` (of `user_id`, when given: another's is not found)."""
    statement = delete(ApiKey).where(ApiKey.id == key_id)
    if user_id is not None:
        statement = statement.where(ApiKey.user_id == user_id)
    result = await session.execute(statement)
    return bool(getattr(result, "rowcount", 0))


async def set_disabled(*, session: AsyncSession, user_id: str, disabled: bool) -> None:
    """Disable the account `user_id` (now), or enable it again."""
    await session.execute(
        update(User).where(User.id == user_id).values(disabled_at=utcnow() if disabled else None)
    )


async def disabled_among(*, session: AsyncSession, user_ids: Collection[str]) -> set[str]:
    """Which of `user_ids` are disabled accounts."""
    if not user_ids:
        return set()
    result = await session.execute(
        select(User.id).where(User.id.in_(list(user_ids)), User.disabled_at.is_not(None))
    )
    return set(result.scalars())
