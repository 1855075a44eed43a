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


async def test_a_server_action_given_a_huge_report_id_fails_cleanly(
    horizon_client: httpx.AsyncClient, alice: Account
) -> None:
    response = await horizon_client.post(
        "/api/chat/actions",
        json={"action": "star_article", "data": {"pmid": "12345", "report_id": 2**64}},
        headers=alice.headers,
    )

    assert response.status_code < 500
