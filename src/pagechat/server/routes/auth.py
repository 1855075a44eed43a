"""Log in with email and password; ask who you are."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response, status

from ...auth.login import InvalidCredentials, LoginThrottled, PasswordLogin
from ...defaults import TOKEN_TTL_MINUTES
from ...protocol import ErrorResponse, LoginRequest, Token, UserPublic
from ..deps import CurrentUser
from ..session_cookie import clear_session, set_session

__all__ = ["router"]

router = APIRouter(prefix="/api/auth", tags=["auth"])


def _client(request: Request) -> str:
    # The peer as the ASGI server reports it (uvicorn takes X-Forwarded-For from trusted
    # proxies only), so a client cannot pick a fresh address for each guess.
    return request.client.host if request.client else "unknown"


@router.post(
    "/login",
    responses={
        401: {"model": ErrorResponse, "description": "Incorrect email or password"},
        404: {"model": ErrorResponse, "description": "Password login is not enabled"},
        429: {"model": ErrorResponse, "description": "Too many attempts; see Retry-After"},
    },
)
async def login(body: LoginRequest, request: Request, response: Response) -> Token:
    """Exchange an email and password for a bearer token (API clients), and a session
    cookie with its CSRF token (browsers)."""
    authenticator = request.app.state.authenticator
    if not isinstance(authenticator, PasswordLogin):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Password login is not enabled")
    try:
        token = await authenticator.login(
            email=body.email, password=body.password, client=_client(request)
        )
    except LoginThrottled as exc:
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            f"Too many login attempts; try again in {exc.retry_after} seconds",
            headers={"Retry-After": str(exc.retry_after)},
        ) from None
    except InvalidCredentials:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "Incorrect email or password",
            headers={"WWW-Authenticate": "Bearer"},
        ) from None
    set_session(request, response, token, max_age=_session_seconds(authenticator))
    return Token(access_token=token)


@router.post("/logout")
async def logout(_user: CurrentUser, response: Response) -> dict[str, bool]:
    """End the browser's session: its cookies are cleared."""
    clear_session(response)
    return {"signed_out": True}


def _session_seconds(authenticator: object) -> int:
    ttl = getattr(authenticator, "token_ttl", None)
    return int(ttl.total_seconds()) if ttl is not None else TOKEN_TTL_MINUTES * 60


@router.get("/me")
async def me(user: CurrentUser) -> UserPublic:
    return UserPublic(id=user.id, email=user.email, is_admin=user.is_admin)
