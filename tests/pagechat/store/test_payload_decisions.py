"""What the user did with an answer's card is kept with the answer, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from pagechat.protocol import CustomPayload, PayloadDecision
from pagechat.store import (
    AssistantRecord,
    ConversationNotFound,
    TurnIds,
)
from pagechat.store.base import MessageNotFound, NoPayload
from tests.pagechat.store.conftest import Setup

CARD = CustomPayload(type="schema_proposal", data={"topics": ["base editing"]})


async def _answer_with_card(s: Setup, *, card: CustomPayload | None = CARD) -> TurnIds:
    ids = await s.store.begin_turn(user=s.alice, conversation_id=None, message="propose")
    record = AssistantRecord(
        content="Here is a schema.",
        status="complete",
        custom_payload=card,
        payloads=[card] if card else [],
    )
    await s.store.finish_turn(assistant_message_id=ids.assistant_message_id, record=record)
    return ids


async def _decide(s: Setup, ids: TurnIds, decision: PayloadDecision) -> None:
    await s.store.decide_payload(
        user=s.alice,
        conversation_id=ids.conversation_id,
        message_id=ids.assistant_message_id,
        decision=decision,
    )


async def _stored_decision(s: Setup, ids: TurnIds) -> str | None:
    detail = await s.store.get_conversation(user=s.alice, conversation_id=ids.conversation_id)
    return detail.messages[1].payload_decision


async def test_an_answer_starts_undecided_and_keeps_the_decision_made(s: Setup) -> None:
    ids = await _answer_with_card(s)
    assert await _stored_decision(s, ids) is None

    answer = await s.store.decide_payload(
        user=s.alice,
        conversation_id=ids.conversation_id,
        message_id=ids.assistant_message_id,
        decision="accepted",
    )

    assert (answer.id, answer.payload_decision, answer.custom_payload) == (
        ids.assistant_message_id,
        "accepted",
        CARD,
    )
    assert await _stored_decision(s, ids) == "accepted"
    history = await s.store.history(user=s.alice, conversation_id=ids.conversation_id)
    assert history[1].payload_decision == "accepted"


async def test_closing_a_card_keeps_an_earlier_accept_or_reject(s: Setup) -> None:
    ids = await _answer_with_card(s)

    await _decide(s, ids, "dismissed")
    assert await _stored_decision(s, ids) == "dismissed"
    await _decide(s, ids, "rejected")
    await _decide(s, ids, "dismissed")
    assert await _stored_decision(s, ids) == "rejected"
    await _decide(s, ids, "accepted")
    assert await _stored_decision(s, ids) == "accepted"


async def test_only_an_answer_with_a_card_takes_a_decision(s: Setup) -> None:
    plain = await _answer_with_card(s, card=None)

    with pytest.raises(NoPayload):
        await _decide(s, plain, "accepted")
    with pytest.raises(NoPayload):
        await s.store.decide_payload(
            user=s.alice,
            conversation_id=plain.conversation_id,
            message_id=plain.user_message_id,
            decision="accepted",
        )
    with pytest.raises(MessageNotFound):
        await s.store.decide_payload(
            user=s.alice,
            conversation_id=plain.conversation_id,
            message_id="no-such-message",
            decision="accepted",
        )


async def test_another_users_answer_cannot_be_decided(s: Setup) -> None:
    ids = await _answer_with_card(s)
    elsewhere = await _answer_with_card(s)

    with pytest.raises(ConversationNotFound):
        await s.store.decide_payload(
            user=s.bob,
            conversation_id=ids.conversation_id,
            message_id=ids.assistant_message_id,
            decision="rejected",
        )
    # A message is found only in its own conversation, even among the owner's.
    with pytest.raises(MessageNotFound):
        await s.store.decide_payload(
            user=s.alice,
            conversation_id=elsewhere.conversation_id,
            message_id=ids.assistant_message_id,
            decision="rejected",
        )
    assert await _stored_decision(s, ids) is None
