"""The app as `pagechat serve` builds it: startup migrations and recovery, accounts, the web UI."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from pagechat.auth import hash_password
from pagechat.models import FunctionModel
from pagechat.server.app import create_app_from_settings
from pagechat.settings import Settings
from pagechat.store import SqlChatStore, create_engine, create_sessionmaker, upgrade_async
from pagechat.store.users import create_user, principal_of
from tests.conftest import PASSWORD


def _settings(database_url: str, tmp_path: Path, **extra: object) -> Settings:
    return Settings.model_validate(
        {"DATABASE_URL": database_url, "PAGECHAT_STATE_DIR": tmp_path / "state", **extra}
    )


@asynccontextmanager
async def _running(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    # httpx's ASGI transport skips the lifespan; run it, as uvicorn would.
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            yield client


async def _login(client: httpx.AsyncClient, email: str) -> dict[str, str]:
    response = await client.post("/api/auth/login", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


async def test_startup_migrates_a_new_database_and_logins_work(
    database_url: str, tmp_path: Path
) -> None:
    app = create_app_from_settings(
        _settings(database_url, tmp_path), model=FunctionModel(lambda _r: "Hi!")
    )

    async with _running(app) as client:
        engine = create_engine(database_url)
        async with create_sessionmaker(engine).begin() as session:
            await create_user(
                session=session, email="ada@example.com", password_hash=hash_password(PASSWORD)
            )
        await engine.dispose()
        headers = await _login(client, "ada@example.com")
        chat = await client.post("/api/chat/stream", json={"message": "hello"}, headers=headers)
        listed = await client.get("/api/conversations", headers=headers)

    assert "Hi!" in chat.text
    assert [c["title"] for c in listed.json()["items"]] == ["hello"]


async def test_startup_marks_answers_left_running_as_interrupted(
    database_url: str, tmp_path: Path
) -> None:
    engine = create_engine(database_url)
    await upgrade_async(engine)
    sessions = create_sessionmaker(engine)
    async with sessions.begin() as session:
        user = principal_of(
            await create_user(
                session=session, email="ada@example.com", password_hash=hash_password(PASSWORD)
            )
        )
    ids = await SqlChatStore(sessions).begin_turn(
        user=user, conversation_id=None, message="before the crash", run_id="gone"
    )
    await engine.dispose()

    app = create_app_from_settings(
        _settings(database_url, tmp_path), model=FunctionModel(lambda _r: "")
    )
    async with _running(app) as client:
        headers = await _login(client, "ada@example.com")
        detail = await client.get(f"/api/conversations/{ids.conversation_id}", headers=headers)

    messages = detail.json()["messages"]
    assert [(m["content"], m["status"]) for m in messages] == [
        ("before the crash", "complete"),
        ("", "interrupted"),
    ]


async def test_a_generated_secret_outlives_the_app(sqlite_url: str, tmp_path: Path) -> None:
    settings = _settings(sqlite_url, tmp_path)
    first = create_app_from_settings(settings, model=FunctionModel(lambda _r: ""))
    async with _running(first) as client:
        engine = create_engine(sqlite_url)
        async with create_sessionmaker(engine).begin() as session:
            await create_user(
                session=session, email="ada@example.com", password_hash=hash_password(PASSWORD)
            )
        await engine.dispose()
        headers = await _login(client, "ada@example.com")

    second = create_app_from_settings(settings, model=FunctionModel(lambda _r: ""))
    async with _running(second) as client:
        me = await client.get("/api/auth/me", headers=headers)

    assert me.status_code == 200
    assert (tmp_path / "state" / "secret").exists()


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    web = tmp_path / "dist"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><div id=root></div>")
    (web / "assets" / "app.js").write_text("console.log('pagechat')")
    return web


async def test_the_web_ui_is_served_with_client_side_routes(
    sqlite_url: str, tmp_path: Path, web_dir: Path
) -> None:
    settings = _settings(sqlite_url, tmp_path, PAGECHAT_WEB_DIR=web_dir)
    app = create_app_from_settings(settings, model=FunctionModel(lambda _r: ""))

    async with _running(app) as client:
        root = await client.get("/")
        deep = await client.get("/conversations/abc")
        asset = await client.get("/assets/app.js")
        missing_asset = await client.get("/assets/gone.js")
        missing_api = await client.get("/api/nothing-here")
        health = await client.get("/api/health")

    assert root.status_code == deep.status_code == 200
    assert "id=root" in root.text and deep.text == root.text
    assert asset.text == "console.log('pagechat')"
    assert missing_asset.status_code == 404
    assert missing_api.status_code == 404
    assert missing_api.json() == {"detail": "Not Found"}
    assert health.json()["status"] == "ok"


async def test_the_api_docs_are_served_in_development_only(
    sqlite_url: str, tmp_path: Path, web_dir: Path
) -> None:
    answers = {}
    for env in ("development", "production"):
        settings = _settings(sqlite_url, tmp_path, PAGECHAT_WEB_DIR=web_dir, PAGECHAT_ENV=env)
        app = create_app_from_settings(settings, model=FunctionModel(lambda _r: ""))
        async with _running(app) as client:
            answers[env] = (await client.get("/docs"), await client.get("/openapi.json"))

    docs, schema = answers["development"]
    assert docs.status_code == 200 and "swagger-ui" in docs.text
    assert "/api/chat/stream" in schema.json()["paths"]
    docs, schema = answers["production"]
    # The web UI answers every other path with its page: no docs, no schema.
    assert "swagger" not in docs.text.lower() and "id=root" in docs.text
    assert "/api/chat/stream" not in schema.text


def test_production_is_the_default_environment() -> None:
    assert Settings.model_validate({}).env == "production"
