"""Named API keys: shown once, work as bearer tokens, revoked at once, stored hashed, and
kept apart from the browser's sessions."""

from __future__ import annotations

import httpx
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.store.tables import ApiKey
from tests.conftest import Account


async def _create(client: httpx.AsyncClient, account: Account, name: str) -> dict[str, str]:
    r = await client.post("/api/auth/api-keys", json={"name": name}, headers=account.headers)
    assert r.status_code == 201, r.text
    body: dict[str, str] = r.json()
    return body


async def test_a_key_is_shown_once_and_works_as_a_bearer_token(
    client: httpx.AsyncClient, alice: Account
) -> None:
    made = await _create(client, alice, "nightly export")

    assert made["key"].startswith("pck_") and len(made["key"]) > 40
    assert made["prefix"] == made["key"][:8]
    me = await client.get("/api/auth/me", headers={"Authorization": f"Bearer {made['key']}"})
    assert me.status_code == 200 and me.json()["email"] == alice.user.email
    listed = (await client.get("/api/auth/api-keys", headers=alice.headers)).json()
    assert [(k["id"], k["name"]) for k in listed] == [(made["id"], "nightly export")]
    assert "key" not in listed[0]


async def test_a_revoked_key_gets_401(client: httpx.AsyncClient, alice: Account) -> None:
    made = await _create(client, alice, "ci")
    key = {"Authorization": f"Bearer {made['key']}"}

    r = await client.delete(f"/api/auth/api-keys/{made['id']}", headers=alice.headers)

    assert r.status_code == 200 and r.json() == {"revoked": True}
    assert (await client.get("/api/auth/me", headers=key)).status_code == 401
    assert (await client.get("/api/auth/api-keys", headers=alice.headers)).json() == []


async def test_the_database_holds_the_keys_hash_never_the_key(
    client: httpx.AsyncClient, alice: Account, sessions: async_sessionmaker[AsyncSession]
) -> None:
    made = await _create(client, alice, "backup")

    async with sessions() as session:
        rows = (await session.execute(text("SELECT * FROM api_keys"))).all()
        stored = (await session.execute(select(ApiKey))).scalar_one()

    dumped = repr(rows)
    assert made["key"] not in dumped and made["key"][8:] not in dumped
    assert len(stored.key_hash) == 64 and stored.key_hash != made["key"]


async def test_another_users_key_cannot_be_revoked_or_seen(
    client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    made = await _create(client, alice, "alice's")

    r = await client.delete(f"/api/auth/api-keys/{made['id']}", headers=bob.headers)

    assert r.status_code == 404
    assert (await client.get("/api/auth/api-keys", headers=bob.headers)).json() == []
    key = {"Authorization": f"Bearer {made['key']}"}
    assert (await client.get("/api/auth/me", headers=key)).status_code == 200


async def test_a_key_outlives_sign_out_but_cannot_manage_keys_or_the_password(
    client: httpx.AsyncClient, alice: Account
) -> None:
    made = await _create(client, alice, "bot")
    key = {"Authorization": f"Bearer {made['key']}"}

    everywhere = await client.post("/api/auth/logout-everywhere", headers=alice.headers)
    out_with_key = await client.post("/api/auth/logout", headers=key)
    mint = await client.post("/api/auth/api-keys", json={"name": "more"}, headers=key)
    password = await client.post(
        "/api/auth/password",
        json={"current_password": "x", "new_password": "a brand new passphrase"},
        headers=key,
    )

    assert everywhere.status_code == 200
    assert (await client.get("/api/auth/me", headers=key)).status_code == 200
    assert out_with_key.status_code == 400 and "revoke" in out_with_key.json()["detail"]
    assert mint.status_code == 403 and password.status_code == 403


async def test_a_key_name_must_be_given_and_short(
    client: httpx.AsyncClient, alice: Account
) -> None:
    for name in ("", "   ", "x" * 101):
        r = await client.post("/api/auth/api-keys", json={"name": name}, headers=alice.headers)
        assert r.status_code == 422, name


async def test_a_guessed_key_gets_401(client: httpx.AsyncClient, alice: Account) -> None:
    await _create(client, alice, "real")

    r = await client.get("/api/auth/me", headers={"Authorization": "Bearer pck_" + "A" * 43})

    assert r.status_code == 401
