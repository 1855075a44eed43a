"""A chart the model writes itself (`CHART:`): inline Vega-Lite gets through, URLs do not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pagechat.pages import CHART_PAYLOAD, PageConfig, parse_reply, register_page

SPEC: dict[str, Any] = {
    "mark": "line",
    "data": {"values": [{"week": 1, "n": 3}, {"week": 2, "n": 5}]},
    "encoding": {
        "x": {"field": "week", "type": "ordinal"},
        "y": {"field": "n", "type": "quantitative"},
    },
}


@pytest.fixture
def page() -> PageConfig:
    return register_page("charts_page", payloads=[CHART_PAYLOAD])


def test_an_inline_chart_from_the_model_becomes_a_chart_payload(page: PageConfig) -> None:
    data = {"title": "Weekly", "spec": SPEC}

    reply = parse_reply(f"Here it is.\nCHART: {json.dumps(data)}", page)

    assert [(p.type, p.data) for p in reply.payloads] == [("chart", data)]
    assert reply.warnings == []


@pytest.mark.parametrize(
    "spec",
    [
        {**SPEC, "data": {"url": "https://evil.example/data.csv"}},
        {**SPEC, "encoding": {"Href": {"field": "link"}}},
        {**SPEC, "data": {"values": [{"n": "javascript:alert(1)"}]}},
        {"data": {"values": []}},
        {**SPEC, "$schema": "https://evil.example/s.json"},
    ],
)
def test_a_chart_that_could_fetch_is_an_error_card_not_a_chart(
    page: PageConfig, spec: dict[str, Any]
) -> None:
    reply = parse_reply(f"CHART: {json.dumps({'title': 't', 'spec': spec})}", page)

    assert [p.type for p in reply.payloads] == ["payload_error"]
    assert reply.payloads[0].data["payload_type"] == "chart"
    assert reply.message == ""
