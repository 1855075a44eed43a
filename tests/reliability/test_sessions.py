"""Sessions across workers and processes: a sign-out on one worker is refused by another
at once (through Redis), and `pagechat users disable` ends an account's sessions, stops
its running answer and blocks its login; `enable` lets it back in."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
import pytest

from pagechat.cli import main
from pagechat.models import ScriptItem
from pagechat.server.app import create_app_from_settings
from pagechat.testing import LiveApp, TestAccount, frames, read_all, running_app
from tests.conftest import PASSWORD
from tests.reliability.conftest import Live, settings_overrides

SLOW: list[ScriptItem] = [
    f"w{i} " for i in range(400)
]  # 20 s at 50 ms a word: still running when stopped


async def _login(app: LiveApp, email: str, password: str = PASSWORD) -> httpx.Response:
    return await app.http.post("/api/auth/login", json={"email": email, "password": password})


async def _me(app: LiveApp, token: str) -> int:
    r = await app.http.get("/api/auth/me", headers={"Authorization": f"Bearer {token}"})
    return r.status_code


def _pagechat(monkeypatch: pytest.MonkeyPatch, database_url: str, redis_url: str | None) -> None:
    """The environment an operator's `pagechat` command would see on this deployment."""
    monkeypatch.setenv("DATABASE_URL", database_url)
    if redis_url is None:
        monkeypatch.delenv("REDIS_URL", raising=False)
    else:
        monkeypatch.setenv("REDIS_URL", redis_url)


@pytest.fixture
async def two_workers(tmp_path: Path, redis_url: str) -> AsyncIterator[tuple[LiveApp, LiveApp]]:
    """Two apps as `pagechat serve` builds them, on one database and one Redis."""
    overrides = settings_overrides(tmp_path, REDIS_URL=redis_url)
    async with AsyncExitStack() as stack:
        a = await stack.enter_async_context(
            running_app(create_app_from_settings, directory=tmp_path, settings=overrides)
        )
        b = await stack.enter_async_context(
            running_app(
                create_app_from_settings,
                directory=tmp_path,
                settings=overrides,
                email="bob@example.com",
            )
        )
        yield a, b


async def test_a_sign_out_on_worker_a_is_refused_by_worker_b_at_once(
    two_workers: tuple[LiveApp, LiveApp],
) -> None:
    a, b = two_workers
    token = (await _login(a, a.account.user.email)).json()["access_token"]
    assert await _me(b, token) == 200  # B has the session in the shared cache now

    out = await a.http.post("/api/auth/logout", headers={"Authorization": f"Bearer {token}"})

    assert out.status_code == 200
    assert await _me(b, token) == 401
    assert await _me(a, token) == 401


async def test_sign_out_everywhere_on_a_reaches_the_sessions_b_has_seen(
    two_workers: tuple[LiveApp, LiveApp],
) -> None:
    a, b = two_workers
    email = a.account.user.email
    tokens = [(await _login(w, email)).json()["access_token"] for w in (a, b, b)]
    for token in tokens:
        assert await _me(b, token) == 200

    await a.http.post("/api/auth/logout-everywhere", headers=a.account.headers)

    assert [await _me(b, t) for t in tokens] == [401, 401, 401]
    assert await _me(b, b.account.token) == 200  # another user's session goes on


async def test_disable_through_redis_ends_sessions_every_worker_has_cached_and_stops_the_answer(
    two_workers: tuple[LiveApp, LiveApp],
    redis_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    a, b = two_workers
    alice = a.account
    assert await _me(b, alice.token) == 200
    a.script(SLOW, delay=0.05)
    _pagechat(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/pagechat.db", redis_url)

    async with a.http.stream(
        "POST", "/api/chat/stream", json={"message": "go on"}, headers=alice.headers
    ) as r:
        async for frame in frames(r):
            if frame.type == "text_delta":
                break
        assert await asyncio.to_thread(main, ["users", "disable", alice.user.email]) == 0
        assert await _me(b, alice.token) == 401  # at once: the cache says so
        async with asyncio.timeout(5):
            rest = await read_all(r)

    assert rest[-1].type == "cancelled"
    assert (await _login(b, alice.user.email)).status_code == 403


async def test_disable_blocks_login_stops_the_running_answer_and_enable_restores_login(
    live: Live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One worker, no Redis: the command reaches the server only through the database.
    alice = live.alice
    live.script(SLOW, delay=0.05)
    _pagechat(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/pagechat.db", None)

    async with live.client.stream(
        "POST", "/api/chat/stream", json={"message": "go on"}, headers=alice.headers
    ) as r:
        conversation_id = r.headers["x-conversation-id"]
        async for frame in frames(r):
            if frame.type == "text_delta":
                break
        assert await asyncio.to_thread(main, ["users", "disable", alice.user.email]) == 0
        me = await live.client.get("/api/auth/me", headers=alice.headers)
        async with asyncio.timeout(5):
            rest = await read_all(r)

    assert me.status_code == 401
    assert rest[-1].type == "cancelled"
    login = await live.client.post(
        "/api/auth/login", json={"email": alice.user.email, "password": PASSWORD}
    )
    assert login.status_code == 403 and login.json() == {"detail": "This account is disabled"}
    assert (await live.client.get("/api/auth/me", headers=live.bob.headers)).status_code == 200

    assert await asyncio.to_thread(main, ["users", "enable", alice.user.email]) == 0

    again = await live.client.post(
        "/api/auth/login", json={"email": alice.user.email, "password": PASSWORD}
    )
    assert again.status_code == 200
    token = again.json()["access_token"]
    fresh = TestAccount(alice.user, token)
    assert (await live.client.get("/api/auth/me", headers=fresh.headers)).status_code == 200
    assert (await live.client.get("/api/auth/me", headers=alice.headers)).status_code == 401
    stored = await live.messages(conversation_id, fresh)
    assert [m["status"] for m in stored] == ["complete", "cancelled"]


async def test_a_disabled_accounts_api_keys_are_refused_until_it_is_enabled(
    live: Live, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = await live.client.post(
        "/api/auth/api-keys", json={"name": "bot"}, headers=live.alice.headers
    )
    key = {"Authorization": f"Bearer {made.json()['key']}"}
    _pagechat(monkeypatch, f"sqlite+aiosqlite:///{tmp_path}/pagechat.db", None)

    await asyncio.to_thread(main, ["users", "disable", live.alice.user.email])
    disabled = await live.client.get("/api/auth/me", headers=key)
    await asyncio.to_thread(main, ["users", "enable", live.alice.user.email])
    enabled = await live.client.get("/api/auth/me", headers=key)

    assert disabled.status_code == 401 and enabled.status_code == 200
