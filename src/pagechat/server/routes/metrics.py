"""`GET /metrics`: Prometheus text format, for admins and the configured scraper token."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request, Response, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ...metrics import CONTENT_TYPE_LATEST, render_latest
from ..deps import current_user

__all__ = ["router"]

router = APIRouter(tags=["metrics"])

_bearer = HTTPBearer(auto_error=False)


async def _scraper_or_admin(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    # A scraper holds a long-lived static token (PAGECHAT_METRICS_TOKEN): user tokens
    # expire, and a Prometheus job cannot sign in.
    expected: str | None = request.app.state.metrics_token
    if (
        expected
        and credentials is not None
        and hmac.compare_digest(credentials.credentials.encode(), expected.encode())
    ):
        return
    user = await current_user(request, credentials)
    if not user.is_admin:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "Metrics are for administrators")


@router.get("/metrics", dependencies=[Depends(_scraper_or_admin)], include_in_schema=False)
async def metrics() -> Response:
    return Response(render_latest(), media_type=CONTENT_TYPE_LATEST)
