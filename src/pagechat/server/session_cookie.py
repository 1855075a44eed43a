"""The browser's session: an HttpOnly cookie, with a double-submit CSRF token.

A token in `localStorage` is readable by any script that ever runs on the page;
an HttpOnly cookie is not. Login sets two cookies: the session (HttpOnly,
SameSite=Strict, Secure over HTTPS) and a CSRF token the page can read. A request
authenticated by the cookie that changes anything (POST, PUT, PATCH, DELETE)
must repeat the CSRF token in `X-CSRF-Token`: another site can make the browser
send the cookie (SameSite aside, on an old browser), never read it to copy it.
Bearer tokens (API clients, tests, AG-UI) are not sent by browsers on their own,
so requests carrying one need no CSRF token.
"""

from __future__ import annotations

import hmac
import secrets

from fastapi import Request, Response

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "SESSION_COOKIE",
    "clear_session",
    "csrf_ok",
    "set_session",
]

SESSION_COOKIE = "pagechat_session"
CSRF_COOKIE = "pagechat_csrf"
CSRF_HEADER = "X-CSRF-Token"
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _secure(request: Request) -> bool:
    # Behind a proxy, X-Forwarded-Proto is honoured only from trusted proxies (uvicorn).
    return request.url.scheme == "https"


def set_session(request: Request, response: Response, token: str, *, max_age: int) -> None:
    """Set the session cookie holding `token`, and its CSRF cookie."""
    secure = _secure(request)
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=max_age,
        path="/",
        httponly=True,
        secure=secure,
        samesite="strict",
    )
    response.set_cookie(
        CSRF_COOKIE,
        secrets.token_urlsafe(32),
        max_age=max_age,
        path="/",
        httponly=False,  # the page reads it to send it back as the header
        secure=secure,
        samesite="strict",
    )


def clear_session(response: Response) -> None:
    """Remove the session and CSRF cookies (logout)."""
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, path="/", samesite="strict")


def csrf_ok(request: Request) -> bool:
    """A cookie-authenticated request may go on: it only reads, or it proves the page sent it."""
    if request.method in _SAFE_METHODS:
        return True
    expected = request.cookies.get(CSRF_COOKIE)
    sent = request.headers.get(CSRF_HEADER)
    return bool(expected and sent and hmac.compare_digest(expected, sent))
