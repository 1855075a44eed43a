"""Access tokens: HS256 JWTs whose subject is the user id and whose `sid` names the
server-side session (auth/sessions.py) they stand for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple

import jwt

__all__ = [
    "ALGORITHM",
    "MIN_SECRET_BYTES",
    "VerifiedToken",
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


class VerifiedToken(NamedTuple):
    """What a valid token says: its user, when it expires (POSIX time), its session."""

    user_id: str
    expires: float
    session_id: str | None


def create_access_token(
    *,
    user_id: str,
    secret: str,
    ttl: timedelta,
    now: datetime | None = None,
    session_id: str | None = None,
) -> str:
    """A signed JWT naming `user_id` (and the session `session_id`), valid for `ttl` from `now`.

    `JwtAuthenticator` honours only tokens with a session: one without is refused.
    """
    issued = now or datetime.now(UTC)
    claims: dict[str, object] = {"sub": user_id, "iat": issued, "exp": issued + ttl}
    if session_id is not None:
        claims["sid"] = session_id
    return jwt.encode(claims, check_secret(secret), algorithm=ALGORITHM)


def read_access_token(token: str, *, secret: str) -> str | None:
    """The user id of a valid, unexpired token signed with `secret`; None otherwise."""
    verified = verify_access_token(token, secret=secret)
    return verified.user_id if verified is not None else None


def verify_access_token(token: str, *, secret: str) -> VerifiedToken | None:
    """The claims of a valid, unexpired token signed with `secret`; None otherwise."""
    try:
        claims = jwt.decode(
            token, secret, algorithms=[ALGORITHM], options={"require": ["exp", "sub"]}
        )
    except jwt.PyJWTError:
        return None
    subject = claims.get("sub")
    expires = claims.get("exp")
    session_id = claims.get("sid")
    if not isinstance(subject, str) or not subject or not isinstance(expires, int | float):
        return None
    if session_id is not None and (not isinstance(session_id, str) or not session_id):
        return None
    return VerifiedToken(subject, float(expires), session_id)
