"""A pagechat server with one route that logs what it is sent and then fails with it.

`pagechat serve --app tests.pagechat.server.leaky_app:create_app`: the log-redaction test
sends it key-shaped text, which reaches the app's own logger and uvicorn's error logger
(an unhandled exception and its traceback) as well as the access log.
"""

from __future__ import annotations

import logging

from fastapi import APIRouter, FastAPI

from pagechat.server.app import create_app_from_settings

logger = logging.getLogger("pagechat.leaky")
router = APIRouter()


@router.get("/api/leak")
async def leak(q: str = "") -> dict[str, str]:
    """Logs `q` at warning level, then raises an exception whose message holds it."""
    logger.warning("asked to leak %s", q)
    raise RuntimeError(f"leaked {q}")


def create_app() -> FastAPI:
    """The app `pagechat serve` would run, plus the leaking route."""
    return create_app_from_settings(routers=[router])
