"""A user's named API keys: made (the key shown once), listed, revoked.

Keys are managed with a session only, never with a key: a stolen key must not mint
others that outlive its revocation.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException, Request, status
from pydantic import BaseModel, ConfigDict, Field

from ...auth.api_keys import is_api_key
from ...auth.sessions import SessionRegistry
from ..deps import CurrentUser, request_token
from .auth import session_authenticator

__all__ = ["ApiKeyCreated", "ApiKeyInfo", "ApiKeyRequest", "router"]

router = APIRouter(prefix="/api/auth/api-keys", tags=["auth"])


class ApiKeyRequest(BaseModel):
    """The body of `POST /api/auth/api-keys`."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100)


class ApiKeyInfo(BaseModel):
    """A key as its owner sees it later: never the key itself."""

    id: str
    name: str
    prefix: str
    """The key's first characters, to tell keys apart."""
    created_at: datetime


class ApiKeyCreated(ApiKeyInfo):
    """A key just made: `key` is shown this once and is stored nowhere in clear."""

    key: str


def _session_only(request: Request) -> SessionRegistry:
    registry = session_authenticator(request).registry
    if is_api_key(request_token(request)):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "Sign in to manage API keys")
    return registry


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_key(body: ApiKeyRequest, user: CurrentUser, request: Request) -> ApiKeyCreated:
    """A new API key for programs (`Authorization: Bearer pck_...`), separate from the
    browser's sessions: signing out does not end it; revoking it does."""
    name = body.name.strip()
    if not name:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "The name must not be blank")
    made, row = await _session_only(request).new_api_key(user_id=user.id, name=name)
    return ApiKeyCreated(
        id=made.id, name=made.name, prefix=made.prefix, created_at=row.created_at, key=made.key
    )


@router.get("")
async def list_keys(user: CurrentUser, request: Request) -> list[ApiKeyInfo]:
    """The user's API keys, newest first (without the keys)."""
    rows = await _session_only(request).api_keys(user_id=user.id)
    return [
        ApiKeyInfo(id=r.id, name=r.name, prefix=r.prefix, created_at=r.created_at) for r in rows
    ]


@router.delete("/{key_id}")
async def revoke_key(key_id: str, user: CurrentUser, request: Request) -> dict[str, bool]:
    """Revoke a key: it stops working at once, on every worker. Another user's: 404."""
    registry = _session_only(request)
    if not await registry.revoke_api_key(key_id=key_id[:64], user_id=user.id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such API key")
    return {"revoked": True}
