"""Ids no row can have (at or above 2^63) are refused as bad input, not a server error."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import Account

TOO_BIG = str(2**63)
ROUTES = [
    ("GET", f"/api/horizon/streams/{TOO_BIG}"),
    ("PATCH", f"/api/horizon/streams/{TOO_BIG}"),
    ("DELETE", f"/api/horizon/streams/{TOO_BIG}"),
    ("GET", f"/api/horizon/streams/{TOO_BIG}/reports"),
    ("GET", f"/api/horizon/reports/{TOO_BIG}"),
    ("PATCH", f"/api/horizon/reports/{TOO_BIG}/articles/12345"),
    ("GET", f"/api/horizon/streams/{'9' * 40}"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
async def test_an_id_of_2_to_the_63_is_a_422_not_a_500(
    horizon_client: httpx.AsyncClient, alice: Account, method: str, path: str
) -> None:
    response = await horizon_client.request(method, path, json={}, headers=alice.headers)

    assert response.status_code == 422
    assert response.json()["detail"]


@pytest.mark.parametrize("action", ["star_article", "save_article_note"])
async def test_a_server_action_given_a_huge_report_id_is_a_422_not_another_report(
    horizon_client: httpx.AsyncClient, alice: Account, action: str
) -> None:
    response = await horizon_client.post(
        "/api/chat/actions",
        json={
            "action": action,
            "data": {"pmid": "12345", "report_id": 2**63, "notes": "n", "starred": True},
            "context": {"current_page": "article", "report_id": 1},
        },
        headers=alice.headers,
    )

    assert response.status_code == 422
    assert "report_id" in str(response.json()["detail"])
