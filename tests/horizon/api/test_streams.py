"""`/api/horizon/streams`: each user's own streams; anyone else's answers 404."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Account
from tests.horizon.world import World

NEW_STREAM: dict[str, Any] = {
    "name": "Sepsis",
    "purpose": "Early recognition and treatment of sepsis.",
    "semantic_space": {
        "topics": [{"name": "Sepsis biomarkers", "description": "Lactate, procalcitonin."}],
        "entities": [{"name": "Sepsis", "type": "disease"}],
    },
    "retrieval_config": {"queries": [{"query": '"sepsis"[Title/Abstract]'}]},
}


async def test_a_created_stream_is_listed_and_read_back(
    horizon_client: httpx.AsyncClient, alice: Account
) -> None:
    created = await horizon_client.post(
        "/api/horizon/streams", json=NEW_STREAM, headers=alice.headers
    )
    listed = await horizon_client.get("/api/horizon/streams", headers=alice.headers)

    assert created.status_code == 201
    stream = created.json()
    assert stream["name"] == "Sepsis"
    assert stream["semantic_space"]["topics"][0]["name"] == "Sepsis biomarkers"
    assert stream["semantic_space"]["inclusion_notes"] == ""
    assert stream["retrieval_config"]["queries"] == [
        {"source": "pubmed", "query": '"sepsis"[Title/Abstract]', "rationale": ""}
    ]
    assert stream["presentation_config"] == {"categories": []}
    assert (stream["report_count"], stream["latest_report_date"]) == (0, None)
    assert listed.json() == {"data": [stream], "count": 1}
    read = await horizon_client.get(f"/api/horizon/streams/{stream['id']}", headers=alice.headers)
    assert read.json() == stream


async def test_an_update_changes_what_it_sends(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await horizon_client.patch(
        f"/api/horizon/streams/{world.alice_stream}",
        json={"name": "Editing", "presentation_config": {"categories": [{"name": "All"}]}},
        headers=alice.headers,
    )

    stream = response.json()
    assert response.status_code == 200
    assert stream["name"] == "Editing"
    assert stream["presentation_config"]["categories"] == [{"name": "All", "description": ""}]
    assert stream["semantic_space"]["topics"][0]["name"] == "CRISPR"
    assert stream["report_count"] == 3


async def test_a_deleted_stream_and_its_reports_are_gone(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    deleted = await horizon_client.delete(
        f"/api/horizon/streams/{world.alice_stream}", headers=alice.headers
    )
    stream = await horizon_client.get(
        f"/api/horizon/streams/{world.alice_stream}", headers=alice.headers
    )
    report = await horizon_client.get(
        f"/api/horizon/reports/{world.alice_report}", headers=alice.headers
    )

    assert deleted.status_code == 204
    assert (stream.status_code, report.status_code) == (404, 404)


@pytest.mark.parametrize(
    ("method", "body"),
    [("GET", None), ("PATCH", {"name": "Mine now"}), ("DELETE", None)],
)
async def test_another_users_stream_answers_404(
    horizon_client: httpx.AsyncClient,
    alice: Account,
    bob: Account,
    world: World,
    method: str,
    body: dict[str, Any] | None,
) -> None:
    url = f"/api/horizon/streams/{world.bob_stream}"

    response = await horizon_client.request(method, url, json=body, headers=alice.headers)

    assert response.status_code == 404
    assert response.json() == {"detail": "Stream not found"}
    still = await horizon_client.get(url, headers=bob.headers)
    assert still.json()["name"] == "CRISPR and gene editing"


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ({"name": ""}, ["body", "name"]),
        ({**NEW_STREAM, "colour": "blue"}, ["body", "colour"]),
        (
            {"name": "X", "semantic_space": {"entities": [{"name": "Y", "type": "planet"}]}},
            ["body", "semantic_space", "entities", 0, "type"],
        ),
        (
            {"name": "X", "presentation_config": {"categories": [{"name": "C"}] * 13}},
            ["body", "presentation_config", "categories"],
        ),
    ],
)
async def test_bad_input_is_a_clear_422(
    horizon_client: httpx.AsyncClient, alice: Account, body: dict[str, Any], where: list[Any]
) -> None:
    response = await horizon_client.post("/api/horizon/streams", json=body, headers=alice.headers)

    assert response.status_code == 422
    assert [e["loc"] for e in response.json()["detail"]] == [where]


async def test_streams_need_a_signed_in_user(horizon_client: httpx.AsyncClient) -> None:
    response = await horizon_client.get("/api/horizon/streams")

    assert response.status_code == 401
