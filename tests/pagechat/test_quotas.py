"""Per-user quotas, as a user meets them: 429 with Retry-After and a message to show."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest

import pagechat.pages.registry
from pagechat.identity import Principal
from pagechat.models import FunctionModel, ModelRequest, Pause, ScriptItem
from pagechat.pages import register_page
from pagechat.quotas import (
    MemoryQuotas,
    QuotaExceeded,
    QuotaPolicy,
    Quotas,
    QuotaSettings,
    RedisQuotas,
)
from pagechat.redis_client import connect_redis
from pagechat.server import StaticTokens, create_app
from pagechat.testing import read_all, serve
from tests.support.harness import ADMIN, ALICE, AUTH_A, AUTH_ADMIN, AUTH_B, BOB
from tests.support.stores import sqlite_store


def _slow(_request: ModelRequest) -> list[ScriptItem]:
    return ["Working on it", Pause(30_000)]


@asynccontextmanager
async def _app(quotas: Quotas, *, slow: bool = False) -> AsyncIterator[httpx.AsyncClient]:
    model = FunctionModel(_slow) if slow else FunctionModel(lambda _r: "A short answer.")
    async with sqlite_store(ALICE, BOB, ADMIN) as store:
        app = create_app(
            model=model,
            store=store,
            authenticator=StaticTokens({"token-a": ALICE, "token-b": BOB, "token-admin": ADMIN}),
            quotas=quotas,
        )
        async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
            yield client


async def _start(client: httpx.AsyncClient, headers: dict[str, str]) -> httpx.Response:
    """Starts an answer and leaves it running; the response holds its headers only."""
    request = client.build_request(
        "POST", "/api/chat/stream", json={"message": "go"}, headers=headers
    )
    response = await client.send(request, stream=True)
    await response.aclose()
    return response


async def test_a_fourth_answer_at_once_is_refused_until_one_is_stopped() -> None:
    async with _app(MemoryQuotas(), slow=True) as client:
        running = [await _start(client, AUTH_A) for _ in range(3)]
        assert [r.status_code for r in running] == [200, 200, 200]

        refused = await client.post("/api/chat/stream", json={"message": "go"}, headers=AUTH_A)
        assert refused.status_code == 429
        assert int(refused.headers["Retry-After"]) >= 1
        body = refused.json()
        assert body["quota"] == "concurrent_answers" and body["limit"] == 3
        assert "3 answers running" in body["detail"]
        # Another user is not affected.
        assert (await _start(client, AUTH_B)).status_code == 200

        run_id = running[0].headers["X-Run-Id"]
        async with client.stream(
            "GET", f"/api/chat/runs/{run_id}/events", headers=AUTH_A
        ) as events:
            await client.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
            assert (await read_all(events))[-1].type == "cancelled"
        assert (await _start(client, AUTH_A)).status_code == 200


async def test_turns_over_the_minutes_quota_are_refused_with_the_wait() -> None:
    quotas = MemoryQuotas(QuotaSettings(user=QuotaPolicy(turns_per_minute=2)))
    async with _app(quotas) as client:
        for _ in range(2):
            ok = await client.post("/api/chat/stream", json={"message": "hi"}, headers=AUTH_A)
            assert ok.status_code == 200
        refused = await client.post("/api/chat/stream", json={"message": "hi"}, headers=AUTH_A)

    assert refused.status_code == 429 and refused.json()["quota"] == "turns_per_minute"
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.json()["retry_after"] == int(refused.headers["Retry-After"])


async def test_a_day_of_tokens_used_up_is_refused_until_midnight() -> None:
    quotas = MemoryQuotas(QuotaSettings(user=QuotaPolicy(tokens_per_day=10)))
    async with _app(quotas) as client:
        first = await client.post("/api/chat/stream", json={"message": "hi"}, headers=AUTH_A)
        assert first.status_code == 200  # its answer uses more than 10 tokens
        refused = await client.post("/api/chat/stream", json={"message": "hi"}, headers=AUTH_A)

    assert refused.status_code == 429 and refused.json()["quota"] == "tokens_per_day"
    assert 0 < int(refused.headers["Retry-After"]) <= 86_400


async def test_a_message_over_the_roles_length_limit_is_refused_with_a_422() -> None:
    quotas = MemoryQuotas(QuotaSettings(user=QuotaPolicy(max_message_chars=20)))
    async with _app(quotas) as client:
        refused = await client.post("/api/chat/stream", json={"message": "x" * 21}, headers=AUTH_A)
        admin = await client.post(
            "/api/chat/stream", json={"message": "x" * 21}, headers=AUTH_ADMIN
        )

    assert refused.status_code == 422 and "at most 20 characters" in refused.json()["detail"]
    assert admin.status_code == 200  # the admin role has its own policy


async def test_the_ag_ui_endpoint_is_under_the_same_quotas(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pagechat.pages.registry, "_PAGES", {})  # gone after the test
    register_page("home")
    quotas = MemoryQuotas(QuotaSettings(user=QuotaPolicy(turns_per_minute=1)))
    body = {
        "threadId": "t1",
        "runId": "r1",
        "state": {},
        "messages": [{"id": "m1", "role": "user", "content": "hi"}],
        "tools": [],
        "context": [],
        "forwardedProps": {},
    }
    async with _app(quotas) as client:
        assert (await client.post("/api/agui/home", json=body, headers=AUTH_A)).status_code == 200
        refused = await client.post("/api/agui/home", json=body, headers=AUTH_A)

    assert refused.status_code == 429 and refused.json()["quota"] == "turns_per_minute"


@pytest.fixture(params=["one server", "cluster"])
async def two_workers(
    request: pytest.FixtureRequest,
) -> AsyncIterator[tuple[RedisQuotas, RedisQuotas]]:
    # On one Redis, and on a Redis Cluster (the admit script's keys share a slot).
    cluster = request.param == "cluster"
    url = request.getfixturevalue("redis_cluster" if cluster else "redis_server").url
    settings = QuotaSettings(user=QuotaPolicy(concurrent_answers=2, turns_per_minute=3))
    a = RedisQuotas(connect_redis(url, cluster=cluster), settings)
    b = RedisQuotas(connect_redis(url, cluster=cluster), settings)
    yield a, b
    for quotas in (a, b):
        await quotas.aclose()
        await quotas.redis.aclose()


async def test_limits_hold_across_workers_sharing_redis(
    two_workers: tuple[RedisQuotas, RedisQuotas],
) -> None:
    a, b = two_workers
    user = Principal(id="ada", email="ada@example.com")
    await a.admit(user, "run-1", "hi")
    await b.admit(user, "run-2", "hi")
    with pytest.raises(QuotaExceeded) as running:
        await b.admit(user, "run-3", "hi")
    assert running.value.quota == "concurrent_answers"

    await a.release(user.id, "run-1", tokens=100)
    await b.admit(user, "run-3", "hi")  # the third turn of the minute
    await b.release(user.id, "run-3", tokens=0)
    with pytest.raises(QuotaExceeded) as turns:
        await a.admit(user, "run-4", "hi")
    assert turns.value.quota == "turns_per_minute" and 1 <= turns.value.retry_after <= 60
