"""Server actions on a report's articles: stars and notes, for the report's owner only."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Account
from tests.horizon.world import World


async def _act(
    client: httpx.AsyncClient, user: Account, action: str, data: dict[str, Any], report: int
) -> dict[str, Any]:
    response = await client.post(
        "/api/chat/actions",
        json={
            "action": action,
            "data": data,
            "context": {"current_page": "reports", "report_id": report},
        },
        headers=user.headers,
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _entry(client: httpx.AsyncClient, user: Account, report: int, pmid: str) -> Any:
    response = await client.get(f"/api/horizon/reports/{report}", headers=user.headers)
    assert response.status_code == 200, response.text
    return next(a for a in response.json()["articles"] if a["pmid"] == pmid)


async def test_starring_an_article_shows_on_the_report(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    pmid = world.alice_pmids[2]

    result = await _act(horizon_client, alice, "star_article", {"pmid": pmid}, world.alice_report)

    assert (result["ok"], result["message"]) == (True, f"Starred PMID {pmid}.")
    assert result["data"]["starred"] is True
    assert (await _entry(horizon_client, alice, world.alice_report, pmid))["starred"] is True


async def test_an_article_can_be_unstarred(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    pmid = world.alice_pmids[0]

    result = await _act(
        horizon_client, alice, "star_article", {"pmid": pmid, "starred": False}, world.alice_report
    )

    assert result["message"] == f"Unstarred PMID {pmid}."
    assert (await _entry(horizon_client, alice, world.alice_report, pmid))["starred"] is False


async def test_notes_are_saved_on_the_article(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    pmid = world.alice_pmids[1]

    result = await _act(
        horizon_client,
        alice,
        "save_article_note",
        {"pmid": pmid, "notes": "Compare with the 2023 trial."},
        world.alice_report,
    )

    assert (result["ok"], result["message"]) == (True, f"Saved your notes on PMID {pmid}.")
    entry = await _entry(horizon_client, alice, world.alice_report, pmid)
    assert entry["notes"] == "Compare with the 2023 trial."


async def test_another_users_report_is_not_touched(
    horizon_client: httpx.AsyncClient, alice: Account, bob: Account, world: World
) -> None:
    pmid = world.alice_pmids[3]

    result = await _act(horizon_client, bob, "star_article", {"pmid": pmid}, world.alice_report)
    noted = await _act(
        horizon_client, bob, "save_article_note", {"pmid": pmid, "notes": "x"}, world.alice_report
    )

    assert result["ok"] is False
    assert result["message"] == f"PMID {pmid} is not in report {world.alice_report}."
    assert noted["ok"] is False
    entry = await _entry(horizon_client, alice, world.alice_report, pmid)
    assert (entry["starred"], entry["notes"]) == (False, "")


async def test_the_report_in_the_data_wins_over_the_page(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    pmid = world.alice_pmids[4]

    result = await _act(
        horizon_client,
        alice,
        "star_article",
        {"pmid": pmid, "report_id": world.alice_report},
        world.bob_report,
    )

    assert result["ok"] is True


async def test_a_star_without_a_pmid_is_refused(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await horizon_client.post(
        "/api/chat/actions",
        json={
            "action": "star_article",
            "data": {},
            "context": {"current_page": "reports", "report_id": world.alice_report},
        },
        headers=alice.headers,
    )

    assert response.status_code == 422
    assert "pmid" in response.json()["detail"]
