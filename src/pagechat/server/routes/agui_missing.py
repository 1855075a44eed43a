"""`POST /api/agui/{page}` without the `agui` extra: a clear 501 that names the extra.

The route stays behind the session like every other, so an anonymous caller learns
nothing about what this server has installed.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ...extras import MissingExtra
from ..deps import CurrentUser

__all__ = ["router"]

router = APIRouter(prefix="/api/agui", tags=["ag-ui"])


@router.post("/{page}")
async def agui_not_installed(page: str, user: CurrentUser) -> JSONResponse:
    """Answers 501: this server was installed without AG-UI."""
    return JSONResponse(
        {"detail": str(MissingExtra("agui", "AG-UI")), "extra": "agui"}, status_code=501
    )
