from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from horizon.pages.new_stream import PAGE, build_context
from pagechat.pages import PayloadConfig, parse_reply, prepare_turn
from pagechat.protocol import CustomPayload


def test_context_shows_the_draft_so_far() -> None:
    draft = {
        "name": "Heart failure devices",
        "purpose": "",
        "semantic_space": {"topics": [{"name": "Catheter ablation"}], "entities": []},
    }
    text = build_context({"current_page": "new_stream", "stream": draft})
    assert text.splitlines()[:6] == [
        "Page: new_stream",
        "Stream name: Heart failure devices",
        "Purpose: (not set)",
        "Topics (1):",
        "- Catheter ablation",
        "Entities (0): none",
    ]


@pytest.mark.parametrize("context", [{}, {"stream": None}, {"draft": ["x"]}, {"stream": 42}])
def test_context_of_an_empty_or_odd_draft(context: dict[str, Any]) -> None:
    text = build_context(context)
    assert text.startswith("Page: new_stream\nStream name: (not set)\nPurpose: (not set)")
    assert "Topics (0): none" in text


def test_the_draft_key_is_read_when_stream_is_absent() -> None:
    assert "Stream name: Sepsis" in build_context({"draft": {"name": "Sepsis"}})


def test_all_three_payloads_are_offered_without_tabs() -> None:
    setup = prepare_turn({"current_page": "new_stream"}, is_admin=False)
    assert [p.type for p in setup.payloads] == [
        "stream_template",
        "topic_suggestions",
        "validation_feedback",
    ]
    assert "SCHEMA_PROPOSAL:" not in setup.system_prompt


@pytest.mark.parametrize("payload", PAGE.payloads, ids=lambda p: p.type)
def test_each_payload_example_is_valid_and_parses(
    payload: PayloadConfig, example_of: Callable[[PayloadConfig], tuple[str, Any]]
) -> None:
    line, data = example_of(payload)
    reply = parse_reply(f"A draft:\n{line}\nAccept it to fill the form.", "new_stream")
    assert reply.payloads == [CustomPayload(type=payload.type, data=data)]
    assert reply.message == "A draft:\nAccept it to fill the form."
    assert reply.warnings == []


def test_a_template_without_topics_is_an_error_card_not_text() -> None:
    line = 'STREAM_TEMPLATE: {"name": "X", "purpose": "Y", "topics": []}'
    reply = parse_reply(line, "new_stream")
    assert [(p.type, p.data["payload_type"]) for p in reply.payloads] == [
        ("payload_error", "stream_template")
    ]
    assert reply.message == ""
