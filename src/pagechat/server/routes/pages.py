"""The pages the app registered: what a web shell picks its app by."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from ...pages import page_names
from ..deps import CurrentUser

__all__ = ["PageList", "router"]

router = APIRouter(prefix="/api", tags=["pages"])


class PageList(BaseModel):
    """The page names the app serves chat for."""

    pages: list[str]
    """Sorted; empty for plain pagechat without an app."""


@router.get("/pages")
async def list_pages(user: CurrentUser) -> PageList:
    """The names a turn's `context.current_page` may take (any other is refused with 400)."""
    return PageList(pages=page_names())
