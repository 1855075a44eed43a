"""A real pagechat app with attachments stored in a folder, served by uvicorn, for the
tests that send files through each protocol (native, AG-UI, the AI SDK)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.attachments import Attachments, FileStorage
from pagechat.auth.authenticator import JwtAuthenticator
from pagechat.models import FunctionModel
from pagechat.models.testing import ReplyFunction
from pagechat.quotas import QuotaPolicy, QuotaSettings
from pagechat.server import create_app
from pagechat.store.base import ChatStore
from pagechat.testing import serve


@asynccontextmanager
async def attachments_client(
    *,
    sessions: async_sessionmaker[AsyncSession],
    authenticator: JwtAuthenticator,
    reply: ReplyFunction,
    files: Path,
    limits: QuotaPolicy,
) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a served app whose model answers with `reply` and whose users (admins
    too) have `limits`."""
    app = create_app(
        model=FunctionModel(reply),
        store=ChatStore(sessions),
        authenticator=authenticator,
        sessions=sessions,
        attachments=Attachments(
            sessions=sessions,
            storage=FileStorage(files),
            quotas=QuotaSettings(user=limits, admin=limits),
        ),
    )
    async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
        yield client
