"""Access tokens: HS256 JWTs whose subject is the user id."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import jwt

__all__ = [
    "ALGORITHM",
    "MIN_SECRET_BYTES",
    "WeakSecret",
    "check_secret",
    "create_access_token",
    "read_access_token",
    "verify_access_token",
]

ALGORITHM = "HS256"
MIN_SECRET_BYTES = 32
"""RFC 7518 §3.2: an HS256 key at least as long as the hash."""


class WeakSecret(ValueError):
    """The signing secret is too short to be safe."""


def check_secret(secret: str) -> str:
    """`secret` unchanged, or WeakSecret when it is too short to sign tokens with."""
    if len(secret.encode()) < MIN_SECRET_BYTES:
        raise WeakSecret(
            f"PAGECHAT_SECRET must be at least {MIN_SECRET_BYTES} bytes long "
            "(for example: python -c 'import secrets; print(secrets.token_urlsafe(48))')"
        )
    return secret


def create_access_token(
    *, user_id: str, secret: str, ttl: timedelta, now: datetime | None = None
) -> str:
    """A signed JWT naming `user_id`, valid for `ttl` from `now`."""
    issued = now or datetime.now(UTC)
    claims = {"sub": user_id, "iat": issued, "exp": issued + ttl}
    return jwt.encode(claims, check_secret(secret), algorithm=ALGORITHM)


def read_access_token(token: str, *, secret: str) -> str | None:
    """The user id of a valid, unexpired token signed with `secret`; None otherwise."""
    verified = verify_access_token(token, secret=secret)
    return verified[0] if verified is not None else None


def verify_access_token(token: str, *, secret: str) -> tuple[str, float] | None:
    """The user id of a valid, unexpired token signed with `secret` and when the token
    expires (a POSIX timestamp); None otherwise."""
    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], options={"require": ["exp", "sub"]}
        )
    except jwt.PyJWTError:
        return None
    subject = claims.get("sub")
    expires = claims.get("exp")
    if not isinstance(subject, str) or not subject or not isinstance(expires, int | float):
        return None
    return subject, float(expires)
