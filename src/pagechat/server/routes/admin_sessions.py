"""Admins list and end sessions: anyone's, one at a time or all of a user's."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, HTTPException, Query, Request, status
from pydantic import BaseModel

from ..deps import AdminUser
from .auth import session_authenticator

__all__ = ["SessionInfo", "router"]

router = APIRouter(prefix="/api/admin", tags=["admin"])


class SessionInfo(BaseModel):
    """A live session, as an admin sees it."""

    id: str
    user_id: str
    email: str
    created_at: datetime
    expires_at: datetime
    client: str | None
    user_agent: str | None


@router.get("/sessions")
async def list_sessions(
    _: AdminUser,
    request: Request,
    user_id: str | None = Query(default=None, max_length=32),
) -> list[SessionInfo]:
    """Every live session (or `user_id`'s), newest first."""
    rows = await session_authenticator(request).registry.live(user_id=user_id)
    return [
        SessionInfo(
            id=r.id,
            user_id=r.user_id,
            email=r.email,
            created_at=r.created_at,
            expires_at=r.expires_at,
            client=r.client,
            user_agent=r.user_agent,
        )
        for r in rows
    ]


@router.delete("/sessions/{session_id}")
async def end_session(session_id: str, _: AdminUser, request: Request) -> dict[str, int]:
    """End one session: its token stops working on every worker. Unknown: 404."""
    ended = await session_authenticator(request).registry.end(session_id=session_id[:64])
    if not ended:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No such session")
    return {"sessions_ended": ended}


@router.delete("/users/{user_id}/sessions")
async def end_user_sessions(user_id: str, _: AdminUser, request: Request) -> dict[str, int]:
    """End every session of the user `user_id` (none is fine: 0)."""
    ended = await session_authenticator(request).registry.end(user_id=user_id[:64])
    return {"sessions_ended": ended}
