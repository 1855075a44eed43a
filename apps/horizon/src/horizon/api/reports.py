"""Reports: a stream's reports, one report with its articles, and starring or annotating one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, status

from pagechat.server import CurrentUser, SessionDep

from ..domain import (
    ReportArticlePublic,
    ReportArticleUpdate,
    ReportDetail,
    ReportsPublic,
    get_report_detail,
    list_reports,
    update_report_article,
)
from .params import DbId

__all__ = ["router"]

router = APIRouter(prefix="/api/horizon", tags=["horizon: reports"])

Id = DbId
Pmid = Annotated[str, Path(min_length=1, max_length=20)]


@router.get(
    "/streams/{stream_id}/reports", responses={404: {"description": "No such stream of yours"}}
)
async def read_stream_reports(
    stream_id: Id, session: SessionDep, user: CurrentUser
) -> ReportsPublic:
    reports = await list_reports(session=session, user_id=user.id, stream_id=stream_id)
    if reports is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Stream not found")
    return ReportsPublic(data=reports, count=len(reports))


@router.get("/reports/{report_id}", responses={404: {"description": "No such report of yours"}})
async def read_report(report_id: Id, session: SessionDep, user: CurrentUser) -> ReportDetail:
    report = await get_report_detail(session=session, user_id=user.id, report_id=report_id)
    if report is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Report not found")
    return report


@router.patch(
    "/reports/{report_id}/articles/{pmid}",
    responses={404: {"description": "No such article in a report of yours"}},
)
async def update_report_entry(
    report_id: Id,
    pmid: Pmid,
    update: ReportArticleUpdate,
    session: SessionDep,
    user: CurrentUser,
) -> ReportArticlePublic:
    """Star or unstar the article, or replace your notes on it."""
    entry = await update_report_article(
        session=session, user_id=user.id, report_id=report_id, pmid=pmid, update=update
    )
    if entry is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "Article not found in this report")
    await session.commit()
    return entry
