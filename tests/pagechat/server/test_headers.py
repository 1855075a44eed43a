"""What a browser is told with every answer: a strict CSP, no sniffing, no framing, no
caching of API answers, and no source maps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from pagechat.models import FunctionModel
from pagechat.server import StaticTokens, create_app
from tests.support.harness import ALICE, AUTH_A
from tests.support.stores import sqlite_store


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    web = tmp_path / "web"
    (web / "assets").mkdir(parents=True)
    (web / "index.html").write_text('<!doctype html><script type="module" src="/assets/a.js">')
    (web / "assets" / "a.js").write_text("console.log(1)")
    (web / "assets" / "a.js.map").write_text('{"sources": ["secret.ts"]}')
    async with sqlite_store(ALICE, in_memory=True) as store:
        app = create_app(
            model=FunctionModel(lambda _r: "hi"),
            store=store,
            authenticator=StaticTokens({"token-a": ALICE}),
            static_dir=web,
        )
        yield httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")


async def test_the_page_forbids_inline_script_framing_and_sniffing(
    client: httpx.AsyncClient,
) -> None:
    r = await client.get("/")

    csp = dict(d.strip().split(" ", 1) for d in r.headers["Content-Security-Policy"].split(";"))
    assert csp["script-src"] == "'self'"
    assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "no-referrer"


@pytest.mark.parametrize("path", ["/api/health", "/api/auth/me", "/api/conversations"])
async def test_api_answers_are_never_cached(client: httpx.AsyncClient, path: str) -> None:
    r = await client.get(path, headers=AUTH_A)

    assert r.headers["Cache-Control"] == "no-store"


async def test_a_streamed_answer_is_not_cached_either(client: httpx.AsyncClient) -> None:
    r = await client.post("/api/chat/stream", json={"message": "hi"}, headers=AUTH_A)

    assert r.status_code == 200 and r.headers["Cache-Control"] == "no-store"
    assert "data: " in r.text


async def test_source_maps_are_not_served(client: httpx.AsyncClient) -> None:
    assert (await client.get("/assets/a.js")).status_code == 200
    r = await client.get("/assets/a.js.map")

    assert r.status_code == 404 and "secret.ts" not in r.text
