"""Server-side sessions through the routes: sign-out ends the token, sign-out everywhere,
a password change ends the other sessions, admins list and end sessions."""

from __future__ import annotations

from datetime import timedelta

import httpx
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pagechat.auth import create_access_token
from pagechat.store.tables import AuthSession
from tests.conftest import PASSWORD, TEST_SECRET, Account

NEW_PASSWORD = "a brand new passphrase"


async def _login(client: httpx.AsyncClient, email: str, password: str = PASSWORD) -> str:
    r = await client.post("/api/auth/login", json={"email": email, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["access_token"]
    return token


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_a_token_used_after_sign_out_is_refused_as_bearer_and_as_cookie(
    client: httpx.AsyncClient, alice: Account
) -> None:
    token = await _login(client, alice.user.email)  # the client keeps the cookies too
    csrf = client.cookies["pagechat_csrf"]
    assert (await client.get("/api/auth/me")).status_code == 200

    out = await client.post("/api/auth/logout", headers={"X-CSRF-Token": csrf})

    assert out.status_code == 200 and out.json() == {"signed_out": True}
    as_bearer = await client.get("/api/auth/me", headers=_bearer(token))
    client.cookies.set("pagechat_session", token)  # a copy of the cookie, kept before
    as_cookie = await client.get("/api/auth/me")
    assert as_bearer.status_code == 401 and as_cookie.status_code == 401
    assert as_bearer.json() == {"detail": "Invalid or expired token"}


async def test_sign_out_by_bearer_ends_that_session_only(
    client: httpx.AsyncClient, alice: Account
) -> None:
    phone, laptop = await _login(client, alice.user.email), await _login(client, alice.user.email)

    await client.post("/api/auth/logout", headers=_bearer(phone))

    assert (await client.get("/api/auth/me", headers=_bearer(phone))).status_code == 401
    assert (await client.get("/api/auth/me", headers=_bearer(laptop))).status_code == 200


async def test_sign_out_everywhere_ends_every_session_of_the_user_only(
    client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    phone, laptop = await _login(client, alice.user.email), await _login(client, alice.user.email)

    r = await client.post("/api/auth/logout-everywhere", headers=_bearer(laptop))

    assert r.status_code == 200 and r.json()["sessions_ended"] == 3  # and the fixture's
    for token in (phone, laptop, alice.token):
        assert (await client.get("/api/auth/me", headers=_bearer(token))).status_code == 401
    assert (await client.get("/api/auth/me", headers=bob.headers)).status_code == 200
    assert (
        await client.get("/api/auth/me", headers=_bearer(await _login(client, alice.user.email)))
    ).status_code == 200


async def test_a_password_change_ends_the_other_sessions_and_keeps_this_one(
    client: httpx.AsyncClient, alice: Account
) -> None:
    other = await _login(client, alice.user.email)
    body = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}

    r = await client.post("/api/auth/password", json=body, headers=alice.headers)

    assert r.status_code == 200 and r.json() == {"other_sessions_ended": 1}
    assert (await client.get("/api/auth/me", headers=alice.headers)).status_code == 200
    assert (await client.get("/api/auth/me", headers=_bearer(other))).status_code == 401
    old = await client.post(
        "/api/auth/login", json={"email": alice.user.email, "password": PASSWORD}
    )
    assert old.status_code == 401
    assert await _login(client, alice.user.email, NEW_PASSWORD)


async def test_a_password_change_needs_the_current_password_and_a_strong_new_one(
    client: httpx.AsyncClient, alice: Account
) -> None:
    other = await _login(client, alice.user.email)

    wrong = await client.post(
        "/api/auth/password",
        json={"current_password": "not it", "new_password": NEW_PASSWORD},
        headers=alice.headers,
    )
    weak = await client.post(
        "/api/auth/password",
        json={"current_password": PASSWORD, "new_password": "password"},
        headers=alice.headers,
    )

    assert wrong.status_code == 400 and wrong.json() == {
        "detail": "The current password is not right"
    }
    assert weak.status_code == 422 and "common" in weak.json()["detail"]
    assert (await client.get("/api/auth/me", headers=_bearer(other))).status_code == 200
    assert await _login(client, alice.user.email)  # unchanged


async def test_password_guesses_through_the_change_route_are_throttled_like_logins(
    client: httpx.AsyncClient, alice: Account
) -> None:
    body = {"current_password": "guess", "new_password": NEW_PASSWORD}
    for _ in range(10):
        r = await client.post("/api/auth/password", json=body, headers=alice.headers)
        assert r.status_code == 400

    r = await client.post(
        "/api/auth/password",
        json={"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        headers=alice.headers,
    )

    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0


async def test_an_admin_lists_sessions_and_ends_one(
    client: httpx.AsyncClient, alice: Account, admin: Account
) -> None:
    token = await client.post(
        "/api/auth/login",
        json={"email": alice.user.email, "password": PASSWORD},
        headers={"User-Agent": "phone-browser/1.0"},
    )
    phone = token.json()["access_token"]

    listed = await client.get(
        "/api/admin/sessions", params={"user_id": alice.user.id}, headers=admin.headers
    )

    assert listed.status_code == 200
    rows = listed.json()
    assert len(rows) == 2 and {r["email"] for r in rows} == {alice.user.email}
    newest = rows[0]
    assert newest["user_agent"] == "phone-browser/1.0" and newest["client"]
    everyone = await client.get("/api/admin/sessions", headers=admin.headers)
    assert {r["email"] for r in everyone.json()} == {alice.user.email, admin.user.email}

    ended = await client.delete(f"/api/admin/sessions/{newest['id']}", headers=admin.headers)

    assert ended.status_code == 200 and ended.json() == {"sessions_ended": 1}
    assert (await client.get("/api/auth/me", headers=_bearer(phone))).status_code == 401
    assert (await client.get("/api/auth/me", headers=alice.headers)).status_code == 200
    again = await client.delete(f"/api/admin/sessions/{newest['id']}", headers=admin.headers)
    assert again.status_code == 404


async def test_an_admin_ends_every_session_of_a_user(
    client: httpx.AsyncClient, alice: Account, admin: Account
) -> None:
    other = await _login(client, alice.user.email)

    r = await client.delete(f"/api/admin/users/{alice.user.id}/sessions", headers=admin.headers)

    assert r.json() == {"sessions_ended": 2}
    for token in (other, alice.token):
        assert (await client.get("/api/auth/me", headers=_bearer(token))).status_code == 401
    assert (await client.get("/api/auth/me", headers=admin.headers)).status_code == 200


async def test_a_user_who_is_not_an_admin_cannot_list_or_end_sessions(
    client: httpx.AsyncClient,
    alice: Account,
    bob: Account,
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    async with sessions() as session:
        bobs = (
            await session.execute(select(AuthSession.id).where(AuthSession.user_id == bob.user.id))
        ).scalar_one()

    listed = await client.get("/api/admin/sessions", headers=alice.headers)
    ended = await client.delete(f"/api/admin/sessions/{bobs}", headers=alice.headers)
    all_ended = await client.delete(
        f"/api/admin/users/{bob.user.id}/sessions", headers=alice.headers
    )

    assert listed.status_code == ended.status_code == all_ended.status_code == 403
    assert listed.json() == {"detail": "This is for administrators"}
    assert (await client.get("/api/auth/me", headers=bob.headers)).status_code == 200


async def test_a_token_without_a_session_is_refused(
    client: httpx.AsyncClient, alice: Account
) -> None:
    # Signed with the right secret, but naming no session (as tokens made before
    # sessions were stored): nothing can sign it out, so it is not honoured.
    bare = create_access_token(user_id=alice.user.id, secret=TEST_SECRET, ttl=timedelta(hours=1))

    assert (await client.get("/api/auth/me", headers=_bearer(bare))).status_code == 401
