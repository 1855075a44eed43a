"""FastAPI dependencies: the current user, the chat service, the run manager."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from ..chat import ChatService
from ..identity import Authenticator, Principal, StaticTokens
from ..runs import RunManager
from .session_cookie import CSRF_HEADER, SESSION_COOKIE, csrf_ok

__all__ = [
    "AdminUser",
    "Authenticator",
    "ChatServiceDep",
    "CurrentUser",
    "OptionalSessionDep",
    "RunsDep",
    "SessionDep",
    "StaticTokens",
    "current_user",
    "request_token",
]

_bearer = HTTPBearer(auto_error=False)


def _unauthorized(detail: str) -> HTTPException:
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED, detail=detail, headers={"WWW-Authenticate": "Bearer"}
    )


async def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The user of a bearer token (API clients), else of the browser's session cookie."""
    authenticator: Authenticator = request.app.state.authenticator
    if credentials is not None and credentials.scheme.lower() == "bearer":
        token = credentials.credentials
    else:
        cookie = request.cookies.get(SESSION_COOKIE)
        if not cookie:
            raise _unauthorized("Not authenticated")
        if not csrf_ok(request):
            raise HTTPException(status.HTTP_403_FORBIDDEN, f"Missing or wrong {CSRF_HEADER}")
        token = cookie
    user = await authenticator.authenticate(token)
    if user is None:
        raise _unauthorized("Invalid or expired token")
    request.state.token = token  # sign-out ends the session this token names
    return user


def request_token(request: Request) -> str:
    """The token `current_user` authenticated this request with (a dependency ran first)."""
    token: str = request.state.token
    return token


# Dependencies are coroutines even when they await nothing: FastAPI runs a plain
# function in a worker thread, a hand-off on every request.
async def _chat_service(request: Request) -> ChatService:
    service: ChatService = request.app.state.chat
    return service


async def _runs(request: Request) -> RunManager:
    runs: RunManager = request.app.state.runs
    return runs


async def _session(request: Request) -> AsyncIterator[AsyncSession]:
    sessions: async_sessionmaker[AsyncSession] | None = request.app.state.sessions
    if sessions is None:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "This app has no database")
    async with sessions() as session:
        yield session


async def _optional_session(request: Request) -> AsyncIterator[AsyncSession | None]:
    sessions: async_sessionmaker[AsyncSession] | None = request.app.state.sessions
    if sessions is None:
        yield None
        return
    async with sessions() as session:
        yield session


async def admin_user(user: Annotated[Principal, Depends(current_user)]) -> Principal:
    """The signed-in user, if an admin; a signed-in user who is not is told so (403), as
    by `/metrics`."""
    if not user.is_admin:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "This is for administrators")
    return user


CurrentUser = Annotated[Principal, Depends(current_user)]
AdminUser = Annotated[Principal, Depends(admin_user)]
"""The signed-in user, who must be an admin."""
SessionDep = Annotated[AsyncSession, Depends(_session)]
"""A database session for the request; the route commits what it writes."""
OptionalSessionDep = Annotated[AsyncSession | None, Depends(_optional_session)]
ChatServiceDep = Annotated[ChatService, Depends(_chat_service)]
RunsDep = Annotated[RunManager, Depends(_runs)]
