"""Horizon's chat end to end: the offline model, the real tools and database, over HTTP (SSE)."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest

from horizon.payloads import PUBMED_SEARCH_RESULTS, PUBMED_SEARCH_RESULTS_SCHEMA
from horizon.pubmed import ArticleRecord
from pagechat.testing import Frame, read_all
from tests.conftest import Account
from tests.horizon.world import World


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """SQLite only: these tests are about the layer above the database, whose queries the
    domain tests run on SQLite and PostgreSQL alike."""
    return sqlite_url


async def _chat(
    client: httpx.AsyncClient, user: Account, message: str, context: dict[str, Any]
) -> list[Frame]:
    async with client.stream(
        "POST",
        "/api/chat/stream",
        json={"message": message, "context": context},
        headers=user.headers,
    ) as response:
        assert response.status_code == 200
        return await read_all(response)


def _of(frames: list[Frame], kind: str) -> list[dict[str, Any]]:
    return [f.event for f in frames if f.type == kind]


async def test_find_articles_on_crispr_streams_progress_then_a_results_card(
    horizon_client: httpx.AsyncClient, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    frames = await _chat(
        horizon_client, alice, "Find articles on CRISPR", {"current_page": "streams"}
    )

    [start] = _of(frames, "tool_start")
    assert (start["tool"], start["input"]["query"]) == ("search_pubmed", "CRISPR")
    progress = _of(frames, "tool_progress")
    assert progress[0]["stage"] == "searching"
    assert [p["progress"] for p in progress if p["stage"] == "fetching"] == [0.0, 0.5]
    assert progress[-1]["stage"] == "done" and progress[-1]["progress"] == 1.0
    assert _of(frames, "tool_complete")[0]["is_error"] is False
    [complete] = _of(frames, "complete")
    payload = complete["payload"]
    card = payload["custom_payload"]
    assert card["type"] == PUBMED_SEARCH_RESULTS
    jsonschema.validate(card["data"], PUBMED_SEARCH_RESULTS_SCHEMA)
    assert card["data"]["query"] == "CRISPR" and len(card["data"]["articles"]) == 10
    first = card["data"]["articles"][0]
    line = f"1. **{first['title']} ({first['journal']}, {first['year']})** (PMID {first['pmid']})"
    assert line in payload["message"]
    assert payload["message"].index("[[tool:0]]") < payload["message"].index("1. **")


async def test_summarise_this_report_reads_the_report_and_its_best_articles(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    context = {"current_page": "reports", "report_id": world.alice_report}

    frames = await _chat(horizon_client, alice, "Summarise this report", context)

    calls = [(s["tool"], s["input"]) for s in _of(frames, "tool_start")]
    assert calls == [
        ("get_report_summary", {"report_id": world.alice_report}),
        ("get_report_articles", {"report_id": world.alice_report, "limit": 10}),
    ]
    assert not any(c["is_error"] for c in _of(frames, "tool_complete"))
    message = _of(frames, "complete")[0]["payload"]["message"]
    assert f"Report {world.alice_report} in short:" in message
    assert "**Date:** 2025-06-16" in message
    assert "**Thematic summary:** 8 articles for CRISPR and gene editing." in message
    for pmid in world.alice_pmids[:5]:
        assert f"(PMID {pmid})" in message


async def test_another_users_report_cannot_be_summarised(
    horizon_client: httpx.AsyncClient, bob: Account, world: World
) -> None:
    context = {"current_page": "reports", "report_id": world.alice_report}

    frames = await _chat(horizon_client, bob, "Summarise this report", context)

    [done] = _of(frames, "tool_complete")
    assert done["is_error"] is True
    message = _of(frames, "complete")[0]["payload"]["message"]
    assert "Key highlights" not in message
    assert f"You have no report with ID {world.alice_report}" in message


async def test_list_my_streams_names_the_users_streams(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    frames = await _chat(
        horizon_client, alice, "List my research streams", {"current_page": "streams"}
    )

    message = _of(frames, "complete")[0]["payload"]["message"]
    assert "Your research streams (3 shown):" in message
    assert f"ID {world.alice_stream}: CRISPR and gene editing" in message
    assert f"ID {world.bob_stream}:" not in message


async def test_a_pubmed_search_returns_its_articles_as_sources_the_answer_cites(
    horizon_client: httpx.AsyncClient, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    frames = await _chat(
        horizon_client, alice, "Find articles on CRISPR", {"current_page": "streams"}
    )

    [done] = _of(frames, "tool_complete")
    payload = _of(frames, "complete")[0]["payload"]
    articles = payload["custom_payload"]["data"]["articles"]
    assert [s["id"] for s in done["sources"]] == [a["pmid"] for a in articles]
    assert payload["sources"] == done["sources"]
    first = payload["sources"][0]
    assert first["number"] == 1 and first["title"] == articles[0]["title"]
    facts = f"{articles[0]['journal']}, {articles[0]['year']}"
    assert first["detail"] == f"PMID {articles[0]['pmid']} · {facts}"
    assert first["url"] is None  # a synthetic record is not on PubMed: no link
    for n, article in enumerate(articles[:5], 1):
        assert f"(PMID {article['pmid']}) [{n}]" in payload["message"]
