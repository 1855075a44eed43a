"""Named API keys for programs: random, shown once, stored as a SHA-256 hash.

A key is `pck_` and 43 characters of `secrets.token_urlsafe(32)`: 256 random bits.
Only its SHA-256 is stored. A fast hash is enough here, unlike for passwords: argon2
makes guessing a *human-chosen* password from its hash slow, but nobody can guess 256
random bits however fast each guess is, and a fast hash lets every request find its key
with one indexed read instead of an argon2 verification (tens of milliseconds of CPU).
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from ..store.credentials import add_api_key

__all__ = ["API_KEY_PREFIX", "NewApiKey", "create_api_key", "hash_api_key", "is_api_key"]

API_KEY_PREFIX = "pck_"
"""How an API key starts, so a bearer credential's kind is known without a look-up (and
secret scanners can recognise a leaked one)."""

_SHOWN = 8
"""Characters of a key kept in clear (the prefix and four more), to tell keys apart."""


@dataclass(frozen=True, kw_only=True, slots=True)
class NewApiKey:
    """A key just made: `key` is the only time anyone sees it."""

    id: str
    name: str
    key: str
    prefix: str


def is_api_key(token: str) -> bool:
    """Whether a bearer credential is an API key (not a session token)."""
    return token.startswith(API_KEY_PREFIX)


def hash_api_key(key: str) -> str:
    """What is stored for `key`: its SHA-256, in hex (see the module doc for why not argon2)."""
    return hashlib.sha256(key.encode()).hexdigest()


async def create_api_key(*, session: AsyncSession, user_id: str, name: str) -> NewApiKey:
    """A new key of `user_id` named `name`; only its hash is stored (the caller commits)."""
    key = API_KEY_PREFIX + secrets.token_urlsafe(32)
    key_id = uuid.uuid4().hex
    prefix = key[:_SHOWN]
    await add_api_key(
        session=session,
        key_id=key_id,
        user_id=user_id,
        name=name,
        key_hash=hash_api_key(key),
        prefix=prefix,
    )
    return NewApiKey(id=key_id, name=name, key=key, prefix=prefix)
