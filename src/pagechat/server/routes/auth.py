"""Log in with email and password; ask who you are; sign out (here or everywhere); change
the password."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from ...auth.api_keys import is_api_key
from ...auth.authenticator import JwtAuthenticator
from ...auth.login import AccountDisabled, InvalidCredentials, LoginThrottled, PasswordLogin
from ...auth.policy import MAX_LENGTH, WeakPassword
from ...defaults import TOKEN_TTL_MINUTES
from ...protocol import ErrorResponse, LoginRequest, Token, UserPublic
from ..deps import CurrentUser, request_token
from ..session_cookie import clear_session, set_session

__all__ = ["PasswordChange", "client_address", "router", "session_authenticator"]

router = APIRouter(prefix="/api/auth", tags=["auth"])


def client_address(request: Request) -> str:
    """The peer as the ASGI server reports it (uvicorn takes X-Forwarded-For from trusted
    proxies only), so a client cannot pick a fresh address for each guess."""
    return request.client.host if request.client else "unknown"


def _throttled(exc: LoginThrottled) -> HTTPException:
    return HTTPException(
        status.HTTP_429_TOO_MANY_REQUESTS,
        f"Too many login attempts; try again in {exc.retry_after} seconds",
        headers={"Retry-After": str(exc.retry_after)},
    )


@router.post(
    "/login",
    responses={
        401: {"model": ErrorResponse, "description": "Incorrect email or password"},
        403: {"model": ErrorResponse, "description": "The account is disabled"},
        404: {"model": ErrorResponse, "description": "Password login is not enabled"},
        429: {"model": ErrorResponse, "description": "Too many attempts; see Retry-After"},
    },
)
async def login(body: LoginRequest, request: Request, response: Response) -> Token:
    """Exchange an email and password for a bearer token (API clients), and a session
    cookie with its CSRF token (browsers): both name one new server-side session."""
    authenticator = request.app.state.authenticator
    if not isinstance(authenticator, PasswordLogin):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Password login is not enabled")
    try:
        token = await authenticator.login(
            email=body.email,
            password=body.password,
            client=client_address(request),
            user_agent=request.headers.get("user-agent"),
        )
    except LoginThrottled as exc:
        raise _throttled(exc) from None
    except InvalidCredentials:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "Incorrect email or password",
            headers={"WWW-Authenticate": "Bearer"},
        ) from None
    except AccountDisabled:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "This account is disabled") from None
    set_session(request, response, token, max_age=_session_seconds(authenticator))
    return Token(access_token=token)


def session_authenticator(request: Request) -> JwtAuthenticator:
    """The app's authenticator when it keeps sessions; 404 for fixed tokens."""
    authenticator = request.app.state.authenticator
    if not isinstance(authenticator, JwtAuthenticator):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Sessions are not enabled")
    return authenticator


@router.post("/logout")
async def logout(_user: CurrentUser, request: Request, response: Response) -> dict[str, bool]:
    """End this session: the token stops working (as a cookie and as a bearer token) on
    every worker, and the browser's cookies are cleared. An API key is not a session:
    400 (revoke it with `DELETE /api/auth/api-keys/{id}`)."""
    token = request_token(request)
    authenticator = request.app.state.authenticator
    if isinstance(authenticator, JwtAuthenticator) and not await authenticator.sign_out(token):
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            "An API key is not signed out; revoke it with DELETE /api/auth/api-keys/{id}",
        )
    clear_session(response)
    return {"signed_out": True}


@router.post("/logout-everywhere")
async def logout_everywhere(
    user: CurrentUser, request: Request, response: Response
) -> dict[str, int]:
    """End every session of the user, this one included (anyone who had a token must sign
    in again; so do you). API keys are not sessions: they keep working."""
    ended = await session_authenticator(request).registry.end(user_id=user.id)
    clear_session(response)
    return {"sessions_ended": ended}


class PasswordChange(BaseModel):
    """The body of `POST /api/auth/password`."""

    model_config = ConfigDict(extra="forbid")

    current_password: str = Field(min_length=1, max_length=MAX_LENGTH)
    new_password: str = Field(min_length=1, max_length=MAX_LENGTH)


@router.post(
    "/password",
    responses={
        400: {"model": ErrorResponse, "description": "The current password is wrong"},
        403: {"model": ErrorResponse, "description": "Sent with an API key"},
        422: {"model": ErrorResponse, "description": "The new password is too weak"},
        429: {"model": ErrorResponse, "description": "Too many attempts; see Retry-After"},
    },
)
async def change_password(
    body: PasswordChange, user: CurrentUser, request: Request
) -> dict[str, int]:
    """Change the password: the current one is checked (and counted like a login
    attempt), the user's other sessions end, this one goes on."""
    authenticator = session_authenticator(request)
    token = request_token(request)
    if is_api_key(token):
        # A stolen key must not be enough to take the account over.
        raise HTTPException(status.HTTP_403_FORBIDDEN, "Sign in to change the password")
    try:
        ended = await authenticator.change_password(
            user=user,
            current=body.current_password,
            new=body.new_password,
            client=client_address(request),
            keep=authenticator.session_of(token),
        )
    except LoginThrottled as exc:
        raise _throttled(exc) from None
    except InvalidCredentials:
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST, "The current password is not right"
        ) from None
    except WeakPassword as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(exc)) from None
    return {"other_sessions_ended": ended}


def _session_seconds(authenticator: object) -> int:
    ttl = getattr(authenticator, "token_ttl", None)
    return int(ttl.total_seconds()) if ttl is not None else TOKEN_TTL_MINUTES * 60


@router.get("/me")
async def me(user: CurrentUser) -> UserPublic:
    return UserPublic(id=user.id, email=user.email, is_admin=user.is_admin)
