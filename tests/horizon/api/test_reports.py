"""A stream's reports and one report's articles, with stars and notes, for their owner only."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Account
from tests.horizon.world import World


async def test_a_streams_reports_come_newest_first(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await horizon_client.get(
        f"/api/horizon/streams/{world.alice_stream}/reports", headers=alice.headers
    )

    body = response.json()
    assert body["count"] == 3
    assert [r["report_date"] for r in body["data"]] == ["2025-06-16", "2025-06-09", "2025-06-02"]
    assert body["data"][0]["id"] == world.alice_report
    assert body["data"][0]["stream_name"] == "CRISPR and gene editing"
    assert body["data"][0]["article_count"] == 8


async def test_a_report_has_its_articles_best_ranked_first(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await horizon_client.get(
        f"/api/horizon/reports/{world.alice_report}", headers=alice.headers
    )

    report = response.json()
    assert response.status_code == 200
    assert len(report["key_highlights"]) == 3
    assert [a["pmid"] for a in report["articles"]] == world.alice_pmids
    first = report["articles"][0]
    assert (first["ranking"], first["starred"], first["report_id"]) == (1, True, report["id"])
    assert first["notes"].startswith("Read in full")
    assert set(first) >= {"title", "abstract", "authors", "journal", "year", "relevance_score"}


async def test_stars_and_notes_are_saved(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    pmid = world.alice_pmids[5]
    url = f"/api/horizon/reports/{world.alice_report}/articles/{pmid}"

    starred = await horizon_client.patch(url, json={"starred": True}, headers=alice.headers)
    noted = await horizon_client.patch(
        url, json={"notes": "Methods look weak."}, headers=alice.headers
    )

    assert starred.json()["starred"] is True
    assert (noted.json()["starred"], noted.json()["notes"]) == (True, "Methods look weak.")
    report = await horizon_client.get(
        f"/api/horizon/reports/{world.alice_report}", headers=alice.headers
    )
    entry = next(a for a in report.json()["articles"] if a["pmid"] == pmid)
    assert (entry["starred"], entry["notes"]) == (True, "Methods look weak.")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/horizon/streams/{bob_stream}/reports"),
        ("GET", "/api/horizon/reports/{bob_report}"),
        ("PATCH", "/api/horizon/reports/{bob_report}/articles/{pmid}"),
    ],
)
async def test_another_users_reports_answer_404(
    horizon_client: httpx.AsyncClient,
    alice: Account,
    world: World,
    method: str,
    path: str,
) -> None:
    url = path.format(bob_stream=world.bob_stream, bob_report=world.bob_report, pmid="SYN000001")

    response = await horizon_client.request(
        method, url, json={"starred": True} if method == "PATCH" else None, headers=alice.headers
    )

    assert response.status_code == 404
    assert "not found" in response.json()["detail"]


async def test_an_article_not_in_the_report_answers_404(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await horizon_client.patch(
        f"/api/horizon/reports/{world.alice_report}/articles/99999999",
        json={"starred": True},
        headers=alice.headers,
    )

    assert response.status_code == 404
    assert response.json() == {"detail": "Article not found in this report"}


async def test_bad_notes_are_a_clear_422(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    url = f"/api/horizon/reports/{world.alice_report}/articles/{world.alice_pmids[0]}"

    response = await horizon_client.patch(url, json={"notes": 12}, headers=alice.headers)
    negative = await horizon_client.get("/api/horizon/reports/0", headers=alice.headers)

    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "notes"]
    assert negative.status_code == 422
