"""Password hashing with argon2id (argon2-cffi's RFC 9106 defaults).

Hashing is deliberately slow (tens of milliseconds of CPU): call these from a
worker thread in async code, as `pagechat.auth` does.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["hash_password", "needs_rehash", "verify_password"]

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """The Argon2 hash to store for `password`."""
    result: str = _hasher.hash(password)
    return result


def verify_password(password_hash: str, password: str) -> bool:
    """Whether `password` matches the stored hash; a malformed hash is a mismatch."""
    try:
        ok: bool = _hasher.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False
    return ok


def needs_rehash(password_hash: str) -> bool:
    """True when the hash was made with weaker parameters than today's."""
    result: bool = _hasher.check_needs_rehash(password_hash)
    return result
