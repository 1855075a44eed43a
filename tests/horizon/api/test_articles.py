"""Articles: the shared store searched by words, and one article with the user's own marks."""

from __future__ import annotations

import httpx

from horizon.pubmed import ArticleRecord
from tests.conftest import Account
from tests.horizon.world import World


async def test_a_search_lists_the_best_matches_first(
    horizon_client: httpx.AsyncClient, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    response = await horizon_client.get(
        "/api/horizon/articles", params={"q": "heart failure", "limit": 5}, headers=alice.headers
    )

    body = response.json()
    assert response.status_code == 200
    assert body["query"] == "heart failure"
    assert len(body["data"]) == 5 and body["total"] >= 5
    scores = [a["score"] for a in body["data"]]
    assert scores[0] == max(scores)
    assert "heart failure" in f"{body['data'][0]['title']} {body['data'][0]['abstract']}"


async def test_an_article_shows_where_it_is_in_the_users_reports(
    horizon_client: httpx.AsyncClient, alice: Account, bob: Account, world: World
) -> None:
    pmid = world.alice_pmids[0]
    await horizon_client.patch(
        f"/api/horizon/reports/{world.bob_report}/articles/{pmid}",
        json={"notes": "Bob's own note."},
        headers=bob.headers,
    )

    alices = await horizon_client.get(f"/api/horizon/articles/{pmid}", headers=alice.headers)
    bobs = await horizon_client.get(f"/api/horizon/articles/{pmid}", headers=bob.headers)

    assert alices.status_code == bobs.status_code == 200
    assert alices.json()["pmid"] == pmid
    assert [(r["report_id"], r["starred"]) for r in alices.json()["reports"]] == [
        (world.alice_report, True)
    ]
    assert [r["notes"] for r in bobs.json()["reports"]] == ["Bob's own note."]


async def test_an_unknown_article_answers_404(
    horizon_client: httpx.AsyncClient, alice: Account, sample_articles: list[ArticleRecord]
) -> None:
    response = await horizon_client.get("/api/horizon/articles/12345", headers=alice.headers)

    assert response.status_code == 404
    assert response.json() == {"detail": "Article not found"}


async def test_a_search_needs_words_and_a_sane_limit(
    horizon_client: httpx.AsyncClient, alice: Account
) -> None:
    missing = await horizon_client.get("/api/horizon/articles", headers=alice.headers)
    too_many = await horizon_client.get(
        "/api/horizon/articles", params={"q": "x", "limit": 1000}, headers=alice.headers
    )

    assert missing.status_code == too_many.status_code == 422
    assert missing.json()["detail"][0]["loc"] == ["query", "q"]
    assert too_many.json()["detail"][0]["loc"] == ["query", "limit"]
