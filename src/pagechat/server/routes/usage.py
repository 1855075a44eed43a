"""`GET /api/admin/usage`: the tokens answers and title calls used, by user, model, day and
purpose, for admins."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from ...store.usage import DEFAULT_GROUPING, Grouping, usage_csv
from ..deps import AdminUser
from .conversations import StoreDep

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["admin"])


@router.get("/usage", response_model=None)
async def usage(
    _: AdminUser,
    store: StoreDep,
    by: Annotated[list[Grouping] | None, Query()] = None,
    since: date | None = None,
    until: date | None = None,
    format: Literal["json", "csv"] = "json",
) -> dict[str, object] | Response:
    """Token sums grouped `by` user, model, day and/or purpose (answer or title; default:
    user, model and day), for the days `since`..`until` (included); cached-prompt tokens
    apart, answers counted apart from title calls. `format=csv` for a sheet."""
    groups = by or list(DEFAULT_GROUPING)
    rows = await store.usage(by=groups, since=since, until=until)
    if format == "csv":
        return Response(
            usage_csv(rows, groups),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="pagechat-usage.csv"'},
        )
    return {"by": groups, "rows": [asdict(r) for r in rows]}
