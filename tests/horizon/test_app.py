"""`horizon.app.create_app`: Horizon as `pagechat serve --app horizon.app:create_app` runs it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text

from horizon.app import create_app
from horizon.domain import SYNTHETIC_SAMPLE_SIZE
from horizon.migrations import VERSION_LOCATIONS
from pagechat.auth import DEMO_EMAIL, DEMO_PASSWORD, ensure_account
from pagechat.settings import Settings
from pagechat.store import create_engine, create_sessionmaker, upgrade_async
from pagechat.testing import read_all


@asynccontextmanager
async def _running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    # httpx's ASGI transport skips the lifespan; run it, as uvicorn would.
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def _make_demo_account(database_url: str) -> None:
    """The demo account exists before the first start (`horizon seed-demo` or `pagechat
    users ensure-demo`), in a database that may have Horizon's tables already."""
    engine = create_engine(database_url)
    try:
        await upgrade_async(engine, version_locations=VERSION_LOCATIONS)
        async with create_sessionmaker(engine).begin() as session:
            await ensure_account(session=session, email=DEMO_EMAIL, password=DEMO_PASSWORD)
    finally:
        await engine.dispose()


def _app(database_url: str, tmp_path: Path) -> FastAPI:
    settings = Settings.model_validate(
        {
            "DATABASE_URL": database_url,
            "PAGECHAT_STATE_DIR": tmp_path / "state",
            "PAGECHAT_PROVIDER": "offline",
        }
    )
    return create_app(settings)


async def test_the_demo_account_finds_its_streams_and_chats_about_a_report(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HORIZON_SHARED_DIR", str(tmp_path / "no-shared-data"))
    await _make_demo_account(database_url)

    async with _running(_app(database_url, tmp_path)) as client:
        login = await client.post(
            "/api/auth/login", json={"email": DEMO_EMAIL, "password": DEMO_PASSWORD}
        )
        headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
        streams = (await client.get("/api/horizon/streams", headers=headers)).json()
        first = streams["data"][0]
        reports = (
            await client.get(f"/api/horizon/streams/{first['id']}/reports", headers=headers)
        ).json()
        report_id = reports["data"][0]["id"]
        context: dict[str, Any] = {"current_page": "reports", "report_id": report_id}
        async with client.stream(
            "POST",
            "/api/chat/stream",
            json={"message": "Summarise this report", "context": context},
            headers=headers,
        ) as response:
            frames = await read_all(response)

    assert streams["count"] == 3
    assert first["name"] == "CRISPR and gene editing" and first["report_count"] == 3
    complete = [f.event for f in frames if f.type == "complete"]
    assert f"Report {report_id} in short:" in complete[0]["payload"]["message"]


async def test_a_new_database_gets_articles_even_without_a_demo_account(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HORIZON_SHARED_DIR", str(tmp_path / "no-shared-data"))

    async with _running(_app(database_url, tmp_path)) as client:
        unauthorized = await client.get("/api/horizon/articles", params={"q": "sepsis"})
        health = await client.get("/api/health")

    assert (unauthorized.status_code, health.status_code) == (401, 200)
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            count = (await conn.execute(text("SELECT count(*) FROM articles"))).scalar_one()
    finally:
        await engine.dispose()
    assert count == SYNTHETIC_SAMPLE_SIZE


async def test_health_says_the_offline_model_is_answering_without_a_key() -> None:
    from horizon.offline import OfflineModel
    from pagechat.models.factory import model_from_settings
    from pagechat.settings import Settings

    model = model_from_settings(Settings.model_validate({}), offline=OfflineModel)
    assert (model.provider, model.name) == ("offline", "offline")
