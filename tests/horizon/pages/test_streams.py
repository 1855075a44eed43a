from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from horizon.pages.streams import PAGE, build_context
from pagechat.pages import PayloadConfig, parse_reply, prepare_turn
from pagechat.protocol import CustomPayload

STREAMS = [
    {
        "id": 4,
        "name": "Cancer immunotherapy",
        "purpose": "Checkpoint inhibitor trials",
        "topics": [{"name": "PD-1"}, {"name": "CAR-T"}],
        "report_count": 12,
        "latest_report_date": "2025-01-06",
    },
    {"id": "7", "name": "Sepsis", "topic_count": 3, "report_count": 0},
]


def test_context_lists_each_stream_on_one_line() -> None:
    text = build_context({"current_page": "streams", "streams": STREAMS})
    assert text.splitlines() == [
        "Page: streams",
        "Research streams (2):",
        "- [4] Cancer immunotherapy — purpose: Checkpoint inhibitor trials; topics (2): PD-1, "
        "CAR-T; reports: 12; latest report: 2025-01-06",
        "- [7] Sepsis — topics: 3; reports: 0",
    ]


@pytest.mark.parametrize(
    "context", [{}, {"streams": "many"}, {"streams": [None, 3, "x"]}, {"streams": {"id": 1}}]
)
def test_context_without_streams(context: dict[str, Any]) -> None:
    assert build_context(context) == "Page: streams\nResearch streams (0): none"


def test_a_stream_without_name_or_id_is_still_listed() -> None:
    text = build_context({"streams": [{"purpose": "?", "report_count": True}]})
    assert text.endswith("- (unnamed) — purpose: ?")


def test_both_payloads_are_offered() -> None:
    setup = prepare_turn({"current_page": "streams", "streams": STREAMS}, is_admin=False)
    assert [p.type for p in setup.payloads] == ["stream_suggestions", "portfolio_insights"]
    assert "open_stream (data: stream_id)" in setup.system_prompt


@pytest.mark.parametrize("payload", PAGE.payloads, ids=lambda p: p.type)
def test_each_payload_example_is_valid_and_parses(
    payload: PayloadConfig, example_of: Callable[[PayloadConfig], tuple[str, Any]]
) -> None:
    line, data = example_of(payload)
    reply = parse_reply(line, "streams")
    assert reply.payloads == [CustomPayload(type=payload.type, data=data)]
    assert reply.warnings == []


def test_open_stream_and_create_stream_are_client_actions() -> None:
    reply = parse_reply(
        'SUGGESTED_ACTIONS: [{"label": "Open", "action": "open_stream", "data": {"stream_id": 4}},'
        ' {"label": "New", "action": "create_stream"}, {"label": "X", "action": "switch_tab"}]',
        "streams",
    )
    assert reply.suggested_actions is not None
    assert [a.action for a in reply.suggested_actions] == ["open_stream", "create_stream"]
