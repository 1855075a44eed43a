"""Login, who-am-I, and what a missing, expired, forged or orphaned token gets."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import create_access_token
from pagechat.identity import Principal
from pagechat.models import FunctionModel
from pagechat.server import StaticTokens, create_app
from pagechat.store.tables import User
from tests.conftest import PASSWORD, TEST_SECRET, Account
from tests.support.stores import sqlite_store


async def _login(client: httpx.AsyncClient, email: str, password: str) -> httpx.Response:
    return await client.post("/api/auth/login", json={"email": email, "password": password})


async def test_login_returns_a_bearer_token_that_names_the_user(
    client: httpx.AsyncClient, alice: Account
) -> None:
    response = await _login(client, "Alice@Example.com", PASSWORD)

    assert response.status_code == 200
    body = response.json()
    assert body["token_type"] == "bearer"
    me = await client.get(
        "/api/auth/me", headers={"Authorization": f"Bearer {body['access_token']}"}
    )
    assert me.json() == {"id": alice.user.id, "email": "alice@example.com", "is_admin": False}


async def test_me_tells_an_admin_they_are_one(client: httpx.AsyncClient, admin: Account) -> None:
    response = await client.get("/api/auth/me", headers=admin.headers)

    assert response.json()["is_admin"] is True


@pytest.mark.parametrize(
    ("email", "password"), [("alice@example.com", "wrong"), ("nobody@example.com", PASSWORD)]
)
async def test_bad_credentials_get_one_401_for_both_causes(
    client: httpx.AsyncClient, alice: Account, email: str, password: str
) -> None:
    response = await _login(client, email, password)

    assert response.status_code == 401
    assert response.json() == {"detail": "Incorrect email or password"}


async def test_the_eleventh_attempt_in_five_minutes_gets_429_with_retry_after(
    client: httpx.AsyncClient, alice: Account
) -> None:
    for _ in range(10):
        assert (await _login(client, "alice@example.com", "guess")).status_code == 401

    response = await _login(client, "alice@example.com", PASSWORD)

    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 300
    assert "Too many login attempts" in response.json()["detail"]


async def test_a_malformed_login_gets_422_with_a_json_body(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/auth/login", json={"email": "a@example.com"})

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "password"]


def _forged(user_id: str) -> str:
    return create_access_token(user_id=user_id, secret="f" * 40, ttl=timedelta(hours=1))


def _expired(user_id: str) -> str:
    issued = datetime.now(UTC) - timedelta(days=1)
    return create_access_token(
        user_id=user_id, secret=TEST_SECRET, ttl=timedelta(hours=1), now=issued
    )


@pytest.mark.parametrize("kind", ["missing", "garbage", "forged", "expired", "basic"])
async def test_a_request_without_a_valid_token_gets_401(
    client: httpx.AsyncClient, alice: Account, kind: str
) -> None:
    headers = {
        "missing": {},
        "garbage": {"Authorization": "Bearer not.a.token"},
        "forged": {"Authorization": f"Bearer {_forged(alice.user.id)}"},
        "expired": {"Authorization": f"Bearer {_expired(alice.user.id)}"},
        "basic": {"Authorization": "Basic YWxpY2U6cHc="},
    }[kind]

    response = await client.get("/api/auth/me", headers=headers)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert "detail" in response.json()


async def test_the_token_of_a_deleted_user_gets_401(
    client: httpx.AsyncClient, sessions: async_sessionmaker[AsyncSession], alice: Account
) -> None:
    async with sessions.begin() as session:
        await session.execute(delete(User).where(User.id == alice.user.id))

    response = await client.get("/api/auth/me", headers=alice.headers)

    assert response.status_code == 401


async def test_login_is_404_when_the_app_uses_fixed_tokens() -> None:
    async with sqlite_store(in_memory=True) as store:
        app = create_app(
            model=FunctionModel(lambda _r: "hi"),
            store=store,
            authenticator=StaticTokens({"t": Principal("u", "u@example.com")}),
        )
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://testserver"
        ) as client:
            login = await _login(client, "u@example.com", "pw")
            me = await client.get("/api/auth/me", headers={"Authorization": "Bearer t"})

    assert login.status_code == 404
    assert me.json() == {"id": "u", "email": "u@example.com", "is_admin": False}
