"""Server actions that save an accepted proposal, or create a stream from a template."""

from __future__ import annotations

from typing import Any

import httpx

from horizon.actions import create_stream_from_template
from horizon.payloads import (
    PRESENTATION_CATEGORIES,
    RETRIEVAL_PROPOSAL,
    SCHEMA_PROPOSAL,
    STREAM_TEMPLATE,
)
from pagechat.pages import ActionContext
from tests.conftest import Account
from tests.horizon.world import World


async def _act(
    client: httpx.AsyncClient,
    user: Account,
    action: str,
    data: dict[str, Any],
    context: dict[str, Any],
) -> httpx.Response:
    return await client.post(
        "/api/chat/actions",
        json={"action": action, "data": data, "context": context},
        headers=user.headers,
    )


async def _stream(client: httpx.AsyncClient, user: Account, stream_id: int) -> dict[str, Any]:
    response = await client.get(f"/api/horizon/streams/{stream_id}", headers=user.headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_an_accepted_schema_proposal_is_saved_to_the_stream(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    context = {
        "current_page": "edit_stream",
        "active_tab": "semantic",
        "stream_id": world.alice_stream,
    }

    response = await _act(
        horizon_client, alice, "apply_schema_proposal", SCHEMA_PROPOSAL.example, context
    )

    result = response.json()
    assert response.status_code == 200
    assert result["ok"] is True
    assert result["message"] == "Applied the proposed changes to “CRISPR and gene editing”."
    stream = await _stream(horizon_client, alice, world.alice_stream)
    changes = SCHEMA_PROPOSAL.example["proposed_changes"]
    assert result["data"] == stream
    assert stream["name"] == "CRISPR and gene editing"
    assert stream["purpose"] == changes["purpose"]
    assert stream["semantic_space"]["topics"] == changes["topics"]
    assert stream["semantic_space"]["entities"] == changes["entities"]
    assert stream["semantic_space"]["exclusion_notes"] == changes["exclusion_notes"]
    assert stream["semantic_space"]["inclusion_notes"].startswith("Original research")


async def test_a_proposal_can_rename_the_stream(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    proposal = {
        "proposed_changes": {"stream_name": "Genome editing"},
        "confidence": "high",
        "reasoning": "Shorter.",
        "stream_id": world.alice_stream,
    }

    response = await _act(
        horizon_client, alice, "apply_schema_proposal", proposal, {"current_page": "edit_stream"}
    )

    assert response.json()["ok"] is True
    assert (await _stream(horizon_client, alice, world.alice_stream))["name"] == "Genome editing"


async def test_a_retrieval_proposal_replaces_the_queries(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    context = {"current_page": "edit_stream", "stream_id": world.alice_stream}

    response = await _act(
        horizon_client, alice, "apply_retrieval_proposal", RETRIEVAL_PROPOSAL.example, context
    )

    assert response.json()["ok"] is True
    stream = await _stream(horizon_client, alice, world.alice_stream)
    assert stream["retrieval_config"]["queries"] == RETRIEVAL_PROPOSAL.example["queries"]


async def test_proposed_categories_replace_the_categories(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    context = {"current_page": "edit_stream", "stream": {"id": world.alice_stream}}

    response = await _act(
        horizon_client,
        alice,
        "apply_presentation_categories",
        PRESENTATION_CATEGORIES.example,
        context,
    )

    assert response.json()["ok"] is True
    stream = await _stream(horizon_client, alice, world.alice_stream)
    assert (
        stream["presentation_config"]["categories"]
        == (PRESENTATION_CATEGORIES.example["categories"])
    )


async def test_another_users_stream_is_not_changed(
    horizon_client: httpx.AsyncClient, alice: Account, bob: Account, world: World
) -> None:
    before = await _stream(horizon_client, bob, world.bob_stream)
    context = {"current_page": "edit_stream", "stream_id": world.bob_stream}

    response = await _act(
        horizon_client, alice, "apply_schema_proposal", SCHEMA_PROPOSAL.example, context
    )

    assert response.status_code == 200
    assert response.json()["ok"] is False
    assert response.json()["message"] == f"Stream {world.bob_stream} was not found."
    assert await _stream(horizon_client, bob, world.bob_stream) == before


async def test_a_proposal_without_a_stream_asks_which(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    response = await _act(
        horizon_client,
        alice,
        "apply_schema_proposal",
        SCHEMA_PROPOSAL.example,
        {"current_page": "edit_stream"},
    )

    assert response.json()["ok"] is False
    assert response.json()["message"] == "Which stream? The page sent no stream_id."


async def test_a_malformed_proposal_is_refused_before_anything_changes(
    horizon_client: httpx.AsyncClient, alice: Account, world: World
) -> None:
    bad = {"proposed_changes": {"colour": "blue"}, "confidence": "sure", "reasoning": ""}
    context = {"current_page": "edit_stream", "stream_id": world.alice_stream}
    before = await _stream(horizon_client, alice, world.alice_stream)

    response = await _act(horizon_client, alice, "apply_schema_proposal", bad, context)

    assert response.status_code == 422
    assert response.json()["detail"].startswith("Invalid data: ")
    assert await _stream(horizon_client, alice, world.alice_stream) == before


async def test_a_template_becomes_a_new_stream_of_the_user(
    horizon_client: httpx.AsyncClient, alice: Account, bob: Account
) -> None:
    response = await _act(
        horizon_client,
        alice,
        "create_stream_from_template",
        STREAM_TEMPLATE.example,
        {"current_page": "new_stream"},
    )

    result = response.json()
    assert result["ok"] is True
    assert result["message"] == "Created the stream “Heart failure therapies”."
    stream = await _stream(horizon_client, alice, result["data"]["stream_id"])
    assert stream["semantic_space"]["topics"] == STREAM_TEMPLATE.example["topics"]
    assert stream["retrieval_config"]["queries"] == [
        {**q, "rationale": ""} for q in STREAM_TEMPLATE.example["queries"]
    ]
    assert stream["presentation_config"]["categories"][0]["name"] == "Trials"
    bobs = await horizon_client.get("/api/horizon/streams", headers=bob.headers)
    assert bobs.json() == {"data": [], "count": 0}


async def test_without_a_database_an_action_says_so() -> None:
    context = ActionContext(
        user_id="someone", is_admin=False, conversation_id=None, page_context={}, session=None
    )

    outcome = await create_stream_from_template(STREAM_TEMPLATE.example, context)

    assert (outcome.ok, outcome.message) == (
        False,
        "This action needs the app's database, and the request has none.",
    )
