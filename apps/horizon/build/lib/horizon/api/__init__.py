"""Horizon's REST routes for its web pages, under `/api/horizon`, one router per resource.

Every route needs a signed-in user and sees only that user's streams, reports and
notes: another user's answers 404, like one that does not exist. Routes get
their database session from pagechat's `SessionDep` and commit what they write.
"""

from fastapi import APIRouter

from . import articles, reports, streams

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (streams.router, reports.router, articles.router)
