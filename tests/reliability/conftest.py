"""The app as `pagechat serve` builds it, on loopback, for the reliability tests.

`live` is `create_app_from_settings` on a temporary SQLite file, served by uvicorn in
the test's own event loop — so a test sees every task the server runs — with three
accounts holding real JWTs and a model slot each test fills. `threaded` is the same
app served from a thread, for the synchronous hypothesis and schemathesis tests.
`assert_nothing_left_running` is the leak check every fault test ends with.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, cast

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

import pagechat.pages.registry
import pagechat.tools.registry
from pagechat.auth import JwtAuthenticator
from pagechat.models import FunctionModel, Model, ScriptedModel, ScriptItem
from pagechat.runs import RunManager
from pagechat.server.app import create_app_from_settings
from pagechat.settings import Settings
from pagechat.store import create_engine, create_sessionmaker
from pagechat.store.users import create_user
from pagechat.testing import Frame, LiveApp, free_port, read_all, running_app
from tests.conftest import PASSWORD, TEST_SECRET, Account

LOGIN_MAX_ATTEMPTS = 3
LOGIN_WINDOW_SECONDS = 1.0
MAX_BODY_BYTES = 256 * 1024
"""create_app's default request body limit, which create_app_from_settings keeps."""


@pytest.fixture(autouse=True)
def _isolated_registries(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pages and tools a test registers are gone after it; whatever was registered
    # before is back for the tests that follow.
    monkeypatch.setattr(pagechat.pages.registry, "_PAGES", {})
    monkeypatch.setattr(pagechat.tools.registry, "_TOOLS", {})


def settings_for(tmp_path: Path, database_url: str | None = None, **extra: object) -> Settings:
    return Settings.model_validate(settings_overrides(tmp_path, database_url, **extra))


def settings_overrides(
    tmp_path: Path, database_url: str | None = None, **extra: object
) -> dict[str, object]:
    web = tmp_path / "web"
    web.mkdir(exist_ok=True)
    (web / "index.html").write_text("<!doctype html><div id=root></div>")
    return {
        "DATABASE_URL": database_url or f"sqlite+aiosqlite:///{tmp_path}/pagechat.db",
        "PAGECHAT_STATE_DIR": tmp_path / "state",
        "PAGECHAT_SECRET": TEST_SECRET,
        "PAGECHAT_WEB_DIR": web,
        "PAGECHAT_LOGIN_MAX_ATTEMPTS": LOGIN_MAX_ATTEMPTS,
        "PAGECHAT_LOGIN_WINDOW_SECONDS": LOGIN_WINDOW_SECONDS,
        # A test's server stops at once; draining has tests of its own (test_scale_out).
        "PAGECHAT_DRAIN_SECONDS": 0,
        **extra,
    }


@dataclass
class Live:
    """pagechat's public test app (pagechat.testing.LiveApp) with the three accounts the
    reliability tests act as."""

    kit: LiveApp
    alice: Account
    bob: Account
    admin: Account

    @property
    def app(self) -> FastAPI:
        return self.kit.app

    @property
    def base(self) -> str:
        return self.kit.base_url

    @property
    def client(self) -> httpx.AsyncClient:
        return self.kit.http

    @property
    def runs(self) -> RunManager:
        return cast(RunManager, self.app.state.runs)

    @property
    def authenticator(self) -> JwtAuthenticator:
        return cast(JwtAuthenticator, self.app.state.authenticator)

    def use_model(self, model: Model) -> None:
        self.kit.use_model(model)

    def script(self, *replies: list[ScriptItem] | str, delay: float = 0.0) -> ScriptedModel:
        return self.kit.script(*replies, delay=delay)

    async def chat(
        self, message: str = "hello", account: Account | None = None, **body: Any
    ) -> tuple[httpx.Response, list[Frame]]:
        headers = (account or self.alice).headers
        async with self.client.stream(
            "POST", "/api/chat/stream", json={"message": message, **body}, headers=headers
        ) as response:
            return response, await read_all(response)

    async def messages(
        self, conversation_id: str, account: Account | None = None
    ) -> list[dict[str, Any]]:
        response = await self.client.get(
            f"/api/conversations/{conversation_id}", headers=(account or self.alice).headers
        )
        assert response.status_code == 200, response.text
        messages: list[dict[str, Any]] = response.json()["messages"]
        return messages


@asynccontextmanager
async def open_live(tmp_path: Path, database_url: str | None = None) -> AsyncIterator[Live]:
    overrides = settings_overrides(tmp_path, database_url)
    async with running_app(
        create_app_from_settings, directory=tmp_path, settings=overrides, email="alice@example.com"
    ) as kit:
        bob = await kit.add_user("bob@example.com")
        admin = await kit.add_user("admin@example.com", is_admin=True)
        yield Live(kit, kit.account, bob, admin)


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Live]:
    """On a SQLite file."""
    async with open_live(tmp_path) as live:
        yield live


