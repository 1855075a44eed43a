"""The browser's session lives in an HttpOnly cookie; what it changes needs the CSRF token."""

from __future__ import annotations

import httpx

from tests.conftest import PASSWORD, Account


async def _login(client: httpx.AsyncClient, alice: Account) -> httpx.Response:
    return await client.post(
        "/api/auth/login", json={"email": alice.user.email, "password": PASSWORD}
    )


async def test_login_sets_an_httponly_strict_session_cookie_and_a_csrf_cookie(
    client: httpx.AsyncClient, alice: Account
) -> None:
    r = await _login(client, alice)

    cookies = {c.split("=", 1)[0]: c.lower() for c in r.headers.get_list("set-cookie")}
    session, csrf = cookies["pagechat_session"], cookies["pagechat_csrf"]
    assert "httponly" in session and "samesite=strict" in session and "path=/" in session
    assert "httponly" not in csrf and "samesite=strict" in csrf
    assert r.json()["access_token"]  # API clients still get a bearer token


async def test_the_cookie_signs_in_reads_without_more(
    client: httpx.AsyncClient, alice: Account
) -> None:
    await _login(client, alice)

    me = await client.get("/api/auth/me")

    assert me.status_code == 200 and me.json()["email"] == alice.user.email


async def test_a_change_by_cookie_without_the_csrf_token_is_refused(
    client: httpx.AsyncClient, alice: Account
) -> None:
    await _login(client, alice)

    forged = await client.post("/api/chat/stream", json={"message": "hi"})
    wrong = await client.post(
        "/api/chat/stream", json={"message": "hi"}, headers={"X-CSRF-Token": "guess"}
    )

    assert forged.status_code == 403 and "X-CSRF-Token" in forged.json()["detail"]
    assert wrong.status_code == 403
    assert (await client.get("/api/conversations")).json()["total"] == 0


async def test_a_change_by_cookie_with_the_csrf_token_goes_through(
    client: httpx.AsyncClient, alice: Account
) -> None:
    await _login(client, alice)
    token = client.cookies["pagechat_csrf"]

    r = await client.post(
        "/api/chat/stream", json={"message": "hi"}, headers={"X-CSRF-Token": token}
    )

    assert r.status_code == 200 and "data: " in r.text


async def test_bearer_tokens_need_no_csrf_token(client: httpx.AsyncClient, alice: Account) -> None:
    r = await client.post("/api/chat/stream", json={"message": "hi"}, headers=alice.headers)

    assert r.status_code == 200


async def test_logout_clears_the_session(client: httpx.AsyncClient, alice: Account) -> None:
    await _login(client, alice)
    token = client.cookies["pagechat_csrf"]

    out = await client.post("/api/auth/logout", headers={"X-CSRF-Token": token})

    assert out.status_code == 200 and out.json() == {"signed_out": True}
    assert (await client.get("/api/auth/me")).status_code == 401
