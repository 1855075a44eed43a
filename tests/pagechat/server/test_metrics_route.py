"""`/metrics`: Prometheus figures of what users saw stream, for admins and the scraper only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from pagechat.models import ScriptedModel
from pagechat.runs import RunManager
from pagechat.server import StaticTokens, create_app
from pagechat.testing import frames, read_all, serve
from tests.support.harness import ADMIN, ALICE, AUTH_A, AUTH_ADMIN
from tests.support.stores import sqlite_store

SCRAPER = "scraper-token-" + "s" * 32


@pytest.fixture
async def client() -> AsyncIterator[tuple[httpx.AsyncClient, list[ScriptedModel]]]:
    models = [ScriptedModel([["Hello", " world", "."]])]
    async with sqlite_store(ALICE, ADMIN) as store:
        app = create_app(
            model=lambda: models[0],
            store=store,
            runs=RunManager(),
            authenticator=StaticTokens({"token-a": ALICE, "token-admin": ADMIN}),
            metrics_token=SCRAPER,
        )
        async with serve(app) as base, httpx.AsyncClient(base_url=base, timeout=10) as client:
            yield client, models


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def _scrape(
    client: httpx.AsyncClient,
) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = await client.get("/metrics", headers={"Authorization": f"Bearer {SCRAPER}"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    return _samples(r.text)


def _value(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def test_metrics_need_the_scraper_token_or_an_admin(
    client: tuple[httpx.AsyncClient, list[ScriptedModel]],
) -> None:
    http, _ = client
    assert (await http.get("/metrics")).status_code == 401
    wrong = await http.get("/metrics", headers={"Authorization": "Bearer " + "x" * 46})
    assert wrong.status_code == 401
    user = await http.get("/metrics", headers=AUTH_A)
    assert user.status_code == 403
    assert "administrators" in user.json()["detail"]
    admin = await http.get("/metrics", headers=AUTH_ADMIN)
    assert admin.status_code == 200 and "pagechat_runs_active" in admin.text


async def test_a_completed_answer_is_counted_with_its_timings(
    client: tuple[httpx.AsyncClient, list[ScriptedModel]],
) -> None:
    http, _ = client
    before = await _scrape(http)
    async with http.stream("POST", "/api/chat/stream", json={"message": "hi"}, headers=AUTH_A) as r:
        fs = await read_all(r)
    assert fs[-1].type == "complete"
    after = await _scrape(http)

    def grew(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert grew("pagechat_runs_started_total") == 1
    assert grew("pagechat_run_outcomes_total", outcome="complete", code="") == 1
    assert grew("pagechat_text_deltas_total") == sum(f.type == "text_delta" for f in fs)
    assert grew("pagechat_text_chars_total") == len("Hello world.")
    assert grew("pagechat_time_to_first_token_seconds_count") == 1
    # One gap between each two text events (deltas that came together are merged).
    deltas = sum(f.type == "text_delta" for f in fs)
    assert deltas >= 1
    assert grew("pagechat_inter_token_seconds_count") == deltas - 1
    assert _value(after, "pagechat_runs_active") == _value(before, "pagechat_runs_active")


async def test_title_call_tokens_are_counted_apart_from_the_answers(
    client: tuple[httpx.AsyncClient, list[ScriptedModel]],
) -> None:
    http, models = client
    models[0] = ScriptedModel([["Tardigrades survive drying out."]], title="Tardigrade survival")
    before = await _scrape(http)
    async with http.stream(
        "POST", "/api/chat/stream", json={"message": "tardigrades?"}, headers=AUTH_A
    ) as r:
        fs = await read_all(r)
    usage = fs[-1].event["payload"]["usage"]
    async with asyncio.timeout(5):
        while not models[0].title_requests:
            await asyncio.sleep(0.02)
        while _tokens(after := await _scrape(http), "output", "title") == _tokens(
            before, "output", "title"
        ):
            await asyncio.sleep(0.02)

    def grew(kind: str, purpose: str) -> float:
        return _tokens(after, kind, purpose) - _tokens(before, kind, purpose)

    assert grew("output", "answer") == usage["output_tokens"] > 0
    assert grew("input", "answer") == usage["input_tokens"]
    assert grew("output", "title") > 0


def _tokens(
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], kind: str, purpose: str
) -> float:
    return _value(samples, "pagechat_model_tokens_total", kind=kind, purpose=purpose)


async def test_a_stopped_answer_is_counted_as_cancelled(
    client: tuple[httpx.AsyncClient, list[ScriptedModel]],
) -> None:
    http, models = client
    models[0] = ScriptedModel([["slow "] * 50], delay=0.05)
    before = await _scrape(http)
    async with http.stream("POST", "/api/chat/stream", json={"message": "hi"}, headers=AUTH_A) as r:
        run_id = r.headers["x-run-id"]
        async for frame in frames(r):
            if frame.type == "text_delta":
                break
        during = await _scrape(http)
        assert _value(during, "pagechat_runs_active") == _value(before, "pagechat_runs_active") + 1
        await http.post(f"/api/chat/runs/{run_id}/cancel", headers=AUTH_A)
        rest = [f async for f in frames(r)]
    assert rest[-1].type == "cancelled"
    after = await _scrape(http)
    outcome = ("pagechat_run_outcomes_total", (("code", ""), ("outcome", "cancelled")))
    assert after[outcome] - before.get(outcome, 0.0) == 1
    assert _value(after, "pagechat_runs_active") == _value(before, "pagechat_runs_active")


async def test_database_errors_are_counted(sqlite_url: str) -> None:
    from sqlalchemy import text

    from pagechat.metrics import count_database_errors
    from pagechat.store import create_engine

    def errors() -> float:
        value = REGISTRY.get_sample_value(
            "pagechat_database_errors_total", {"error": "OperationalError"}
        )
        return value or 0.0

    engine = create_engine(sqlite_url)
    count_database_errors(engine)
    before = errors()
    try:
        async with engine.connect() as conn:
            with pytest.raises(Exception, match="no such table"):
                await conn.execute(text("SELECT * FROM no_such_table"))
    finally:
        await engine.dispose()
    assert errors() == before + 1
