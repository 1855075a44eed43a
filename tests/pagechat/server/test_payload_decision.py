"""`POST /api/conversations/{id}/messages/{message_id}/decision`: what the user did with an
answer's card, kept so a reload does not reopen it and the model hears of it next turn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pagechat.models import AssistantTurn, FunctionModel, ScriptItem, tool_call
from pagechat.tools import ToolConfig, ToolContext, ToolResult, clear_tools, register_tool
from tests.conftest import Account

Replies = list[list[ScriptItem]]
CARD = {"type": "schema_proposal", "data": {"topics": ["base editing"]}}


@pytest.fixture(autouse=True)
def _proposal_tool() -> Iterator[None]:
    def propose(params: dict[str, Any], ctx: ToolContext) -> ToolResult:
        return ToolResult(text="Proposed a schema.", payload=CARD)

    clear_tools()
    register_tool(
        ToolConfig(
            name="propose_schema",
            description="Propose a schema",
            input_schema={"type": "object"},
            executor=propose,
        )
    )
    yield
    clear_tools()


async def _proposal(client: httpx.AsyncClient, who: Account, replies: Replies) -> dict[str, Any]:
    """A conversation whose answer carries a card: its ids, and the answer as stored."""
    replies += [["Let me draft one.", tool_call("propose_schema", {})], ["Here it is."]]
    response = await client.post(
        "/api/chat/stream", json={"message": "Propose a schema"}, headers=who.headers
    )
    assert response.status_code == 200
    conversation_id = response.headers["X-Conversation-Id"]
    messages = await _messages(client, who, conversation_id)
    return {"conversation_id": conversation_id, "question": messages[0], "answer": messages[1]}


async def _messages(
    client: httpx.AsyncClient, who: Account, conversation_id: str
) -> list[dict[str, Any]]:
    response = await client.get(f"/api/conversations/{conversation_id}", headers=who.headers)
    assert response.status_code == 200
    messages: list[dict[str, Any]] = response.json()["messages"]
    return messages


def _url(conversation_id: str, message_id: str) -> str:
    return f"/api/conversations/{conversation_id}/messages/{message_id}/decision"


async def _decide(
    client: httpx.AsyncClient, who: Account, conversation_id: str, message_id: str, body: Any
) -> httpx.Response:
    return await client.post(_url(conversation_id, message_id), json=body, headers=who.headers)


async def test_an_accepted_card_comes_back_accepted_with_the_conversation(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    talk = await _proposal(client, alice, replies)
    assert talk["answer"]["custom_payload"] == CARD
    assert talk["answer"]["payload_decision"] is None

    response = await _decide(
        client, alice, talk["conversation_id"], talk["answer"]["id"], {"decision": "accepted"}
    )

    assert response.status_code == 200
    assert response.json()["id"] == talk["answer"]["id"]
    assert response.json()["payload_decision"] == "accepted"
    assert response.json()["context_audit"] is None
    reloaded = await _messages(client, alice, talk["conversation_id"])
    assert reloaded[1]["payload_decision"] == "accepted"
    assert reloaded[1] == {**talk["answer"], "payload_decision": "accepted"}


async def test_closing_a_reopened_card_keeps_the_decision_made_in_it(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    talk = await _proposal(client, alice, replies)
    ids = (talk["conversation_id"], talk["answer"]["id"])

    first = await _decide(client, alice, *ids, {"decision": "rejected"})
    closed = await _decide(client, alice, *ids, {"decision": "dismissed"})

    assert first.json()["payload_decision"] == "rejected"
    assert closed.status_code == 200
    assert closed.json()["payload_decision"] == "rejected"
    assert (await _messages(client, alice, ids[0]))[1]["payload_decision"] == "rejected"


async def test_the_model_is_told_the_decision_on_the_next_turn(
    client: httpx.AsyncClient, alice: Account, replies: Replies, model: FunctionModel
) -> None:
    talk = await _proposal(client, alice, replies)
    await _decide(
        client, alice, talk["conversation_id"], talk["answer"]["id"], {"decision": "accepted"}
    )

    await client.post(
        "/api/chat/stream",
        json={"message": "What next?", "conversation_id": talk["conversation_id"]},
        headers=alice.headers,
    )

    answers = [m.text for m in model.requests[-1].messages if isinstance(m, AssistantTurn)]
    assert answers[-1].endswith("\n\n(The user accepted the proposed schema_proposal.)")


@pytest.mark.parametrize(
    "body",
    [
        {"decision": "maybe"},
        {"decision": "accepted", "extra": 1},
        {},
        {"decision": None},
        ["accepted"],
    ],
    ids=["unknown decision", "extra field", "no decision", "null", "not an object"],
)
async def test_a_bad_body_gets_422_and_changes_nothing(
    client: httpx.AsyncClient, alice: Account, replies: Replies, body: Any
) -> None:
    talk = await _proposal(client, alice, replies)

    response = await _decide(client, alice, talk["conversation_id"], talk["answer"]["id"], body)

    assert response.status_code == 422
    assert response.json()["detail"]
    assert (await _messages(client, alice, talk["conversation_id"]))[1]["payload_decision"] is None


async def test_a_message_without_a_card_gets_409(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    talk = await _proposal(client, alice, replies)
    replies.append(["Just text."])
    await client.post(
        "/api/chat/stream",
        json={"message": "And?", "conversation_id": talk["conversation_id"]},
        headers=alice.headers,
    )
    plain = (await _messages(client, alice, talk["conversation_id"]))[3]
    assert plain["custom_payload"] is None

    for message_id in (talk["question"]["id"], plain["id"]):
        response = await _decide(
            client, alice, talk["conversation_id"], message_id, {"decision": "accepted"}
        )
        assert response.status_code == 409
        assert response.json() == {"detail": "This message has no payload to decide on"}


async def test_an_unknown_message_or_conversation_gets_404(
    client: httpx.AsyncClient, alice: Account, replies: Replies
) -> None:
    talk = await _proposal(client, alice, replies)
    body = {"decision": "accepted"}

    unknown_message = await _decide(client, alice, talk["conversation_id"], "nope", body)
    unknown_conversation = await _decide(client, alice, "nope", talk["answer"]["id"], body)

    assert unknown_message.status_code == 404
    assert unknown_message.json() == {"detail": "Message not found"}
    assert unknown_conversation.status_code == 404
    assert unknown_conversation.json() == {"detail": "Conversation not found"}


async def test_another_users_card_answers_404_and_stays_undecided(
    client: httpx.AsyncClient, alice: Account, bob: Account, replies: Replies
) -> None:
    talk = await _proposal(client, alice, replies)
    bobs = await _proposal(client, bob, replies)
    body = {"decision": "rejected"}

    theirs = await _decide(client, bob, talk["conversation_id"], talk["answer"]["id"], body)
    # Bob's own conversation does not open Alice's message either.
    through_mine = await _decide(client, bob, bobs["conversation_id"], talk["answer"]["id"], body)

    assert theirs.status_code == 404
    assert theirs.json() == {"detail": "Conversation not found"}
    assert through_mine.status_code == 404
    assert (await _messages(client, alice, talk["conversation_id"]))[1]["payload_decision"] is None


async def test_no_token_gets_401(client: httpx.AsyncClient) -> None:
    response = await client.post(_url("c", "m"), json={"decision": "accepted"})

    assert response.status_code == 401
    assert response.json()["detail"]