@pytest.fixture
async def live_on_each_database(tmp_path: Path, database_url: str) -> AsyncIterator[Live]:
    """On SQLite, and on PostgreSQL with PAGECHAT_TEST_POSTGRES_URL (see tests/conftest.py)."""
    async with open_live(tmp_path, database_url) as live:
        yield live


# --- the app served from a thread, for synchronous property tests ------------------


@dataclass(frozen=True)
class Threaded:
    app: FastAPI
    base: str
    headers: dict[str, str]
    """Alice's, with a token from a real login."""


@contextmanager
def serve_in_thread(app: FastAPI) -> Iterator[str]:
    """Serve `app` with uvicorn (lifespan on) from a thread of its own; yields the base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, name="reliability-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


async def _seed_users(database_url: str, password_hash: str, *emails: str) -> None:
    engine = create_engine(database_url)
    try:
        async with create_sessionmaker(engine).begin() as session:
            for email in emails:
                await create_user(session=session, email=email, password_hash=password_hash)
    finally:
        await engine.dispose()


def login(base: str, email: str) -> dict[str, str]:
    response = httpx.post(
        f"{base}/api/auth/login", json={"email": email, "password": PASSWORD}, timeout=10
    )
    assert response.status_code == 200, response.text
    return {"Authorization": f"Bearer {response.json()['access_token']}"}


@pytest.fixture
def threaded(tmp_path: Path, password_hash: str) -> Iterator[Threaded]:
    settings = settings_for(tmp_path)
    app = create_app_from_settings(settings, model=FunctionModel(lambda _request: "OK"))
    with serve_in_thread(app) as base:
        # The server has migrated the database; its own loop owns its engine.
        asyncio.run(_seed_users(settings.database_url, password_hash, "alice@example.com"))
        yield Threaded(app, base, login(base, "alice@example.com"))


# --- leaks ------------------------------------------------------------------------

_INFRASTRUCTURE = frozenset(
    {
        "Server.serve",
        "LifespanOn.main",
        "_shutdown_watcher",
        "_end_on_exit",
        "Approvals._sweep",
        "_stop_disabled_forever",
    }
)
"""Coroutines of tasks that outlive every request: uvicorn's server and lifespan,
sse-starlette's one-per-loop shutdown watcher and the chat streams' one that listens to
it, the sweep for lapsed approvals, and the check for disabled accounts' answers."""


def _qualname(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    return str(getattr(coro, "__qualname__", coro))


def _lingering_tasks() -> list[str]:
    me = asyncio.current_task()
    return [
        f"{task.get_name()} ({_qualname(task)})"
        for task in asyncio.all_tasks()
        if task is not me and not task.done() and _qualname(task) not in _INFRASTRUCTURE
    ]


def _frames(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


def threads_running(*functions: Callable[..., Any]) -> list[str]:
    """Threads whose stack is inside one of `functions` right now."""
    codes = {f.__code__ for f in functions}
    names = {t.ident: t.name for t in threading.enumerate()}
    return [
        names.get(ident, str(ident))
        for ident, frame in sys._current_frames().items()
        if any(f.f_code in codes for f in _frames(frame))
    ]


async def assert_nothing_left_running(
    live: Live, *tools: Callable[..., Any], grace: float = 2.0
) -> None:
    """Within `grace` seconds no run is active, no task but uvicorn's own is pending on
    the loop (run tasks are named `run-<id>`; request handlers, SSE relays, tool workers
    would show up too), and no thread is still inside one of the `tools`."""
    deadline = time.monotonic() + grace
    while True:
        active = [run.id for run in live.runs.active()]
        tasks = _lingering_tasks()
        threads = threads_running(*tools)
        if not (active or tasks or threads):
            return
        if time.monotonic() > deadline:
            raise AssertionError(
                f"still running after {grace} s: runs {active}, tasks {tasks}, threads {threads}"
            )
        await asyncio.sleep(0.02)
