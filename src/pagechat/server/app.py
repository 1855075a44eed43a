"""The FastAPI application factory."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..chat import ChatConfig, ChatService
from ..chat.service import ModelSource
from ..runs import RunManager
from ..store.base import ChatStore
from .deps import Authenticator
from .limits import BodySizeLimit
from .routes import chat, health

__all__ = ["create_app"]

logger = logging.getLogger(__name__)


def create_app(
    *,
    model: ModelSource,
    store: ChatStore,
    authenticator: Authenticator,
    config: ChatConfig | None = None,
    runs: RunManager | None = None,
    cancel_on_disconnect: bool = False,
    static_dir: Path | None = None,
    max_body_bytes: int = 256 * 1024,
) -> FastAPI:
    """Build the app. Everything it needs is passed in, so tests can wire real parts freely."""
    run_manager = runs or RunManager()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_manager.shutdown()

    app = FastAPI(title="pagechat", version="0.1.0", lifespan=lifespan)
    app.state.runs = run_manager
    app.state.chat = ChatService(model=model, store=store, runs=run_manager, config=config)
    app.state.authenticator = authenticator
    app.state.cancel_on_disconnect = cancel_on_disconnect
    app.add_middleware(BodySizeLimit, max_bytes=max_body_bytes)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        # pydantic's errors may hold the raw input (bytes of bad UTF-8, say): keep it printable.
        errors = [
            {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type", ""))}
            for e in exc.errors()
        ]
        return JSONResponse({"detail": errors}, status_code=422)

    app.include_router(health.router)
    app.include_router(chat.router)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="web")
    return app
