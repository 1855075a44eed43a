"""An app under test: any app factory on a SQLite file in a temporary directory, served on
loopback, with a user and their token, and a model the test scripts.

    async with running_app("notes.app:create_app") as app:
        app.script(["Saved.", tool_call("save_note", {"text": "milk"})], ["Done."])
        turn = await app.client.chat("remember milk", page="notes")
"""

from __future__ import annotations

import functools
import secrets
import tempfile
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import httpx
from fastapi import FastAPI

from ..apps import AppFactory, load_app_factory
from ..auth import JwtAuthenticator, hash_password
from ..identity import Principal
from ..models import Model, ScriptedModel, ScriptItem
from ..pages import registered_pages, restore_pages
from ..settings import Settings
from ..store.users import create_user, principal_of
from ..tools import registered_tools, restore_tools
from .client import ChatClient
from .live import serve

__all__ = ["TEST_PASSWORD", "LiveApp", "TestAccount", "isolated_registrations", "running_app"]

TEST_PASSWORD = "correct horse battery staple"
"""The password of every account `running_app` makes (for tests of the login route)."""


@functools.cache
def _password_hash() -> str:
    # argon2 is slow on purpose: one hash serves every account of the process.
    return hash_password(TEST_PASSWORD)


@dataclass(frozen=True)
class TestAccount:
    """A user of the app under test and a token of theirs."""

    __test__ = False  # not a pytest test class

    user: Principal
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """The Authorization header that signs requests in as this account."""
        return {"Authorization": f"Bearer {self.token}"}


class _ModelSlot:
    """The app's model: the app calls this for each turn, a test puts in the model it wants."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def __call__(self) -> Model:
        return self.model


class LiveApp:
    """A running app: its base URL, an HTTP client, a user (`account`) and the model."""

    def __init__(
        self, app: FastAPI, base_url: str, http: httpx.AsyncClient, slot: _ModelSlot
    ) -> None:
        self.app = app
        self.base_url = base_url
        self.http = http
        self._slot = slot
        self.account: TestAccount  # set by running_app before the app is handed out

    @property
    def client(self) -> ChatClient:
        """A chat client acting as `account`."""
        return self.client_for(self.account)

    def client_for(self, account: TestAccount) -> ChatClient:
        """A chat client that makes requests as `account`."""
        return ChatClient(self.http, account.headers)

    @property
    def model(self) -> Model:
        """The model the app answers with now."""
        return self._slot.model

    def use_model(self, model: Model) -> Model:
        """Answer the next turns with `model` (any `Model`: scripted, a function, a provider)."""
        self._slot.model = model
        return model

    def script(self, *replies: list[ScriptItem] | str, delay: float = 0.0) -> ScriptedModel:
        """Answer the next model calls with these replies, one per call (see ScriptedModel)."""
        model = ScriptedModel(list(replies), delay=delay)
        self._slot.model = model
        return model

    async def add_user(self, email: str, *, is_admin: bool = False) -> TestAccount:
        """Another account (password `TEST_PASSWORD`) and a token of theirs."""
        authenticator = cast(JwtAuthenticator, self.app.state.authenticator)
        async with self.app.state.sessions.begin() as session:
            row = await create_user(
                session=session, email=email, password_hash=_password_hash(), is_admin=is_admin
            )
        user = principal_of(row)
        return TestAccount(user, await authenticator.issue_token(user))


def _settings(directory: Path, overrides: Mapping[str, Any]) -> Settings:
    # Validated from a mapping, not read from the environment: a developer's .env or
    # API keys never reach the app under test.
    return Settings.model_validate(
        {
            "DATABASE_URL": f"sqlite+aiosqlite:///{directory}/pagechat.db",
            "PAGECHAT_STATE_DIR": directory / "state",
            "PAGECHAT_SECRET": secrets.token_urlsafe(48),
            # A test's server stops at once; nothing is left to drain.
            "PAGECHAT_DRAIN_SECONDS": 0,
            **overrides,
        }
    )


@contextmanager
def isolated_registrations() -> Iterator[None]:
    """Pages and global tools registered inside are forgotten on leaving: the registries
    (process-wide, as `register_page` and `register_tool` fill them) are as they were."""
    pages, tools = registered_pages(), registered_tools()
    try:
        yield
    finally:
        restore_pages(pages)
        restore_tools(tools)


@asynccontextmanager
async def running_app(
    factory: AppFactory | str | None = None,
    *,
    directory: Path | None = None,
    model: Model | None = None,
    settings: Mapping[str, Any] | None = None,
    email: str = "user@example.com",
) -> AsyncIterator[LiveApp]:
    """Build the app with `factory` (or `"module:factory"`; None: plain pagechat), serve it.

    The database is a SQLite file in `directory` (a fresh temporary one by default),
    migrated by the app's own startup. `settings` are environment settings by name
    (`{"PAGECHAT_MAX_ITERATIONS": 3}`). The model is `model`, else a ScriptedModel with
    nothing to say: use `LiveApp.script` before a turn.

    The pages and global tools the app registers are forgotten when it stops
    (`isolated_registrations`), so they never leak into the next app of the process.
    """
    build = factory if callable(factory) else load_app_factory(factory)
    async with AsyncExitStack() as stack:
        stack.enter_context(isolated_registrations())
        if directory is None:
            directory = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="pagechat-")))
        slot = _ModelSlot(model if model is not None else ScriptedModel([]))
        app = build(_settings(directory, settings or {}), model=slot)
        base_url = await stack.enter_async_context(serve(app))
        http = await stack.enter_async_context(httpx.AsyncClient(base_url=base_url, timeout=10))
        live = LiveApp(app, base_url, http, slot)
        live.account = await live.add_user(email)
        yield live
